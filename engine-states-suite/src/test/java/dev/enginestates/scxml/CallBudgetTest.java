package dev.enginestates.scxml;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.UserCodeException;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.ecs.StepFailedException;
import dev.enginestates.plain.StateMachine;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.function.Supplier;

import static dev.enginestates.scxml.InvokeTest.doc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One call into the library (a send, a step, the start) spends at most one budget of
 * {@link ScxmlImport#callBudget} instructions on an imported machine, across its evaluations, its
 * document's work and all its sessions. Once spent, the machine's code throws a
 * {@link CallBudgetException}: the call fails as when a game's code throws (a {@code UserCodeException}
 * whose cause it is), the machine keeps a valid configuration, and the next call has a fresh budget.
 * Each test counts the work done (turns, evaluations, deliveries), not time.
 */
class CallBudgetTest {
    /** A guard against a hang; the behaviour checked is the counts. */
    private static final Duration GUARD = Duration.ofSeconds(120);
    /** Pieces of the document's own work one call affords at most. */
    private static final long OPERATIONS = ScxmlImport.DEFAULT_CALL_BUDGET / Bounds.OPERATION;
    /**
     * The instructions of the tests' loops of 50,000 empty turns, at the least (Rhino runs about 15 a turn): about half
     * of what one evaluation may run.
     */
    private static final long HALF_AN_EVALUATION = 500_000;

    private static double number(StateMachine<Datamodel> m, String expr) {
        return ((Number) m.context().toJava(m.context().evaluate(expr))).doubleValue();
    }

    /** The call's failure: the engine's UserCodeException around the CallBudgetException. */
    private static CallBudgetException spent(Throwable failure) {
        assertInstanceOf(UserCodeException.class, failure, failure::toString);
        Throwable c = failure;
        while (c != null && !(c instanceof CallBudgetException)) {
            c = c.getCause();
        }
        assertInstanceOf(CallBudgetException.class, c, failure::toString);
        assertTrue(c.getMessage().contains("budget of " + ScxmlImport.DEFAULT_CALL_BUDGET + " instructions for one call"), c::getMessage);
        return (CallBudgetException) c;
    }

    private static <T> T guarded(Supplier<T> work) {
        return assertTimeoutPreemptively(GUARD, work::get);
    }

    @Test
    void oneSendSpendsAtMostOneBudgetOnANestedForeach() {
        StateMachine<Datamodel> m = new StateMachine<>(ScxmlImport.create().read(doc("""
                <datamodel><data id="rows"/><data id="n" expr="0"/></datamodel>
                <state id="idle">
                  <transition event="go" target="busy">
                    <assign location="rows" expr="new Array(3000).fill(0)"/>
                    <foreach array="rows" item="r"><foreach array="rows" item="c"><assign location="n" expr="n + 1"/></foreach></foreach>
                  </transition>
                </state>
                <state id="busy"><transition event="ping" target="idle"><assign location="n" expr="0"/></transition></state>
                """)));
        UserCodeException e = assertThrows(UserCodeException.class, () -> guarded(() -> m.send("go")));
        assertEquals("scxml", spent(e).machineId(), "the machine is named");
        double n = number(m, "n");
        assertTrue(n > 1_000 && n < OPERATIONS / 2, "each inner turn costs a turn and an <assign>: " + n + " of 9,000,000 ran");
        assertEquals("busy", m.state(), "the transition's configuration was written before its actions ran");
        assertTrue(m.send("ping"), "the next call has a fresh budget");
        assertEquals("idle", m.state());
        assertEquals(0.0, number(m, "n"), "its <assign> ran");
    }

    @Test
    void anEventlessSelfTransitionWhoseConditionSpendsNearlyAnEvaluationsBudgetStopsWithinOneBudget() {
        // each condition runs about half of the evaluation's own budget; without a budget per call, 10,000 microsteps of it
        StateMachine<Datamodel> m = new StateMachine<>(ScxmlImport.create().read(doc("""
                <datamodel><data id="tests" expr="0"/></datamodel>
                <state id="idle"><transition event="go" target="loop"/></state>
                <state id="loop">
                  <transition cond="(function () { tests++; for (var i = 0; i &lt; 50000; i++) {} return true; })()" target="loop">
                    <assign location="tests" expr="tests"/>
                  </transition>
                </state>
                """)));
        spent(assertThrows(UserCodeException.class, () -> guarded(() -> m.send("go"))));
        double tests = number(m, "tests");
        assertTrue(tests >= 2 && tests <= ScxmlImport.DEFAULT_CALL_BUDGET / HALF_AN_EVALUATION, tests + " conditions tested");
    }

    @Test
    void theStartSpendsAtMostOneBudget() {
        var machine = ScxmlImport.create().read(doc("""
                <datamodel><data id="tests" expr="0"/></datamodel>
                <state id="loop">
                  <transition cond="(function () { tests++; for (var i = 0; i &lt; 50000; i++) {} return true; })()" target="loop">
                    <assign location="tests" expr="tests"/>
                  </transition>
                </state>
                """));
        spent(assertThrows(UserCodeException.class, () -> guarded(() -> new StateMachine<>(machine))));
    }

    @Test
    void oneStepSpendsAtMostOneBudgetOverEverySendThatFallsDueInIt() {
        // 100 sends to itself fall due in one step, each running a script of about half an evaluation's budget
        StateMachine<Datamodel> m = new StateMachine<>(ScxmlImport.create().read(doc("""
                <datamodel><data id="runs" expr="0"/></datamodel>
                <state id="s">
                  <onentry><foreach array="new Array(100).fill(0)" item="x" index="i"><send event="work" delayexpr="(i + 1) + 'ms'"/></foreach></onentry>
                  <transition event="work"><script>runs++; for (var k = 0; k &lt; 50000; k++) {}</script></transition>
                </state>
                """)));
        spent(assertThrows(UserCodeException.class, () -> guarded(() -> {
            m.step(1.0);
            return null;
        })));
        double first = number(m, "runs");
        assertTrue(first >= 2 && first <= ScxmlImport.DEFAULT_CALL_BUDGET / HALF_AN_EVALUATION, first + " of the 100 sends ran in the step");
        spent(assertThrows(UserCodeException.class, () -> m.step(1.0)));
        assertTrue(number(m, "runs") > first, "the next step had a budget of its own and went on with the sends still due");
    }

    @Test
    void eachSendFromOutsideHasABudgetOfItsOwnOnAnEntityAndAStepOneForEachMachine() {
        States<Datamodel> states = States.of(ScxmlImport.create().read(doc("""
                <datamodel><data id="runs" expr="0"/></datamodel>
                <state id="s">
                  <transition event="work"><script>runs++; for (var k = 0; k &lt; 50000; k++) {}</script></transition>
                  <transition event="many">
                    <foreach array="new Array(100).fill(0)" item="x" index="i"><send event="work" delayexpr="(i + 1) + 'ms'"/></foreach>
                  </transition>
                </state>
                """)));
        try (StateWorld world = StateWorld.create()) {
            Entity a = world.spawn(states.trait());
            Entity b = world.spawn(states.trait());
            for (int i = 0; i < 30; i++) {
                states.send(a, "work"); // thirty calls: none spends more than its own budget
            }
            assertEquals(30.0, eval(states.read(a).context(), "runs"));
            states.send(a, "many");
            states.send(b, "many");
            StepFailedException e = assertThrows(StepFailedException.class, () -> world.step(1.0));
            assertEquals(2, e.failures().size(), "each machine spent its own budget in the step");
            double ranA = eval(states.read(a).context(), "runs") - 30;
            double ranB = eval(states.read(b).context(), "runs");
            assertTrue(ranA >= 2 && ranA <= ScxmlImport.DEFAULT_CALL_BUDGET / HALF_AN_EVALUATION && ranA == ranB,
                    ranA + " and " + ranB + " sends ran in the step");
        }
    }

    // ------------------------------------------------------------------ loops with little script cost per turn

    @Test
    void aForeachOverAHugeArrayWithAnEmptyBodyStopsWithinOneBudget() {
        StateMachine<Datamodel> m = new StateMachine<>(ScxmlImport.create().read(doc("""
                <datamodel><data id="i" expr="-1"/></datamodel>
                <state id="idle">
                  <transition event="go"><foreach array="new Array(%d).fill(0)" item="x" index="i"/></transition>
                </state>
                """.formatted(RhinoScope.MAX_ITEMS))));
        spent(assertThrows(UserCodeException.class, () -> guarded(() -> m.send("go"))));
        double turns = number(m, "i") + 1;
        assertTrue(turns > 1_000 && turns <= OPERATIONS, "each turn costs one operation: " + turns + " of " + RhinoScope.MAX_ITEMS);
    }

    @Test
    void aLoopOfSendsWithNoDelayStopsWithinOneBudget() {
        StateMachine<Datamodel> m = new StateMachine<>(ScxmlImport.create().read(doc("""
                <datamodel><data id="n" expr="0"/></datamodel>
                <state id="idle">
                  <transition event="go"><send event="again"/></transition>
                  <transition event="again"><assign location="n" expr="n + 1"/><send event="again"/></transition>
                </state>
                """)));
        spent(assertThrows(UserCodeException.class, () -> guarded(() -> m.send("go"))));
        double n = number(m, "n");
        assertTrue(n > 100 && n <= OPERATIONS / 3, "an action, an <assign> and a <send> each: " + n + " sends processed");
        assertTrue(dev.enginestates.records.Access.record(m).sendCount() <= 1, "at most the next send waits");
    }

    @Test
    void aParentAndItsChildSendingBackAndForthShareOneBudget() {
        StateMachine<Datamodel> m = new StateMachine<>(ScxmlImport.create().read(doc("""
                <datamodel><data id="pongs" expr="0"/></datamodel>
                <state id="idle"><transition event="go" target="s0"/></state>
                <state id="s0">
                  <invoke id="kid"><content><scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript">
                    <state id="c"><transition event="ping"><send target="#_parent" event="pong"/></transition></state>
                  </scxml></content></invoke>
                  <transition event="pong"><assign location="pongs" expr="pongs + 1"/><send target="#_kid" event="ping"/></transition>
                  <transition event="start"><send target="#_kid" event="ping"/></transition>
                </state>
                """)));
        m.send("go");
        spent(assertThrows(UserCodeException.class, () -> guarded(() -> m.send("start"))));
        double pongs = number(m, "pongs");
        assertTrue(pongs > 100 && pongs <= OPERATIONS / 4, "each round runs code in both sessions: " + pongs + " rounds");
    }

    @Test
    void aContentExpressionThatMakesAHugeDocumentSpendsTheBudgetBeforeItIsCompiled() {
        // a comment of 9 million characters, made by doubling (a repeat would spend its length within the expression's
        // own budget): copied out of the datamodel, then compiled, it costs twice its length
        StateMachine<Datamodel> m = new StateMachine<>(ScxmlImport.create().read(doc("""
                <state id="idle"><transition event="go" target="s0"/></state>
                <state id="s0">
                  <invoke><content expr="'&lt;scxml xmlns=&quot;http://www.w3.org/2005/07/scxml&quot; version=&quot;1.0&quot;&gt;&lt;!--'
                      + (function () { var s = 'x'; for (var i = 0; i &lt; 23; i++) { s = s + s; } return s + s.slice(0, 600000); })()
                      + '--&gt;&lt;state id=&quot;c&quot;/&gt;&lt;/scxml&gt;'"/></invoke>
                </state>
                """)));
        spent(assertThrows(UserCodeException.class, () -> guarded(() -> m.send("go"))));
        assertEquals(1, m.context().session.bounds.sessions, "no child was compiled or started");
        assertEquals("s0", m.state());
    }

    @Test
    void copiesOfAnEventsDataCountAgainstTheBudget() {
        // each round copies 20,000 values out of the datamodel for the send and into it for _event
        StateMachine<Datamodel> m = new StateMachine<>(ScxmlImport.create().read(doc("""
                <datamodel><data id="big"/><data id="n" expr="0"/></datamodel>
                <state id="idle">
                  <transition event="go">
                    <assign location="big" expr="new Array(20000).fill(1)"/><send event="again"><param name="d" expr="big"/></send>
                  </transition>
                  <transition event="again"><assign location="n" expr="n + 1"/><send event="again"><param name="d" expr="big"/></send></transition>
                </state>
                """)));
        spent(assertThrows(UserCodeException.class, () -> guarded(() -> m.send("go"))));
        double n = number(m, "n");
        assertTrue(n >= 1 && n <= ScxmlImport.DEFAULT_CALL_BUDGET / (40_000 * Bounds.VALUE), n + " rounds of 40,000 copied values");
    }

    private static double eval(Datamodel dm, String expr) {
        return ((Number) dm.toJava(dm.evaluate(expr))).doubleValue();
    }
}

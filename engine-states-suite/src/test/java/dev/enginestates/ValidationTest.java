package dev.enginestates;

import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.declare.MachineBuilder;
import dev.enginestates.declare.Named;
import dev.enginestates.declare.SelfAction;
import dev.enginestates.declare.Self;
import dev.enginestates.plain.StateMachine;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * DESIGN.md, "Bad input gets a clear error and changes nothing" and layer 2 "Compilation":
 * validation collects every problem first and throws once, naming each bad target with the
 * state that wrote it; the message names the machine, the state path and what was expected.
 */
class ValidationTest {

    // ------------------------------------------------------------------ helpers

    private static InvalidMachineException invalid(String id, Consumer<MachineBuilder<List<String>>> body) {
        return assertThrows(InvalidMachineException.class, () -> Machine.define(id, ArrayList::new, body));
    }

    private static InvalidMachineException invalid(Consumer<MachineBuilder<List<String>>> body) {
        return invalid("m", body);
    }

    /** The exception has exactly one problem and it, and the message, contain every fragment. */
    private static String onlyProblem(InvalidMachineException e, String... fragments) {
        assertEquals(1, e.problems().size(), () -> "expected one problem, got " + e.problems());
        String p = e.problems().get(0);
        for (String f : fragments) {
            assertTrue(p.contains(f), () -> "problem should contain <" + f + ">: " + p);
            assertTrue(e.getMessage().contains(f), () -> "message should contain <" + f + ">: " + e.getMessage());
        }
        return p;
    }

    private static void assertNamesMachine(InvalidMachineException e, String id) {
        assertEquals(id, e.machineId());
        assertTrue(e.getMessage().contains("machine '" + id + "'"), e::getMessage);
    }

    // ------------------------------------------------------------------ unknown targets

    @Test
    void unknownTarget_inOn_namesStateThatWroteIt_andTargetText() {
        InvalidMachineException e = invalid(m -> m
                .state("patrol", p -> p
                        .state("watch", w -> w.on("BELL", "answr"))
                        .state("rest"))
                .state("answer"));
        assertNamesMachine(e, "m");
        onlyProblem(e, "state 'patrol.watch'", "on BELL", "'answr'", "names no state", "watch, rest");
    }

    @Test
    void unknownTarget_inAlways() {
        InvalidMachineException e = invalid(m -> m
                .state("a", a -> a.always("nowhere"))
                .state("b"));
        assertNamesMachine(e, "m");
        onlyProblem(e, "state 'a'", "(always)", "'nowhere'", "names no state");
    }

    @Test
    void unknownTarget_inOnDone() {
        InvalidMachineException e = invalid(m -> m
                .state("a", a -> a.onDone("nowhere").state("a1").finalState("fin"))
                .state("b"));
        assertNamesMachine(e, "m");
        onlyProblem(e, "state 'a'", "(onDone)", "'nowhere'", "names no state");
    }

    @Test
    void unknownTarget_inWaitThen() {
        InvalidMachineException e = invalid("siege", m -> m
                .state("fight", f -> f.on("WAVE_HELD", "breather"))
                .state("breather", b -> b.waitFor(12, "fihgt")));
        assertNamesMachine(e, "siege");
        onlyProblem(e, "state 'breather'", "(wait)", "'fihgt'", "names no state", "fight, breather");
    }

    @Test
    void unknownTarget_inWhen() {
        InvalidMachineException e = invalid(m -> m
                .state("sliding", s -> s.when(log -> log.isEmpty(), "staling"))
                .state("stalling"));
        assertNamesMachine(e, "m");
        onlyProblem(e, "state 'sliding'", "(when)", "'staling'", "names no state");
    }

    @Test
    void unknownTarget_idThatNoStateHas() {
        InvalidMachineException e = invalid(m -> m
                .state("a", a -> a.on("GO", "#nobody"))
                .state("b", b -> b.id("B")));
        onlyProblem(e, "state 'a'", "'#nobody'", "no state has id 'nobody'");
    }

    @Test
    void unknownTarget_dotChildThatDoesNotExist() {
        InvalidMachineException e = invalid(m -> m
                .state("a", a -> a.on("GO", ".a3").state("a1").state("a2")));
        onlyProblem(e, "state 'a'", "'.a3'", "inside state 'a'", "a1, a2");
    }

    // ------------------------------------------------------------------ state checks

    @Test
    void initial_namingNoChild() {
        InvalidMachineException e = invalid(m -> m
                .state("patrol", p -> p.initial("wacth").state("watch").state("rest")));
        assertNamesMachine(e, "m");
        onlyProblem(e, "state 'patrol'", "initial 'wacth'", "names no child", "watch, rest");
    }

    @Test
    void initial_namingNoChild_onTheRoot() {
        InvalidMachineException e = invalid(m -> m.initial("nope").state("a"));
        onlyProblem(e, "the machine's root", "initial 'nope'", "expected one of a");
    }

    @Test
    void initial_namingAHistoryChildWithoutADefault() {
        // an initial history state is allowed (XState, SCXML's <initial> to a history), but with nothing remembered it
        // would enter its parent's initial state, itself again: it needs a default target
        InvalidMachineException e = invalid(m -> m
                .state("a", a -> a.initial("h").history("h").state("a1").state("a2")));
        onlyProblem(e, "state 'a'", "initial 'h'", "a history state with no default target", "a regular child: a1, a2");
    }

    @Test
    void wait_onAStateWithChildren() {
        InvalidMachineException e = invalid(m -> m
                .state("patrol", p -> p.waitFor(4, "rest").state("watch"))
                .state("rest"));
        assertNamesMachine(e, "m");
        onlyProblem(e, "state 'patrol'", "has a wait but also children");
    }

    @Test
    void history_asTheOnlyChild_isOutsideACompoundState() {
        InvalidMachineException e = invalid(m -> m
                .state("a", a -> a.history("h"))
                .state("b"));
        assertNamesMachine(e, "m");
        onlyProblem(e, "state 'a.h'", "is a history state outside a compound or parallel state", "state 'a'");
    }

    @Test
    void duplicateExplicitIds_nameBothStates() {
        InvalidMachineException e = invalid(m -> m
                .state("a", a -> a.id("X"))
                .state("b", b -> b.state("b1", b1 -> b1.id("X"))));
        assertNamesMachine(e, "m");
        onlyProblem(e, "state 'b.b1'", "id 'X'", "state 'a' already has", "unique");
    }

    @ParameterizedTest(name = "waitFor({0})")
    @CsvSource({"-1.0", "NaN", "Infinity"})
    void wait_secondsNegativeNaNOrInfinite(double seconds) {
        InvalidMachineException e = invalid(m -> m
                .state("breather", b -> b.waitFor(seconds, "fight"))
                .state("fight"));
        assertNamesMachine(e, "m");
        onlyProblem(e, "state 'breather'", "waits " + seconds + " seconds",
                "expected a finite number of seconds, 0 or more");
    }

    @Test
    void wait_zeroSeconds_isValid() {
        Machine<List<String>> m = Machine.define("m", ArrayList::new, b -> b
                .state("breather", s -> s.waitFor(0, "fight"))
                .state("fight"));
        assertEquals(List.of("breather", "fight"), m.statePaths());
    }

    @Test
    void emptyEventName() {
        InvalidMachineException e = invalid(m -> m
                .state("a", a -> a.on("", "b"))
                .state("b"));
        assertNamesMachine(e, "m");
        onlyProblem(e, "state 'a'", "empty event name");
    }

    @Test
    void duplicateSiblingKeys() {
        InvalidMachineException e = invalid(m -> m
                .state("p", p -> p.state("x").state("y").state("x")));
        assertNamesMachine(e, "m");
        onlyProblem(e, "state 'p'", "child 'x' twice", "sibling keys must differ");
    }

    @Test
    void twoWaitsOnOneState() {
        InvalidMachineException e = invalid(m -> m
                .state("a", a -> a.waitFor(1, "b").waitFor(2, "b"))
                .state("b"));
        assertNamesMachine(e, "m");
        onlyProblem(e, "state 'a'", "declares a wait twice");
    }

    @Test
    void multipleTargets_thatCannotBeActiveTogether() {
        InvalidMachineException e = invalid(m -> m
                .state("a", a -> a.on("GO", t -> t.target("b", "c")))
                .state("b")
                .state("c"));
        assertNamesMachine(e, "m");
        onlyProblem(e, "state 'a'", "on GO", "'b' and 'c'", "cannot be active together");
    }

    @Test
    void multipleTargets_sameRegionOfAParallelState_areRefused() {
        InvalidMachineException e = invalid(m -> m
                .state("idle", i -> i.on("GO", t -> t.target("p.r1.x", "p.r1.y")))
                .state("p", p -> p.parallel()
                        .state("r1", r -> r.state("x").state("y"))
                        .state("r2", r -> r.state("z"))));
        onlyProblem(e, "state 'idle'", "'p.r1.x' and 'p.r1.y'", "cannot be active together");
    }

    @Test
    void plainKeyTarget_onTheRoot_isRefused() {
        InvalidMachineException e = invalid(m -> m
                .on("RESET", "a")
                .state("a")
                .state("b"));
        assertNamesMachine(e, "m");
        onlyProblem(e, "the machine's root", "on RESET", "'a'", "names no state", "'.a'", "'#id'");
    }

    @Test
    void historyDefaultTarget_outsideItsParent() {
        InvalidMachineException e = invalid(m -> m
                .state("a", a -> a
                        .history("h", HistoryDepth.SHALLOW, "#B")
                        .state("a1"))
                .state("b", b -> b.id("B")));
        assertNamesMachine(e, "m");
        onlyProblem(e, "state 'a.h'", "default target '#B'", "not inside state 'a'");
    }

    @Test
    void historyDefaultTarget_namingNoState() {
        InvalidMachineException e = invalid(m -> m
                .state("a", a -> a
                        .history("h", HistoryDepth.DEEP, "a9")
                        .state("a1")));
        onlyProblem(e, "state 'a.h'", "default target 'a9'", "names no state below state 'a'");
    }

    /**
     * A history's default target that is the history itself: entering it recurses for ever.
     * Found: define accepts it, and the first transition to the history throws
     * StackOverflowError from Interpreter.addDescendants.
     */
    @Test
    void historyDefaultTarget_namingItself_isRefused() {
        InvalidMachineException e = invalid(m -> m
                .state("out", o -> o.on("BACK", "a.h"))
                .state("a", a -> a
                        .history("h", HistoryDepth.SHALLOW, "h")
                        .state("a1")));
        assertTrue(e.problems().stream().anyMatch(p -> p.contains("state 'a.h'") && p.contains("'h'")), e::getMessage);
    }

    /**
     * A history's default target that is another history state. Either validation refuses it,
     * or entering follows it to a real state. Found: the second history node itself is entered,
     * so the configuration holds a history node and the value reads {a={h2={}, a2={}}}
     * (FORMAT.md rule 33: history nodes never appear in a value).
     */
    @Test
    void historyDefaultTarget_namingAnotherHistoryState_isRefusedOrFollowed() {
        Machine<List<String>> machine;
        try {
            machine = Machine.define("m", ArrayList::new, m -> m
                    .state("out", o -> o.on("BACK", "a.h1"))
                    .state("a", a -> a
                            .history("h1", HistoryDepth.SHALLOW, "h2")
                            .history("h2", HistoryDepth.SHALLOW, "a2")
                            .state("a1")
                            .state("a2")));
        } catch (InvalidMachineException refused) {
            assertTrue(refused.problems().stream().anyMatch(p -> p.contains("state 'a.h1'")), refused::getMessage);
            return;
        }
        StateMachine<List<String>> sm = new StateMachine<>(machine);
        sm.send("BACK");
        assertEquals(Map.of("a", "a2"), sm.value());
    }

    @Test
    void waitAndWhen_withoutATarget() {
        InvalidMachineException e = invalid(m -> m
                .state("a", a -> a
                        .waitFor(3, t -> t.action((log, ev) -> log.add("tick")))
                        .when(log -> true, t -> t.action((log, ev) -> log.add("tock")))));
        assertNamesMachine(e, "m");
        assertEquals(2, e.problems().size(), () -> "problems: " + e.problems());
        assertTrue(e.problems().stream().anyMatch(p -> p.contains("state 'a' has a wait with no target")), e::getMessage);
        assertTrue(e.problems().stream().anyMatch(p -> p.contains("state 'a' has a when with no target")), e::getMessage);
    }

    @Test
    void onDone_onAnAtomicState() {
        InvalidMachineException e = invalid(m -> m
                .state("a", a -> a.onDone("b"))
                .state("b"));
        assertNamesMachine(e, "m");
        onlyProblem(e, "state 'a'", "has onDone but is atomic");
    }

    @Test
    void emptyMachineId() {
        InvalidMachineException e = invalid("", m -> m.state("a"));
        onlyProblem(e, "non-empty id");
        assertTrue(e.getMessage().startsWith("machine '' is invalid"), e::getMessage);
    }

    // ------------------------------------------------------------------ all problems at once

    @Test
    void severalProblems_areAllListedInOneException() {
        InvalidMachineException e = invalid(m -> m
                .state("a", a -> a.on("GO", "nowhere"))                       // 1 unknown target
                .state("b", b -> b.initial("zz").state("b1"))                 // 2 initial names no child
                .state("c", c -> c.waitFor(-5, "a"))                          // 3 negative seconds
                .state("d", d -> d.onDone("a"))                               // 4 onDone on atomic
                .state("e", e2 -> e2.always("#missing")));                    // 5 unknown id
        assertNamesMachine(e, "m");
        List<String> p = e.problems();
        assertEquals(5, p.size(), () -> "problems: " + p);
        assertTrue(e.getMessage().contains("5 problems"), e::getMessage);
        assertTrue(p.stream().anyMatch(s -> s.contains("state 'a'") && s.contains("'nowhere'")), p::toString);
        assertTrue(p.stream().anyMatch(s -> s.contains("state 'b'") && s.contains("initial 'zz'")), p::toString);
        assertTrue(p.stream().anyMatch(s -> s.contains("state 'c'") && s.contains("-5.0 seconds")), p::toString);
        assertTrue(p.stream().anyMatch(s -> s.contains("state 'd'") && s.contains("onDone")), p::toString);
        assertTrue(p.stream().anyMatch(s -> s.contains("state 'e'") && s.contains("'#missing'")), p::toString);
        for (String s : p) {
            assertTrue(e.getMessage().contains(s), () -> "message lacks problem " + s);
        }
    }

    /**
     * InvalidMachineException's Javadoc: problems() lists "each problem on its own, in document
     * order". The compiler groups them by kind of check instead (state checks, then targets), so a
     * bad target of the first state is listed after a bad initial of a later one.
     */
    @Test
    void severalProblems_ofOneKind_areListedInDocumentOrder() {
        // InvalidMachineException.problems(): grouped by the kind of check, each group in document order
        InvalidMachineException e = invalid(m -> m
                .state("a", a -> a.on("GO", "nowhere"))
                .state("b", b -> b.on("GO", "elsewhere")));
        assertEquals(2, e.problems().size(), () -> "problems: " + e.problems());
        assertTrue(e.problems().get(0).startsWith("state 'a'"), () -> "first problem: " + e.problems().get(0));
        assertTrue(e.problems().get(1).startsWith("state 'b'"), () -> "second problem: " + e.problems().get(1));
    }

    // ------------------------------------------------------------------ valid target syntaxes

    /**
     * FORMAT.md, "Target strings": {@code "b"} sibling, {@code "b.c"} path below the parent,
     * {@code ".c"}/{@code ".c.d"} below the source, {@code "#id"}, {@code "#id.x"},
     * {@code "#machineId.a.b"}; on the root {@code ".c"} and {@code "#..."}.
     */
    private static Machine<List<String>> syntaxMachine() {
        return Machine.define("m", ArrayList::new, m -> m
                .on("ROOT_DOT", ".b.b2")
                .on("ROOT_ID", "#m.b.b2.y")
                .state("a", a -> a
                        .on("SIB", "b")
                        .on("PATH", "b.b2")
                        .on("DOT", ".a2")
                        .on("DOTPATH", ".a2.a22")
                        .on("ID", "#Y")
                        .on("IDPATH", "#B.b2")
                        .on("MACHINEID", "#m.b.b2.y")
                        .state("a1")
                        .state("a2", a2 -> a2.state("a21").state("a22")))
                .state("b", b -> b.id("B")
                        .state("b1")
                        .state("b2", b2 -> b2.state("x").state("y", y -> y.id("Y")))));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "SIB       | b=b1",
            "PATH      | b=b2=x",
            "DOT       | a=a2=a21",
            "DOTPATH   | a=a2=a22",
            "ID        | b=b2=y",
            "IDPATH    | b=b2=x",
            "MACHINEID | b=b2=y",
            "ROOT_DOT  | b=b2=x",
            "ROOT_ID   | b=b2=y",
    })
    void validTargetSyntaxes_resolve(String event, String expected) {
        StateMachine<List<String>> sm = new StateMachine<>(syntaxMachine());
        assertEquals(Map.of("a", "a1"), sm.value());
        assertTrue(sm.send(event), event + " should be taken");
        assertEquals(nested(expected), sm.value());
    }

    /** "b=b2=x" as {b: {b2: "x"}}. */
    private static Object nested(String spec) {
        String[] parts = spec.split("=");
        Object v = parts[parts.length - 1];
        for (int i = parts.length - 2; i >= 0; i--) {
            v = Map.of(parts[i], v);
        }
        return v;
    }

    @Test
    void historyDefaultTarget_pathAndId_resolve() {
        Machine<List<String>> m = Machine.define("m", ArrayList::new, b -> b
                .state("out", o -> o.on("TO_P", "p.hp").on("TO_Q", "q.hq"))
                .state("p", p -> p
                        .history("hp", HistoryDepth.SHALLOW, "c.c2")
                        .state("c1")
                        .state("c", c -> c.state("c1").state("c2")))
                .state("q", q -> q
                        .history("hq", HistoryDepth.DEEP, "#Q2")
                        .state("q1")
                        .state("q2", q2 -> q2.id("Q2"))));
        StateMachine<List<String>> sm = new StateMachine<>(m);
        sm.send("TO_P");
        assertEquals(Map.of("p", Map.of("c", "c2")), sm.value());
        StateMachine<List<String>> sm2 = new StateMachine<>(m);
        sm2.send("TO_Q");
        assertEquals(Map.of("q", "q2"), sm2.value());
    }

    @Test
    void aValidMachine_compiles_withStatesInDocumentOrder_andItsEvents() {
        Machine<List<String>> m = Machine.define("guard", ArrayList::new, Fixtures.guard());
        assertEquals("guard", m.id());
        assertEquals(List.of("patrol", "patrol.watch", "patrol.rest", "patrol.resumed", "answer"), m.statePaths());
        assertEquals(List.of("BELL", "RESUME", "RESTART"), m.events());
        try {
            new StateMachine<>(m);
        } catch (RuntimeException e) {
            fail("a valid machine should start", e);
        }
    }

    // ------------------------------------------------------------------ names

    /** A game's own named action, whose name is whatever it answers. */
    private record OwnNamedAction(String name) implements SelfAction<List<String>>, Named {
        @Override
        public void run(List<String> log, dev.enginestates.declare.Event event, Self self) {
        }
    }

    private static Arguments dsl(String fragment, Consumer<MachineBuilder<List<String>>> body) {
        return arguments(fragment, body);
    }

    static Stream<Arguments> badDslNames() {
        return Stream.of(
                dsl("has an empty key", m -> m.state("")),
                dsl("has key ' ', only spaces", m -> m.state(" ")),
                dsl("state 'a' has an empty id", m -> m.state("a", a -> a.id(""))),
                dsl("state 'a' has an empty id, only spaces", m -> m.state("a", a -> a.id("  "))),
                dsl("state 'a' has a transition on an empty event name", m -> m.state("a", a -> a.on("", "b")).state("b")),
                dsl("state 'a' has a transition on an empty event name (' ', only spaces)", m -> m.state("a", a -> a.on(" ", "b")).state("b")),
                dsl("state 'a' (on GO) has an empty target", m -> m.state("a", a -> a.on("GO", "")).state("b")),
                dsl("state 'a' has initial ' '", m -> m.state("a", a -> a.initial(" ").state("a1"))),
                dsl("state 'a' has entry action [0] named ''", m -> m.state("a", a -> a.entry(Named.action("", (log, e) -> { })))),
                dsl("state 'a' has exit action [1] named ' '",
                        m -> m.state("a", a -> a.exit((log, e) -> { }).exit(Named.action(" ", (List<String> log, dev.enginestates.declare.Event e) -> { })))),
                dsl("state 'a' has a guard (on GO) named ''",
                        m -> m.state("a", a -> a.on("GO", t -> t.target("b").guard(Named.guard("", (log, e) -> true)))).state("b")),
                dsl("state 'a' has action [0] (always) named '\t'",
                        m -> m.state("a", a -> a.always(t -> t.target("b").action(Named.action("\t", (log, e) -> { })))).state("b")),
                dsl("state 'a' has a wait's seconds named ''", m -> m.state("a", a -> a.waitFor(Named.seconds("", log -> 1), "b")).state("b")),
                dsl("state 'a' has a when test named ' '", m -> m.state("a", a -> a.when(Named.condition(" ", log -> true), "b")).state("b")),
                dsl("the machine's root has entry action [0] named null", m -> m.entry(new OwnNamedAction(null)).state("a")),
                dsl("state 'a' has action [0] (on GO) named ''",
                        m -> m.state("a", a -> a.on("GO", t -> t.action(new OwnNamedAction(""))))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badDslNames")
    void everyNameProblem_inTheJavaDsl_isCollectedAtBuild_asAnInvalidMachineException(String fragment,
            Consumer<MachineBuilder<List<String>>> body) {
        InvalidMachineException e = invalid(body);
        assertNamesMachine(e, "m");
        onlyProblem(e, fragment);
    }

    @Test
    void nameProblems_inTheJavaDsl_areListedWithTheOtherProblems() {
        InvalidMachineException e = invalid(m -> m
                .state("a", a -> a.entry(Named.action("", (log, ev) -> { })).on(" ", "b").on("GO", "nowhere"))
                .state("b"));
        assertEquals(3, e.problems().size(), () -> e.problems().toString());
        assertTrue(e.problems().stream().anyMatch(p -> p.contains("entry action [0] named ''")), () -> e.problems().toString());
        assertTrue(e.problems().stream().anyMatch(p -> p.contains("only spaces")), () -> e.problems().toString());
        assertTrue(e.problems().stream().anyMatch(p -> p.contains("'nowhere'")), () -> e.problems().toString());
    }

    @Test
    void aMachineIdOfOnlySpaces_isRefused() {
        InvalidMachineException e = invalid("  ", m -> m.state("a"));
        onlyProblem(e, "non-empty id, not only spaces");
    }
}

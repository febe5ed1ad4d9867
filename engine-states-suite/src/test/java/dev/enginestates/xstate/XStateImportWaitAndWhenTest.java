package dev.enginestates.xstate;

import dev.enginestates.Machine;
import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.declare.Named;
import dev.enginestates.plain.StateMachine;
import dev.enginestates.records.Access;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code 003} document's own keys in an XState config, which the export writes and the
 * import reads: {@code "wait": {"seconds": 12, "then": "fight"}} (seconds a number or a named
 * delay) and {@code "when": [{"guard": test, "target": ...}]} or the document's pairs
 * {@code [[test, target]]}. A malformed one is refused with its JSON path and what was expected.
 */
class XStateImportWaitAndWhenTest {
    private static String json(String singleQuoted) {
        return singleQuoted.replace('\'', '"');
    }

    private static XStateImport<List<String>> importer() {
        return XStateImport.<List<String>>withContext(ArrayList::new)
                .guard("isEmpty", (log, e) -> log.isEmpty())
                .guard("isLong", (log, e) -> log.size() > 1)
                .actions(name -> (log, e) -> log.add(name));
    }

    private static InvalidMachineException refused(String singleQuotedJson) {
        return assertThrows(InvalidMachineException.class, () -> importer().parse(json(singleQuotedJson)));
    }

    private static void onlyProblem(InvalidMachineException e, String... fragments) {
        assertEquals(1, e.problems().size(), () -> "problems: " + e.problems());
        for (String f : fragments) {
            assertTrue(e.problems().get(0).contains(f), () -> "problem should contain <" + f + ">: " + e.problems());
        }
    }

    @Test
    void aWaitOfSeconds_movesAfterThem() {
        Machine<List<String>> siege = importer().parse(json("{'id': 'siege', 'initial': 'breather', 'states': {"
                + "'breather': {'wait': {'seconds': 12, 'then': 'fight'}}, 'fight': {}}}"));
        StateMachine<List<String>> m = new StateMachine<>(siege);
        assertEquals(12.0, m.secondsLeft(), 1e-9);
        m.step(12);
        assertEquals("fight", m.value());
    }

    @Test
    void aWaitOfANamedDelay_computesItsSeconds_andATransitionObjectReenters() {
        Machine<List<String>> machine = importer().delay("short", log -> 0.5).parse(json("{'id': 'm', 'initial': 'a', 'states': {"
                + "'a': {'entry': ['enter'], 'wait': {'seconds': 'short', 'then': {'target': 'a', 'reenter': true, 'actions': ['again']}}}}}"));
        StateMachine<List<String>> m = new StateMachine<>(machine);
        assertEquals(0.5, m.secondsLeft(), 1e-9);
        m.step(0.5);
        assertEquals(List.of("enter", "again", "enter"), m.context(), "the wait re-entered its state, entry and all");
        assertEquals("short", Named.nameOf(Access.chart(machine).waitSecondsOf[1]), "the delay keeps its JSON name");
    }

    @Test
    void whenRules_inObjectAndPairForms_moveWhenTheirGuardHolds() {
        Machine<List<String>> machine = importer().parse(json("{'id': 'm', 'initial': 'a', 'states': {"
                + "'a': {'when': [{'guard': 'isLong', 'target': 'c'}, ['isEmpty', 'b']]}, 'b': {}, 'c': {}}}"));
        StateMachine<List<String>> m = new StateMachine<>(machine);
        m.step(0.1);
        assertEquals("b", m.value(), "the second rule held");
        StateMachine<List<String>> n = new StateMachine<>(machine);
        n.context().add("x");
        n.context().add("y");
        n.step(0.1);
        assertEquals("c", n.value(), "the first rule held, and it comes first");
        assertEquals("isLong", Named.nameOf(Access.chart(machine).whenTest[Access.chart(machine).when[1][0]]));
    }

    @Test
    void aWaitWithoutThen_orWithSeveral_isRefused() {
        onlyProblem(refused("{'id': 'm', 'states': {'a': {'wait': {'seconds': 1}}}}"), "$.states.a.wait.then: missing");
        onlyProblem(refused("{'id': 'm', 'states': {'a': {'wait': {'seconds': 1, 'then': ['a', 'b']}}, 'b': {}}}"),
                "$.states.a.wait.then: expected one target or transition, found an array");
    }

    /** -1, 1e999 (read as Infinity) and -1e999 are refused at the JSON path, not as "state 'a' waits Infinity seconds". */
    @ParameterizedTest
    @ValueSource(strings = {"-1", "-0.5", "1e999", "-1e999"})
    void aWaitsSecondsThatAreNegativeOrNotFinite_areRefusedAtTheirJsonPath(String seconds) {
        onlyProblem(refused("{'id': 'm', 'states': {'a': {'wait': {'seconds': " + seconds + ", 'then': 'a'}}}}"),
                "$.states.a.wait.seconds: expected a finite number of seconds, 0 or more, found the number ");
    }

    @Test
    void secondsWrittenAsAQuotedNumber_nameADelay_andTheProblemSaysToDropTheQuotes() {
        onlyProblem(refused("{'id': 'm', 'states': {'a': {'wait': {'seconds': '12', 'then': 'a'}}}}"),
                "$.states.a.wait.seconds: delay '12' is not supplied", "write the seconds as a number, without quotes: 12");
    }

    @Test
    void aWaitsSeconds_mustBeANumberOrASuppliedDelay() {
        onlyProblem(refused("{'id': 'm', 'states': {'a': {'wait': {'then': 'a'}}}}"), "$.states.a.wait.seconds: missing");
        onlyProblem(refused("{'id': 'm', 'states': {'a': {'wait': {'seconds': true, 'then': 'a'}}}}"),
                "$.states.a.wait.seconds: expected a number of seconds or the name of a delay, found true");
        onlyProblem(refused("{'id': 'm', 'states': {'a': {'wait': {'seconds': 'later', 'then': 'a'}}}}"),
                "$.states.a.wait.seconds: delay 'later' is not supplied; supply it with .delay(\"later\", ...)");
        onlyProblem(refused("{'id': 'm', 'states': {'a': {'wait': {'seconds': 1, 'then': 'a', 'every': 2}}}}"),
                "$.states.a.wait.every: unsupported key; a wait takes seconds and then");
        onlyProblem(refused("{'id': 'm', 'states': {'a': {'wait': 5}}}"), "$.states.a.wait: expected {\"seconds\": ..., \"then\": ...}, found the number 5");
    }

    @Test
    void aWhenRule_needsItsGuard_andAnArray() {
        onlyProblem(refused("{'id': 'm', 'states': {'a': {'when': [{'target': 'a'}]}}}"),
                "$.states.a.when[0].guard: missing; a when rule's guard is its test");
        onlyProblem(refused("{'id': 'm', 'states': {'a': {'when': {'guard': 'isEmpty', 'target': 'a'}}}}"),
                "$.states.a.when: expected an array of rules");
        onlyProblem(refused("{'id': 'm', 'states': {'a': {'when': [['isEmpty']]}}}"), "$.states.a.when[0]: expected a pair [test name, target]");
        onlyProblem(refused("{'id': 'm', 'states': {'a': {'when': [['unknown', 'a']]}}}"),
                "$.states.a.when[0][0]: guard 'unknown' is not supplied");
        onlyProblem(refused("{'id': 'm', 'states': {'a': {'when': [3]}}}"), "$.states.a.when[0]: expected a rule");
    }

    @Test
    void xstatesOwnAfter_isStillRefused_pointingAtAWait() {
        onlyProblem(refused("{'id': 'm', 'states': {'a': {'after': {'1000': 'a'}}}}"), "$.states.a.after: unsupported key",
                "use a wait");
    }

    @Test
    void aFinalState_takesEntryAndExit_butNoStates() {
        Machine<List<String>> m = importer().parse(json("{'id': 'm', 'initial': 'a', 'states': {'a': {'on': {'GO': 'done'}},"
                + " 'done': {'type': 'final', 'entry': ['bye']}}}"));
        StateMachine<List<String>> sm = new StateMachine<>(m);
        sm.send("GO");
        assertTrue(sm.isDone());
        assertEquals(List.of("bye"), sm.context());
        onlyProblem(refused("{'id': 'm', 'states': {'a': {'type': 'final', 'states': {'x': {}}}}}"),
                "$.states.a: a final state is a leaf; it takes no states or initial");
    }
}

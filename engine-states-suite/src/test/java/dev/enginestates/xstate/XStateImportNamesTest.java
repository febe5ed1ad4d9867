package dev.enginestates.xstate;

import dev.enginestates.declare.InvalidMachineException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * README, "XState JSON import": a config whose names are wrong (empty, only spaces, not a string,
 * or a key a target cannot reach) is an {@link InvalidMachineException} naming the machine and
 * the JSON path of the name, never an {@code IllegalArgumentException} from deep inside, nor a
 * problem about a state path the JSON never wrote. The importer supplies code under every name,
 * so an empty name is refused for being empty, not for being unknown.
 */
class XStateImportNamesTest {

    private static XStateImport<List<String>> everyNameSupplied() {
        return XStateImport.<List<String>>withContext(ArrayList::new)
                .actions(name -> (log, e) -> log.add(name))
                .guards(name -> (log, e) -> true)
                .delays(name -> log -> 1);
    }

    /** A machine 'm' whose state 'a' holds {@code a} (single-quoted JSON), beside a state 'b'. */
    private static String inA(String a) {
        return "{'id': 'm', 'initial': 'a', 'states': {'a': {" + a + "}, 'b': {}}}";
    }

    static Stream<Arguments> badNames() {
        return Stream.of(
                // implementations: actions, guards, delays, when tests
                arguments(inA("'entry': ''"), "$.states.a.entry: ", "empty"),
                arguments(inA("'entry': ['']"), "$.states.a.entry[0]: ", "empty"),
                arguments(inA("'entry': {'type': ''}"), "$.states.a.entry: ", "empty"),
                arguments(inA("'exit': '  '"), "$.states.a.exit: ", "only spaces"),
                arguments(inA("'exit': [{'type': '\\t'}]"), "$.states.a.exit[0]: ", "only spaces"),
                arguments(inA("'entry': [5]"), "$.states.a.entry[0]: ", "found the number 5"),
                arguments(inA("'entry': {'type': 5}"), "$.states.a.entry.type: ", "found the number 5"),
                arguments(inA("'on': {'GO': {'target': 'b', 'actions': ['']}}"), "$.states.a.on.GO.actions[0]: ", "empty"),
                arguments(inA("'on': {'GO': {'target': 'b', 'actions': ' '}}"), "$.states.a.on.GO.actions: ", "only spaces"),
                arguments(inA("'on': {'GO': {'target': 'b', 'guard': ''}}"), "$.states.a.on.GO.guard: ", "empty"),
                arguments(inA("'on': {'GO': {'target': 'b', 'guard': {'type': ' '}}}"), "$.states.a.on.GO.guard: ", "only spaces"),
                arguments(inA("'on': {'GO': {'target': 'b', 'guard': true}}"), "$.states.a.on.GO.guard: ", "found true"),
                arguments(inA("'always': [{'target': 'b', 'guard': ''}]"), "$.states.a.always[0].guard: ", "empty"),
                arguments(inA("'wait': {'seconds': '', 'then': 'b'}"), "$.states.a.wait.seconds: ", "empty"),
                arguments(inA("'wait': {'seconds': '   ', 'then': 'b'}"), "$.states.a.wait.seconds: ", "only spaces"),
                arguments(inA("'when': [['', 'b']]"), "$.states.a.when[0][0]: ", "empty"),
                arguments(inA("'when': [{'guard': '', 'target': 'b'}]"), "$.states.a.when[0].guard: ", "empty"),
                arguments(inA("'entry': {'type': 'xstate.raise', 'params': {'event': {'type': ' '}}}"),
                        "$.states.a.entry.params.event.type: ", "only spaces"),
                arguments(inA("'on': {'GO': {'target': 'b', 'guard': {'type': 'xstate.stateIn', 'params': {'stateValue': '#'}}}}"),
                        "$.states.a.on.GO.guard.params.stateValue: ", "'#'"),
                // state keys
                arguments("{'id': 'm', 'states': {'': {}}}", "$.states[\"\"]: ", "empty"),
                arguments("{'id': 'm', 'states': {' ': {}}}", "$.states[\" \"]: ", "only spaces"),
                arguments("{'id': 'm', 'states': {'a.b': {}}}", "$.states[\"a.b\"]: ", "'.'"),
                arguments("{'id': 'm', 'states': {'#a': {}}}", "$.states[\"#a\"]: ", "'#'"),
                arguments("{'id': 'm', 'states': {'p': {'states': {'': {'type': 'history'}, 'q': {}}}}}",
                        "$.states.p.states[\"\"]: ", "empty"),
                // ids
                arguments("{'id': ' ', 'states': {'a': {}}}", "$.id: ", "only spaces"),
                arguments(inA("'id': ''"), "$.states.a.id: ", "empty"),
                arguments(inA("'id': '  '"), "$.states.a.id: ", "only spaces"),
                arguments(inA("'id': 'x.y'"), "$.states.a.id: ", "'.'"),
                arguments("{'id': 'm', 'states': {'p': {'states': {'h': {'type': 'history', 'id': ''}, 'q': {}}}}}",
                        "$.states.p.states.h.id: ", "empty"),
                // events
                arguments(inA("'on': {'': 'b'}"), "$.states.a.on[\"\"]: ", "always"),
                arguments(inA("'on': {' ': 'b'}"), "$.states.a.on[\" \"]: ", "only spaces"),
                // targets
                arguments(inA("'on': {'GO': ''}"), "$.states.a.on.GO: ", "empty"),
                arguments(inA("'on': {'GO': {'target': ' '}}"), "$.states.a.on.GO.target: ", "only spaces"),
                arguments(inA("'on': {'GO': {'target': '#'}}"), "$.states.a.on.GO.target: ", "'#'"),
                arguments(inA("'on': {'GO': {'target': '.'}}"), "$.states.a.on.GO.target: ", "'.'"),
                arguments(inA("'on': {'GO': {'target': 'b.'}}"), "$.states.a.on.GO.target: ", "'b.'"),
                arguments(inA("'on': {'GO': {'target': '#m..b'}}"), "$.states.a.on.GO.target: ", "'#m..b'"),
                arguments(inA("'on': {'GO': {'target': ['b', '']}}"), "$.states.a.on.GO.target[1]: ", "empty"),
                arguments(inA("'always': ''"), "$.states.a.always: ", "empty"),
                arguments("{'id': 'm', 'initial': 'p', 'states': {'p': {'states': {'q': {'type': 'final'}}, 'onDone': '#'}}}",
                        "$.states.p.onDone: ", "'#'"),
                arguments(inA("'wait': {'seconds': 1, 'then': ''}"), "$.states.a.wait.then: ", "empty"),
                arguments(inA("'when': [['t', '']]"), "$.states.a.when[0][1]: ", "empty"),
                arguments("{'id': 'm', 'states': {'p': {'states': {'h': {'type': 'history', 'target': ''}, 'q': {}}}}}",
                        "$.states.p.states.h.target: ", "empty"),
                // initial
                arguments("{'id': 'm', 'initial': '', 'states': {'a': {}}}", "$.initial: ", "empty"),
                arguments("{'id': 'm', 'initial': ' ', 'states': {'a': {}}}", "$.initial: ", "only spaces"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badNames")
    void everyNameProblem_isAnInvalidMachineException_namingTheMachineAndTheJsonPath(String json, String path, String what) {
        String config = json.replace('\'', '"');
        InvalidMachineException e = assertThrows(InvalidMachineException.class, () -> everyNameSupplied().parse(config));
        assertEquals(1, e.problems().size(), () -> e.problems().toString());
        String problem = e.problems().get(0);
        assertTrue(problem.startsWith(path), () -> "expected the path " + path + " in: " + problem);
        assertTrue(problem.contains(what), () -> "expected <" + what + "> in: " + problem);
        String machine = config.startsWith("{\"id\": \" \"") ? "(unnamed)" : "m";
        assertTrue(e.getMessage().startsWith("machine '" + machine + "' is invalid"), e::getMessage);
    }

    enum Sounds { BEEP }

    /**
     * A resolver written over the game's own enum ({@code Sounds.valueOf(name)}) throws for a name
     * the enum lacks: that is a config naming unknown code, reported at its path with every other
     * problem (the exception kept as suppressed), not the resolver's exception out of the import.
     */
    @Test
    void aResolverThatThrowsForAName_isAProblemAtItsJsonPath_listedWithTheOthers() {
        IllegalArgumentException thrown = new IllegalArgumentException("No enum constant Sounds.BOOP");
        XStateImport<List<String>> importer = XStateImport.<List<String>>withContext(ArrayList::new)
                .actions(name -> {
                    Sounds s = Sounds.valueOf(name.toUpperCase(java.util.Locale.ROOT));
                    return (log, e) -> log.add(s.name());
                })
                .guards(name -> {
                    throw thrown;
                });
        InvalidMachineException e = assertThrows(InvalidMachineException.class, () -> importer.parse(inA(
                "'entry': ['beep', 'boop'], 'on': {'GO': {'target': 'b', 'guard': 'ready'}}").replace('\'', '"')));
        assertEquals(2, e.problems().size(), () -> e.problems().toString());
        assertTrue(e.problems().get(0).startsWith("$.states.a.entry[1]: the action resolver threw java.lang.IllegalArgumentException")
                && e.problems().get(0).contains("'boop'"), () -> e.problems().toString());
        assertTrue(e.problems().get(1).startsWith("$.states.a.on.GO.guard: the guard resolver threw")
                && e.problems().get(1).contains("'ready'"), () -> e.problems().toString());
        assertEquals(2, e.getSuppressed().length);
        assertSame(thrown, e.getSuppressed()[1]);
    }
}

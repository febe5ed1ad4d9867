package dev.enginestates.xstate;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.enginestates.Machine;
import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.plain.StateMachine;
import dev.enginestates.records.Access;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DESIGN.md, "Bad input gets a clear error and changes nothing": a malformed config throws an
 * exception naming the machine, the state path and what was expected, never a raw
 * StackOverflowError. JSON text has Jackson's nesting limit; a tree built in code and handed to
 * {@link XStateImport#from} has none, so the import keeps its own, as the SCXML import does.
 */
class XStateImportLimitsTest {

    /** {"id": "m", "initial": "a", "states": {"a": {"initial": "a", "states": {"a": ... {}}}}}, {@code levels} states deep. */
    private static ObjectNode nested(int levels) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("id", "m");
        ObjectNode at = root;
        for (int i = 0; i < levels; i++) {
            at.put("initial", "a");
            at = at.putObject("states").putObject("a");
        }
        return root;
    }

    @Test
    void statesNestedPastTheLimit_areRefusedNamingTheMachineAndThePath_notAStackOverflow() {
        InvalidMachineException e = assertThrows(InvalidMachineException.class,
                () -> XStateImport.<List<String>>withContext(ArrayList::new).from(nested(10_000)));
        assertEquals(1, e.problems().size(), () -> e.problems().toString());
        String problem = e.problems().get(0);
        assertTrue(e.getMessage().contains("machine 'm'"), e::getMessage);
        assertTrue(problem.startsWith("$" + ".states.a".repeat(XStateImport.MAX_DEPTH + 1) + ": "), problem);
        assertTrue(problem.contains("nested " + (XStateImport.MAX_DEPTH + 1) + " deep")
                && problem.contains(XStateImport.MAX_DEPTH + " at most"), problem);
    }

    @Test
    void statesNestedToTheLimit_import_fromTextAsFromATree() {
        Machine<List<String>> m = XStateImport.<List<String>>withContext(ArrayList::new).from(nested(XStateImport.MAX_DEPTH));
        assertEquals(XStateImport.MAX_DEPTH + 1, Access.chart(m).size);
        Machine<List<String>> text = XStateImport.<List<String>>withContext(ArrayList::new).parse(nested(XStateImport.MAX_DEPTH).toString());
        assertEquals(XStateImport.MAX_DEPTH + 1, Access.chart(text).size);
    }

    /**
     * A large config: 5,000 states, each with an event of its own. The compiler matched every event
     * against every event for each state (n^3: 12 s for 3,000 states, about a minute for 5,000 on a
     * 2-core machine), and now matches each event against the state's own few; its speed is the
     * benchmarks' to watch, not a timed assertion's. What this pins is that the narrower match
     * builds the same table: each state takes its own event and no other state's.
     */
    @Test
    void aConfigOfManyStates_eachWithAnEventOfItsOwn_takesEachEventInItsOwnStateOnly() {
        int n = 5_000;
        StringBuilder json = new StringBuilder("{\"id\": \"m\", \"initial\": \"s0\", \"states\": {");
        for (int i = 0; i < n; i++) {
            json.append(i == 0 ? "" : ", ").append("\"s").append(i).append("\": {\"on\": {\"E").append(i).append("\": \"s")
                    .append((i + 1) % n).append("\"}}");
        }
        Machine<List<String>> m = XStateImport.<List<String>>withContext(ArrayList::new).parse(json.append("}}").toString());
        assertEquals(n + 1, Access.chart(m).size);
        StateMachine<List<String>> sm = new StateMachine<>(m);
        for (int i = 0; i < n; i += 499) {
            assertFalse(sm.send("E" + ((i + 1) % n)), "s" + i + " takes another state's event");
        }
        for (int i = 0; i < n; i++) {
            assertTrue(sm.send("E" + i), "s" + i + " does not take its own event E" + i);
            assertTrue(sm.matches("s" + ((i + 1) % n)), "E" + i + " from s" + i);
        }
    }
}

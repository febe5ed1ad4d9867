package dev.enginestates.io;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;

import static dev.enginestates.io.PreRuntimeMachines.BOT;
import static dev.enginestates.io.PreRuntimeMachines.DOOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A logged {@code setState} is checked before the replay as the machine's style takes it: a
 * polled or builder-style machine is in one state at a time, so a set of several is refused
 * with the log's other problems, and the replay changes nothing.
 */
class LoggedSetStateCheckedAsTheStyleTakesItTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aReplayRefusesASetOfSeveralStatesForAStyleInOneStateAtATimeBeforeChangingAnything() throws Exception {
        refused(BOT, "b1", "combat", "combat.aim", "setState takes one path");
        refused(DOOR, "d1", "Open", "Open", "setState takes one name");
    }

    private static void refused(States<?> machine, String key, String first, String second, String expected) throws Exception {
        Saves saves = Saves.of(machine);
        String log;
        try (StateWorld live = StateWorld.create()) {
            InputLog inputs = InputLog.start(saves, live);
            live.spawn(EntityKey.of(key), machine.trait());
            PreRuntimeMachines.steps(live, 3);
            inputs.stop();
            log = inputs.text();
        }
        ObjectNode tree = (ObjectNode) JSON.readTree(log);
        ObjectNode set = ((ArrayNode) tree.get("inputs")).addObject().putObject("set");
        set.put("entity", key).put("machine", machine.id()).putArray("states").add(first).add(second);
        try (StateWorld replay = StateWorld.create()) {
            CheckpointException e = assertThrows(CheckpointException.class, () -> InputLog.replay(saves, replay, tree.toString()));
            assertTrue(e.getMessage().contains(".set.states") && e.getMessage().contains(expected)
                    && e.getMessage().contains(machine.id()), e.getMessage());
            assertEquals(0, replay.records(machine).size(), "nothing was replayed");
        }
    }
}

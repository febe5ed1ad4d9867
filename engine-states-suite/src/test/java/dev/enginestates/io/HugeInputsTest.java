package dev.enginestates.io;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.enginestates.Allocations;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.SavedContext;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A small checkpoint or input log must not ask the reader for work or memory out of proportion to
 * its size: the refusal lists a bounded number of problems, and no check does work that grows
 * with the product of two of the text's lengths. Each case is a text of a few hundred kilobytes
 * that cost seconds to minutes, or gigabytes, before; the wall-clock guard only keeps a
 * regression from hanging the build, the assertions are on counts and outcomes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // each test makes its worlds on that thread
class HugeInputsTest {
    /** A context that saves itself and counts the restores asked of it: how many records a restore decoded. */
    public static final class Counted implements SavedContext {
        static int restores;
        public int n;

        @Override
        public Object save() {
            return Map.of("n", (long) n);
        }

        @Override
        public void restore(Object saved) {
            restores++;
            n = ((Number) ((Map<?, ?>) saved).get("n")).intValue();
        }
    }

    static final States<Counted> COUNTED = States.define("huge-counted", Counted::new, m -> m
            .initial("idle")
            .state("idle", s -> s.on("GO", "busy"))
            .state("busy", s -> s.waitFor(1, "idle")));

    static final Saves SAVES = Saves.of(COUNTED);

    private static StateWorld worldOf(int entities) {
        StateWorld w = StateWorld.create();
        for (int i = 0; i < entities; i++) {
            w.spawn(EntityKey.of("e" + i), COUNTED.trait());
        }
        return w;
    }

    @Test
    void aRestoreStopsCheckingAtTheHundredthProblemAndSaysSo() {
        StateWorld w = worldOf(1);
        String checkpoint = ReplayTest.edit(SAVES.checkpoint(w), root -> {
            ArrayNode active = ((ObjectNode) root.path("entities").path("e0").path("huge-counted")).putArray("active");
            for (int i = 0; i < 100_000; i++) {
                active.add(1); // each a problem: a number where a state path belongs
            }
        });
        String before = SAVES.checkpoint(w);
        CheckpointException e = assertThrows(CheckpointException.class, () -> SAVES.restore(w, checkpoint));
        assertEquals(Problems.MAX, e.problems().size(), "the problems listed");
        assertTrue(e.getMessage().startsWith("the checkpoint cannot be restored; the world is unchanged (the checks stopped at the first 100"
                + " problems): 100 problems"), e.getMessage().lines().findFirst().orElse(""));
        assertTrue(e.problems().get(0).startsWith("$.entities.e0.huge-counted.active[0]: expected a state path"), e.problems().get(0));
        assertEquals(before, SAVES.checkpoint(w), "the world is unchanged");
    }

    @Test
    void aRestoreDecodesNoRecordPastTheHundredthProblem() {
        StateWorld w = worldOf(1_000);
        String checkpoint = ReplayTest.edit(SAVES.checkpoint(w), root -> root.path("entities").forEach(
                e -> ((ObjectNode) e.path("huge-counted")).putArray("active").add("nowhere"))); // one problem a record
        Counted.restores = 0;
        CheckpointException e = assertThrows(CheckpointException.class, () -> SAVES.restore(w, checkpoint));
        assertEquals(Problems.MAX, e.problems().size());
        // each record's context is restored before its states are read: the 101st record's is the last
        assertEquals(Problems.MAX + 1, Counted.restores, "records decoded");
    }

    @Test
    void aReplayStopsCheckingAtTheHundredthProblemAndSaysSo() {
        StateWorld w = worldOf(1);
        InputLog recording = InputLog.start(SAVES, w);
        w.step(0.1);
        String log = ReplayTest.edit(recording.text(), root -> {
            ArrayNode inputs = (ArrayNode) root.path("inputs");
            for (int i = 0; i < 100_000; i++) {
                inputs.addObject().put("nonsense", 1);
            }
        });
        try (StateWorld b = StateWorld.create()) {
            CheckpointException e = assertThrows(CheckpointException.class, () -> InputLog.replay(SAVES, b, log));
            assertEquals(Problems.MAX, e.problems().size(), "the problems listed");
            assertTrue(e.getMessage().startsWith("the input log cannot be replayed; the world is unchanged (the checks stopped at the first"
                    + " 100 problems)"), e.getMessage().lines().findFirst().orElse(""));
            assertTrue(e.problems().get(0).startsWith("$.inputs[1]: expected one of step, advance"), e.problems().get(0));
            assertEquals(null, b.entity("e0"), "nothing spawned");
        }
    }

    /** A log of one send to e0 whose event has one field, {@code name}, holding {@code value}. */
    private static String logSendingAField(String name, com.fasterxml.jackson.databind.JsonNode value) {
        StateWorld w = worldOf(1);
        InputLog recording = InputLog.start(SAVES, w);
        COUNTED.send(w.entity("e0"), "GO");
        return ReplayTest.edit(recording.text(), root -> {
            ObjectNode event = (ObjectNode) root.path("inputs").get(0).path("send").path("event");
            ArrayNode pair = event.putArray("fields").addArray();
            pair.add(name);
            pair.add(value);
        });
    }

    @Test
    void aReplayAllocatesInProportionToTheLogNotToAFieldNamesLengthTimesItsListsLength() {
        ArrayNode list = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < 10_000; i++) {
            list.add(0);
        }
        String log = logSendingAField("x".repeat(100_000), list);
        try (StateWorld b = StateWorld.create()) {
            long bytes = Allocations.allocated(() -> InputLog.replay(SAVES, b, log));
            assertEquals("busy", COUNTED.read(b.entity("e0")).state().toString(), "the send replayed");
            // each element's path spelt out held the name: 2.0 GB allocated for this 120 kB log before, 1.8 MB now
            assertTrue(bytes < 200L * log.length(), bytes + " bytes allocated to replay " + log.length() + " characters");
        }
    }

    @Test
    void aRestoreAllocatesInProportionToTheCheckpointNotToAKeysLengthTimesItsPendingSends() {
        String key = "k".repeat(50_000); // Jackson's longest name
        StateWorld w = StateWorld.create();
        w.spawn(EntityKey.of(key), COUNTED.trait());
        String checkpoint = ReplayTest.edit(SAVES.checkpoint(w), root -> {
            ArrayNode sends = ((ObjectNode) root.path("entities").path(key).path("huge-counted")).putArray("sends");
            for (int i = 0; i < 10_000; i++) {
                sends.addObject().put("type", "GO").put("due", 0.5);
            }
        });
        try (StateWorld b = StateWorld.create()) {
            long bytes = Allocations.allocated(() -> SAVES.restoreSpawningMissing(b, checkpoint));
            assertEquals(10_000, dev.enginestates.records.Access.record(COUNTED.read(b.entity(key))).sendCount(), "the sends restored");
            // each send's path spelt out started with the key: 1.0 GB allocated for this 290 kB checkpoint before, 8.6 MB now
            assertTrue(bytes < 200L * checkpoint.length(), bytes + " bytes allocated to restore " + checkpoint.length() + " characters");
        }
    }

    @Test
    void aProblemUnderALongFieldNameNamesItByItsStart() {
        ArrayNode list = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < 3; i++) {
            list.addObject().put("$long", "not a number");
        }
        String log = logSendingAField("x".repeat(100_000), list);
        try (StateWorld b = StateWorld.create()) {
            CheckpointException e = assertThrows(CheckpointException.class, () -> InputLog.replay(SAVES, b, log));
            assertEquals(3, e.problems().size(), e.problems().toString().substring(0, 300));
            for (int i = 0; i < 3; i++) {
                String p = e.problems().get(i);
                assertTrue(p.startsWith("$.inputs[0].send.event.fields." + "x".repeat(JsonPath.SHOWN) + "…(100000 characters)[" + i
                        + "]: $long value \"not a number\" is not a number"), p.substring(0, Math.min(300, p.length())));
                assertTrue(p.length() < 300, p.length() + " characters");
            }
        }
    }

    /** A log that sets e0 to {@code repeats} times "busy", with the world it was recorded on. */
    private static String logSettingBusy(StateWorld w, int repeats) {
        String[] repeated = new String[repeats];
        java.util.Arrays.fill(repeated, "busy");
        InputLog recording = InputLog.start(SAVES, w);
        COUNTED.read(w.entity("e0")).setState(repeated);
        assertEquals("busy", COUNTED.read(w.entity("e0")).state().toString());
        return recording.text();
    }

    @Test
    void aStateNamedOverAndOverInASetIsOneState() {
        // the pairs were checked among all the names: a refused pair was listed once for each two of its repeats
        String bad = ReplayTest.edit(logSettingBusy(worldOf(1), 1_000),
                root -> ((ArrayNode) root.path("inputs").get(0).path("set").path("states")).add("idle"));
        try (StateWorld b = StateWorld.create()) {
            CheckpointException x = assertThrows(CheckpointException.class, () -> InputLog.replay(SAVES, b, bad));
            assertEquals(1, x.problems().size(), "problems listed, the first: " + x.problems().get(0));
            assertEquals("$.inputs[0].set.states: 'busy' and 'idle' cannot be active together in machine 'huge-counted';"
                    + " expected states in different regions of a parallel state", x.problems().get(0));
        }
        StateWorld w = worldOf(1);
        MachineException e = assertThrows(MachineException.class, () -> COUNTED.read(w.entity("e0")).setState("idle", "busy", "idle", "busy"));
        assertTrue(e.getMessage().contains("states 'idle' and 'busy' cannot be active together"), e.getMessage());
    }

    @Test
    void aStateNamedOverAndOverInASetReplaysAsOne() {
        // 4.5 * 10^10 pair checks, three times (setState, then the replay's check and setState), before the pairs were of distinct
        // states: a minute or more, which the class's guard stops
        StateWorld w = worldOf(1);
        String log = logSettingBusy(w, 300_000);
        assertTrue(log.length() > 2_400_000, "the log records the names as given");
        try (StateWorld b = StateWorld.create()) {
            InputLog.replay(SAVES, b, log);
            assertEquals(SAVES.checkpoint(w), SAVES.checkpoint(b), "the replay ends as the original");
        }
    }
}

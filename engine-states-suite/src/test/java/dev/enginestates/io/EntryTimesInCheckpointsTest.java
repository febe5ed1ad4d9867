package dev.enginestates.io;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.Machine;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DESIGN.md, "one record layout (configuration, per-state clocks from which t, time, timeIn ...
 * are derived), so dumps, checkpoints, replays, streaming ... serve every style": an
 * XState-style record's entry times are written (field {@code entered}, the clock time each
 * active state was entered at), so {@code timeIn} after a restore is what it was before, and a
 * checkpoint written before the field existed still reads (its states then count from 0).
 */
class EntryTimesInCheckpointsTest {
    static final double DT = 1 / 60.0;
    static final States<Object> POST = States.of(Machine.define("entered-post", () -> null, m -> m
            .initial("idle")
            .state("idle", s -> s.on("GO", "busy"))
            .state("busy", s -> s.on("GO", "idle"))));
    static final Saves SAVES = Saves.of(POST);
    static final ObjectMapper JSON = new ObjectMapper();

    private static void steps(StateWorld w, int n) {
        for (int i = 0; i < n; i++) {
            w.step(DT);
        }
    }

    /** A checkpoint of a post that went busy at 5 s, taken at 6 s. */
    private static String busyForOneSecond() {
        try (StateWorld w = StateWorld.create()) {
            Entity e = w.spawn(EntityKey.of("post"), POST.trait());
            steps(w, 300);
            POST.send(e, "GO");
            steps(w, 60);
            assertEquals(1.0, POST.read(e).timeIn("busy"), 1e-9);
            return SAVES.checkpoint(w);
        }
    }

    private static double restoredTimeIn(String checkpoint) {
        try (StateWorld w = StateWorld.create()) {
            w.spawn(EntityKey.of("post"));
            SAVES.restore(w, checkpoint);
            return POST.read(w.entity("post")).timeIn("busy");
        }
    }

    private static ObjectNode record(ObjectNode checkpoint) {
        return (ObjectNode) checkpoint.path("entities").path("post").path("entered-post");
    }

    @Test
    void aRestoredRecordsTimeInIsWhatItWas() {
        assertEquals(1.0, restoredTimeIn(busyForOneSecond()), 1e-9);
    }

    @Test
    void aCheckpointWithoutEntryTimesStillReadsAndItsStatesCountFromZero() throws Exception {
        ObjectNode cp = (ObjectNode) JSON.readTree(busyForOneSecond());
        assertTrue(record(cp).has("entered"), "the checkpoint writes entry times: " + record(cp));
        record(cp).remove("entered");
        assertEquals(6.0, restoredTimeIn(JSON.writeValueAsString(cp)), 1e-9);
    }

    @Test
    void anEntryTimeForAStateNotActiveIsRefusedAndNothingChanges() throws Exception {
        ObjectNode cp = (ObjectNode) JSON.readTree(busyForOneSecond());
        ((ObjectNode) record(cp).get("entered")).put("idle", 1.0);
        CheckpointException e = assertThrows(CheckpointException.class, () -> restoredTimeIn(JSON.writeValueAsString(cp)));
        assertTrue(e.getMessage().contains("entered.idle") && e.getMessage().contains("not an active state"), e.getMessage());
    }

    @Test
    void anEntryTimeAfterTheCheckpointsClockIsRefused() throws Exception {
        ObjectNode cp = (ObjectNode) JSON.readTree(busyForOneSecond());
        ((ObjectNode) record(cp).get("entered")).put("busy", 60.0);
        CheckpointException e = assertThrows(CheckpointException.class, () -> restoredTimeIn(JSON.writeValueAsString(cp)));
        assertTrue(e.getMessage().contains("entered") && e.getMessage().contains("after the checkpoint's clock"), e.getMessage());
    }

    @Test
    void aMissingEntryTimeOfAnActiveStateIsRefused() throws Exception {
        ObjectNode cp = (ObjectNode) JSON.readTree(busyForOneSecond());
        ((ObjectNode) record(cp).get("entered")).remove("busy");
        CheckpointException e = assertThrows(CheckpointException.class, () -> restoredTimeIn(JSON.writeValueAsString(cp)));
        assertTrue(e.getMessage().contains("no entry time for active state 'busy'"), e.getMessage());
    }
}

package dev.enginestates.io;

import dev.enginestates.Flights;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static dev.enginestates.Flights.named;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Checkpoints, restores and stream frames tell JDK Flight Recorder their size in bytes, records, kind and time. */
class SaveFlightEventsTest {
    static final class Ctx {
        public int shots;
    }

    static final States<Ctx> GUN = States.define("flightGun", Ctx::new, m -> m
            .initial("ready")
            .state("ready", s -> s.on("FIRE", t -> t.target("cooling").action((c, e) -> c.shots++)))
            .state("cooling", s -> s.waitFor(2, "ready")));

    @Test
    void aCheckpointAndItsRestoreAreRecordedWithTheirBytesAndRecords() {
        Saves saves = Saves.of(GUN);
        try (StateWorld world = StateWorld.create("armoury"); StateWorld fresh = StateWorld.create("armoury-again")) {
            for (int i = 0; i < 3; i++) {
                world.spawn(EntityKey.of("gun-" + i), GUN.trait());
            }
            String[] text = new String[1];
            List<RecordedEvent> events = Flights.record(r -> {
                r.enable("dev.enginestates.Checkpoint");
                r.enable("dev.enginestates.Restore");
            }, () -> {
                text[0] = saves.checkpoint(world);
                saves.restoreSpawningMissing(fresh, text[0]);
                assertThrows(CheckpointException.class, () -> saves.restore(fresh, "{}"));
            });
            RecordedEvent c = named(events, "Checkpoint").get(0);
            assertEquals("armoury", c.getString("world"));
            assertEquals(text[0].getBytes(StandardCharsets.UTF_8).length, c.getLong("bytes"));
            assertEquals(3, c.getInt("records"));
            List<RecordedEvent> restores = named(events, "Restore");
            assertEquals(2, restores.size(), "the restore and the refused one");
            assertEquals("armoury-again", restores.get(0).getString("world"));
            assertEquals(c.getLong("bytes"), restores.get(0).getLong("bytes"));
            assertEquals(3, restores.get(0).getInt("records"));
            assertFalse(restores.get(0).getBoolean("refused"));
            assertTrue(restores.get(1).getBoolean("refused"), "a refused checkpoint is recorded as refused");
        }
    }

    @Test
    void eachStreamFrameIsRecordedWithItsBytesWholeOrChangesAndPlayers() {
        try (StateWorld world = StateWorld.create("arena")) {
            var gun = world.spawn(EntityKey.of("gun-1"), GUN.trait());
            RoomStream stream = RoomStream.of(world, GUN);
            stream.join("alice");
            stream.join("bob");
            String[] first = new String[1];
            List<RecordedEvent> events = Flights.record(r -> r.enable("dev.enginestates.StreamFrame"), () -> {
                first[0] = stream.frame("alice");
                GUN.send(gun, "FIRE");
                stream.frames();
            });
            List<RecordedEvent> frames = named(events, "StreamFrame");
            assertEquals(3, frames.size(), "alice's whole frame, then one per player");
            RecordedEvent whole = frames.get(0);
            assertEquals("arena", whole.getString("world"));
            assertEquals("alice", whole.getString("player"));
            assertTrue(whole.getBoolean("whole"));
            assertEquals(first[0].getBytes(StandardCharsets.UTF_8).length, whole.getLong("bytes"));
            assertEquals(2, whole.getInt("players"));
            assertFalse(frames.get(1).getBoolean("whole"), "alice's next frame holds the changes");
            assertEquals("bob", frames.get(2).getString("player"));
            assertTrue(frames.get(2).getBoolean("whole"), "bob's first frame is whole");
        }
    }
}

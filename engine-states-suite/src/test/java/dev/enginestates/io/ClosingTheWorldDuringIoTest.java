package dev.enginestates.io;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.MachineListener;
import dev.enginestates.declare.SavedContext;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.MachineFailure;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * README, "Reliability": closing a world from the game's code during a checkpoint, a restore, an
 * input log's replay or a replica's frame (a context's save or restore hook, a listener, a failure
 * handler) is refused, naming the call, as it is during a step or a send; the world stays open,
 * with its tags on its records, steps on and restores a checkpoint. So is starting a restore or a
 * replay from inside a send.
 */
class ClosingTheWorldDuringIoTest {
    static {
        RandomWorlds.quiet();
    }

    /** A context whose save and restore hooks run {@link #hook} once it is set. */
    public static final class Hooked implements SavedContext {
        static Runnable hook;
        public int n;

        @Override
        public Object save() {
            run();
            return n;
        }

        @Override
        public void restore(Object saved) {
            run();
            n = ((Number) saved).intValue();
        }

        private static void run() {
            Runnable h = hook;
            if (h != null) {
                hook = null; // once: the refusal is what is looked at
                h.run();
            }
        }
    }

    static final States<Hooked> DOOR = States.define("io-closing-door", Hooked::new, m -> m
            .initial("shut")
            .state("shut", s -> s.on("OPEN", "open"))
            .state("open", s -> s.on("SHUT", "shut").waitFor(1, "shut")));
    static final Saves SAVES = Saves.of(DOOR);

    /** Tries to close {@code world} and keeps the refusal; rethrows it, as the game's code would let it go. */
    static void tryToClose(StateWorld world, List<Throwable> refusals) {
        try {
            world.close();
            refusals.add(new AssertionError("close() went through"));
        } catch (IllegalStateException e) {
            refusals.add(e);
            throw e;
        }
    }

    /** The close was refused naming {@code call}; the world is open, its tags follow its records, and it steps and restores. */
    static void assertRefusedAndWhole(StateWorld world, List<Throwable> refusals, String call, String checkpoint) {
        assertEquals(1, refusals.size(), String.valueOf(refusals));
        assertTrue(refusals.get(0) instanceof IllegalStateException && refusals.get(0).getMessage().contains("cannot be closed")
                && refusals.get(0).getMessage().contains(call), String.valueOf(refusals.get(0)));
        assertFalse(world.dominion().isClosed(), "the world is still open");
        assertTagsOnRecords(world);
        assertDoesNotThrow(() -> world.step(1.0 / 60));
        SAVES.restore(world, checkpoint);
        assertTagsOnRecords(world);
        world.step(2);
        assertTagsOnRecords(world);
    }

    static void assertTagsOnRecords(StateWorld world) {
        for (StateRecord<Hooked> r : world.records(DOOR)) {
            for (String s : new String[] {"shut", "open"}) {
                assertEquals(r.matches(s), r.entity().has(DOOR.is(s)), r + " tag " + s);
            }
        }
    }

    /** A listener that runs {@code action} on the first state change it hears. */
    static MachineListener<StateRecord<?>> onFirstChange(Consumer<StateRecord<?>> action) {
        boolean[] done = {false};
        return new MachineListener<>() {
            @Override
            public void stateChanged(StateRecord<?> machine, String from, String to, String event) {
                if (!done[0]) {
                    done[0] = true;
                    action.accept(machine);
                }
            }
        };
    }

    @Test
    void closingTheWorldFromAContextsRestoreHookDuringARestoreIsRefusedAndTheWorldIsUnchanged() {
        try (StateWorld world = StateWorld.create()) {
            Entity d = world.spawn(EntityKey.of("d"), DOOR.trait());
            String shut = SAVES.checkpoint(world);
            DOOR.send(d, "OPEN");
            List<Throwable> refusals = new ArrayList<>();
            Hooked.hook = () -> tryToClose(world, refusals);
            assertThrows(CheckpointException.class, () -> SAVES.restore(world, shut));
            assertTrue(d.has(DOOR.is("open")), "the restore changed nothing");
            assertRefusedAndWhole(world, refusals, "a restore", shut);
        } finally {
            Hooked.hook = null;
        }
    }

    @Test
    void closingTheWorldFromAContextsSaveHookDuringACheckpointIsRefused() {
        try (StateWorld world = StateWorld.create()) {
            world.spawn(EntityKey.of("d"), DOOR.trait());
            String shut = SAVES.checkpoint(world);
            List<Throwable> refusals = new ArrayList<>();
            Hooked.hook = () -> tryToClose(world, refusals);
            assertThrows(RuntimeException.class, () -> SAVES.checkpoint(world));
            assertRefusedAndWhole(world, refusals, "a checkpoint", shut);
        } finally {
            Hooked.hook = null;
        }
    }

    @Test
    void closingTheWorldFromAListenerDuringARestoreIsRefusedAndEveryRecordIsWritten() {
        try (StateWorld world = StateWorld.create()) {
            Entity a = world.spawn(EntityKey.of("a"), DOOR.trait());
            Entity b = world.spawn(EntityKey.of("b"), DOOR.trait());
            String shut = SAVES.checkpoint(world);
            DOOR.send(a, "OPEN");
            DOOR.send(b, "OPEN");
            List<Throwable> refusals = new ArrayList<>();
            world.addListener(onFirstChange(r -> tryToClose(world, refusals)));
            assertThrows(RuntimeException.class, () -> SAVES.restore(world, shut), "the listener's failure, once all is written");
            assertTrue(a.has(DOOR.is("shut")) && b.has(DOOR.is("shut")), "the restore wrote every record");
            assertRefusedAndWhole(world, refusals, "a restore", shut);
        }
    }

    @Test
    void closingTheWorldFromAListenerOrAFailureHandlerDuringAReplayIsRefused() {
        String log;
        String start;
        try (StateWorld room = StateWorld.create()) {
            Entity d = room.spawn(EntityKey.of("d"), DOOR.trait());
            start = SAVES.checkpoint(room);
            InputLog recording = InputLog.start(SAVES, room);
            DOOR.send(d, "OPEN");
            room.step(0.5);
            room.step(0.5);
            log = recording.text();
        }
        try (StateWorld world = StateWorld.create()) {
            List<Throwable> refusals = new ArrayList<>();
            world.addListener(new MachineListener<StateRecord<?>>() {
                @Override
                public void stateChanged(StateRecord<?> machine, String from, String to, String event) {
                    if (event.equals("OPEN")) { // the replayed send, not the restore of the log's start
                        tryToClose(world, refusals);
                    }
                }
            });
            assertThrows(RuntimeException.class, () -> InputLog.replay(SAVES, world, log));
            assertRefusedAndWhole(world, refusals, "part of the replay of an input log", start);
        }
        try (StateWorld world = StateWorld.create()) {
            List<Throwable> refusals = new ArrayList<>();
            // the replayed step's failure reaches the handler once that step has ended, between two inputs of the replay
            world.onFailure(f -> tryToClose(world, refusals));
            world.addListener(new MachineListener<StateRecord<?>>() {
                @Override
                public void waitEnded(StateRecord<?> machine, String state, boolean elapsed) {
                    throw new IllegalArgumentException("a listener fails its machine");
                }
            });
            assertThrows(IllegalStateException.class, () -> InputLog.replay(SAVES, world, log));
            assertRefusedAndWhole(world, refusals, "the replay of an input log", start);
        }
    }

    @Test
    void closingAReplicaWorldFromAListenerDuringAFrameIsRefusedAndTheFrameIsApplied() {
        try (StateWorld room = StateWorld.create(); StateWorld copy = StateWorld.create()) {
            Entity d = room.spawn(EntityKey.of("d"), DOOR.trait());
            RoomStream stream = RoomStream.of(room, DOOR);
            stream.join("alice");
            Replica alice = Replica.of(copy, "alice", DOOR);
            alice.apply(stream.frame("alice"));
            String shut = SAVES.checkpoint(copy);
            DOOR.send(d, "OPEN");
            List<Throwable> refusals = new ArrayList<>();
            copy.addListener(onFirstChange(r -> tryToClose(copy, refusals)));
            assertThrows(RuntimeException.class, () -> alice.apply(stream.frame("alice")));
            assertEquals(2, alice.sequence(), "the frame was applied and counted");
            assertTrue(copy.entity("d").has(DOOR.is("open")));
            assertRefusedAndWhole(copy, refusals, "a replica's frame", shut);
        }
    }

    @Test
    void aRestoreOrAReplayFromAListenerDuringASendIsRefusedAndChangesNothing() {
        try (StateWorld world = StateWorld.create()) {
            Entity d = world.spawn(EntityKey.of("d"), DOOR.trait());
            String shut = SAVES.checkpoint(world);
            InputLog recording = InputLog.start(SAVES, world);
            DOOR.send(d, "OPEN");
            String log = recording.text();
            recording.stop();
            DOOR.send(d, "SHUT");
            List<Consumer<StateWorld>> inside = List.of(w -> SAVES.restore(w, shut), w -> InputLog.replay(SAVES, w, log),
                    w -> InputLog.start(SAVES, w));
            for (Consumer<StateWorld> call : inside) {
                List<Throwable> refused = new ArrayList<>();
                MachineListener<StateRecord<?>> listener = onFirstChange(r -> {
                    try {
                        call.accept(world);
                    } catch (IllegalStateException e) {
                        refused.add(e);
                    }
                });
                world.addListener(listener);
                DOOR.send(d, "OPEN");
                world.removeListener(listener);
                assertEquals(1, refused.size(), "refused from inside the send");
                assertTrue(refused.get(0).getMessage().contains("a send of 'OPEN'"), refused.get(0).getMessage());
                assertTrue(d.has(DOOR.is("open")), "nothing was restored or replayed");
                assertEquals(0, world.time());
                assertTagsOnRecords(world);
                DOOR.send(d, "SHUT");
            }
        }
    }

    /**
     * A restore is all-or-nothing over the entities its checkpoint names. A listener told of the
     * first record it wrote despawned an entity still to be written, and the restore stopped half
     * done ("cannot attach ... to a deleted entity"); now that despawn (and a spawn, attach or
     * detach) is refused as the listener's failure, and every record is written.
     */
    @Test
    void aListenerCannotDespawnAnEntityARestoreIsStillToWriteAndEveryRecordIsWritten() {
        try (StateWorld world = StateWorld.create()) {
            Entity a = world.spawn(EntityKey.of("a"), DOOR.trait());
            Entity b = world.spawn(EntityKey.of("b"), DOOR.trait());
            String shut = SAVES.checkpoint(world);
            DOOR.send(a, "OPEN");
            DOOR.send(b, "OPEN");
            List<Throwable> refusals = new ArrayList<>();
            world.addListener(onFirstChange(heard -> {
                Entity other = heard.entity() == a ? b : a;
                for (Runnable change : List.<Runnable>of(() -> world.despawn(other), () -> world.detach(other, DOOR),
                        () -> world.spawn(DOOR.trait()))) {
                    try {
                        change.run();
                        refusals.add(new AssertionError("a structural change went through during the restore's writes"));
                    } catch (IllegalStateException e) {
                        refusals.add(e);
                    }
                }
            }));
            SAVES.restore(world, shut);
            assertEquals(3, refusals.size(), String.valueOf(refusals));
            for (Throwable t : refusals) {
                assertTrue(t instanceof IllegalStateException && t.getMessage().contains("a restore"), String.valueOf(t));
            }
            assertFalse(a.isDeleted());
            assertFalse(b.isDeleted());
            assertTrue(DOOR.read(a).matches("shut") && DOOR.read(b).matches("shut"), "every record was written");
            assertEquals(2, world.records(DOOR).size(), "nothing spawned under the restore");
            assertTagsOnRecords(world);
        }
    }
}

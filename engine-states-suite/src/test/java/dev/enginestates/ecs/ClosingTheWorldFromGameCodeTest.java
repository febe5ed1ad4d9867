package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Fixtures;
import dev.enginestates.MachineListener;
import dev.enginestates.declare.Event;
import dev.enginestates.io.Saves;
import dev.enginestates.records.Access;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * README, "When a game's code throws" and "Reliability": a world is either open, with its tags on
 * its records, or closed and refusing every call. Closing it from the game's code (an action, a
 * guard, a {@code when} test, a listener) while one of its calls is under way is refused, naming
 * the call, and the world goes on whole: its tags follow its records, a further step works and a
 * checkpoint restores. Found by an attack: a listener closed the world during a send; the send
 * returned, later steps "ran" with every machine failing on the closed Dominion, and a tag was
 * left on an entity whose record had moved on.
 */
class ClosingTheWorldFromGameCodeTest {
    static final class Ctx {
    }

    static final States<Ctx> GUARD = States.define("closing-guard", Ctx::new, Fixtures.guard());
    static final States<MisuseFailsFastTest.Counter> POLLED = MisuseFailsFastTest.POLLED;
    static final States<BuilderOnEntityTest.Door> DOOR = BuilderOnEntityTest.DOOR;
    static final Saves SAVES = Saves.of(GUARD, POLLED, DOOR);

    /** A world with a guard, a polled machine and a builder-style door, each keyed, and a checkpoint of it. */
    private static final class Room implements AutoCloseable {
        final StateWorld world = StateWorld.create();
        final Entity guard = world.spawn(EntityKey.of("guard"), GUARD.trait());
        final Entity polled = world.spawn(EntityKey.of("polled"), POLLED.trait());
        final Entity door = world.spawn(EntityKey.of("door"), DOOR.trait(new BuilderOnEntityTest.Door()));
        final String checkpoint = SAVES.checkpoint(world);
        /** What the game's code got back from its close(), once it tried. */
        final List<Throwable> refusals = new ArrayList<>();
        final List<MachineFailure> failures = new ArrayList<>();

        Room() {
            world.onFailure(failures::add);
        }

        /** Adds a listener that tries to close the world the first time it hears anything. */
        void closeFromTheFirstListenerCall() {
            world.addListener(new MachineListener<StateRecord<?>>() {
                @Override
                public void stateChanged(StateRecord<?> machine, String from, String to, String event) {
                    tryToClose();
                }

                @Override
                public void waitStarted(StateRecord<?> machine, String state, double seconds) {
                    tryToClose();
                }

                @Override
                public void waitEnded(StateRecord<?> machine, String state, boolean elapsed) {
                    tryToClose();
                }

                @Override
                public void eventRefused(StateRecord<?> machine, String event) {
                    tryToClose();
                }
            });
        }

        /** Tries to close the world, once; the refusal is kept and thrown on, as the game's code would let it go. */
        void tryToClose() {
            if (refusals.isEmpty()) {
                try {
                    world.close();
                    refusals.add(new AssertionError("close() went through"));
                } catch (IllegalStateException e) {
                    refusals.add(e);
                    throw e;
                }
            }
        }

        /** The close was refused naming {@code call}, and the world is open, whole, steps and restores. */
        void assertRefusedAndWhole(String call) {
            assertRefused(call);
            assertTagsOnRecords(world);
            assertStepsAndRestores();
        }

        void assertRefused(String call) {
            assertEquals(1, refusals.size(), "the game's code tried to close the world once");
            IllegalStateException refused = assertInstanceOf(IllegalStateException.class, refusals.get(0));
            assertTrue(refused.getMessage().contains("cannot be closed") && refused.getMessage().contains(call),
                    refused.getMessage());
            assertFalse(world.dominion().isClosed(), "the world is still open");
        }

        /** A step works, then the checkpoint restores; the tags follow the records after each. */
        void assertStepsAndRestores() {
            assertDoesNotThrow(() -> world.step(1.0 / 60));
            assertTagsOnRecords(world);
            SAVES.restoreSpawningMissing(world, checkpoint);
            assertTagsOnRecords(world);
            assertTrue(GUARD.read(world.entity("guard")).matches("patrol.watch"), "the checkpoint restored");
            world.step(5);
            assertTagsOnRecords(world);
        }

        @Override
        public void close() {
            world.close();
        }
    }

    /** Every live record's entity carries the tag of each active state and of no other. */
    static void assertTagsOnRecords(StateWorld world) {
        for (States<?> m : world.machines()) {
            for (StateRecord<?> r : world.records(m)) {
                for (Class<? extends StateTag> tag : m.tagTypes()) {
                    String path = tagPath(m, tag);
                    assertEquals(r.matches(path), r.entity().has(tag), m.id() + " record in " + r.state() + ", tag " + path);
                }
            }
        }
    }

    private static String tagPath(States<?> m, Class<? extends StateTag> tag) {
        for (StateTag t : m.tagInstances()) {
            if (t != null && t.getClass() == tag) {
                return t.path();
            }
        }
        throw new AssertionError("no state of " + m.id() + " has tag " + tag);
    }

    // ------------------------------------------------------------------ close from a listener, each call

    @Test
    void closingTheWorldFromAListenerDuringASendIsRefusedAndTheWorldStaysWhole() {
        try (Room room = new Room()) {
            room.closeFromTheFirstListenerCall();
            RuntimeException thrown = assertThrows(RuntimeException.class, () -> GUARD.send(room.guard, "BELL"));
            assertInstanceOf(IllegalStateException.class, thrown.getCause(), "the listener's failure, thrown once the send was done");
            assertTrue(room.guard.has(GUARD.is("answer")), "the send's move stands, tags and all");
            room.assertRefusedAndWhole("a send of 'BELL' to machine 'closing-guard' on entity 'guard'");
        }
    }

    @Test
    void closingTheWorldFromAListenerOfARefusedEventIsRefused() {
        try (Room room = new Room()) {
            room.closeFromTheFirstListenerCall();
            assertThrows(RuntimeException.class, () -> GUARD.send(room.guard, Event.of("RESUME")));
            room.assertRefusedAndWhole("a send of 'RESUME'");
        }
    }

    @Test
    void closingTheWorldFromAListenerDuringAGoIsRefused() {
        try (Room room = new Room()) {
            room.closeFromTheFirstListenerCall();
            assertThrows(RuntimeException.class, () -> POLLED.go(room.polled, "b"));
            assertTrue(room.polled.has(POLLED.is("b")));
            room.assertRefusedAndWhole("a go to 'b' of machine 'misuse-polled'");
        }
    }

    @Test
    void closingTheWorldFromAListenerDuringATransitionToIsRefused() {
        try (Room room = new Room()) {
            room.closeFromTheFirstListenerCall();
            assertThrows(RuntimeException.class, () -> DOOR.transitionTo(room.door, "Open"));
            assertTrue(room.door.has(DOOR.is("Open")));
            room.assertRefusedAndWhole("a go to 'Open'");
        }
    }

    @Test
    void closingTheWorldFromAListenerDuringAHandSetStateIsRefused() {
        try (Room room = new Room()) {
            room.closeFromTheFirstListenerCall();
            assertThrows(RuntimeException.class, () -> GUARD.read(room.guard).setState("answer"));
            room.assertRefused("a setState of machine 'closing-guard' on entity 'guard'");
            room.assertStepsAndRestores(); // a state set by hand moves its tags at the next step
        }
    }

    @Test
    void closingTheWorldFromAListenerDuringASpawnIsRefusedAndTheEntityIsSpawnedWhole() {
        try (Room room = new Room()) {
            room.closeFromTheFirstListenerCall();
            assertThrows(RuntimeException.class, () -> room.world.spawn(EntityKey.of("late"), GUARD.trait()));
            Entity late = room.world.entity("late");
            assertNotNull(late);
            assertTrue(late.has(GUARD.is("patrol.watch")));
            room.world.despawn(late); // the checkpoint holds no such entity
            room.assertRefusedAndWhole("a spawn");
        }
    }

    @Test
    void closingTheWorldFromAListenerDuringADespawnIsRefusedAndTheEntityIsGone() {
        try (Room room = new Room()) {
            Entity late = room.world.spawn(GUARD.trait());
            room.closeFromTheFirstListenerCall();
            assertThrows(RuntimeException.class, () -> room.world.despawn(late));
            assertTrue(late.isDeleted());
            room.assertRefusedAndWhole("a despawn");
        }
    }

    @Test
    void closingTheWorldFromAListenerDuringAnAttachOrADetachIsRefused() {
        try (Room room = new Room()) {
            Entity bare = room.world.spawn();
            room.closeFromTheFirstListenerCall();
            assertThrows(RuntimeException.class, () -> room.world.attach(bare, GUARD.trait()));
            assertTrue(bare.has(GUARD.is("patrol.watch")));
            room.refusals.clear();
            assertThrows(RuntimeException.class, () -> room.world.detach(bare, GUARD));
            assertFalse(bare.has(GUARD.is("patrol.watch")));
            room.world.despawn(bare);
            room.assertRefusedAndWhole("a detach");
        }
    }

    @Test
    void closingTheWorldFromAListenerDuringARecordsRestoreIsRefused() {
        try (Room room = new Room()) {
            room.closeFromTheFirstListenerCall();
            StateRecord<Ctx> r = GUARD.read(room.guard);
            StateRecord<Ctx> answering = GUARD.trait().setState("answer"); // a record of no world: nobody hears it
            Access.restore(r, Access.record(answering));
            assertThrows(RuntimeException.class, () -> room.world.restored(r));
            assertTrue(room.guard.has(GUARD.is("answer")), "the restored record's tags were written");
            room.assertRefusedAndWhole("a record's restore of machine 'closing-guard' on entity 'guard'");
        }
    }

    @Test
    void closingTheWorldFromAListenerDuringAStepIsRefusedAsThatMachinesFailure() {
        try (Room room = new Room()) {
            room.closeFromTheFirstListenerCall();
            room.world.step(4); // the guard's wait ends
            assertEquals(1, room.failures.size(), room.failures.toString());
            assertTrue(room.guard.has(GUARD.is("patrol.rest")));
            room.assertRefusedAndWhole("a step");
        }
    }

    // ------------------------------------------------------------------ close from a machine's own code

    static final States<StateWorld[]> CLOSER = States.define("closing-closer", () -> new StateWorld[1], m -> m
            .initial("idle")
            .state("idle", s -> s
                    .on("BY_ACTION", t -> t.target("done").action((c, e) -> c[0].close()))
                    .on("BY_GUARD", t -> t.target("done").guard((c, e) -> {
                        c[0].close();
                        return true;
                    }))
                    .on("BY_ENTRY", "closing")
                    .on("BY_SECONDS", "timed"))
            .state("closing", s -> s.entry((c, e) -> c[0].close()))
            .state("timed", s -> s.waitFor(c -> {
                c[0].close();
                return 1.0;
            }, "done"))
            .state("watching", s -> s.when(c -> {
                c[0].close();
                return true;
            }, "done"))
            .state("done"));

    @Test
    void closingTheWorldFromAnActionAGuardOrASecondsFunctionDuringASendIsRefused() {
        for (String event : new String[] {"BY_ACTION", "BY_GUARD", "BY_ENTRY", "BY_SECONDS"}) {
            try (StateWorld world = StateWorld.create()) {
                StateWorld[] self = {world};
                Entity e = world.spawn(CLOSER.trait(self));
                RuntimeException thrown = assertThrows(RuntimeException.class, () -> CLOSER.send(e, event), event);
                assertTrue(String.valueOf(thrown.getCause()).contains("cannot be closed"), event + ": " + thrown);
                assertFalse(world.dominion().isClosed(), event);
                assertTagsOnRecords(world);
                world.step(1);
                assertTagsOnRecords(world);
            }
        }
    }

    @Test
    void closingTheWorldFromAWhenTestDuringAStepIsRefusedAsThatMachinesFailure() {
        try (StateWorld world = StateWorld.create()) {
            List<MachineFailure> failures = new ArrayList<>();
            world.onFailure(failures::add);
            StateRecord<StateWorld[]> r = CLOSER.trait(new StateWorld[] {world});
            Entity e = world.spawn(r);
            r.setState("watching");
            world.step(1.0 / 60);
            assertEquals(1, failures.size(), failures.toString());
            assertTrue(failures.get(0).toString().contains("cannot be closed"), failures.toString());
            assertFalse(world.dominion().isClosed());
            assertTagsOnRecords(world);
            assertTrue(e.has(CLOSER.is("watching")));
            world.step(1.0 / 60);
        }
    }

    // ------------------------------------------------------------------ a closed world

    @Test
    void aClosedWorldRefusesEveryCallWithAClearMessageAndClosingItAgainDoesNothing() {
        StateWorld world = StateWorld.create("shut");
        Entity g = world.spawn(EntityKey.of("g"), GUARD.trait());
        StateRecord<Ctx> r = GUARD.read(g);
        world.close();
        List<Consumer<StateWorld>> uses = List.of(
                w -> w.step(1),
                w -> w.advance(1),
                w -> w.spawn(),
                w -> w.despawn(g),
                w -> GUARD.send(g, "BELL"),
                w -> r.setState("answer"),
                w -> w.records(GUARD),
                w -> w.entity("g"),
                w -> w.restoreClock(0, 0),
                w -> w.release(),
                w -> SAVES.checkpoint(w));
        for (Consumer<StateWorld> use : uses) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> use.accept(world));
            assertTrue(e.getMessage().contains("StateWorld(shut") && e.getMessage().contains("is closed"), e.getMessage());
        }
        assertTrue(r.matches("patrol.watch"), "a record still reads");
        assertDoesNotThrow(world::close);
    }

    // ------------------------------------------------------------------ other calls from inside

    static final States<StateWorld[]> STEPPER = States.define("closing-stepper", () -> new StateWorld[1], m -> m
            .initial("a").state("a", s -> s.on("GO", t -> t.target("b").action((c, e) -> c[0].step(1)))).state("b"));

    @Test
    void aStepFromAListenerOrAnActionDuringASendIsRefusedAndNoStepIsTaken() {
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            List<Throwable> refused = new ArrayList<>();
            world.addListener(GUARD, new MachineListener<StateRecord<Ctx>>() {
                @Override
                public void stateChanged(StateRecord<Ctx> machine, String from, String to, String event) {
                    try {
                        world.step(1);
                    } catch (IllegalStateException e) {
                        refused.add(e);
                    }
                }
            });
            GUARD.send(g, "BELL");
            assertEquals(1, refused.size(), "the listener's step was refused");
            assertTrue(refused.get(0).getMessage().contains("a send of 'BELL'"), refused.get(0).getMessage());
            assertEquals(0, world.steps(), "no step was taken inside the send");

            Entity s = world.spawn(STEPPER.trait(new StateWorld[] {world}));
            RuntimeException thrown = assertThrows(RuntimeException.class, () -> STEPPER.send(s, "GO"));
            assertTrue(String.valueOf(thrown.getCause()).contains("step(dt)"), String.valueOf(thrown));
            assertEquals(0, world.steps(), "no step was taken inside the send");
            assertTagsOnRecords(world);
        }
    }

    @Test
    void aCheckpointARestoreOrAClockSetFromAListenerDuringASendIsRefused() {
        try (Room room = new Room()) {
            List<Consumer<StateWorld>> inside = List.of(
                    w -> SAVES.checkpoint(w),
                    w -> SAVES.restore(w, room.checkpoint),
                    w -> w.restoreClock(100, 100),
                    StateWorld::release);
            for (Consumer<StateWorld> call : inside) {
                List<Throwable> refused = new ArrayList<>();
                MachineListener<StateRecord<?>> listener = new MachineListener<>() {
                    @Override
                    public void stateChanged(StateRecord<?> machine, String from, String to, String event) {
                        try {
                            call.accept(room.world);
                        } catch (IllegalStateException e) {
                            refused.add(e);
                        }
                    }
                };
                room.world.addListener(listener);
                GUARD.send(room.guard, "BELL");
                room.world.removeListener(listener);
                assertEquals(1, refused.size(), "refused from inside the send");
                assertTrue(refused.get(0).getMessage().contains("a send of 'BELL'"), refused.get(0).getMessage());
                assertTrue(room.guard.has(GUARD.is("answer")), "the restore did not go through");
                assertEquals(0, room.world.time(), "the clock was not set");
                GUARD.send(room.guard, "RESTART");
            }
            assertTagsOnRecords(room.world);
        }
    }

    @Test
    void aListenerThatDespawnsTheEntityBeingSentToLeavesTheWorldWhole() {
        try (Room room = new Room()) {
            room.world.addListener(GUARD, new MachineListener<StateRecord<Ctx>>() {
                @Override
                public void stateChanged(StateRecord<Ctx> machine, String from, String to, String event) {
                    if (to.equals("answer")) {
                        room.world.despawn(machine.entity());
                    }
                }
            });
            assertTrue(GUARD.send(room.guard, "BELL"));
            assertTrue(room.guard.isDeleted());
            assertTrue(room.world.records(GUARD).isEmpty());
            assertEquals(0, room.world.query(GUARD.is("answer")).count(), "no tag left behind");
            assertTagsOnRecords(room.world);
            room.world.step(5);
            SAVES.restoreSpawningMissing(room.world, room.checkpoint);
            assertTagsOnRecords(room.world);
            assertEquals(1, room.world.records(GUARD).size());
        }
    }
}

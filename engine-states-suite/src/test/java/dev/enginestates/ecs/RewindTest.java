package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Fixtures;
import dev.enginestates.MachineListener;
import dev.enginestates.io.Saves;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A rewind's rules, as rollback games expect them (GGPO, GGRS, netfox, Photon Quantum): restoring
 * a tick is not a transition; going back and stepping again with the same inputs changes nothing
 * and tells nobody anything; listeners hear each machine's net change; entities spawned inside
 * the window go and come back with their key, despawned ones come back with their records and
 * holds; a rewind to a tick not kept, an input for the future, a rewind from the game's code
 * during a step: clear errors, nothing changed.
 */
class RewindTest {
    static final double DT = 1 / 60.0;

    /** The guard's context: entries of answer, counted by its entry action. */
    static final class Count {
        public int answered;
        public int exits;
    }

    static final States<Count> GUARD = States.define("rewound-guard", Count::new, Fixtures.<Count>guard()
            .answer(s -> s.entry((c, e) -> c.answered++).exit((c, e) -> c.exits++))
            .machine(m -> m.heldBy(Stunned.class)));
    static final States<Void> PLAIN = States.define("rewound-plain", () -> null, Fixtures.guard());

    static final class Stunned {
    }

    static final Rewind.ContextBytes<Count> COUNT = new Rewind.ContextBytes<>() {
        @Override
        public void write(Count c, ByteBuffer out) {
            out.putInt(c.answered).putInt(c.exits);
        }

        @Override
        public Count read(Count c, ByteBuffer in) {
            c.answered = in.getInt();
            c.exits = in.getInt();
            return c;
        }
    };

    static final Saves SAVES = Saves.of(GUARD, PLAIN);

    /** What listeners heard, one line each. */
    static final class Heard implements MachineListener<StateRecord<?>> {
        final List<String> lines = new ArrayList<>();

        @Override
        public void stateChanged(StateRecord<?> m, String from, String to, String event) {
            lines.add(StateWorld.keyOf(m.entity()) + " " + from + ">" + to + " " + event);
        }

        @Override
        public void waitStarted(StateRecord<?> m, String state, double seconds) {
            lines.add(StateWorld.keyOf(m.entity()) + " wait " + state);
        }

        @Override
        public void waitEnded(StateRecord<?> m, String state, boolean elapsed) {
            lines.add(StateWorld.keyOf(m.entity()) + " ended " + state);
        }

        @Override
        public void eventRefused(StateRecord<?> m, String event) {
            lines.add(StateWorld.keyOf(m.entity()) + " refused " + event);
        }
    }

    static Rewind.Input send(String key, String event) {
        return w -> GUARD.send(w.entity(key), event);
    }

    private static Rewind guards(StateWorld world, int window, String... keys) {
        for (String k : keys) {
            world.spawn(EntityKey.of(k), GUARD.trait());
        }
        return Rewind.keep(world, window).contexts(GUARD, COUNT);
    }

    @Test
    void restoringATickIsNotATransitionNoExitEntryOrActionRuns() {
        try (StateWorld world = StateWorld.create()) {
            Rewind rewind = guards(world, 8, "g");
            rewind.step(DT);
            long back = rewind.tick();
            rewind.input(send("g", "BELL"));
            rewind.step(DT);
            rewind.input(send("g", "RESUME"));
            rewind.step(DT);
            Count c = GUARD.read(world.entity("g")).context();
            assertEquals(1, c.answered);
            assertEquals(1, c.exits);
            rewind.rewind(back);
            assertEquals(0, c.answered, "the context is as it was at the tick, and no action ran to make it so");
            assertEquals(0, c.exits);
            assertEquals("patrol.watch", GUARD.read(world.entity("g")).state());
            assertEquals(back, world.steps());
        }
    }

    @Test
    void goingBackAndSteppingAgainWithTheSameInputsChangesNothingAndTellsNobody() {
        try (StateWorld world = StateWorld.create()) {
            Rewind rewind = guards(world, 10, "a", "b");
            Heard heard = new Heard();
            world.addListener(heard);
            rewind.input(send("a", "BELL"));
            rewind.step(DT);
            long late = rewind.tick();
            rewind.input(send("b", "BELL"));
            for (int i = 0; i < 9; i++) {
                rewind.step(DT);
            }
            String before = SAVES.checkpoint(world);
            heard.lines.clear();
            rewind.clearInputs(late);
            rewind.input(late, send("b", "BELL"));
            assertEquals(9, rewind.resimulate());
            assertEquals(before, SAVES.checkpoint(world));
            assertEquals(List.of(), heard.lines);
        }
    }

    @Test
    void aMachineThatWentAToBToAInsideTheWindowIsToldNothing() {
        try (StateWorld world = StateWorld.create()) {
            Rewind rewind = guards(world, 10, "g");
            rewind.step(DT);
            long tick = rewind.tick();
            rewind.step(DT);
            rewind.input(send("g", "BELL"));
            rewind.step(DT);
            rewind.input(send("g", "RESUME"));
            rewind.step(DT);
            Heard heard = new Heard();
            world.addListener(heard);
            // the late input only changes the context's count, not where the guard is now
            rewind.input(tick, send("g", "BELL"));
            rewind.input(tick, send("g", "RESUME"));
            rewind.resimulate();
            assertEquals("patrol.watch", GUARD.read(world.entity("g")).state());
            assertEquals(2, GUARD.read(world.entity("g")).context().answered, "the steps again ran the machine's code");
            assertEquals(List.of(), heard.lines);
        }
    }

    @Test
    void aMachineThatWentAToBToCIsToldOnceAsAToC() {
        try (StateWorld world = StateWorld.create()) {
            Rewind rewind = guards(world, 10, "g");
            rewind.step(DT);
            long tick = rewind.tick();
            for (int i = 0; i < 3; i++) {
                rewind.step(DT);
            }
            Heard heard = new Heard();
            world.addListener(heard);
            rewind.input(tick, send("g", "BELL"));
            rewind.input(tick + 1, send("g", "RESUME"));
            rewind.input(tick + 2, send("g", "BELL"));
            rewind.resimulate();
            assertEquals(List.of("g ended patrol.watch", "g patrol.watch>answer rewind"), heard.lines);
        }
    }

    @Test
    void anEntitySpawnedInsideTheWindowVanishesOnRewindAndComesBackWithTheSameKey() {
        try (StateWorld world = StateWorld.create()) {
            Rewind rewind = guards(world, 10, "g");
            rewind.step(DT);
            long tick = rewind.tick();
            rewind.input(w -> w.spawn(EntityKey.of("late"), GUARD.trait()));
            rewind.step(DT);
            rewind.step(DT);
            Entity first = world.entity("late");
            assertTrue(first != null);
            rewind.rewind(tick);
            assertNull(world.entity("late"), "spawned inside the rewound ticks");
            assertTrue(first.isDeleted());
            rewind.input(w -> w.spawn(EntityKey.of("late"), GUARD.trait()));
            rewind.step(DT);
            assertEquals("patrol.watch", GUARD.read(world.entity("late")).state());
            assertEquals(1, world.records(GUARD).stream().filter(r -> "late".equals(StateWorld.keyOf(r.entity()))).count());
        }
    }

    @Test
    void anEntityDespawnedInsideTheWindowComesBackWithItsExactRecordsAndHolds() {
        try (StateWorld world = StateWorld.create()) {
            Rewind rewind = guards(world, 10, "a", "g", "z");
            rewind.input(send("g", "BELL"));
            rewind.step(DT);
            world.entity("g").add(new Stunned());
            for (int i = 0; i < 30; i++) {
                rewind.step(DT);
            }
            long tick = rewind.tick();
            String atTick = SAVES.checkpoint(world);
            Entity old = world.entity("g");
            rewind.input(w -> w.despawn(w.entity("g")));
            rewind.step(DT);
            rewind.step(DT);
            assertNull(world.entity("g"));
            rewind.rewind(tick);
            Entity back = world.entity("g");
            assertNotSame(old, back, "a new entity, with the old one's key");
            assertEquals(atTick, SAVES.checkpoint(world));
            assertTrue(back.has(Stunned.class), "its hold came back with it");
            assertTrue(GUARD.read(back).isHeld() || back.has(Stunned.class));
            // it is stepped where it was, between a and z
            List<String> order = new ArrayList<>();
            for (StateRecord<Count> r : world.records(GUARD)) {
                order.add(StateWorld.keyOf(r.entity()));
            }
            assertEquals(List.of("a", "g", "z"), order);
        }
    }

    @Test
    void aHoldPutOnInsideTheWindowIsTakenOffByTheRewind() {
        try (StateWorld world = StateWorld.create()) {
            Rewind rewind = guards(world, 10, "g");
            rewind.step(DT);
            long tick = rewind.tick();
            rewind.input(w -> w.entity("g").add(MachinePaused.INSTANCE));
            rewind.step(DT);
            assertTrue(GUARD.read(world.entity("g")).isHeld());
            rewind.rewind(tick);
            assertFalse(world.entity("g").has(MachinePaused.class));
            rewind.step(DT);
            assertFalse(GUARD.read(world.entity("g")).isHeld());
        }
    }

    @Test
    void aRewindToATickNotKeptIsRefusedAndChangesNothing() {
        try (StateWorld world = StateWorld.create()) {
            Rewind rewind = guards(world, 4, "g");
            for (int i = 0; i < 10; i++) {
                rewind.step(DT);
            }
            String before = SAVES.checkpoint(world);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> rewind.rewind(5));
            assertTrue(e.getMessage().contains("tick 5") && e.getMessage().contains("last 4 ticks, now 6 to 9"), e.getMessage());
            assertTrue(e.getMessage().contains("Nothing was changed"), e.getMessage());
            assertEquals(before, SAVES.checkpoint(world));
            assertEquals(10, rewind.tick());
            assertThrows(IllegalArgumentException.class, () -> rewind.input(3, send("g", "BELL")));
        }
    }

    @Test
    void aRewindOrAnInputForTheFutureIsRefusedAndChangesNothing() {
        try (StateWorld world = StateWorld.create()) {
            Rewind rewind = guards(world, 4, "g");
            rewind.step(DT);
            String before = SAVES.checkpoint(world);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> rewind.rewind(5));
            assertTrue(e.getMessage().contains("in the future"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> rewind.input(2, send("g", "BELL")));
            assertTrue(e.getMessage().contains("in the future") && e.getMessage().contains("next tick is 1"), e.getMessage());
            assertEquals(before, SAVES.checkpoint(world));
            rewind.step(DT);
            assertEquals("patrol.watch", GUARD.read(world.entity("g")).state(), "no input was kept for tick 2");
        }
    }

    @Test
    void aRewindFromGameCodeDuringAStepIsRefusedAndChangesNothing() {
        List<Throwable> caught = new ArrayList<>();
        Rewind[] holder = new Rewind[1];
        States<Void> rewinding = States.define("rewinding-from-code", () -> null, Fixtures.<Void>guard()
                .bell(t -> t.action((c, e) -> {
                    try {
                        holder[0].rewind(0);
                    } catch (IllegalStateException x) {
                        caught.add(x);
                    }
                })));
        try (StateWorld world = StateWorld.create()) {
            world.spawn(EntityKey.of("g"), rewinding.trait());
            Rewind rewind = Rewind.keep(world, 8);
            holder[0] = rewind;
            rewind.step(DT);
            rewind.step(DT);
            rewind.input(w -> rewinding.send(w.entity("g"), "BELL"));
            rewind.step(DT);
            assertEquals(1, caught.size());
            assertTrue(caught.get(0).getMessage().contains("Nothing was changed"), caught.get(0).getMessage());
            assertEquals("answer", rewinding.read(world.entity("g")).state());
            assertEquals(3, world.steps());
            rewind.rewind(0); // between steps it may
            assertEquals("patrol.watch", rewinding.read(world.entity("g")).state());
        }
    }

    @Test
    void aMachineWhoseContextHasNoCodecIsRefusedNamingItAndTheEntity() {
        try (StateWorld world = StateWorld.create()) {
            world.spawn(EntityKey.of("g"), GUARD.trait());
            Rewind rewind = Rewind.keep(world, 8);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> rewind.step(DT));
            assertTrue(e.getMessage().contains("'rewound-guard'") && e.getMessage().contains("'g'")
                    && e.getMessage().contains("ContextBytes"), e.getMessage());
            assertEquals(0, world.steps(), "the step did not run");
            rewind.sharedContexts(GUARD);
            rewind.step(DT);
            assertEquals(1, world.steps());
        }
    }

    @Test
    void aWorldHoldsOneRewindAtATimeAndAClosedOneLetsItGo() {
        try (StateWorld world = StateWorld.create()) {
            Rewind first = Rewind.keep(world, 8);
            assertThrows(IllegalStateException.class, () -> Rewind.keep(world, 8));
            first.close();
            assertThrows(IllegalStateException.class, () -> first.step(DT));
            Rewind second = Rewind.keep(world, 8);
            second.step(DT);
            assertEquals(1, second.tick());
            assertThrows(IllegalArgumentException.class, () -> Rewind.keep(world, 0));
            assertThrows(IllegalArgumentException.class, () -> Rewind.keep(world, Rewind.MAX_TICKS + 1));
        }
    }

    @Test
    void ticksSteppedOutsideTheRewindAreNotKeptAndSayWhy() {
        try (StateWorld world = StateWorld.create()) {
            Rewind rewind = guards(world, 8, "g");
            rewind.step(DT);
            rewind.step(DT);
            world.step(DT); // not through the rewind: the kept ticks no longer lead to the world
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> rewind.rewind(1));
            assertTrue(e.getMessage().contains("not kept"), e.getMessage());
            rewind.step(DT);
            rewind.rewind(3);
            assertEquals(3, world.steps());
        }
    }

    @Test
    void waitsAndDelayedSendsFireOnTheSameTicksAfterARewind() {
        States<Void> sender = States.define("rewound-sender", () -> null, m -> m
                .initial("idle")
                .state("idle", s -> s.on("GO", t -> t.target("armed").action((c, e, self) -> self.sendSelf(
                        dev.enginestates.declare.Event.of("FIRE"), 0.25, "shot"))))
                .state("armed", s -> s.on("FIRE", "fired"))
                .state("fired", s -> s.waitFor(0.5, "idle")));
        Saves saves = Saves.of(sender);
        try (StateWorld world = StateWorld.create()) {
            world.spawn(EntityKey.of("s"), sender.trait());
            Rewind rewind = Rewind.keep(world, 64);
            rewind.input(w -> sender.send(w.entity("s"), "GO"));
            List<String> straight = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                rewind.step(DT);
                straight.add(world.steps() + " " + sender.read(world.entity("s")).state());
            }
            rewind.rewind(5); // the send pending, due at tick 15
            List<String> again = new ArrayList<>(straight.subList(0, 5));
            for (int i = 5; i < 60; i++) {
                rewind.step(DT);
                again.add(world.steps() + " " + sender.read(world.entity("s")).state());
            }
            assertEquals(straight, again);
            assertTrue(straight.contains("16 fired") && straight.contains("46 idle"), straight.toString());
            assertEquals(saves.checkpoint(world).length() > 0, true);
        }
    }

    @Test
    void aRecordRestoredInPlaceIsTheSameObjectAndItsMachineKeepsItsPlace() {
        try (StateWorld world = StateWorld.create()) {
            Rewind rewind = guards(world, 8, "g");
            StateRecord<Count> r = GUARD.read(world.entity("g"));
            rewind.input(send("g", "BELL"));
            rewind.step(DT);
            rewind.rewind(0);
            assertSame(r, GUARD.read(world.entity("g")));
            assertTrue(world.query(GUARD.is("patrol.watch")).count() == 1, "its tags moved back with it");
        }
    }

    @Test
    void anInputThatThrowsIsDroppedAndTheWorldIsAsBeforeTheTicksInputs() {
        try (StateWorld world = StateWorld.create()) {
            Rewind rewind = guards(world, 8, "g");
            rewind.step(DT);
            String before = SAVES.checkpoint(world);
            rewind.input(send("g", "BELL"));
            rewind.input(w -> {
                throw new IllegalArgumentException("the game's bug");
            });
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> rewind.step(DT));
            assertTrue(e.getMessage().contains("input 2 of tick 1") && e.getMessage().contains("the game's bug"), e.getMessage());
            assertEquals(before, SAVES.checkpoint(world), "the bell before it is undone, and the tick did not run");
            assertEquals(1, rewind.tick());
            rewind.step(DT); // the tick again, with the bell and without the input that threw
            assertEquals("answer", GUARD.read(world.entity("g")).state());
        }
    }

    @Test
    void anInputThatThrowsDuringAResimulationIsDroppedAndTheResimulationReachesThePresent() {
        try (StateWorld world = StateWorld.create()) {
            Rewind rewind = guards(world, 10, "g");
            rewind.step(DT);
            long tick = rewind.tick();
            for (int i = 0; i < 4; i++) {
                rewind.step(DT);
            }
            rewind.input(tick, send("g", "BELL"));
            rewind.input(tick, w -> {
                throw new IllegalArgumentException("a late input's bug");
            });
            IllegalStateException e = assertThrows(IllegalStateException.class, rewind::resimulate);
            assertTrue(e.getMessage().contains("a late input's bug"), e.getMessage());
            assertEquals(5, world.steps(), "it reached the present");
            assertEquals("answer", GUARD.read(world.entity("g")).state(), "the tick's other input was applied again");
            assertEquals(0, rewind.resimulate(), "the input that threw is gone");
        }
    }

    @Test
    void aMachineThatFailsDuringAResimulationFailsAloneAndTheResimulationReachesThePresent() {
        States<Void> brittle = States.define("rewound-brittle", () -> null, Fixtures.<Void>guard()
                .watchWait(t -> t.action((c, e) -> {
                    throw new IllegalStateException("the watch's bug");
                })));
        try (StateWorld world = StateWorld.create()) {
            world.spawn(EntityKey.of("b"), brittle.trait());
            world.spawn(EntityKey.of("g"), GUARD.trait());
            Rewind rewind = Rewind.keep(world, 600).contexts(GUARD, COUNT);
            List<Throwable> failures = new ArrayList<>();
            world.onFailure(f -> failures.add(f.cause()));
            for (int i = 0; i < 250; i++) {
                rewind.step(DT);
            }
            assertEquals(1, failures.size(), "its 4 s wait ended once: " + failures);
            failures.clear();
            rewind.input(10, send("g", "BELL"));
            assertEquals(240, rewind.resimulate());
            assertEquals(1, failures.size(), "the failure of a tick stepped again reaches the handler too");
            assertEquals("answer", GUARD.read(world.entity("g")).state());
            assertEquals(250, world.steps());
        }
    }

    @Test
    void withoutAFailureHandlerAResimulationReachesThePresentThenThrowsTheStepsFailure() {
        States<Void> brittle = States.define("rewound-brittle-thrown", () -> null, Fixtures.<Void>guard()
                .watchWait(t -> t.action((c, e) -> {
                    throw new IllegalStateException("the watch's bug");
                })));
        try (StateWorld world = StateWorld.create()) {
            world.spawn(EntityKey.of("b"), brittle.trait());
            world.spawn(EntityKey.of("g"), GUARD.trait());
            Rewind rewind = Rewind.keep(world, 600).contexts(GUARD, COUNT);
            for (int i = 0; i < 239; i++) {
                rewind.step(DT);
            }
            assertThrows(StepFailedException.class, () -> rewind.step(DT));
            for (int i = 0; i < 10; i++) {
                rewind.step(DT);
            }
            rewind.input(10, send("g", "BELL"));
            StepFailedException e = assertThrows(StepFailedException.class, rewind::resimulate);
            assertTrue(e.getMessage().contains("the watch's bug") || String.valueOf(e.getCause()).contains("the watch's bug")
                    || e.toString().contains("rewound-brittle-thrown"), e.toString());
            assertEquals(250, world.steps(), "it reached the present");
            assertEquals("answer", GUARD.read(world.entity("g")).state());
        }
    }

    @Test
    void aListenerThatCallsTheRewindWhileItTellsItsNetChangesIsRefusedAndTheRewindEnds() {
        try (StateWorld world = StateWorld.create()) {
            Rewind rewind = guards(world, 10, "g");
            rewind.step(DT);
            rewind.step(DT);
            List<Throwable> refused = new ArrayList<>();
            world.addListener(new MachineListener<StateRecord<?>>() {
                @Override
                public void stateChanged(StateRecord<?> m, String from, String to, String event) {
                    try {
                        rewind.rewind(0);
                    } catch (IllegalStateException e) {
                        refused.add(e);
                    }
                }
            });
            rewind.input(0, send("g", "BELL"));
            rewind.resimulate();
            assertEquals(1, refused.size());
            assertTrue(refused.get(0).getMessage().contains("Nothing was changed"), refused.get(0).getMessage());
            assertEquals("answer", GUARD.read(world.entity("g")).state());
            assertEquals(2, world.steps());
        }
    }

    @Test
    void aListenerThatClosesTheWorldWhileItTellsItsNetChangesIsRefusedAndTheWorldStaysWhole() {
        StateWorld world = StateWorld.create(); // not a resource: the listener below closes it by hand
        try {
            Rewind rewind = guards(world, 10, "g", "h");
            rewind.step(DT);
            rewind.step(DT);
            List<Throwable> refused = new ArrayList<>();
            world.addListener(new MachineListener<StateRecord<?>>() {
                @Override
                public void stateChanged(StateRecord<?> m, String from, String to, String event) {
                    try {
                        world.close();
                    } catch (IllegalStateException e) {
                        refused.add(e);
                    }
                }
            });
            rewind.input(0, send("g", "BELL"));
            rewind.input(0, send("h", "BELL"));
            rewind.resimulate();
            assertEquals(2, refused.size(), "each machine's change was told, each close refused");
            rewind.step(DT);
            assertEquals("answer", GUARD.read(world.entity("h")).state());
        } finally {
            world.close();
        }
    }

    @Test
    void anotherThreadCannotUseTheRewindAndChangesNothing() throws Exception {
        try (StateWorld world = StateWorld.create()) {
            Rewind rewind = guards(world, 10, "g");
            rewind.step(DT);
            Throwable[] caught = new Throwable[1];
            Thread t = new Thread(() -> {
                try {
                    rewind.rewind(0);
                } catch (Throwable e) {
                    caught[0] = e;
                }
            });
            t.start();
            t.join();
            assertTrue(caught[0] instanceof IllegalStateException, String.valueOf(caught[0]));
            assertEquals(1, world.steps());
        }
    }

    @Test
    void aFloodOfInputsForOneTickIsRefusedBeyondTheBoundAndTheTickKeepsTheRest() {
        try (StateWorld world = StateWorld.create()) {
            Rewind rewind = guards(world, 4, "g");
            for (int i = 0; i < Rewind.MAX_INPUTS_PER_TICK; i++) {
                rewind.input(w -> { });
            }
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> rewind.input(send("g", "BELL")));
            assertTrue(e.getMessage().contains("65536 inputs"), e.getMessage());
            rewind.step(DT);
            assertEquals("patrol.watch", GUARD.read(world.entity("g")).state(), "the refused input was not kept");
        }
    }

    @Test
    void anInputThatStepsTheWorldItselfIsDroppedAndTheTickIsAsBefore() {
        try (StateWorld world = StateWorld.create()) {
            Rewind rewind = guards(world, 4, "g");
            rewind.step(DT);
            String before = SAVES.checkpoint(world);
            rewind.input(w -> w.step(DT));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> rewind.step(DT));
            assertTrue(e.getMessage().contains("stepped or restored the world itself"), e.getMessage());
            assertEquals(before, SAVES.checkpoint(world));
            assertEquals(1, world.steps());
            rewind.step(DT);
            rewind.step(DT);
            rewind.rewind(2);
            assertEquals(2, world.steps(), "every kept tick is the world's own");
        }
    }

    /** A codec for the guard's count that throws when told to. */
    static final class Brittle implements Rewind.ContextBytes<Count> {
        boolean throwOnWrite;
        boolean throwOnRead;
        boolean endless;

        @Override
        public void write(Count c, ByteBuffer out) {
            if (throwOnWrite) {
                throw new IllegalArgumentException("the codec's write bug");
            }
            out.putInt(c.answered).putInt(c.exits);
            while (endless) {
                out.putLong(0L);
            }
        }

        @Override
        public Count read(Count c, ByteBuffer in) {
            if (throwOnRead) {
                in.getInt(); // a read that fails half-way: the next record must still be read from its own start
                throw new IllegalArgumentException("the codec's read bug");
            }
            c.answered = in.getInt();
            c.exits = in.getInt();
            return c;
        }
    }

    @Test
    void aContextCodecThatThrowsWritingIsRefusedNamingItAndTheTickDoesNotRun() {
        try (StateWorld world = StateWorld.create()) {
            world.spawn(EntityKey.of("g"), GUARD.trait());
            Brittle codec = new Brittle();
            Rewind rewind = Rewind.keep(world, 4).contexts(GUARD, codec);
            rewind.step(DT);
            codec.throwOnWrite = true;
            rewind.input(send("g", "BELL"));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> rewind.step(DT));
            assertTrue(e.getMessage().contains("'rewound-guard'") && e.getMessage().contains("'g'")
                    && e.getMessage().contains("the codec's write bug"), e.getMessage());
            assertEquals(1, world.steps());
            assertEquals("patrol.watch", GUARD.read(world.entity("g")).state(), "its input did not run");
            codec.throwOnWrite = false;
            rewind.step(DT);
            assertEquals("answer", GUARD.read(world.entity("g")).state());
        }
    }

    @Test
    void aContextCodecThatWritesWithoutEndIsRefusedNotFedMemory() {
        try (StateWorld world = StateWorld.create()) {
            world.spawn(EntityKey.of("g"), GUARD.trait());
            Brittle codec = new Brittle();
            codec.endless = true;
            Rewind rewind = Rewind.keep(world, 4).contexts(GUARD, codec);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> rewind.step(DT));
            assertTrue(e.getMessage().contains("more than 1048576 bytes"), e.getMessage());
            assertEquals(0, world.steps());
        }
    }

    @Test
    void aContextCodecThatThrowsReadingBackLeavesEveryOtherRecordBackAndSaysWhich() {
        try (StateWorld world = StateWorld.create()) {
            world.spawn(EntityKey.of("a"), GUARD.trait());
            world.spawn(EntityKey.of("b"), GUARD.trait());
            Brittle codec = new Brittle();
            Rewind rewind = Rewind.keep(world, 4).contexts(GUARD, codec);
            rewind.step(DT);
            rewind.input(send("a", "BELL"));
            rewind.input(send("b", "BELL"));
            rewind.step(DT);
            codec.throwOnRead = true;
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> rewind.rewind(1));
            assertTrue(e.getMessage().contains("threw reading the context on entity 'a'") && e.getMessage().contains("the codec's read bug"),
                    e.getMessage());
            assertEquals(1, world.steps(), "the rewind went back");
            assertEquals("patrol.watch", GUARD.read(world.entity("a")).state());
            assertEquals("patrol.watch", GUARD.read(world.entity("b")).state(), "the record after the one that threw is back too");
            codec.throwOnRead = false;
            rewind.step(DT);
            assertEquals(2, world.steps());
        }
    }

    @Test
    void aHundredThousandSpawnsAndDespawnsWithLateInputsEndAsTheWorldThatHadThemOnTimeAndMemoryStaysFlat() {
        int perTick = 50;
        int ticks = 2_000;
        try (StateWorld client = StateWorld.create(); StateWorld onTime = StateWorld.create()) {
            Rewind rewind = Rewind.keep(client, 8).sharedContexts(PLAIN);
            Rewind straight = Rewind.keep(onTime, 8).sharedContexts(PLAIN);
            for (int t = 0; t < ticks; t++) {
                int tick = t;
                Rewind.Input churn = w -> {
                    for (int i = 0; i < perTick; i++) {
                        w.spawn(EntityKey.of("n" + (tick * perTick + i)), PLAIN.trait());
                        if (tick >= 5) { // each lives five ticks
                            w.despawn(w.entity("n" + ((tick - 5) * perTick + i)));
                        }
                    }
                };
                rewind.input(churn);
                straight.input(churn);
                // every tenth tick a bell for an entity it spawns: on time for one world, three ticks late for the other
                if (t % 10 == 6) {
                    straight.input(bellFor("n" + (t * perTick)));
                }
                if (t % 10 == 9) {
                    rewind.input(t - 3, bellFor("n" + ((t - 3) * perTick)));
                    assertEquals(3, rewind.resimulate());
                    assertEquals("answer", PLAIN.read(client.entity("n" + ((t - 3) * perTick))).state(), "the late bell moved it");
                }
                rewind.step(DT);
                straight.step(DT);
            }
            assertEquals(5 * perTick, client.records(PLAIN).size());
            assertTrue(rewind.bytes(rewind.tick() - 1) < 100 * 5 * perTick, "a snapshot holds the live records only: "
                    + rewind.bytes(rewind.tick() - 1) + " bytes");
            assertEquals(SAVES.checkpoint(onTime), SAVES.checkpoint(client));
        }
    }

    private static Rewind.Input bellFor(String key) {
        return w -> PLAIN.send(w.entity(key), "BELL");
    }
}

package dev.enginestates.versions;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.MachineListener;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.Migration;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.MachinePaused;
import dev.enginestates.ecs.Rewind;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Saves;
import dev.enginestates.versions.GuardVersions.Guard;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import static dev.enginestates.versions.GuardVersions.V1;
import static dev.enginestates.versions.GuardVersions.V2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A swap faces the game's code and the game's mistakes: a context change or a wait's seconds
 * that throw, a swap asked from inside a step or a listener, from another thread, onto entities
 * that hold the newer definition already, a listener that throws while told of it, a held
 * machine, a rewind that kept the ticks before it. Each is refused with the world as it was, or
 * completes whole.
 */
class SwapUnderAttackTest {
    static final double DT = 1.0 / 60;

    static StateWorld world(int n) {
        StateWorld w = StateWorld.create();
        for (int i = 0; i < n; i++) {
            Entity e = w.spawn(EntityKey.of("g" + i), V1.trait());
            if (i % 3 == 1) {
                V1.send(e, "BELL");
            }
        }
        for (int i = 0; i < 90; i++) {
            w.step(DT);
        }
        return w;
    }

    static States<Guard> v2With(Migration m) {
        return States.define("vguard", Guard::new, b -> b
                .version(2, m)
                .initial("patrol")
                .state("patrol", p -> p.initial("watch")
                        .state("watch", s -> s.waitFor((g, e, self) -> {
                            if (g.bells > 0) {
                                throw new IllegalStateException("no seconds for a guard who heard a bell");
                            }
                            return 4.0;
                        }, "nap"))
                        .state("nap", s -> s.waitFor(10, "watch"))
                        .history("resumed", dev.enginestates.declare.HistoryDepth.DEEP)
                        .on("BELL", "answer"))
                .state("answer", s -> s.on("RESUME", "patrol.resumed"))
                .state("hunt"));
    }

    @Test
    void aContextChangeThatThrowsForOneRecordRefusesTheSwapAndChangesNothing() {
        try (StateWorld w = world(30)) {
            States<GuardVersions.Guard3> v2 = States.define("vguard", GuardVersions.Guard3::new, b -> b
                    .version(2, Migration.from(1).rename("patrol.rest", "patrol.nap").remove("alarm", "patrol").remove("search", "patrol")
                            .context(Guard::new, (Guard g) -> {
                                if (g.bells > 0) {
                                    throw new IllegalArgumentException("bells cannot be counted");
                                }
                                return new GuardVersions.Guard3();
                            }))
                    .initial("patrol")
                    .state("patrol", p -> p.initial("watch")
                            .state("watch", s -> s.waitFor(4, "nap"))
                            .state("nap", s -> s.waitFor(10, "watch"))
                            .history("resumed", dev.enginestates.declare.HistoryDepth.DEEP)
                            .on("BELL", "answer"))
                    .state("answer", s -> s.on("RESUME", "patrol.resumed")));
            String before = Saves.of(V1).checkpoint(w);
            MachineException e = assertThrows(MachineException.class, () -> w.swap(V1, v2));
            assertTrue(e.getMessage().contains("bells cannot be counted") && e.getMessage().contains("g1")
                    && e.getMessage().contains("10 of its 30 records"), e.getMessage());
            assertEquals(before, Saves.of(V1).checkpoint(w));
        }
    }

    @Test
    void aWaitsSecondsThatThrowForANewlyEnteredStateRefusesTheSwap() {
        try (StateWorld w = world(9)) {
            // answering guards go back on patrol, where their watch asks its seconds of code that throws for them
            States<Guard> v2 = v2With(Migration.from(1).rename("patrol.rest", "patrol.nap").remove("answer", "patrol"));
            String before = Saves.of(V1).checkpoint(w);
            MachineException e = assertThrows(MachineException.class, () -> w.swap(V1, v2));
            assertTrue(e.getMessage().contains("no seconds for a guard who heard a bell") && e.getMessage().contains("g1"), e.getMessage());
            assertEquals(before, Saves.of(V1).checkpoint(w));
        }
    }

    @Test
    void aKeptStatesWaitAsksNoCode() {
        try (StateWorld w = world(6)) {
            States<Guard> v2 = v2With(Migration.from(1).rename("patrol.rest", "patrol.nap"));
            Entity answering = w.entity("g1");
            V1.send(answering, "RESUME"); // back on watch with a bell heard: its seconds function would throw if asked
            double left = V1.read(answering).secondsLeft();
            w.swap(V1, v2);
            assertEquals(left, v2.read(answering).secondsLeft(), "the wait it had, its seconds not asked again");
        }
    }

    @Test
    void aSwapFromInsideAStepOrFromAListenerToldOfTheSwapIsRefused() {
        try (StateWorld w = world(6)) {
            List<RuntimeException> refused = new ArrayList<>();
            w.addListener(new MachineListener<>() {
                @Override
                public void stateChanged(StateRecord<?> m, String from, String to, String event) {
                    try {
                        w.swap(V2, V1);
                    } catch (RuntimeException e) {
                        refused.add(e);
                    }
                    if (event.equals("swap")) {
                        try {
                            w.despawn(m.entity());
                        } catch (RuntimeException e) {
                            refused.add(e);
                        }
                    }
                }
            });
            for (int i = 0; i < 200; i++) {
                w.step(DT);
            }
            int inStep = refused.size();
            assertTrue(inStep > 0 && refused.stream().allMatch(e -> e instanceof IllegalStateException), refused.toString());
            w.swap(V1, V2);
            assertTrue(refused.size() > inStep, "the listener told of the swap tried again");
            assertTrue(refused.stream().allMatch(e -> e instanceof IllegalStateException), refused.toString());
            assertEquals(6, w.records(V2).size(), "no entity was despawned under the swap");
        }
    }

    @Test
    void aListenerThatThrowsWhileToldOfTheSwapLetsItFinishThenItsFailureIsThrown() {
        try (StateWorld w = world(12)) {
            w.addListener(new MachineListener<>() {
                @Override
                public void stateChanged(StateRecord<?> m, String from, String to, String event) {
                    throw new IllegalStateException("listener broke");
                }
            });
            RuntimeException e = assertThrows(RuntimeException.class, () -> w.swap(V1, V2));
            assertTrue(e.toString().contains("listener broke") || (e.getCause() != null && e.getCause().toString().contains("listener broke")),
                    e.toString());
            assertEquals(12, w.records(V2).size(), "every record moved: the swap is whole");
            assertTrue(w.records(V1).isEmpty());
        }
    }

    @Test
    void aSwapFromAnotherThreadIsRefused() throws InterruptedException {
        try (StateWorld w = world(3)) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> CompletableFuture.runAsync(() -> w.swap(V1, V2)).get());
            assertInstanceOf(IllegalStateException.class, e.getCause());
            assertEquals(3, w.records(V1).size());
        }
    }

    @Test
    void anEntityHoldingTheNewerDefinitionAlreadyIsNamedAndNothingChanges() {
        try (StateWorld w = world(4)) {
            w.attach(w.entity("g2"), V2.trait());
            String before = Saves.of(V1, V2).checkpoint(w);
            MachineException e = assertThrows(MachineException.class, () -> w.swap(V1, V2));
            assertTrue(e.getMessage().contains("g2") && e.getMessage().contains("already"), e.getMessage());
            assertEquals(before, Saves.of(V1, V2).checkpoint(w));
        }
    }

    @Test
    void aHeldMachineStaysHeldAndItsWaitCountsNoSecondsAcrossTheSwap() {
        try (StateWorld w = world(2)) {
            Entity g0 = w.entity("g0");
            g0.add(MachinePaused.INSTANCE);
            w.step(DT);
            double left = V1.read(g0).secondsLeft();
            w.swap(V1, V2);
            for (int i = 0; i < 120; i++) {
                w.step(DT);
            }
            assertEquals(left, V2.read(g0).secondsLeft(), "held: no second counted");
            g0.removeType(MachinePaused.class);
            for (int i = 0; i < 30; i++) {
                w.step(DT);
            }
            assertEquals(left - 0.5, V2.read(g0).secondsLeft(), 1e-9, "released: it counts on from where it was");
        }
    }

    @Test
    void aRewindForgetsTheTicksBeforeASwapAndKeepsTheOnesAfter() {
        try (StateWorld w = world(5); Rewind rewind = Rewind.keep(w, 30)) {
            rewind.sharedContexts(V1);
            rewind.sharedContexts(V2);
            for (int i = 0; i < 10; i++) {
                rewind.step(DT);
            }
            long before = rewind.tick();
            w.swap(V1, V2);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> rewind.rewind(before - 5));
            assertTrue(e.getMessage().contains("not kept"), e.getMessage());
            for (int i = 0; i < 10; i++) {
                rewind.step(DT);
            }
            String now = Saves.of(V2).checkpoint(w);
            rewind.rewind(rewind.tick() - 5);
            for (int i = 0; i < 5; i++) {
                rewind.step(DT);
            }
            assertEquals(now, Saves.of(V2).checkpoint(w), "the ticks after the swap rewind and step again alike");
        }
    }

    @Test
    void aSwapOfAMachineWithNoRecordsMovesNothingAndAWorldMachineSwapsToo() {
        try (StateWorld w = StateWorld.create()) {
            assertEquals(0, w.swap(V1, V2));
            w.add(V1);
            assertEquals(1, w.swap(V1, V2));
            assertEquals("patrol.watch.look", V2.read(w).state());
        }
    }

    @Test
    void aRefusalListsTwentyProblemsAndCountsTheRest() {
        try (StateWorld w = StateWorld.create()) {
            for (int i = 0; i < 500; i++) {
                V1.send(w.spawn(EntityKey.of("a" + i), V1.trait()), "ALARM");
            }
            States<Guard> noAlarm = States.define("vguard", Guard::new, b -> b.version(1)
                    .initial("patrol").state("patrol"));
            MachineException e = assertThrows(MachineException.class, () -> w.swap(V1, noAlarm));
            assertTrue(e.getMessage().contains("500 of its 500 records") && e.getMessage().contains("only the first 20 problems"),
                    e.getMessage());
            assertTrue(e.getMessage().length() < 10_000, "a short message: " + e.getMessage().length() + " chars");
        }
    }

    @Test
    void aCheckpointBySavesOfTheDefinitionSwappedAwayNamesBothFingerprints() {
        States<Guard> edited = States.define("vguard", Guard::new, b -> b.version(1)
                .initial("patrol").state("patrol", p -> p.initial("watch").state("watch").state("rest")
                        .history("resumed", dev.enginestates.declare.HistoryDepth.DEEP).on("BELL", "answer"))
                .state("answer", s -> s.on("RESUME", "patrol.resumed")));
        try (StateWorld w = world(3)) {
            w.swap(V1, edited);
            dev.enginestates.io.CheckpointException e = assertThrows(dev.enginestates.io.CheckpointException.class,
                    () -> Saves.of(V1).checkpoint(w));
            assertTrue(e.getMessage().contains(edited.machine().fingerprint()) && e.getMessage().contains(V1.machine().fingerprint())
                    && e.getMessage().contains("the world runs the one it swapped to"), e.getMessage());
        }
    }


    @Test
    void aNewerDefinitionWithAnotherContextTypeAndNoContextChangeIsRefused() {
        States<GuardVersions.Guard3> otherContext = States.define("vguard", GuardVersions.Guard3::new, b -> b.version(1)
                .initial("patrol").state("patrol", p -> p.initial("watch").state("watch").state("rest")
                        .history("resumed", dev.enginestates.declare.HistoryDepth.DEEP).on("BELL", "answer"))
                .state("answer", s -> s.on("RESUME", "patrol.resumed")));
        try (StateWorld w = world(3)) {
            String before = Saves.of(V1).checkpoint(w);
            MachineException e = assertThrows(MachineException.class, () -> w.swap(V1, otherContext));
            assertTrue(e.getMessage().contains("its context is a " + Guard.class.getName()) && e.getMessage().contains("Migration.context"),
                    e.getMessage());
            assertEquals(before, Saves.of(V1).checkpoint(w));
        }
    }


    @Test
    void aDisabledEntityIsNamedAndNothingChanges() {
        try (StateWorld w = world(4)) {
            w.entity("g3").setEnabled(false);
            String before = Saves.of(V1).checkpoint(w);
            MachineException e = assertThrows(MachineException.class, () -> w.swap(V1, V2));
            assertTrue(e.getMessage().contains("g3") && e.getMessage().contains("disabled"), e.getMessage());
            assertEquals(before, Saves.of(V1).checkpoint(w));
            w.entity("g3").setEnabled(true);
            assertEquals(4, w.swap(V1, V2));
        }
    }


    @Test
    void aContextChangeThatStepsOrSwapsTheWorldIsRefusedAsItsOwnFailureAndNothingChanges() {
        try (StateWorld w = world(3)) {
            List<String> tried = new ArrayList<>();
            States<Guard> reentering = States.define("vguard", Guard::new, b -> b
                    .version(2, Migration.from(1).rename("patrol.rest", "patrol.nap").remove("alarm", "patrol").remove("search", "patrol")
                            .context(Guard::new, (Guard g) -> {
                                tried.add("step");
                                w.step(DT);
                                return g;
                            }))
                    .initial("patrol")
                    .state("patrol", p -> p.initial("watch")
                            .state("watch", s -> s.waitFor(4, "nap"))
                            .state("nap", s -> s.waitFor(10, "watch"))
                            .history("resumed", dev.enginestates.declare.HistoryDepth.DEEP)
                            .on("BELL", "answer"))
                    .state("answer", s -> s.on("RESUME", "patrol.resumed")));
            String before = Saves.of(V1).checkpoint(w);
            long steps = w.steps();
            MachineException e = assertThrows(MachineException.class, () -> w.swap(V1, reentering));
            assertTrue(e.getMessage().contains("context change threw"), e.getMessage());
            assertEquals(3, tried.size(), "each record's change was tried, each refused its step");
            assertEquals(steps, w.steps(), "no step ran inside the swap");
            assertEquals(before, Saves.of(V1).checkpoint(w));
        }
    }

    @Test
    void otherMachinesOnTheEntityAreUntouchedAndChurnedSlotsSwapWhole() {
        States<Guard> other = States.define("bystander", Guard::new, b -> b.initial("a").state("a", s -> s.waitFor(7, "b")).state("b"));
        try (StateWorld w = StateWorld.create()) {
            java.util.SplittableRandom r = new java.util.SplittableRandom(34);
            List<Entity> live = new ArrayList<>();
            for (int i = 0; i < 20_000; i++) {
                Entity e = w.spawn(EntityKey.of("c" + i), V1.trait(), other.trait());
                live.add(e);
                if (r.nextInt(3) == 0) {
                    w.despawn(live.remove(r.nextInt(live.size())));
                }
                if (i % 500 == 0) {
                    w.step(DT);
                }
            }
            List<String> bystanders = new ArrayList<>();
            live.forEach(e -> bystanders.add(other.read(e).state() + " " + other.read(e).secondsLeft()));
            int guards = w.records(V1).size();
            assertEquals(live.size(), guards);
            assertEquals(guards, w.swap(V1, V2));
            for (Entity e : live) {
                assertTrue(e.has(V2.recordType()) && !e.has(V1.recordType()) && e.has(other.recordType()));
                assertTrue(e.has(other.is("a")) || e.has(other.is("b")), "the bystander's tag stays");
            }
            List<String> after = new ArrayList<>();
            live.forEach(e -> after.add(other.read(e).state() + " " + other.read(e).secondsLeft()));
            assertEquals(bystanders, after, "the other machine's records are the same");
            assertEquals(guards, w.query(V2.is("patrol")).count() + w.query(V2.is("answer")).count() + w.query(V2.is("hunt")).count());
        }
    }

    @Test
    void aClosedWorldRefusesASwap() {
        StateWorld w = world(2);
        w.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> w.swap(V1, V2));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
    }

    @Test
    void aFailureHandlerRunsOnceTheStepIsDoneSoItMaySwapAndTheWorldGoesOnWhole() {
        States<Guard> failing = States.define("failing", Guard::new, b -> b.initial("a")
                .state("a", s -> s.waitFor(0.05, t -> t.target("b").action((g, e) -> {
                    throw new IllegalStateException("boom");
                })))
                .state("b"));
        try (StateWorld w = world(2)) {
            w.spawn(EntityKey.of("f"), failing.trait());
            List<Integer> moved = new ArrayList<>();
            w.onFailure(f -> moved.add(w.swap(V1, V2)));
            for (int i = 0; i < 10; i++) {
                w.step(DT);
            }
            assertEquals(List.of(2), moved, "the handler ran once, after the step, and the swap moved both guards");
            Saves saves = Saves.of(V2, failing);
            String after = saves.checkpoint(w);
            try (StateWorld again = StateWorld.create()) {
                saves.restoreSpawningMissing(again, after);
                assertEquals(after, saves.checkpoint(again), "a whole, valid world");
            }
        }
    }

}

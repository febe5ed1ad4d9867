package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.UserCodeException;
import dev.enginestates.io.Saves;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DESIGN.md, "Bad input gets a clear error": an exception thrown by a game's guard, action,
 * {@code when} test or seconds function affects its own machine only: the rest of the step runs
 * for every other machine (no timer lost), and the failure reaches the game naming the machine,
 * the entity's key, the state and the event.
 */
class StepSurvivesGameCodeTest {
    static final double DT = 1.0 / 60;

    public static final class Unit {
        public boolean explode;
        public int moves;
        public double seconds = 1;
    }

    static final States<Unit> CYCLE = States.define("survive-cycle", Unit::new, m -> m
            .initial("on")
            .state("on", s -> s.waitFor(1, t -> t.target("off").action((c, e) -> {
                if (c.explode) {
                    throw new IllegalStateException("boom");
                }
                c.moves++;
            })))
            .state("off", s -> s.waitFor(1, t -> t.target("on").action((c, e) -> c.moves++))));

    /** Declared after CYCLE, so the step runs it after CYCLE's machines. */
    static final States<Unit> LATER = States.define("survive-later", Unit::new, m -> m
            .initial("a")
            .state("a", s -> s.waitFor(1, t -> t.target("b").action((c, e) -> c.moves++)))
            .state("b", s -> s.waitFor(1, t -> t.target("a").action((c, e) -> c.moves++))));

    @Test
    void oneThrowingActionAmongTenThousandMachinesAffectsOnlyItsOwnMachine() {
        try (StateWorld world = StateWorld.create()) {
            List<Entity> cycles = new ArrayList<>();
            List<Entity> laters = new ArrayList<>();
            for (int i = 0; i < 5_000; i++) {
                cycles.add(world.spawn(EntityKey.of("c" + i), CYCLE.trait()));
                laters.add(world.spawn(EntityKey.of("l" + i), LATER.trait()));
            }
            Entity bad = cycles.get(2_500);
            CYCLE.read(bad).context().explode = true;

            for (int i = 0; i < 59; i++) {
                world.step(DT);
            }
            StepFailedException failed = assertThrows(StepFailedException.class, () -> world.step(DT));
            assertEquals(1, failed.failures().size(), failed.getMessage());
            MachineFailure f = failed.failures().get(0);
            assertEquals("survive-cycle", f.machineId());
            assertEquals("entity 'c2500'", f.entity());
            assertEquals("on", f.statePath());
            assertEquals("states.wait", f.eventType());
            assertInstanceOf(UserCodeException.class, f.cause());
            assertTrue(failed.getMessage().contains("c2500") && failed.getMessage().contains("boom"), failed.getMessage());

            // every other machine moved in that step, those declared later too
            for (Entity e : cycles) {
                if (e != bad) {
                    assertEquals(1, CYCLE.read(e).context().moves, "cycle " + StateWorld.keyOf(e));
                }
            }
            for (Entity e : laters) {
                assertEquals(1, LATER.read(e).context().moves, "later " + StateWorld.keyOf(e));
            }
            // the failing machine holds a valid configuration and its next wait counts: no timer lost
            assertTrue(CYCLE.read(bad).matches("off"), CYCLE.read(bad).toString());
            CYCLE.read(bad).context().explode = false;
            for (int i = 0; i < 60; i++) {
                world.step(DT);
            }
            assertTrue(CYCLE.read(bad).matches("on"), "the machine that failed goes on: " + CYCLE.read(bad));
            for (Entity e : laters) {
                assertEquals(2, LATER.read(e).context().moves);
            }
            assertEquals(5_000, world.query(CYCLE.is("on")).count());
        }
    }

    static final States<Unit> THROWING_WHEN = States.define("survive-when", Unit::new, m -> m
            .initial("a")
            .state("a", s -> s.when(c -> {
                throw new IllegalArgumentException("a when test that always throws");
            }, "b"))
            .state("b"));

    static final States<Unit> WHEN_AFTER = States.define("survive-when-after", Unit::new, m -> m
            .initial("a")
            .state("a", s -> s.when(c -> ++c.moves >= 10, "b"))
            .state("b"));

    /** Throws a checked exception without declaring it, as Kotlin code or Lombok's {@code @SneakyThrows} do. */
    @SuppressWarnings("unchecked")
    static <T extends Throwable> void sneakyThrow(Throwable t) throws T {
        throw (T) t;
    }

    static final States<Unit> CHECKED = States.define("survive-checked", Unit::new, m -> m
            .initial("on")
            .on("POKE", t -> t.guard((c, e) -> {
                StepSurvivesGameCodeTest.<RuntimeException>sneakyThrow(new java.io.IOException("no guard today"));
                return true;
            }).target(".off"))
            .state("on", s -> s.waitFor(1, t -> t.target("off").action((c, e) -> {
                if (c.explode) {
                    StepSurvivesGameCodeTest.<RuntimeException>sneakyThrow(new java.io.IOException("disk full"));
                }
                c.moves++;
            })))
            .state("off", s -> s.waitFor(1, t -> t.target("on").action((c, e) -> c.moves++))));

    @Test
    void aCheckedExceptionFromGameCodeIsAFailureOfItsMachineAndLosesNoOtherMachinesWait() {
        // found by an attack: only RuntimeException and Error were caught around game code, so an
        // undeclared IOException left step() raw, with the waits of that tick's batch out of the wheel
        try (StateWorld world = StateWorld.create()) {
            Entity bad = world.spawn(EntityKey.of("bad"), CHECKED.trait());
            Entity good = world.spawn(EntityKey.of("good"), CHECKED.trait());
            CHECKED.read(bad).context().explode = true;
            List<MachineFailure> failures = new ArrayList<>();
            world.onFailure(failures::add);
            for (int i = 0; i < 60; i++) {
                world.step(DT);
            }
            assertEquals(1, failures.size());
            UserCodeException e = assertInstanceOf(UserCodeException.class, failures.get(0).cause());
            assertInstanceOf(java.io.IOException.class, e.getCause());
            assertTrue(failures.get(0).entity().contains("bad"), failures.get(0).entity());
            CHECKED.read(bad).context().explode = false;
            for (int i = 0; i < 300; i++) {
                world.step(DT);
            }
            assertEquals(6, CHECKED.read(good).context().moves, "good: " + CHECKED.read(good));
            assertTrue(CHECKED.read(bad).secondsLeft() < Double.POSITIVE_INFINITY, "bad keeps a wait: " + CHECKED.read(bad));
            // outside a step the send's caller gets it, wrapped, and the machine stays where it was
            String before = CHECKED.read(good).state();
            UserCodeException sent = assertThrows(UserCodeException.class, () -> CHECKED.send(good, "POKE"));
            assertInstanceOf(java.io.IOException.class, sent.getCause());
            assertEquals(before, CHECKED.read(good).state());
        }
    }

    public static final class Gate extends dev.enginestates.fsm.AIContext {
        public boolean explode;
        public int opened;
    }

    @Test
    void aCheckedExceptionFromAPolledGuardOrABuilderHandlerIsAFailureOfItsMachineOnly() {
        States<Unit> polled = States.of(dev.enginestates.StatesDef.<Unit>define("survive-checked-polled", Unit::new, d -> d
                .state("a", s -> s.to("b", (u, t) -> {
                    if (u.explode) {
                        StepSurvivesGameCodeTest.<RuntimeException>sneakyThrow(new java.io.IOException("polled"));
                    }
                    return t >= 0.5;
                })).state("b")));
        States<Gate> builder = States.of(new dev.enginestates.fsm.StateMachineBuilder<Gate>("survive-checked-builder", Gate::new)
                .configureState("Shut").asInitial().handler((g, dt) -> {
                    if (g.explode) {
                        StepSurvivesGameCodeTest.<RuntimeException>sneakyThrow(new java.io.IOException("builder"));
                    }
                    return g.timeInState() >= 0.5f ? "Open" : null;
                })
                .configureState("Open").enter(g -> g.opened++).handler((g, dt) -> null)
                .build());
        try (StateWorld world = StateWorld.create()) {
            List<MachineFailure> failures = new ArrayList<>();
            world.onFailure(failures::add);
            Unit badUnit = new Unit();
            badUnit.explode = true;
            Gate badGate = new Gate();
            badGate.explode = true;
            Entity p1 = world.spawn(EntityKey.of("p-bad"), polled.trait(badUnit));
            Entity p2 = world.spawn(EntityKey.of("p-good"), polled.trait(new Unit()));
            world.spawn(EntityKey.of("g-bad"), builder.trait(badGate));
            Gate goodGate = new Gate();
            world.spawn(EntityKey.of("g-good"), builder.trait(goodGate));
            for (int i = 0; i < 60; i++) {
                world.step(DT);
            }
            assertEquals("a", polled.read(p1).state());
            assertEquals("b", polled.read(p2).state());
            assertEquals(0, badGate.opened);
            assertEquals(1, goodGate.opened);
            assertEquals(120, failures.size(), "one failure a step for each bad machine");
            for (MachineFailure f : failures) {
                assertInstanceOf(UserCodeException.class, f.cause());
                assertInstanceOf(java.io.IOException.class, f.cause().getCause());
            }
        }
    }

    @Test
    void aFailureHandlerThatThrowsIsStillHandedEveryFailureOfTheStepAndItsFirstThrowReachesTheCaller() {
        // found by an attack: a handler throwing on the first failure lost the rest of the step's
        try (StateWorld world = StateWorld.create()) {
            for (int i = 0; i < 3; i++) {
                Entity e = world.spawn(EntityKey.of("bad" + i), CYCLE.trait());
                CYCLE.read(e).context().explode = true;
            }
            List<String> handed = new ArrayList<>();
            world.onFailure(f -> {
                handed.add(f.entity());
                throw new IllegalArgumentException("handler " + handed.size());
            });
            IllegalArgumentException thrown = null;
            for (int i = 0; i < 60 && thrown == null; i++) {
                try {
                    world.step(DT);
                } catch (IllegalArgumentException e) {
                    thrown = e;
                }
            }
            assertEquals(3, handed.size(), handed.toString());
            assertEquals("handler 1", thrown.getMessage());
            assertEquals(2, thrown.getSuppressed().length);
        }
    }

    @Test
    void aWhenTestThatAlwaysThrowsStarvesNoMachineDeclaredAfterIt() {
        try (StateWorld world = StateWorld.create()) {
            List<MachineFailure> seen = new ArrayList<>();
            world.onFailure(seen::add);
            world.spawn(EntityKey.of("thrower"), THROWING_WHEN.trait());
            Entity after = world.spawn(EntityKey.of("after"), WHEN_AFTER.trait());
            for (int i = 0; i < 10; i++) {
                world.step(DT);
            }
            assertTrue(WHEN_AFTER.read(after).matches("b"), "tested every step: " + WHEN_AFTER.read(after));
            assertEquals(10, seen.size(), "one failure a step, handed to the handler instead of thrown");
            assertEquals("entity 'thrower'", seen.get(0).entity());
            assertEquals("a", seen.get(0).statePath());
        }
    }

    static final States<Unit> BAD_SECONDS = States.define("survive-seconds", Unit::new, m -> m
            .initial("idle")
            .state("idle", s -> s.on("GO", "wait"))
            .state("wait", s -> s.waitFor(c -> c.seconds, "done").on("BACK", "idle"))
            .state("done"));

    @Test
    void aSecondsFunctionGivingNaNNegativeOrInfiniteSecondsIsAnErrorOfItsMachineWhichStaysCheckpointable() {
        for (double bad : new double[]{Double.NaN, -1, Double.POSITIVE_INFINITY}) {
            Saves saves = Saves.of(BAD_SECONDS);
            try (StateWorld world = StateWorld.create(); StateWorld copy = StateWorld.create()) {
                Entity e = world.spawn(EntityKey.of("w"), BAD_SECONDS.trait());
                BAD_SECONDS.read(e).context().seconds = bad;
                UserCodeException thrown = assertThrows(UserCodeException.class, () -> BAD_SECONDS.send(e, "GO"));
                assertTrue(thrown.getMessage().contains("entity 'w'") && thrown.getMessage().contains("wait"), thrown.getMessage());
                StateRecord<Unit> r = BAD_SECONDS.read(e);
                assertTrue(r.matches("wait"), "the state is entered: " + r);
                assertTrue(!r.isWaiting(), "no wait counts: " + r);
                world.step(DT);
                String dump = saves.dump(world);
                String text = saves.checkpoint(world);
                saves.restoreSpawningMissing(copy, text);
                assertEquals(text, saves.checkpoint(copy), "seconds " + bad);
                assertTrue(dump.contains("wait"), dump);
                BAD_SECONDS.send(e, "BACK");
                BAD_SECONDS.read(e).context().seconds = 0.5;
                BAD_SECONDS.send(e, "GO");
                for (int i = 0; i < 30; i++) {
                    world.step(DT);
                }
                assertTrue(BAD_SECONDS.read(e).matches("done"), "the machine works again once its function does");
            }
        }
    }

    public static final class Spawner {
        public StateWorld world;
        public boolean attach;
    }

    /** A machine type defined at run time: new to every world. */
    static States<Unit> freshType(String id) {
        return States.define(id, Unit::new, m -> m
                .initial("x")
                .state("x", s -> s.waitFor(DT, t -> t.target("y").action((c, e) -> c.moves++)))
                .state("y"));
    }

    static final States<Unit> FRESH = freshType("survive-fresh");

    static final States<Spawner> ATTACHER = States.define("survive-attacher", Spawner::new, m -> m
            .initial("a")
            .state("a", s -> s.waitFor(DT, t -> t.target("b").action((c, e) -> c.world.spawn(FRESH.trait()))))
            .state("b"));

    static final States<Unit> LAST = States.define("survive-last", Unit::new, m -> m
            .initial("a")
            .state("a", s -> s.waitFor(DT, t -> t.target("b").action((c, e) -> c.moves++)))
            .state("b"));

    @Test
    void anActionMaySpawnAMachineOfATypeNewToTheWorldDuringAStep() {
        try (StateWorld world = StateWorld.create()) {
            Spawner ctx = new Spawner();
            ctx.world = world;
            world.spawn(ATTACHER.trait(ctx));
            Entity last = world.spawn(LAST.trait());
            world.step(DT);
            assertTrue(LAST.read(last).matches("b"), "a machine declared later is still stepped");
            assertEquals(1, world.query(FRESH.is("x")).count(), "the new machine joined, in its initial state");
            assertTrue(world.machines().contains(FRESH));
            world.step(DT);
            assertEquals(1, world.query(FRESH.is("y")).count(), "stepped from the next step on");
        }
    }

    @Test
    void aFailedSendNamesTheEntity() {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(EntityKey.of("s1"), BAD_SECONDS.trait());
            BAD_SECONDS.read(e).context().seconds = Double.NaN;
            UserCodeException thrown = assertThrows(UserCodeException.class, () -> BAD_SECONDS.send(e, "GO"));
            assertEquals("entity 's1'", thrown.entity());
            assertEquals("wait", thrown.statePath());
        }
    }

    @Test
    void aDeserializedStepFailedExceptionHasAnEmptyListOfFailures() throws Exception {
        StepFailedException failed;
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(EntityKey.of("c"), CYCLE.trait());
            CYCLE.read(e).context().explode = true;
            failed = assertThrows(StepFailedException.class, () -> world.step(1.5));
        }
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
            out.writeObject(failed);
        }
        StepFailedException back;
        try (java.io.ObjectInputStream in = new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
            back = (StepFailedException) in.readObject();
        }
        assertEquals(List.of(), back.failures(), "the failures are not serialized; an empty list, not null");
        assertEquals(failed.getMessage(), back.getMessage(), "the message still names every failure");
        assertEquals(failed.step(), back.step());
    }
}

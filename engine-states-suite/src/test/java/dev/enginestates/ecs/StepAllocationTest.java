package dev.enginestates.ecs;

import dev.enginestates.Allocations;
import dev.dominion.ecs.api.Entity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;


import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DESIGN.md, "Performance": an idle machine costs nothing per step, a waiting machine nothing
 * until its wait ends, and the step allocates nothing once warm apart from what Dominion
 * allocates. Counts this thread's allocated bytes with {@code com.sun.management.ThreadMXBean}.
 *
 * <p>What Dominion allocates: a tag move nothing (its prepared move takes the tag components from an
 * array kept with it, patch 0013); a step with a held entity asks Dominion for the holders (a
 * query's result objects, 56 to 120 B by JDK and JIT).
 * A step with nothing held asks Dominion nothing (it counts the arrivals of hold types, patch
 * 0012) and allocates nothing at all. Each world is also measured against a world of one idle
 * machine, run back to back through the same compiled code ({@link Allocations#beyond}): a byte
 * of ours per machine per step, or per transition, would show as kilobytes.
 */
class StepAllocationTest {
    static final class Ctx {
        int moves;
    }

    static final States<Ctx> IDLE = States.define("idle3", Ctx::new, m -> m
            .initial("a")
            .state("a", s -> s.on("NEXT", "b"))
            .state("b", s -> s.on("NEXT", "c"))
            .state("c", s -> s.on("NEXT", "a")));

    static final States<Ctx> LONG_WAIT = States.define("longWait", Ctx::new, m -> m
            .initial("waiting")
            .state("waiting", s -> s.waitFor(1e9, "done"))
            .state("done"));

    static final States<Ctx> CYCLE = States.define("cycle", Ctx::new, m -> m
            .tags(false)
            .initial("on")
            .state("on", s -> s.waitFor(1, t -> t.target("off").action((c, e) -> c.moves++)))
            .state("off", s -> s.waitFor(1, t -> t.target("on").action((c, e) -> c.moves++))));

    static final States<Ctx> HELD_BY_CYCLE = States.define("heldByCycle", Ctx::new, m -> m
            .tags(false)
            .heldBy(HoldsTest.Talking.class)
            .initial("on")
            .state("on", s -> s.waitFor(1, t -> t.target("off").action((c, e) -> c.moves++)))
            .state("off", s -> s.waitFor(1, t -> t.target("on").action((c, e) -> c.moves++))));

    static final States<Ctx> TAGGED_CYCLE = States.define("taggedCycle", Ctx::new, m -> m
            .initial("on")
            .state("on", s -> s.waitFor(1, t -> t.target("off").action((c, e) -> c.moves++)))
            .state("off", s -> s.waitFor(1, t -> t.target("on").action((c, e) -> c.moves++))));


    /** The steps of a world of one idle machine: nothing at all. */
    private static final class Baseline implements AutoCloseable {
        final StateWorld world = StateWorld.create();
        final Runnable steps = Allocations.steps(world);

        Baseline() {
            world.spawn(IDLE.trait());
        }

        @Override
        public void close() {
            world.close();
        }
    }

    @Test
    void aStepWithNothingHeldAllocatesNothing(TestReporter report) {
        try (Baseline one = new Baseline(); StateWorld world = StateWorld.create()) {
            for (int i = 0; i < 1_000; i++) {
                world.spawn(IDLE.trait());
                world.spawn(LONG_WAIT.trait());
            }
            long bytes = Allocations.warmThenMeasure(one.steps);
            long many = Allocations.warmThenMeasure(Allocations.steps(world));
            report.publishEntry("allocation", "one idle machine, 600 steps: " + bytes + " B; 2,000 idle and waiting machines: " + many + " B");
            assertTrue(bytes <= Allocations.MEASUREMENT_MARGIN, "600 steps of one idle machine allocated " + bytes + " B");
            assertTrue(many <= Allocations.MEASUREMENT_MARGIN, "600 steps of 2,000 idle and waiting machines allocated " + many + " B");
        }
    }

    @Test
    void aStepWithNothingHeldAllocatesNothingAfterAHoldIsTakenOff() {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(LONG_WAIT.trait());
            world.spawn(HELD_BY_CYCLE.trait()); // a machine with a heldBy type, never held
            e.add(MachinePaused.INSTANCE);
            world.step(1 / 60.0);
            assertTrue(LONG_WAIT.read(e).isHeld(), "held while the marker is on");
            e.removeType(MachinePaused.class);
            world.step(1 / 60.0);
            long bytes = Allocations.warmThenMeasure(() -> {
                for (int step = 0; step < 60; step++) {
                    world.step(1 / 60.0);
                }
            });
            assertTrue(!LONG_WAIT.read(e).isHeld(), "let go");
            assertTrue(bytes <= Allocations.MEASUREMENT_MARGIN, "steps with nothing held any more allocated " + bytes + " B");
        }
    }

    @Test
    void idleAndLongWaitingMachinesAllocateNothingPerStep(TestReporter report) {
        try (Baseline one = new Baseline(); StateWorld world = StateWorld.create()) {
            for (int i = 0; i < 1_000; i++) {
                world.spawn(IDLE.trait());
                world.spawn(LONG_WAIT.trait());
            }
            long bytes = Allocations.beyond(one.steps, Allocations.steps(world));
            report.publishEntry("allocation", "idle+long wait, 2,000 machines, 600 steps: " + bytes + " B beyond one idle machine's");
            assertTrue(bytes <= Allocations.MEASUREMENT_MARGIN,
                    "600 steps of 1,000 idle and 1,000 waiting machines allocate nothing: " + bytes
                            + " B beyond a world of one idle machine");
        }
    }

    @Test
    void movingMachinesWithoutTagsAllocateNothingPerStep(TestReporter report) {
        try (Baseline one = new Baseline(); StateWorld world = StateWorld.create()) {
            Entity first = null;
            for (int i = 0; i < 1_000; i++) {
                Entity e = world.spawn(CYCLE.trait());
                first = first == null ? e : first;
            }
            long bytes = Allocations.beyond(one.steps, Allocations.steps(world));
            report.publishEntry("allocation", "1,000 machines moving once a second, no tags, 600 steps: " + bytes + " B beyond one idle machine's");
            assertTrue(CYCLE.read(first).context().moves > 100, "the machines moved");
            assertTrue(bytes <= Allocations.MEASUREMENT_MARGIN,
                    "600 steps with 10,000 transitions allocate nothing: " + bytes
                            + " B beyond a world of one idle machine");
        }
    }

    @Test
    void taggedTransitionsAllocateNothing(TestReporter report) {
        try (Baseline one = new Baseline(); StateWorld world = StateWorld.create()) {
            for (int i = 0; i < 1_000; i++) {
                world.spawn(TAGGED_CYCLE.trait());
            }
            long moves = Allocations.beyond(one.steps, Allocations.steps(world));
            report.publishEntry("allocation", "1,000 tagged machines moving once a second, 600 steps: 10,000 tag moves allocate " + moves + " B");
            // 32 B a move before patch 0013 (Dominion's modifier object): 320 KB here
            assertTrue(moves <= Allocations.MEASUREMENT_MARGIN,
                    "600 steps with 10,000 tag moves allocate nothing: " + moves + " B beyond a world of one idle machine");
        }
    }
}

package dev.enginestates.ecs;

import dev.enginestates.Allocations;
import dev.dominion.ecs.api.Entity;
import org.junit.jupiter.api.Test;


import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DESIGN.md, "Performance": an idle machine costs nothing per step, a waiting machine nothing
 * until its wait ends, and the step allocates nothing once warm apart from what Dominion
 * allocates. Counts this thread's allocated bytes with {@code com.sun.management.ThreadMXBean}.
 *
 * <p>What Dominion allocates: each step asks Dominion once for the entities holding the paused
 * marker (and once per {@code heldBy} type), and a query allocates its result objects, the same
 * for 1 machine or 10,000; and a tag move allocates Dominion's own modifier. Their sizes are the
 * JDK's (a step's query measured 56 to 120 B on JDK 17 and 96 to 120 B on JDK 25, as the JIT
 * removes some objects on some runs), so no assertion names them: each world is measured against
 * a world of one idle machine, run back to back through the same compiled code
 * ({@link Allocations#beyond}), and must allocate nothing more, apart from one small object per
 * tag move. A byte of ours per machine per step, or per transition, would show as kilobytes.
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

    static final States<Ctx> TAGGED_CYCLE = States.define("taggedCycle", Ctx::new, m -> m
            .initial("on")
            .state("on", s -> s.waitFor(1, t -> t.target("off").action((c, e) -> c.moves++)))
            .state("off", s -> s.waitFor(1, t -> t.target("on").action((c, e) -> c.moves++))));


    /** The steps of a world of one idle machine: Dominion's hold query, nothing of ours. */
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
    void theStepsOwnAllocationIsOnlyDominionsHoldQuery_constantPerStep() {
        try (Baseline one = new Baseline()) {
            long bytes = Allocations.warmThenMeasure(one.steps);
            System.out.println("one idle machine, 600 steps: " + bytes + " B (" + bytes / 600.0 + " B per step)");
            // a few small objects of Dominion's query, on any JDK's object layout
            assertTrue(bytes / 600 <= 512, "Dominion's one query per step stays small: " + bytes / 600 + " B per step");
        }
    }

    @Test
    void idleAndLongWaitingMachinesAllocateNothingPerStep() {
        try (Baseline one = new Baseline(); StateWorld world = StateWorld.create()) {
            for (int i = 0; i < 1_000; i++) {
                world.spawn(IDLE.trait());
                world.spawn(LONG_WAIT.trait());
            }
            long bytes = Allocations.beyond(one.steps, Allocations.steps(world));
            System.out.println("idle+long wait, 2,000 machines, 600 steps: " + bytes + " B beyond one idle machine's");
            assertTrue(bytes <= Allocations.MEASUREMENT_MARGIN,
                    "600 steps of 1,000 idle and 1,000 waiting machines allocate only Dominion's hold query: " + bytes
                            + " B beyond a world of one idle machine");
        }
    }

    @Test
    void movingMachinesWithoutTagsAllocateNothingPerStep() {
        try (Baseline one = new Baseline(); StateWorld world = StateWorld.create()) {
            Entity first = null;
            for (int i = 0; i < 1_000; i++) {
                Entity e = world.spawn(CYCLE.trait());
                first = first == null ? e : first;
            }
            long bytes = Allocations.beyond(one.steps, Allocations.steps(world));
            System.out.println("1,000 machines moving once a second, no tags, 600 steps: " + bytes + " B beyond one idle machine's");
            assertTrue(CYCLE.read(first).context().moves > 100, "the machines moved");
            assertTrue(bytes <= Allocations.MEASUREMENT_MARGIN,
                    "600 steps with 10,000 transitions allocate only Dominion's hold query: " + bytes
                            + " B beyond a world of one idle machine");
        }
    }

    @Test
    void taggedTransitionsAllocateOnlyDominionsOwn() {
        try (Baseline one = new Baseline(); StateWorld world = StateWorld.create()) {
            for (int i = 0; i < 1_000; i++) {
                world.spawn(TAGGED_CYCLE.trait());
            }
            long moves = Allocations.beyond(one.steps, Allocations.steps(world));
            System.out.println("1,000 tagged machines moving once a second, 600 steps: 10,000 tag moves allocate " + moves + " B, "
                    + (moves / 10_000.0) + " B per move (Dominion's modifier)");
            // one small object per move (32 B on JDK 17 and 25); the same moves without tags allocate nothing
            assertTrue(moves / 10_000 <= 64, "a tag move allocates only Dominion's small modifier: " + moves / 10_000 + " B");
        }
    }
}

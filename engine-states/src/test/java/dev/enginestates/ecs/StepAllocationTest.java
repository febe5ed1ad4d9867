package dev.enginestates.ecs;

import dev.enginestates.Allocations;
import dev.dominion.ecs.api.Entity;
import org.junit.jupiter.api.Test;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DESIGN.md, "Performance": an idle machine costs nothing per step, a waiting machine nothing
 * until its wait ends, and the step allocates nothing once warm apart from what Dominion
 * allocates. Counts this thread's allocated bytes with {@code com.sun.management.ThreadMXBean};
 * bytes are exact, so the assertions are strict.
 *
 * <p>What Dominion allocates, measured here and reported apart: each step asks Dominion once
 * for the entities holding the paused marker (and once per {@code heldBy} type), and a query
 * allocates its result objects (at most 120 B on JDK 17: the JIT removes some of them on some
 * runs, so a step measures 56 or 120 B), the same for 1 machine or 10,000; and a tag move
 * allocates Dominion's own modifier (about 32 B). So the bound below is Dominion's query at its
 * largest: a byte per machine per step, or per transition, would exceed it many times over.
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


    /** Dominion's hold query at its largest, for 600 steps, and a margin of one kilobyte for the measurement itself. */
    private static final long DOMINION_QUERY_600_STEPS = 120 * 600 + 1024;

    /** What 600 steps allocate in a world with one idle machine: Dominion's hold query, nothing of ours. */
    private static long baseline() {
        try (StateWorld world = StateWorld.create()) {
            world.spawn(IDLE.trait());
            Runnable steps = () -> {
                for (int i = 0; i < 600; i++) {
                    world.step(1.0 / 60);
                }
            };
            for (int i = 0; i < 20; i++) {
                steps.run();
            }
            return Allocations.allocated(steps);
        }
    }

    @Test
    void theStepsOwnAllocationIsOnlyDominionsHoldQuery_constantPerStep() {
        long bytes = baseline();
        System.out.println("one idle machine, 600 steps: " + bytes + " B (" + bytes / 600.0 + " B per step)");
        assertTrue(bytes / 600 <= 200, "Dominion's one query per step stays small: " + bytes / 600 + " B per step");
    }

    @Test
    void idleAndLongWaitingMachinesAllocateNothingPerStep() {
        long baseline = baseline();
        try (StateWorld world = StateWorld.create()) {
            for (int i = 0; i < 1_000; i++) {
                world.spawn(IDLE.trait());
                world.spawn(LONG_WAIT.trait());
            }
            Runnable steps = () -> {
                for (int i = 0; i < 600; i++) {
                    world.step(1.0 / 60);
                }
            };
            for (int i = 0; i < 20; i++) {
                steps.run();
            }
            long bytes = Allocations.allocated(steps);
            System.out.println("idle+long wait, 2,000 machines, 600 steps: " + bytes + " B");
            assertTrue(bytes <= Math.max(baseline, DOMINION_QUERY_600_STEPS),
                    "600 steps of 1,000 idle and 1,000 waiting machines allocate only Dominion's hold query: " + bytes + " B");
        }
    }

    @Test
    void movingMachinesWithoutTagsAllocateNothingPerStep() {
        long baseline = baseline();
        try (StateWorld world = StateWorld.create()) {
            Entity first = null;
            for (int i = 0; i < 1_000; i++) {
                Entity e = world.spawn(CYCLE.trait());
                first = first == null ? e : first;
            }
            Runnable steps = () -> {
                for (int i = 0; i < 600; i++) {
                    world.step(1.0 / 60);
                }
            };
            for (int i = 0; i < 20; i++) {
                steps.run();
            }
            long bytes = Allocations.allocated(steps);
            System.out.println("1,000 machines moving once a second, no tags, 600 steps: " + bytes + " B");
            assertTrue(CYCLE.read(first).context().moves > 100, "the machines moved");
            assertTrue(bytes <= Math.max(baseline, DOMINION_QUERY_600_STEPS),
                    "600 steps with 10,000 transitions allocate only Dominion's hold query: " + bytes + " B");
        }
    }

    @Test
    void taggedTransitionsAllocateOnlyDominionsOwn() {
        long baseline = baseline();
        try (StateWorld world = StateWorld.create()) {
            for (int i = 0; i < 1_000; i++) {
                world.spawn(TAGGED_CYCLE.trait());
            }
            Runnable steps = () -> {
                for (int i = 0; i < 600; i++) {
                    world.step(1.0 / 60);
                }
            };
            for (int i = 0; i < 20; i++) {
                steps.run();
            }
            long moves = Allocations.allocated(steps) - baseline;
            System.out.println("1,000 tagged machines moving once a second, 600 steps: 10,000 tag moves allocate " + moves + " B, "
                    + (moves / 10_000.0) + " B per move (Dominion's modifier)");
            assertTrue(moves / 10_000 <= 64, "a tag move allocates only Dominion's small modifier: " + moves / 10_000 + " B");
        }
    }
}

package dev.enginestates;

import dev.enginestates.ecs.StateWorld;

import java.lang.management.ManagementFactory;

/** Counts the bytes this thread allocates, for the "no allocation once warm" tests. */
public final class Allocations {
    /** What the measurement itself may cost, not the work. */
    public static final long MEASUREMENT_MARGIN = 1024;

    private Allocations() {
    }

    /** The bytes this thread allocated while running {@code work} once. */
    public static long allocated(Runnable work) {
        com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        bean.getThreadAllocatedBytes(id); // the bean's own lazy set-up happens here, not in a reading
        long before = bean.getThreadAllocatedBytes(id);
        work.run();
        return bean.getThreadAllocatedBytes(id) - before;
    }

    /**
     * Runs {@code work} twenty times to warm it, then measures five more runs and returns the
     * fewest bytes. Work that allocates does so in every run; a run the JIT happens to leave for
     * a moment (a method recompiled, code that escape analysis made allocation-free running
     * interpreted until then) allocates a few bytes once, which is not what these tests pin.
     */
    public static long warmThenMeasure(Runnable work) {
        for (int i = 0; i < 20; i++) {
            work.run();
        }
        long fewest = Long.MAX_VALUE;
        for (int round = 0; round < 5 && fewest > 0; round++) {
            fewest = Math.min(fewest, allocated(work));
        }
        return fewest;
    }

    /**
     * The bytes {@code work} allocates beyond {@code baseline}, on any JDK whatever its object sizes:
     * both are warmed together, then measured one right after the other in five rounds, and the
     * smallest difference is returned. Run back to back, both go through the same compiled code, so
     * what the JIT removes on one JDK or run (Dominion's query objects, some runs) cancels out; a
     * byte of ours per machine or per transition would still show as kilobytes.
     */
    public static long beyond(Runnable baseline, Runnable work) {
        for (int i = 0; i < 20; i++) {
            baseline.run();
            work.run();
        }
        long fewest = Long.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
            long base = allocated(baseline);
            fewest = Math.min(fewest, allocated(work) - base);
        }
        return fewest;
    }

    /** Six hundred steps of 1/60 s of a world. */
    public static Runnable steps(StateWorld world) {
        return () -> {
            for (int step = 0; step < 600; step++) {
                world.step(1 / 60.0);
            }
        };
    }
}

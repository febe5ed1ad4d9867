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

    /** Runs {@code work} twenty times to warm it, then measures one more run. */
    public static long warmThenMeasure(Runnable work) {
        for (int i = 0; i < 20; i++) {
            work.run();
        }
        return allocated(work);
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

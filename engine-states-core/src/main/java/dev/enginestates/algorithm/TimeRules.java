package dev.enginestates.algorithm;

import dev.enginestates.declare.UserCodeException;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.SelfGuard;
import dev.enginestates.records.MachineRecord;

/**
 * The XState style's time rules, shared by the world and the plain
 * machine: a wait ends at its own due time within a step (chained waits keep exact time, up to
 * {@link #MAX_WAITS_PER_STEP}), then the {@code when} rules are tested, a child's before its
 * parent's. The polled style's time rules live in {@link PolledInterpreter}.
 */
public final class TimeRules {
    /**
     * A due time within this many seconds of the clock counts as reached: floating-point sums
     * of steps such as 1/60 s fall a hair short of round numbers, and a 4-second wait at 60 Hz
     * must end on step 240, not 241.
     */
    public static final double TIME_TOLERANCE = 1e-9;

    /**
     * The most wait transitions one machine takes in one step. A long step takes every wait that
     * falls due within it, chained ones included, up to this many; the rest follow on the next
     * steps, each at its own due time.
     */
    public static final int MAX_WAITS_PER_STEP = 100;

    /**
     * The longest step any face accepts, and the most seconds a checkpoint keeps in any clock or
     * wait (31,700 years): one bound, so that a step the library took is one its restore reads back,
     * and so that sums of steps stay far from a float's or a double's overflow.
     */
    public static final double MAX_SECONDS = 1e12;

    private TimeRules() {
    }

    /** Whether the record's wait ends by clock time {@code now}. */
    public static boolean waitDue(MachineRecord r, double now) {
        return r.waitState() >= 0 && r.waitDue() <= now + TIME_TOLERANCE;
    }

    /** Ends the record's due wait: its transition is taken at the wait's own due time. */
    public static void endWait(Interpreter in, MachineRecord r) {
        int s = r.waitState();
        double due = r.waitDue();
        Chart c = r.chart();
        r.clearWait(); // the wait ended: no paused seconds are kept for it
        in.clock(due);
        int t = c.waitTransition[s];
        if (!in.takePlain(r, t)) {
            in.take(r, t, c.waitEvent);
        }
    }

    /**
     * The first {@code when} rule that holds, testing each active state's rules once: a child's
     * before its parent's, regions of a parallel state in document order; -1 when none holds.
     * Each test receives the record's context, the machine's {@code when} event and the record's
     * {@link MachineRecord#self() self}.
     */
    public static int firstWhen(MachineRecord r) {
        return firstWhen(r, r.chart(), 0);
    }

    private static int firstWhen(MachineRecord r, Chart c, int s) {
        for (int child : c.regularChildren[s]) {
            if (r.isActive(child)) {
                int t = firstWhen(r, c, child);
                if (t >= 0) {
                    return t;
                }
            }
        }
        int[] rules = c.when[s];
        if (rules != null) {
            for (int t : rules) {
                SelfGuard<Object> test = c.whenTest[t];
                boolean holds;
                jdk.jfr.Event timer = Flight.timeCode();
                try {
                    holds = test.test(r.contextObject(), c.whenEvent, r.self());
                    if (timer != null) {
                        Flight.timed(timer, c.machineId, r.self(), c.path[s], c.whenEvent.type(), "when test", null);
                    }
                } catch (Throwable e) {
                    Flight.threw(timer);
                    throw new UserCodeException(c.machineId, c.path[s], c.whenEvent.type(), "a when test", e);
                }
                if (holds) {
                    return t;
                }
            }
        }
        return -1;
    }
}

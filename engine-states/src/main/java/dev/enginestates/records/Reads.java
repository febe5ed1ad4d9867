package dev.enginestates.records;

import dev.enginestates.chart.Chart;
import dev.enginestates.chart.PolledChart;

/**
 * Reads of a record that every face shares (the plain machine, the ECS record, the kit):
 * which state a name means, the deepest active state, the seconds left. Read-only.
 */
public final class Reads {
    /** {@link #activeNamed}: no state of the machine has that name or path. */
    public static final int UNKNOWN = -2;

    private Reads() {
    }

    /**
     * The active state with that key ({@code "engage"}) or path ({@code "combat.engage"}); -1
     * when such a state exists but is not active; {@link #UNKNOWN} when none exists.
     */
    public static int activeNamed(MachineRecord r, String name) {
        Chart c = r.chart();
        boolean known = false;
        for (int s = 1; s < c.size; s++) {
            if (c.key[s].equals(name) || c.path[s].equals(name)) {
                if (r.isActive(s)) {
                    return s;
                }
                known = true;
            }
        }
        return known ? -1 : UNKNOWN;
    }

    /** The deepest active state (the leaf of a single branch; of parallel regions, the first deepest), or -1. */
    public static int deepest(MachineRecord r) {
        Chart c = r.chart();
        int best = -1;
        for (int i = 0; i < r.activeCount(); i++) {
            int s = r.activeAt(i);
            if (best < 0 || c.depth[s] > c.depth[best]) {
                best = s;
            }
        }
        return best;
    }

    /**
     * Seconds before the machine leaves on time: a polled machine's innermost active
     * {@code after} not yet fired in this stay, else the counting wait at clock time {@code now};
     * 0 when none counts.
     */
    public static double secondsLeft(MachineRecord r, double now) {
        PolledChart p = r.chart().polled;
        if (p != null) {
            for (int i = r.activeCount() - 1; i >= 0; i--) {
                int s = r.activeAt(i);
                if (!Double.isNaN(p.afterSeconds[s]) && !r.afterFired(s)) { // a spent after counts nothing
                    return Math.max(0, p.afterSeconds[s] - r.clock(s));
                }
            }
            return 0;
        }
        return r.waitState() < 0 ? 0 : Math.max(0, r.waitSeconds() - r.waited(now));
    }
}

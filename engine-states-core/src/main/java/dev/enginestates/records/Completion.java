package dev.enginestates.records;

import dev.enginestates.chart.Chart;
import dev.enginestates.declare.StateType;

/**
 * The configuration as XState reads it for the state value and for choosing an event's
 * transitions: the active states in entry order, completed the way XState's
 * {@code getAllStateNodes} completes them. A compound state with no active child gets its
 * initial states, a parallel state missing a region gets that region's initial states, and
 * every ancestor is added. A configuration the algorithm writes is already complete except
 * after some combinations of transitions in several regions, where XState exits a region
 * without entering it again; XState then reads (and asks for events) the region's initial
 * states, and so does this engine.
 */
public final class Completion {
    private Completion() {
    }

    /**
     * Writes the completed configuration into {@code out} (entry order, additions last) and
     * returns its size; {@code mark} (one flag per state, all false on entry and on return) is
     * scratch. Allocation-free; {@code out} holds at least {@code chart.size} entries.
     */
    public static int complete(MachineRecord r, int[] out, boolean[] mark) {
        Chart c = r.chart();
        int n = r.activeCount();
        for (int i = 0; i < n; i++) {
            out[i] = r.activeAt(i);
            mark[out[i]] = true;
        }
        if (!isComplete(c, r)) {
            // iterating while adding, as a JavaScript Set does: added states are visited too
            int originalSize = n;
            for (int i = 0; i < n; i++) {
                int s = out[i];
                if (c.type[s] == StateType.COMPOUND && (i >= originalSize || !hasActiveChild(c, r, s))) {
                    n = addInitial(c, s, out, n, mark);
                } else if (c.type[s] == StateType.PARALLEL) {
                    for (int child : c.regularChildren[s]) {
                        if (!mark[child]) {
                            n = addInitial(c, child, out, n, mark);
                        }
                    }
                }
            }
            for (int i = 0; i < n; i++) {
                for (int a = c.parent[out[i]]; a >= 0; a = c.parent[a]) {
                    if (!mark[a]) {
                        mark[a] = true;
                        out[n++] = a;
                    }
                }
            }
        }
        for (int i = 0; i < n; i++) {
            mark[out[i]] = false;
        }
        return n;
    }

    /** Whether every active compound state has an active child and every active parallel state all its regions. */
    public static boolean isComplete(Chart c, MachineRecord r) {
        int n = r.activeCount();
        for (int i = 0; i < n; i++) {
            int s = r.activeAt(i);
            if (c.type[s] == StateType.COMPOUND) {
                if (!hasActiveChild(c, r, s)) {
                    return false;
                }
            } else if (c.type[s] == StateType.PARALLEL) {
                for (int child : c.regularChildren[s]) {
                    if (!r.isActive(child)) {
                        return false;
                    }
                }
            }
            if (s > 0 && !r.isActive(c.parent[s])) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasActiveChild(Chart c, MachineRecord r, int s) {
        for (int child : c.regularChildren[s]) {
            if (r.isActive(child)) {
                return true;
            }
        }
        return false;
    }

    /** XState's getInitialStateNodes: the state, then its initial descendants depth-first. */
    private static int addInitial(Chart c, int s, int[] out, int n, boolean[] mark) {
        if (mark[s]) {
            if (c.type[s] == StateType.COMPOUND) {
                return addInitial(c, c.initialChild[s], out, n, mark);
            }
            if (c.type[s] == StateType.PARALLEL) {
                for (int child : c.regularChildren[s]) {
                    n = addInitial(c, child, out, n, mark);
                }
            }
            return n;
        }
        mark[s] = true;
        out[n++] = s;
        if (c.type[s] == StateType.COMPOUND) {
            n = addInitial(c, c.initialChild[s], out, n, mark);
        } else if (c.type[s] == StateType.PARALLEL) {
            for (int child : c.regularChildren[s]) {
                n = addInitial(c, child, out, n, mark);
            }
        }
        return n;
    }
}

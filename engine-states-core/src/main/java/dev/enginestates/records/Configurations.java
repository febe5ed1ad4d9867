package dev.enginestates.records;

import dev.enginestates.chart.Chart;
import dev.enginestates.declare.StateType;

/**
 * Which records a machine can hold: what a restore accepts, so that it takes back every record
 * the engine writes and nothing the engine could never be in.
 *
 * <p>Outside the chart's {@link Chart#multiRegionReach multi-region part} a configuration is
 * <em>proper</em>: the root and every active compound state have exactly one active child, every
 * parallel state has all its regions active, and every active state's parent is active. That
 * part is the subtree of the domain of each transition whose source lies inside a parallel state
 * (computed once per chart, see {@code chart.MultiRegionReach}): only a microstep taking several
 * transitions at once changes a configuration into another shape, and it changes nothing outside
 * those subtrees. Inside, XState's own algorithm (and so this engine, which follows it) leaves
 * other configurations after transitions taken in several regions at once: a state stays active
 * under an ancestor that was exited, a compound state keeps two active children or none, a
 * parallel state misses regions (XState reads them through its completion, see
 * {@link Completion}). Replaying 1.19 million steps of 40,000 random machines recorded from
 * XState 5.33.3 (the trace generator's), every such configuration has this shape, which is what
 * is accepted there: a compound state with no active child, or a parallel state missing a region,
 * still has active states below the missing child (the exited state's descendants), the root
 * excepted; and the states left inactive above an active state hang from an active ancestor
 * inside the multi-region part (a state is only left, or left out, below a domain). Replaying
 * 43,000 machines of the same generator and 20,000 whose transitions mostly stay inside their
 * parallel state, the multi-region part held every such shape XState left once a parallel
 * state's history without a default was counted as standing for the parallel state itself (its
 * domain is then above it).
 *
 * <p>A transition whose every target is a history state that remembers nothing (its parent was
 * left with nothing active below it, which the shapes above allow) has no effective target: XState
 * 5.33.3 then takes its source as the domain (its source's parent for {@code reenter}), leaves
 * every active state below it and enters nothing. So such a transition's domain may stay active
 * with nothing below it: a compound state without an active child, a parallel state without its
 * regions. That is accepted for those domains only ({@link #emptiable}, computed once per chart).
 *
 * <p>For every machine: a top-level final state (every region's, for a parallel root) is active
 * exactly when the status is done (a done machine may have left every state); a shallow history
 * remembers children of its parent, exactly one for a compound parent outside the multi-region
 * part (none also where the parent may be left empty); a deep history remembers atomic or final
 * states inside its parent, two of them below different children of a compound state only when
 * that state is inside the multi-region part (a deep history above that part remembers its
 * shapes too); no history remembers a state twice or a history state.
 */
public final class Configurations {
    private Configurations() {
    }

    /** Null when a machine can hold this record, else what is wrong, naming the machine and the state. */
    public static String problem(MachineRecord r) {
        Chart c = r.chart();
        boolean[] reach = c.multiRegionReach;
        boolean[] emptiable = hasParallel(c) ? emptiable(c) : null;
        String machine = "machine '" + c.machineId + "'";
        for (int i = 0; i < r.activeCount(); i++) {
            int s = r.activeAt(i);
            if (s == 0 || r.isActive(c.parent[s])) {
                continue;
            }
            // the states left above s hang from its nearest active ancestor: only a microstep that changes it leaves them so
            int left = c.parent[s];
            while (left > 0 && !r.isActive(c.parent[left])) {
                left = c.parent[left];
            }
            int above = left == 0 ? 0 : c.parent[left];
            if (reach[above]) {
                continue;
            }
            if (left != 0 && c.type[above] == StateType.PARALLEL) {
                return machine + ": parallel state '" + c.describe(above) + "' has its region '" + c.path[left] + "' inactive though '"
                        + c.path[s] + "' below it is active; expected every region active" + outside(c, above);
            }
            return machine + ": '" + c.path[s] + "' is active but its parent '" + c.describe(c.parent[s])
                    + "' is not; expected every active state's parent active" + outside(c, above);
        }
        for (int i = 0; i < r.activeCount(); i++) {
            int s = r.activeAt(i);
            boolean empty = !hasActiveBelow(c, r, s);
            if (empty && emptiable != null && emptiable[s]) {
                continue; // left empty by a transition to a history that remembers nothing
            }
            int children = activeChildren(c, r, s);
            boolean compound = c.type[s] == StateType.COMPOUND || (s == 0 && c.type[0] != StateType.PARALLEL);
            if (compound && children > 1 && !reach[s]) {
                return machine + ": " + describe(c, s) + " has " + children + " active children; expected exactly one" + outside(c, s);
            }
            if (compound && children == 0 && !(s == 0 && r.isDone())) {
                if (!reach[s]) {
                    return machine + ": " + describe(c, s) + " has no active child; expected exactly one" + outside(c, s);
                }
                if (s != 0 && empty) {
                    return machine + ": " + describe(c, s) + " has no active state below it; expected an active child";
                }
            }
            if (c.type[s] == StateType.PARALLEL) {
                for (int region : c.regularChildren[s]) {
                    if (r.isActive(region)) {
                        continue;
                    }
                    if (!hasActiveBelow(c, r, region)) {
                        return machine + ": parallel state '" + c.describe(s) + "' has no active state in its region '"
                                + c.path[region] + "'; expected every region active";
                    }
                }
            }
        }
        boolean finished = finalReached(c, r);
        if (r.isDone() && !finished && r.activeCount() > 1) {
            return machine + ": the status is done but no top-level final state is active (" + StateValue.describe(r)
                    + "); expected status active, or a final state";
        }
        if (!r.isDone() && finished) {
            return machine + ": a top-level final state is active (" + StateValue.describe(r)
                    + ") but the status is active; expected status done";
        }
        for (int h = 1; h < c.size; h++) {
            if (c.type[h] == StateType.HISTORY && r.historySize(h) >= 0) {
                String problem = historyProblem(c, r, h, emptiable);
                if (problem != null) {
                    return machine + ": history '" + c.path[h] + "' " + problem;
                }
            }
        }
        return null;
    }

    /**
     * Null when a machine can hold what history state {@code h} of this record remembers, else
     * what is wrong (without the machine's name): the rule a restore checks, for a history set by hand.
     */
    public static String historyProblem(MachineRecord r, int h) {
        Chart c = r.chart();
        return r.historySize(h) < 0 ? null : historyProblem(c, r, h, hasParallel(c) ? emptiable(c) : null);
    }

    private static String historyProblem(Chart c, MachineRecord r, int h, boolean[] emptiable) {
        int n = r.historySize(h);
        int parent = c.parent[h];
        for (int k = 0; k < n; k++) {
            int m = r.historyAt(h, k);
            for (int j = 0; j < k; j++) {
                if (r.historyAt(h, j) == m) {
                    return "remembers '" + c.path[m] + "' twice; expected each state once";
                }
            }
            if (c.type[m] == StateType.HISTORY) {
                return "remembers the history state '" + c.path[m] + "'; expected states that can be active";
            }
            if (!c.isDescendant(m, parent)) {
                return "remembers '" + c.path[m] + "', which is not inside '" + c.describe(parent) + "'";
            }
            if (c.deepHistory[h] && c.regularChildren[m].length > 0) {
                return "(deep) remembers '" + c.path[m] + "', which has children; expected atomic or final states";
            }
            if (!c.deepHistory[h] && c.parent[m] != parent) {
                return "(shallow) remembers '" + c.path[m] + "'; expected children of '" + c.describe(parent) + "'";
            }
        }
        boolean compoundParent = c.type[parent] != StateType.PARALLEL;
        if (!c.deepHistory[h] && compoundParent && n > 1 && !c.multiRegionReach[parent]) {
            return "(shallow) remembers " + n + " states of compound state '" + c.describe(parent) + "'; expected one"
                    + outside(c, parent);
        }
        if (!c.deepHistory[h] && compoundParent && n == 0 && !c.multiRegionReach[parent]
                && !(emptiable != null && emptiable[parent])) {
            return "(shallow) remembers no state of compound state '" + c.describe(parent) + "'; expected one" + outside(c, parent);
        }
        for (int k = 0; c.deepHistory[h] && k < n; k++) {
            for (int j = 0; j < k; j++) {
                // two leaves below one child each of a compound state: that state had two branches active
                int a = r.historyAt(h, j);
                int b = r.historyAt(h, k);
                int below = commonAncestor(c, a, b);
                if (c.type[below] != StateType.PARALLEL && !c.multiRegionReach[below]) {
                    return "(deep) remembers '" + c.path[a] + "' and '" + c.path[b] + "', which lie below different children of "
                            + (below == 0 ? "the machine's root" : "compound state '" + c.path[below] + "'")
                            + "; expected states in different regions of a parallel state" + outside(c, below);
                }
            }
        }
        return null;
    }

    /**
     * The end of a message about a shape a microstep of several transitions could leave elsewhere:
     * why it is refused at {@code s}. Empty for a machine without parallel states, where no
     * configuration has another shape.
     */
    private static String outside(Chart c, int s) {
        if (!hasParallel(c)) {
            return "";
        }
        return " ('" + c.describe(s) + "' is outside every part of the machine that transitions taken together in several"
                + " regions of a parallel state can change, the only places other shapes arise)";
    }

    /** The lowest state containing both, or either when it contains the other. */
    private static int commonAncestor(Chart c, int a, int b) {
        while (a > 0 && !(b == a || c.isDescendant(b, a))) {
            a = c.parent[a];
        }
        return a;
    }

    private static final java.util.Map<Chart, boolean[]> EMPTIABLE =
            java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

    /**
     * By state: whether a transition can leave it active with nothing below it, being the domain
     * of a transition whose every target is a history state (the source, or its parent when the
     * transition re-enters). Computed once per chart; charts are shared and immutable.
     */
    static boolean[] emptiable(Chart c) {
        return EMPTIABLE.computeIfAbsent(c, Configurations::computeEmptiable);
    }

    private static boolean[] computeEmptiable(Chart c) {
        boolean[] out = new boolean[c.size];
        for (int t = 0; t < c.tSource.length; t++) {
            int[] targets = c.tTargets[t];
            boolean allHistory = targets != null && targets.length > 0;
            for (int k = 0; allHistory && k < targets.length; k++) {
                allHistory = c.type[targets[k]] == StateType.HISTORY;
            }
            int source = c.tSource[t];
            if (!allHistory || source < 0) {
                continue;
            }
            int domain = c.tReenter[t] ? c.parent[source] : source;
            if (domain >= 0) {
                out[domain] = true;
            }
        }
        return out;
    }

    private static String describe(Chart c, int s) {
        return s == 0 ? "the machine's root" : "compound state '" + c.path[s] + "'";
    }

    private static boolean hasParallel(Chart c) {
        for (int s = 0; s < c.size; s++) {
            if (c.type[s] == StateType.PARALLEL) {
                return true;
            }
        }
        return false;
    }

    private static int activeChildren(Chart c, MachineRecord r, int s) {
        int n = 0;
        for (int child : c.regularChildren[s]) {
            if (r.isActive(child)) {
                n++;
            }
        }
        return n;
    }

    private static boolean hasActiveBelow(Chart c, MachineRecord r, int s) {
        for (int i = 0; i < r.activeCount(); i++) {
            int o = r.activeAt(i);
            if (o != s && c.isDescendant(o, s)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the machine's top-level final state is active: the root's final child, or for a parallel root every region's. */
    private static boolean finalReached(Chart c, MachineRecord r) {
        if (c.type[0] == StateType.PARALLEL) {
            for (int region : c.regularChildren[0]) {
                boolean regionFinal = false;
                for (int child : c.regularChildren[region]) {
                    regionFinal |= r.isActive(child) && c.type[child] == StateType.FINAL;
                }
                if (!regionFinal) {
                    return false;
                }
            }
            return true;
        }
        for (int child : c.regularChildren[0]) {
            if (r.isActive(child) && c.type[child] == StateType.FINAL) {
                return true;
            }
        }
        return false;
    }
}

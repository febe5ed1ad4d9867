package dev.enginestates.chart;

import dev.enginestates.declare.StateType;

/**
 * Which states a microstep of several transitions can change, decided once per chart: the only
 * places where XState's algorithm (and so the interpreter) can leave a configuration of another
 * shape than the chart's own (a compound state with two active children or none, a state active
 * under one that was left, a parallel state missing a region), and where a checkpoint's
 * configuration may hold such a shape ({@code records.Configurations}).
 *
 * <p>Why this region. A microstep leaves the active states below each transition's domain and
 * enters states below it (targets, their default or remembered descendants, ancestors up to the
 * domain; a parallel domain's regions), so everything it changes lies in the subtree of some
 * transition's domain, the domain included. Alone, a transition leaves a configuration of the
 * chart's shape (a transition to histories that remember nothing aside, which
 * {@code Configurations} allows for its own domain); other shapes need two transitions in one
 * microstep. Their exit sets are disjoint (XState drops one of two that conflict), so their
 * sources lie below different children of a state that keeps both branches active, and each
 * domain lies below that state: a parallel state, above which nothing changes, or a state with
 * two active branches, already inside this region. So the transitions that count are those whose
 * source has a parallel proper ancestor, each adding the subtree of a state that contains every
 * domain it can have. XState's domain is the source, or the lowest state strictly containing the
 * source and every effective target; the lowest common ancestor of the parents of the source and
 * of the targets contains it, a history target standing for what it remembers or its default
 * (inside its parent; a parallel state's history without a default stands for the parallel state
 * itself, whose parent then contains the domain: found in XState's traces, see
 * {@code MultiRegionReachTest}). A transition without targets changes no state and adds nothing.
 * Charts without parallel states have no region.
 */
final class MultiRegionReach {
    private MultiRegionReach() {
    }

    /** By state: whether it lies in the subtree of the domain of a transition that can share a microstep with another. */
    static boolean[] of(ChartCompiler c) {
        boolean[] reach = new boolean[c.size];
        boolean[] parallelAbove = new boolean[c.size];
        for (int s = 1; s < c.size; s++) {
            int p = c.parent[s];
            parallelAbove[s] = parallelAbove[p] || c.type[p] == StateType.PARALLEL;
        }
        for (int t = 0; t < c.tCount; t++) {
            int source = c.tSource[t];
            int[] targets = c.tTargets[t];
            if (source <= 0 || !parallelAbove[source] || targets == null || targets.length == 0) {
                continue;
            }
            int domain = c.parent[source];
            for (int x : targets) {
                if (x >= 0) {
                    domain = commonAncestor(c, domain, aboveEffectiveTarget(c, x));
                }
            }
            if (!reach[domain]) {
                java.util.Arrays.fill(reach, domain, c.subtreeEnd[domain], true);
            }
        }
        return reach;
    }

    /**
     * A state containing the parent of every state the target can stand for (the domain is a
     * proper ancestor of each effective target): a regular target's parent; for a history state,
     * what it remembers and its default lie inside its parent, except that a history of a parallel
     * state without a default stands for the parallel state itself.
     */
    private static int aboveEffectiveTarget(ChartCompiler c, int x) {
        int above = c.parent[x];
        if (c.type[x] == StateType.HISTORY && c.historyDefault[x] == null && above >= 0 && c.type[above] == StateType.PARALLEL) {
            above = c.parent[above];
        }
        return Math.max(above, 0);
    }

    /** The lowest state that is {@code a} or contains it and is {@code b} or contains it. */
    private static int commonAncestor(ChartCompiler c, int a, int b) {
        while (a > 0 && !(b >= a && b < c.subtreeEnd[a])) {
            a = c.parent[a];
        }
        return a;
    }
}

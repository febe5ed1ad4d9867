package dev.enginestates.chart;

import dev.enginestates.declare.Semantics;
import dev.enginestates.declare.StateType;

/**
 * Which transitions run no code of the game's and change only the configuration, decided once
 * per chart: a game's timed cycles (a light's on and off, a cooldown, a patrol's legs) are often
 * such, their states read through tags rather than actions. Taken alone, such a transition's
 * microstep is its exit set leaving and its entry set (the chart's, {@link Chart#tEntry})
 * entering, nothing queued and nothing to settle after, so the interpreter takes it without the
 * general microstep ({@code Interpreter.takePlain}).
 *
 * <p>A transition is plain under XState's rules when it has targets, no actions and a static
 * entry set; no state it may exit (one below its domain that can be active with its source) has
 * exit actions or a history state; no state it enters has
 * entry actions, is final (a done event would follow) or starts a wait whose seconds come from
 * a function; and the chart has no eventless transitions (which a change would have to be
 * followed by).
 *
 * <p>The exit side is decided for configurations of the chart's own shape; XState's dynamic
 * domains can leave others (a parallel state's regions active without it), where an exit set
 * reaches states this rule did not look at, so the interpreter checks the exit set it finds too
 * and takes the general microstep when a state in it has exit actions or a history.
 */
final class PlainTransitions {
    private PlainTransitions() {
    }

    /** By transition: whether it is plain. */
    static boolean[] of(ChartCompiler c, int[][] entrySets) {
        boolean[] plain = new boolean[c.tCount];
        if (c.semantics != Semantics.XSTATE || c.hasEventless) {
            return plain;
        }
        for (int t = 0; t < c.tCount; t++) {
            plain[t] = c.tTargets[t].length > 0 && c.tActions[t].length == 0 && entrySets[t] != null
                    && exitsQuietly(c, t) && entersQuietly(c, entrySets[t]);
        }
        return plain;
    }

    /**
     * Whether every state the transition may exit has no exit actions and no history: the states
     * below its domain (and the domain it re-enters) that can be active while its source is.
     */
    private static boolean exitsQuietly(ChartCompiler c, int t) {
        int domain = c.tDomain[t];
        int source = c.tSource[t];
        int from = domain == Chart.ABOVE_ROOT ? 0 : domain + 1;
        if (domain != Chart.ABOVE_ROOT && c.tReenter[t] && source == domain) {
            from = domain;
        }
        int to = domain == Chart.ABOVE_ROOT ? c.size : c.subtreeEnd[domain];
        for (int s = from; s < to; s++) {
            if ((c.exit[s].length > 0 || c.historyChildren[s].length > 0) && activeTogether(c, s, source)) {
                return false;
            }
        }
        return true;
    }

    /** Whether two states can be active at once: one contains the other, or they lie in different regions of a parallel state. */
    private static boolean activeTogether(ChartCompiler c, int a, int b) {
        if (a == b || inside(c, a, b) || inside(c, b, a)) {
            return true;
        }
        int p = c.parent[a];
        while (p >= 0 && !inside(c, b, p)) {
            p = c.parent[p];
        }
        return p >= 0 && c.type[p] == StateType.PARALLEL;
    }

    private static boolean inside(ChartCompiler c, int s, int ancestor) {
        return s > ancestor && s < c.subtreeEnd[ancestor];
    }

    /** Whether no state of the entry set has entry actions, is final, or reads its wait's seconds from a function. */
    private static boolean entersQuietly(ChartCompiler c, int[] entry) {
        for (int s : entry) {
            if (c.entry[s].length > 0 || c.type[s] == StateType.FINAL
                    || (c.waitTransition[s] >= 0 && c.waitSecondsOf[s] != null)) {
                return false;
            }
        }
        return true;
    }
}

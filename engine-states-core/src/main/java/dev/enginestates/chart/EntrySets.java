package dev.enginestates.chart;

import dev.enginestates.declare.StateType;

/**
 * The entry set of each transition taken alone, computed once per chart: SCXML's and XState's
 * {@code computeEntrySet} for one enabled transition reads nothing of a record unless a history
 * state is involved, so for the others it is a constant of the chart. The interpreter uses it
 * when a microstep takes a single transition (a wait's, a {@code when} rule's, most events).
 */
final class EntrySets {
    private final int[] parent;
    private final int[] subtreeEnd;
    private final int[] initial;
    private final StateType[] type;
    private final int[][] regularChildren;
    private final boolean[] mark;
    private final int[] list;
    private int count;
    private boolean needsHistory;

    private EntrySets(ChartCompiler c) {
        parent = c.parent;
        subtreeEnd = c.subtreeEnd;
        initial = c.initial;
        type = c.type;
        regularChildren = c.regularChildren;
        mark = new boolean[c.size];
        list = new int[c.size];
    }

    /** By transition: its entry set in document order, or {@code null} when it depends on a record (a history state). */
    static int[][] of(ChartCompiler c) {
        EntrySets e = new EntrySets(c);
        int[][] out = new int[c.tCount][];
        for (int t = 0; t < c.tCount; t++) {
            out[t] = e.compute(c.tSource[t], c.tTargets[t], c.tDomain[t], c.tReenter[t]);
        }
        return out;
    }

    /** The interpreter's computeEntrySet for one transition, without a record; null where a history state would be read. */
    private int[] compute(int source, int[] targets, int domain, boolean reenter) {
        if (domain == Chart.DYNAMIC_DOMAIN) {
            return null;
        }
        count = 0;
        needsHistory = false;
        for (int s : targets) {
            if (s != source || source != domain || reenter) {
                add(s);
            }
            addDescendants(s);
        }
        int reentrancyDomain = (source == 0 && reenter) ? Chart.ABOVE_ROOT : domain;
        for (int i = 0; i < targets.length; i++) {
            int s = targets[i];
            if (firstIndex(targets, s) != i) {
                continue; // the effective targets hold each state once
            }
            if (s != domain) {
                for (int a = parent[s]; a >= 0 && a != domain; a = parent[a]) {
                    addAncestor(a, reentrancyDomain);
                }
            }
            if (domain >= 0 && type[domain] == StateType.PARALLEL) {
                addAncestor(domain, reentrancyDomain);
            }
        }
        int[] out = new int[count];
        for (int i = 0; i < count; i++) {
            out[i] = list[i];
            mark[list[i]] = false;
        }
        java.util.Arrays.sort(out);
        return needsHistory ? null : out;
    }

    private void addAncestor(int a, int reentrancyDomain) {
        if (reentrancyDomain == Chart.ABOVE_ROOT || (a > reentrancyDomain && a < subtreeEnd[reentrancyDomain])) {
            add(a);
        }
        if (type[a] == StateType.PARALLEL) {
            addRegions(a);
        }
    }

    private void addDescendants(int s) {
        if (type[s] == StateType.HISTORY) {
            needsHistory = true;
        } else if (type[s] == StateType.COMPOUND) {
            add(initial[s]);
            addDescendants(initial[s]);
        } else if (type[s] == StateType.PARALLEL) {
            addRegions(s);
        }
    }

    /** A parallel state's regions that have nothing to enter yet, with their descendants. */
    private void addRegions(int p) {
        for (int child : regularChildren[p]) {
            boolean any = false;
            for (int x = child + 1; x < subtreeEnd[child] && !any; x++) {
                any = mark[x];
            }
            if (!any) {
                add(child);
                addDescendants(child);
            }
        }
    }

    private void add(int s) {
        if (type[s] == StateType.HISTORY) {
            needsHistory = true;
        }
        if (!mark[s]) {
            mark[s] = true;
            list[count++] = s;
        }
    }

    private static int firstIndex(int[] a, int x) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == x) {
                return i;
            }
        }
        return -1;
    }
}

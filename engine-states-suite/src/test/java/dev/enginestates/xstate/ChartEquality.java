package dev.enginestates.xstate;

import dev.enginestates.chart.Chart;
import dev.enginestates.declare.Named;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whether two compiled charts are the same machine: the same states (keys, paths, ids, kinds,
 * tree, initial states, history settings), the same events, and at every state the same
 * transitions of every kind in the same priority order (targets, {@code reenter}, domain), with
 * the same code: the second chart's code has the name the export gave the first's, and runs the
 * first's ({@link Named#unwrap}). Transition numbers may differ, since an XState config groups a
 * state's transitions by event; nothing depends on them across events.
 */
final class ChartEquality {
    private final Chart a;
    private final Chart b;
    private final Map<Object, String> nameOfA = new IdentityHashMap<>();
    private final String where;

    private ChartEquality(Chart a, Chart b, XStateExport<?> export, String where) {
        this.a = a;
        this.b = b;
        this.where = where;
        export.guards().forEach((n, code) -> nameOfA.putIfAbsent(code, n));
        export.actions().forEach((n, code) -> nameOfA.putIfAbsent(code, n));
        export.delays().forEach((n, code) -> nameOfA.putIfAbsent(code, n));
    }

    /** Fails, naming the first difference, unless {@code b} (imported from {@code export}) is the same machine as {@code a}. */
    static void assertSameChart(Chart a, Chart b, XStateExport<?> export, String where) {
        new ChartEquality(a, b, export, where).compare();
    }

    private void compare() {
        assertEquals(a.machineId, b.machineId, where + ": machine id");
        assertEquals(a.style, b.style, where);
        assertEquals(a.size, b.size, where + ": number of states");
        assertArrayEquals(a.key, b.key, where + ": keys");
        assertArrayEquals(a.path, b.path, where + ": paths");
        assertArrayEquals(a.stateId, b.stateId, where + ": ids");
        assertArrayEquals(a.type, b.type, where + ": kinds");
        assertArrayEquals(a.parent, b.parent, where + ": parents");
        assertArrayEquals(a.depth, b.depth, where + ": depths");
        assertArrayEquals(a.subtreeEnd, b.subtreeEnd, where);
        assertArrayEquals(a.initial, b.initial, where + ": initial states");
        assertArrayEquals(a.deepHistory, b.deepHistory, where + ": history depths");
        assertEquals(a.maxActive, b.maxActive, where);
        assertEquals(a.configRoom, b.configRoom, where);
        assertEquals(a.hasEventless, b.hasEventless, where);
        assertEquals(a.transitionCount, b.transitionCount, where + ": number of transitions");
        assertArrayEquals(a.eventTypes, b.eventTypes, where + ": events, in order");
        assertEquals(a.knownEvents(), b.knownEvents(), where);
        for (int s = 0; s < a.size; s++) {
            String at = where + " at " + a.describe(s);
            assertArrayEquals(a.children[s], b.children[s], at + ": children");
            assertArrayEquals(a.historyDefault[s], b.historyDefault[s], at + ": history default");
            codes(a.entry[s], b.entry[s], at + ": entry");
            codes(a.exit[s], b.exit[s], at + ": exit");
            assertEquals(a.on[s] == null, b.on[s] == null, at + ": names events");
            if (a.on[s] != null) {
                for (int e = 0; e < a.on[s].length; e++) {
                    transitions(a.on[s][e], b.on[s][e], at + " on " + a.eventTypes[e]);
                }
            }
            transitions(a.always[s], b.always[s], at + " always");
            transitions(a.onDone[s], b.onDone[s], at + " onDone");
            assertEquals(a.waitTransition[s] < 0, b.waitTransition[s] < 0, at + ": has a wait");
            if (a.waitTransition[s] >= 0) {
                transition(a.waitTransition[s], b.waitTransition[s], at + " wait");
                assertEquals(Double.doubleToRawLongBits(a.waitSeconds[s]), Double.doubleToRawLongBits(b.waitSeconds[s]),
                        at + ": wait seconds " + a.waitSeconds[s] + " vs " + b.waitSeconds[s]);
                code(a.waitSecondsOf[s], b.waitSecondsOf[s], at + ": wait seconds function");
            }
            transitions(a.when[s], b.when[s], at + " when");
            if (a.when[s] != null) {
                for (int i = 0; i < a.when[s].length; i++) {
                    code(a.whenTest[a.when[s][i]], b.whenTest[b.when[s][i]], at + " when[" + i + "] test");
                }
            }
            assertEquals(a.doneEvents[s] == null ? null : a.doneEvents[s].type(), b.doneEvents[s] == null ? null : b.doneEvents[s].type(), at);
        }
        List<Integer> seenA = new ArrayList<>();
        for (int t = 0; t < a.transitionCount; t++) {
            seenA.add(a.tSource[t]);
        }
        List<Integer> seenB = new ArrayList<>();
        for (int t = 0; t < b.transitionCount; t++) {
            seenB.add(b.tSource[t]);
        }
        seenA.sort(null);
        seenB.sort(null);
        assertEquals(seenA, seenB, where + ": transitions per state");
    }

    private void transitions(int[] x, int[] y, String at) {
        assertEquals(x == null, y == null, at + ": present");
        if (x != null) {
            assertEquals(x.length, y.length, at + ": how many");
            for (int i = 0; i < x.length; i++) {
                transition(x[i], y[i], at + "[" + i + "]");
            }
        }
    }

    private void transition(int t, int u, String at) {
        assertEquals(a.tSource[t], b.tSource[u], at + ": source");
        assertArrayEquals(a.tTargets[t], b.tTargets[u], at + ": targets");
        assertEquals(a.tReenter[t], b.tReenter[u], at + ": reenter");
        assertEquals(a.tDomain[t], b.tDomain[u], at + ": domain");
        assertEquals(a.tLabel[t], b.tLabel[u], at + ": kind");
        code(a.tGuard[t], b.tGuard[u], at + ": guard");
        codes(a.tActions[t], b.tActions[u], at + ": actions");
    }

    private void codes(Object[] x, Object[] y, String at) {
        assertEquals(x.length, y.length, at + ": how many");
        for (int i = 0; i < x.length; i++) {
            code(x[i], y[i], at + "[" + i + "]");
        }
    }

    private void code(Object x, Object y, String at) {
        if (x == null) {
            assertNull(y, at);
            return;
        }
        String name = nameOfA.get(x);
        assertTrue(name != null, at + ": the export names " + x);
        assertEquals(name, Named.nameOf(y), at + ": the imported code has the exported name");
        assertSame(Named.unwrap(x), Named.unwrap(y), at + ": the imported code is the exported code");
    }
}

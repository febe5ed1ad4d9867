package dev.enginestates.records;

import dev.enginestates.chart.Chart;
import dev.enginestates.declare.StateType;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a record's configuration the way XState writes a state value: an atomic state is its
 * key, a compound state is {@code {child: value}}, a parallel state has one entry per region
 * (an atomic region reads as an empty map, as in XState), and the root is not named.
 */
public final class StateValue {
    private StateValue() {
    }

    /** The value: a {@code String} or an unmodifiable {@code Map<String, Object>} of nested values. */
    public static Object of(MachineRecord r) {
        Chart c = r.chart();
        int[] view = new int[c.size];
        int n = Completion.complete(r, view, new boolean[c.size]);
        return valueOf(c, java.util.Arrays.copyOf(view, n), 0);
    }

    /** XState's getValueFromAdj over the completed configuration, children in entry order. */
    private static Object valueOf(Chart c, int[] view, int node) {
        List<Integer> kids = new ArrayList<>();
        for (int s : view) {
            if (c.parent[s] == node) {
                kids.add(s);
            }
        }
        if (c.type[node] == StateType.COMPOUND) {
            if (kids.isEmpty()) {
                return Map.of();
            }
            if (c.isLeaf(kids.get(0))) {
                return c.key[kids.get(0)];
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (int k : kids) {
            out.put(c.key[k], valueOf(c, view, k));
        }
        return Collections.unmodifiableMap(out);
    }

    /** Whether the state at the dotted path ({@code "patrol.watch"}; {@code ""} is the root) is active; {@code false} for a path that names no state. */
    public static boolean matches(MachineRecord r, String path) {
        int s = r.chart().stateAt(path);
        return s >= 0 && r.isActive(s);
    }

    /** The paths of the active atomic and final states, in document order. */
    public static List<String> leaves(MachineRecord r) {
        Chart c = r.chart();
        List<String> out = new ArrayList<>();
        for (int s = 1; s < c.size; s++) {
            if (r.isActive(s) && c.isLeaf(s)) {
                out.add(c.path[s]);
            }
        }
        return out;
    }

    /** The paths of every active state but the root, in document order. */
    public static List<String> activePaths(MachineRecord r) {
        Chart c = r.chart();
        List<String> out = new ArrayList<>();
        for (int s = 1; s < c.size; s++) {
            if (r.isActive(s)) {
                out.add(c.path[s]);
            }
        }
        return out;
    }

    /** A compact one-line rendering for messages, such as {@code patrol.watch} or {@code {a: x, b: y}}. */
    public static String describe(MachineRecord r) {
        Object v = of(r);
        return v instanceof String ? (String) v : v.toString();
    }
}

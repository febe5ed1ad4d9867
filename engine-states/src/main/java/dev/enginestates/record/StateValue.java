package dev.enginestates.record;

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
        return valueOf(c, r, 0);
    }

    private static Object valueOf(Chart c, MachineRecord r, int node) {
        List<Integer> kids = activeChildren(c, r, node);
        if (c.type[node] == StateType.COMPOUND) {
            if (kids.isEmpty()) {
                return Map.of();
            }
            int child = kids.get(0);
            if (c.isLeaf(child)) {
                return c.key[child];
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (int k : kids) {
            out.put(c.key[k], valueOf(c, r, k));
        }
        return Collections.unmodifiableMap(out);
    }

    private static List<Integer> activeChildren(Chart c, MachineRecord r, int node) {
        List<Integer> kids = new ArrayList<>();
        for (int i = 0; i < r.activeCount(); i++) {
            int s = r.activeAt(i);
            if (c.parent[s] == node) {
                kids.add(s);
            }
        }
        return kids;
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

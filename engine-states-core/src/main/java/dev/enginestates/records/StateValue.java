package dev.enginestates.records;

import dev.enginestates.declare.MachineException;
import dev.enginestates.chart.Chart;
import dev.enginestates.chart.Names;
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

    /**
     * Whether the state at the dotted path ({@code "patrol.watch"}; {@code ""} is the root) is
     * active.
     *
     * @throws MachineException if the path names no state: a typo is an error, never a quiet
     *                          {@code false}; the message gives the closest path when one is near
     */
    public static boolean matches(MachineRecord r, String path) {
        Chart c = r.chart();
        int s = path == null ? -1 : c.stateAt(path);
        if (s < 0) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "' has no state '" + path + "' to match; expected a"
                    + " path from the root, one of " + paths(c) + suggestion(c, path));
        }
        return r.isActive(s);
    }

    /**
     * {@code "; did you mean 'patrol.watch'?"} for a name that names no state: the closest path,
     * or the path of the one state whose key is (or is close to) the name; {@code ""} when none is near.
     */
    public static String suggestion(Chart c, String name) {
        if (name == null) {
            return "";
        }
        List<String> paths = new ArrayList<>();
        for (int s = 1; s < c.size; s++) {
            paths.add(c.path[s]);
        }
        String best = Names.closest(name, paths);
        if (best == null) {
            // a key written without its parents ("watch" for "patrol.watch"), or a typo of one
            int dot = name.lastIndexOf('.');
            String key = dot >= 0 ? name.substring(dot + 1) : name;
            List<String> keys = new ArrayList<>();
            for (int s = 1; s < c.size; s++) {
                keys.add(c.key[s]);
            }
            String k = Names.closest(key, keys);
            if (k != null && keys.indexOf(k) == keys.lastIndexOf(k)) {
                best = c.path[keys.indexOf(k) + 1];
            }
        }
        return best == null || best.equals(name) ? "" : "; did you mean '" + best + "'?";
    }

    private static String paths(Chart c) {
        List<String> out = new ArrayList<>();
        for (int s = 1; s < c.size; s++) {
            out.add(c.path[s]);
        }
        return out.isEmpty() ? "(none)" : String.join(", ", out);
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

    /**
     * The top state: the root's first active child in document order ({@code "patrol"} while
     * {@code patrol.watch} is active; a parallel state's own name while its regions move), or
     * {@code ""} when none is active.
     */
    public static String top(MachineRecord r) {
        Chart c = r.chart();
        for (int s = 1; s < c.size; s++) {
            if (c.parent[s] == 0 && r.isActive(s)) {
                return c.path[s];
            }
        }
        return "";
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

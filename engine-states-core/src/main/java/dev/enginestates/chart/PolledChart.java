package dev.enginestates.chart;

import dev.enginestates.declare.EnterHook;
import dev.enginestates.declare.ExitHook;
import dev.enginestates.declare.PolledDefinition;
import dev.enginestates.declare.StateEventHandler;
import dev.enginestates.declare.StateGuard;
import dev.enginestates.declare.StateUpdate;
import dev.enginestates.declare.StatesBuilder;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the polled style adds to a compiled chart, by state number:
 * the {@code to} guards with their resolved targets, {@code after}, {@code update},
 * {@code enter}/{@code exit} and the {@code on} table. Targets are state numbers, or
 * {@link #BACK} for {@code "$back"}.
 *
 * <p>Immutable once built and shared like the chart; the arrays must not be written.
 */
public final class PolledChart {
    /** A target meaning "the leaf active before the last transition". */
    public static final int BACK = -2;
    /** The deepest a state with an {@code after} may be: a record keeps one bit per depth, in an int, for a fired after. */
    public static final int MAX_AFTER_DEPTH = 31;
    /** {@link #onKind}: the state does not name the event. */
    public static final byte ON_NONE = 0;
    /** {@link #onKind}: the event moves to {@link #onTarget}. */
    public static final byte ON_TARGET = 1;
    /** {@link #onKind}: the event runs {@link #onHandler}. */
    public static final byte ON_HANDLER = 2;

    public final int[][] toTarget;
    public final StateGuard<Object>[][] toGuard;
    /** Seconds of the state's {@code after}, or NaN. */
    public final double[] afterSeconds;
    public final int[] afterTarget;
    public final StateUpdate<Object>[] update;
    public final EnterHook<Object>[] enter;
    public final ExitHook<Object>[] exit;
    /** {@code onKind[state][event]}, or a {@code null} row for a state that names no event. */
    public final byte[][] onKind;
    public final int[][] onTarget;
    public final StateEventHandler<Object>[][] onHandler;
    public final String[] eventTypes;
    /** Whether any state (or the root) declares an {@code update}: the step's update pass is skipped otherwise. */
    public final boolean hasUpdates;
    private final Map<String, Integer> eventIds;
    /** What the algorithm made of this chart to run it (its runtime and per-state code), on first use; {@code null} before. */
    private volatile Object code;

    // the chart's shape, for resolving names returned at run time
    private final String[] key;
    private final String[] path;
    private final int[] parent;
    private final int[][] children;
    private final Map<String, Integer> pathIndex;

    @SuppressWarnings("unchecked")
    private PolledChart(ChartCompiler c, List<PolledDefinition<?>> defs, List<String> problems) {
        int size = c.size;
        key = c.key;
        path = c.path;
        parent = c.parent;
        children = c.regularChildren;
        pathIndex = c.pathIndex;
        toTarget = new int[size][];
        toGuard = (StateGuard<Object>[][]) new StateGuard<?>[size][];
        afterSeconds = new double[size];
        afterTarget = new int[size];
        update = (StateUpdate<Object>[]) new StateUpdate<?>[size];
        enter = (EnterHook<Object>[]) new EnterHook<?>[size];
        exit = (ExitHook<Object>[]) new ExitHook<?>[size];
        Map<String, Integer> ids = new LinkedHashMap<>();
        for (PolledDefinition<?> d : defs) {
            for (String e : d.onEvents()) {
                if (e != null && !e.isEmpty()) {
                    ids.putIfAbsent(e, ids.size());
                }
            }
        }
        eventIds = Map.copyOf(ids);
        eventTypes = ids.keySet().toArray(new String[0]);
        onKind = new byte[size][];
        onTarget = new int[size][];
        onHandler = (StateEventHandler<Object>[][]) new StateEventHandler<?>[size][];
        boolean updates = false;
        for (PolledDefinition<?> d : defs) {
            updates |= d.update() != null;
        }
        hasUpdates = updates;
        if (c.regularChildren[0].length == 0) {
            problems.add("the machine has no states; expected at least one state(...)");
        }
        for (int s = 0; s < size; s++) {
            PolledDefinition<?> d = defs.get(s);
            String where = c.describeForPolled(s);
            int n = d.toTargets().size();
            toTarget[s] = new int[n];
            toGuard[s] = (StateGuard<Object>[]) new StateGuard<?>[n];
            for (int i = 0; i < n; i++) {
                String name = d.toTargets().get(i);
                toGuard[s][i] = (StateGuard<Object>) d.toGuards().get(i);
                if (StatesBuilder.BACK.equals(name)) {
                    problems.add(where + " has to '$back'; '$back' may be an after, on or update target, not a to key");
                    toTarget[s][i] = 0;
                } else {
                    toTarget[s][i] = resolveOrReport(s, name, "to", where, problems);
                }
            }
            afterSeconds[s] = d.afterTarget() == null ? Double.NaN : d.afterSeconds();
            afterTarget[s] = d.afterTarget() == null ? -1 : resolveOrReport(s, d.afterTarget(), "after", where, problems);
            if (d.afterTarget() != null && Double.isNaN(afterSeconds[s])) {
                afterSeconds[s] = 0; // reported by the builder; keep the array readable
            }
            if (d.afterTarget() != null && c.depth[s] > MAX_AFTER_DEPTH) {
                problems.add(where + " has an after " + c.depth[s] + " levels deep; expected an after at most "
                        + MAX_AFTER_DEPTH + " levels deep (a record keeps one bit per level for it)");
            }
            update[s] = (StateUpdate<Object>) d.update();
            enter[s] = (EnterHook<Object>) d.enter();
            exit[s] = (ExitHook<Object>) d.exit();
            if (!d.onEvents().isEmpty()) {
                onKind[s] = new byte[eventTypes.length];
                onTarget[s] = new int[eventTypes.length];
                onHandler[s] = (StateEventHandler<Object>[]) new StateEventHandler<?>[eventTypes.length];
                for (int i = 0; i < d.onEvents().size(); i++) {
                    Integer e = ids.get(d.onEvents().get(i));
                    if (e == null || onKind[s][e] != ON_NONE) {
                        continue; // reported by the builder
                    }
                    String target = d.onTargets().get(i);
                    if (target != null) {
                        onKind[s][e] = ON_TARGET;
                        onTarget[s][e] = resolveOrReport(s, target, "on '" + d.onEvents().get(i) + "' going to", where, problems);
                    } else {
                        onKind[s][e] = ON_HANDLER;
                        onHandler[s][e] = (StateEventHandler<Object>) d.onHandlers().get(i);
                    }
                }
            }
        }
    }

    static PolledChart compile(ChartCompiler c, List<PolledDefinition<?>> defs, List<String> problems) {
        return new PolledChart(c, defs, problems);
    }

    private int resolveOrReport(int s, String name, String what, String where, List<String> problems) {
        int target = resolve(s, name);
        if (target == -1) {
            problems.add(where + " has " + what + " '" + name + "', which names no state; " + expected(s, name));
            return 0;
        }
        return target;
    }

    /**
     * Resolves a target name by the polled style's rules: relative first (the declaring
     * state's siblings, then a compound state's own children, then each ancestor's siblings),
     * then as a dotted path from the root. Allocation-free.
     *
     * @return the state, {@link #BACK} for {@code "$back"}, or -1 when the name names nothing
     */
    public int resolve(int from, String name) {
        if (name == null || name.isEmpty()) {
            return -1;
        }
        if (StatesBuilder.BACK.equals(name)) {
            return BACK;
        }
        if (from > 0) {
            int s = childNamed(parent[from], name);
            if (s > 0) {
                return s;
            }
        }
        int own = childNamed(from, name);
        if (own > 0) {
            return own;
        }
        for (int a = from > 0 ? parent[from] : -1; a > 0; a = parent[a]) {
            int s = childNamed(parent[a], name);
            if (s > 0) {
                return s;
            }
        }
        Integer s = pathIndex.get(name);
        return s == null || s == 0 ? -1 : s;
    }

    private int childNamed(int s, String name) {
        for (int c : children[s]) {
            if (name.equals(key[c])) { // a key may be null: the compiler reports it
                return c;
            }
        }
        return -1;
    }

    /** What a name could have been, for messages: the names in reach of {@code from} and a suggestion. */
    public String expected(int from, String name) {
        Set<String> reach = new LinkedHashSet<>();
        if (from > 0) {
            addKeys(reach, parent[from]);
        }
        addKeys(reach, from);
        for (int a = from > 0 ? parent[from] : -1; a > 0; a = parent[a]) {
            addKeys(reach, parent[a]);
        }
        List<String> all = new ArrayList<>(reach);
        for (int s = 1; s < path.length; s++) {
            if (!reach.contains(path[s])) {
                all.add(path[s]);
            }
        }
        String example = path[path.length - 1];
        for (String p : path) {
            if (p.contains(".")) {
                example = p;
                break;
            }
        }
        return "expected a state name in reach (" + String.join(", ", reach) + ") or a path from the root (such as '"
                + example + "')" + Names.suggestion(name, all);
    }

    private void addKeys(Set<String> out, int s) {
        for (int c : children[s]) {
            out.add(key[c]);
        }
    }

    /** What the algorithm made of this chart to run it, or {@code null} before its first use. */
    public Object code() {
        return code;
    }

    /** Keeps what the algorithm made of this chart: made once, from the chart alone, so a race only makes it twice. */
    public void code(Object code) {
        this.code = code;
    }

    /** The id of an event a state names, or -1. Allocation-free. */
    public int eventId(String type) {
        Integer id = eventIds.get(type);
        return id == null ? -1 : id;
    }
}

package dev.enginestates.chart;

import dev.enginestates.declare.StateHandler;
import dev.enginestates.declare.StateMotionProfile;
import dev.enginestates.declare.Window;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * What the builder style adds to a compiled chart, by state number:
 * each state's handler, enter and exit hooks, window callbacks, and its metadata (duration,
 * delay, tag, windows, data, motion). The states are the root's children: the style is flat.
 *
 * <p>Filled in by the style's builder before the chart is compiled, then immutable and shared
 * like the chart; the arrays must not be written.
 */
public final class BuilderChart {
    /** How many distinct unknown names a state reports before it stops reporting: a bounded memory against hostile handlers. */
    public static final int MAX_REPORTED_NAMES = 64;

    public final StateHandler<Object>[] handler;
    public final Consumer<Object>[] enter;
    public final Consumer<Object>[] exit;
    /** The builder's {@code onStateEnter(ctx, state)} hook, or {@code null}. */
    public final BiConsumer<Object, String> onStateEnter;
    /** Seconds; 0 without a duration. */
    public final float[] duration;
    /** Seconds during which the handler does not run; 0 without a delay. */
    public final float[] delay;
    /** The tag; {@code ""} without one. */
    public final String[] tag;
    /** The windows by name, unmodifiable; empty without any. */
    public final Map<String, Window>[] windows;
    public final Object[] data;
    public final StateMotionProfile[] motion;
    /** By state: the states its handler is declared to return ({@code transitionsTo}), for tools; empty when none are declared. */
    public final int[][] next;
    /** Per state: the windows that have callbacks, parallel to {@link #windowExitEdge} and {@link #windowCallback}; {@code null} without any. */
    public final Window[][] windowOf;
    /** Whether each callback runs when its window closes (else when it opens). */
    public final boolean[][] windowExitEdge;
    public final Consumer<Object>[][] windowCallback;
    /** Context classes the annotated handlers take, and who takes each: a context must be all of them. */
    public final Class<?>[] contextTypes;
    public final String[] contextTypeUsers;
    private final Map<String, Integer> byName = new java.util.HashMap<>();
    private final Map<String, Boolean>[] reported;

    @SuppressWarnings("unchecked")
    public BuilderChart(int size, BiConsumer<Object, String> onStateEnter, Class<?>[] contextTypes, String[] contextTypeUsers) {
        this.handler = (StateHandler<Object>[]) new StateHandler<?>[size];
        this.enter = (Consumer<Object>[]) new Consumer<?>[size];
        this.exit = (Consumer<Object>[]) new Consumer<?>[size];
        this.onStateEnter = onStateEnter;
        this.duration = new float[size];
        this.delay = new float[size];
        this.tag = new String[size];
        this.windows = (Map<String, Window>[]) new Map<?, ?>[size];
        this.data = new Object[size];
        this.motion = new StateMotionProfile[size];
        this.next = new int[size][];
        this.windowOf = new Window[size][];
        this.windowExitEdge = new boolean[size][];
        this.windowCallback = (Consumer<Object>[][]) new Consumer<?>[size][];
        this.contextTypes = contextTypes.clone();
        this.contextTypeUsers = contextTypeUsers.clone();
        this.reported = (Map<String, Boolean>[]) new Map<?, ?>[size];
        for (int s = 0; s < size; s++) {
            tag[s] = "";
            windows[s] = Map.of();
            next[s] = new int[0];
            reported[s] = new ConcurrentHashMap<>();
        }
    }

    void index(String[] key) {
        for (int s = 1; s < key.length; s++) {
            byName.put(key[s], s);
        }
    }

    /** The state named {@code name}, or -1. Allocation-free. */
    public int stateNamed(String name) {
        Integer s = name == null ? null : byName.get(name);
        return s == null ? -1 : s;
    }

    /**
     * Whether this is the first time state {@code s} returned the unknown {@code name}: it is
     * reported once per definition, not once per tick and instance. Thread-safe.
     */
    public boolean firstReport(int s, String name) {
        Map<String, Boolean> seen = reported[s];
        if (seen.containsKey(name) || seen.size() > MAX_REPORTED_NAMES) {
            return false;
        }
        return seen.putIfAbsent(name, Boolean.TRUE) == null;
    }
}

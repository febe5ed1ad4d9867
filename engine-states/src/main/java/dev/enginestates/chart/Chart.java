package dev.enginestates.chart;

import dev.enginestates.declare.Event;
import dev.enginestates.declare.SelfAction;
import dev.enginestates.declare.SelfGuard;
import dev.enginestates.declare.SelfSeconds;
import dev.enginestates.declare.StateType;
import dev.enginestates.declare.UnknownEvents;

import java.util.List;
import java.util.Map;

/**
 * A machine compiled for the algorithm. States are numbered in document order (a depth-first
 * walk, a state before its children), the root is 0, so a state's descendants are exactly
 * the numbers {@code (s, subtreeEnd[s])}. Transitions are numbered too; every target is an
 * int.
 *
 * <p>Immutable once built; the arrays are exposed for the algorithm's speed and must not be
 * written. One chart is shared by every record of its machine, on every thread.
 */
public final class Chart {
    /** Domain of a transition whose targets include a history state: computed when taken. */
    public static final int DYNAMIC_DOMAIN = Integer.MIN_VALUE;
    /** Domain "above the root": the transition exits and re-enters the root itself. */
    public static final int ABOVE_ROOT = -1;

    public final String machineId;
    /** Which document's semantics the machine runs by. */
    public final Style style;
    /** The polled style's guards, {@code after}, updates and events; {@code null} for other styles. */
    public final PolledChart polled;
    /** The builder style's handlers and metadata; {@code null} for other styles. */
    public final BuilderChart builder;
    public final UnknownEvents unknownEvents;

    // ---- states
    public final int size;
    public final String[] key;
    public final String[] path;
    public final String[] stateId;
    public final StateType[] type;
    public final int[] parent;
    public final int[] depth;
    public final int[] subtreeEnd;
    public final int[] initial;
    public final int[][] children;
    public final int[][] regularChildren;
    public final int[][] historyChildren;
    public final boolean[] deepHistory;
    /** A history node's resolved default targets, or {@code null} when it has none. */
    public final int[][] historyDefault;
    public final SelfAction<Object>[][] entry;
    public final SelfAction<Object>[][] exit;

    // ---- transitions
    public final int transitionCount;
    public final int[] tSource;
    public final int[][] tTargets;
    public final boolean[] tReenter;
    public final SelfGuard<Object>[] tGuard;
    public final SelfAction<Object>[][] tActions;
    public final int[] tDomain;
    /**
     * By transition: its entry set when it is a microstep's only transition, in document order,
     * or {@code null} when that depends on a record (a history state among its targets or their
     * default descendants). The interpreter's fast path; its general computeEntrySet gives the same.
     */
    public final int[][] tEntry;
    /** What declared the transition, for messages: {@code "on E"}, {@code "always"}, {@code "onDone"}, {@code "wait"}, {@code "when"}. */
    public final String[] tLabel;

    /** {@code on[state][eventId]}: the candidate transitions in priority order, or {@code null}. */
    public final int[][][] on;
    public final int[][] always;
    public final int[][] onDone;
    public final int[] waitTransition;
    /** By state: its place among the states with a wait (a record keeps per-wait data by it), or -1 when it has none. */
    public final int[] waitSlot;
    /** How many states have a wait. */
    public final int waitCount;
    public final double[] waitSeconds;
    public final SelfSeconds<Object>[] waitSecondsOf;
    public final int[][] when;
    /** Whether any state has {@code when} rules (a machine without them never tests any). */
    public final boolean hasWhen;
    public final SelfGuard<Object>[] whenTest;

    // ---- events
    public final String[] eventTypes;
    public final Event[] eventObjects;
    /** The internal done event of each compound or parallel state, else {@code null}. */
    public final Event[] doneEvents;
    public final Event initEvent;
    /** The event a wait's transition is taken with (guards and actions see it). */
    public final Event waitEvent;
    /** The event a {@code when} rule's transition is taken with. */
    public final Event whenEvent;
    private final Map<String, Integer> eventIds;
    private final Map<String, Integer> pathIndex;
    /** The game's enums naming the states and events of a typed machine ({@link EnumNames#NONE} when named by strings). */
    private final EnumNames enumNames;
    /** The largest number of states a configuration can hold. */
    public final int maxActive;
    public final boolean hasEventless;

    Chart(ChartCompiler c) {
        machineId = c.machineId;
        style = c.style;
        polled = c.polled;
        builder = c.builder;
        unknownEvents = c.unknownEvents;
        size = c.size;
        key = c.key;
        path = c.path;
        stateId = c.stateId;
        type = c.type;
        parent = c.parent;
        depth = c.depth;
        subtreeEnd = c.subtreeEnd;
        initial = c.initial;
        children = c.children;
        regularChildren = c.regularChildren;
        historyChildren = c.historyChildren;
        deepHistory = c.deepHistory;
        historyDefault = c.historyDefault;
        entry = c.entry;
        exit = c.exit;
        transitionCount = c.tCount;
        tSource = c.tSource;
        tTargets = c.tTargets;
        tReenter = c.tReenter;
        tGuard = c.tGuard;
        tActions = c.tActions;
        tDomain = c.tDomain;
        tEntry = EntrySets.of(c);
        tLabel = c.tLabel;
        on = c.on;
        always = c.always;
        onDone = c.onDone;
        waitTransition = c.waitTransition;
        waitSlot = new int[size];
        int waits = 0;
        for (int s = 0; s < size; s++) {
            waitSlot[s] = waitTransition[s] >= 0 ? waits++ : -1;
        }
        waitCount = waits;
        waitSeconds = c.waitSeconds;
        waitSecondsOf = c.waitSecondsOf;
        when = c.when;
        boolean anyWhen = false;
        for (int s = 0; when != null && s < size; s++) {
            anyWhen |= when[s] != null;
        }
        hasWhen = anyWhen;
        whenTest = c.whenTest;
        eventTypes = c.eventTypes;
        eventObjects = c.eventObjects;
        doneEvents = c.doneEvents;
        initEvent = Event.of("xstate.init");
        waitEvent = Event.of("states.wait");
        whenEvent = Event.of("states.when");
        eventIds = Map.copyOf(c.eventIds);
        pathIndex = Map.copyOf(c.pathIndex);
        enumNames = c.enumNames;
        maxActive = c.maxActive;
        hasEventless = c.hasEventless;
    }

    /** The id of an event type, or -1 when no state names it. Allocation-free. */
    public int eventId(String type) {
        Integer id = eventIds.get(type);
        return id == null ? -1 : id;
    }

    /** The enums naming a typed machine's states and events; {@link EnumNames#NONE} for a machine named by strings. */
    public EnumNames enumNames() {
        return enumNames;
    }

    /** The state at a dotted key path from the root ({@code "patrol.watch"}, {@code ""} for the root), or -1. */
    public int stateAt(String path) {
        Integer s = pathIndex.get(path);
        return s == null ? -1 : s;
    }

    /** The event types the machine's states name, in document order. */
    public List<String> knownEvents() {
        return List.of(polled != null ? polled.eventTypes : eventTypes);
    }

    /** Whether {@code s} is a strict descendant of {@code ancestor} ({@link #ABOVE_ROOT} contains every state). */
    public boolean isDescendant(int s, int ancestor) {
        return ancestor == ABOVE_ROOT || (s > ancestor && s < subtreeEnd[ancestor]);
    }

    /** Whether two states can be active at once: one contains the other, or they lie in different regions of a parallel state. */
    public boolean canBeActiveTogether(int a, int b) {
        if (a == b || isDescendant(a, b) || isDescendant(b, a)) {
            return true;
        }
        int p = parent[a];
        while (p >= 0 && !isDescendant(b, p)) {
            p = parent[p];
        }
        return p >= 0 && type[p] == StateType.PARALLEL;
    }

    /** Whether the state is atomic or final (a leaf of a configuration). */
    public boolean isLeaf(int s) {
        return type[s] == StateType.ATOMIC || type[s] == StateType.FINAL;
    }

    /** A state's path for messages: {@code "(root)"} for the root. */
    public String describe(int s) {
        return s == 0 ? "(root)" : path[s];
    }
}

package dev.enginestates.chart;

import dev.enginestates.declare.Event;
import dev.enginestates.declare.SelfAction;
import dev.enginestates.declare.SelfGuard;
import dev.enginestates.declare.SelfSeconds;
import dev.enginestates.declare.Semantics;
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
    /** Which style's semantics the machine runs by. */
    public final Style style;
    /** The polled style's guards, {@code after}, updates and events; {@code null} for other styles. */
    public final PolledChart polled;
    /** The builder style's handlers and metadata; {@code null} for other styles. */
    public final BuilderChart builder;
    public final UnknownEvents unknownEvents;
    /** Whether a record keeps clock times per state (entry times; the polled style's clocks too): every style but the builder's, whose one clock is a float. */
    public final boolean recordsTimes;
    /** Whether a record keeps the polled style's per-state clocks (with their carries) and {@code after} marks. */
    public final boolean recordsClocks;
    /** Whether a record keeps a previous leaf ({@code $back}, the builder's previous state) and the fields of styles polled every tick. */
    public final boolean recordsPrevious;
    /** Whether a machine's own actions may raise and send to itself (the XState style's internal queue). */
    public final boolean hasInternalQueue;
    /**
     * Whether every move the machine makes is one of this chart's transitions ({@code on},
     * {@code always}, {@code onDone}, a wait, a {@code when} rule), so a document listing them says
     * the whole machine: false where the polled table or the builder's handlers choose the next state.
     */
    public final boolean movesAreTransitions;
    /** Whether states have durations ({@link #duration}), through which a record's progress and windows run: the builder style's. */
    public final boolean hasDurations;

    // ---- states
    public final int size;
    public final String[] key;
    public final String[] path;
    public final String[] stateId;
    public final StateType[] type;
    public final int[] parent;
    public final int[] depth;
    public final int[] subtreeEnd;
    /** By state: its initial child (a history state when {@code initial} names one), or -1. */
    public final int[] initial;
    /** By state: the regular child its default entry reaches (through an initial history state's default target), or -1. */
    public final int[] initialChild;
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
    /**
     * By transition: whether it runs no code and changes only the configuration
     * ({@link PlainTransitions}), so the interpreter may take it alone without the general microstep.
     */
    public final boolean[] tPlain;
    /** Whether no state has exit actions or a history state: then no exit set of a plain transition needs looking at. */
    public final boolean leavesQuietly;
    /** By transition: the state its {@code stateIn} guard needs active, or -1 when it has none. */
    public final int[] tInState;
    /** What declared the transition, for messages: {@code "on E"}, {@code "always"}, {@code "onDone"}, {@code "wait"}, {@code "when"}. */
    public final String[] tLabel;
    /**
     * By state: whether a microstep of several transitions (in different regions of a parallel
     * state) can change it, so that a configuration may hold other shapes than the chart's there
     * ({@link MultiRegionReach}); all false for a chart without parallel states.
     */
    public final boolean[] multiRegionReach;

    /**
     * {@code on[state][eventId]}: the candidate transitions for an event of that id in priority
     * order, every descriptor that matches it merged, or {@code null}: by {@link #semantics},
     * exact type first then the longer wildcard (XState) or document order (SCXML).
     */
    public final int[][][] on;
    /** {@code onOwn[state][eventId]}: the transitions written with exactly that descriptor, as declared (exports, diagrams). */
    public final int[][][] onOwn;
    /** By event id: the prefix its wildcard descriptor matches ({@code ""} for {@code "*"}), or {@code null} for an exact type. */
    private final String[] wildcardPrefix;
    /** The ids of the wildcard descriptors, longest prefix first. */
    private final int[] wildcards;
    /** Whether any descriptor is a wildcard or could name an internal done event. */
    public final boolean doneEventsMatch;
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
    private final Map<String, Integer> idIndex;
    /** The game's enums naming the states and events of a typed machine ({@link EnumNames#NONE} when named by strings). */
    private final EnumNames enumNames;
    /** The largest number of states a configuration can hold. */
    public final int maxActive;
    /**
     * The room a record's configuration is made with, kept small to save memory per machine: for a chart
     * without parallel states, the deepest chain from the root; else {@link #maxActive} (XState
     * can leave a parallel chart's configuration wider than its tree suggests). A record that ever
     * needs more grows to {@link #maxActive}.
     */
    public final int configRoom;
    /**
     * By state: where a record keeps its time (the XState style's entry time, the polled style's
     * clock). To save memory per machine: in a chart without parallel states the active states
     * form one chain from the root, one per depth, so the slot is the state's depth and the states
     * of one depth share it; a record reads a slot only for an active state. A chart with
     * parallel states (two active states can share a depth) or {@link Semantics#SCXML} (a state's
     * exit actions still see it active after the state entered in its place at that depth got its
     * time) keeps one slot per state.
     */
    public final int[] timeSlot;
    /** How many time slots a record keeps: the deepest chain for a chart whose slots are depths, else {@link #size}. */
    public final int timeRoom;
    public final boolean hasEventless;
    /**
     * Whose rules the machine follows where XState and SCXML differ: the order of {@link #on}'s
     * candidates (built by {@code ChartCompiler}) and, under {@link Semantics#SCXML}, eventless
     * transitions looked for again after every microstep that ran an action, and each state
     * left or entered seen by the actions as SCXML's {@code exitStates}/{@code enterStates} order
     * says.
     */
    public final Semantics semantics;
    /**
     * By state, the child machines it runs while active ({@code invoke}); {@code null} when the
     * machine invokes none, so a face tests one field to know it has nothing to start.
     */
    public final Invocation[][] invokes;
    /** The machines the machine's code may start as children ({@code spawns(...)}); empty when none. */
    public final dev.enginestates.declare.ChildMachine<?>[] spawns;
    /** {@link #moves()}, once made: from the chart alone, so a race only makes it twice. */
    private volatile Moves moves;

    Chart(ChartCompiler c) {
        machineId = c.machineId;
        invokes = c.invokes;
        spawns = c.spawns;
        style = c.style;
        polled = c.polled;
        builder = c.builder;
        recordsTimes = builder == null;
        recordsClocks = polled != null;
        recordsPrevious = polled != null || builder != null;
        hasInternalQueue = style == Style.XSTATE;
        movesAreTransitions = polled == null && builder == null;
        hasDurations = builder != null;
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
        initialChild = c.initialChild;
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
        tPlain = PlainTransitions.of(c, tEntry);
        boolean quiet = true;
        for (int s = 0; s < size; s++) {
            quiet &= exit[s].length == 0 && historyChildren[s].length == 0;
        }
        leavesQuietly = quiet;
        tInState = c.tInState;
        tLabel = c.tLabel;
        multiRegionReach = MultiRegionReach.of(c);
        on = c.on;
        onOwn = c.onOwn;
        wildcardPrefix = c.wildcardPrefix == null ? new String[0] : c.wildcardPrefix;
        java.util.List<Integer> wild = new java.util.ArrayList<>();
        boolean done = false;
        for (int e = 0; e < wildcardPrefix.length; e++) {
            if (wildcardPrefix[e] != null) {
                wild.add(e);
            }
            done |= wildcardPrefix[e] != null || c.eventTypes[e].startsWith("xstate.done.state.");
        }
        wild.sort((a, b) -> wildcardPrefix[b].length() - wildcardPrefix[a].length());
        wildcards = wild.stream().mapToInt(Integer::intValue).toArray();
        doneEventsMatch = done;
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
        java.util.Map<String, Integer> exact = new java.util.HashMap<>();
        c.eventIds.forEach((type, id) -> {
            if (wildcardPrefix[id] == null) {
                exact.put(type, id);
            }
        });
        eventIds = Map.copyOf(exact);
        pathIndex = Map.copyOf(c.pathIndex);
        idIndex = Map.copyOf(c.idIndex);
        enumNames = c.enumNames;
        maxActive = c.maxActive;
        configRoom = c.configRoom;
        boolean parallel = false;
        for (int s = 0; s < size; s++) {
            parallel |= type[s] == StateType.PARALLEL;
        }
        boolean byDepth = !parallel && c.semantics != Semantics.SCXML;
        timeSlot = new int[size];
        int room = 1;
        for (int s = 0; s < size; s++) {
            timeSlot[s] = byDepth ? depth[s] : s;
            room = Math.max(room, timeSlot[s] + 1);
        }
        timeRoom = room;
        hasEventless = c.hasEventless;
        semantics = c.semantics;
    }

    /**
     * The one of three things that belongs to this chart's style: the layers above offer one per
     * style (a runtime, say) and the chart, which the compiler built for one style, chooses. The
     * only place outside the compiler that looks at the style; a fourth style adds a parameter.
     */
    public <T> T byStyle(T xstate, T polled, T builder) {
        return switch (style) {
            case XSTATE -> xstate;
            case POLLED -> polled;
            case BUILDER -> builder;
        };
    }

    /**
     * The id of an event as this machine's style numbers them (the polled style has events of its
     * own, {@link PolledChart#eventId}); -1 when no state names it.
     */
    public int styleEventId(String type) {
        return polled != null ? polled.eventId(type) : eventId(type);
    }

    /**
     * The id of an event type, or -1 when no descriptor matches it: its own when a state names
     * it exactly, else its longest matching {@code prefix.*} descriptor's, else {@code *}'s.
     * Allocation-free.
     */
    public int eventId(String type) {
        Integer id = eventIds.get(type);
        if (id != null) {
            return id;
        }
        for (int e : wildcards) {
            if (matches(eventTypes[e], wildcardPrefix[e], type)) {
                return e;
            }
        }
        return -1;
    }

    /** Whether the id is an exact type's (its event object is the event itself), not a wildcard descriptor's. */
    public boolean isExact(int eventId) {
        return wildcardPrefix[eventId] == null;
    }

    /**
     * Whether a descriptor matches an event type, as SCXML and XState v5 match them: an exact
     * type itself; {@code "*"} every type; {@code "foo.*"} (prefix {@code "foo"}) {@code foo} and
     * every {@code foo.…}, by whole dot-separated tokens (not {@code foobar}). Allocation-free.
     *
     * @param descriptor the descriptor as written
     * @param prefix     its wildcard prefix ({@code ""} for {@code "*"}), or {@code null} for an exact type
     * @param type       the event's type
     * @return whether it matches
     */
    public static boolean matches(String descriptor, String prefix, String type) {
        if (prefix == null) {
            return descriptor.equals(type);
        }
        int n = prefix.length();
        return n == 0 || (type.startsWith(prefix) && (type.length() == n || type.charAt(n) == '.'));
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

    /** The moves the chart declares, numbered for tools ({@link Moves}); made on first use. */
    public Moves moves() {
        Moves m = moves;
        if (m == null) {
            m = Moves.of(this);
            moves = m;
        }
        return m;
    }

    /**
     * The state a name stands for: {@code "#id"}, {@code "#id.child.path"}, or a path from the
     * root; -1 when it names none. Allocation-free for a path.
     */
    public int stateNamed(String name) {
        if (name.startsWith("#")) {
            int dot = name.indexOf('.');
            Integer s = idIndex.get(dot < 0 ? name.substring(1) : name.substring(1, dot));
            if (s == null || dot < 0) {
                return s == null ? -1 : s;
            }
            int at = s;
            for (String k : name.substring(dot + 1).split("\\.", -1)) {
                int found = -1;
                for (int child : children[at]) {
                    if (key[child].equals(k)) {
                        found = child;
                    }
                }
                if (found < 0) {
                    return -1;
                }
                at = found;
            }
            return at;
        }
        Integer s = pathIndex.get(name);
        return s == null || s == 0 ? -1 : s;
    }

    /** Every state's path from the root and its {@code #id}, for messages naming the closest. */
    public List<String> stateNames() {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (int s = 1; s < size; s++) {
            out.add(path[s]);
            out.add("#" + stateId[s]);
        }
        return out;
    }

    /** State {@code s}'s duration in seconds; 0 without one, as in a style that has no durations ({@link #hasDurations}). */
    public float duration(int s) {
        return builder != null ? builder.duration[s] : 0f;
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

package dev.enginestates.chart;

import dev.enginestates.declare.Event;
import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.declare.MachineBuilder;
import dev.enginestates.declare.Named;
import dev.enginestates.declare.NodeBuilder;
import dev.enginestates.declare.PolledDefinition;
import dev.enginestates.declare.SelfAction;
import dev.enginestates.declare.SelfGuard;
import dev.enginestates.declare.SelfSeconds;
import dev.enginestates.declare.Semantics;
import dev.enginestates.declare.StateDefinition;
import dev.enginestates.declare.StateIn;
import dev.enginestates.declare.StateType;
import dev.enginestates.declare.TransitionDefinition;
import dev.enginestates.declare.UnknownEvents;
import dev.enginestates.declare.WaitDefinition;
import dev.enginestates.declare.WhenRule;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Turns a definition tree into a {@link Chart}. Every problem is collected first and thrown
 * once as an {@link InvalidMachineException}, each naming the state that has it.
 */
public final class ChartCompiler {
    final String machineId;
    final UnknownEvents unknownEvents;
    final List<String> problems = new ArrayList<>();
    final List<StateDefinition<?>> defs = new ArrayList<>();
    /** By state, the children it invokes; {@code null} when the machine invokes none. */
    Invocation[][] invokes;
    /** The machines the machine's code may spawn as children. */
    dev.enginestates.declare.ChildMachine<?>[] spawns = new dev.enginestates.declare.ChildMachine<?>[0];

    int size;
    String[] key;
    String[] path;
    String[] stateId;
    StateType[] type;
    int[] parent;
    int[] depth;
    int[] subtreeEnd;
    int[] initial;
    int[][] children;
    int[][] regularChildren;
    int[][] historyChildren;
    boolean[] deepHistory;
    int[][] historyDefault;
    SelfAction<Object>[][] entry;
    SelfAction<Object>[][] exit;

    int tCount;
    int[] tSource;
    int[][] tTargets;
    boolean[] tReenter;
    SelfGuard<Object>[] tGuard;
    SelfAction<Object>[][] tActions;
    int[] tDomain;
    String[] tLabel;
    int[][][] on;
    int[][][] onOwn;
    /** By event id: the prefix a wildcard descriptor matches ({@code ""} for {@code "*"}), or {@code null} for an exact type. */
    String[] wildcardPrefix;
    int[] tInState;
    int[] initialChild;
    int[][] always;
    int[][] onDone;
    int[] waitTransition;
    double[] waitSeconds;
    SelfSeconds<Object>[] waitSecondsOf;
    int[][] when;
    SelfGuard<Object>[] whenTest;

    String[] eventTypes;
    Event[] eventObjects;
    Event[] doneEvents;
    final Map<String, Integer> eventIds = new LinkedHashMap<>();
    final Map<String, Integer> pathIndex = new HashMap<>();
    final Map<String, Integer> idIndex = new HashMap<>();
    int maxActive;
    int configRoom;
    boolean hasEventless;
    Semantics semantics = Semantics.XSTATE;
    Style style = Style.XSTATE;
    PolledChart polled;
    BuilderChart builder;
    EnumNames enumNames = EnumNames.NONE;

    private final List<TransitionDefinition<?>> tDefs = new ArrayList<>();
    private final List<Integer> tSources = new ArrayList<>();
    private final List<String> tLabels = new ArrayList<>();

    private ChartCompiler(String machineId, UnknownEvents unknownEvents) {
        this.machineId = machineId;
        this.unknownEvents = unknownEvents;
    }

    /**
     * Compiles a machine's definition.
     *
     * @throws InvalidMachineException listing every problem found
     */
    public static Chart compile(String machineId, StateDefinition<?> root, UnknownEvents unknownEvents) {
        return compile(machineId, root, unknownEvents, null, null);
    }

    /**
     * Compiles a machine's definition whose states and events may be named by the constants of
     * the game's own enums ({@code null} for names written as strings); see {@link EnumNames}
     * for the rules checked.
     *
     * @throws InvalidMachineException listing every problem found
     */
    public static Chart compile(String machineId, StateDefinition<?> root, UnknownEvents unknownEvents, Class<?> stateEnum,
            Class<?> eventEnum) {
        return compile(machineId, root, unknownEvents, stateEnum, eventEnum, Semantics.XSTATE);
    }

    /**
     * As {@link #compile(String, StateDefinition, UnknownEvents, Class, Class)}, by the rules of
     * XState or SCXML where they differ ({@link Semantics}).
     *
     * @throws InvalidMachineException listing every problem found
     */
    public static Chart compile(String machineId, StateDefinition<?> root, UnknownEvents unknownEvents, Class<?> stateEnum,
            Class<?> eventEnum, Semantics semantics) {
        ChartCompiler c = new ChartCompiler(machineId == null ? "" : machineId, unknownEvents);
        c.semantics = Objects.requireNonNull(semantics, "semantics");
        if (machineId == null || machineId.isBlank()) {
            c.problems.add("the machine needs a non-empty id, not only spaces: the dump, the tags and the errors name it");
        }
        c.number(root);
        c.checkStates();
        c.compileInvokes();
        c.enumNames = EnumNames.check(c, stateEnum, eventEnum);
        c.collectTransitions();
        c.enumNames.numberEvents(c);
        c.enumNames.typeEvents(c.eventObjects, c.eventTypes);
        c.resolveTransitions();
        c.resolveInitialChildren();
        c.checkWaitsApart();
        if (!c.problems.isEmpty()) {
            throw new InvalidMachineException(c.machineId, c.problems);
        }
        return new Chart(c);
    }

    /**
     * Compiles a polled machine: the same numbering and
     * shape checks as any chart, plus its guards, {@code after}, updates and events.
     *
     * @throws InvalidMachineException listing every problem found
     */
    public static Chart compilePolled(String machineId, PolledDefinition<?> root, UnknownEvents unknownEvents) {
        ChartCompiler c = new ChartCompiler(machineId == null ? "" : machineId, unknownEvents);
        if (machineId == null || machineId.isBlank()) {
            c.problems.add("the machine needs a non-empty id, not only spaces: the dump, the tags and the errors name it");
        }
        MachineBuilder<Object> shape = new MachineBuilder<>();
        shapeOf(shape, root);
        c.number(shape.definition());
        c.checkStates();
        c.collectTransitions();
        c.resolveTransitions();
        c.resolveInitialChildren();
        List<PolledDefinition<?>> defs = new ArrayList<>();
        flatten(root, defs);
        for (int s = 0; s < defs.size(); s++) {
            for (String p : defs.get(s).declarationProblems()) {
                c.problems.add(p);
            }
        }
        c.style = Style.POLLED;
        c.polled = PolledChart.compile(c, defs, c.problems);
        if (!c.problems.isEmpty()) {
            throw new InvalidMachineException(c.machineId, c.problems);
        }
        return new Chart(c);
    }

    /**
     * Compiles a builder-style machine: a flat machine whose states
     * are the root's children in {@code shape}, with what {@code builder} holds for each, by the
     * number this compilation gives it (declaration order, from 1). {@code problems} found while
     * declaring are thrown with the compiler's own, in one exception.
     *
     * @throws InvalidMachineException listing every problem found
     */
    public static Chart compileBuilder(String machineId, StateDefinition<?> shape, BuilderChart builder, List<String> problems) {
        ChartCompiler c = new ChartCompiler(machineId == null ? "" : machineId, UnknownEvents.REJECT);
        if (machineId == null || machineId.isBlank()) {
            c.problems.add("the machine needs a non-empty id, not only spaces: the dump, the tags and the errors name it");
        }
        c.problems.addAll(problems);
        c.number(shape);
        c.checkStates();
        c.collectTransitions();
        c.resolveTransitions();
        c.resolveInitialChildren();
        c.style = Style.BUILDER;
        c.builder = builder;
        if (!c.problems.isEmpty()) {
            throw new InvalidMachineException(c.machineId, c.problems);
        }
        builder.index(c.key);
        return new Chart(c);
    }

    private static void shapeOf(NodeBuilder<Object, ?> b, PolledDefinition<?> d) {
        if (d.initial() != null) {
            b.initial(d.initial());
        }
        for (PolledDefinition<?> child : d.children()) {
            b.state(child.key(), s -> shapeOf(s, child));
        }
    }

    private static void flatten(PolledDefinition<?> d, List<PolledDefinition<?>> out) {
        out.add(d);
        for (PolledDefinition<?> child : d.children()) {
            flatten(child, out);
        }
    }

    String describeForPolled(int s) {
        return s == 0 ? "the root" : "state '" + path[s] + "'";
    }

    // ------------------------------------------------------------------ numbering

    private void number(StateDefinition<?> root) {
        List<Integer> parents = new ArrayList<>();
        walk(root, -1, parents);
        size = defs.size();
        key = new String[size];
        path = new String[size];
        stateId = new String[size];
        type = new StateType[size];
        parent = new int[size];
        depth = new int[size];
        subtreeEnd = new int[size];
        initial = new int[size];
        children = new int[size][];
        regularChildren = new int[size][];
        historyChildren = new int[size][];
        deepHistory = new boolean[size];
        historyDefault = new int[size][];
        entry = newActionTable(size);
        exit = newActionTable(size);
        doneEvents = new Event[size];
        for (int s = 0; s < size; s++) {
            StateDefinition<?> d = defs.get(s);
            key[s] = d.key();
            type[s] = d.type();
            parent[s] = parents.get(s);
            depth[s] = s == 0 ? 0 : depth[parent[s]] + 1;
            path[s] = s == 0 ? "" : (parent[s] == 0 ? d.key() : path[parent[s]] + "." + d.key());
            initial[s] = -1;
            entry[s] = actions(d.entry());
            exit[s] = actions(d.exit());
            deepHistory[s] = d.history() == HistoryDepth.DEEP;
        }
        for (int s = size - 1; s >= 0; s--) {
            subtreeEnd[s] = Math.max(subtreeEnd[s], s + 1);
            if (s > 0 && subtreeEnd[s] > subtreeEnd[parent[s]]) {
                subtreeEnd[parent[s]] = subtreeEnd[s];
            }
        }
        int active = 0;
        for (int s = 0; s < size; s++) {
            List<Integer> all = new ArrayList<>();
            List<Integer> regular = new ArrayList<>();
            List<Integer> hist = new ArrayList<>();
            for (int c = s + 1; c < subtreeEnd[s]; c = subtreeEnd[c]) {
                all.add(c);
                (type[c] == StateType.HISTORY ? hist : regular).add(c);
            }
            children[s] = toArray(all);
            regularChildren[s] = toArray(regular);
            historyChildren[s] = toArray(hist);
            if (type[s] != StateType.HISTORY) {
                active++;
            }
        }
        maxActive = active;
        // without parallel states a configuration is one chain from the root: room for the deepest
        boolean parallel = false;
        int chain = 1;
        for (int s = 0; s < size; s++) {
            parallel |= type[s] == StateType.PARALLEL;
            if (type[s] != StateType.HISTORY) {
                chain = Math.max(chain, depth[s] + 1);
            }
        }
        configRoom = parallel ? maxActive : Math.min(chain, maxActive);
    }

    private void walk(StateDefinition<?> d, int parentIndex, List<Integer> parents) {
        defs.add(d);
        parents.add(parentIndex);
        int me = defs.size() - 1;
        for (StateDefinition<?> child : d.children()) {
            walk(child, me, parents);
        }
    }

    // ------------------------------------------------------------------ state checks

    /** The children each state invokes: ids unique, plain names; a child on the parent's entity not twice. */
    private void compileInvokes() {
        Map<String, Integer> ids = new HashMap<>();
        Map<Object, String> onEntity = new java.util.IdentityHashMap<>();
        Invocation[][] all = new Invocation[size][];
        boolean any = false;
        for (int s = 0; s < size; s++) {
            List<? extends dev.enginestates.declare.InvokeBuilder<?, ?>> list = defs.get(s).invokes();
            all[s] = new Invocation[list.size()];
            for (int i = 0; i < list.size(); i++) {
                dev.enginestates.declare.InvokeBuilder<?, ?> b = list.get(i);
                String id = b.id();
                String where = where(s);
                if (id.isBlank() || id.contains("/") || id.contains(".") || id.contains("*")) {
                    problems.add(where + " invokes a child with id '" + id + "'; expected a plain name, not empty, without"
                            + " '/', '.' or '*' (the child's key and its done event are made from it)");
                }
                Integer before = ids.putIfAbsent(id, s);
                if (before != null) {
                    problems.add(where + " invokes a child with id '" + id + "', which " + where(before)
                            + " already uses; child ids must differ within a machine");
                }
                if (type[s] == StateType.HISTORY) {
                    problems.add(where + " is a history state and invokes '" + id + "'; a history state is never active,"
                            + " so expected the invoke on a regular state");
                }
                if (b.sameEntity()) {
                    String other = onEntity.putIfAbsent(b.machine(), id);
                    if (other != null) {
                        problems.add(where + " invokes machine '" + b.machine().id() + "' on the same entity as '" + id
                                + "', and '" + other + "' does too; an entity holds one record per machine, so expected"
                                + " at most one of them on the parent's entity");
                    }
                }
                all[s][i] = new Invocation(id, s, b.machine(), b.input(), b.output(), b.sameEntity(),
                        dev.enginestates.declare.InvokeBuilder.doneEvent(id));
                any = true;
            }
        }
        invokes = any ? all : null;
        spawns = defs.get(0).spawns().toArray(new dev.enginestates.declare.ChildMachine<?>[0]);
    }

    private void checkStates() {
        for (int s = 0; s < size; s++) {
            StateDefinition<?> d = defs.get(s);
            String where = where(s);
            for (String p : d.declarationProblems()) {
                problems.add(where + " " + p);
            }
            if (s > 0) {
                String k = d.key();
                if (k == null || k.isEmpty()) {
                    problems.add("a child of " + where(parent[s]) + " has an empty key; every state needs a name");
                } else if (k.isBlank()) {
                    problems.add("a child of " + where(parent[s]) + " has key '" + k + "', only spaces; every state needs a name");
                } else if (k.contains(".") || k.startsWith("#")) {
                    problems.add(where + " has key '" + k + "', which contains '.' or starts with '#'; targets read those as a path or an id");
                }
            }
            pathIndex.putIfAbsent(path[s], s);
            // duplicate sibling keys
            Map<String, Integer> seen = new HashMap<>();
            for (int c : children[s]) {
                Integer before = seen.putIfAbsent(key[c], c);
                if (before != null) {
                    problems.add(where + " declares child '" + key[c] + "' twice; sibling keys must differ");
                }
            }
            // ids
            stateId[s] = d.id() != null ? d.id() : (s == 0 ? machineId : machineId + "." + path[s]);
            if (d.id() != null) {
                if (d.id().isBlank()) {
                    problems.add(where + " has an empty id" + (d.id().isEmpty() ? "" : ", only spaces"));
                } else if (d.id().contains(".")) {
                    problems.add(where + " has id '" + d.id() + "', which contains '.'; '#id.path' targets read it as a path");
                }
            }
            Integer clash = idIndex.putIfAbsent(stateId[s], s);
            if (clash != null && d.id() != null) {
                problems.add(where + " has id '" + d.id() + "', which " + where(clash) + " already has; ids must be unique in a machine");
            }
            checkKind(s, d);
            checkCodeNames(s, d);
        }
    }

    /**
     * A {@link Named} guard, test, action or seconds has a name XState's JSON and the diagrams can
     * show: not empty, not only spaces (a class of the game's own can answer anything).
     */
    private void checkCodeNames(int s, StateDefinition<?> d) {
        for (int i = 0; i < d.entry().size(); i++) {
            checkCodeName(s, d.entry().get(i), "entry action [" + i + "]");
        }
        for (int i = 0; i < d.exit().size(); i++) {
            checkCodeName(s, d.exit().get(i), "exit action [" + i + "]");
        }
        for (TransitionDefinition<?> t : d.on()) {
            checkCodeNames(s, t, "on " + t.eventType());
        }
        for (TransitionDefinition<?> t : d.always()) {
            checkCodeNames(s, t, "always");
        }
        for (TransitionDefinition<?> t : d.onDone()) {
            checkCodeNames(s, t, "onDone");
        }
        WaitDefinition<?> w = d.waitDefinition();
        if (w != null) {
            checkCodeName(s, w.secondsOf(), "a wait's seconds");
            checkCodeNames(s, w.then(), "wait");
        }
        for (WhenRule<?> r : d.when()) {
            checkCodeName(s, r.test(), "a when test");
            checkCodeNames(s, r.then(), "when");
        }
    }

    private void checkCodeNames(int s, TransitionDefinition<?> t, String label) {
        checkCodeName(s, t.guard(), "a guard (" + label + ")");
        for (int i = 0; i < t.actions().size(); i++) {
            checkCodeName(s, t.actions().get(i), "action [" + i + "] (" + label + ")");
        }
    }

    private void checkCodeName(int s, Object code, String what) {
        if (code instanceof Named) {
            String name = ((Named) code).name();
            if (name == null || name.isBlank()) {
                problems.add(where(s) + " has " + what + " named " + (name == null ? "null" : "'" + name + "'") + "; a name is"
                        + " what XState's JSON and the diagrams call the code: give it one that is not empty or only spaces,"
                        + " or leave the code unnamed");
            }
        }
    }

    private void checkKind(int s, StateDefinition<?> d) {
        String where = where(s);
        StateType t = type[s];
        if (t == StateType.HISTORY) {
            int p = parent[s];
            if (p < 0) {
                problems.add("the machine's root cannot be a history state");
            } else if (type[p] == StateType.FINAL || type[p] == StateType.HISTORY || regularChildren[p].length == 0) {
                problems.add(where + " is a history state outside a compound or parallel state: " + where(p)
                        + " has no other children for it to remember");
            }
            if (!d.on().isEmpty() || !d.always().isEmpty() || !d.onDone().isEmpty() || d.waitDefinition() != null
                    || !d.when().isEmpty() || !d.entry().isEmpty() || !d.exit().isEmpty()) {
                problems.add(where + " is a history state; it takes no transitions, actions, wait or when rules");
            }
            return;
        }
        if (t == StateType.FINAL && children[s].length > 0) {
            problems.add(where + " is a final state with children; a final state is a leaf");
        }
        if (t == StateType.PARALLEL && regularChildren[s].length == 0) {
            problems.add(where + " is parallel but has no regions; declare its regions as child states");
        }
        if (d.initial() != null) {
            int found = childByKey(s, d.initial());
            if (t == StateType.PARALLEL) {
                problems.add(where + " is parallel, so it enters every region; remove initial '" + d.initial() + "'");
            } else if (found < 0) {
                problems.add(where + " has initial '" + d.initial() + "', which names no child; expected one of "
                        + keysOf(regularChildren[s]));
            } else if (type[found] == StateType.HISTORY && defs.get(found).historyTarget() == null) {
                // entering it with nothing remembered would enter the parent's initial state: itself again
                problems.add(where + " has initial '" + d.initial() + "', a history state with no default target; give it one"
                        + " (entered while it remembers nothing) or name a regular child: " + keysOf(regularChildren[s]));
            } else {
                initial[s] = found;
            }
        } else if (t == StateType.COMPOUND && regularChildren[s].length > 0) {
            initial[s] = regularChildren[s][0];
        }
        WaitDefinition<?> w = d.waitDefinition();
        if (w != null) {
            if (children[s].length > 0) {
                problems.add(where + " has a wait but also children; a wait sits on a state with no states of its own");
            }
            if (w.secondsOf() == null && (Double.isNaN(w.seconds()) || Double.isInfinite(w.seconds()) || w.seconds() < 0)) {
                problems.add(where + " waits " + w.seconds() + " seconds; expected a finite number of seconds, 0 or more");
            }
        }
        if (!d.onDone().isEmpty() && t != StateType.COMPOUND && t != StateType.PARALLEL) {
            problems.add(where + " has onDone but is " + t.name().toLowerCase()
                    + "; only a compound or parallel state becomes done");
        }
    }

    // ------------------------------------------------------------------ transitions

    private void collectTransitions() {
        on = new int[size][][];
        onOwn = new int[size][][];
        always = new int[size][];
        onDone = new int[size][];
        when = new int[size][];
        waitTransition = new int[size];
        waitSeconds = new double[size];
        @SuppressWarnings("unchecked")
        SelfSeconds<Object>[] sf = (SelfSeconds<Object>[]) new SelfSeconds<?>[size];
        waitSecondsOf = sf;
        List<SelfGuard<?>> whenTests = new ArrayList<>();
        for (int s = 0; s < size; s++) {
            StateDefinition<?> d = defs.get(s);
            for (TransitionDefinition<?> t : d.on()) {
                String ev = t.eventType();
                if (ev == null || ev.isBlank()) {
                    problems.add(where(s) + " has a transition on an empty event name" + (ev == null || ev.isEmpty() ? "" : " ('"
                            + ev + "', only spaces)") + "; name the event (a transition taken without one is always(...))");
                    continue;
                }
                if (!validDescriptor(ev)) {
                    problems.add(where(s) + " has a transition on '" + ev + "'; expected an exact event type, '*' (any event)"
                            + " or 'prefix.*' (the prefix and every event below it, by whole dot-separated tokens)");
                    continue;
                }
                if (!eventIds.containsKey(ev)) {
                    eventIds.put(ev, eventIds.size());
                }
            }
        }
        int events = eventIds.size();
        eventTypes = eventIds.keySet().toArray(new String[0]);
        wildcardPrefix = new String[events];
        for (int e = 0; e < events; e++) {
            String d = eventTypes[e];
            wildcardPrefix[e] = d.equals("*") ? "" : d.endsWith(".*") ? d.substring(0, d.length() - 2) : null;
        }
        eventObjects = new Event[events];
        for (int e = 0; e < events; e++) {
            eventObjects[e] = Event.of(eventTypes[e]);
        }
        for (int s = 0; s < size; s++) {
            StateDefinition<?> d = defs.get(s);
            waitTransition[s] = -1;
            waitSeconds[s] = Double.NaN;
            if (type[s] == StateType.HISTORY) {
                continue;
            }
            List<List<Integer>> byEvent = new ArrayList<>();
            int[] written = new int[events];
            for (int e = 0; e < events; e++) {
                byEvent.add(null);
            }
            for (TransitionDefinition<?> t : d.on()) {
                Integer ev = t.eventType() == null || !validDescriptor(t.eventType()) ? null : eventIds.get(t.eventType());
                if (ev == null) {
                    continue;
                }
                if (byEvent.get(ev) == null) {
                    written[ev] = (int) byEvent.stream().filter(Objects::nonNull).count();
                    byEvent.set(ev, new ArrayList<>());
                }
                byEvent.get(ev).add(add(s, t, "on " + t.eventType()));
            }
            boolean any = false;
            int[][] table = new int[events][];
            for (int e = 0; e < events; e++) {
                if (byEvent.get(e) != null) {
                    table[e] = toArray(byEvent.get(e));
                    any = true;
                }
            }
            onOwn[s] = any ? table : null;
            on[s] = any ? matchingTable(table, written) : null;
            always[s] = addAll(s, d.always(), "always");
            if (always[s] != null) {
                hasEventless = true;
            }
            onDone[s] = addAll(s, d.onDone(), "onDone");
            if (type[s] == StateType.COMPOUND || type[s] == StateType.PARALLEL) {
                doneEvents[s] = Event.of("xstate.done.state." + stateId[s]);
            }
            WaitDefinition<?> w = d.waitDefinition();
            if (w != null) {
                waitTransition[s] = add(s, w.then(), "wait");
                waitSeconds[s] = w.seconds();
                @SuppressWarnings("unchecked")
                SelfSeconds<Object> fn = (SelfSeconds<Object>) w.secondsOf();
                waitSecondsOf[s] = fn;
            }
            if (!d.when().isEmpty()) {
                List<Integer> rules = new ArrayList<>();
                for (WhenRule<?> r : d.when()) {
                    int t = add(s, r.then(), "when");
                    while (whenTests.size() < t) {
                        whenTests.add(null);
                    }
                    whenTests.add(r.test());
                    rules.add(t);
                }
                when[s] = toArray(rules);
            }
        }
        @SuppressWarnings("unchecked")
        SelfGuard<Object>[] wt = (SelfGuard<Object>[]) new SelfGuard<?>[tDefs.size()];
        for (int i = 0; i < whenTests.size(); i++) {
            @SuppressWarnings("unchecked")
            SelfGuard<Object> c = (SelfGuard<Object>) whenTests.get(i);
            wt[i] = c;
        }
        whenTest = wt;
    }

    private static boolean validDescriptor(String ev) {
        int star = ev.indexOf('*');
        return star < 0 || ev.equals("*") || (ev.length() > 2 && star == ev.length() - 1 && ev.charAt(star - 1) == '.');
    }

    /**
     * A state's candidates by event id, from its transitions by descriptor as written
     * ({@code own}, descriptors ranked by {@code written}: where each first appears in the
     * state). An exact type's candidates are the transitions of every descriptor that matches
     * that type; a wildcard id's are those of the state's wildcards matching an event that only
     * it (and shorter wildcards) match, so an event no state names exactly goes to its longest
     * matching wildcard's id ({@link Chart#eventId}). The order is the machine's
     * {@link Semantics}: XState's {@code getCandidates} takes the exact type's transitions, then
     * each matching wildcard's, the longest descriptor first (ties in the order written; two
     * different wildcards matching one event never tie, as each is a token prefix of it); SCXML
     * takes them all in document order, the first enabled winning.
     */
    private int[][] matchingTable(int[][] own, int[] written) {
        int events = own.length;
        int[][] table = new int[events][];
        // the state's own descriptors, a few, found once: testing every event against every event for each
        // state made a config of n states, each with an event of its own, cost n^3
        List<Integer> stated = new ArrayList<>();
        for (int d = 0; d < events; d++) {
            if (own[d] != null) {
                stated.add(d);
            }
        }
        List<Integer> descriptors = new ArrayList<>();
        for (int e = 0; e < events; e++) {
            String prefix = wildcardPrefix[e];
            descriptors.clear();
            for (int d : stated) {
                boolean match = prefix == null ? Chart.matches(eventTypes[d], wildcardPrefix[d], eventTypes[e])
                        : wildcardPrefix[d] != null && (prefix.isEmpty() ? wildcardPrefix[d].isEmpty()
                        : Chart.matches(eventTypes[d], wildcardPrefix[d], prefix));
                if (match) {
                    descriptors.add(d);
                }
            }
            if (descriptors.isEmpty()) {
                continue;
            }
            List<Integer> list = new ArrayList<>();
            if (semantics == Semantics.SCXML) {
                for (int d : descriptors) {
                    for (int t : own[d]) {
                        list.add(t);
                    }
                }
                list.sort(null); // transitions are numbered in document order
            } else {
                // the exact type (never a wildcard) first, then the longer descriptor; a stable sort keeps ties as written
                descriptors.sort(Comparator.comparingInt((Integer d) -> wildcardPrefix[d] == null ? 0 : 1)
                        .thenComparingInt(d -> -eventTypes[d].length())
                        .thenComparingInt(d -> written[d]));
                for (int d : descriptors) {
                    for (int t : own[d]) {
                        list.add(t);
                    }
                }
            }
            table[e] = toArray(list);
        }
        return table;
    }

    private int[] addAll(int s, List<? extends TransitionDefinition<?>> list, String label) {
        if (list.isEmpty()) {
            return null;
        }
        int[] out = new int[list.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = add(s, list.get(i), label);
        }
        return out;
    }

    private int add(int source, TransitionDefinition<?> t, String label) {
        tDefs.add(t);
        tSources.add(source);
        tLabels.add(label);
        return tDefs.size() - 1;
    }

    @SuppressWarnings("unchecked")
    private void resolveTransitions() {
        tCount = tDefs.size();
        tSource = new int[tCount];
        tTargets = new int[tCount][];
        tReenter = new boolean[tCount];
        tGuard = (SelfGuard<Object>[]) new SelfGuard<?>[tCount];
        tActions = newActionTable(tCount);
        tDomain = new int[tCount];
        tInState = new int[tCount];
        tLabel = tLabels.toArray(new String[0]);
        for (int s = 0; s < size; s++) {
            if (type[s] == StateType.HISTORY) {
                String text = defs.get(s).historyTarget();
                if (text != null && parent[s] >= 0) {
                    Enum<?> k = defs.get(s).historyTargetConstant();
                    // a default named by a constant (or by a string in a typed machine) was checked with the states
                    // (EnumNames.check): it resolves to the state declared with the constant, or was reported there
                    boolean typed = k != null || enumNames.typed();
                    int target = typed ? (k == null ? -1 : enumNames.state(k)) : resolvePath(parent[s], text);
                    if (typed && target < 0) {
                        continue;
                    }
                    if (target < 0) {
                        problems.add(where(s) + " has default target '" + text + "', which names no state below "
                                + where(parent[s]) + "; expected a path from it or '#id'");
                    } else if (!isDescendant(target, parent[s])) {
                        problems.add(where(s) + " has default target '" + text + "', which is not inside "
                                + where(parent[s]) + "; a history's default must be one of its parent's descendants");
                    } else if (type[target] == StateType.HISTORY) {
                        problems.add(where(s) + " has default target '" + text + "', which is a history state; expected a regular state below "
                                + where(parent[s]));
                    } else {
                        historyDefault[s] = new int[] {target};
                    }
                }
            }
        }
        for (int t = 0; t < tCount; t++) {
            TransitionDefinition<?> d = tDefs.get(t);
            int source = tSources.get(t);
            tSource[t] = source;
            tReenter[t] = d.reenter();
            tGuard[t] = (SelfGuard<Object>) d.guard();
            tInState[t] = -1;
            if (d.guard() instanceof StateIn<?> in) {
                int s = resolveStateIn(source, in.state());
                if (s < 0) {
                    problems.add(where(source) + " (" + tLabel[t] + ") has guard stateIn('" + in.state() + "'), which names no state;"
                            + " expected a path from the root, a sibling's key path or '#id'");
                } else {
                    tInState[t] = s;
                    tGuard[t] = null; // the interpreter tests the state's bit
                }
            }
            tActions[t] = actions(d.actions());
            List<String> texts = d.targets();
            int[] targets = new int[texts.size()];
            boolean ok = true;
            for (int i = 0; i < targets.length; i++) {
                Enum<?> k = d.targetConstants().get(i);
                targets[i] = k != null || enumNames.typed() ? enumNames.target(this, source, texts.get(i), k, tLabel[t])
                        : resolveTarget(source, texts.get(i), tLabel[t]);
                ok &= targets[i] >= 0;
            }
            tTargets[t] = targets;
            if (ok && targets.length > 1) {
                checkTogether(source, targets, texts, tLabel[t]);
            }
            if (ok && (tLabel[t].equals("wait") || tLabel[t].equals("when")) && targets.length == 0) {
                problems.add(where(source) + " has a " + tLabel[t] + " with no target; expected a state to go to");
            }
            if ((tLabel[t].equals("wait") || tLabel[t].equals("when")) && d.guard() != null) {
                problems.add(where(source) + " has a " + tLabel[t] + " transition with a guard; a " + tLabel[t]
                        + (tLabel[t].equals("wait") ? " ends when its seconds run out (use a when rule for a condition)"
                        : " rule's test is its condition") + ", so remove the guard");
            }
            tDomain[t] = ok ? staticDomain(t) : 0;
        }
    }

    /** A {@code stateIn} name: {@code #id}, a path from the root, or a key path from the source's parent; -1 when none. */
    private int resolveStateIn(int source, String text) {
        if (text.startsWith("#")) {
            return resolveId(text);
        }
        Integer s = pathIndex.get(text);
        if (s != null && s > 0) {
            return s;
        }
        return source > 0 ? walkPath(parent[source], text) : -1;
    }

    /** By state: the regular child a default entry goes to (through an initial history state's default). */
    private void resolveInitialChildren() {
        initialChild = new int[size];
        for (int s = 0; s < size; s++) {
            int i = initial[s];
            if (i >= 0 && type[i] == StateType.HISTORY) {
                int[] d = historyDefault[i];
                i = -1;
                if (d != null) {
                    i = d[0];
                    while (i >= 0 && parent[i] != s) {
                        i = parent[i];
                    }
                }
            }
            initialChild[s] = i;
        }
    }

    /** A machine counts one wait at a time, so two waits must never be active together. */
    private void checkWaitsApart() {
        List<Integer> waiting = new ArrayList<>();
        for (int s = 0; s < size; s++) {
            if (defs.get(s).waitDefinition() != null) {
                waiting.add(s);
            }
        }
        for (int i = 0; i < waiting.size(); i++) {
            for (int j = i + 1; j < waiting.size(); j++) {
                int a = waiting.get(i);
                int b = waiting.get(j);
                if (!isDescendant(b, a) && type[commonAncestor(a, b)] == StateType.PARALLEL) {
                    problems.add(where(a) + " and " + where(b) + " both wait and can be active together (regions of parallel "
                            + where(commonAncestor(a, b)) + "); a machine counts one wait at a time");
                }
            }
        }
    }

    private void checkTogether(int source, int[] targets, List<String> texts, String label) {
        for (int i = 0; i < targets.length; i++) {
            for (int j = i + 1; j < targets.length; j++) {
                int a = targets[i];
                int b = targets[j];
                int lca = a == b ? a : commonAncestor(a, b);
                if (a == b || isDescendant(a, b) || isDescendant(b, a) || type[lca] != StateType.PARALLEL) {
                    problems.add(where(source) + " (" + label + ") targets '" + texts.get(i) + "' and '" + texts.get(j)
                            + "', which cannot be active together; several targets must lie in different regions of one parallel state");
                }
            }
        }
    }

    private int commonAncestor(int a, int b) {
        int p = parent[a];
        while (p >= 0 && !isDescendant(b, p)) {
            p = parent[p];
        }
        return p < 0 ? 0 : p;
    }

    /** The transition domain when no target is a history state (XState's getTransitionDomain). */
    private int staticDomain(int t) {
        int[] targets = tTargets[t];
        int source = tSource[t];
        if (targets.length == 0) {
            return source;
        }
        for (int target : targets) {
            if (type[target] == StateType.HISTORY) {
                return Chart.DYNAMIC_DOMAIN;
            }
        }
        return domain(source, targets, targets.length, tReenter[t]);
    }

    /** XState's getTransitionDomain over resolved effective targets; shared with the algorithm's dynamic case. */
    int domain(int source, int[] targets, int count, boolean reenter) {
        return getTransitionDomain(parent, subtreeEnd, source, targets, count, reenter);
    }

    /**
     * The transition domain of XState v5: the source when every target is the source or inside
     * it (and not {@code reenter}); otherwise the nearest proper ancestor of the first target
     * that contains all the others and the source; {@link Chart#ABOVE_ROOT} for a re-entering
     * transition of the root.
     */
    public static int getTransitionDomain(int[] parent, int[] subtreeEnd, int source, int[] targets, int count, boolean reenter) {
        if (!reenter) {
            boolean inside = true;
            for (int i = 0; i < count && inside; i++) {
                int x = targets[i];
                inside = x == source || (x > source && x < subtreeEnd[source]);
            }
            if (inside) {
                return source;
            }
        }
        if (count == 0) {
            // no effective target at all: every one of none is inside the source
            return reenter ? findLCCA(parent, subtreeEnd, source, targets, 0, source, reenter) : source;
        }
        return findLCCA(parent, subtreeEnd, targets[0], targets, count, source, reenter);
    }

    /**
     * SCXML's and XState's findLCCA: the nearest proper ancestor of {@code head} that contains
     * the source and every other target; when none does (the head is the root), the root, or
     * {@link Chart#ABOVE_ROOT} for a re-entering transition.
     */
    private static int findLCCA(int[] parent, int[] subtreeEnd, int head, int[] targets, int count, int source,
            boolean reenter) {
        for (int a = parent[head]; a >= 0; a = parent[a]) {
            boolean all = source > a && source < subtreeEnd[a];
            for (int i = 1; i < count && all; i++) {
                all = targets[i] > a && targets[i] < subtreeEnd[a];
            }
            if (all) {
                return a;
            }
        }
        return reenter ? Chart.ABOVE_ROOT : 0;
    }

    private int resolveTarget(int source, String text, String label) {
        if (text == null || text.isEmpty()) {
            problems.add(where(source) + " (" + label + ") has an empty target; expected a state key, '.child' or '#id'");
            return -1;
        }
        int found;
        Supplier<String> hint; // written only for a target that names no state: a list of siblings costs their number
        if (text.startsWith("#")) {
            found = resolveId(text);
            hint = () -> "no state has id '" + text.substring(1).split("\\.", -1)[0] + "' or the path below it does not exist";
        } else if (text.startsWith(".")) {
            found = walkPath(source, text.substring(1));
            hint = () -> "a target after a dot names a state inside " + where(source) + ": "
                    + keysOf(children[source]);
        } else if (source == 0) {
            found = -1;
            hint = () -> "the machine's own transitions name a state after a dot ('." + text + "') or by '#id'";
        } else {
            found = walkPath(parent[source], text);
            hint = () -> "a plain key names a sibling of " + where(source) + ": " + keysOf(children[parent[source]]);
        }
        if (found < 0) {
            problems.add(where(source) + " (" + label + ") targets '" + text + "', which names no state; " + hint.get());
        }
        return found;
    }

    private int resolvePath(int from, String text) {
        return text.startsWith("#") ? resolveId(text) : walkPath(from, text);
    }

    private int resolveId(String text) {
        String[] parts = text.substring(1).split("\\.", -1);
        Integer s = idIndex.get(parts[0]);
        if (s == null) {
            return -1;
        }
        int at = s;
        for (int i = 1; i < parts.length && at >= 0; i++) {
            at = childByKey(at, parts[i]);
        }
        return at;
    }

    private int walkPath(int from, String text) {
        if (text.isEmpty()) {
            return -1;
        }
        int at = from;
        for (String k : text.split("\\.", -1)) {
            at = childByKey(at, k);
            if (at < 0) {
                return -1;
            }
        }
        return at;
    }

    private int childByKey(int s, String k) {
        for (int c : children[s]) {
            if (key[c].equals(k)) {
                return c;
            }
        }
        return -1;
    }

    private boolean isDescendant(int s, int ancestor) {
        return s > ancestor && s < subtreeEnd[ancestor];
    }

    // ------------------------------------------------------------------ helpers

    String where(int s) {
        return s == 0 ? "the machine's root" : "state '" + path[s] + "'";
    }

    private String keysOf(int[] states) {
        if (states.length == 0) {
            return "(none)";
        }
        StringBuilder sb = new StringBuilder();
        for (int c : states) {
            sb.append(sb.length() == 0 ? "" : ", ").append(key[c]);
        }
        return sb.toString();
    }

    @SuppressWarnings("unchecked")
    private static SelfAction<Object>[][] newActionTable(int n) {
        return (SelfAction<Object>[][]) new SelfAction<?>[n][];
    }

    @SuppressWarnings("unchecked")
    private static SelfAction<Object>[] actions(List<? extends SelfAction<?>> list) {
        SelfAction<Object>[] out = (SelfAction<Object>[]) new SelfAction<?>[list.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = (SelfAction<Object>) list.get(i);
        }
        return out;
    }

    private static int[] toArray(List<Integer> list) {
        int[] out = new int[list.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = list.get(i);
        }
        return out;
    }
}

package dev.enginestates.testing;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.algorithm.MoveObserver;
import dev.enginestates.chart.Chart;
import dev.enginestates.chart.Moves;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.StateType;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.records.Access;
import dev.enginestates.records.MachineRecord;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The search behind {@link MachinePaths}: breadth first from the machine's start, each state
 * found replayed from the start on a world of its own, then each input tried on a fresh replay
 * while the algorithm's {@link MoveObserver} tells which transitions it took and which states it
 * entered. A state is its active leaves and its histories' memories (the polled style's previous
 * leaf too).
 */
final class PathSearch<C> implements MoveObserver {
    private final MachinePaths<C> cfg;
    private final Chart c;
    private final Moves moves;
    private final Thread thread = Thread.currentThread();
    private final double horizon;
    private final int horizonSteps;

    // what the input being tried did to the record being watched
    private MachineRecord watched;
    private final List<int[]> seenMoves = new ArrayList<>();
    private final BitSet seenEntered = new BitSet();

    // what the search found
    private List<String> start = List.of();
    private final MachinePath[] statePath;
    private final MachinePath[] movePath;
    private final Map<String, MachinePath> undeclared = new LinkedHashMap<>();
    private final int[] reached;
    private final boolean[] waitsBeyond;
    private final List<String> problems = new ArrayList<>();
    /** By event type: what a guard threw when the event was tried bare (a field it reads is missing, say). */
    private final Map<String, String> guardThrew = new LinkedHashMap<>();
    /** The event types tried in some state: an event no state named in any state reached was never sent. */
    private final Set<String> sent = new HashSet<>();
    private boolean stopped;
    private int visited;
    /** Fixed steps run so far, replays included: what bounds the search's time on a machine of long waits and deep paths. */
    private long simulated;
    /** The most fixed steps one search runs (a few seconds of a test's time) before it stops and says so. */
    static final long MAX_SIMULATED_STEPS = 20_000_000;

    private record Node(List<PathStep> path) {
    }

    PathSearch(MachinePaths<C> cfg) {
        this.cfg = cfg;
        this.c = cfg.chart;
        this.moves = c.moves();
        this.statePath = new MachinePath[c.size];
        this.movePath = new MachinePath[moves.count];
        this.reached = new int[c.size];
        this.waitsBeyond = new boolean[c.size];
        this.horizon = Double.isNaN(cfg.horizon) ? Math.max(MachinePaths.DEFAULT_HORIZON, 2 * c.moves().longestWait) : cfg.horizon;
        this.horizonSteps = (int) Math.min(Integer.MAX_VALUE / 2, Math.ceil(horizon / cfg.step - 1e-9));
    }

    // ------------------------------------------------------------------ observing

    @Override
    public void moved(MachineRecord r, int move, int from, int to) {
        if (r == watched && Thread.currentThread() == thread) {
            seenMoves.add(new int[]{move, from, to});
        }
    }

    @Override
    public void entered(MachineRecord r, int state) {
        if (r == watched && Thread.currentThread() == thread) {
            seenEntered.set(state);
        }
    }

    // ------------------------------------------------------------------ searching

    PathSearch<C> run() {
        boolean wasExploring = SeenMoves.EXPLORING.get();
        SeenMoves.EXPLORING.set(Boolean.TRUE);
        MoveObserver.install(this);
        WorldFixture world = WorldFixture.fixedStep(cfg.step).open();
        try {
            search(world);
        } finally {
            MoveObserver.uninstall(this);
            SeenMoves.EXPLORING.set(wasExploring);
            world.close();
        }
        return this;
    }

    private void search(WorldFixture world) {
        seenEntered.clear();
        Entity first = spawnWatched(world);
        StateRecord<C> r0 = cfg.machine.read(first);
        start = leaves(r0);
        MachinePath startPath = new MachinePath(start, List.of(), List.of());
        for (int s = seenEntered.nextSetBit(1); s >= 0; s = seenEntered.nextSetBit(s + 1)) {
            statePath[s] = startPath;
        }
        for (String p : activeStates(c, r0)) {
            statePath[c.stateAt(p)] = startPath;
        }
        Set<String> known = new HashSet<>();
        known.add(key(r0));
        world.world().despawn(first);
        ArrayDeque<Node> queue = new ArrayDeque<>();
        queue.add(new Node(List.of()));
        while (!queue.isEmpty()) {
            if (visited >= cfg.maxStates || simulated >= MAX_SIMULATED_STEPS) {
                stopped = true;
                break;
            }
            Node node = queue.poll();
            visited++;
            List<Object> inputs = new ArrayList<>();
            List<Integer> active = new ArrayList<>();
            Entity e = replay(world, node);
            if (e == null) {
                continue;
            }
            StateRecord<C> r = cfg.machine.read(e);
            boolean done = r.isDone();
            for (String p : activeStates(c, r)) {
                int s = c.stateAt(p);
                active.add(s);
                reached[s]++;
            }
            if (!done) {
                for (Event ev : alphabet()) {
                    sent.add(ev.type()); // tried: a guard that refuses it was still given the chance
                    try {
                        if (cfg.machine.can(e, ev)) {
                            inputs.add(ev);
                        }
                    } catch (RuntimeException x) {
                        problems.add("from " + PathStep.where(leavesOf(node)) + ", asking whether it takes " + describe(ev) + " threw " + x);
                        guardThrew.putIfAbsent(ev.type(), String.valueOf((x.getCause() != null ? x.getCause() : x).getMessage()));
                    }
                }
                inputs.addAll(cfg.givens.keySet());
                inputs.add(PathStep.Kind.WAIT);
            }
            world.world().despawn(e);
            for (Object input : inputs) {
                tryInput(world, node, input, active, known, queue);
            }
        }
    }

    /**
     * The events tried in each state: every event the machine names, bare, unless the game gave
     * events of that type (then those stand for it), then the game's own.
     */
    private List<Event> alphabet() {
        List<Event> all = new ArrayList<>();
        Set<String> given = new HashSet<>();
        for (Event e : cfg.events) {
            given.add(e.type());
        }
        for (String type : c.knownEvents()) {
            if (!type.equals("*") && !type.endsWith(".*") && !type.startsWith("xstate.") && !type.startsWith("done.")
                    && !given.contains(type)) {
                all.add(Event.of(type));
            }
        }
        for (Event e : cfg.events) {
            if (!all.contains(e)) {
                all.add(e);
            }
        }
        return all;
    }

    private void tryInput(WorldFixture world, Node node, Object input, List<Integer> active, Set<String> known, ArrayDeque<Node> queue) {
        Entity e = replay(world, node);
        if (e == null) {
            return;
        }
        seenMoves.clear();
        seenEntered.clear();
        PathStep step;
        String key;
        try {
            String before = key(cfg.machine.read(e));
            watched = Access.record(cfg.machine.read(e));
            step = give(world, e, input);
            key = step == null ? null : key(cfg.machine.read(e));
            if (input instanceof String given && before.equals(key)) {
                // a change that moves nothing still changes what the guards see next: followed once from each state
                key += ";given " + given;
            }
        } catch (RuntimeException | Error x) {
            // game code threw, or the machine's own code despawned its entity: the input is reported, not followed
            problems.add("from " + PathStep.where(leavesOf(node)) + ", " + describe(input) + " threw " + x);
            despawn(world, e);
            return;
        } finally {
            watched = null;
        }
        despawn(world, e);
        if (step == null) {
            for (int s : active) {
                waitsBeyond[s] = true;
            }
            return;
        }
        List<PathStep> path = new ArrayList<>(node.path());
        path.add(step);
        MachinePath reaching = new MachinePath(start, path, List.of());
        for (int[] m : seenMoves) {
            if (m[0] >= 0 && movePath[m[0]] == null) {
                movePath[m[0]] = reaching;
            } else if (m[0] < 0 && m[2] >= 0) {
                undeclared.putIfAbsent(c.describe(m[1]) + " \u2192 " + c.describe(m[2]), reaching);
            }
        }
        for (int s = seenEntered.nextSetBit(1); s >= 0; s = seenEntered.nextSetBit(s + 1)) {
            if (statePath[s] == null) {
                statePath[s] = reaching;
            }
        }
        if (known.add(key)) {
            queue.add(new Node(List.copyOf(path)));
        }
    }

    private static void despawn(WorldFixture world, Entity e) {
        if (!e.isDeleted()) {
            world.world().despawn(e);
        }
    }

    /** Gives one input to the watched machine; {@code null} for a wait in which it did not move within the horizon. */
    private PathStep give(WorldFixture world, Entity e, Object input) {
        if (input instanceof Event ev) {
            cfg.machine.send(e, ev);
            return new PathStep(PathStep.Kind.EVENT, ev, null, 0, 0, leaves(cfg.machine.read(e)));
        }
        if (input instanceof String given) {
            cfg.givens.get(given).accept(e, cfg.machine.read(e).context());
            world.advanceSteps(1);
            return new PathStep(PathStep.Kind.GIVEN, null, given, 1, cfg.step, leaves(cfg.machine.read(e)));
        }
        for (int n = 1; n <= horizonSteps; n++) {
            world.advanceSteps(1);
            simulated++;
            if (!seenMoves.isEmpty() || !seenEntered.isEmpty()) {
                return new PathStep(PathStep.Kind.WAIT, null, null, n, n * cfg.step, leaves(cfg.machine.read(e)));
            }
        }
        return null;
    }

    private Entity spawnWatched(WorldFixture world) {
        seenMoves.clear();
        Entity e;
        // the start is watched through the record the trait makes: the observer sees the spawn enter the initial states
        StateRecord<C> trait = cfg.newRecord();
        watched = Access.record(trait);
        try {
            e = cfg.spawn(world, trait);
        } finally {
            watched = null;
        }
        return e;
    }

    /** A fresh entity given the node's inputs; {@code null} (noted) when they throw. */
    private Entity replay(WorldFixture world, Node node) {
        Entity e = cfg.spawn(world, cfg.newRecord());
        try {
            for (PathStep s : node.path()) {
                simulated += s.steps();
                cfg.apply(world, e, s);
            }
            return e;
        } catch (RuntimeException | Error x) {
            problems.add("replaying " + new MachinePath(start, node.path(), List.of()).name() + " threw " + x);
            world.world().despawn(e);
            return null;
        }
    }

    private List<String> leavesOf(Node node) {
        return node.path().isEmpty() ? start : node.path().get(node.path().size() - 1).leaves();
    }

    private static String describe(Object input) {
        if (input instanceof Event e) {
            return "event " + e.type();
        }
        return input instanceof String g ? "[" + g + "]" : "a wait";
    }

    /** What makes two runs the same state: the active leaves, each history's memory, and the previous leaf where a move goes to {@code $back}. */
    private String key(StateRecord<C> r) {
        StringBuilder sb = new StringBuilder(String.join("|", leaves(r)));
        for (int s = 1; s < c.size; s++) {
            if (c.type[s] == StateType.HISTORY) {
                sb.append(';').append(String.join("|", r.remembered(c.path[s])));
            }
        }
        if (moves.anyBack) {
            sb.append(";back=").append(r.previous());
        }
        return sb.append(r.isDone() ? ";done" : "").toString();
    }

    /** A record's active leaves, as a path's steps write them. */
    static List<String> leaves(StateRecord<?> r) {
        return List.copyOf(r.leaves());
    }

    /** Every active state of a record (ancestors included), outermost first, as dotted paths. */
    static List<String> activeStates(Chart c, StateRecord<?> r) {
        Set<Integer> all = new java.util.TreeSet<>();
        for (String leaf : r.leaves()) {
            for (int s = c.stateAt(leaf); s > 0; s = c.parent[s]) {
                all.add(s);
            }
        }
        List<String> out = new ArrayList<>();
        for (int s : all) {
            out.add(c.path[s]);
        }
        return out;
    }

    // ------------------------------------------------------------------ results

    Map<String, MachinePath> toStates() {
        Map<String, MachinePath> out = new LinkedHashMap<>();
        for (int s = 1; s < c.size; s++) {
            if (statePath[s] != null) {
                out.put(c.path[s], statePath[s]);
            }
        }
        return out;
    }

    Map<String, MachinePath> toTransitions() {
        Map<String, MachinePath> out = new LinkedHashMap<>();
        for (int m = 0; m < moves.count; m++) {
            if (movePath[m] != null) {
                String name = moves.describe(c, m);
                out.put(out.containsKey(name) ? name + " #" + m : name, movePath[m]);
            }
        }
        return out;
    }

    List<MachinePath> covering() {
        List<MachinePath> all = new ArrayList<>();
        List<List<String>> reaches = new ArrayList<>();
        collect(all, reaches, toStates(), "state ");
        collect(all, reaches, toTransitions(), "transition ");
        collect(all, reaches, undeclared, "undeclared move ");
        Integer[] order = new Integer[all.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> all.get(b).steps().size() - all.get(a).steps().size());
        List<MachinePath> kept = new ArrayList<>();
        List<List<String>> keptReaches = new ArrayList<>();
        for (int i : order) {
            MachinePath p = all.get(i);
            int into = -1;
            for (int k = 0; k < kept.size() && into < 0; k++) {
                if (kept.get(k).startsWith(p)) {
                    into = k;
                }
            }
            if (into < 0) {
                kept.add(p);
                keptReaches.add(new ArrayList<>(reaches.get(i)));
            } else {
                keptReaches.get(into).addAll(reaches.get(i));
            }
        }
        List<MachinePath> out = new ArrayList<>();
        for (int k = 0; k < kept.size(); k++) {
            out.add(new MachinePath(kept.get(k).start(), kept.get(k).steps(), keptReaches.get(k)));
        }
        return out;
    }

    private static void collect(List<MachinePath> all, List<List<String>> reaches, Map<String, MachinePath> paths, String what) {
        paths.forEach((name, p) -> {
            all.add(p);
            reaches.add(List.of(what + name));
        });
    }

    List<Unreached> unreached() {
        List<Unreached> out = new ArrayList<>();
        for (int s = 1; s < c.size; s++) {
            if (statePath[s] == null && c.type[s] != StateType.HISTORY) {
                out.add(new Unreached(c.path[s], stateReason(s)));
            }
        }
        for (int m = 0; m < moves.count; m++) {
            if (movePath[m] == null) {
                out.add(new Unreached(moves.describe(c, m), moveReason(m)));
            }
        }
        if (!problems.isEmpty() && !out.isEmpty()) {
            out.add(new Unreached("(the search)", "some inputs threw and were not followed: " + String.join("; ",
                    problems.subList(0, Math.min(5, problems.size()))) + (problems.size() > 5 ? "; and " + (problems.size() - 5) + " more" : "")));
        }
        return out;
    }

    private String stopNote() {
        if (!stopped) {
            return "";
        }
        return simulated >= MAX_SIMULATED_STEPS
                ? " (the search stopped after running " + simulated + " fixed steps, its bound; a shorter horizon or a longer step searches further)"
                : " (the search stopped after " + visited + " states, maxStates; raise it to look further)";
    }

    private String stateReason(int s) {
        List<String> into = new ArrayList<>();
        for (int m = 0; m < moves.count; m++) {
            for (int t : moves.targets[m]) {
                if (t == s || c.isDescendant(t, s) || entersByDefault(t, s)) {
                    into.add(moves.describe(c, m));
                    break;
                }
            }
        }
        if (into.isEmpty()) {
            return c.byStyle("no transition leads into it", "no transition leads into it",
                    "no handler is declared to return it (transitionsTo)") + " and no path moved there" + stopNote();
        }
        return "no path takes a transition into it: " + String.join(", ", into.subList(0, Math.min(3, into.size())))
                + (into.size() > 3 ? " and " + (into.size() - 3) + " more" : "") + stopNote();
    }

    /** Whether an event the search sent matches a transition's event: its type, or a wildcard ({@code *}, {@code sensor.*}). */
    private boolean wasSent(String pattern) {
        for (String type : sent) {
            if (type.equals(pattern) || pattern.equals("*")
                    || pattern.endsWith(".*") && type.startsWith(pattern.substring(0, pattern.length() - 1))) {
                return true;
            }
        }
        return false;
    }

    /** Whether entering {@code t} enters {@code s} as its initial descendant. */
    private boolean entersByDefault(int t, int s) {
        if (!c.isDescendant(s, t)) {
            return false;
        }
        for (int a = s; a != t; a = c.parent[a]) {
            int p = c.parent[a];
            if (c.type[p] != StateType.PARALLEL && c.initialChild[p] != a) {
                return false;
            }
        }
        return true;
    }

    private String moveReason(int m) {
        int s = moves.source[m];
        String source = "'" + c.describe(s) + "'";
        if (s > 0 && statePath[s] == null) {
            return "its source " + source + " is never reached" + stopNote();
        }
        String guard = moves.guard[m];
        String supply = "give the generator an event with the fields it reads (event(Event.of(...).with(...))) or a context"
                + " change (given(name, change))";
        if (moves.kind[m] == Moves.Kind.EVENT && !wasSent(moves.event[m])) {
            return moves.event[m].startsWith("xstate.done.actor.") || moves.event[m].startsWith("done.invoke.")
                    ? source + " was reached but no event matching " + moves.event[m] + " was sent: it comes when a child of the"
                    + " machine finishes, and the search sends no event to children"
                    : source + " was reached but no event matching " + moves.event[m] + " was sent: the generator sends each event"
                    + " the machine names, bare, but no wildcard and no xstate.* or done.* event; give it one with event(Event.of(...))";
        }
        return switch (moves.kind[m]) {
            case EVENT -> guard != null && guardThrew.containsKey(moves.event[m])
                    ? source + " was reached, but its guard '" + guard + "' threw for the " + moves.event[m] + " events tried ("
                    + guardThrew.get(moves.event[m]) + "); " + supply
                    : guard != null
                    ? source + " was reached and " + moves.event[m] + " sent, but its guard '" + guard + "' never passed; " + supply
                    : source + " was reached and " + moves.event[m] + " sent, but another transition always took it first"
                    + " (an inner state's, or one declared before it)";
            case EVENT_HANDLER -> source + " was reached but " + moves.event[m] + " was never handled there (an inner state takes it)";
            case WAIT -> waitsBeyond[s]
                    ? source + " did not move by itself within the horizon of " + PathStep.seconds(horizon)
                    + " s; horizon(seconds) looks further"
                    : source + " was always left, or moved otherwise, before its wait ended";
            case WHEN, POLL, EVENTLESS -> source + " was reached but its " + (moves.kind[m] == Moves.Kind.EVENTLESS ? "guard" : "test")
                    + " '" + (guard != null ? guard : "test") + "' never held, or another move came first, within "
                    + PathStep.seconds(horizon) + " s; give a context change (given(name, change)) that makes it hold";
            case DONE -> source + " was reached but never finished: no path reached its final state";
            case HANDLER -> source + " was reached but its handler never returned '" + c.describe(moves.targets[m][0]) + "' within "
                    + PathStep.seconds(horizon) + " s with the changes given; give a context change (given(name, change)) that makes it";
        };
    }
}

package dev.enginestates;

import dev.enginestates.declare.Condition;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.declare.Named;
import dev.enginestates.declare.NodeBuilder;
import dev.enginestates.declare.SelfAction;
import dev.enginestates.declare.SelfGuard;
import dev.enginestates.declare.SelfSeconds;
import dev.enginestates.declare.StateGuard;
import dev.enginestates.declare.StatesBuilder;
import dev.enginestates.declare.TransitionBuilder;
import dev.enginestates.declare.UnknownEvents;
import dev.enginestates.fsm.StateMachineBuilder;
import dev.enginestates.fsm.StateMachineDefinition;
import dev.enginestates.fsm.AIContext;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Random machines of the three declaration styles, for the diagram and export property tests.
 * The XState-style ones have every kind of state and every kind of transition the chart holds:
 * compound, parallel, final and history states (with and without defaults), explicit ids,
 * transitions on events with guards, actions, {@code reenter}, no target or several targets,
 * {@code always}, {@code onDone}, waits of constant and computed seconds, {@code when} rules,
 * the machine's own transitions; their code is named ({@link Named}) or not, and some of it is
 * shared between places. The context is a log the actions write to.
 */
public final class RandomStatecharts {
    public static final String[] EVENTS = {"E0", "E1", "E2", "E3", "E4", "E5"};

    private RandomStatecharts() {
    }

    enum Kind { ATOMIC, COMPOUND, PARALLEL, FINAL, HISTORY }

    static final class Node {
        final String key;
        final Node parent;
        final Kind kind;
        final List<Node> kids = new ArrayList<>();
        String id;
        boolean deep;
        Node historyDefault;
        Node initial;

        Node(String key, Node parent, Kind kind) {
            this.key = key;
            this.parent = parent;
            this.kind = kind;
        }

        String path() {
            return parent == null ? "" : parent.parent == null ? key : parent.path() + "." + key;
        }

        boolean regular() {
            return kind != Kind.HISTORY;
        }

        boolean inside(Node ancestor) {
            for (Node a = parent; a != null; a = a.parent) {
                if (a == ancestor) {
                    return true;
                }
            }
            return false;
        }
    }

    // ------------------------------------------------------------------ XState style

    /** A random XState-style machine, the same for the same seed. */
    public static Machine<List<String>> statechart(long seed) {
        return new Statechart("rand" + seed, seed, false, NOTHING).machine;
    }

    /**
     * What a wrapper adds to a random statechart, after the generator's own declarations: the
     * machine's, and each compound, parallel or atomic state's. It draws from its own generator,
     * so the same seed gives the same chart with it as without it.
     */
    public interface Additions {
        /** Called last in the machine's declaration. */
        default void machine(dev.enginestates.declare.MachineBuilder<List<String>> m) {
        }

        /**
         * Called last in a state's declaration.
         *
         * @param s      the state's builder
         * @param path   its dotted path from the root
         * @param atomic whether it has no children
         */
        default void state(dev.enginestates.declare.StateBuilder<List<String>> s, String path, boolean atomic) {
        }
    }

    private static final Additions NOTHING = new Additions() {
    };

    /** A random XState-style machine like {@link #statechart(long)}, with the id given and what {@code additions} declare. */
    public static Machine<List<String>> statechart(String id, long seed, Additions additions) {
        return new Statechart(id, seed, false, additions).machine;
    }

    /**
     * A random XState-style machine like {@link #statechart}, but whose root is compound and whose
     * transitions inside a parallel state mostly stay inside it, so that the states transitions taken
     * together in several regions can change are a part of the machine, not all of it.
     */
    public static Machine<List<String>> nearbyStatechart(long seed) {
        return new Statechart("near" + seed, seed, true, NOTHING).machine;
    }

    private static final class Statechart {
        final SplittableRandom r;
        final String id;
        final Node root;
        final List<Node> all = new ArrayList<>();
        final List<Node> waiting = new ArrayList<>();
        final Machine<List<String>> machine;
        final boolean nearby;
        final Additions additions;
        int ids;
        // code shared between places: one name in the export for all of them
        final SelfAction<List<String>> sharedAction = (log, e, self) -> log.add("shared");
        final SelfGuard<List<String>> sharedGuard = (log, e, self) -> log.size() % 3 != 0;
        final SelfAction<List<String>> namedAction = Named.action("tick", (log, e) -> log.add("tick"));
        final SelfGuard<List<String>> namedGuard = Named.guard("isOk", (log, e) -> e.isTrue("ok"));
        final SelfGuard<List<String>> namedTest = Named.condition("even", log -> log.size() % 2 == 0);
        final SelfSeconds<List<String>> namedSeconds = Named.seconds("quarter", log -> 0.25);

        Statechart(String id, long seed, boolean nearby, Additions additions) {
            r = new SplittableRandom(seed);
            this.nearby = nearby;
            this.additions = additions;
            this.id = id;
            root = new Node("", null, r.nextInt(6) == 0 && !nearby ? Kind.PARALLEL : Kind.COMPOUND);
            grow(root, 0);
            machine = Machine.define(id, ArrayList::new, m -> {
                m.unknownEvents(r.nextBoolean() ? UnknownEvents.ACCEPT : UnknownEvents.REJECT);
                if (root.kind == Kind.PARALLEL) {
                    m.parallel();
                }
                fill(m, root);
                // the machine's own: a child of the root after a dot
                m.on("E5", t -> t.target("." + root.kids.get(0).key).action(action("(root)")));
                if (r.nextInt(3) == 0) {
                    m.on(EVENTS[r.nextInt(5)], t -> transition(t, root));
                }
                additions.machine(m);
            });
        }

        private void grow(Node node, int depth) {
            boolean parallel = node.kind == Kind.PARALLEL;
            int regular = 2 + r.nextInt(parallel ? 2 : 3);
            for (int i = 0; i < regular; i++) {
                Kind kind = Kind.ATOMIC;
                if (parallel) {
                    kind = r.nextInt(5) == 0 ? Kind.ATOMIC : Kind.COMPOUND;
                } else if (depth < 3 && r.nextInt(depth == 0 ? 2 : 4) == 0) {
                    kind = r.nextInt(4) == 0 && depth < 2 ? Kind.PARALLEL : Kind.COMPOUND;
                }
                if (depth >= 3 && kind != Kind.ATOMIC) {
                    kind = Kind.ATOMIC;
                }
                add(node, new Node("c" + i, node, kind));
                if (kind == Kind.COMPOUND || kind == Kind.PARALLEL) {
                    grow(node.kids.get(node.kids.size() - 1), depth + 1);
                }
            }
            if (!parallel && r.nextInt(depth == 0 ? 5 : 2) == 0) {
                add(node, new Node(r.nextBoolean() ? "done" : "f", node, Kind.FINAL));
            }
            if (!parallel && r.nextInt(3) == 0) {
                // an initial state other than the first, never the final one
                node.initial = node.kids.get(r.nextInt(regular));
            }
            if (depth > 0 && r.nextInt(3) == 0) {
                Node h = new Node("hist", node, Kind.HISTORY);
                h.deep = r.nextBoolean();
                if (r.nextBoolean()) {
                    List<Node> options = new ArrayList<>();
                    for (Node n : all) {
                        if (n.regular() && (h.deep ? n.inside(node) : n.parent == node)) {
                            options.add(n);
                        }
                    }
                    h.historyDefault = options.get(r.nextInt(options.size()));
                }
                add(node, h);
            }
        }

        private void add(Node parent, Node n) {
            parent.kids.add(n);
            all.add(n);
            if (r.nextBoolean()) {
                n.id = "S" + ids++;
            }
        }

        /** A text the compiler resolves to {@code n}: its id, the machine's id and its path, or its key or path from nearby. */
        private String target(Node from, Node n) {
            int how = r.nextInt(3);
            if (how == 0 && from != root && from.parent == n.parent) {
                return n.key;
            }
            if (how == 1 && n.inside(from)) {
                String rel = n.path().substring(from == root ? 0 : from.path().length() + 1);
                return "." + rel;
            }
            return n.id != null ? "#" + n.id : "#" + id + (n == root ? "" : "." + n.path());
        }

        private <B extends NodeBuilder<List<String>, B>> void fill(NodeBuilder<List<String>, B> b, Node n) {
            if (n.id != null) {
                b.id(n.id);
            }
            if (n.kind == Kind.PARALLEL && n != root) {
                b.parallel();
            }
            if (n.initial != null) {
                b.initial(n.initial.key);
            }
            for (Node k : n.kids) {
                switch (k.kind) {
                    case FINAL:
                        b.finalState(k.key, s -> {
                            if (k.id != null) {
                                s.id(k.id);
                            }
                            if (r.nextBoolean()) {
                                s.entry(action(k.path() + "/entry"));
                            }
                        });
                        break;
                    case HISTORY:
                        b.history(k.key, h -> {
                            h.depth(k.deep ? HistoryDepth.DEEP : HistoryDepth.SHALLOW);
                            if (k.id != null) {
                                h.id(k.id);
                            }
                            if (k.historyDefault != null) {
                                h.defaultTarget(r.nextBoolean() || k.historyDefault.id == null
                                        ? k.historyDefault.path().substring(n == root ? 0 : n.path().length() + 1)
                                        : "#" + k.historyDefault.id);
                            }
                        });
                        break;
                    default:
                        b.state(k.key, s -> decorate(s, k));
                }
            }
        }

        private void decorate(dev.enginestates.declare.StateBuilder<List<String>> s, Node n) {
            fill(s, n);
            for (int i = r.nextInt(3); i > 0; i--) {
                s.entry(action(n.path() + "/entry"));
            }
            for (int i = r.nextInt(2); i > 0; i--) {
                s.exit(action(n.path() + "/exit"));
            }
            for (int i = r.nextInt(4); i > 0; i--) {
                s.on(EVENTS[r.nextInt(5)], t -> transition(t, n));
            }
            if (r.nextInt(12) == 0) {
                // guarded so that it settles: it fires while the log is short
                s.always(t -> transition(t, n).guard((log, e) -> log.size() < 3));
            }
            if ((n.kind == Kind.COMPOUND || n.kind == Kind.PARALLEL) && r.nextInt(3) == 0) {
                Node to = regularOutside(n);
                s.onDone(t -> t.target(target(n, to)).action(action(n.path() + "/done")));
            }
            if (n.kind == Kind.ATOMIC && r.nextInt(3) == 0 && !activeWithAWait(n)) {
                waiting.add(n);
                Consumer<TransitionBuilder<List<String>>> then = r.nextInt(5) == 0
                        ? t -> t.target("#" + id + "." + n.path()).reenter().action(action(n.path() + "/wait"))
                        : t -> t.target(target(n, any(n)));
                int how = r.nextInt(4);
                if (how == 0) {
                    s.waitFor(r.nextBoolean() ? namedSeconds : (log, e, self) -> 0.1 * (log.size() % 4), then);
                } else {
                    double seconds = new double[] {0, 0.05, 0.1, 1 / 60.0, 0.5, 1, 2.5, 12}[r.nextInt(8)];
                    s.waitFor(seconds, then);
                }
            }
            if (r.nextInt(4) == 0) {
                for (int i = 1 + r.nextInt(2); i > 0; i--) {
                    int mod = 2 + r.nextInt(4);
                    Condition<List<String>> fresh = log -> log.size() % mod == 0;
                    SelfGuard<List<String>> test = r.nextInt(3) == 0 ? namedTest : fresh;
                    Node to = any(n);
                    if (r.nextBoolean()) {
                        s.when(test, target(n, to));
                    } else {
                        s.when(test, t -> t.target(target(n, to)).action(action(n.path() + "/when")).reenter(r.nextInt(4) == 0));
                    }
                }
            }
            additions.state(s, n.path(), n.kind == Kind.ATOMIC);
        }

        private TransitionBuilder<List<String>> transition(TransitionBuilder<List<String>> t, Node n) {
            int kind = r.nextInt(12);
            if (kind < 7) {
                t.target(target(n, any(n)));
                t.reenter(r.nextInt(5) == 0);
            } else if (kind < 9) {
                t.target(n == root ? "#" + id : "#" + id + "." + n.path()).reenter();
            } else if (kind == 9) {
                Node[] two = twoRegions();
                if (two != null) {
                    t.target(target(n, two[0]), target(n, two[1]));
                }
            } // else targetless
            int guard = r.nextInt(5);
            if (guard == 1) {
                boolean flag = r.nextBoolean();
                t.guard((log, e) -> flag == e.isTrue("ok"));
            } else if (guard == 2) {
                t.guard(sharedGuard);
            } else if (guard == 3) {
                t.guard(namedGuard);
            }
            for (int i = r.nextInt(3); i > 0; i--) {
                t.action(action(n.path() + "/t"));
            }
            return t;
        }

        private SelfAction<List<String>> action(String label) {
            int how = r.nextInt(4);
            if (how == 0) {
                return sharedAction;
            }
            if (how == 1) {
                return namedAction;
            }
            return (log, e, self) -> log.add(label);
        }

        private Node any() {
            return all.get(r.nextInt(all.size()));
        }

        /** A target for a transition of {@code from}: any state, or for a nearby machine mostly one inside its outermost parallel ancestor. */
        private Node any(Node from) {
            Node parallel = null;
            for (Node a = from.parent; nearby && a != null; a = a.parent) {
                parallel = a.kind == Kind.PARALLEL ? a : parallel;
            }
            if (parallel == null || r.nextInt(8) == 0) {
                return any();
            }
            List<Node> inside = new ArrayList<>();
            for (Node x : all) {
                if (x.inside(parallel)) {
                    inside.add(x);
                }
            }
            return inside.get(r.nextInt(inside.size()));
        }

        private Node regularOutside(Node n) {
            List<Node> options = new ArrayList<>();
            for (Node x : all) {
                if (x.kind != Kind.HISTORY && x.kind != Kind.FINAL && !x.inside(n) && x != n) {
                    options.add(x);
                }
            }
            return options.isEmpty() ? root.kids.get(0) : options.get(r.nextInt(options.size()));
        }

        /** Two states in different regions of one parallel state, or {@code null} when the machine has none. */
        private Node[] twoRegions() {
            List<Node> parallels = new ArrayList<>();
            for (Node x : all) {
                if (x.kind == Kind.PARALLEL) {
                    parallels.add(x);
                }
            }
            if (root.kind == Kind.PARALLEL) {
                parallels.add(root);
            }
            if (parallels.isEmpty()) {
                return null;
            }
            Node p = parallels.get(r.nextInt(parallels.size()));
            Node a = p.kids.get(0);
            Node b = p.kids.get(1);
            return new Node[] {deepest(a), deepest(b)};
        }

        private Node deepest(Node n) {
            Node at = n;
            while (!at.kids.isEmpty() && r.nextBoolean()) {
                Node k = at.kids.get(r.nextInt(at.kids.size()));
                if (k.kind == Kind.HISTORY) {
                    break;
                }
                at = k;
            }
            return at;
        }

        private boolean activeWithAWait(Node n) {
            for (Node w : waiting) {
                Node lca = lca(n, w);
                if (lca != n && lca != w && lca.kind == Kind.PARALLEL) {
                    return true;
                }
            }
            return false;
        }

        private static Node lca(Node a, Node b) {
            List<Node> up = new ArrayList<>();
            for (Node x = a; x != null; x = x.parent) {
                up.add(x);
            }
            for (Node y = b; y != null; y = y.parent) {
                if (up.contains(y)) {
                    return y;
                }
            }
            throw new IllegalStateException("no common ancestor");
        }
    }

    // ------------------------------------------------------------------ polled style

    /** A guard of the polled style with a name of the game's own: a class that implements {@link Named}. */
    public static final class NamedTo implements StateGuard<Object>, Named {
        private final String name;

        public NamedTo(String name) {
            this.name = name;
        }

        @Override
        public boolean test(Object ctx, double t) {
            return t > 1;
        }

        @Override
        public String name() {
            return name;
        }
    }

    /**
     * A random tree of {@code count} states below the root, nested at most three deep, for a polled
     * table: {@code paths} gets each state's dotted path (the root's {@code ""} first), {@code kids}
     * each state's children by index.
     */
    public static void polledTree(SplittableRandom r, int count, List<String> paths, List<List<Integer>> kids) {
        List<Integer> depth = new ArrayList<>();
        paths.add("");
        depth.add(0);
        kids.add(new ArrayList<>());
        for (int i = 0; i < count; i++) {
            int p = r.nextInt(3) == 0 ? 0 : r.nextInt(paths.size());
            if (depth.get(p) >= 3) {
                p = 0;
            }
            paths.add(p == 0 ? "s" + i : paths.get(p) + ".s" + i);
            depth.add(depth.get(p) + 1);
            kids.add(new ArrayList<>());
            kids.get(p).add(paths.size() - 1);
        }
    }

    /** A random polled table: nested states, {@code to} guards, {@code after}, events, handlers, updates, {@code $back}. */
    public static StatesDef<Object> polled(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<String> paths = new ArrayList<>();
        List<List<Integer>> kids = new ArrayList<>();
        polledTree(r, 1 + r.nextInt(10), paths, kids);
        return StatesDef.define("polled" + seed, Object::new, d -> polledState(d, 0, r, paths, kids));
    }

    private static void polledState(StatesBuilder<Object> b, int s, SplittableRandom r, List<String> paths, List<List<Integer>> kids) {
        if (s == 0) {
            b.unknownEvents(UnknownEvents.ACCEPT);
        }
        java.util.Set<String> tos = new java.util.HashSet<>();
        for (int i = r.nextInt(3); i > 0; i--) {
            String to = paths.get(1 + r.nextInt(paths.size() - 1));
            if (tos.add(to)) {
                b.to(to, r.nextBoolean() ? new NamedTo("later") : (ctx, t) -> t > 2);
            }
        }
        if (s > 0 && r.nextInt(3) == 0) {
            b.after(new double[] {0.2, 1, 6}[r.nextInt(3)], r.nextInt(3) == 0 ? "$back" : paths.get(1 + r.nextInt(paths.size() - 1)));
        }
        if (r.nextInt(3) == 0) {
            int how = r.nextInt(3);
            String event = EVENTS[r.nextInt(4)];
            if (how == 0) {
                b.on(event, (ctx, args) -> null);
            } else {
                b.on(event, how == 1 ? "$back" : paths.get(1 + r.nextInt(paths.size() - 1)));
            }
        }
        if (r.nextInt(5) == 0) {
            b.update((ctx, dt, t) -> null);
        }
        for (int k : kids.get(s)) {
            String key = paths.get(k).substring(paths.get(k).lastIndexOf('.') + 1);
            b.state(key, c -> polledState(c, k, r, paths, kids));
        }
    }

    // ------------------------------------------------------------------ builder style

    /** The builder style's context for {@link #builder}. */
    public static final class Actor extends AIContext {
        /** A fresh actor, as the machine's factory makes one. */
        public Actor() {
        }
    }

    /** A random builder-style machine: flat states with durations, delays, tags and windows. */
    public static StateMachineDefinition<Actor> builder(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        StateMachineBuilder<Actor> b = new StateMachineBuilder<>("built" + seed, Actor::new);
        int n = 1 + r.nextInt(6);
        int initial = r.nextInt(n);
        for (int s = 0; s < n; s++) {
            var config = b.configureState("S" + s);
            if (s == initial) {
                config.asInitial();
            }
            if (r.nextBoolean()) {
                config.duration(0.5f + r.nextInt(4) / 4f);
                if (r.nextBoolean()) {
                    config.window("hit", 0.25f, 0.5f);
                }
                if (r.nextBoolean()) {
                    config.window("combo", 0.6f, 1f);
                }
            }
            if (r.nextInt(3) == 0) {
                config.tag(r.nextBoolean() ? "attack" : "move");
            }
            if (r.nextInt(4) == 0) {
                config.delay(0.1f * r.nextInt(4));
            }
            int states = n;
            config.handler((c, dt) -> "S" + (int) (c.timeInState() * 7) % states);
        }
        return b.build();
    }

    // ------------------------------------------------------------------ mostly plain (the interpreter's fast path)

    /** The events {@link #mostlyPlain} machines take. */
    public static final String[] PLAIN_EVENTS = {"E0", "E1", "E2", "E3"};

    /** A machine whose transitions are mostly plain: few actions; some history, finals and done transitions, seconds functions, eventless transitions. */
    public static Machine<List<String>> mostlyPlain(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<String> ids = new ArrayList<>();
        boolean eventless = r.nextInt(10) == 0;
        return Machine.define("plain" + seed, ArrayList::new, m -> {
            m.unknownEvents(UnknownEvents.ACCEPT);
            fillPlain(m, r, 0, "root", ids, false, false, eventless);
        });
    }

    private static <B extends NodeBuilder<List<String>, B>> void fillPlain(NodeBuilder<List<String>, B> node, SplittableRandom r,
            int depth, String path, List<String> ids, boolean parallel, boolean inRegion, boolean eventless) {
        int children = 2 + r.nextInt(3);
        for (int i = 0; i < children; i++) {
            String key = "c" + i;
            String childPath = path + "." + key;
            String id = "S" + ids.size();
            ids.add(id);
            if (!parallel && i == children - 1 && r.nextInt(depth > 0 ? 4 : 8) == 0) {
                node.finalState(key, f -> f.id(id)); // at the top, the machine's end
                continue;
            }
            boolean compound = depth < 3 && r.nextInt(depth == 0 ? 2 : 3) == 0;
            boolean isParallel = compound && r.nextInt(4) == 0;
            node.state(key, s -> {
                s.id(id);
                if (r.nextInt(8) == 0) {
                    s.entry((log, e) -> log.add("en_" + childPath));
                }
                if (r.nextInt(8) == 0) {
                    s.exit((log, e) -> log.add("ex_" + childPath));
                }
                if (compound) {
                    if (isParallel) {
                        s.parallel();
                    }
                    // a history with an id its children may target: a parallel state's history taken from one of
                    // its regions leaves the regions active without it (XState's dynamic domain)
                    String historyId = r.nextInt(4) == 0 ? "S" + ids.size() : null;
                    if (historyId != null) {
                        ids.add(historyId);
                    }
                    fillPlain(s, r, depth + 1, childPath, ids, isParallel, inRegion || isParallel, eventless);
                    if (historyId != null) {
                        HistoryDepth historyDepth = r.nextBoolean() ? HistoryDepth.DEEP : HistoryDepth.SHALLOW;
                        s.history("h", h -> h.id(historyId).depth(historyDepth));
                    }
                    if (r.nextInt(2) == 0) {
                        String target = "#S" + r.nextInt(ids.size());
                        s.onDone(t -> t.target(target)); // taken by the done event a final child raises
                    }
                } else if (!inRegion && r.nextInt(2) == 0) {
                    // a machine counts one wait at a time: none in parallel regions, so no two can be active together
                    String target = r.nextInt(4) == 0 ? "#" + id : "#S" + r.nextInt(ids.size());
                    boolean reenter = target.equals("#" + id);
                    if (r.nextInt(8) == 0) {
                        s.waitFor((log, e, self) -> 0.25 * (1 + log.size() % 3), t -> t.target(target).reenter(reenter));
                    } else {
                        double seconds = new double[] {0, 0.1, 0.25, 1 / 60.0, 1}[r.nextInt(5)];
                        s.waitFor(seconds, t -> t.target(target).reenter(reenter));
                    }
                }
                if (eventless && !compound && r.nextInt(4) == 0) {
                    // fires on entry until the log's length is 2 modulo 3: at most twice in a row
                    String target = "#S" + r.nextInt(ids.size());
                    s.always(t -> t.target(target).guard((log, e) -> log.size() % 3 != 2).action((log, e) -> log.add("always_" + childPath)));
                }
                for (int k = r.nextInt(3); k > 0; k--) {
                    String label = "t_" + childPath + "_" + k;
                    String event = PLAIN_EVENTS[r.nextInt(PLAIN_EVENTS.length)];
                    int kind = r.nextInt(10);
                    s.on(event, t -> {
                        if (kind < 7) {
                            t.target("#S" + r.nextInt(ids.size()));
                        } else if (kind == 7) {
                            t.target("#" + id).reenter();
                        } else if (kind == 8 && ids.size() > 1) {
                            t.target("#S" + r.nextInt(ids.size())).reenter();
                        }
                        if (r.nextInt(6) == 0) {
                            t.action((log, e) -> log.add(label));
                        }
                    });
                }
            });
        }
    }
}

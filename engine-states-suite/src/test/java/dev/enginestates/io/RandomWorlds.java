package dev.enginestates.io;

import dev.enginestates.records.Access;
import dev.enginestates.records.RecordDifference;
import dev.dominion.ecs.api.Entity;
import dev.dominion.ecs.api.Results;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.declare.NodeBuilder;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.MachinePaused;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * A seeded generator of random worlds for the I/O tests: random machines (compound and
 * parallel states, final states with {@code onDone}, shallow and deep history with and
 * without a default target, waits of constant and context-computed seconds, {@code when}
 * rules reading a context counter, transitions with guards reading event fields, actions that
 * increment context fields, {@code reenter}, targetless {@code always} rules, entry actions and
 * computed waits that draw from the machine's own random numbers), the keyed
 * entities that hold them, and a random list of inputs (sends of events with fields, steps of
 * 1/60 s, states set by hand, {@link MachinePaused} and {@code heldBy} markers added and
 * removed, spawns and despawns of keyed entities).
 *
 * <p>Everything random is drawn while the {@link Spec} is generated, but for the machines' own
 * draws ({@code self.random()}), which their records carry; so two worlds built from one spec and fed the
 * same inputs must end with the same records. The generator never makes an eventless cycle
 * (finals are never initial; {@code onDone} never targets a history or final state; an
 * {@code always} rule only acts, and its action makes its own guard false) and never sends an
 * event a machine does not know, so every exception during a run is a finding.
 */
final class RandomWorlds {
    /** The fixed step. */
    static final double DT = 1.0 / 60;

    private RandomWorlds() {
    }

    /** The Dominion names of the random worlds, whose sizes are set below: with tags, and without. */
    static final String TAGGED = "iotagged";
    static final String UNTAGGED = "iountagged";

    static {
        // Dominion's default (MEDIUM) gives every composition (each set of component types, so
        // each set of tags) chunks of 4096 slots times the square of its component count, and
        // every world an index of 2^(31 - chunk bits) chunks: for these small, short-lived
        // worlds, hundreds of MB each. The chunk size changes no behaviour of a world.
        System.setProperty("dominion." + TAGGED + ".chunk-bit", "10");
        System.setProperty("dominion." + UNTAGGED + ".chunk-bit", "13");
    }

    /** A fresh, empty world, its Dominion sized for machines with tags or without. */
    static StateWorld freshWorld(boolean tagged) {
        return StateWorld.create(tagged ? TAGGED : UNTAGGED);
    }

    /** Makes Dominion quiet (the static initializer does it); call before the first world. */
    static void quiet() {
        // the class initializer has run once this method is called
    }

    /** The context of every random machine: a public class, public fields, a no-argument constructor. */
    public static final class Ctx {
        /** The counter that {@code when} rules and computed waits read; actions increment it. */
        public int n;
        /** Entry actions run. */
        public int entries;
        /** Exit actions run. */
        public int exits;
        /** The sum of the events' {@code amount} fields (transition actions). */
        public double total;
        /** The counter the {@code always} rules read and increment. */
        public int a;
        /** Transition actions run. */
        public int taken;

        public Ctx() {
        }
    }

    /** A component that holds, alone, the random machines declared {@code heldBy(Stunned.class)}. */
    public static final class Stunned {
        @Override
        public String toString() {
            return "Stunned";
        }
    }

    /** How the spec is drawn. */
    static final class Options {
        boolean marks = true;
        boolean spawns = true;
        boolean despawns = true;
        boolean setStates = true;
        /**
         * Whether one machine may have both waits and {@code when} rules. Off by default: a
         * {@code when} rule that leaves a state whose wait began in the same step (at the due
         * time of the wait before it) writes negative paused seconds (see
         * CheckpointRoundTripTest's disabled BUG tests).
         */
        boolean whensBesideWaits = false;
        /** One machine in this many has tags (each tag set is a Dominion composition, which costs memory). */
        int tagsOneIn = 6;
        /**
         * Machine sets are drawn from this many seeds and reused by the runs (entities, inputs
         * and cut still differ per run): defining a machine compiles it and makes a hidden class
         * per state, which {@code States} keeps for the life of the JVM. 0: a new set per run.
         */
        int machinePool = 250;
        int minInputs = 80;
        int maxInputs = 260;
        /** One machine in this many is declared {@code ownerOnly()} (decided by its id, drawing nothing); 0: none. */
        int ownerOnlyOneIn;

        Options marks(boolean v) {
            marks = v;
            return this;
        }

        Options spawns(boolean v) {
            spawns = v;
            despawns = v;
            return this;
        }

        Options despawns(boolean v) {
            despawns = v;
            return this;
        }

        Options whensBesideWaits(boolean v) {
            whensBesideWaits = v;
            return this;
        }

        Options machinePool(int n) {
            machinePool = n;
            return this;
        }

        Options tagsOneIn(int n) {
            tagsOneIn = n;
            return this;
        }

        Options ownerOnlyOneIn(int n) {
            ownerOnlyOneIn = n;
            return this;
        }

        Options inputs(int min, int max) {
            minInputs = min;
            maxInputs = max;
            return this;
        }
    }

    // ------------------------------------------------------------------ the machine model

    enum Kind { ATOMIC, COMPOUND, PARALLEL, FINAL, HISTORY }

    /** One state of a random machine, drawn first as data so that any state may target any other. */
    static final class Node {
        final String key;
        final String path;
        final String id;
        final Kind kind;
        final Node parent;
        final List<Node> kids = new ArrayList<>();
        // history
        boolean deep;
        String historyDefault;
        // features
        double waitConst = Double.NaN;
        int waitMod;
        double waitBase;
        String waitTarget;
        boolean waitReenter;
        final List<Tr> on = new ArrayList<>();
        final List<int[]> whens = new ArrayList<>(); // {mod, rest, targetIndex}
        final List<String> whenTargets = new ArrayList<>();
        String onDoneTarget;
        boolean always;
        int entryAdd;
        int exitAdd;

        Node(String key, Node parent, String id, Kind kind) {
            this.key = key;
            this.parent = parent;
            this.path = parent == null ? "" : parent.path.isEmpty() ? key : parent.path + "." + key;
            this.id = id;
            this.kind = kind;
        }

        boolean regular() {
            return kind != Kind.HISTORY;
        }

        @Override
        public String toString() {
            return path + "(" + kind + ")";
        }
    }

    /** A transition on an event. */
    static final class Tr {
        String event;
        String target; // null: targetless
        boolean reenter;
        int guard; // 0 none, 1 amount >= k, 2 ok true, 3 ok not true, 4 tag equals
        int guardArg;
        String guardTag;
        boolean addAmount;
    }

    static final String[] EVENTS = {"E0", "E1", "E2", "E3", "E4"};
    static final String[] TAGS = {"red", "blue"};

    /** A random machine's model and its binding. */
    static final class RandomMachine {
        final String id;
        final Node root;
        final List<Node> all = new ArrayList<>();
        boolean tags = true;
        boolean heldByStunned;
        boolean ownerOnly;
        States<Ctx> states;

        RandomMachine(String id, Kind rootKind) {
            this.id = id;
            this.root = new Node("", null, null, rootKind);
        }

        List<Node> regular() {
            List<Node> out = new ArrayList<>();
            for (Node n : all) {
                if (n.regular()) {
                    out.add(n);
                }
            }
            return out;
        }
    }

    static RandomMachine randomMachine(SplittableRandom r, String id, Options o) {
        RandomMachine m = new RandomMachine(id, r.nextInt(8) == 0 ? Kind.PARALLEL : Kind.COMPOUND);
        growChildren(r, m, m.root, 0, new int[] {0});
        boolean tagDraw = r.nextInt(Math.max(1, o.tagsOneIn)) == 0;
        m.tags = o.tagsOneIn != Integer.MAX_VALUE && tagDraw; // each tag set is a Dominion composition, which costs memory
        m.heldByStunned = r.nextInt(3) == 0;
        boolean waits = r.nextInt(3) != 0;
        decorate(r, m, m.root, waits || o.whensBesideWaits, !waits || o.whensBesideWaits);
        m.ownerOnly = o.ownerOnlyOneIn > 0 && Math.floorMod(id.hashCode(), o.ownerOnlyOneIn) == 0; // drawn from nothing: other draws stay
        build(m, m.root);
        return m;
    }

    private static void growChildren(SplittableRandom r, RandomMachine m, Node node, int depth, int[] counter) {
        boolean parallel = node.kind == Kind.PARALLEL;
        int regular = 2 + r.nextInt(parallel ? 2 : 3);
        for (int i = 0; i < regular; i++) {
            Kind kind = Kind.ATOMIC;
            boolean region = parallel;
            if (region || (depth < 3 && r.nextInt(depth == 0 ? 2 : 4) == 0)) {
                kind = r.nextInt(5) == 0 && depth < 2 ? Kind.PARALLEL : Kind.COMPOUND;
                if (region && depth >= 2) {
                    kind = Kind.COMPOUND;
                }
            }
            Node child = new Node("c" + i, node, "S" + counter[0]++, kind);
            node.kids.add(child);
            m.all.add(child);
            if (kind != Kind.ATOMIC) {
                growChildren(r, m, child, depth + 1, counter);
            }
        }
        if (!parallel) {
            // a final state, never the initial one; at the top only sometimes (it ends the machine)
            if (r.nextInt(depth == 0 ? 6 : 2) == 0) {
                Node f = new Node("f", node, "S" + counter[0]++, Kind.FINAL);
                node.kids.add(f);
                m.all.add(f);
            }
            if (depth > 0 && r.nextInt(2) == 0) {
                Node h = new Node("h", node, "S" + counter[0]++, Kind.HISTORY);
                h.deep = r.nextBoolean();
                if (r.nextBoolean()) {
                    // a default target: a regular non-initial, non-final child, or deeper for a deep history
                    List<Node> options = new ArrayList<>();
                    for (Node k : node.kids) {
                        if (k.kind != Kind.FINAL && k.kind != Kind.HISTORY) {
                            options.add(k);
                        }
                    }
                    Node d = options.get(r.nextInt(options.size()));
                    String t = d.key;
                    if (h.deep && d.kind == Kind.COMPOUND && r.nextBoolean()) {
                        t = d.key + "." + d.kids.get(0).key;
                    }
                    h.historyDefault = t;
                }
                node.kids.add(h);
                m.all.add(h);
            }
        }
    }

    private static void decorate(SplittableRandom r, RandomMachine m, Node root, boolean waits, boolean whens) {
        List<Node> states = m.regular();
        List<Node> targets = new ArrayList<>(); // anything an event may lead to: regular or history
        List<Node> safe = new ArrayList<>(); // not final, not history: what onDone may lead to
        for (Node n : m.all) {
            targets.add(n);
            if (n.kind != Kind.FINAL && n.kind != Kind.HISTORY) {
                safe.add(n);
            }
        }
        List<Node> waiting = new ArrayList<>();
        for (Node n : states) {
            if (n.kind == Kind.FINAL) {
                n.entryAdd = r.nextInt(2);
                continue;
            }
            n.entryAdd = r.nextInt(3);
            n.exitAdd = r.nextInt(2);
            if (waits && n.kind == Kind.ATOMIC && r.nextInt(2) == 0 && !activeWithAny(n, waiting)) {
                waiting.add(n);
                if (r.nextInt(3) == 0) {
                    n.waitMod = 2 + r.nextInt(4);
                    n.waitBase = 0.05 + r.nextInt(40) * 0.0125;
                } else {
                    n.waitConst = r.nextInt(12) == 0 ? 0 : 0.05 + r.nextInt(100) * 0.0125;
                }
                int how = r.nextInt(7); // a wait needs a target
                if (how == 0) {
                    n.waitTarget = "#" + n.id;
                    n.waitReenter = true;
                } else {
                    n.waitTarget = "#" + targets.get(r.nextInt(targets.size())).id;
                    n.waitReenter = r.nextInt(6) == 0;
                }
            }
            if (whens && r.nextInt(whens && !waits ? 3 : 4) == 0) {
                int rules = 1 + r.nextInt(2);
                for (int k = 0; k < rules; k++) {
                    int mod = 2 + r.nextInt(5);
                    n.whens.add(new int[] {mod, r.nextInt(mod)});
                    n.whenTargets.add("#" + targets.get(r.nextInt(targets.size())).id);
                }
            }
            int count = r.nextInt(4);
            for (int k = 0; k < count; k++) {
                n.on.add(randomTransition(r, n, targets));
            }
            if ((n.kind == Kind.COMPOUND || n.kind == Kind.PARALLEL) && r.nextInt(2) == 0) {
                n.onDoneTarget = "#" + safe.get(r.nextInt(safe.size())).id;
            }
            n.always = r.nextInt(10) == 0;
        }
        // the root: one transition, so every machine knows at least one event
        Tr t = new Tr();
        t.event = EVENTS[4];
        t.target = "#" + safe.get(r.nextInt(safe.size())).id;
        t.addAmount = true;
        root.on.add(t);
        if (r.nextInt(3) == 0) {
            root.on.add(randomTransition(r, root, targets));
        }
    }

    /** Whether a state can be active together with one of these (a machine counts one wait at a time). */
    private static boolean activeWithAny(Node n, List<Node> others) {
        for (Node o : others) {
            Node lca = lca(n, o);
            if (lca != n && lca != o && lca.kind == Kind.PARALLEL) {
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

    private static Tr randomTransition(SplittableRandom r, Node n, List<Node> targets) {
        Tr t = new Tr();
        t.event = EVENTS[r.nextInt(EVENTS.length)];
        int kind = r.nextInt(10);
        if (kind < 7) {
            t.target = "#" + targets.get(r.nextInt(targets.size())).id;
            t.reenter = r.nextInt(5) == 0;
        } else if (kind < 9 && n.id != null) {
            t.target = "#" + n.id;
            t.reenter = true;
        } // else targetless
        if (r.nextInt(2) == 0) {
            t.guard = 1 + r.nextInt(4);
            t.guardArg = r.nextInt(6);
            t.guardTag = TAGS[r.nextInt(TAGS.length)];
        }
        t.addAmount = r.nextBoolean();
        return t;
    }

    // ------------------------------------------------------------------ building with the DSL

    private static void build(RandomMachine m, Node root) {
        m.states = States.define(m.id, Ctx::new, b -> {
            if (!m.tags) {
                b.tags(false);
            }
            if (m.heldByStunned) {
                b.heldBy(Stunned.class);
            }
            if (m.ownerOnly) {
                b.ownerOnly();
            }
            if (root.kind == Kind.PARALLEL) {
                b.parallel();
            }
            fill(b, root);
        });
    }

    private static <B extends NodeBuilder<Ctx, B>> void fill(NodeBuilder<Ctx, B> b, Node n) {
        if (n.id != null) {
            b.id(n.id);
        }
        if (n.kind == Kind.PARALLEL && n.parent != null) {
            b.parallel();
        }
        int entryAdd = n.entryAdd;
        int exitAdd = n.exitAdd;
        if (entryAdd == 2) {
            // a share of the states draw from the machine's own random numbers: the counter their whens and waits read
            // then follows the draws, so every property below (checkpoints, replays, frames) covers the generator too
            b.entry((c, e, self) -> {
                c.entries++;
                c.n += entryAdd + self.random().nextInt(3);
                c.a++;
            });
        } else if (entryAdd > 0) {
            b.entry((c, e) -> {
                c.entries++;
                c.n += entryAdd;
                c.a++;
            });
        }
        if (exitAdd > 0) {
            b.exit((c, e) -> {
                c.exits++;
                c.n += exitAdd;
            });
        }
        for (Node k : n.kids) {
            switch (k.kind) {
                case FINAL:
                    b.finalState(k.key, s -> fill(s, k));
                    break;
                case HISTORY:
                    b.history(k.key, h -> {
                        h.depth(k.deep ? HistoryDepth.DEEP : HistoryDepth.SHALLOW).id(k.id);
                        if (k.historyDefault != null) {
                            h.defaultTarget(k.historyDefault);
                        }
                    });
                    break;
                default:
                    b.state(k.key, s -> fill(s, k));
            }
        }
        if (!Double.isNaN(n.waitConst) || n.waitMod > 0) {
            String target = n.waitTarget;
            boolean reenter = n.waitReenter;
            java.util.function.Consumer<dev.enginestates.declare.TransitionBuilder<Ctx>> then = t -> {
                if (target != null) {
                    t.target(target);
                }
                t.reenter(reenter);
                t.action((c, e) -> {
                    c.taken++;
                    c.n++;
                });
            };
            if (n.waitMod > 0) {
                int mod = n.waitMod;
                double base = n.waitBase;
                if (mod % 2 == 1) {
                    b.waitFor((c, e, self) -> base + Math.floorMod(c.n, mod) * 0.25 + self.random().nextInt(4) * 0.125, then); // a random wait
                } else {
                    b.waitFor(c -> base + Math.floorMod(c.n, mod) * 0.25, then);
                }
            } else {
                b.waitFor(n.waitConst, then);
            }
        }
        for (int i = 0; i < n.whens.size(); i++) {
            int mod = n.whens.get(i)[0];
            int rest = n.whens.get(i)[1];
            String target = n.whenTargets.get(i);
            b.when(c -> Math.floorMod(c.n, mod) == rest, t -> t.target(target).action((c, e) -> c.n++));
        }
        for (Tr tr : n.on) {
            b.on(tr.event, t -> {
                if (tr.target != null) {
                    t.target(tr.target);
                }
                t.reenter(tr.reenter);
                switch (tr.guard) {
                    case 1:
                        t.guard((c, e) -> e.has("amount") && e.number("amount") >= tr.guardArg);
                        break;
                    case 2:
                        t.guard((c, e) -> e.isTrue("ok"));
                        break;
                    case 3:
                        t.guard((c, e) -> !e.isTrue("ok"));
                        break;
                    case 4:
                        t.guard((c, e) -> tr.guardTag.equals(e.get("tag")));
                        break;
                    default:
                }
                boolean add = tr.addAmount;
                t.action((c, e) -> {
                    c.taken++;
                    c.n++;
                    if (add && e.has("amount")) {
                        c.total += e.number("amount");
                    }
                });
            });
        }
        if (n.onDoneTarget != null) {
            String target = n.onDoneTarget;
            b.onDone(t -> t.target(target).action((c, e) -> c.n += 2));
        }
        if (n.always) {
            b.always(t -> t.guard((c, e) -> Math.floorMod(c.a, 5) == 4).action((c, e) -> c.a++));
        }
    }

    // ------------------------------------------------------------------ inputs

    /** One input to a world; applying it draws nothing random. */
    interface Input {
        void apply(StateWorld world);
    }

    /** A step of {@code dt} seconds. */
    record Step(double dt) implements Input {
        @Override
        public void apply(StateWorld world) {
            world.step(dt);
        }
    }

    /** An event sent from outside the step to one machine on a keyed entity. */
    record Send(String key, States<Ctx> machine, Event event) implements Input {
        @Override
        public void apply(StateWorld world) {
            machine.send(entity(world, key), event);
        }
    }

    /** A state set by hand. */
    record SetState(String key, States<Ctx> machine, String[] paths) implements Input {
        @Override
        public void apply(StateWorld world) {
            machine.read(entity(world, key)).setState(paths);
        }

        @Override
        public String toString() {
            return "SetState[" + key + ", " + machine.id() + ", " + Arrays.toString(paths) + "]";
        }
    }

    /** A hold marker ({@link MachinePaused} or {@link Stunned}) added to or removed from a keyed entity. */
    record Mark(String key, boolean paused, boolean add) implements Input {
        @Override
        public void apply(StateWorld world) {
            Entity e = entity(world, key);
            if (paused) {
                if (add) {
                    e.add(MachinePaused.INSTANCE);
                } else {
                    e.removeType(MachinePaused.class);
                }
            } else if (add) {
                e.add(new Stunned());
            } else {
                e.removeType(Stunned.class);
            }
        }
    }

    /** A keyed entity spawned with fresh records of some machines (contexts starting at {@code n}). */
    record Spawn(String key, List<States<Ctx>> machines, int n) implements Input {
        @Override
        public void apply(StateWorld world) {
            List<Object> cs = new ArrayList<>();
            cs.add(EntityKey.of(key));
            for (States<Ctx> m : machines) {
                Ctx c = new Ctx();
                c.n = n;
                cs.add(m.trait(c));
            }
            world.spawn(cs.toArray());
        }
    }

    /** A keyed entity despawned. */
    record Despawn(String key) implements Input {
        @Override
        public void apply(StateWorld world) {
            world.despawn(entity(world, key));
        }
    }

    static Entity entity(StateWorld world, String key) {
        Entity e = world.entity(key);
        if (e == null) {
            throw new AssertionError("no entity has key '" + key + "' in " + world);
        }
        return e;
    }

    // ------------------------------------------------------------------ specs

    /** A random world: its machines, the entities it starts with, and the inputs to feed it. */
    static final class Spec {
        final long seed;
        final List<RandomMachine> machines = new ArrayList<>();
        /** Entities at the start: key to (machine indexes), in spawn order; "world" for the world's own entity. */
        final Map<String, int[]> start = new LinkedHashMap<>();
        final Map<String, Integer> startN = new LinkedHashMap<>();
        final List<Input> inputs = new ArrayList<>();
        Saves saves;

        Spec(long seed) {
            this.seed = seed;
        }

        List<States<Ctx>> states() {
            List<States<Ctx>> out = new ArrayList<>();
            for (RandomMachine m : machines) {
                out.add(m.states);
            }
            return out;
        }

        /** Saves for this spec's machines. */
        Saves saves() {
            if (saves == null) {
                saves = Saves.of(states().toArray(new States<?>[0]));
            }
            return saves;
        }

        /** Whether a machine of this spec has tags. */
        boolean tagged() {
            for (RandomMachine m : machines) {
                if (m.tags) {
                    return true;
                }
            }
            return false;
        }

        /** A fresh, empty world sized for this spec's machines. */
        StateWorld freshWorld() {
            return RandomWorlds.freshWorld(tagged());
        }

        /** A fresh world holding the starting entities, before any input. */
        StateWorld newWorld() {
            StateWorld w = freshWorld();
            for (Map.Entry<String, int[]> e : start.entrySet()) {
                int n = startN.get(e.getKey());
                if (e.getKey().equals(EntityKey.WORLD)) {
                    for (int i : e.getValue()) {
                        Ctx c = new Ctx();
                        c.n = n;
                        w.add(machines.get(i).states.trait(c));
                    }
                    continue;
                }
                List<Object> cs = new ArrayList<>();
                cs.add(EntityKey.of(e.getKey()));
                for (int i : e.getValue()) {
                    Ctx c = new Ctx();
                    c.n = n;
                    cs.add(machines.get(i).states.trait(c));
                }
                w.spawn(cs.toArray());
            }
            return w;
        }

        /** Applies inputs {@code [from, to)} to a world. */
        void apply(StateWorld world, int from, int to) {
            for (int i = from; i < to; i++) {
                Input in = inputs.get(i);
                try {
                    in.apply(world);
                } catch (RuntimeException e) {
                    throw new AssertionError(this + ": input " + i + " " + in + " threw " + e, e);
                }
            }
        }

        @Override
        public String toString() {
            return "random world seed " + seed;
        }
    }

    /** The machines a group of runs share, with their saves. */
    static final class MachineSet {
        final List<RandomMachine> machines;
        final Saves saves;

        MachineSet(List<RandomMachine> machines) {
            this.machines = machines;
            List<States<?>> all = new ArrayList<>();
            machines.forEach(m -> all.add(m.states));
            this.saves = Saves.of(all.toArray(new States<?>[0]));
        }
    }

    private static final Map<String, MachineSet> SETS = new java.util.concurrent.ConcurrentHashMap<>();
    /** Machine sets drawn again because two of their classes collide in Dominion's class index. */
    static final java.util.concurrent.atomic.AtomicInteger REDRAWN = new java.util.concurrent.atomic.AtomicInteger();

    /**
     * The machines for a seed: 1 to 3 random machines, drawn again (from a derived seed) while
     * two of the classes a world of them would hold share a slot of Dominion's class index
     * (see {@link #dominionSlotCollisions}).
     */
    static MachineSet machineSet(long machineSeed, Options o) {
        String key = machineSeed + "/" + o.whensBesideWaits + "/" + o.tagsOneIn + "/" + o.ownerOnlyOneIn;
        return SETS.computeIfAbsent(key, k -> {
            for (int attempt = 0; ; attempt++) {
                long seed = machineSeed + attempt * 1_000_003L;
                SplittableRandom r = new SplittableRandom(seed ^ 0x6D61636869L);
                int count = 1 + r.nextInt(3);
                List<RandomMachine> ms = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    ms.add(randomMachine(r, "m" + seed + "x" + i, o));
                }
                List<Class<?>> classes = new ArrayList<>(List.of(EntityKey.class, MachinePaused.class, Stunned.class,
                        StateWorld.WorldEntity.class));
                for (RandomMachine m : ms) {
                    classes.add(m.states.recordType());
                    classes.addAll(m.states.tagTypes());
                }
                if (dominionSlotCollisions(classes, 16).isEmpty()) {
                    return new MachineSet(ms);
                }
                REDRAWN.incrementAndGet();
            }
        });
    }

    /**
     * Pairs of classes that Dominion 0.9.0 would give one index in a world (its ClassIndex
     * keys a class by the top {@code hashBit} bits of its identity hash and trusts a filled
     * slot without checking whose it is), for a world's class-index bits (16 by default).
     */
    static List<String> dominionSlotCollisions(List<Class<?>> classes, int hashBit) {
        Map<Integer, Class<?>> seen = new java.util.HashMap<>();
        List<String> out = new ArrayList<>();
        for (Class<?> c : classes) {
            int slot = System.identityHashCode(c) >> (32 - hashBit);
            Class<?> other = seen.putIfAbsent(slot, c);
            if (other != null && other != c) {
                out.add(other.getName() + " / " + c.getName());
            }
        }
        return out;
    }

    /** A random world from a seed. */
    static Spec generate(long seed, Options o) {
        SplittableRandom r = new SplittableRandom(seed);
        Spec spec = new Spec(seed);
        MachineSet set = machineSet(o.machinePool > 0 ? Math.floorMod(seed, o.machinePool) : seed, o);
        spec.machines.addAll(set.machines);
        spec.saves = set.saves;
        int machineCount = spec.machines.size();
        int entityCount = 1 + r.nextInt(4);
        for (int i = 0; i < entityCount; i++) {
            spec.start.put("e" + i, subset(r, machineCount));
            spec.startN.put("e" + i, r.nextInt(10));
        }
        if (r.nextInt(4) == 0) {
            spec.start.put(EntityKey.WORLD, new int[] {r.nextInt(machineCount)});
            spec.startN.put(EntityKey.WORLD, r.nextInt(10));
        }
        // the live entities and their machines, their markers, as the inputs leave them
        Map<String, int[]> live = new LinkedHashMap<>(spec.start);
        Map<String, boolean[]> marks = new TreeMap<>();
        int spawned = 0;
        int count = o.minInputs + r.nextInt(o.maxInputs - o.minInputs + 1);
        for (int k = 0; k < count; k++) {
            int what = r.nextInt(100);
            List<String> keys = new ArrayList<>(live.keySet());
            if (what < 58 || keys.isEmpty()) {
                int n = r.nextInt(6) == 0 ? 1 + r.nextInt(30) : 1;
                for (int s = 0; s < n; s++) {
                    spec.inputs.add(new Step(DT));
                }
                continue;
            }
            String key = keys.get(r.nextInt(keys.size()));
            int[] held = live.get(key);
            RandomMachine m = spec.machines.get(held[r.nextInt(held.length)]);
            if (what < 84) {
                spec.inputs.add(new Send(key, m.states, randomEvent(r, m)));
            } else if (what < 90 && o.setStates) {
                spec.inputs.add(new SetState(key, m.states, randomPaths(r, m)));
            } else if (what < 96 && o.marks) {
                boolean paused = r.nextInt(3) != 0;
                boolean[] on = marks.computeIfAbsent(key, x -> new boolean[2]);
                int i = paused ? 0 : 1;
                on[i] = !on[i];
                spec.inputs.add(new Mark(key, paused, on[i]));
            } else if (what < 98 && o.spawns) {
                String nk = "s" + spawned++;
                int[] ms = subset(r, machineCount);
                List<States<Ctx>> list = new ArrayList<>();
                for (int i : ms) {
                    list.add(spec.machines.get(i).states);
                }
                live.put(nk, ms);
                spec.inputs.add(new Spawn(nk, list, r.nextInt(10)));
            } else if (o.despawns && !key.equals(EntityKey.WORLD) && live.size() > 1) {
                live.remove(key);
                marks.remove(key);
                spec.inputs.add(new Despawn(key));
            } else {
                spec.inputs.add(new Step(DT));
            }
        }
        spec.inputs.add(new Step(DT)); // end on a step, so tags set by hand have moved
        return spec;
    }

    private static int[] subset(SplittableRandom r, int count) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            if (r.nextInt(3) != 0) {
                out.add(i);
            }
        }
        if (out.isEmpty()) {
            out.add(r.nextInt(count));
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private static Event randomEvent(SplittableRandom r, RandomMachine m) {
        List<String> known = m.states.machine().events();
        String type = known.get(r.nextInt(known.size()));
        Map<String, Object> fields = new LinkedHashMap<>();
        if (r.nextBoolean()) {
            fields.put("amount", r.nextInt(4) == 0 ? r.nextInt(12) * 0.5 : (Object) r.nextInt(7));
        }
        if (r.nextBoolean()) {
            fields.put("ok", r.nextBoolean());
        }
        if (r.nextInt(3) == 0) {
            fields.put("tag", TAGS[r.nextInt(TAGS.length)]);
        }
        return fields.isEmpty() ? Event.of(type) : Event.of(type, fields);
    }

    /** One state path, or one per region of a parallel state when the machine has one. */
    private static String[] randomPaths(SplittableRandom r, RandomMachine m) {
        List<Node> states = m.regular();
        Node first = states.get(r.nextInt(states.size()));
        if (r.nextInt(3) == 0) {
            // a second state in another region of a parallel ancestor of the first
            for (Node p = first.parent; p != null; p = p.parent) {
                if (p.kind == Kind.PARALLEL) {
                    Node region = regionOf(first, p);
                    List<Node> others = new ArrayList<>();
                    for (Node k : p.kids) {
                        if (k != region) {
                            collect(k, others);
                        }
                    }
                    if (!others.isEmpty()) {
                        return new String[] {first.path, others.get(r.nextInt(others.size())).path};
                    }
                }
            }
        }
        return new String[] {first.path};
    }

    private static Node regionOf(Node n, Node parallel) {
        Node x = n;
        while (x.parent != parallel) {
            x = x.parent;
        }
        return x;
    }

    private static void collect(Node n, List<Node> out) {
        if (n.regular()) {
            out.add(n);
            for (Node k : n.kids) {
                collect(k, out);
            }
        }
    }

    // ------------------------------------------------------------------ worlds side by side

    /** The keys of the entities of a world that carry each hold marker, as {key: [paused, stunned]}. */
    static Map<String, boolean[]> marks(StateWorld world) {
        Map<String, boolean[]> out = new TreeMap<>();
        for (Results.With1<EntityKey> w : world.dominion().findEntitiesWith(EntityKey.class)) {
            Entity e = w.entity();
            boolean p = e.has(MachinePaused.class);
            boolean s = e.has(Stunned.class);
            if (p || s) {
                out.put(w.comp().value(), new boolean[] {p, s});
            }
        }
        return out;
    }

    /** Adds to each entity of {@code to} the holds its namesake in {@code from} has (those it lacks); entities it lacks are skipped. */
    static void copyMarks(StateWorld from, StateWorld to) {
        for (Map.Entry<String, boolean[]> m : marks(from).entrySet()) {
            Entity e = to.entity(m.getKey());
            if (e == null) {
                continue; // an entity holding no machine is not in a checkpoint
            }
            if (m.getValue()[0] && !e.has(MachinePaused.class)) {
                e.add(MachinePaused.INSTANCE);
            }
            if (m.getValue()[1] && !e.has(Stunned.class)) {
                e.add(new Stunned());
            }
        }
    }

    /**
     * The first difference between the records of two worlds, matched by entity key, bit for
     * bit (configuration in entry order, status, entry times, history, paused seconds, wait, hold, and the
     * fields of a {@link Ctx} context), or {@code null} when there is none. Cheap enough to run
     * after every input; it sees what a checkpoint's text may round away.
     */
    static String recordDifference(StateWorld a, StateWorld b) {
        java.util.Set<States<?>> all = new java.util.LinkedHashSet<>(a.machines());
        all.addAll(b.machines());
        for (States<?> m : all) {
            List<? extends StateRecord<?>> ra = a.records(m);
            List<? extends StateRecord<?>> rb = b.records(m);
            if (ra.size() != rb.size()) {
                return m.id() + ": " + ra.size() + " records and " + rb.size();
            }
            Map<String, StateRecord<?>> byKey = new java.util.HashMap<>();
            for (StateRecord<?> r : rb) {
                byKey.put(StateWorld.keyOf(r.entity()), r);
            }
            for (StateRecord<?> r : ra) {
                String key = StateWorld.keyOf(r.entity());
                StateRecord<?> o = byKey.get(key);
                String where = key + "." + m.id();
                if (o == null) {
                    return where + ": missing in the second world";
                }
                String d = RecordDifference.of(Access.record(r), Access.record(o));
                if (d != null) {
                    return where + ": " + d + " (" + r + " / " + o + ")";
                }
                if (r.context() instanceof Ctx) {
                    Ctx x = (Ctx) r.context();
                    Ctx y = (Ctx) o.context();
                    if (x.n != y.n || x.entries != y.entries || x.exits != y.exits || x.a != y.a || x.taken != y.taken
                            || Double.doubleToRawLongBits(x.total) != Double.doubleToRawLongBits(y.total)) {
                        return where + ": contexts differ";
                    }
                }
            }
        }
        return null;
    }

    /** The first line where two texts differ, for short failure messages. */
    static String firstDifference(String expected, String actual) {
        String[] a = expected.split("\n", -1);
        String[] b = actual.split("\n", -1);
        for (int i = 0; i < Math.min(a.length, b.length); i++) {
            if (!a[i].equals(b[i])) {
                int from = Math.max(0, i - 6);
                StringBuilder sb = new StringBuilder("line " + (i + 1) + ":\n");
                for (int j = from; j < i; j++) {
                    sb.append("    ").append(a[j]).append('\n');
                }
                sb.append("  - ").append(a[i]).append("\n  + ").append(b[i]);
                return sb.toString();
            }
        }
        return a.length == b.length ? "no difference" : "lengths differ: " + a.length + " and " + b.length + " lines";
    }

    /** Every record of a world, for messages. */
    static String describe(StateWorld world) {
        StringBuilder sb = new StringBuilder();
        for (States<?> m : world.machines()) {
            for (StateRecord<?> r : world.records(m)) {
                sb.append(StateWorld.keyOf(r.entity())).append(": ").append(r).append('\n');
            }
        }
        return sb.toString();
    }
}

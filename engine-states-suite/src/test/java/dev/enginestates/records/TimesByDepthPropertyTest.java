package dev.enginestates.records;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Machine;
import dev.enginestates.StatesDef;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.NodeBuilder;
import dev.enginestates.declare.StatesBuilder;
import dev.enginestates.declare.UnknownEvents;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Saves;
import dev.enginestates.plain.StateMachine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 14, times kept by depth ({@link Chart#timeSlot}): over random charts without and with
 * parallel states, after every random event, step and hand-set time, every active state's
 * {@code timeIn} (and the record's entry time or clock) equals a model that keeps one time per
 * state, filled from the entry actions and {@code enter} callbacks alone; a state not active
 * reads 0. The steps are binary fractions of a second, so the sums are exact and compared exactly.
 */
class TimesByDepthPropertyTest {
    static final String[] EVENTS = {"E0", "E1", "E2", "E3", "E4"};
    static final double[] STEPS = {0, 1 / 64.0, 0.125, 0.25, 1};

    // ------------------------------------------------------------------ XState style

    /** A random XState-style chart whose every state logs its path from its entry action. */
    static final class Chartlet {
        enum Kind { ATOMIC, COMPOUND, PARALLEL, FINAL, HISTORY }

        static final class Node {
            final String key;
            final String path;
            final Kind kind;
            final Node parent;
            final List<Node> kids = new ArrayList<>();

            Node(String key, Node parent, Kind kind) {
                this.key = key;
                this.parent = parent;
                this.kind = kind;
                this.path = parent == null ? "" : parent.parent == null ? key : parent.path + "." + key;
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

        final SplittableRandom r;
        final String id;
        final Node root;
        final List<Node> all = new ArrayList<>();
        final List<Node> parallels = new ArrayList<>();
        final Machine<List<String>> machine;
        int keys;

        Chartlet(long seed, boolean parallel) {
            r = new SplittableRandom(seed);
            id = (parallel ? "times-par" : "times-flat") + seed;
            root = new Node("", null, parallel && r.nextInt(4) == 0 ? Kind.PARALLEL : Kind.COMPOUND);
            grow(root, 0, parallel);
            if (root.kind == Kind.PARALLEL) {
                parallels.add(root);
            }
            machine = Machine.define(id, ArrayList::new, m -> {
                m.unknownEvents(UnknownEvents.ACCEPT);
                if (root.kind == Kind.PARALLEL) {
                    m.parallel();
                }
                decorate(m, root);
            });
        }

        private void grow(Node node, int depth, boolean parallel) {
            int regular = 2 + r.nextInt(2);
            for (int i = 0; i < regular; i++) {
                Kind kind = Kind.ATOMIC;
                int roll = r.nextInt(6);
                if (depth < 3 && roll < 2) {
                    kind = Kind.COMPOUND;
                } else if (depth < 2 && roll == 2 && parallel) {
                    kind = Kind.PARALLEL;
                }
                Node k = add(node, kind);
                if (kind != Kind.ATOMIC) {
                    grow(k, depth + 1, parallel);
                }
                if (kind == Kind.PARALLEL) {
                    parallels.add(k);
                }
            }
            if (node.kind == Kind.COMPOUND && node != root && r.nextInt(3) == 0) {
                add(node, Kind.FINAL);
            }
            if (node.kind == Kind.COMPOUND && node != root && r.nextInt(3) == 0) {
                add(node, Kind.HISTORY);
            }
        }

        private Node add(Node parent, Kind kind) {
            Node n = new Node("s" + keys++, parent, kind); // keys unique: a key names one state only
            parent.kids.add(n);
            all.add(n);
            return n;
        }

        private String ref(Node n) {
            return "#" + id + "." + n.path;
        }

        private <B extends NodeBuilder<List<String>, B>> void decorate(NodeBuilder<List<String>, B> b, Node n) {
            String path = n.path;
            b.entry((log, e, self) -> log.add(path));
            if (n.kind == Kind.PARALLEL && n != root) {
                b.parallel();
            }
            for (Node k : n.kids) {
                if (k.kind == Kind.HISTORY) {
                    b.history(k.key, r.nextBoolean() ? HistoryDepth.DEEP : HistoryDepth.SHALLOW);
                } else if (k.kind == Kind.FINAL) {
                    b.finalState(k.key, s -> s.entry((log, e, self) -> log.add(k.path)));
                } else {
                    b.state(k.key, s -> decorate(s, k));
                }
            }
            if (n == root) {
                return;
            }
            for (int i = r.nextInt(4); i > 0; i--) {
                b.on(EVENTS[r.nextInt(EVENTS.length)], t -> {
                    int how = r.nextInt(9);
                    if (how < 6) {
                        t.target(ref(all.get(r.nextInt(all.size())))).reenter(r.nextInt(4) == 0);
                    } else if (how < 8 && !parallels.isEmpty()) {
                        Node p = parallels.get(r.nextInt(parallels.size()));
                        t.target(ref(deep(p.kids.get(0))), ref(deep(p.kids.get(1))));
                    } // else no target
                    if (r.nextInt(5) == 0) {
                        t.guard((log, e) -> log.size() % 2 == 0);
                    }
                });
            }
            boolean hasFinal = n.kids.stream().anyMatch(k -> k.kind == Kind.FINAL);
            if (hasFinal && r.nextBoolean()) {
                List<Node> outside = new ArrayList<>();
                for (Node x : all) {
                    if (x.kind != Kind.FINAL && x.kind != Kind.HISTORY && x != n && !x.inside(n)) {
                        outside.add(x);
                    }
                }
                if (!outside.isEmpty()) {
                    Node to = outside.get(r.nextInt(outside.size()));
                    b.onDone(t -> t.target(ref(to)));
                }
            }
        }

        /** A regular state at or below {@code n}, picked at random. */
        private Node deep(Node n) {
            Node at = n;
            while (!at.kids.isEmpty() && r.nextBoolean()) {
                Node k = at.kids.get(r.nextInt(at.kids.size()));
                if (!k.regular()) {
                    break;
                }
                at = k;
            }
            return at;
        }
    }

    @Test
    void everyActiveStatesTimeIsItsOwnEntryTimeOverRandomChartsWithAndWithoutParallelStates(TestReporter report) {
        int[] runs = new int[2];
        int[] bySlot = new int[2];
        int skipped = 0;
        int checks = 0;
        for (int kind = 0; kind < 2; kind++) {
            for (long seed = 1; seed <= 250; seed++) {
                Chartlet spec = new Chartlet(seed * 31 + kind, kind == 1);
                Chart c = Access.chart(spec.machine);
                boolean shared = c.timeRoom < c.size;
                assertTrue(!shared || spec.parallels.isEmpty(), "only a chart without parallel states shares slots: " + c.machineId);
                bySlot[kind] += shared ? 1 : 0;
                try {
                    checks += runXState(spec, new SplittableRandom(seed));
                    runs[kind]++;
                } catch (MachineException stuck) {
                    skipped++; // a random onDone chain that never settles: the engine says so, the run ends
                }
            }
        }
        report.publishEntry("times by depth", String.format("XState style: %d runs without parallel states (%d sharing slots),"
                + " %d with (%d sharing), %d checks, %d skipped", runs[0], bySlot[0], runs[1], bySlot[1], checks, skipped));
        assertTrue(runs[0] > 200 && runs[1] > 200, "runs: " + runs[0] + ", " + runs[1]);
        assertEquals(250, bySlot[0], "every chart without parallel states keeps its times by depth");
        assertTrue(runs[1] - bySlot[1] > 50, "many charts with parallel states: " + (runs[1] - bySlot[1]));
    }

    /**
     * One random run on a plain machine and on an entity side by side, each against a model of
     * its own (a time set by hand goes to the plain machine only); returns the times compared.
     */
    private static int runXState(Chartlet spec, SplittableRandom r) {
        Chart c = Access.chart(spec.machine);
        States<List<String>> states = States.of(spec.machine);
        int checks = 0;
        try (StateWorld world = StateWorld.create()) {
            StateMachine<List<String>> plain = new StateMachine<>(spec.machine);
            Entity e = world.spawn(states.trait());
            StateRecord<List<String>> onEntity = states.read(e);
            Map<String, Double> entered = new HashMap<>();
            Map<String, Double> enteredOnEntity = new HashMap<>();
            double clock = 0;
            note(plain.context(), entered, clock);
            MachineRecord spawned = Access.record(onEntity);
            for (int s = 0; s < c.size; s++) {
                if (spawned.isActive(s)) {
                    enteredOnEntity.put(c.path[s], 0.0); // 003: a record spawns in its initial states, no entry action run
                }
            }
            for (int op = 0; op < 60 && !plain.isDone(); op++) {
                int what = r.nextInt(10);
                if (what < 5) {
                    String event = EVENTS[r.nextInt(EVENTS.length)];
                    plain.send(event);
                    states.send(e, event);
                    note(plain.context(), entered, clock);
                    note(onEntity.context(), enteredOnEntity, clock);
                } else if (what < 9) {
                    double dt = STEPS[r.nextInt(STEPS.length)];
                    plain.step(dt);
                    world.step(dt);
                    clock += dt;
                } else {
                    // a time set by hand on one active state, as a test does
                    List<String> active = new ArrayList<>();
                    for (Chartlet.Node n : spec.all) {
                        if (n.regular() && plain.is(n.path)) {
                            active.add(n.path);
                        }
                    }
                    String path = active.get(r.nextInt(active.size()));
                    double seconds = Math.min(clock, r.nextInt(8) / 8.0);
                    plain.withTime(path, seconds);
                    entered.put(path, clock - seconds);
                }
                String at = " at " + clock + " s after op " + op + ", active " + plain.branch();
                checks += compare(c, Access.record(plain), plain::timeIn, entered, clock, "plain" + at);
                checks += compare(c, Access.record(onEntity), onEntity::timeIn, enteredOnEntity, clock, "on an entity" + at);
            }
        }
        return checks;
    }

    private static void note(List<String> log, Map<String, Double> entered, double clock) {
        for (String path : log) {
            entered.put(path, clock);
        }
        log.clear();
    }

    /** Every state's entry time and {@code timeIn} on one face against its model. */
    private static int compare(Chart c, MachineRecord rec, java.util.function.ToDoubleFunction<String> timeIn,
            Map<String, Double> entered, double clock, String where) {
        int n = 0;
        for (int s = 0; s < c.size; s++) {
            if (c.type[s] == dev.enginestates.declare.StateType.HISTORY) {
                continue;
            }
            String path = c.path[s];
            String at = c.machineId + " '" + c.describe(s) + "', " + where;
            if (rec.isActive(s)) {
                Double since = entered.get(path);
                assertTrue(since != null, "active but never entered: " + at);
                assertEquals(since, rec.enteredAt(s), "entry time of " + at);
                if (s > 0) {
                    assertEquals(clock - since, timeIn.applyAsDouble(path), "timeIn " + at);
                }
            } else {
                assertTrue(Double.isNaN(rec.enteredAt(s)), "no entry time for a state not active: " + at);
                if (s > 0) {
                    assertEquals(0.0, timeIn.applyAsDouble(path), "a state not active reads 0: " + at);
                }
            }
            n++;
        }
        return n;
    }

    // ------------------------------------------------------------------ polled style

    /** The polled tables' context: flags their guards read, public for checkpoints. */
    public static final class Flags {
        public boolean a;
        public boolean b;
    }

    /** A random polled table whose every state logs its path from its {@code enter}; nested up to three deep. */
    static StatesDef<Flags> polled(long seed, List<String> paths, List<String> log) {
        SplittableRandom r = new SplittableRandom(seed);
        List<List<Integer>> kids = new ArrayList<>();
        dev.enginestates.RandomStatecharts.polledTree(r, 3 + r.nextInt(8), paths, kids);
        return StatesDef.define("times-polled" + seed, Flags::new, d -> polledState(d, 0, r, paths, kids, log));
    }

    private static void polledState(StatesBuilder<Flags> b, int s, SplittableRandom r, List<String> paths, List<List<Integer>> kids,
            List<String> log) {
        String path = paths.get(s);
        if (s == 0) {
            b.unknownEvents(UnknownEvents.ACCEPT);
        }
        if (s > 0) {
            b.enter((f, from) -> log.add(path));
        }
        java.util.Set<String> tos = new java.util.HashSet<>();
        for (int i = r.nextInt(3); i > 0; i--) {
            String to = paths.get(1 + r.nextInt(paths.size() - 1));
            double after = new double[] {0.25, 0.5, 1, 2}[r.nextInt(4)];
            boolean flagA = r.nextBoolean();
            if (tos.add(to)) {
                b.to(to, (f, t) -> (flagA ? f.a : f.b) && t >= after);
            }
        }
        if (s > 0 && r.nextInt(3) == 0) {
            b.after(new double[] {0.25, 0.5, 1, 3}[r.nextInt(4)], r.nextInt(4) == 0 ? "$back" : paths.get(1 + r.nextInt(paths.size() - 1)));
        }
        if (r.nextInt(2) == 0) {
            String event = EVENTS[r.nextInt(EVENTS.length)];
            b.on(event, r.nextInt(4) == 0 ? "$back" : paths.get(1 + r.nextInt(paths.size() - 1)));
        }
        if (r.nextInt(5) == 0) {
            String to = paths.get(1 + r.nextInt(paths.size() - 1));
            b.update((f, dt, t) -> t >= 1.5 && f.b ? to : null);
        }
        for (int k : kids.get(s)) {
            String key = paths.get(k).substring(paths.get(k).lastIndexOf('.') + 1);
            b.state(key, c -> polledState(c, k, r, paths, kids, log));
        }
    }

    @Test
    void everyActivePolledClockIsItsOwnOverRandomTablesStepsEventsAndACheckpointRoundTrip(TestReporter report) throws Exception {
        int checks = 0;
        int restores = 0;
        for (long seed = 1; seed <= 200; seed++) {
            List<String> paths = new ArrayList<>();
            List<String> log = new ArrayList<>();
            StatesDef<Flags> def = polled(seed, paths, log);
            States<Flags> states = States.of(def);
            Chart c = Access.chart(def.machine());
            assertEquals(c.configRoom, c.timeRoom, "a polled table is one branch: a slot per depth");
            Saves saves = Saves.of(states);
            SplittableRandom r = new SplittableRandom(seed);
            int restoreAt = r.nextInt(40);
            StateWorld world = StateWorld.create();
            try {
                Entity e = world.spawn(EntityKey.of("e"), states.trait());
                Map<String, Double> clocks = new HashMap<>();
                double total = 0;
                for (String p : log) {
                    clocks.put(p, 0.0);
                }
                log.clear();
                for (int op = 0; op < 60; op++) {
                    if (op == restoreAt) {
                        String checkpoint = saves.checkpoint(world);
                        StateWorld next = StateWorld.create();
                        saves.restoreSpawningMissing(next, checkpoint);
                        assertTrue(log.isEmpty(), "a restore runs no enter");
                        assertEquals(checkpoint, saves.checkpoint(next), "the clocks read back as written, seed " + seed);
                        world.close();
                        world = next;
                        e = world.entity("e");
                        restores++;
                    }
                    StateRecord<Flags> rec = states.read(e);
                    int what = r.nextInt(10);
                    if (what < 2) {
                        states.send(e, EVENTS[r.nextInt(EVENTS.length)]);
                    } else if (what < 4) {
                        Flags f = rec.context();
                        f.a = r.nextBoolean();
                        f.b = r.nextBoolean();
                    } else {
                        double dt = STEPS[1 + r.nextInt(STEPS.length - 1)];
                        for (int s = 0; s < c.size; s++) {
                            if (Access.record(rec).isActive(s)) {
                                clocks.merge(c.path[s], dt, Double::sum); // every active state's clock moves first
                            }
                        }
                        world.step(dt);
                        total += dt;
                    }
                    for (String p : log) {
                        clocks.put(p, 0.0); // entered in this step or by this event: from 0
                    }
                    log.clear();
                    MachineRecord m = Access.record(rec);
                    assertEquals(total, m.clock(0), "the root's clock is the total, seed " + seed);
                    for (int s = 1; s < c.size; s++) {
                        String at = c.machineId + " '" + c.path[s] + "' after op " + op + ", in " + rec.state();
                        if (m.isActive(s)) {
                            assertEquals(clocks.get(c.path[s]), rec.timeIn(c.path[s]), at);
                            assertEquals(clocks.get(c.path[s]), m.clock(s), at);
                        } else {
                            assertEquals(0.0, rec.timeIn(c.path[s]), "a state not active reads 0: " + at);
                            assertEquals(0.0, m.clockSum(s), at);
                        }
                        checks++;
                    }
                }
            } finally {
                world.close();
            }
        }
        report.publishEntry("times by depth", String.format("polled style: 200 tables, %d checks, %d checkpoint round trips", checks,
                restores));
        assertTrue(restores > 150, "restores: " + restores);
    }
}

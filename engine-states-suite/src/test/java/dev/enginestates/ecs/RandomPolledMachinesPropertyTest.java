package dev.enginestates.ecs;

import dev.enginestates.RandomTree;
import dev.enginestates.records.Access;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.StatesDef;
import dev.enginestates.declare.StateEventHandler;
import dev.enginestates.declare.StateGuard;
import dev.enginestates.declare.StateUpdate;
import dev.enginestates.declare.StatesBuilder;
import dev.enginestates.declare.UnknownEvents;
import dev.enginestates.io.InputLog;
import dev.enginestates.io.Saves;
import dev.enginestates.plain.StateMachine;
import dev.enginestates.records.MachineRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Property tests of the polled style (the {@code 000} document) over seeded random machines and
 * random inputs: random trees of up to 12 states and depth 3, random {@code to} guards on
 * context bits and on {@code t}, {@code after} (0 seconds, {@code $back}, self and ancestors
 * included), {@code update}s, logged {@code enter}/{@code exit}, and {@code on} events with
 * string targets and handlers, on the root and on states.
 *
 * <p>The engine runs the same interpreter on a plain object and on an entity, and writes and
 * reads the same record in checkpoints and input logs; these tests check that every face agrees
 * with every other on many machines, and that the document's rules on one step (one branch,
 * clocks, at most 8 hops, a guard never re-enters) hold after every step.
 *
 * <p>A failure names the seed, prints the machine and the last inputs. Runs {@value #DEFAULT_RUNS}
 * machines of {@value #STEPS} steps per property by default; {@code -Dproperty.runs=N} runs more.
 */
class RandomPolledMachinesPropertyTest {
    static final int DEFAULT_RUNS = 500;
    static final int RUNS = Integer.getInteger("property.runs", DEFAULT_RUNS);
    static final int STEPS = 200;

    // ------------------------------------------------------------------ properties

    /**
     * Property 1: {@code new StateMachine<>(def, ctx)} and {@code States.of(def)} on an entity, fed
     * the same context bits, sends, go() and steps, agree after every input on the state, the
     * previous leaf, every active state's clock and the enter/exit calls.
     */
    @Test
    void aPlainMachineAndTheSameMachineOnAnEntityAgreeAfterEveryInput() {
        for (int seed = 1; seed <= RUNS; seed++) {
            RandomPolledMachine m = new RandomPolledMachine("plain-entity", seed);
            States<Ctx> states = States.of(m.def);
            Script script = new Script(m, seed, 1);
            try (StateWorld world = StateWorld.create()) {
                Entity e = world.spawn(EntityKey.of("e0"), states.trait(new Ctx()));
                StateMachine<Ctx> fsm = new StateMachine<>(m.def, new Ctx());
                Supplier<String> where = () -> m.describe() + script.recent();
                run(where, () -> {
                    assertAlike(fsm, states.read(e), where);
                    for (Input in : script) {
                        // the world's answer to a send must be the plain machine's
                        Boolean plain = in.apply(fsm, false);
                        Boolean onEntity = in.apply(world, states, false);
                        assertEquals(plain, onEntity, where);
                        assertAlike(fsm, states.read(e), where);
                    }
                });
            }
        }
    }

    /**
     * Property 2: a world checkpointed after a random number of inputs (between steps or between
     * a send and the next step) and restored into a fresh world goes on exactly as the world it was
     * taken from: the same dump after every later step. Inputs that write a context write each
     * world's own context (read from its record), as a game's systems would.
     */
    @Test
    void aCheckpointRestoredIntoAFreshWorldGoesOnAsTheWorldItWasTakenFrom() {
        for (int seed = 1; seed <= RUNS; seed++) {
            RandomPolledMachine m = new RandomPolledMachine("checkpoint", seed);
            States<Ctx> states = States.of(m.def);
            Saves saves = Saves.of(states);
            SplittableRandom r = new SplittableRandom(seed * 7919L);
            int entities = 1 + r.nextInt(3);
            Script script = new Script(m, seed, entities);
            int cut = r.nextInt(script.size());
            try (StateWorld original = StateWorld.create(); StateWorld restored = StateWorld.create()) {
                Supplier<String> where = () -> m.describe() + "\ncheckpoint before input " + cut + script.recent();
                run(where, () -> {
                    for (int k = 0; k < entities; k++) {
                        original.spawn(EntityKey.of("e" + k), states.trait(new Ctx()));
                    }
                    for (Input in : script) {
                        if (script.at() == cut) {
                            saves.restoreSpawningMissing(restored, saves.checkpoint(original));
                            assertEquals(saves.dump(original), saves.dump(restored), where);
                        }
                        in.apply(original, states, false);
                        if (script.at() >= cut) {
                            in.apply(restored, states, false);
                            if (in.kind == Input.Kind.STEP) {
                                assertEquals(saves.dump(original), saves.dump(restored), where);
                            }
                        }
                    }
                });
            }
        }
    }

    /**
     * Property 3: an input log replayed into a fresh world gives the world it was recorded in.
     * Here only logged inputs move the machines: the context bits arrive as an event whose
     * handler writes them (a {@code Long} argument), since a direct write is not an input. Some
     * entities are spawned and run before the log starts (they are in its checkpoint), the others
     * are spawned after (spawns in it); the log may start between a send and the next step.
     */
    @Test
    void anInputLogReplayedIntoAFreshWorldGivesTheWorldItWasRecordedIn() {
        for (int seed = 1; seed <= RUNS; seed++) {
            RandomPolledMachine m = new RandomPolledMachine("replay", seed);
            States<Ctx> states = States.of(m.def);
            Saves saves = Saves.of(states);
            SplittableRandom r = new SplittableRandom(seed * 104729L);
            int entities = 1 + r.nextInt(3);
            int before = r.nextInt(entities + 1);
            Script script = new Script(m, seed, entities);
            int start = r.nextInt(script.size() / 2);
            try (StateWorld live = StateWorld.create(); StateWorld replica = StateWorld.create()) {
                Supplier<String> where = () -> m.describe() + "\n" + before + " of " + entities + " entities spawned before the log,"
                        + " which starts before input " + start + script.recent();
                run(where, () -> {
                    for (int k = 0; k < before; k++) {
                        live.spawn(EntityKey.of("e" + k), states.trait(new Ctx()));
                    }
                    InputLog log = null;
                    for (Input in : script) {
                        if (script.at() == start) {
                            log = InputLog.start(saves, live);
                            for (int k = before; k < entities; k++) {
                                live.spawn(EntityKey.of("e" + k), states.trait(new Ctx()));
                            }
                        }
                        if (log != null || in.kind == Input.Kind.STEP || in.entity < before) {
                            in.apply(live, states, true);
                        }
                    }
                    InputLog.replay(saves, replica, log.text());
                    assertEquals(saves.dump(live), saves.dump(replica), where);
                });
            }
        }
    }

    /**
     * Property 5: a world going back to a random kept tick and stepping again with the same inputs
     * ({@link Rewind}) gives, after every later step, the dumps the straight run gave: the clocks,
     * the previous leaf and the {@code after} marks are state, so the same guards and afters fire
     * on the same ticks.
     */
    @Test
    void aRewindAndTheSameInputsAgainGiveTheDumpsOfTheStraightRun() {
        for (int seed = 1; seed <= RUNS; seed++) {
            RandomPolledMachine m = new RandomPolledMachine("rewind", seed);
            if (seed > RUNS / 5) {
                break; // each run dumps after every step: a fifth of the runs covers the property in seconds
            }
            States<Ctx> states = States.of(m.def);
            Saves saves = Saves.of(states);
            SplittableRandom r = new SplittableRandom(seed * 6151L);
            int entities = 1 + r.nextInt(3);
            Script script = new Script(m, seed, entities);
            try (StateWorld world = StateWorld.create()) {
                Supplier<String> where = () -> m.describe() + script.recent();
                run(where, () -> {
                    for (int k = 0; k < entities; k++) {
                        world.spawn(EntityKey.of("e" + k), states.trait(new Ctx()));
                    }
                    Rewind rewind = Rewind.keep(world, 1 + r.nextInt(20)).contexts(states, CTX);
                    List<List<Input>> ticks = new ArrayList<>();
                    List<String> dumps = new ArrayList<>();
                    List<Double> dts = new ArrayList<>();
                    List<Input> tick = new ArrayList<>();
                    for (Input in : script) {
                        if (in.kind != Input.Kind.STEP) {
                            tick.add(in);
                            rewind.input(w -> in.apply(w, states, false));
                            continue;
                        }
                        ticks.add(tick);
                        dts.add(in.dt);
                        tick = new ArrayList<>();
                        rewind.step(in.dt);
                        dumps.add(saves.dump(world));
                        if (r.nextInt(10) == 0 && rewind.tick() > rewind.oldest()) {
                            long back = rewind.oldest() + r.nextInt((int) (rewind.tick() - rewind.oldest()));
                            long now = rewind.tick();
                            rewind.rewind(back);
                            for (long t = back; t < now; t++) {
                                for (Input again : ticks.get((int) t)) {
                                    rewind.input(w -> again.apply(w, states, false));
                                }
                                rewind.step(dts.get((int) t));
                                assertEquals(dumps.get((int) t), saves.dump(world), where + "\nback to tick " + back + ", tick " + t);
                            }
                        }
                    }
                });
            }
        }
    }

    /** The context, field by field (its log as counted UTF-8 strings): a test's codec, not a fast one. */
    static final Rewind.ContextBytes<Ctx> CTX = new Rewind.ContextBytes<>() {
        @Override
        public void write(Ctx c, java.nio.ByteBuffer out) {
            out.putLong(c.bits).putInt(c.sum).putLong(c.folded).putInt(c.calls).putInt(c.log.size());
            for (String call : c.log) {
                byte[] b = call.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                out.putInt(b.length).put(b);
            }
        }

        @Override
        public Ctx read(Ctx c, java.nio.ByteBuffer in) {
            c.bits = in.getLong();
            c.sum = in.getInt();
            c.folded = in.getLong();
            c.calls = in.getInt();
            c.log.clear();
            for (int n = in.getInt(); n > 0; n--) {
                byte[] b = new byte[in.getInt()];
                in.get(b);
                c.log.add(new String(b, java.nio.charset.StandardCharsets.UTF_8));
            }
            return c;
        }
    };

    /**
     * Property 4: the document's rules for one step hold after every step of a plain machine.
     * <ul>
     * <li>The active states are one branch from the root to an atomic leaf.</li>
     * <li>A state has been active no longer than its parent ("t is seconds spent in that state").</li>
     * <li>A step takes at most 8 guard or {@code after} hops, then at most one update transition,
     * after which nothing moves ("ends the pass").</li>
     * <li>A guard never re-enters an active state: a guard that held named a state that was not
     * active, and the machine went there.</li>
     * <li>Clocks advance before transitions: a state entered in the step reads 0, one active
     * throughout gained dt.</li>
     * </ul>
     * The guards, updates and enters are instrumented (they tell the probe when they hold, name a
     * target or run), and the change listener tells it each transition, so each change has a known cause.
     */
    @Test
    void afterEveryStepOneBranchIsActiveClocksNestAndGuardsNeverReEnter() {
        int[] coverage = new int[4]; // steps with 8 hops, guard hops, after hops, update transitions
        for (int seed = 1; seed <= RUNS; seed++) {
            RandomPolledMachine m = new RandomPolledMachine("invariants", seed);
            Script script = new Script(m, seed, 1);
            StateMachine<Ctx> fsm = new StateMachine<>(m.def, new Ctx());
            Probe probe = m.probe;
            fsm.on("change", (to, from) -> probe.heard("change", from, to, String.join(",", fsm.branch())));
            Supplier<String> where = () -> m.describe() + script.recent() + "\nheard in the last step: " + probe;
            run(where, () -> {
                assertOneBranch(fsm, where);
                for (Input in : script) {
                    if (in.kind != Input.Kind.STEP) {
                        in.apply(fsm, false);
                        assertOneBranch(fsm, where);
                        continue;
                    }
                    List<String> branch = fsm.branch();
                    Map<String, Double> clocks = clocksOf(fsm);
                    probe.start();
                    in.apply(fsm, false);
                    probe.stop();
                    checkStep(probe, branch, where, coverage);
                    assertOneBranch(fsm, where);
                    checkClocks(fsm, clocks, in.dt, probe, where);
                }
            });
        }
        // the generator must make the rules bite, or the property proves little
        assertTrue(coverage[0] > 0, "some step hit the 8-hop cap");
        assertTrue(coverage[1] > 0 && coverage[2] > 0 && coverage[3] > 0,
                "guard hops, after hops and update transitions all happened: " + Arrays.toString(coverage));
    }

    /** The generator makes what the properties need: deep trees, 0-second and $back afters, every kind of on. */
    @Test
    void theGeneratorMakesEveryFeatureOfTheStyle() {
        Set<String> seen = new HashSet<>();
        for (int seed = 1; seed <= 100; seed++) {
            seen.addAll(new RandomPolledMachine("generator", seed).features);
        }
        for (String f : List.of("depth 3", "initial", "root to", "to on bit", "to on t", "after 0", "after $back", "after self",
                "after ancestor", "update", "root update", "update $back", "on target", "on $back", "on handler", "root on")) {
            assertTrue(seen.contains(f), "100 random machines have no " + f + "; seen " + seen);
        }
    }

    // ------------------------------------------------------------------ checks

    private static void assertAlike(StateMachine<Ctx> fsm, StateRecord<Ctx> rec, Supplier<String> where) {
        assertEquals(fsm.state(), rec.state(), where);
        assertEquals(fsm.previous(), rec.previous(), where);
        assertEquals(fsm.time(), rec.time(), where);
        assertEquals(fsm.totalTime(), EntityRecord.of(rec).clock(0), where);
        List<String> branch = fsm.branch();
        assertEquals(branch, branchOf(EntityRecord.of(rec)), where);
        for (String path : branch) {
            assertEquals(fsm.timeIn(path), rec.timeIn(path), () -> "timeIn(" + path + ") " + where.get());
        }
        Ctx a = fsm.ctx();
        Ctx b = rec.context();
        assertEquals(a.log, b.log, where);
        assertEquals(a.calls, b.calls, where);
        assertEquals(a.folded, b.folded, where);
        assertEquals(a.bits, b.bits, where);
        assertEquals(a.sum, b.sum, where);
    }

    /** Every active state's path, in document order (the plain machine's {@code branch()}). */
    private static List<String> branchOf(MachineRecord r) {
        int[] active = new int[r.activeCount()];
        for (int i = 0; i < active.length; i++) {
            active[i] = r.activeAt(i);
        }
        Arrays.sort(active);
        List<String> out = new ArrayList<>();
        for (int s : active) {
            if (s > 0) {
                out.add(r.chart().path[s]);
            }
        }
        return out;
    }

    /** One branch root to atomic leaf, and each clock no more than its parent's. */
    private static void assertOneBranch(StateMachine<Ctx> fsm, Supplier<String> where) {
        MachineRecord r = Access.record(fsm);
        var c = r.chart();
        assertTrue(r.isActive(0), where);
        int leaf = 0;
        for (int i = 0; i < r.activeCount(); i++) {
            int s = r.activeAt(i);
            if (s > 0) {
                assertTrue(r.isActive(c.parent[s]), () -> c.path[s] + "'s parent is active " + where.get());
                assertTrue(r.clock(s) <= r.clock(c.parent[s]) + 1e-9,
                        () -> c.path[s] + " has been active " + r.clock(s) + " s, longer than its parent's " + r.clock(c.parent[s]) + " s "
                                + where.get());
            }
            int activeChildren = 0;
            for (int child : c.regularChildren[s]) {
                activeChildren += r.isActive(child) ? 1 : 0;
            }
            int n = activeChildren;
            if (c.regularChildren[s].length > 0) {
                assertEquals(1, n, () -> (s == 0 ? "the root" : c.path[s]) + " has exactly one active child " + where.get());
            } else {
                leaf = s;
            }
        }
        int atomic = leaf;
        assertTrue(atomic > 0, where);
        assertEquals(c.depth[atomic] + 1, r.activeCount(), () -> "only the leaf's branch is active " + where.get());
        assertEquals(c.path[atomic], fsm.state(), where);
    }

    /**
     * Reads what the probe heard in one step: each change is caused by the guard or update heard
     * just before it, or else by an {@code after} (which has no code to instrument).
     */
    private static void checkStep(Probe probe, List<String> branchBefore, Supplier<String> where, int[] coverage) {
        Set<String> active = new HashSet<>(branchBefore);
        int hops = 0;
        boolean updateMoved = false;
        String[] cause = null;
        for (String[] h : probe.heard) {
            switch (h[0]) {
                case "guard":
                    assertTrue(cause == null, () -> "a guard held but no transition followed " + where.get());
                    assertTrue(!active.contains(h[2]), () -> "the guard of '" + h[1] + "' held for '" + h[2]
                            + "', which is active: a guard whose target is active is skipped " + where.get());
                    cause = h;
                    break;
                case "enter":
                    break;
                case "update":
                    assertTrue(cause == null || cause[0].equals("update"), () -> "a guard held but no transition followed " + where.get());
                    assertTrue(!updateMoved, () -> "an update ran after one moved the machine: that ends the pass " + where.get());
                    stayedOnActive(cause, active, where);
                    cause = h;
                    break;
                default: { // change: from, to, branch after
                    String from = h[1];
                    String to = h[2];
                    assertTrue(!updateMoved, () -> "the machine moved after an update's transition in the same step " + where.get());
                    if (cause != null && cause[0].equals("update")) {
                        String[] u = cause;
                        Set<String> was = active;
                        assertTrue(u[3].equals(StatesBuilder.BACK) || !was.contains(u[3]), () -> "the update of '" + u[1] + "' re-entered '"
                                + u[3] + "': only go() and events re-enter " + where.get());
                        updateMoved = true;
                        coverage[3]++;
                    } else {
                        hops++;
                        coverage[cause == null ? 2 : 1]++;
                    }
                    if (cause != null && cause[0].equals("guard")) {
                        String target = cause[2];
                        assertTrue(!to.equals(from), () -> "a guard re-entered '" + to + "' " + where.get());
                        assertTrue(to.equals(target) || to.startsWith(target + "."),
                                () -> "the guard for '" + target + "' moved the machine to '" + to + "' " + where.get());
                    }
                    active = new HashSet<>(Arrays.asList(h[3].split(",")));
                    cause = null;
                }
            }
        }
        int n = hops;
        assertTrue(n <= 8, () -> n + " guard or after hops in one step; at most 8 " + where.get());
        if (n == 8) {
            coverage[0]++;
        }
        boolean guardLeftHanging = cause != null && cause[0].equals("guard");
        assertTrue(!guardLeftHanging, () -> "a guard held but no transition followed " + where.get());
        stayedOnActive(cause, active, where);
    }

    /**
     * An update heard with no move after it named an active state: only go() and events re-enter (the
     * {@code 000} document), so it stayed and the pass went on. ({@code $back} names the previous leaf,
     * which the probe does not follow.)
     */
    private static void stayedOnActive(String[] cause, Set<String> active, Supplier<String> where) {
        if (cause != null && cause[0].equals("update") && !cause[3].equals(StatesBuilder.BACK)) {
            assertTrue(active.contains(cause[3]), () -> "the update of '" + cause[1] + "' named '" + cause[3]
                    + "', which is not active, and nothing moved " + where.get());
        }
    }

    /** Every active state's clock by path, the root's as "". */
    private static Map<String, Double> clocksOf(StateMachine<Ctx> fsm) {
        Map<String, Double> out = new HashMap<>();
        out.put("", fsm.totalTime());
        for (String p : fsm.branch()) {
            out.put(p, fsm.timeIn(p));
        }
        return out;
    }

    /**
     * "Every active state's clock advances" first, then transitions: a state entered during the
     * step reads 0 after it, one active throughout has gained dt (the root's t is the total).
     */
    private static void checkClocks(StateMachine<Ctx> fsm, Map<String, Double> before, double dt, Probe probe, Supplier<String> where) {
        Set<String> entered = new HashSet<>();
        for (String[] h : probe.heard) {
            if (h[0].equals("enter")) {
                entered.add(h[1]);
            }
        }
        Map<String, Double> after = clocksOf(fsm);
        for (Map.Entry<String, Double> e : after.entrySet()) {
            String p = e.getKey();
            double t = e.getValue();
            if (entered.contains(p)) {
                assertEquals(0, t, () -> "'" + p + "' was entered in the step, yet its clock reads " + t + " " + where.get());
            } else {
                Double was = before.get(p);
                assertTrue(was != null, () -> "'" + p + "' is active but was neither active before the step nor entered in it " + where.get());
                assertEquals(was + dt, t, 1e-9, () -> "'" + (p.isEmpty() ? "the root" : p) + "' stayed active through a step of " + dt
                        + " s but its clock went from " + was + " to " + t + " " + where.get());
            }
        }
    }

    /** Runs a property's body, naming the machine and the inputs when the engine throws. */
    private static void run(Supplier<String> where, Runnable body) {
        try {
            body.run();
        } catch (RuntimeException e) {
            throw new AssertionError(e + "\n" + where.get(), e);
        }
    }

    // ------------------------------------------------------------------ the context and the probe

    /** The context: public fields and a no-argument constructor, so checkpoints and dumps read and write it. */
    public static final class Ctx {
        /** How many calls the log keeps; older ones are folded into {@link #folded}, so dumps stay small. */
        static final int KEEP = 12;
        /** The sensor bits the test drives; guards, updates and handlers read them. */
        public long bits;
        /** What event handlers add up from their arguments. */
        public int sum;
        /** The latest enter/exit calls: {@code +path<from} and {@code -path>to}. */
        public List<String> log = new ArrayList<>();
        /** A hash of every call dropped from the log, in order. */
        public long folded;
        /** How many enter/exit calls there were in all. */
        public int calls;

        void note(String call) {
            calls++;
            log.add(call);
            if (log.size() > KEEP) {
                folded = folded * 31 + log.remove(0).hashCode();
            }
        }
    }

    /**
     * What the test hears from inside one machine's step: guards that held, updates that named a
     * target, and changes. The test's instrument, not game state, so not in the context.
     */
    static final class Probe {
        final List<String[]> heard = new ArrayList<>();
        private boolean on;

        void start() {
            heard.clear();
            on = true;
        }

        void stop() {
            on = false;
        }

        void heard(String... what) {
            if (on) {
                heard.add(what);
            }
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder();
            for (String[] h : heard) {
                sb.append(Arrays.toString(h)).append(' ');
            }
            return sb.toString();
        }
    }

    static boolean bit(Ctx c, int b) {
        return (c.bits >>> b & 1) != 0;
    }

    static int intArg(Object[] args) {
        return args.length > 0 && args[0] instanceof Integer ? (Integer) args[0] : 1;
    }

    static boolean boolArg(Object[] args) {
        return args.length > 1 && args[1] instanceof Boolean && (Boolean) args[1];
    }

    // ------------------------------------------------------------------ the generator

    /**
     * A random polled machine from a seed: first a tree of 1 to 12 states, depth up to 3 (keys
     * {@code s0, s1, ...}, unique, so each target is known), then for each state and the root
     * random guards, after, update, enter/exit and on, each target named by its key when it is in
     * reach of the declaring state (the document's relative names), else by its path.
     */
    static final class RandomPolledMachine {
        static final int BITS = 8;
        static final String[] EVENTS = {"E0", "E1", "E2", "E3"};
        static final double[] SECONDS = {0, 1 / 60.0, 0.1, 0.2, 0.25, 0.5, 1, 2};
        static final double[] THRESHOLDS = {0, 1 / 60.0, 0.1, 0.25, 0.5, 1};

        final StatesDef<Ctx> def;
        final Probe probe = new Probe();
        final Set<String> features = new HashSet<>();
        private final SplittableRandom r;
        private final String id;
        // the tree: index 0 is the root
        private final List<String> key;
        private final List<String> path;
        private final List<Integer> parent;
        private final List<Integer> depth;
        private final List<List<Integer>> kids;
        private final StringBuilder text = new StringBuilder();

        RandomPolledMachine(String property, int seed) {
            this.r = new SplittableRandom(seed);
            this.id = property + "-" + seed;
            RandomTree tree = new RandomTree(r);
            key = tree.key;
            path = tree.path;
            parent = tree.parent;
            depth = tree.depth;
            kids = tree.kids;
            if (tree.reachesDepth3()) {
                features.add("depth 3");
            }
            this.def = StatesDef.define(id, Ctx::new, d -> declare(d, 0));
        }

        /** The machine as text, one line per state, for failure messages. */
        String describe() {
            return "\nmachine " + id + " (seed " + id.substring(id.lastIndexOf('-') + 1) + "; every state logs its enter and exit,"
                    + " the root's on bits sets the bits, unknown events are accepted):\n" + text;
        }

        int states() {
            return key.size() - 1;
        }

        String pathOf(int s) {
            return path.get(s);
        }

        private void declare(StatesBuilder<Ctx> b, int s) {
            String where = s == 0 ? "root" : path.get(s);
            List<String> line = new ArrayList<>();
            if (s == 0) {
                b.unknownEvents(UnknownEvents.ACCEPT);
                // the one way property 3's inputs write the context: an event the root alone names
                b.on("bits", (c, args) -> {
                    c.bits = (Long) args[0];
                    return null;
                });
            }
            if (!kids.get(s).isEmpty() && r.nextBoolean()) {
                String first = key.get(kids.get(s).get(r.nextInt(kids.get(s).size())));
                b.initial(first);
                line.add("initial " + first);
                features.add("initial");
            }
            // guards: on bits, on t, or both; targets anywhere (an active one is skipped)
            int guards = r.nextInt(s == 0 ? 2 : 3);
            Set<Integer> used = new HashSet<>();
            for (int g = 0; g < guards; g++) {
                int t = 1 + r.nextInt(states());
                if (!used.add(t)) {
                    continue;
                }
                String name = nameFor(s, t);
                String targetPath = path.get(t);
                int bit = r.nextInt(BITS);
                boolean set = r.nextBoolean();
                double th = THRESHOLDS[r.nextInt(THRESHOLDS.length)];
                int kind = r.nextInt(3);
                StateGuard<Ctx> test;
                if (kind == 0) {
                    test = (c, time) -> bit(c, bit) == set;
                    line.add("to " + name + " when bit " + bit + (set ? "" : " clear"));
                    features.add("to on bit");
                } else if (kind == 1) {
                    test = (c, time) -> time >= th;
                    line.add("to " + name + " when t >= " + th);
                    features.add("to on t");
                } else {
                    test = (c, time) -> bit(c, bit) == set && time >= th;
                    line.add("to " + name + " when bit " + bit + (set ? "" : " clear") + " and t >= " + th);
                }
                if (s == 0) {
                    features.add("root to");
                }
                Probe probe = this.probe;
                b.to(name, (c, time) -> {
                    boolean holds = test.test(c, time);
                    if (holds) {
                        probe.heard("guard", where, targetPath);
                    }
                    return holds;
                });
            }
            if (s > 0 && r.nextInt(3) == 0) {
                double seconds = SECONDS[r.nextInt(SECONDS.length)];
                String target = timedTarget(s, "after");
                b.after(seconds, target);
                line.add("after " + seconds + " -> " + target);
                if (seconds == 0) {
                    features.add("after 0");
                }
            }
            if (r.nextInt(s == 0 ? 4 : 3) == 0) {
                b.update(update(s, where, line));
            }
            if (s > 0) {
                String me = path.get(s);
                Probe probe = this.probe;
                b.enter((c, from) -> {
                    c.note("+" + me + "<" + from);
                    probe.heard("enter", me);
                });
                b.exit((c, to) -> c.note("-" + me + ">" + to));
            }
            int ons = r.nextInt(3);
            Set<String> named = new HashSet<>();
            for (int o = 0; o < ons; o++) {
                String event = EVENTS[r.nextInt(EVENTS.length)];
                if (!named.add(event)) {
                    continue;
                }
                if (s == 0) {
                    features.add("root on");
                }
                if (r.nextBoolean()) {
                    String target = r.nextInt(4) == 0 ? StatesBuilder.BACK : nameFor(s, 1 + r.nextInt(states()));
                    b.on(event, target);
                    line.add("on " + event + " -> " + target);
                    features.add(target.equals(StatesBuilder.BACK) ? "on $back" : "on target");
                } else {
                    b.on(event, handler(s, event, line));
                    features.add("on handler");
                }
            }
            text.append("  ").append(where).append(": ").append(String.join("; ", line)).append('\n');
            for (int kid : kids.get(s)) {
                b.state(key.get(kid), k -> declare(k, kid));
            }
        }

        /** An update that names a target while two bits hold, or once the state is old enough. */
        private StateUpdate<Ctx> update(int s, String where, List<String> line) {
            String target = timedTarget(s, "update");
            int bit = r.nextInt(BITS);
            int other = r.nextInt(BITS);
            double th = THRESHOLDS[r.nextInt(THRESHOLDS.length)] * 4;
            line.add("update: bits " + bit + " and " + other + " or t >= " + th + " ? " + target + " : null");
            features.add(s == 0 ? "root update" : "update");
            if (target.equals(StatesBuilder.BACK)) {
                features.add("update $back");
            }
            // keys are unique, so a name's last segment (the key itself, or a path's last) finds its state
            String targetPath = target.equals(StatesBuilder.BACK) ? target
                    : path.get(key.indexOf(target.substring(target.lastIndexOf('.') + 1)));
            Probe probe = this.probe;
            return (c, dt, t) -> {
                String out = bit(c, bit) && bit(c, other) || t >= th && th > 0 ? target : null;
                if (out != null) {
                    probe.heard("update", where, out, targetPath);
                }
                return out;
            };
        }

        /** A handler that adds its first argument to the sum and moves, or stays, on a bit and its second argument. */
        private StateEventHandler<Ctx> handler(int s, String event, List<String> line) {
            String target = r.nextInt(4) == 0 ? StatesBuilder.BACK : nameFor(s, 1 + r.nextInt(states()));
            int bit = r.nextInt(BITS);
            line.add("on " + event + " (sum += args[0]) -> bit " + bit + " xor args[1] ? " + target + " : null");
            return (c, args) -> {
                c.sum += intArg(args);
                return bit(c, bit) ^ boolArg(args) ? target : null;
            };
        }

        /** An after's or update's target: any state, $back, the state itself or one of its ancestors. */
        private String timedTarget(int s, String what) {
            int kind = r.nextInt(5);
            if (kind == 0) {
                features.add(what + " $back");
                return StatesBuilder.BACK;
            }
            if (kind == 1 && s > 0) {
                features.add(what + " self");
                return key.get(s);
            }
            if (kind == 2 && s > 0 && parent.get(s) > 0) {
                List<Integer> ancestors = new ArrayList<>();
                for (int a = parent.get(s); a > 0; a = parent.get(a)) {
                    ancestors.add(a);
                }
                features.add(what + " ancestor");
                return key.get(ancestors.get(r.nextInt(ancestors.size())));
            }
            return nameFor(s, 1 + r.nextInt(states()));
        }

        /** The key when the document's relative lookup from {@code from} finds it (half the time), else the path. */
        private String nameFor(int from, int target) {
            return inReach(from, target) && r.nextBoolean() ? key.get(target) : path.get(target);
        }

        /** The declaring state's siblings, its own children, each ancestor's siblings. */
        private boolean inReach(int from, int target) {
            int p = parent.get(target);
            if (p == from || from > 0 && p == parent.get(from)) {
                return true;
            }
            for (int a = from > 0 ? parent.get(from) : -1; a > 0; a = parent.get(a)) {
                if (p == parent.get(a)) {
                    return true;
                }
            }
            return false;
        }
    }

    // ------------------------------------------------------------------ inputs

    /** One input a game gives a world's entity (or the plain machine): bits, a send, a go, or the step. */
    static final class Input {
        enum Kind { BITS, SEND, GO, STEP }

        final Kind kind;
        final int tick;
        final int entity;
        final long bits;
        final String name;
        final Object[] args;
        final double dt;

        private Input(Kind kind, int tick, int entity, long bits, String name, Object[] args, double dt) {
            this.kind = kind;
            this.tick = tick;
            this.entity = entity;
            this.bits = bits;
            this.name = name;
            this.args = args;
            this.dt = dt;
        }

        /** Applies it to a plain machine; a send's answer, else null. */
        Boolean apply(StateMachine<Ctx> fsm, boolean bitsAsEvent) {
            switch (kind) {
                case BITS:
                    if (bitsAsEvent) {
                        return fsm.send("bits", bits);
                    }
                    fsm.ctx().bits = bits;
                    return null;
                case SEND:
                    return args.length == 0 ? fsm.send(name) : fsm.send(name, args);
                case GO:
                    fsm.go(name);
                    return null;
                default:
                    fsm.step(dt);
                    return null;
            }
        }

        /** Applies it to the entity {@code e<entity>} of a world (a step steps the world); a send's answer, else null. */
        Boolean apply(StateWorld world, States<Ctx> states, boolean bitsAsEvent) {
            if (kind == Kind.STEP) {
                world.step(dt);
                return null;
            }
            Entity e = world.entity("e" + entity);
            switch (kind) {
                case BITS:
                    if (bitsAsEvent) {
                        return states.send(e, "bits", bits);
                    }
                    states.read(e).context().bits = bits; // this world's own context
                    return null;
                case SEND:
                    return args.length == 0 ? states.send(e, name) : states.send(e, name, args);
                default:
                    states.go(e, name);
                    return null;
            }
        }

        @Override
        public String toString() {
            return "tick " + tick + ": " + describe();
        }

        private String describe() {
            switch (kind) {
                case BITS:
                    return "e" + entity + " bits=" + Long.toBinaryString(bits);
                case SEND:
                    return "e" + entity + " send " + name + Arrays.toString(args);
                case GO:
                    return "e" + entity + " go " + name;
                default:
                    return "step " + dt;
            }
        }
    }

    /**
     * The inputs of {@value #STEPS} ticks from a seed, made up front so that two worlds, or a world
     * and a plain machine, get exactly the same: in each tick, for each entity maybe new bits, maybe
     * an event (E4 no state names) with 0 to 2 arguments, rarely a go; then one step: in half the
     * scripts 1/60 s or 0 s, in the others also a random dt up to 0.4 s. Iterating it notes where it is, for failure messages.
     */
    static final class Script implements Iterable<Input> {
        private final List<Input> inputs = new ArrayList<>();
        private int at = -1;

        Script(RandomPolledMachine m, int seed, int entities) {
            SplittableRandom r = new SplittableRandom(seed * 31L + 17);
            // half the scripts step a fixed 1/60 s (and sometimes 0), where guards on t meet their
            // thresholds exactly (0.25 s is the 15th step) and a clock's rounding carry decides them
            boolean fixed = r.nextBoolean();
            for (int tick = 0; tick < STEPS; tick++) {
                for (int k = 0; k < entities; k++) {
                    if (r.nextInt(3) == 0) {
                        inputs.add(new Input(Input.Kind.BITS, tick, k, r.nextLong() & (1 << RandomPolledMachine.BITS) - 1, null, null, 0));
                    }
                    if (r.nextInt(4) == 0) {
                        String event = "E" + r.nextInt(5);
                        int n = r.nextInt(3);
                        Object[] args = n == 0 ? new Object[0] : n == 1 ? new Object[] {r.nextInt(10)} : new Object[] {r.nextInt(10), r.nextBoolean()};
                        inputs.add(new Input(Input.Kind.SEND, tick, k, 0, event, args, 0));
                    }
                    if (r.nextInt(40) == 0) {
                        String name = r.nextInt(4) == 0 ? StatesBuilder.BACK : m.pathOf(1 + r.nextInt(m.states()));
                        inputs.add(new Input(Input.Kind.GO, tick, k, 0, name, null, 0));
                    }
                }
                int dt = r.nextInt(10);
                double seconds = dt < 7 || fixed && dt < 9 ? 1 / 60.0 : dt == 9 ? 0 : r.nextDouble() * 0.4;
                inputs.add(new Input(Input.Kind.STEP, tick, -1, 0, null, null, seconds));
            }
        }

        int size() {
            return inputs.size();
        }

        /** The index of the input being applied. */
        int at() {
            return at;
        }

        @Override
        public Iterator<Input> iterator() {
            at = -1;
            return new Iterator<>() {
                @Override
                public boolean hasNext() {
                    return at + 1 < inputs.size();
                }

                @Override
                public Input next() {
                    return inputs.get(++at);
                }
            };
        }

        /** The inputs up to the one being applied, for failure messages. */
        String recent() {
            StringBuilder sb = new StringBuilder("\nlast inputs (the last one applied last):");
            for (int i = Math.max(0, at - 29); i <= at && i < inputs.size(); i++) {
                sb.append("\n  #").append(i).append(' ').append(inputs.get(i));
            }
            return sb.toString();
        }
    }
}

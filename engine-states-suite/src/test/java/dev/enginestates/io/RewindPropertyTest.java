package dev.enginestates.io;

import dev.enginestates.ecs.Rewind;
import dev.enginestates.ecs.SnapshotBytes;
import dev.enginestates.ecs.StateWorld;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Rollback's promise, over random worlds (random machines, sends, states set by hand, holds,
 * spawns and despawns): a client that steps ahead with the inputs it has, and goes back and steps
 * again each time a late input arrives, ends with the records of a world that had every input on
 * time, byte for byte; and going back then stepping again with the same inputs changes nothing.
 */
class RewindPropertyTest {
    static {
        RandomWorlds.quiet();
    }

    static final int RUNS = Integer.getInteger("property.runs", 400);

    /** The random worlds' context, field by field. */
    static final Rewind.ContextBytes<RandomWorlds.Ctx> CTX = new Rewind.ContextBytes<>() {
        @Override
        public void write(RandomWorlds.Ctx c, ByteBuffer out) {
            out.putInt(c.n).putInt(c.entries).putInt(c.exits).putDouble(c.total).putInt(c.a).putInt(c.taken);
        }

        @Override
        public RandomWorlds.Ctx read(RandomWorlds.Ctx c, ByteBuffer in) {
            c.n = in.getInt();
            c.entries = in.getInt();
            c.exits = in.getInt();
            c.total = in.getDouble();
            c.a = in.getInt();
            c.taken = in.getInt();
            return c;
        }
    };

    /** A spec's inputs cut into ticks: each tick's inputs before its step, and its dt. */
    static final class Ticks {
        final List<List<RandomWorlds.Input>> inputs = new ArrayList<>();
        final List<Double> dts = new ArrayList<>();

        Ticks(RandomWorlds.Spec spec) {
            List<RandomWorlds.Input> tick = new ArrayList<>();
            for (RandomWorlds.Input in : spec.inputs) {
                if (in instanceof RandomWorlds.Step step) {
                    inputs.add(tick);
                    dts.add(step.dt());
                    tick = new ArrayList<>();
                } else {
                    tick.add(in);
                }
            }
        }

        int size() {
            return dts.size();
        }
    }

    /**
     * An input as a rewind runs it: in a predicted world the entity it names may be missing (its
     * spawn is late) or gone (a despawn arrived): the input then does nothing, as a game's would.
     */
    static Rewind.Input tolerant(RandomWorlds.Input in) {
        return w -> {
            String key = in instanceof RandomWorlds.Send s ? s.key() : in instanceof RandomWorlds.SetState s ? s.key()
                    : in instanceof RandomWorlds.Mark m ? m.key() : in instanceof RandomWorlds.Despawn d ? d.key() : null;
            if (key != null && w.entity(key) == null) {
                return;
            }
            if (in instanceof RandomWorlds.Spawn s && w.entity(s.key()) != null) {
                return;
            }
            if (in instanceof RandomWorlds.Mark m) {
                // a hold is set on or off, whatever the predicted world had (the input that put it on may be late)
                dev.dominion.ecs.api.Entity e = w.entity(m.key());
                if (e.has(m.paused() ? dev.enginestates.ecs.MachinePaused.class : RandomWorlds.Stunned.class) == m.add()) {
                    return;
                }
            }
            in.apply(w);
        };
    }

    /**
     * What a listener of the client world believes: each machine's leaves as it was last told (a
     * change's {@code to}, gone on a despawn). After every resimulation it must be what the world
     * holds: the net changes told are exactly enough, none missing, none stale.
     */
    static final class Heard implements dev.enginestates.MachineListener<dev.enginestates.ecs.StateRecord<?>> {
        final StateWorld world;
        final java.util.Map<String, String> believed = new java.util.TreeMap<>();

        Heard(StateWorld world) {
            this.world = world;
            for (dev.enginestates.ecs.States<?> m : world.machines()) {
                for (dev.enginestates.ecs.StateRecord<?> r : world.records(m)) {
                    believed.put(name(r), r.state());
                }
            }
            world.addListener(this);
        }

        static String name(dev.enginestates.ecs.StateRecord<?> r) {
            return StateWorld.keyOf(r.entity()) + " " + r.machineId();
        }

        @Override
        public void stateChanged(dev.enginestates.ecs.StateRecord<?> r, String from, String to, String event) {
            if (to.isEmpty()) {
                believed.remove(name(r));
            } else {
                believed.put(name(r), to);
            }
        }

        void check(String where) {
            java.util.Map<String, String> actual = new java.util.TreeMap<>();
            for (dev.enginestates.ecs.States<?> m : world.machines()) {
                for (dev.enginestates.ecs.StateRecord<?> r : world.records(m)) {
                    actual.put(name(r), r.state());
                }
            }
            assertEquals(actual, believed, where + ": what the listener was told");
        }
    }

    @Test
    void aClientThatGetsLateInputsAndResimulatesEndsEqualToAWorldThatHadThemOnTime() {
        RandomWorlds.Options o = new RandomWorlds.Options().spawns(true).despawns(true).marks(true).tagsOneIn(3);
        int late = 0;
        int resimulated = 0;
        for (int run = 0; run < RUNS * 5 / 2; run++) { // a thousand random worlds by default
            long seed = 0x7E_3300L + run;
            RandomWorlds.Spec spec = RandomWorlds.generate(seed, o);
            Ticks ticks = new Ticks(spec);
            SplittableRandom r = new SplittableRandom(seed * 7);
            int window = 1 + r.nextInt(16);
            StateWorld straight = spec.newWorld();
            StateWorld client = spec.newWorld();
            try {
                Rewind onTime = Rewind.keep(straight, window);
                Rewind rewind = Rewind.keep(client, window);
                Heard heard = new Heard(client);
                spec.machines.forEach(m -> {
                    rewind.contexts(m.states, CTX);
                    onTime.contexts(m.states, CTX);
                });
                // which inputs arrive late, and when: at most window - 1 ticks late, so their tick is still kept
                int[][] arrives = new int[ticks.size()][];
                for (int t = 0; t < ticks.size(); t++) {
                    int n = ticks.inputs.get(t).size();
                    arrives[t] = new int[n];
                    for (int i = 0; i < n; i++) {
                        arrives[t][i] = window > 1 && r.nextInt(3) == 0 ? t + 1 + r.nextInt(window - 1) : t;
                        late += arrives[t][i] > t ? 1 : 0;
                    }
                }
                long start = client.steps();
                for (int t = 0; t < ticks.size() + window; t++) {
                    // the late inputs that arrive now: each late tick gets its known inputs again, in their order
                    boolean any = false;
                    for (int past = Math.max(0, t - window); past < Math.min(t, ticks.size()); past++) {
                        boolean arrivesNow = false;
                        for (int a : arrives[past]) {
                            arrivesNow |= a == t;
                        }
                        if (arrivesNow) {
                            rewind.clearInputs(start + past);
                            List<RandomWorlds.Input> in = ticks.inputs.get(past);
                            for (int i = 0; i < in.size(); i++) {
                                if (arrives[past][i] <= t) {
                                    rewind.input(start + past, tolerant(in.get(i)));
                                }
                            }
                            any = true;
                        }
                    }
                    if (any) {
                        resimulated += (int) rewind.resimulate();
                        heard.check(spec + ", window " + window + ", after the resimulation at " + t);
                    }
                    if (t < ticks.size()) {
                        List<RandomWorlds.Input> in = ticks.inputs.get(t);
                        for (int i = 0; i < in.size(); i++) {
                            onTime.input(tolerant(in.get(i)));
                            if (arrives[t][i] == t) {
                                rewind.input(tolerant(in.get(i)));
                            }
                        }
                        onTime.step(ticks.dts.get(t));
                        rewind.step(ticks.dts.get(t));
                    }
                }
                String expected = spec.saves.checkpoint(straight);
                String actual = spec.saves.checkpoint(client);
                if (!expected.equals(actual)) {
                    fail(spec + ", window " + window + ": " + RandomWorlds.firstDifference(expected, actual));
                }
                byte[] a = SnapshotBytes.of(straight, spec.states(), CTX);
                byte[] b = SnapshotBytes.of(client, spec.states(), CTX);
                assertTrue(Arrays.equals(a, b), spec + ": the records' bytes differ although their checkpoints are equal");
            } finally {
                straight.close();
                client.close();
            }
        }
        assertTrue(late > RUNS * 5, "inputs that arrived late: " + late);
        assertTrue(resimulated > RUNS * 5, "ticks stepped again: " + resimulated);
    }

    /**
     * Binary and JSON convert both ways: a kept tick written as JSON ({@link Saves#checkpoint(Rewind, long)})
     * is the checkpoint the world gave at the start of that tick, and that checkpoint restored into a
     * fresh world, kept by a rewind of its own and written as JSON again, is the same text. (The
     * bytes themselves may differ there: a snapshot writes a record's times array whole, the entry
     * times of states no longer active included, which no read sees and a checkpoint does not keep.)
     */
    @Test
    void aKeptTickAsJsonIsTheWorldsCheckpointThenAndBackGivesTheSameBytes() {
        RandomWorlds.Options o = new RandomWorlds.Options().spawns(true).despawns(true).marks(true).tagsOneIn(3);
        int compared = 0;
        for (int run = 0; run < RUNS / 8; run++) {
            long seed = 0x7E_3500L + run;
            RandomWorlds.Spec spec = RandomWorlds.generate(seed, o);
            Ticks ticks = new Ticks(spec);
            SplittableRandom r = new SplittableRandom(seed * 13);
            StateWorld world = spec.newWorld();
            try {
                int window = 1 + r.nextInt(32);
                Rewind rewind = Rewind.keep(world, window);
                spec.machines.forEach(m -> rewind.contexts(m.states, CTX));
                // ticks remembered (their checkpoint and records' bytes), converted back a few ticks later while still kept
                java.util.Map<Long, Object[]> remembered = new java.util.HashMap<>();
                for (int t = 0; t < ticks.size(); t++) {
                    long tick = world.steps();
                    if (r.nextInt(6) == 0) {
                        long due = tick + 1 + r.nextInt(window);
                        remembered.put(tick, new Object[] {spec.saves.checkpoint(world), null, due});
                    }
                    for (RandomWorlds.Input in : ticks.inputs.get(t)) {
                        rewind.input(tolerant(in));
                    }
                    rewind.step(ticks.dts.get(t));
                    for (java.util.Iterator<java.util.Map.Entry<Long, Object[]>> it = remembered.entrySet().iterator(); it.hasNext(); ) {
                        java.util.Map.Entry<Long, Object[]> e = it.next();
                        if ((long) e.getValue()[2] != world.steps()) {
                            continue;
                        }
                        it.remove();
                        String asJson = spec.saves.checkpoint(rewind, e.getKey());
                        if (!e.getValue()[0].equals(asJson)) {
                            fail(spec + ", tick " + e.getKey() + " as JSON: " + RandomWorlds.firstDifference((String) e.getValue()[0], asJson));
                        }
                        try (StateWorld fresh = spec.freshWorld()) {
                            // JSON to binary and back: the checkpoint restored, kept by a rewind of its own, written again
                            spec.saves.restoreSpawningMissing(fresh, asJson);
                            Rewind again = Rewind.keep(fresh, 1);
                            spec.machines.forEach(m -> again.contexts(m.states, CTX));
                            long at = fresh.steps();
                            again.step(RandomWorlds.DT);
                            String twice = spec.saves.checkpoint(again, at);
                            if (!asJson.equals(twice)) {
                                fail(spec + ", tick " + e.getKey() + " from JSON to binary and back: " + RandomWorlds.firstDifference(asJson, twice));
                            }
                        }
                        compared++;
                    }
                }
            } finally {
                world.close();
            }
        }
        assertTrue(compared > RUNS / 8, "ticks converted: " + compared);
    }

    @Test
    void goingBackAndSteppingAgainWithTheSameInputsChangesNothing() {
        RandomWorlds.Options o = new RandomWorlds.Options().spawns(true).despawns(true).marks(true).tagsOneIn(3);
        for (int run = 0; run < RUNS / 2; run++) {
            long seed = 0x7E_3400L + run;
            RandomWorlds.Spec spec = RandomWorlds.generate(seed, o);
            Ticks ticks = new Ticks(spec);
            SplittableRandom r = new SplittableRandom(seed * 11);
            int window = 1 + r.nextInt(64);
            StateWorld world = spec.newWorld();
            try {
                Rewind rewind = Rewind.keep(world, window);
                long start = world.steps();
                spec.machines.forEach(m -> rewind.contexts(m.states, CTX));
                for (int t = 0; t < ticks.size(); t++) {
                    for (RandomWorlds.Input in : ticks.inputs.get(t)) {
                        rewind.input(tolerant(in));
                    }
                    rewind.step(ticks.dts.get(t));
                    if (r.nextInt(8) == 0 && rewind.tick() > rewind.oldest()) {
                        String before = spec.saves.checkpoint(world);
                        long back = rewind.oldest() + r.nextInt((int) (rewind.tick() - rewind.oldest()));
                        // the same inputs, given again: a resimulation from that tick
                        rewind.clearInputs(back);
                        for (RandomWorlds.Input in : ticks.inputs.get((int) (back - start))) {
                            rewind.input(back, tolerant(in));
                        }
                        rewind.resimulate();
                        String after = spec.saves.checkpoint(world);
                        if (!before.equals(after)) {
                            fail(spec + ", window " + window + ", back to " + back + " at " + t + ": " + RandomWorlds.firstDifference(before, after));
                        }
                    }
                }
            } finally {
                world.close();
            }
        }
    }
}

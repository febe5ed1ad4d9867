package dev.enginestates.io;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.MachinePaused;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.WorldBytes;
import dev.enginestates.records.RecordBytes;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * PROTOTYPE (spike "rewind"): a world snapshot in bytes, taken at a random input, then k more
 * inputs, a restore and the same k inputs again ends with the records (and the contexts, through
 * a hand-written {@link WorldBytes.ContextBytes}) the first run ended with, as the JSON checkpoint
 * writes them; and right after the restore the world checkpoints as it did at the snapshot.
 */
class RewindBytesPropertyTest {
    static {
        RandomWorlds.quiet();
    }

    static final int RUNS = Integer.getInteger("property.runs", 400);

    /** The random worlds' context, field by field. */
    static final WorldBytes.ContextBytes<RandomWorlds.Ctx> CTX = new WorldBytes.ContextBytes<>() {
        @Override
        public void write(RandomWorlds.Ctx c, RecordBytes.Buffer out) {
            out.room(28);
            out.putInt(c.n);
            out.putInt(c.entries);
            out.putInt(c.exits);
            out.putDouble(c.total);
            out.putInt(c.a);
            out.putInt(c.taken);
        }

        @Override
        public RandomWorlds.Ctx read(RandomWorlds.Ctx c, RecordBytes.Buffer in) {
            c.n = in.getInt();
            c.entries = in.getInt();
            c.exits = in.getInt();
            c.total = in.getDouble();
            c.a = in.getInt();
            c.taken = in.getInt();
            return c;
        }
    };

    @Test
    void rewindingAndReplayingTheSameInputsEndsWithTheSameRecords() {
        property(new RandomWorlds.Options().spawns(false).marks(false), 0x4E57_0000L);
    }

    @Test
    void rewindingWithHoldsPutBackByTheGameEndsWithTheSameRecords() {
        property(new RandomWorlds.Options().spawns(false).marks(true).tagsOneIn(3), 0x4E58_0000L);
    }

    /** Machines that raise, send themselves events (delayed, with ids) and cancel them: the pending sends are rewound too. */
    @Test
    void rewindingPendingSendsToItselfEndsWithTheSameRecords() {
        WorldBytes.ContextBytes<SendsCheckpointPropertyTest.Ctx> trace = new WorldBytes.ContextBytes<>() {
            @Override
            public void write(SendsCheckpointPropertyTest.Ctx c, RecordBytes.Buffer out) {
                out.room(8);
                out.putLong(c.trace);
            }

            @Override
            public SendsCheckpointPropertyTest.Ctx read(SendsCheckpointPropertyTest.Ctx c, RecordBytes.Buffer in) {
                c.trace = in.getLong();
                return c;
            }
        };
        int[] counts = new int[3];
        int withSends = 0;
        for (int run = 0; run < RUNS / 2; run++) {
            SplittableRandom rnd = new SplittableRandom(0x5E4D + run);
            java.util.List<dev.enginestates.ecs.States<SendsCheckpointPropertyTest.Ctx>> machines = new java.util.ArrayList<>();
            int kinds = 1 + rnd.nextInt(3);
            for (int k = 0; k < kinds; k++) {
                machines.add(SendsCheckpointPropertyTest.machine(rnd, "rw" + run + "-" + k, counts));
            }
            Saves saves = Saves.of(machines.toArray(new dev.enginestates.ecs.States<?>[0]));
            int entities = 1 + rnd.nextInt(4);
            int ops = 50 + rnd.nextInt(200);
            int cut = rnd.nextInt(ops);
            int k = 1 + rnd.nextInt(Math.min(60, ops - cut));
            long[] plan = new long[ops];
            for (int i = 0; i < ops; i++) {
                plan[i] = rnd.nextLong();
            }
            try (StateWorld w = StateWorld.create()) {
                for (int i = 0; i < entities; i++) {
                    Object[] traits = new Object[machines.size() + 1];
                    traits[0] = dev.enginestates.ecs.EntityKey.of("e" + i);
                    for (int m = 0; m < machines.size(); m++) {
                        traits[m + 1] = machines.get(m).trait();
                    }
                    w.spawn(traits);
                }
                WorldBytes bytes = new WorldBytes();
                machines.forEach(m -> bytes.contexts(m, trace));
                for (int i = 0; i < cut; i++) {
                    SendsCheckpointPropertyTest.apply(w, machines, entities, plan[i]);
                }
                String atCut = saves.checkpoint(w);
                withSends += atCut.contains("\"sends\"") ? 1 : 0;
                bytes.snapshot(w);
                for (int i = cut; i < cut + k; i++) {
                    SendsCheckpointPropertyTest.apply(w, machines, entities, plan[i]);
                }
                String first = saves.checkpoint(w);
                bytes.restore(w);
                assertEquals(atCut, saves.checkpoint(w), "run " + run + ": right after the restore");
                for (int i = cut; i < cut + k; i++) {
                    SendsCheckpointPropertyTest.apply(w, machines, entities, plan[i]);
                }
                assertEquals(first, saves.checkpoint(w), "run " + run + ": cut " + cut + ", k " + k);
            }
        }
        assertEquals(true, withSends > RUNS / 20, "snapshots taken with sends pending: " + withSends);
    }

    private static void property(RandomWorlds.Options o, long base) {
        int rewound = 0;
        for (int run = 0; run < RUNS; run++) {
            long seed = base + run;
            RandomWorlds.Spec spec = RandomWorlds.generate(seed, o);
            SplittableRandom r = new SplittableRandom(seed * 31);
            int n = spec.inputs.size();
            int cut = r.nextInt(n);
            int k = 1 + r.nextInt(Math.min(60, n - cut));
            StateWorld world = spec.newWorld();
            try {
                WorldBytes bytes = new WorldBytes();
                spec.machines.forEach(m -> bytes.contexts(m.states, CTX));
                spec.apply(world, 0, cut);
                String atCut = spec.saves.checkpoint(world);
                Map<String, boolean[]> marksAtCut = RandomWorlds.marks(world);
                bytes.snapshot(world);
                spec.apply(world, cut, cut + k);
                String first = spec.saves.checkpoint(world);
                putMarks(world, marksAtCut); // the holds are the game's components: its own rollback puts them back
                bytes.restore(world);
                String restored = spec.saves.checkpoint(world);
                if (!atCut.equals(restored)) {
                    fail(spec + ", cut " + cut + ", k " + k + ": right after the restore: " + RandomWorlds.firstDifference(atCut, restored));
                }
                spec.apply(world, cut, cut + k);
                String second = spec.saves.checkpoint(world);
                if (!first.equals(second)) {
                    fail(spec + ", cut " + cut + ", k " + k + ": after the same inputs again: " + RandomWorlds.firstDifference(first, second));
                }
                rewound += bytes.records();
            } finally {
                world.close();
            }
        }
        assertEquals(true, rewound > RUNS, "records rewound: " + rewound);
    }

    /** Sets each keyed entity's hold markers to those of {@code marks} (absent: none). */
    private static void putMarks(StateWorld world, Map<String, boolean[]> marks) {
        Map<String, boolean[]> now = RandomWorlds.marks(world);
        java.util.Set<String> keys = new java.util.TreeSet<>(now.keySet());
        keys.addAll(marks.keySet());
        for (String key : keys) {
            boolean[] want = marks.getOrDefault(key, new boolean[2]);
            boolean[] have = now.getOrDefault(key, new boolean[2]);
            Entity e = world.entity(key);
            if (want[0] != have[0]) {
                if (want[0]) {
                    e.add(MachinePaused.INSTANCE);
                } else {
                    e.removeType(MachinePaused.class);
                }
            }
            if (want[1] != have[1]) {
                if (want[1]) {
                    e.add(new RandomWorlds.Stunned());
                } else {
                    e.removeType(RandomWorlds.Stunned.class);
                }
            }
        }
    }
}

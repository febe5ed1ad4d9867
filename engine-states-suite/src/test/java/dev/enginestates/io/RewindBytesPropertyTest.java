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

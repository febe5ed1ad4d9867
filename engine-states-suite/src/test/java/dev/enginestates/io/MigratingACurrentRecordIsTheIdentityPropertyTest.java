package dev.enginestates.io;

import com.fasterxml.jackson.databind.JsonNode;
import dev.enginestates.algorithm.Migrator;
import dev.enginestates.algorithm.RecordImage;
import dev.enginestates.algorithm.Scratch;
import dev.enginestates.chart.Chart;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.records.Access;
import dev.enginestates.records.MachineRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one way a record is placed in another version ({@link Migrator}) changes nothing when
 * there is nothing to migrate: over random statecharts (parallel regions, history, waits, sends
 * to themselves, when rules) driven by random inputs, every record written through an empty
 * chain of migrations encodes exactly as the record did: its states in the same entry order,
 * every time, wait, history, pending send and random state. A migration keeps what it does not
 * name because this holds.
 */
class MigratingACurrentRecordIsTheIdentityPropertyTest {
    static final int DEFAULT_RUNS = 200;

    static {
        RandomWorlds.quiet();
    }

    @Test
    void everyRecordOfRandomWorldsMigratedThroughNoMigrationEncodesAsItself() {
        int runs = Integer.getInteger("property.runs", DEFAULT_RUNS);
        RecordCodec codec = new RecordCodec(Json.mapper());
        RandomWorlds.Options options = new RandomWorlds.Options().spawns(true).marks(true).tagsOneIn(3);
        long records = 0;
        for (int run = 1; run <= runs; run++) {
            long seed = 0x1D_0000L + run;
            RandomWorlds.Spec spec = RandomWorlds.generate(seed, options);
            SplittableRandom r = new SplittableRandom(seed);
            try (StateWorld world = spec.newWorld()) {
                int n = spec.inputs.size();
                int stop = n == 0 ? 0 : r.nextInt(n + 1);
                for (int i = 0; i < stop; i++) {
                    try {
                        spec.apply(world, i, i + 1);
                    } catch (AssertionError refusedInput) {
                        // an input the world refuses (a machine that failed, say) changes nothing of what is compared
                    }
                }
                for (States<?> m : spec.states()) {
                    Chart c = Access.chart(m.machine());
                    for (StateRecord<?> face : world.records(m)) {
                        MachineRecord rec = Access.record(face);
                        List<String> problems = new ArrayList<>();
                        MachineRecord same = Migrator.migrate(RecordImage.of(rec), List.of(), c, "version 0", rec.contextObject(),
                                new Scratch().at(world.time(), 0), spec + " '" + m.id() + "' on " + StateWorld.keyOf(face.entity()), problems);
                        assertTrue(problems.isEmpty(), problems.toString());
                        JsonNode expected = codec.encode(rec);
                        assertEquals(expected, codec.encode(same), spec + " after " + stop + " inputs: '" + m.id() + "' on "
                                + StateWorld.keyOf(face.entity()));
                        records++;
                    }
                }
            }
        }
        assertTrue(records > runs, "records compared: " + records);
    }
}

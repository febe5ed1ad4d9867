package dev.enginestates.io;

import dev.enginestates.ecs.Rewind;
import dev.enginestates.ecs.StateWorld;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * An input log recorded while a rewind goes back and steps again replays to the world it was
 * recorded in: a rewind reaches the log as the records it wrote back (and the entities it took
 * away or brought back), its steps as steps.
 */
class RewindInInputLogsTest {
    static {
        RandomWorlds.quiet();
    }

    @Test
    void anInputLogRecordedAcrossRewindsReplaysToTheSameWorld() {
        RandomWorlds.Options o = new RandomWorlds.Options().spawns(true).despawns(true).marks(false);
        int rewinds = 0;
        for (int run = 0; run < 60; run++) {
            RandomWorlds.Spec spec = RandomWorlds.generate(0x7E_3600L + run, o);
            RewindPropertyTest.Ticks ticks = new RewindPropertyTest.Ticks(spec);
            StateWorld world = spec.newWorld();
            try {
                Rewind rewind = Rewind.keep(world, 8);
                spec.machines.forEach(m -> rewind.contexts(m.states, RewindPropertyTest.CTX));
                InputLog log = InputLog.start(spec.saves, world);
                long start = world.steps();
                for (int t = 0; t < ticks.size(); t++) {
                    for (RandomWorlds.Input in : ticks.inputs.get(t)) {
                        rewind.input(RewindPropertyTest.tolerant(in));
                    }
                    rewind.step(ticks.dts.get(t));
                    if (t % 5 == 4) {
                        // a late copy of the tick's first input (or of nothing): the resimulation moves machines
                        long back = Math.max(rewind.oldest(), rewind.tick() - 3);
                        java.util.List<RandomWorlds.Input> then = ticks.inputs.get((int) (back - start));
                        rewind.input(back, then.isEmpty() ? w -> { } : RewindPropertyTest.tolerant(then.get(0)));
                        rewinds += rewind.resimulate() > 0 ? 1 : 0;
                    }
                }
                try (StateWorld replayed = spec.freshWorld()) {
                    InputLog.replay(spec.saves, replayed, log.text());
                    String expected = spec.saves.checkpoint(world);
                    String actual = spec.saves.checkpoint(replayed);
                    if (!expected.equals(actual)) {
                        fail(spec + ": " + RandomWorlds.firstDifference(expected, actual));
                    }
                }
            } finally {
                world.close();
            }
        }
        org.junit.jupiter.api.Assertions.assertTrue(rewinds > 60, "resimulations logged: " + rewinds);
    }
}

package dev.enginestates.versions;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.StatesDef;
import dev.enginestates.declare.Migration;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Saves;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A newer version may be declared in another style (a statechart rewritten as a polled table):
 * the records keep their states by path, and what only one style keeps (entry times, per-state
 * clocks) starts afresh in the other, as the migration's clock says; a twin restored from the
 * older checkpoint through the same migration is the same.
 */
class SwapAcrossStylesTest {
    public static final class Bot {
        public boolean seen;
    }

    static final States<Bot> CHART = States.define("restyled", Bot::new, m -> m
            .version(1)
            .initial("idle")
            .state("idle", s -> s.on("SEE", "chase"))
            .state("chase", s -> s.waitFor(5, "idle")));

    static final States<Bot> TABLE = States.of(StatesDef.define("restyled", Bot::new, d -> d
            .version(2, Migration.from(1))
            .on("SEE", (b, args) -> "chase")
            .state("idle")
            .state("chase", s -> s.after(5, "idle"))));

    @Test
    void aStatechartRewrittenAsAPolledTableTakesItsRecordsByPath() {
        try (StateWorld w = StateWorld.create(); StateWorld twin = StateWorld.create()) {
            Entity chasing = w.spawn(EntityKey.of("c"), CHART.trait());
            Entity idle = w.spawn(EntityKey.of("i"), CHART.trait());
            CHART.send(chasing, "SEE");
            for (int i = 0; i < 60; i++) {
                w.step(1.0 / 60);
            }
            String before = Saves.of(CHART).checkpoint(w);
            w.swap(CHART, TABLE);
            Saves.of(TABLE).restoreSpawningMissing(twin, before);
            assertEquals("chase", TABLE.read(chasing).state());
            assertEquals("idle", TABLE.read(idle).state());
            assertEquals(Saves.of(TABLE).checkpoint(w), Saves.of(TABLE).checkpoint(twin));
            for (int i = 0; i < 301; i++) {
                w.step(1.0 / 60);
                twin.step(1.0 / 60);
            }
            assertEquals("idle", TABLE.read(chasing).state(), "its after counted from the swap, as the polled clock starts there");
            assertEquals(Saves.of(TABLE).checkpoint(w), Saves.of(TABLE).checkpoint(twin));
        }
    }
}

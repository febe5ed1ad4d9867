package dev.enginestates.versions;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.Migration;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Saves;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Where a migration puts a machine whose state has no place of its own: a compound target enters
 * its initial child, a parallel target every region's initial child, and no entry action of a
 * state entered that way runs, whether the world is swapped live or a checkpoint is restored
 * through the migration (one rule, applied by the one placement both use).
 */
class PlacementRulesTest {
    public static final class Worker {
        public int entered;
    }

    static final States<Worker> V1 = States.define("placed", Worker::new, m -> m
            .version(1)
            .initial("idle")
            .state("idle", s -> s.on("GO", "busy"))
            .state("busy", s -> s.waitFor(3, "idle")));

    static final States<Worker> V2 = States.define("placed", Worker::new, m -> m
            .version(2, Migration.from(1).remove("busy", "working"))
            .initial("idle")
            .state("idle", s -> s.on("GO", "working"))
            .state("working", w -> w.parallel()
                    .state("hands", r -> r.initial("grab")
                            .state("grab", s -> s.entry((c, e) -> c.entered++).waitFor(2, "hold"))
                            .state("hold"))
                    .state("eyes", r -> r.initial("look")
                            .state("look", s -> s.entry((c, e) -> c.entered++))
                            .state("blink"))));

    @Test
    void aParallelTargetEntersEveryRegionAndNoEntryActionRunsLiveOrRestored() {
        try (StateWorld world = StateWorld.create(); StateWorld restored = StateWorld.create()) {
            Entity busy = world.spawn(EntityKey.of("busy"), V1.trait());
            Entity idle = world.spawn(EntityKey.of("idle"), V1.trait());
            V1.send(busy, "GO");
            for (int i = 0; i < 60; i++) {
                world.step(1.0 / 60);
            }
            String before = Saves.of(V1).checkpoint(world);

            world.swap(V1, V2);
            Saves.of(V2).restoreSpawningMissing(restored, before);

            for (StateWorld w : List.of(world, restored)) {
                assertEquals(List.of("working.hands.grab", "working.eyes.look"), V2.read(w.entity("busy")).leaves(),
                        "every region entered, each at its initial child");
                assertEquals(0, V2.read(w.entity("busy")).context().entered, "no entry action ran");
                assertEquals(2.0, V2.read(w.entity("busy")).secondsLeft(), "the wait of a state newly entered starts at the migration");
                assertEquals("idle", V2.read(w.entity("idle")).state());
            }
            assertEquals(Saves.of(V2).checkpoint(world), Saves.of(V2).checkpoint(restored));
            V2.send(idle, "GO");
            assertEquals(2, V2.read(idle).context().entered, "a transition after the swap runs them, as always");
        }
    }
}

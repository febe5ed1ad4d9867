package dev.enginestates.samples.docs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Saves;

/**
 * The code of docs/self.md's random numbers, compiled: a guard whose wait, choice and route are
 * drawn from its record's own generator, so a checkpoint restored elsewhere goes on drawing
 * what the straight run draws ({@code DocsCodeTest} runs {@link #straightAndRestored()}).
 */
public final class RandomGuard {
    private RandomGuard() {
    }

    /** The guard's context. */
    public static final class Guard {
        /** The route it patrols, picked at random. */
        public String route = "";
        /** Every route picked, in order. */
        public String routes = "";
    }

    /** The routes a patrol picks from: a constant, so that a pick makes no array. */
    static final String[] ROUTES = {"walls", "gate", "yard"};

    /** The guard of docs/self.md. */
    public static final States<Guard> GUARD = States.define("random-guard", Guard::new, m -> m
        .initial("watch")
        .state("watch", s -> s
            .waitFor((guard, e, self) -> self.random().between(2, 5), "look"))      // a random wait
        .state("look", s -> s
            .always(t -> t.guard((guard, e, self) -> self.random().chance(0.3)).target("patrol")) // a random choice
            .always("watch"))
        .state("patrol", s -> s
            .entry((guard, e, self) -> guard.route = self.random().pick(ROUTES))    // a random pick
            .exit((guard, e, self) -> guard.routes += guard.route + " ")
            .waitFor(8, "watch")));

    /** The routes two guards patrolled in 2 minutes: straight, then saved at 1 minute and restored into another world. */
    public static String[] straightAndRestored() {
        Saves saves = Saves.of(GUARD);
        String[] out = new String[2];
        String checkpoint = null;
        for (int run = 0; run < 2; run++) {
            StateWorld world = StateWorld.create().randomSeed(2024);   // the same seed, keys and inputs: the same draws
            if (run == 0) {
                world.spawn(EntityKey.of("guard-1"), GUARD.trait());
                world.spawn(EntityKey.of("guard-2"), GUARD.trait());
            } else {
                saves.restoreSpawningMissing(world, checkpoint);
            }
            for (int i = run == 0 ? 0 : 3600; i < 7200; i++) {
                world.step(1.0 / 60);
                if (i == 3599 && run == 0) {
                    checkpoint = saves.checkpoint(world);
                }
            }
            Entity g1 = world.entity("guard-1");
            Entity g2 = world.entity("guard-2");
            out[run] = GUARD.read(g1).context().routes + "| " + GUARD.read(g2).context().routes;
            world.close();
        }
        return out;
    }
}

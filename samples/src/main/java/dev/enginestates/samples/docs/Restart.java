package dev.enginestates.samples.docs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Saves;

/**
 * The code of docs/persistence.md's restart, compiled: a checkpoint of 1,000 guards restored
 * into the empty world of a restarted server ({@code DocsCodeTest} runs {@link #restart(int)}).
 */
public final class Restart {
    private Restart() {
    }

    /** The guard's context. */
    public static final class Guard {
        /** Bells answered. */
        public int bells;
    }

    /** A component of the game's own, which a checkpoint does not hold. */
    public static final class Transform { }

    /** The guard of the README's tour. */
    static final States<Guard> GUARD = States.define("guard", Guard::new, m -> m
        .initial("patrol")
        .state("patrol", p -> p
            .initial("watch")
            .state("watch", s -> s.waitFor(4, "rest"))
            .state("rest", s -> s.waitFor(10, "watch"))
            .history("resumed", HistoryDepth.DEEP)
            .on("BELL", "answer"))
        .state("answer", s -> s
            .entry((guard, e) -> guard.bells++)
            .on("RESUME", "patrol.resumed")));

    /** What the restarted world reads. */
    public record Seen(long answeringBefore, long answeringAfter, double secondsLeftBefore, double secondsLeftAfter,
            boolean transformBack, int bells) { }

    /** A server of {@code guards} guards saves, restarts with an empty world and restores. */
    public static Seen restart(int guards) {
        StateWorld before = StateWorld.create();
        for (int i = 0; i < guards; i++) {
            Entity g = before.spawn(EntityKey.of("guard-" + i), GUARD.trait(), new Transform());
            if (i % 3 == 0) {
                GUARD.send(g, "BELL");
            }
        }
        for (int i = 0; i < 90; i++) before.step(1.0 / 60);
        String checkpoint = Saves.of(GUARD).checkpoint(before);
        long answeringBefore = before.query(GUARD.is("answer")).count();
        double leftBefore = GUARD.read(before.entity("guard-8")).secondsLeft();
        before.close();

        // the server restarts: a new world, with no entity in it
        StateWorld world = StateWorld.create();
        Saves saves = Saves.of(GUARD);
        saves.restoreSpawningMissing(world, checkpoint);    // spawns guard-0, guard-1... by key, then writes every record
        Entity guard = world.entity("guard-7");             // each entity is found by its key
        guard.add(new Transform());                         // the game's own components come from the game's own save
        world.query(GUARD.is("answer")).count();            // as many guards answer the bell as before the restart

        Seen seen = new Seen(answeringBefore, world.query(GUARD.is("answer")).count(), leftBefore,
                GUARD.read(world.entity("guard-8")).secondsLeft(), guard.has(Transform.class),
                GUARD.read(world.entity("guard-3")).context().bells);
        world.close();
        return seen;
    }
}

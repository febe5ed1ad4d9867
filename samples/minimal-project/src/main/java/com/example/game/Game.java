package com.example.game;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;

/** The smallest game: guards that watch and rest, moved by a fixed-step loop, and a bell that calls them. */
public final class Game {
    /** A guard's context: how many times he answered the bell. */
    public static final class Guard {
        public int bells;
    }

    /** The guard's machine: watch 4 seconds, rest 10, answer the bell, and back to the watch on RESUME. */
    public static final States<Guard> GUARD = States.define("guard", Guard::new, m -> m
            .initial("watch")
            .state("watch", s -> s.waitFor(4, "rest").on("BELL", "answer"))
            .state("rest", s -> s.waitFor(10, "watch").on("BELL", "answer"))
            .state("answer", s -> s
                    .entry((guard, event) -> guard.bells++)
                    .on("RESUME", "watch")));

    private Game() {
    }

    /** Spawns 10 guards, rings the bell for the first after 5 seconds and runs 10 seconds at 60 steps a second. */
    public static void main(String[] args) {
        try (StateWorld world = StateWorld.create()) {
            for (int i = 1; i <= 10; i++) {
                world.spawn(EntityKey.of("guard-" + i), GUARD.trait());
            }
            Entity first = world.entity("guard-1");
            for (int step = 1; step <= 600; step++) {
                world.step(1.0 / 60);
                if (step == 300) {
                    GUARD.send(first, "BELL");
                }
            }
            System.out.println(world.query(GUARD.is("rest")).count() + " guards resting, "
                    + world.query(GUARD.is("answer")).count() + " answering the bell");
        }
    }
}

package dev.enginestates.samples.docs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.devtools.Devtools;
import dev.enginestates.devtools.DevtoolsOptions;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Saves;

/**
 * The code of docs/devtools.md's time travel, compiled: a game loop the page can pause and
 * step, and the door whose checkpoint {@code DevtoolsTestStart} starts a test from.
 */
public final class DevtoolsTimeTravel {
    private DevtoolsTimeTravel() {
    }

    /** The door's context. */
    public static final class Door {
        /** Times opened. */
        public int opened;
    }

    /** A door that shuts itself 5 s after it opens. */
    static final States<Door> DOOR = States.define("door", Door::new, m -> m
        .initial("shut")
        .state("shut", s -> s.on("OPEN", "open"))
        .state("open", s -> s
            .entry((door, e) -> door.opened++)
            .waitFor(5, "shut")));

    /** The game's own systems, which pausing the page does not hold. */
    interface Physics {
        void update(double dt);
    }

    /** The game's loop, stepping through the page while {@code running} says so. */
    static void loop(StateWorld world, Physics physics, int port, java.util.function.BooleanSupplier running) {
        try (Devtools devtools = Devtools.serve(world, DevtoolsOptions.onPort(port).writable(true)
                .history(600, 128L << 20))) {   // keep 600 ticks within 128 MiB
            while (running.getAsBoolean()) {
                if (!devtools.isPaused()) {
                    physics.update(1 / 60.0);   // the game's own systems: held here only because it asks
                }
                devtools.step(1 / 60.0);   // world.step(dt) unless the page paused it, then publish()
            }
        }
    }

    /** The downloaded file a test reads, made here as the page makes it (for the docs' test). */
    static String checkpointOfAnOpenDoor() {
        try (StateWorld world = StateWorld.create("game")) {
            Entity door = world.spawn(EntityKey.of("door-1"), DOOR.trait());
            DOOR.send(door, "OPEN");
            for (int i = 0; i < 120; i++) {
                world.step(1 / 60.0);
            }
            return Saves.of(DOOR).checkpoint(world);
        }
    }
}

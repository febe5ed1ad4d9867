package dev.enginestates.samples.readme;

import dev.enginestates.devtools.Devtools;
import dev.enginestates.devtools.DevtoolsOptions;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;

/**
 * The README's "Devtools" section, compiled ({@code ReadmeCodeTest} checks its lines,
 * {@code DevtoolsTourTest} runs it): a room served as a devtools page while it steps.
 */
public final class DevtoolsTour {
    private DevtoolsTour() {
    }

    /** What the tour saw: the page's address, and its snapshot after four seconds. */
    public static final class Seen {
        /** The page's address. */
        public String address;
        /** The snapshot's JSON text after the run. */
        public String snapshot;
    }

    /** The siege as the room's own machine and a guard, served on {@code port} for four seconds of game time. */
    public static Seen tour(int port) {
        States<Tour.Siege> SIEGE = States.of(Tour.SIEGE_MACHINE);
        Seen seen = new Seen();
        try (StateWorld world = StateWorld.create("room")) {
            world.add(SIEGE);
            world.spawn(EntityKey.of("guard-1"), Tour.GUARD.trait());
            SIEGE.send(world, "START");
            SIEGE.send(world, "WAVE_HELD");
            boolean running = true;
            try (Devtools devtools = Devtools.serve(world, DevtoolsOptions.onPort(port).writable(true))) {
                System.out.println("devtools: " + devtools.address());   // http://127.0.0.1:8080/
                seen.address = devtools.address().toString();
                while (running) {
                    world.step(1 / 60.0);
                    devtools.publish();   // on the world's thread: applies states set on the page, takes a snapshot while it watches
                    running = world.steps() < 240;
                }
                String json = devtools.snapshot();   // the page's data now, as JSON text
                seen.snapshot = json;
            }
        }
        return seen;
    }
}

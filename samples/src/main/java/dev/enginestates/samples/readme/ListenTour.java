package dev.enginestates.samples.readme;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.MachineListener;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;

import java.util.ArrayList;
import java.util.List;

/**
 * The README's "Listening to machines" section, compiled ({@code ReadmeCodeTest} checks its
 * lines and runs it): a world listener that logs moves, and a banner that follows the siege's
 * top state.
 */
public final class ListenTour {
    private ListenTour() {
    }

    /** The siege's context: the wave it is on. */
    public static final class Siege {
    }

    /** The siege: fight, a 12-second breather after each wave held, over when all are down. */
    public static final States<Siege> SIEGE = States.define("siege", Siege::new, m -> m
        .initial("fight")
        .state("fight", s -> s.on("WAVE_HELD", "breather").on("ALL_DOWN", "over"))
        .state("breather", s -> s.waitFor(12, "fight"))
        .state("over"));

    /** What the tour saw: the log's lines and the banner's texts. */
    public record Seen(List<String> log, List<String> banner) {
    }

    /**
     * Runs the tour.
     *
     * @return what the listeners heard
     */
    public static Seen tour() {
        List<String> log = new ArrayList<>();
        List<String> banner = new ArrayList<>();
        try (StateWorld world = StateWorld.create()) {
            // every machine of the world: what moved, from where to where
            world.addListener(new MachineListener<StateRecord<?>>() {
                @Override
                public void stateChanged(StateRecord<?> machine, String from, String to, String event) {
                    log.add(machine.machineId() + ": " + from + " -> " + to + " (" + event + ")");
                }

                @Override
                public void eventRefused(StateRecord<?> machine, String event) {
                    log.add(machine.machineId() + " took no " + event);
                }
            });
            // one machine, its top state only: what a HUD banner shows
            world.addListener(SIEGE, MachineListener.onTopState((StateRecord<Siege> siege, String from, String to) ->
                banner.add(to.equals("breather") ? "Catch your breath" : "")));

            Entity siege = world.spawn(SIEGE.trait());      // siege: " -> fight (spawn)"
            SIEGE.send(siege, "WAVE_HELD");                  // siege: "fight -> breather (WAVE_HELD)"
            SIEGE.send(siege, "WAVE_HELD");                  // "siege took no WAVE_HELD"
            for (int i = 0; i < 12 * 60; i++) {
                world.step(1 / 60.0);                        // siege: "breather -> fight (states.wait)"
            }
            String phase = SIEGE.topState(siege);            // "fight"
            log.add("top state: " + phase);
        }
        return new Seen(log, banner);
    }
}

package dev.enginestates.samples.readme;

import dev.enginestates.Machine;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.Guard;
import dev.enginestates.plain.StateMachine;

/**
 * The README's "raise, wildcards, stateIn and sends to itself" section, compiled
 * ({@code ReadmeCodeTest} checks its lines and runs it).
 */
public final class QueueTour {
    private QueueTour() {
    }

    /** A turret's context: the shots it has fired. */
    public static final class Turret {
        /** Shots fired. */
        public int shots;
    }

    /** A turret that aims for half a second at what its sensors report, fires, reloads and aims again. */
    public static final Machine<Turret> TURRET = Machine.define("turret", Turret::new, m -> m
        .parallel()
        .state("power", p -> p.initial("on")
            .state("on", s -> s.on("power.cut", "off"))
            .state("off", s -> s.on("power.back", "on")))
        .state("gun", g -> g.initial("idle")
            .state("idle", s -> s
                .on("sensor.*", t -> t.target("aiming").guard(Guard.stateIn("power.on"))))   // sensor.sight, sensor.sound...
            .state("aiming", s -> s
                .entry((turret, e, self) -> self.sendSelf(Event.of("FIRE"), 0.5, "shot"))    // on the machine's clock
                .on("target.lost", t -> t.target("idle").action((turret, e, self) -> self.cancel("shot")))
                .on("FIRE", "firing"))
            .state("firing", s -> s
                .entry((turret, e, self) -> {
                    turret.shots++;
                    self.raise("RELOADED");                      // taken in this same step, before any outside event
                })
                .on("RELOADED", "aiming"))));

    /**
     * Runs the turret as the README does.
     *
     * @return the shots fired and the gun's state at the end, such as {@code "1 idle"}
     */
    public static String tour() {
        StateMachine<Turret> turret = new StateMachine<>(TURRET);
        turret.send("sensor.sound");           // matches sensor.*: aiming, FIRE due in 0.5 s
        turret.step(0.5);                      // FIRE: firing, RELOADED raised: aiming again
        turret.send("power.cut");
        turret.send("target.lost");            // back to idle; the pending FIRE is cancelled
        turret.step(1.0);                      // nothing fires
        turret.send("sensor.sight");           // stateIn("power.on") is false: stays idle
        return turret.context().shots + " " + (turret.matches("gun.idle") ? "idle" : turret.state());
    }
}

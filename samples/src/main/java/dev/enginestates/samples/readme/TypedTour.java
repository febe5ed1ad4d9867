package dev.enginestates.samples.readme;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.Machine;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.plain.StateMachine;

import java.util.ArrayList;
import java.util.List;

import static dev.enginestates.samples.readme.TypedTour.GuardEvent.BELL;
import static dev.enginestates.samples.readme.TypedTour.GuardEvent.RESTART;
import static dev.enginestates.samples.readme.TypedTour.GuardEvent.RESUME;
import static dev.enginestates.samples.readme.TypedTour.GuardState.ANSWER;
import static dev.enginestates.samples.readme.TypedTour.GuardState.PATROL;
import static dev.enginestates.samples.readme.TypedTour.GuardState.REST;
import static dev.enginestates.samples.readme.TypedTour.GuardState.RESUMED;
import static dev.enginestates.samples.readme.TypedTour.GuardState.WATCH;

/**
 * The README's "Typed names" code, compiled: the guard declared with the game's own enums, and
 * every use by constant ({@code ReadmeCodeTest} checks the README's lines stand here).
 */
public final class TypedTour {
    private TypedTour() {
    }

    /** The guard's states. */
    enum GuardState { PATROL, WATCH, REST, RESUMED, ANSWER }   // the game's own enums

    /** The guard's events. */
    enum GuardEvent { BELL, RESUME, RESTART }

    /** The guard's context: how many times he answered the bell. */
    public static final class Guard {
        /** Bells answered. */
        public int bells;
    }

    /** The guard, typed. */
    static final States<Guard> GUARD = States.define("guard", Guard::new, GuardState.class, GuardEvent.class, m -> m
        .initial(PATROL)
        .state(PATROL, p -> p                                // nesting is given by the declaration
            .initial(WATCH)
            .state(WATCH, s -> s.waitFor(4, REST))
            .state(REST, s -> s.waitFor(10, WATCH))
            .history(RESUMED, HistoryDepth.DEEP)
            .on(BELL, ANSWER))
        .state(ANSWER, s -> s
            .entry((guard, e) -> guard.bells++)
            .on(RESUME, RESUMED)                             // a target is the state declared with the constant
            .on(RESTART, PATROL)));

    /** The README's lines, run; returns what they read, in order, for {@code ReadmeCodeTest}. */
    public static List<Object> tour() {
        List<Object> out = new ArrayList<>();
        StateWorld world = StateWorld.create();
        Entity guard = world.spawn(GUARD.trait());
        for (int i = 0; i < 180; i++) world.step(1.0 / 60);     // three seconds into his watch
        GUARD.send(guard, BELL);                                 // true; GUARD.send(guard, BEL) does not compile
        world.query(GUARD.is(ANSWER)).count();                   // 1: every guard answering the bell
        GUARD.read(guard).is(ANSWER);                            // true
        GUARD.read(guard).leaf(GuardState.class);                // ANSWER: switch over the game's own enum
        GUARD.path(WATCH);                                       // "PATROL.WATCH": the constant's name under its parent's
        GUARD.read(guard).is("PATROL.WATCH");                    // false: a name written as a string still works
        out.add(world.query(GUARD.is(ANSWER)).count());
        out.add(GUARD.read(guard).is(ANSWER));
        out.add(GUARD.read(guard).leaf(GuardState.class));
        out.add(GUARD.path(WATCH));
        out.add(GUARD.read(guard).is("PATROL.WATCH"));
        try {
            GUARD.read(guard).matches("PATROL.WACH");            // throws: ...; did you mean 'PATROL.WATCH'?
        } catch (MachineException e) {
            out.add(e.getMessage());
        }
        GUARD.send(guard, RESUME);                               // back to his watch through the deep history
        GUARD.read(guard).secondsLeft();                         // 1.0
        out.add(GUARD.read(guard).secondsLeft());
        world.close();
        return out;
    }

    /** The plain-object face takes the constants too. */
    public static List<Object> plain() {
        List<Object> out = new ArrayList<>();
        StateMachine<Guard> guard = new StateMachine<>(GUARD.machine());
        guard.send(BELL);
        out.add(guard.is(ANSWER));                               // true
        out.add(guard.value());                                  // "ANSWER"
        return out;
    }

    /** The error the README prints for a constant declared twice, one never declared and an event no state takes. */
    public static String invalid() {
        try {
            Machine.define("guard", Guard::new, GuardState.class, GuardEvent.class, m -> m
                .state(PATROL, p -> p
                    .state(WATCH, s -> s.waitFor(4, REST))
                    .state(REST, s -> s.waitFor(10, WATCH))
                    .on(BELL, ANSWER))
                .state(ANSWER, s -> s
                    .state(WATCH)
                    .on(RESUME, PATROL)));
            return "valid";
        } catch (InvalidMachineException e) {
            return e.getMessage();
        }
    }
}

package dev.enginestates.samples;

import dev.enginestates.Machine;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.xstate.XStateImport;

import static dev.enginestates.samples.Guard.GuardEvent.BELL;
import static dev.enginestates.samples.Guard.GuardEvent.RESTART;
import static dev.enginestates.samples.Guard.GuardEvent.RESUME;
import static dev.enginestates.samples.Guard.GuardState.ANSWER;
import static dev.enginestates.samples.Guard.GuardState.PATROL;
import static dev.enginestates.samples.Guard.GuardState.REST;
import static dev.enginestates.samples.Guard.GuardState.RESUMED;
import static dev.enginestates.samples.Guard.GuardState.WATCH;

/**
 * A guard: a patrol that watches for 4 seconds and rests
 * for 10; the bell calls him to answer it; RESUME brings him back through a deep history state
 * to where he was, RESTART starts the patrol over.
 *
 * <p>Declared with typed names: the states and events are this class's own enums, so every use
 * ({@code GUARD.is(WATCH)}, {@code GUARD.send(guard, BELL)}) is checked by the Java compiler and
 * completed by the IDE, and the machine's compiler checks that each state constant declares
 * exactly one state and each event constant is taken by a state. A state's key is its
 * constant's name, so the watch's path is {@code "PATROL.WATCH"}.
 */
public final class Guard {
    /** The guard's states: the nesting is given by the declaration below. */
    public enum GuardState { PATROL, WATCH, REST, RESUMED, ANSWER }

    /** The events a guard takes. */
    public enum GuardEvent { BELL, RESUME, RESTART }

    /** How many times the guard answered the bell. */
    public int bells;

    /** The machine, shared by every guard. */
    public static final Machine<Guard> MACHINE = Machine.define("guard", Guard::new, GuardState.class, GuardEvent.class, m -> m
            .initial(PATROL)
            .state(PATROL, p -> p
                    .initial(WATCH)
                    .state(WATCH, s -> s.waitFor(4, REST))
                    .state(REST, s -> s.waitFor(10, WATCH))
                    .history(RESUMED, HistoryDepth.DEEP)
                    .on(BELL, ANSWER))
            .state(ANSWER, s -> s
                    .entry((guard, e) -> guard.bells++)
                    .on(RESUME, RESUMED)
                    .on(RESTART, PATROL)));

    /**
     * An import of the guard from XState JSON, with the code its JSON names: {@code countBell},
     * the answer's entry. {@code samples/guard.json} is this machine written as JSON, the file the
     * room's hot reload reads ({@code -Dguard.file}).
     *
     * @return a new importer; its machines are named by strings, as the JSON writes them ({@code "PATROL.WATCH"})
     */
    public static XStateImport<Guard> fromJson() {
        return XStateImport.withContext(Guard::new).action("countBell", (guard, e) -> guard.bells++);
    }
}

package dev.enginestates;

import dev.enginestates.declare.MachineException;
import java.util.List;

/**
 * What every face says of one running machine, read-only: a machine on an entity
 * ({@code StateRecord}), on a plain object ({@code plain.StateMachine}) or a builder-style one
 * ({@code fsm.StateMachine}). Dumps and tests read machines through it, whatever the face.
 *
 * @param <C> the context type
 */
public interface MachineView<C> {
    /**
     * The machine's id.
     *
     * @return the id the machine was declared with, such as {@code "guard"}
     */
    String machineId();

    /**
     * The active leaf's path ({@code "combat.engage"}); the leaves of a parallel state joined by {@code ", "}; {@code ""} before a start.
     *
     * @return the active leaf's path, never {@code null}
     */
    String state();

    /**
     * The top state: the state directly under the machine's root that is active ({@code "patrol"}
     * while the guard is in {@code patrol.watch}; a parallel state's own name while its regions
     * move; for a machine whose root is parallel, its first region in document order). A page
     * that shows a phase reads this, and {@link MachineListener#onTopState} hears it change.
     *
     * @return the top state's name, or {@code ""} before a start
     */
    String topState();

    /**
     * The leaf active before the last transition (polled and builder styles), else {@code ""}.
     *
     * @return the previous leaf's path, or {@code ""}
     */
    String previous();

    /**
     * The state value as XState writes it: a key, or nested maps for compound and parallel states.
     *
     * @return a {@code String} such as {@code "idle"}, or a {@code Map} from keys to values,
     *         such as {@code {combat=engage}}
     */
    Object value();

    /**
     * Whether the state at a dotted path is active.
     *
     * @param path the state's dotted path from the root, such as {@code "patrol.watch"};
     *             {@code ""} is the root
     * @return whether that state is active, as the leaf or an ancestor of it
     * @throws MachineException if the path names no state of the machine (with a "did you mean")
     */
    boolean matches(String path);

    /**
     * The paths of the active leaves, in document order.
     *
     * @return a new list of paths; empty before a start
     */
    List<String> leaves();

    /**
     * The context.
     *
     * @return the game's object the machine runs on; {@code null} for a builder-style machine
     *         not yet initialized
     */
    C context();

    /**
     * Whether a top-level final state was reached.
     *
     * @return {@code true} once the machine is done; always {@code false} for the builder style
     */
    boolean isDone();

    /**
     * Seconds in the active leaf.
     *
     * @return seconds since the active leaf was entered; 0 before a start
     */
    double time();

    /**
     * Seconds before the machine leaves on time (a wait's or an {@code after}'s), 0 when none counts.
     *
     * @return seconds left, 0 or more
     */
    double secondsLeft();

    /**
     * Whether the state declared with a constant of the machine's state enum is active (the
     * state or one of its descendants). Allocation-free.
     *
     * @param state a constant of the machine's state enum; not {@code null}
     * @return {@code true} if the state is active
     * @throws MachineException if the constant is not of the machine's state enum
     */
    boolean matches(Enum<?> state);

    /**
     * Whether the state declared with a constant of the machine's state enum is active, as the
     * leaf or an ancestor: {@code GUARD.read(guard).is(WATCH)}. Allocation-free.
     *
     * @param state a constant of the machine's state enum; not {@code null}
     * @return {@code true} if the state is active; the same answer as {@link #matches(Enum)}
     * @throws MachineException if the constant is not of the machine's state enum
     */
    boolean is(Enum<?> state);

    /**
     * The constant of the active leaf ({@code WATCH}; of the leaves of a parallel state, the
     * first in document order), for a {@code switch} over the game's own enum.
     *
     * @param <S>    the game's enum of states
     * @param states the enum the machine was declared with, such as {@code GuardState.class}
     * @return the active leaf's constant, or {@code null} when no leaf is active
     * @throws MachineException if the machine's states are not named by {@code states}
     */
    <S extends Enum<S>> S leaf(Class<S> states);

    /**
     * Whether a state is active, as the leaf or an ancestor, by name ({@code "engage"}) or path
     * ({@code "combat.engage"}).
     *
     * @param name a state's name or dotted path
     * @return {@code true} if that state is active
     * @throws MachineException if no state of the machine has that name or path
     */
    boolean is(String name);

    /**
     * Seconds spent in an active state, by name or path; 0 when it is not active.
     * A builder-style machine counts the current state's time only (0 for any other).
     *
     * @param name a state's name or dotted path
     * @return seconds since the state was entered, or 0
     * @throws MachineException if no state of the machine has that name or path
     */
    double timeIn(String name);

    /**
     * Seconds spent in the state declared with a constant, 0 when it is not active.
     *
     * @param state a constant of the machine's state enum; not {@code null}
     * @return seconds since the state was entered, or 0
     * @throws MachineException if the constant is not of the machine's state enum
     */
    double timeIn(Enum<?> state);

    /**
     * Whether the machine would take the event now: true exactly when {@code send} of it would
     * return true (a state has an enabled transition for it, one that only runs actions counts;
     * polled, an active state names it). For greying out a button, letting an AI pick among the
     * actions it may take, or asserting in a test. The guards that send would evaluate are
     * evaluated, and nothing else runs: no action, entry, exit, send to itself or listener; the
     * record is left exactly as it was, its random numbers' state included (a guard's draws are
     * put back). A guard that is not pure is the game's problem: whatever else it does, it does.
     * A machine that is done, or an event no state names on a machine that accepts unknown
     * events, gives false. Asked from the machine's own guard or action, it is refused with the
     * error a send from there gets, and nothing changes.
     *
     * @param event the event's type, such as {@code "BELL"}
     * @return whether a state would take it now
     * @throws dev.enginestates.declare.UnknownEventException as {@code send} does, if no state names the event and the
     *                                                         machine rejects unknown events (the default); nothing changes
     * @throws MachineException if the machine is builder-style (it takes no events), or, on an entity, the entity
     *                          holds no record of the machine in a world
     * @throws dev.enginestates.declare.UserCodeException if a guard threw, naming the machine, the state and the event; nothing changes
     */
    boolean can(String event);

    /**
     * Whether the machine would take the event of a constant of its event enum now, as
     * {@link #can(String)}. Allocation-free.
     *
     * @param event a constant of the machine's event enum; not {@code null}
     * @return whether a state would take it now
     * @throws MachineException if the constant is not of the machine's event enum, or as {@link #can(String)}
     */
    boolean can(Enum<?> event);

    /**
     * Whether the machine would take the event, with the fields its guards read, now, as
     * {@link #can(String)}.
     *
     * @param event the event, such as {@code Event.of("hit", Map.of("damage", 5))}; not {@code null}
     * @return whether a state would take it now
     * @throws MachineException if the event is named by a constant of another enum, or as {@link #can(String)}
     */
    boolean can(dev.enginestates.declare.Event event);

    /**
     * The events the machine would take now: each event type its states name for which
     * {@link #can(String)} is true (a transition of an active state, the leaf's or any
     * ancestor's, in every region of a parallel state, enabled with its guards as they read now),
     * in the machine's event order (as its states, in document order, first name them: the
     * order an unknown event's error lists them). Each is asked bare, as {@code can(type)}: a
     * guard that wants a field of the event sees none, so ask such an event with
     * {@link #can(dev.enginestates.declare.Event)}. A wildcard
     * descriptor ({@code "*"}, {@code "hit.*"}) is no event type and is not listed. Empty for a
     * machine that is done, and for a builder-style one (it takes no events).
     *
     * @return a new list of event types
     * @throws dev.enginestates.declare.UserCodeException if a guard threw; nothing changes
     */
    List<String> permittedEvents();

    /**
     * The constants of the machine's event enum whose events it would take now, as
     * {@link #permittedEvents()}.
     *
     * @param <E>    the game's enum of events
     * @param events the enum the machine was declared with, such as {@code GuardEvent.class}
     * @return a new set of the constants
     * @throws MachineException if the machine's events are not named by {@code events}
     */
    <E extends Enum<E>> java.util.Set<E> permittedEvents(Class<E> events);
}

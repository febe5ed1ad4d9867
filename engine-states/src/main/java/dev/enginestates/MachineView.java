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
    /** The machine's id. */
    String machineId();

    /** The active leaf's path ({@code "combat.engage"}); the leaves of a parallel state joined by {@code ", "}; {@code ""} before a start. */
    String state();

    /** The leaf active before the last transition (polled and builder styles), else {@code ""}. */
    String previous();

    /** The state value as XState writes it: a key, or nested maps for compound and parallel states. */
    Object value();

    /**
     * Whether the state at a dotted path is active.
     *
     * @throws MachineException if the path names no state of the machine (with a "did you mean")
     */
    boolean matches(String path);

    /** The paths of the active leaves, in document order. */
    List<String> leaves();

    /** The context. */
    C context();

    /** Whether a top-level final state was reached. */
    boolean isDone();

    /** Seconds in the active leaf. */
    double time();

    /** Seconds before the machine leaves on time (a wait's or an {@code after}'s), 0 when none counts. */
    double secondsLeft();
}

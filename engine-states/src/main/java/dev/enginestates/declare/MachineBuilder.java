package dev.enginestates.declare;

import java.util.Objects;

/**
 * Declares a machine: its root's children and transitions (as {@link NodeBuilder}) and the
 * options that belong to the machine as a whole.
 *
 * @param <C> the machine's context type
 */
public final class MachineBuilder<C> extends NodeBuilder<C, MachineBuilder<C>> {
    private UnknownEvents unknownEvents = UnknownEvents.REJECT;

    /** Starts the declaration of a machine (use {@code Machine.define}). */
    public MachineBuilder() {
        super("");
    }

    /** What {@code send} does with an event that no state names; {@link UnknownEvents#REJECT} by default. */
    public MachineBuilder<C> unknownEvents(UnknownEvents policy) {
        this.unknownEvents = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /** The policy for unknown events. */
    public UnknownEvents unknownEventPolicy() {
        return unknownEvents;
    }

    /** The immutable definition tree declared so far. */
    public StateDefinition<C> definition() {
        return build();
    }
}

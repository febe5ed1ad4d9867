package dev.enginestates.declare;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Declares a machine: its root's children and transitions (as {@link NodeBuilder}) and the
 * options that belong to the machine as a whole.
 *
 * @param <C> the machine's context type
 */
public final class MachineBuilder<C> extends NodeBuilder<C, MachineBuilder<C>> {
    private UnknownEvents unknownEvents = UnknownEvents.REJECT;
    private boolean tags = true;
    private final List<Class<?>> heldBy = new ArrayList<>();

    /** Starts the declaration of a machine (use {@code Machine.define}). */
    public MachineBuilder() {
        super("");
    }

    /** What {@code send} does with an event that no state names; {@link UnknownEvents#REJECT} by default. */
    public MachineBuilder<C> unknownEvents(UnknownEvents policy) {
        this.unknownEvents = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /**
     * Whether the ECS binding gives each state a tag component ({@code true} by default). A
     * machine that many kinds of entity declare their own of can turn them off; its state is
     * then read through its record.
     */
    public MachineBuilder<C> tags(boolean tags) {
        this.tags = tags;
        return this;
    }

    /** Whether states get tag components. */
    public boolean hasTags() {
        return tags;
    }

    /**
     * Component types that hold this machine alone while its entity has any of them: its wait
     * counts no seconds and its {@code when} rules are not tested; events still move it.
     */
    public MachineBuilder<C> heldBy(Class<?>... componentTypes) {
        for (Class<?> t : componentTypes) {
            heldBy.add(Objects.requireNonNull(t, "heldBy component type"));
        }
        return this;
    }

    /** The component types that hold this machine. */
    public List<Class<?>> heldByTypes() {
        return List.copyOf(heldBy);
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

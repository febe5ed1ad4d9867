package dev.enginestates.fsm;

import dev.enginestates.records.Access;
import dev.enginestates.declare.StateContextCore;
import dev.enginestates.Machine;

import java.util.List;

/**
 * A built builder-style machine: immutable, shared by every {@link StateMachine} over it and by
 * every world on every thread. On an entity: {@code States.of(definition)}.
 *
 * @param <C> the context type
 */
public final class StateMachineDefinition<C extends StateContextCore> {
    private final Machine<C> machine;

    StateMachineDefinition(Machine<C> machine) {
        this.machine = machine;
    }

    /**
     * The machine's name: the builder's id, else its first {@link StateBehavior}'s, else {@code "fsm"}.
     *
     * @return the machine's name, such as {@code "door"}
     */
    public String id() {
        return machine.id();
    }

    /**
     * The states' names, in the order they are numbered (dumps, tags, checkpoints).
     *
     * @return a new list of the state names, such as {@code "Opening"}
     */
    public List<String> states() {
        return machine.statePaths();
    }

    /**
     * The state the machine starts in.
     *
     * @return the initial state's name
     */
    public String initialState() {
        return Access.chart(machine).path[Access.chart(machine).initial[0]];
    }

    /**
     * The machine this definition compiles to: what the ECS face, dumps and checkpoints take.
     *
     * @return the compiled machine, shared by every instance
     */
    public Machine<C> machine() {
        return machine;
    }

    @Override
    public String toString() {
        return "StateMachineDefinition(" + id() + ", states " + states() + ")";
    }
}

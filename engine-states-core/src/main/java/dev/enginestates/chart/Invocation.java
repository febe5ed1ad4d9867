package dev.enginestates.chart;

import dev.enginestates.declare.ChildMachine;

import java.util.function.Function;

/**
 * A child machine a state runs while active ({@code invoke}), as compiled: the face that runs
 * children (the world) starts it when the state is active and stops it when it is not.
 */
public final class Invocation {
    /** The child's id, unique in the machine. */
    public final String id;
    /** The state that invokes it. */
    public final int state;
    /** The child's machine. */
    public final ChildMachine<?> machine;
    /** The child's context from the parent's, or {@code null} for the child's own factory. */
    public final Function<Object, Object> input;
    /** The done event's output from the child's context, or {@code null} for the context itself. */
    public final Function<Object, Object> output;
    /** Whether the child runs on the parent's entity. */
    public final boolean sameEntity;
    /** {@code "xstate.done.actor.<id>"}. */
    public final String doneEvent;

    @SuppressWarnings("unchecked")
    Invocation(String id, int state, ChildMachine<?> machine, Function<?, ?> input, Function<?, ?> output, boolean sameEntity,
            String doneEvent) {
        this.id = id;
        this.state = state;
        this.machine = machine;
        this.input = (Function<Object, Object>) input;
        this.output = (Function<Object, Object>) output;
        this.sameEntity = sameEntity;
        this.doneEvent = doneEvent;
    }

    @Override
    public String toString() {
        return "child '" + id + "' (machine '" + machine.id() + "')";
    }
}

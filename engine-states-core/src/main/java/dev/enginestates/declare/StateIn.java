package dev.enginestates.declare;

import java.util.Objects;

/**
 * The guard {@link Guard#stateIn} makes: holds while the named state is active. The compiler
 * resolves the name and the interpreter tests the state's bit; called directly (inside another
 * guard), it asks {@link Self#isIn}.
 *
 * @param <C>   the context type
 * @param state the state as written: a path, or {@code "#id"}
 */
public record StateIn<C>(String state) implements Guard<C>, Named {
    /**
     * Checks the name.
     *
     * @param state the state as written; not empty
     * @throws IllegalArgumentException if it is empty
     */
    public StateIn {
        if (Objects.requireNonNull(state, "state").isEmpty()) {
            throw new IllegalArgumentException("stateIn needs a state's path or '#id'; got an empty name");
        }
    }

    /** Refuses: without the machine there is no configuration to read. */
    @Override
    public boolean test(C context, Event event) {
        throw new IllegalStateException("stateIn('" + state + "') reads the machine's configuration; test it with its Self");
    }

    @Override
    public boolean test(C context, Event event, Self self) {
        return self.isIn(state);
    }

    /** The XState name of the guard: {@code "xstate.stateIn"}. */
    @Override
    public String name() {
        return "xstate.stateIn";
    }
}

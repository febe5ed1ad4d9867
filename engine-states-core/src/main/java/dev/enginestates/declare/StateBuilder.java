package dev.enginestates.declare;

/**
 * Declares one state inside a machine; see {@link NodeBuilder} for what it can hold.
 *
 * @param <C> the machine's context type
 */
public final class StateBuilder<C> extends NodeBuilder<C, StateBuilder<C>> {
    StateBuilder(String key) {
        super(key);
    }

    StateBuilder(Enum<?> constant) {
        super(constant);
    }
}

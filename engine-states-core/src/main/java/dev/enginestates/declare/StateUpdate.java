package dev.enginestates.declare;

/**
 * A polled state's per-step code, run after the guards, outermost state first.
 *
 * @param <C> the context type
 */
@FunctionalInterface
public interface StateUpdate<C> {
    /**
     * Runs once a step while the state is active.
     *
     * @param ctx the machine's context
     * @param dt  the step's seconds
     * @param t   seconds spent in the state that declared it (the root's: since the start)
     * @return the name of a state to go to (resolved like a declared target, {@code "$back"}
     *         allowed), or {@code null} to stay
     */
    String update(C ctx, double dt, double t);
}

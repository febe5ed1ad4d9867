package dev.enginestates.declare;

/**
 * A polled state's guard (its {@code to}): tested every step while its
 * state is active; the first that holds moves the machine to its key. Keep it pure and cheap.
 *
 * @param <C> the context type
 */
@FunctionalInterface
public interface StateGuard<C> {
    /**
     * Whether to leave for the guard's target.
     *
     * @param ctx the machine's context; read it, do not change it
     * @param t   seconds spent in the state that declared the guard (the root's: since the start)
     * @return {@code true} to leave for the guard's target
     */
    boolean test(C ctx, double t);
}

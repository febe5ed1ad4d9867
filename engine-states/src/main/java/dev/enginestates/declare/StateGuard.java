package dev.enginestates.declare;

/**
 * A polled state's guard (the {@code 000} document's {@code to}): tested every step while its
 * state is active; the first that holds moves the machine to its key. Keep it pure and cheap.
 *
 * @param <C> the context type
 */
@FunctionalInterface
public interface StateGuard<C> {
    /**
     * Whether to leave for the guard's target.
     *
     * @param t seconds spent in the state that declared the guard (the root's: since the start)
     */
    boolean test(C ctx, double t);
}

package dev.enginestates.declare;

/**
 * Runs when a polled state is left, innermost first. A compound state's exit is the one place
 * to undo whatever any of its children set.
 *
 * @param <C> the context type
 */
@FunctionalInterface
public interface ExitHook<C> {
    /**
     * Leaves the state.
     *
     * @param ctx the machine's context
     * @param to  the path of the leaf the machine is going to
     */
    void exit(C ctx, String to);
}

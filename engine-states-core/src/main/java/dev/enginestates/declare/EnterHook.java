package dev.enginestates.declare;

/**
 * Runs when a polled state is entered, outermost first, after the states left have run their exits.
 *
 * @param <C> the context type
 */
@FunctionalInterface
public interface EnterHook<C> {
    /**
     * Enters the state.
     *
     * @param ctx  the machine's context
     * @param from the path of the leaf the machine came from ({@code ""} when the machine starts)
     */
    void enter(C ctx, String from);
}

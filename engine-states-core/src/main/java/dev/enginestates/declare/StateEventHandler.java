package dev.enginestates.declare;

/**
 * A polled state's event handler. Being called means the event is handled: it stops here,
 * whatever the handler returns.
 *
 * @param <C> the context type
 */
@FunctionalInterface
public interface StateEventHandler<C> {
    /**
     * Handles the event.
     *
     * @param ctx  the machine's context
     * @param args the arguments given to {@code send}, never {@code null}
     * @return the name of a state to go to (resolved like a declared target, {@code "$back"}
     *         allowed), or {@code null} to stay
     */
    String handle(C ctx, Object... args);
}

package dev.enginestates.declare;


/**
 * Code run on entry to a state, on exit from it, or when a transition is taken. It runs once
 * the new configuration is written, and may change the context. To see the entity and the
 * world as well, write the action with three arguments, {@code (ctx, event, self)}: a
 * {@link SelfAction}.
 *
 * @param <C> the machine's context type
 */
@FunctionalInterface
public interface Action<C> extends SelfAction<C> {
    /**
     * Runs the action with the machine's context and the event being processed.
     *
     * @param context the machine's context, which the action may change
     * @param event the event being processed: the one sent, or the machine's own for its start
     *              ({@code "xstate.init"}), a wait ({@code "states.wait"}), a {@code when} rule
     *              ({@code "states.when"}) or a state done ({@code "xstate.done.state.<id>"})
     */
    void run(C context, Event event);

    /** Runs {@link #run(Object, Event)}: this action does not read {@code self}. */
    @Override
    default void run(C context, Event event, Self self) {
        run(context, event);
    }

    /**
     * A declarative action raising an event of that type on the machine's internal queue (see
     * {@link Self#raise(String)}): XState's {@code raise({type})}, SCXML's {@code <raise>}. The
     * XState export writes it as XState's raise action.
     *
     * @param <C>  the context type
     * @param type the event's type; not empty
     * @return the action
     * @throws IllegalArgumentException if the type is empty
     */
    static <C> SelfAction<C> raise(String type) {
        return new Raise<>(type);
    }
}

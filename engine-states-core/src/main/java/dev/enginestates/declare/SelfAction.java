package dev.enginestates.declare;


/**
 * An action that also sees its machine's entity and world: {@code (ctx, event, self) -> ...}.
 * Runs where an {@link Action} does (entry, exit, a transition's actions); every
 * {@code Action} is one that ignores {@code self}.
 *
 * @param <C> the machine's context type
 */
@FunctionalInterface
public interface SelfAction<C> {
    /**
     * Runs the action with the machine's context, the event being processed and the machine's {@link Self}.
     *
     * @param context the machine's context, which the action may change
     * @param event the event being processed: the one sent, or the machine's own for its start
     *              ({@code "xstate.init"}), a wait ({@code "states.wait"}), a {@code when} rule
     *              ({@code "states.when"}) or a state done ({@code "xstate.done.state.<id>"})
     * @param self the machine's entity, world and face
     */
    void run(C context, Event event, Self self);
}

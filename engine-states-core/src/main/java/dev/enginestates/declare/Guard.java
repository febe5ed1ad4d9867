package dev.enginestates.declare;


/**
 * A transition's condition: it reads the machine's context and the event being processed
 * and says whether the transition may be taken. Keep it pure: it may run several times per
 * event, and not at all when an earlier candidate is taken. To see the entity and the world as
 * well, write it with three arguments, {@code (ctx, event, self)}: a {@link SelfGuard}.
 *
 * @param <C> the machine's context type
 */
@FunctionalInterface
public interface Guard<C> extends SelfGuard<C> {
    /**
     * Whether the transition is enabled for this context and event.
     *
     * @param context the machine's context; read it, do not change it
     * @param event the event being processed, with its fields
     * @return {@code true} to let the transition be taken
     */
    boolean test(C context, Event event);

    /** Tests {@link #test(Object, Event)}: this guard does not read {@code self}. */
    @Override
    default boolean test(C context, Event event, Self self) {
        return test(context, event);
    }

    /**
     * A guard that holds while a state of the machine is active (SCXML's {@code In(id)}, XState's
     * {@code stateIn}). The name is resolved when the machine is compiled, like a target: a path
     * from the root ({@code "combat.engage"}), a key path from the transition's parent (as a plain
     * target names a sibling), or {@code "#id"}; one that names no state makes the machine
     * invalid. Reading it costs one bit test.
     *
     * @param <C>   the context type
     * @param state the state's path or {@code "#id"}; not empty
     * @return the guard, for {@code TransitionBuilder.guard}
     * @throws IllegalArgumentException if the name is empty
     */
    static <C> Guard<C> stateIn(String state) {
        return new StateIn<>(state);
    }
}

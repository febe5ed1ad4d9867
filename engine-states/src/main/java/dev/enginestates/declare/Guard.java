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
}

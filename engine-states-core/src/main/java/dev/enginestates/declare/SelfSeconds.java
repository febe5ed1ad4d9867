package dev.enginestates.declare;


/**
 * A wait's length computed when its state is entered, from the context, the event that
 * entered it (as XState's delay functions receive it) and the machine's entity and world:
 * {@code (ctx, event, self) -> ...}. Every {@link Seconds} is one that reads only the context.
 *
 * @param <C> the machine's context type
 */
@FunctionalInterface
public interface SelfSeconds<C> {
    /**
     * The seconds to wait; must be finite and not negative.
     *
     * @param context the machine's context as the state is entered
     * @param event the event that entered the state
     * @param self the machine's entity, world and face
     * @return the seconds; a negative, infinite or NaN result makes the machine throw a
     *         {@link UserCodeException}, and the state stays active with no wait counting
     */
    double of(C context, Event event, Self self);
}

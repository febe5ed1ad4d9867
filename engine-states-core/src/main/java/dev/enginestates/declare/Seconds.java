package dev.enginestates.declare;


/**
 * A wait's length computed from the context when the waiting state is entered, such as a
 * round's countdown: {@code s.waitFor(c -> c.countdown, "playing")}.
 * To read the entering event, the entity or the world as well, write it with three arguments,
 * {@code (ctx, event, self)}: a {@link SelfSeconds}.
 *
 * @param <C> the machine's context type
 */
@FunctionalInterface
public interface Seconds<C> extends SelfSeconds<C> {
    /**
     * The seconds to wait; must be finite and not negative.
     *
     * @param context the machine's context as the state is entered
     * @return the seconds; a negative, infinite or NaN result makes the machine throw a
     *         {@link UserCodeException}, and the state stays active with no wait counting
     */
    double of(C context);

    /** Computes {@link #of(Object)}: these seconds depend on the context only. */
    @Override
    default double of(C context, Event event, Self self) {
        return of(context);
    }
}

package dev.enginestates.declare;

import dev.enginestates.Event;

/**
 * A transition's condition: it reads the machine's context and the event being processed
 * and says whether the transition may be taken. Keep it pure: it may run several times per
 * event, and not at all when an earlier candidate is taken.
 *
 * @param <C> the machine's context type
 */
@FunctionalInterface
public interface Guard<C> {
    /** Whether the transition is enabled for this context and event. */
    boolean test(C context, Event event);
}

package dev.enginestates.declare;

import dev.enginestates.Event;

/**
 * Code run on entry to a state, on exit from it, or when a transition is taken. It runs once
 * the new configuration is written, and may change the context.
 *
 * @param <C> the machine's context type
 */
@FunctionalInterface
public interface Action<C> {
    /** Runs the action with the machine's context and the event being processed. */
    void run(C context, Event event);
}

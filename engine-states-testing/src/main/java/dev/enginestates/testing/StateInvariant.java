package dev.enginestates.testing;

import dev.enginestates.ecs.StateRecord;

/**
 * The game's own check of a machine in a state, run by generated path tests after the start and
 * after every input, once for each active state (ancestors included):
 *
 * <pre>{@code
 * (state, guard) -> {
 *     if (state.equals("answer")) assertTrue(guard.context().bells > 0, "answering counts the bell");
 * }
 * }</pre>
 *
 * @param <C> the machine's context type
 */
@FunctionalInterface
public interface StateInvariant<C> {
    /**
     * Checks the machine in one of its active states; throw (an assertion) when it is wrong.
     *
     * @param state   the active state's dotted path, such as {@code "patrol.rest"}
     * @param machine the machine's record: its context, seconds left, and the rest
     * @throws Exception when the check fails
     */
    void check(String state, StateRecord<C> machine) throws Exception;
}

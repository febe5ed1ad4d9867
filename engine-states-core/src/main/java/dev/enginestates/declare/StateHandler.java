package dev.enginestates.declare;

/**
 * A state's update code in the builder style: it reads the context
 * and returns the name of the state to move to, or {@code null} to stay.
 *
 * @param <C> the context type
 */
@FunctionalInterface
public interface StateHandler<C> {
    /**
     * Runs the state for one tick.
     *
     * @param ctx the machine's context; its time in state, progress and windows are up to date
     * @param dt  the tick's seconds
     * @return the next state's name; {@code null}, the current state's own name or an unknown
     *         name stays (an unknown name is logged once)
     */
    String update(C ctx, float dt);
}

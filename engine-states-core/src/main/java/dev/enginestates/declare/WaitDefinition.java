package dev.enginestates.declare;

/**
 * A state's {@code wait}: seconds (a constant, or a function evaluated on entry) and the transition taken when they have passed. Counted by the fixed step.
 *
 * @param <C> the machine's context type
 */
public final class WaitDefinition<C> {
    private final double seconds;
    private final SelfSeconds<C> secondsOf;
    private final TransitionDefinition<C> then;

    WaitDefinition(double seconds, SelfSeconds<C> secondsOf, TransitionDefinition<C> then) {
        this.seconds = seconds;
        this.secondsOf = secondsOf;
        this.then = then;
    }

    /**
     * The constant seconds, or {@code NaN} when they come from {@link #secondsOf()}.
     *
     * @return the seconds, or {@code NaN}
     */
    public double seconds() {
        return seconds;
    }

    /**
     * The function computing the seconds on entry, or {@code null} when they are constant.
     *
     * @return the function, or {@code null}
     */
    public SelfSeconds<C> secondsOf() {
        return secondsOf;
    }

    /**
     * The transition taken when the wait ends.
     *
     * @return the transition
     */
    public TransitionDefinition<C> then() {
        return then;
    }
}

package dev.enginestates.declare;

/**
 * A state's {@code wait}: seconds (a constant, or a function of the context evaluated on
 * entry) and the transition taken when they have passed. Counted by the fixed step.
 *
 * @param <C> the machine's context type
 */
public final class WaitDefinition<C> {
    private final double seconds;
    private final Seconds<C> secondsOf;
    private final TransitionDefinition<C> then;

    WaitDefinition(double seconds, Seconds<C> secondsOf, TransitionDefinition<C> then) {
        this.seconds = seconds;
        this.secondsOf = secondsOf;
        this.then = then;
    }

    /** The constant seconds, or {@code NaN} when they come from {@link #secondsOf()}. */
    public double seconds() {
        return seconds;
    }

    /** The function of the context, or {@code null} when the seconds are constant. */
    public Seconds<C> secondsOf() {
        return secondsOf;
    }

    /** The transition taken when the wait ends. */
    public TransitionDefinition<C> then() {
        return then;
    }
}

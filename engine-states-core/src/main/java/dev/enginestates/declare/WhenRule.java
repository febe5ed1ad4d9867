package dev.enginestates.declare;

/**
 * One {@code when} rule of a state: a test run each step while the state is active, and the
 * transition taken when it holds.
 *
 * @param <C> the machine's context type
 */
public final class WhenRule<C> {
    private final SelfGuard<C> test;
    private final TransitionDefinition<C> then;

    WhenRule(SelfGuard<C> test, TransitionDefinition<C> then) {
        this.test = test;
        this.then = then;
    }

    /**
     * The test.
     *
     * @return the test, run each step while the state is active
     */
    public SelfGuard<C> test() {
        return test;
    }

    /**
     * The transition taken when the test holds.
     *
     * @return the transition
     */
    public TransitionDefinition<C> then() {
        return then;
    }
}

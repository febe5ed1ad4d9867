package dev.enginestates.declare;

/**
 * A wait's length computed from the context when the waiting state is entered, as the
 * {@code 003} document's round countdown: {@code wait: { seconds: ({ context }) => context.countdown }}.
 *
 * @param <C> the machine's context type
 */
@FunctionalInterface
public interface Seconds<C> {
    /** The seconds to wait; must be finite and not negative. */
    double of(C context);
}

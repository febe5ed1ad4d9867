package dev.enginestates.declare;

/**
 * The test of a {@code when} rule: a condition that holds over time, such as a speed under a
 * line, tested each step while its state is active (the {@code 003} document's {@code when}).
 *
 * @param <C> the machine's context type
 */
@FunctionalInterface
public interface Condition<C> {
    /** Whether the rule moves the machine now. */
    boolean test(C context);
}

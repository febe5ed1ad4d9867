package dev.enginestates.declare;

/**
 * A {@code when} test that reads the machine's holder as well as its context, such as the
 * {@code 003} document's rider: {@code (ctx, rider) -> rider.get(TrackMover.class).speed < stallSpeed}.
 *
 * @param <C> the machine's context type
 */
@FunctionalInterface
public interface HolderCondition<C> {
    /** Whether the rule moves the machine now. */
    boolean test(C context, Holder holder);
}

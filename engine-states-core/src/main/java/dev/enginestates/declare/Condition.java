package dev.enginestates.declare;


/**
 * The test of a {@code when} rule: a condition that holds over time, such as a speed under a
 * line, tested each step while its state is active.
 * To see the entity and the world as well, write it with three arguments,
 * {@code (ctx, event, self)}: a {@link SelfGuard}.
 *
 * @param <C> the machine's context type
 */
@FunctionalInterface
public interface Condition<C> extends SelfGuard<C> {
    /**
     * Whether the rule moves the machine now.
     *
     * @param context the machine's context; read it, do not change it
     * @return {@code true} to take the rule's transition
     */
    boolean test(C context);

    /** Tests {@link #test(Object)}: this test reads only the context. */
    @Override
    default boolean test(C context, Event event, Self self) {
        return test(context);
    }
}

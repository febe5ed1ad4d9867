package dev.enginestates.declare;


/**
 * A {@code when} test that reads the machine's holder as well as its context, such as a
 * rider stalling on a hill: {@code (ctx, rider) -> rider.get(TrackMover.class).speed < stallSpeed}.
 * The holder it receives is the machine's {@link Self}; the three-argument form
 * {@code (ctx, event, self)} ({@link SelfGuard}) reads it with its full type.
 *
 * @param <C> the machine's context type
 */
@FunctionalInterface
public interface HolderCondition<C> extends SelfGuard<C> {
    /**
     * Whether the rule moves the machine now.
     *
     * @param context the machine's context; read it, do not change it
     * @param holder what holds the machine: its entity in a world, its context on a plain machine
     * @return {@code true} to take the rule's transition
     */
    boolean test(C context, Holder holder);

    /** Tests {@link #test(Object, Holder)} with the machine's {@link Self} as its holder. */
    @Override
    default boolean test(C context, Event event, Self self) {
        return test(context, self);
    }
}

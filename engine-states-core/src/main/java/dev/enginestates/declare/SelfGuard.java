package dev.enginestates.declare;


/**
 * A transition's guard or a {@code when} rule's test that also sees its machine's entity and
 * world: {@code (ctx, event, self) -> ...}. A {@code when} test receives the machine's
 * {@code when} event (type {@code "states.when"}). Every {@link Guard}, {@link Condition} and
 * {@link HolderCondition} is one that reads less. Keep it pure: it may run several times per
 * event, and not at all when an earlier candidate is taken.
 *
 * @param <C> the machine's context type
 */
@FunctionalInterface
public interface SelfGuard<C> {
    /**
     * Whether the transition is enabled (or the rule holds) for this context, event and machine.
     *
     * @param context the machine's context; read it, do not change it
     * @param event the event being processed; for a {@code when} test, the machine's {@code when} event
     * @param self the machine's entity, world and face
     * @return {@code true} to let the transition be taken (or the rule move the machine)
     */
    boolean test(C context, Event event, Self self);
}

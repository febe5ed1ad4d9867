package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.MachineView;
import dev.enginestates.declare.Holder;
import dev.enginestates.declare.HolderCondition;
import dev.enginestates.declare.Self;

/**
 * A {@code when} test that takes the context, the entity the machine is on (the world's own
 * for a world-level machine) and the world:
 *
 * <pre>{@code
 * .state("sliding", s -> s.when(EntityCondition.of((ctx, rider, world) ->
 *         rider.get(TrackMover.class).speed < ctx.stallSpeed), "stalling"))
 * }</pre>
 *
 * @param <C> the machine's context type
 */
@FunctionalInterface
public interface EntityCondition<C> {
    /**
     * Whether the rule moves the machine now.
     *
     * @param context the machine's context
     * @param entity  the entity the machine is on (the world's own entity for a world-level machine)
     * @param world   the world the entity lives in
     * @return {@code true} to take the rule's transition
     */
    boolean test(C context, Entity entity, StateWorld world);

    /**
     * The test as the declaration takes it. Only for machines in a {@link StateWorld}: on a plain
     * machine there is no entity, and the rule fails when it is tested with an
     * {@link IllegalStateException} saying so (wrapped, as any failing test is, in a
     * {@link dev.enginestates.declare.UserCodeException}).
     *
     * @param <C>  the machine's context type
     * @param test the three-argument test
     * @return a condition for {@code when(...)} that hands the test its entity and world
     */
    static <C> HolderCondition<C> of(EntityCondition<C> test) {
        return (context, holder) -> {
            Object handle = holder.handle();
            StateWorld world = holder.world();
            if (!(handle instanceof Entity) || world == null) {
                throw notOnAnEntity(holder, handle);
            }
            return test.test(context, (Entity) handle, world);
        };
    }

    /** Why an entity test cannot run: the machine is on a plain object, whose holder is its context. */
    private static IllegalStateException notOnAnEntity(Holder holder, Object handle) {
        String machine = holder instanceof Self self && self.machine() instanceof MachineView<?> view
                ? "machine '" + view.machineId() + "'" : "the machine";
        return new IllegalStateException(machine + " runs on " + (handle == null ? "no entity" : "a plain object (a "
                + handle.getClass().getSimpleName() + ")") + ", but an EntityCondition reads the entity and the world it is on;"
                + " expected a machine spawned in a StateWorld, or a (ctx, holder) test, whose holder reads the context");
    }
}

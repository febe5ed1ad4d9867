package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.HolderCondition;

/**
 * A {@code when} test that takes the context, the entity the machine is on (the world's own
 * for a world-level machine) and the world, as the {@code 003} document's tests do:
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
     * machine the holder is the context, not an entity, and the test fails with a
     * {@link ClassCastException} when it runs.
     *
     * @param <C>  the machine's context type
     * @param test the three-argument test
     * @return a condition for {@code when(...)} that hands the test its entity and world
     */
    static <C> HolderCondition<C> of(EntityCondition<C> test) {
        return (context, holder) -> test.test(context, (Entity) holder.handle(), (StateWorld) holder.world());
    }
}

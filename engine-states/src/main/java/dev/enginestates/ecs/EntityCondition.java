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
    /** Whether the rule moves the machine now. */
    boolean test(C context, Entity entity, StateWorld world);

    /** The test as the declaration takes it. */
    static <C> HolderCondition<C> of(EntityCondition<C> test) {
        return (context, holder) -> test.test(context, (Entity) holder.handle(), (StateWorld) holder.world());
    }
}

package dev.enginestates.testing;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.declare.StateContextCore;
import dev.enginestates.fsm.StateMachine;

import java.util.Objects;

/**
 * Fluent assertions on machines in a world, for a game's own tests:
 *
 * <pre>{@code
 * import static dev.enginestates.testing.StateAssertions.assertThat;
 *
 * assertThat(world, guard).machine(GUARD).isIn("patrol.watch").hasSecondsLeft(1.0).hasTag("patrol");
 * assertThat(world).machine(SIEGE).isIn("breather").hasContext("two waves held", s -> s.wave == 2);
 * assertThat(world).hasCountIn(GUARD, "answer", 100);
 * assertThat(fsm).hasState("Attack").hasProgress(0.5).isInWindow("damage");   // a builder-style machine off the ECS
 * }</pre>
 *
 * <p>A failing assertion throws an {@link AssertionError} (opentest4j's
 * {@code AssertionFailedError}, with expected and actual values where there are two) whose
 * message says what was expected and what the machine is doing, then prints the entity's
 * machines as JSON: each one's state, seconds waited and left, paused seconds, history,
 * context and tags ({@link EntityDump}).
 */
public final class StateAssertions {
    private StateAssertions() {
    }

    /**
     * Assertions on the machines of an entity of the fixture's world.
     *
     * @param world the fixture, with a world open
     * @param entity an entity of its world
     * @return assertions on the entity; pick a machine with {@link EntityAssert#machine}
     * @throws IllegalStateException if the fixture has no world open
     */
    public static EntityAssert assertThat(WorldFixture world, Entity entity) {
        return assertThat(Objects.requireNonNull(world, "world").world(), entity);
    }

    /**
     * Assertions on the machines of an entity of a world.
     *
     * @param world the world the entity belongs to
     * @param entity an entity of that world
     * @return assertions on the entity; pick a machine with {@link EntityAssert#machine}
     */
    public static EntityAssert assertThat(StateWorld world, Entity entity) {
        return new EntityAssert(Objects.requireNonNull(world, "world"), Objects.requireNonNull(entity, "entity"));
    }

    /**
     * Assertions on a builder-style machine run by its owner (a
     * {@code dev.enginestates.fsm.StateMachine} or {@code AIStateMachine}, not on an entity):
     * {@code assertThat(fsm).hasState("Attack").isInWindow("damage")}.
     *
     * @param <C> the machine's context type
     * @param machine the builder-style machine
     * @return assertions on the machine, read live
     */
    public static <C extends StateContextCore> BuilderMachineAssert<C> assertThat(StateMachine<C> machine) {
        return new BuilderMachineAssert<>(Objects.requireNonNull(machine, "machine"));
    }

    /**
     * Assertions on the fixture's world: its world-level machines and counts of entities by state.
     *
     * @param world the fixture, with a world open
     * @return assertions on its world
     * @throws IllegalStateException if the fixture has no world open
     */
    public static WorldAssert assertThat(WorldFixture world) {
        return assertThat(Objects.requireNonNull(world, "world").world());
    }

    /**
     * Assertions on a world: its world-level machines and counts of entities by state.
     *
     * @param world the world
     * @return assertions on the world
     */
    public static WorldAssert assertThat(StateWorld world) {
        return new WorldAssert(Objects.requireNonNull(world, "world"));
    }
}

package dev.enginestates.testing;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.StateWorld;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static dev.enginestates.testing.StateAssertions.assertThat;
import static dev.enginestates.testing.TestMachines.GUARD;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code @ExtendWith(WorldFixture.class)}: a 60 Hz fixture handed to each test as a parameter. */
@ExtendWith(WorldFixture.class)
class ExtendWithTest {
    @Test
    void theFixtureArrivesAsAParameterAt60Hz(WorldFixture world) {
        assertEquals(1.0 / 60, world.stepSeconds());
        Entity g = world.spawn(GUARD.trait());
        world.advance(4.0);
        assertEquals(240, world.steps());
        assertThat(world, g).machine(GUARD).isIn("patrol.rest").hasSecondsLeft(10);
    }

    @Test
    void theWorldArrivesAsAParameterToo(StateWorld world) {
        assertEquals(0, world.steps());
        Entity g = world.spawn(GUARD.trait());
        world.step(1.0 / 60);
        assertThat(world, g).machine(GUARD).hasWaited(1.0 / 60);
    }
}

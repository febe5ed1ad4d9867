package dev.enginestates.testing;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.enginestates.testing.TestMachines.GUARD;
import static dev.enginestates.testing.TestMachines.SIEGE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fixture gives each test a fresh headless world at a fixed step, and {@code advance}
 * moves it in whole steps. The tests run in a fixed order so the second sees what the first
 * left: nothing.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WorldFixtureTest {
    @RegisterExtension
    static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);

    static StateWorld firstWorld;

    @Test
    @Order(1)
    void aTestGetsAWorldAtTimeZeroThatItMayMoveOn() {
        assertEquals(0.0, world.time());
        assertEquals(0, world.steps());
        firstWorld = world.world();
        Entity g = world.spawn(EntityKey.of("guard-1"), GUARD.trait());
        world.advance(3.0);
        assertEquals(180, world.steps(), "3 s at 60 Hz");
        assertEquals(3.0, world.time(), 1e-9);
        assertEquals(1.0, GUARD.read(g).secondsLeft(), 1e-9);
        assertEquals(1, world.world().records(GUARD).size());
    }

    @Test
    @Order(2)
    void theNextTestGetsAFreshWorld() {
        assertNotSame(firstWorld, world.world(), "a new world for each test");
        assertEquals(0.0, world.time());
        assertEquals(0, world.steps());
        assertEquals(0, world.world().records(GUARD).size(), "the guard of the test before is gone");
        assertEquals(null, world.world().entity("guard-1"));
    }

    @Test
    @Order(3)
    void advanceSteps60HzUntilTheSiegesBreatherEndsOnItsStep() {
        // 003: "breather: { wait: { seconds: 12, then: "fight" } }"
        world.add(SIEGE);
        world.send(SIEGE, "START");
        world.send(SIEGE, "WAVE_HELD");
        world.advance(12.0 - 1.0 / 60);
        assertEquals(719, world.steps());
        assertTrue(world.read(SIEGE).matches("breather"));
        world.advanceSteps(1);
        assertTrue(world.read(SIEGE).matches("fight"), "12 s = 720 steps");
    }

    @Test
    @Order(4)
    void secondsThatAreNotAWholeNumberOfStepsAreRefusedAndNothingMoves() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> world.advance(0.01));
        assertEquals("advance(0.01) is 0.6000 steps of 0.016666666666666666 s; the fixture moves whole steps only: advance by a"
                + " multiple of the step (0.0 or 0.016666666666666666 s here) or count steps with advanceSteps(n)", e.getMessage());
        assertEquals(0, world.steps(), "a refused advance takes no step");
        assertThrows(IllegalArgumentException.class, () -> world.advance(-1));
        assertThrows(IllegalArgumentException.class, () -> world.advance(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> world.advanceSteps(-1));
        world.advance(0);
        assertEquals(0, world.steps());
        assertEquals(60, world.stepsIn(1.0));
        assertEquals(3600, world.stepsIn(60.0), "a minute at 60 Hz, despite 1/60 not being exact in binary");
    }

    @Test
    @Order(5)
    void theFixtureIsItsOwnParameter(WorldFixture resolved, StateWorld resolvedWorld) {
        assertSame(world, resolved);
        assertSame(world.world(), resolvedWorld);
    }

    @Test
    void aFixtureAt30HzTakesHalfTheStepsAndRefusesA60HzStep() {
        try (WorldFixture slow = WorldFixture.fixedStep(1.0 / 30).open()) {
            Entity g = slow.spawn(GUARD.trait());
            slow.advance(4.0);
            assertEquals(120, slow.steps());
            assertTrue(GUARD.read(g).matches("patrol.rest"), "the 4 s watch ended on step 120 of 1/30 s");
            assertThrows(IllegalArgumentException.class, () -> slow.advance(1.0 / 60));
        }
    }

    @Test
    void aFixtureWithoutAnOpenWorldSaysSo() {
        WorldFixture closed = WorldFixture.fixedStep(0.1);
        IllegalStateException e = assertThrows(IllegalStateException.class, closed::world);
        assertTrue(e.getMessage().startsWith("no world is open"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> WorldFixture.fixedStep(0));
        assertThrows(IllegalArgumentException.class, () -> WorldFixture.fixedStep(Double.POSITIVE_INFINITY));
        assertEquals(WorldFixture.DEFAULT_STEP, new WorldFixture().stepSeconds());
    }
}

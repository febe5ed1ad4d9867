package com.example.game;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.testing.WorldFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static com.example.game.Game.GUARD;
import static dev.enginestates.testing.StateAssertions.assertThat;

/** The guard on the test kit's world, whose time moves only when the test says so. */
class GameTest {
    @RegisterExtension
    static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);

    @Test
    void theGuardRestsAfterFourSecondsOfWatch() {
        Entity guard = world.spawn(GUARD.trait());
        world.advance(4);
        assertThat(world, guard).machine(GUARD).isIn("rest").hasSecondsLeft(10);
    }

    @Test
    void theBellCallsHimAndResumeSendsHimBackToTheWatch() {
        Entity guard = world.spawnIn(GUARD, "rest").entity();
        world.send(GUARD, guard, "BELL");
        assertThat(world, guard).machine(GUARD).isIn("answer").hasContext("one bell", g -> g.bells == 1);
        world.send(GUARD, guard, "RESUME");
        assertThat(world, guard).machine(GUARD).isIn("watch").hasSecondsLeft(4);
    }
}

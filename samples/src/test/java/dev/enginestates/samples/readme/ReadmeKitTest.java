package dev.enginestates.samples.readme;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.testing.WorldFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.enginestates.samples.readme.Tour.GUARD;
import static dev.enginestates.testing.StateAssertions.assertThat;

/** The README's kit example, compiled and run (its lines are checked by {@link ReadmeCodeTest}). */
class ReadmeKitTest {
    @RegisterExtension static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);

    @Test void theBellInterruptsTheWatchAndResumeFinishesIt() {
        Entity guard = world.spawnIn(GUARD, "patrol.watch").waited(3.0).entity();
        world.send(GUARD, guard, "BELL");
        world.send(GUARD, guard, "RESUME");
        assertThat(world, guard).machine(GUARD).isIn("patrol.watch").hasSecondsLeft(1.0);
        world.advance(1.0);
        assertThat(world, guard).machine(GUARD).isIn("patrol.rest");
    }
}

package dev.enginestates.samples.readme;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.testing.WorldFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.enginestates.samples.readme.TypedTour.GUARD;
import static dev.enginestates.samples.readme.TypedTour.GuardEvent.BELL;
import static dev.enginestates.samples.readme.TypedTour.GuardEvent.RESUME;
import static dev.enginestates.samples.readme.TypedTour.GuardState.REST;
import static dev.enginestates.samples.readme.TypedTour.GuardState.WATCH;
import static dev.enginestates.testing.StateAssertions.assertThat;

/** The README's typed kit example, compiled and run (its lines are checked by {@link ReadmeCodeTest}). */
class TypedReadmeKitTest {
    @RegisterExtension static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);

    @Test void theBellInterruptsTheWatchAndResumeFinishesIt_typed() {
        Entity guard = world.spawnIn(GUARD, WATCH).waited(3.0).entity();
        world.send(GUARD, guard, BELL);
        world.send(GUARD, guard, RESUME);
        assertThat(world, guard).machine(GUARD).isIn(WATCH).hasSecondsLeft(1.0);
        world.advance(1.0);
        assertThat(world, guard).machine(GUARD).isIn(REST);
        assertThat(world).hasCountIn(GUARD, REST, 1);
    }
}

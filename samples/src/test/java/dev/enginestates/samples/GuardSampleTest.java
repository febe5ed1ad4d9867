package dev.enginestates.samples;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.testing.WorldFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.enginestates.samples.Guard.GuardEvent.BELL;
import static dev.enginestates.samples.Guard.GuardEvent.RESTART;
import static dev.enginestates.samples.Guard.GuardEvent.RESUME;
import static dev.enginestates.samples.Guard.GuardState.ANSWER;
import static dev.enginestates.samples.Guard.GuardState.PATROL;
import static dev.enginestates.samples.Guard.GuardState.REST;
import static dev.enginestates.samples.Guard.GuardState.RESUMED;
import static dev.enginestates.samples.Guard.GuardState.WATCH;
import static dev.enginestates.samples.GuardSample.GUARD;
import static dev.enginestates.testing.StateAssertions.assertThat;

/** The guard with a deep history state and the bell (the 003 document's "Waiting"), with its typed names. */
class GuardSampleTest {
    @RegisterExtension
    static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);

    @Test
    void threeSecondsIntoHisWatchHeHearsTheBellAndResumeBringsHimBackWithOneSecondLeft() {
        // 003: "A guard three seconds into his watch hears the bell. RESUME brings him back to
        // the watch with one second left"
        Entity ada = world.spawn(EntityKey.of("ada"));
        world.startIn(ada, GUARD, WATCH).waited(3);
        world.script()
                .send(GUARD, ada, BELL).taken()
                .check(() -> assertThat(world, ada).machine(GUARD).isIn(ANSWER).hasTag(ANSWER).doesNotHaveTag(PATROL)
                        .hasPaused(WATCH, 3).remembers(RESUMED, WATCH))
                .advance(2)
                .send(GUARD, ada, RESUME).taken()
                .run();
        assertThat(world, ada).machine(GUARD).isIn(WATCH).hasSecondsLeft(1.0).hasContext("one bell", g -> g.bells == 1);
        world.advance(1);
        assertThat(world, ada).machine(GUARD).isIn(REST).hasSecondsLeft(10);
    }

    @Test
    void restartStartsThePatrolOverWithAFreshWatch() {
        // 003: "RESTART starts the patrol over."
        Entity cy = world.spawnIn(GUARD, ANSWER).remembering(RESUMED, REST).paused(REST, 7).entity();
        world.send(GUARD, cy, RESTART);
        assertThat(world, cy).machine(GUARD).isIn(WATCH).hasSecondsLeft(4);
    }

    @Test
    void aBellDuringHisRestResumesTheRestWhereItWas() {
        // 003: "a history state that brings the state back resumes the wait from there"
        Entity bo = world.spawnIn(GUARD, REST).entity();
        world.advance(2);
        world.send(GUARD, bo, BELL);
        world.advance(3);
        world.send(GUARD, bo, RESUME);
        assertThat(world, bo).machine(GUARD).isIn(REST).hasSecondsLeft(8).hasWaited(2);
    }

    @Test
    void theSamplesGuardsAreCountedByTheirTags() {
        Entity ada = world.spawn(EntityKey.of("ada"), GUARD.trait());
        Entity bo = world.spawn(EntityKey.of("bo"), GUARD.trait().setState(REST));
        Entity cy = world.spawn(EntityKey.of("cy"), GUARD.trait());
        assertThat(world).hasCountIn(GUARD, WATCH, 2).hasCountIn(GUARD, REST, 1);
        world.advance(2);
        world.send(GUARD, bo, BELL);
        world.advance(1);
        world.send(GUARD, ada, BELL);
        world.send(GUARD, cy, BELL);
        assertThat(world).hasCountIn(GUARD, ANSWER, 3).hasCountIn(GUARD, PATROL, 0);
        world.advance(2);
        world.send(GUARD, ada, RESUME);
        world.send(GUARD, bo, RESUME);
        world.send(GUARD, cy, RESTART);
        world.advance(1);
        // ada's watch had 1 s left: resting now; bo rests 7 s more; cy watches 3 s more
        assertThat(world).hasCountIn(GUARD, REST, 2).hasCountIn(GUARD, WATCH, 1);
        assertThat(world, bo).machine(GUARD).hasSecondsLeft(7);
        assertThat(world, cy).machine(GUARD).hasSecondsLeft(3);
    }
}

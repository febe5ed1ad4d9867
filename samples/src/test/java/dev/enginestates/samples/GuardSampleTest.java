package dev.enginestates.samples;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.testing.WorldFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.enginestates.samples.GuardSample.GUARD;
import static dev.enginestates.testing.StateAssertions.assertThat;

/** The guard with a deep history state and the bell (the 003 document's "Waiting"). */
class GuardSampleTest {
    @RegisterExtension
    static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);

    @Test
    void threeSecondsIntoHisWatchHeHearsTheBellAndResumeBringsHimBackWithOneSecondLeft() {
        // 003: "A guard three seconds into his watch hears the bell. RESUME brings him back to
        // the watch with one second left"
        Entity ada = world.spawn(EntityKey.of("ada"));
        world.startIn(ada, GUARD, "patrol.watch").waited(3);
        world.script()
                .send(GUARD, ada, "BELL").taken()
                .check(() -> assertThat(world, ada).machine(GUARD).isIn("answer").hasTag("answer").doesNotHaveTag("patrol")
                        .hasPaused("patrol.watch", 3).remembers("patrol.resumed", "patrol.watch"))
                .advance(2)
                .send(GUARD, ada, "RESUME").taken()
                .run();
        assertThat(world, ada).machine(GUARD).isIn("patrol.watch").hasSecondsLeft(1.0).hasContext("one bell", g -> g.bells == 1);
        world.advance(1);
        assertThat(world, ada).machine(GUARD).isIn("patrol.rest").hasSecondsLeft(10);
    }

    @Test
    void restartStartsThePatrolOverWithAFreshWatch() {
        // 003: "RESTART starts the patrol over."
        Entity cy = world.spawnIn(GUARD, "answer").remembering("patrol.resumed", "patrol.rest").paused("patrol.rest", 7).entity();
        world.send(GUARD, cy, "RESTART");
        assertThat(world, cy).machine(GUARD).isIn("patrol.watch").hasSecondsLeft(4);
    }

    @Test
    void aBellDuringHisRestResumesTheRestWhereItWas() {
        // 003: "a history state that brings the state back resumes the wait from there"
        Entity bo = world.spawnIn(GUARD, "patrol.rest").entity();
        world.advance(2);
        world.send(GUARD, bo, "BELL");
        world.advance(3);
        world.send(GUARD, bo, "RESUME");
        assertThat(world, bo).machine(GUARD).isIn("patrol.rest").hasSecondsLeft(8).hasWaited(2);
    }

    @Test
    void theSamplesGuardsAreCountedByTheirTags() {
        Entity ada = world.spawn(EntityKey.of("ada"), GUARD.trait());
        Entity bo = world.spawn(EntityKey.of("bo"), GUARD.trait().setState("patrol.rest"));
        Entity cy = world.spawn(EntityKey.of("cy"), GUARD.trait());
        assertThat(world).hasCountIn(GUARD, "patrol.watch", 2).hasCountIn(GUARD, "patrol.rest", 1);
        world.advance(2);
        world.send(GUARD, bo, "BELL");
        world.advance(1);
        world.send(GUARD, ada, "BELL");
        world.send(GUARD, cy, "BELL");
        assertThat(world).hasCountIn(GUARD, "answer", 3).hasCountIn(GUARD, "patrol", 0);
        world.advance(2);
        world.send(GUARD, ada, "RESUME");
        world.send(GUARD, bo, "RESUME");
        world.send(GUARD, cy, "RESTART");
        world.advance(1);
        // ada's watch had 1 s left: resting now; bo rests 7 s more; cy watches 3 s more
        assertThat(world).hasCountIn(GUARD, "patrol.rest", 2).hasCountIn(GUARD, "patrol.watch", 1);
        assertThat(world, bo).machine(GUARD).hasSecondsLeft(7);
        assertThat(world, cy).machine(GUARD).hasSecondsLeft(3);
    }
}

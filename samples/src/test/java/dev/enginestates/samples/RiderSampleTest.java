package dev.enginestates.samples;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.samples.RiderSample.TrackMover;
import dev.enginestates.testing.WorldFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.enginestates.samples.RiderSample.RIDER;
import static dev.enginestates.samples.RiderSample.STALL_SECONDS;
import static dev.enginestates.testing.StateAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** A rider stalling: a when rule on the rider's TrackMover, with a wait (the 003 document's "Moving on a trait"). */
class RiderSampleTest {
    @RegisterExtension
    static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);
    static final double DT = 1.0 / 60;

    @Test
    void slowForOneAndAHalfSecondsIsStalled() {
        TrackMover mover = new TrackMover(5, 0);
        Entity rider = world.spawn(EntityKey.of("rider"), mover, RIDER.trait());
        world.advance(1);
        assertThat(world, rider).machine(RIDER).isIn("sliding").isNotWaiting();
        mover.speed = 1;
        world.advanceSteps(1);
        // "A wait that when enters counts that step's seconds"
        assertThat(world, rider).machine(RIDER).isIn("stalling").hasTag("stalling").hasSecondsLeft(STALL_SECONDS - DT);
        world.advance(STALL_SECONDS - 2 * DT);
        assertThat(world, rider).machine(RIDER).isIn("stalling").hasSecondsLeft(DT);
        world.advanceSteps(1);
        assertThat(world, rider).machine(RIDER).isIn("stalled").hasContext("one stall", r -> r.stalls == 1);
    }

    @Test
    void speedBackBeforeTheStallSlidesOnAndTheNextStallCountsFromZero() {
        TrackMover mover = new TrackMover(1, 0);
        Entity rider = world.spawn(mover, RIDER.trait());
        world.advance(1);
        assertThat(world, rider).machine(RIDER).isIn("stalling").hasSecondsLeft(0.5);
        mover.speed = 3;
        world.advanceSteps(1);
        assertThat(world, rider).machine(RIDER).isIn("sliding").doesNotHaveTag("stalling");
        mover.speed = 1;
        world.advanceSteps(1);
        assertThat(world, rider).machine(RIDER).isIn("stalling").hasSecondsLeft(STALL_SECONDS - DT);
    }

    @Test
    void theSamplesHillStallsTamButNotRueAndAPushSetsTamGoing() {
        Entity rue = world.spawn(new TrackMover(5, 2.5), RIDER.trait());
        Entity tam = world.spawn(new TrackMover(5, 3), RIDER.trait());
        for (int step = 0; step < 6 * 60; step++) {
            RiderSample.physics(rue, DT);
            RiderSample.physics(tam, DT);
            world.advanceSteps(1);
        }
        assertThat(world, rue).machine(RIDER).isIn("sliding").hasContext("never stalled", r -> r.stalls == 0);
        assertThat(world, tam).machine(RIDER).isIn("stalled");
        assertEquals(0, tam.get(TrackMover.class).speed);
        tam.get(TrackMover.class).speed = 4;
        world.send(RIDER, tam, "PUSH");
        assertThat(world, tam).machine(RIDER).isIn("sliding");
    }
}

package dev.enginestates.samples.paths;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.States;
import dev.enginestates.samples.Guard;
import dev.enginestates.testing.TransitionCoverage;
import dev.enginestates.testing.WorldFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;

import static dev.enginestates.testing.StateAssertions.assertThat;

/**
 * Two suites that each exercise part of the guard and record into one report across the run:
 * neither alone takes every transition, both together do. Run by {@link GuardCoverageTest}
 * through the launcher (their names do not end in {@code Test}).
 */
final class GuardRunHalves {
    static final States<Guard> GUARD = States.of(Guard.MACHINE);
    static final Path REPORT = Path.of("target", "engine-states-coverage", "guard-run");

    private GuardRunHalves() {
    }

    static TransitionCoverage coverage() {
        return TransitionCoverage.of(GUARD).acrossRun().failBelow(1.0).reportTo(REPORT).quiet();
    }

    /** The bell, the resume and the watch's wait. */
    static class FirstHalfSuite {
        @RegisterExtension
        static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);
        @RegisterExtension
        static TransitionCoverage coverage = coverage();

        @Test
        void theWatchEndsInRestAndTheBellIsAnswered() {
            Entity guard = world.spawn(GUARD.trait());
            world.advance(4);
            world.send(GUARD, guard, "BELL");
            world.send(GUARD, guard, "RESUME");
            assertThat(world, guard).machine(GUARD).isIn("PATROL.REST");
        }
    }

    /** The restart and the rest's wait. */
    static class SecondHalfSuite {
        @RegisterExtension
        static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);
        @RegisterExtension
        static TransitionCoverage coverage = coverage();

        @Test
        void theRestEndsInWatchAndTheRestartStartsThePatrolOver() {
            Entity guard = world.spawnIn(GUARD, "PATROL.REST").entity();
            world.advance(10);
            world.send(GUARD, guard, "BELL");
            world.send(GUARD, guard, "RESTART");
            assertThat(world, guard).machine(GUARD).isIn("PATROL.WATCH");
        }
    }
}

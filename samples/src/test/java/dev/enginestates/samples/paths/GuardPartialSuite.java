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
 * A deliberately partial suite of the guard: it rings the bell during the watch and resumes, so
 * the rest, its waits and the restart are never exercised. Not run by itself (its name does not end
 * in {@code Test}); {@link GuardCoverageTest} runs it through the JUnit Platform launcher and reads
 * what its coverage said.
 */
class GuardPartialSuite {
    static final States<Guard> GUARD = States.of(Guard.MACHINE);
    static final Path REPORT = Path.of("target", "engine-states-coverage", "guard-partial");

    @RegisterExtension
    static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);

    @RegisterExtension
    static TransitionCoverage coverage = TransitionCoverage.of(GUARD).failBelow(1.0).reportTo(REPORT).quiet();

    @Test
    void theBellInterruptsTheWatchAndResumeFinishesIt() {
        Entity guard = world.spawn(GUARD.trait());
        world.advance(1);
        world.send(GUARD, guard, "BELL");
        world.send(GUARD, guard, "RESUME");
        assertThat(world, guard).machine(GUARD).isIn("PATROL.WATCH").hasSecondsLeft(3);
    }
}

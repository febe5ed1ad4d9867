package dev.enginestates.testing;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.opentest4j.AssertionFailedError;

import static dev.enginestates.testing.StateAssertions.assertThat;
import static dev.enginestates.testing.TypedKitTest.GuardEvent.BELL;
import static dev.enginestates.testing.TypedKitTest.GuardEvent.RESTART;
import static dev.enginestates.testing.TypedKitTest.GuardEvent.RESUME;
import static dev.enginestates.testing.TypedKitTest.GuardState.ANSWER;
import static dev.enginestates.testing.TypedKitTest.GuardState.PATROL;
import static dev.enginestates.testing.TypedKitTest.GuardState.REST;
import static dev.enginestates.testing.TypedKitTest.GuardState.RESUMED;
import static dev.enginestates.testing.TypedKitTest.GuardState.WATCH;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 12, typed names in the kit: spawnIn, startIn, sends, scripts and assertions take the machine's own constants. */
class TypedKitTest {
    enum GuardState { PATROL, WATCH, REST, RESUMED, ANSWER }

    enum GuardEvent { BELL, RESUME, RESTART }

    enum Other { WATCH }

    static final class Guard {
        int bells;
    }

    static final States<Guard> GUARD = States.define("typed-guard", Guard::new, GuardState.class, GuardEvent.class, m -> m
            .initial(PATROL)
            .state(PATROL, p -> p
                    .initial(WATCH)
                    .state(WATCH, s -> s.waitFor(4, REST))
                    .state(REST, s -> s.waitFor(10, WATCH))
                    .history(RESUMED, HistoryDepth.DEEP)
                    .on(BELL, ANSWER))
            .state(ANSWER, s -> s
                    .entry((g, e) -> g.bells++)
                    .on(RESUME, RESUMED)
                    .on(RESTART, PATROL)));

    @RegisterExtension
    static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);

    @Test
    void typedSpawnInSendAndIsIn_theBellInterruptsTheWatchAndResumeFinishesIt() {
        Entity guard = world.spawnIn(GUARD, WATCH).waited(3.0).entity();
        world.send(GUARD, guard, BELL);
        assertThat(world, guard).machine(GUARD).isIn(ANSWER).hasTag(ANSWER).doesNotHaveTag(PATROL)
                .hasPaused(WATCH, 3).remembers(RESUMED, WATCH);
        world.send(GUARD, guard, RESUME);
        assertThat(world, guard).machine(GUARD).isIn(PATROL, WATCH).isNotIn(REST, ANSWER).isWaitingIn(WATCH).hasSecondsLeft(1.0);
        world.advance(1.0);
        assertThat(world, guard).machine(GUARD).isIn(REST).hasTimeIn(REST, 0);
        assertThat(world).hasCountIn(GUARD, REST, 1).hasCountIn(GUARD, WATCH, 0);
    }

    @Test
    void typedStartInAndRemembering_restartStartsThePatrolOver() {
        Entity cy = world.spawn(EntityKey.of("cy"));
        world.startIn(cy, GUARD, ANSWER).remembering(RESUMED, REST).paused(REST, 7);
        world.script()
                .send(GUARD, cy, RESTART).taken()
                .check(() -> assertThat(world, cy).machine(GUARD).isIn(WATCH).hasSecondsLeft(4))
                .send(GUARD, cy, RESUME).refused()
                .run();
        assertEquals(0, GUARD.read(cy).context().bells, "startIn runs no entry action");
    }

    @Test
    void aConstantOfAnotherEnumIsAClearErrorInTheKit() {
        MachineException e = assertThrows(MachineException.class, () -> world.spawnIn(GUARD, Other.WATCH));
        assertEquals("machine 'typed-guard' names its states by GuardState, so path(Other.WATCH) names none of them; expected a"
                + " GuardState constant; did you mean GuardState.WATCH?", e.getMessage());
        Entity g = world.spawnIn(GUARD, REST).entity();
        assertThrows(MachineException.class, () -> assertThat(world, g).machine(GUARD).isIn(Other.WATCH));
        assertThrows(MachineException.class, () -> world.send(GUARD, g, WATCH));
        AssertionFailedError wrong = assertThrows(AssertionFailedError.class, () -> assertThat(world, g).machine(GUARD).isIn(WATCH));
        assertTrue(wrong.getMessage().contains("expected to be in 'PATROL.WATCH', but it is not in 'PATROL.WATCH'"), wrong.getMessage());
    }

    @Test
    void anUnknownPathInAnAssertionIsAnErrorWithASuggestion_notAFailedExpectation() {
        Entity g = world.spawnIn(GUARD, REST).entity();
        MachineException e = assertThrows(MachineException.class, () -> assertThat(world, g).machine(GUARD).isNotIn("PATROL.WACH"));
        assertTrue(e.getMessage().endsWith("did you mean 'PATROL.WATCH'?"), e.getMessage());
    }
}

package dev.enginestates.testing;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.MachineException;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.fsm.StateMachine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;
import org.opentest4j.AssertionFailedError;

import static dev.enginestates.testing.StateAssertions.assertThat;
import static dev.enginestates.testing.TestMachines.GUARD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A check that cannot fail is a defect: each assertion here passed before on input that could
 * never be true (a state that is not active, a history state, negative seconds, an infinite
 * tolerance, a record the entity no longer holds, a builder machine never started). Bad input is
 * refused with a message naming the machine; a wrong reading fails naming what it found.
 */
class ChecksThatCannotFailTest {
    @RegisterExtension
    static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);

    private static void refused(String expected, Executable call) {
        Throwable e = assertThrows(Throwable.class, call);
        assertTrue(e instanceof IllegalArgumentException || e instanceof MachineException, e.toString());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    @Test
    void hasTimeInFailsOnAStateThatIsNotActive() {
        Entity g = world.spawn(EntityKey.of("guard-1"), GUARD.trait());
        world.advance(1);
        AssertionFailedError e = assertThrows(AssertionFailedError.class, () -> assertThat(world, g).machine(GUARD).hasTimeIn("answer", 0));
        assertTrue(e.getMessage().startsWith("machine 'guard' on guard-1 at t=1.000 s (step 60): expected 0 s in 'answer', but 'answer'"
                + " is not active; it is in {\"patrol\":\"watch\"}"), e.getMessage());
        assertThat(world, g).machine(GUARD).hasTimeIn("patrol.watch", 1).hasTimeIn("watch", 1);
    }

    @Test
    void aHistoryStateIsRefusedWhereACheckOnItCouldNotFail() {
        Entity g = world.spawn(GUARD.trait());
        refused("'patrol.resumed' is a history state", () -> assertThat(world, g).machine(GUARD).isNotIn("patrol.resumed"));
        refused("'patrol.resumed' is a history state", () -> assertThat(world, g).machine(GUARD).hasNoPaused("patrol.resumed"));
        assertThrows(AssertionFailedError.class, () -> assertThat(world, g).machine(GUARD).hasTimeIn("patrol.resumed", 0));
    }

    @Test
    void negativeOrNaNSecondsAndBadTolerancesAreRefused() {
        Entity g = world.spawn(GUARD.trait());
        world.advance(1);
        MachineAssert<TestMachines.GuardCtx> m = assertThat(world, g).machine(GUARD);
        refused("machine 'guard': hasWaited needs a finite number of seconds, 0 or more; got -1.0", () -> m.hasWaited(-1, 5));
        refused("hasSecondsLeft needs a finite number of seconds, 0 or more; got -3.0", () -> m.hasSecondsLeft(-3, 10));
        refused("hasTimeIn needs a finite number of seconds, 0 or more; got NaN", () -> m.hasTimeIn("patrol", Double.NaN));
        refused("hasPaused needs a finite number of seconds, 0 or more; got -Infinity",
                () -> m.hasPaused("patrol.rest", Double.NEGATIVE_INFINITY));
        refused("machine 'guard': hasWaited needs a finite tolerance, 0 or more; got Infinity",
                () -> m.hasWaited(7, Double.POSITIVE_INFINITY));
        refused("hasWaited needs a finite tolerance, 0 or more; got NaN", () -> m.hasWaited(1, Double.NaN));
        refused("hasSecondsLeft needs a finite tolerance, 0 or more; got -1.0", () -> m.hasSecondsLeft(3, -1));
        m.hasWaited(1).hasSecondsLeft(3).hasWaited(1.001, 0.01);
    }

    @Test
    void anAssertionKeptAcrossADespawnFailsInsteadOfReadingTheDeadRecord() {
        Entity g = world.spawn(EntityKey.of("guard-2"), GUARD.trait());
        MachineAssert<TestMachines.GuardCtx> kept = assertThat(world, g).machine(GUARD).isIn("patrol");
        world.world().despawn(g);
        AssertionError e = assertThrows(AssertionError.class, () -> kept.isIn("patrol"));
        assertTrue(e.getMessage().contains("machine 'guard' on ") && e.getMessage().contains("no longer the entity's in this world"
                + " (the entity was despawned)"), e.getMessage());
    }

    @Test
    void anAssertionKeptAcrossADetachFails() {
        Entity g = world.spawn(EntityKey.of("guard-3"), GUARD.trait());
        MachineAssert<TestMachines.GuardCtx> kept = assertThat(world, g).machine(GUARD);
        world.world().detach(g, GUARD);
        AssertionError e = assertThrows(AssertionError.class, () -> kept.isIn("patrol"));
        assertTrue(e.getMessage().contains("(the machine was detached)"), e.getMessage());
    }

    @Test
    void aBuilderMachineNeverStartedFailsEveryAssertion() {
        StateMachine<BuilderKitTest.Fighter> fsm = new StateMachine<>(BuilderKitTest.FIGHTER);
        Executable[] calls = {
            () -> assertThat(fsm).hasPrevious(""),
            () -> assertThat(fsm).hasTimeInState(0),
            () -> assertThat(fsm).hasProgress(0),
            () -> assertThat(fsm).isNotInWindow("damage"),
            () -> assertThat(fsm).hasStateTag(""),
            () -> assertThat(fsm).hasContext("anything", c -> true),
            () -> assertThat(fsm).contextSatisfies(c -> { }),
        };
        for (Executable call : calls) {
            AssertionError e = assertThrows(AssertionError.class, call);
            assertTrue(e.getMessage().startsWith("machine 'kit-fighter' (StateMachine): ") && e.getMessage().contains(
                    "needs a started machine, but it is in no state (not started); call initialize(ctx) first"), e.getMessage());
        }
        fsm.initialize(new BuilderKitTest.Fighter());
        assertThat(fsm).hasPrevious("").hasTimeInState(0).hasProgress(0).isNotInWindow("damage").hasStateTag("");
    }

    @Test
    void builderSecondsProgressAndTolerancesOutOfRangeAreRefused() {
        StateMachine<BuilderKitTest.Fighter> fsm = BuilderStart.startIn(BuilderKitTest.FIGHTER, new BuilderKitTest.Fighter(), "Attack", 0.2f);
        refused("machine 'kit-fighter': hasTimeInState needs a finite number of seconds, 0 or more; got -1.0",
                () -> assertThat(fsm).hasTimeInState(-1, 5));
        refused("hasProgress needs a finite progress, 0 or more; got -0.5", () -> assertThat(fsm).hasProgress(-0.5, 1));
        refused("hasProgress needs a finite tolerance, 0 or more; got Infinity",
                () -> assertThat(fsm).hasProgress(0.3, Double.POSITIVE_INFINITY));
    }

    @Test
    void aFixedStepLongerThanTheWorldsLongestStepIsRefusedAtOnce() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WorldFixture.fixedStep(1e300));
        assertEquals("a fixed step of 1.0E300 s is longer than the world's longest step, 1.0E12 s (StateWorld.MAX_STEP_SECONDS);"
                + " expected at most that", e.getMessage());
    }
}

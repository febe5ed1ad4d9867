package dev.enginestates.samples;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.AIStateMachine;
import dev.enginestates.fsm.StateMachine;
import dev.enginestates.samples.BuilderBrainSample.Bot;
import dev.enginestates.samples.BuilderBrainSample.Pitch;
import dev.enginestates.samples.BuilderComboSample.Fighter;
import dev.enginestates.samples.BuilderDoorSample.DoorStateContext;
import dev.enginestates.samples.BuilderMatchSample.Match;
import dev.enginestates.testing.BuilderStart;
import dev.enginestates.testing.WorldFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static dev.enginestates.testing.StateAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The builder-style samples tested with the kit: each machine started some seconds into a state
 * (on its own with {@link BuilderStart}, on an entity with {@code spawnIn(...).timeInState(...)}),
 * then asserted on by state, previous state, time in state, progress and windows.
 */
class BuilderSamplesWithTheKitTest {
    @RegisterExtension
    static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);

    static final States<DoorStateContext> DOORS = BuilderDoorSample.DOORS;
    static final States<Fighter> FIGHTERS = States.of(BuilderComboSample.COMBO);
    static final States<Match> MATCH = BuilderMatchSample.MATCH;

    @Test
    void aDoorHalfWayOpenOpensOnItsFloatClockAndTheHallCountsItByTag() {
        Entity north = world.spawnIn(DOORS, "Opening").timeInState(0.5).entity();
        world.spawn(EntityKey.of("east"), DOORS.trait());
        assertThat(world, north).machine(DOORS).hasState("Opening").hasTimeInState(0.5).hasProgress(2 / 3.0).hasTag("Opening");
        assertThat(world).hasCountIn(DOORS, "Opening", 1).hasCountIn(DOORS, "Closed", 1);
        world.advance(0.25);   // 15 ticks: 0.5f plus fifteen 1/60f fall a hair short of 0.75f
        assertThat(world, north).machine(DOORS).hasState("Opening").hasProgress(1.0, 1e-6);
        assertTrue(DOORS.read(north).progress() < 1f, "what the handler compared, exactly: not yet 1");
        world.advanceSteps(1);
        assertThat(world, north).machine(DOORS).hasState("Open").hasPrevious("Opening").hasTimeInState(0).hasProgress(0)
                .hasTag("Open").doesNotHaveTag("Opening");
        assertThat(world).hasCountIn(DOORS, "Open", 1);
    }

    @Test
    void aFighterInTheJabsInputWindowChainsIntoTheCross() {
        Fighter f = new Fighter();
        Entity e = world.spawnIn(FIGHTERS, f, "Jab").timeInState(0.25).entity();
        assertEquals(List.of(), f.events, "no hook ran: no stamina spent");
        assertThat(world, e).machine(FIGHTERS).hasState("Jab").hasStateTag("light").hasProgress(0.625).isInWindow("input")
                .isNotInWindow("damage");
        f.attackPressed = true;
        world.advanceSteps(1);
        f.attackPressed = false;
        assertEquals(List.of("press buffered for Cross"), f.events);
        world.advanceSteps(8);   // 0.25 s and nine ticks of 1/60 s: 0.4 s, progress 1
        assertThat(world, e).machine(FIGHTERS).hasState("Cross").hasPrevious("Jab").hasTimeInState(0).isNotInWindow("input")
                .hasContext("the cross's stamina spent", x -> x.stamina == 92).hasTag("Cross");
    }

    @Test
    void theHooksDelayHoldsItsDamageCallbackBackOnAPlainMachine() {
        Fighter f = new Fighter();
        StateMachine<Fighter> fsm = BuilderStart.startIn(BuilderComboSample.COMBO, f, "Hook", 0.25f);
        assertThat(fsm).hasState("Hook").hasStateTag("heavy").isNotInWindow("damage").hasPrevious("");
        fsm.update(f, 0.05f);   // 0.3 s: past the window's start (0.28 s), past the wind-up (0.1 s)
        assertThat(fsm).isInWindow("damage").hasContext("the hook landed", x -> x.dummyHp == 75);

        Fighter g = new Fighter();
        StateMachine<Fighter> early = BuilderStart.startIn(BuilderComboSample.COMBO, g, "Hook", 0f);
        early.update(g, 0.05f);   // winding up: neither handler nor callback
        assertThat(early).hasTimeInState(0.05).isNotInWindow("damage").hasContext("no hit yet", x -> x.dummyHp == 100);
    }

    @Test
    void aDefenderStartedJustBeforeTheCommitWindowCommitsOnTheNextTick() {
        Bot bo = new Bot("bo", false, new Pitch());
        AIStateMachine<Bot> brain = BuilderStart.startIn(new AIStateMachine<>(BuilderBrainSample.BRAIN), bo, "defend", 0.09f);
        assertThat(brain).hasState("defend").isNotInWindow("commit").hasProgress(0.18);
        brain.update(bo, BuilderBrainSample.DT);
        assertThat(brain).isInWindow("commit").hasTimeInState(0.09 + 1.0 / 60, 1e-6);
        assertEquals(1, bo.did.size(), bo.did.toString());
        brain.transitionTo(bo, "defend");
        assertThat(brain).hasState("defend").hasPrevious("defend").hasTimeInState(0).isNotInWindow("commit");
        assertEquals("defend", bo.role);
    }

    @Test
    void theMatchStartedLateInItsGoalCelebrationCountsDownWithSplitTicks() {
        world.startIn(MATCH, "Goal").timeInState(1.45);
        assertThat(world).machine(MATCH).hasState("Goal").hasTimeInState(1.45).hasPrevious("");
        var phase = MATCH.read(world.world());
        world.splitSteps(3, () -> BuilderMatchSample.work(phase));
        assertThat(world).machine(MATCH).hasState("Countdown").hasPrevious("Goal").hasTimeInState(0).hasTag("Countdown");
        List<String> boards = new java.util.ArrayList<>();
        world.splitSteps(61, () -> boards.add(BuilderMatchSample.work(phase)));
        assertEquals("3", boards.get(0));
        assertEquals("3", boards.get(59), "sixty 1/60f make 0.99999934f: not yet a second");
        assertEquals("2", boards.get(60), "the work reads the clock advanced this tick");
        assertThat(world).machine(MATCH).hasState("Countdown").hasTimeInState(61 / 60.0, 1e-5);
    }
}

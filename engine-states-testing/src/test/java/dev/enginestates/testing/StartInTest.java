package dev.enginestates.testing;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.MachineException;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;

import static dev.enginestates.testing.StateAssertions.assertThat;
import static dev.enginestates.testing.TestMachines.GUARD;
import static dev.enginestates.testing.TestMachines.HOUSE;
import static dev.enginestates.testing.TestMachines.SIEGE;
import static dev.enginestates.testing.TestMachines.Transform;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code startIn} arranges any configuration without walking there by events: the state, the
 * seconds already waited, what a history state remembers and the seconds it kept.
 */
class StartInTest {
    @RegisterExtension
    static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);

    @Test
    void aGuardThreeSecondsIntoHisWatchRestsOneSecondLater() {
        // 003: "A guard three seconds into his watch hears the bell."
        Entity g = world.spawn(EntityKey.of("guard-1"), new Transform());
        StateRecord<TestMachines.GuardCtx> r = world.startIn(g, GUARD, "patrol.watch").waited(3).record();
        assertEquals(0, world.steps(), "arranged without a step");
        assertEquals(1.0, r.secondsLeft(), 1e-9);
        world.advance(1.0 - 1.0 / 60);
        assertTrue(r.matches("patrol.watch"));
        world.advanceSteps(1);
        assertTrue(r.matches("patrol.rest"), r.toString());
    }

    @Test
    void startInMovesTheTagsAtOnceSoAQueryFindsTheStateBeforeAnyStep() {
        Entity a = world.spawn(GUARD.trait());
        Entity b = world.spawn(GUARD.trait());
        world.startIn(b, GUARD, "answer");
        assertEquals(List.of(b), world.world().query(GUARD.is("answer")).list());
        assertTrue(a.has(GUARD.is("patrol.watch")));
        assertFalse(b.has(GUARD.is("patrol")));
        assertEquals(0, world.steps());
        assertEquals(0, GUARD.read(b).context().bells, "no entry action ran");
    }

    @Test
    void historyAndPausedSecondsBringTheGuardBackToHisRestWithEightSecondsLeft() {
        // 003: "a history state that brings the state back resumes the wait from there."
        Entity g = world.spawn(EntityKey.of("guard-2"));
        world.startIn(g, GUARD, "answer")
                .remembering("patrol.resumed", "patrol.rest")
                .paused("patrol.rest", 2);
        assertTrue(GUARD.send(g, "RESUME"));
        assertThat(world, g).machine(GUARD).isIn("patrol.rest").hasSecondsLeft(8).hasTag("patrol.rest");
        world.advance(8);
        assertThat(world, g).machine(GUARD).isIn("patrol.watch").hasSecondsLeft(4);
    }

    @Test
    void withNothingRememberedResumeEntersTheInitialWatchFromZero() {
        Entity g = world.spawnIn(GUARD, "answer").entity();
        assertTrue(GUARD.send(g, "RESUME"));
        assertThat(world, g).machine(GUARD).isIn("patrol.watch").hasSecondsLeft(4).hasNoPaused("patrol.watch");
    }

    @Test
    void secondsLeftIsTheOtherWayToSayHowFarTheWaitHasGone() {
        Entity g = world.spawnIn(GUARD, "patrol.rest").secondsLeft(0.5).entity();
        assertThat(world, g).machine(GUARD).hasWaited(9.5).hasSecondsLeft(0.5);
        world.advance(0.5);
        assertThat(world, g).machine(GUARD).isIn("patrol.watch");
        MachineException e = assertThrows(MachineException.class, () -> world.startIn(g, GUARD, "patrol.rest").secondsLeft(11));
        assertTrue(e.getMessage().contains("the wait of 'patrol.rest' is 10.0 s, so 11.0 s cannot be left"), e.getMessage());
    }

    @Test
    void theRegionsOfAParallelStateAreNamedOnePathEach() {
        Start<TestMachines.GuardCtx> house = world.spawnIn(HOUSE, "on.light.lit", "on.door.open").waited(0.75);
        Entity h = house.entity();
        assertThat(world, h).machine(HOUSE)
                .hasValue(Map.of("on", Map.of("light", "lit", "door", "open")))
                .hasTag("on.door.open")
                .hasSecondsLeft(0.25);
        world.advance(0.25);
        assertThat(world, h).machine(HOUSE).isIn("on.light.dark", "on.door.open");
    }

    @Test
    void theWorldLevelMachineStartsInAStateWithItsContextSet() {
        // 003: "Pass the trait fields to start it with another context, as in Siege.trait({ wave: 3 })"
        world.startIn(SIEGE, "breather").waited(10).context(s -> s.wave = 3);
        assertThat(world).machine(SIEGE).isIn("breather").hasSecondsLeft(2).hasContext("three waves held", s -> s.wave == 3);
        assertTrue(world.world().entity().has(SIEGE.is("breather")));
        world.advance(2);
        assertThat(world).machine(SIEGE).isIn("fight");
        // the world's machine is set again in place, not added twice
        world.startIn(SIEGE, "waiting");
        assertThat(world).machine(SIEGE).isIn("waiting").hasContext(s -> s.wave == 3);
        assertEquals(1, world.world().records(SIEGE).size());
    }

    @Test
    void aStateThatDoesNotExistIsRefusedAndChangesNothing() {
        Entity g = world.spawn(GUARD.trait());
        world.advance(1);
        MachineException e = assertThrows(MachineException.class, () -> world.startIn(g, GUARD, "patrol.wtach"));
        assertTrue(e.getMessage().startsWith("machine 'guard' has no state 'patrol.wtach'; expected one of patrol, patrol.watch"),
                e.getMessage());
        assertThat(world, g).machine(GUARD).isIn("patrol.watch").hasWaited(1);
        assertThrows(MachineException.class, () -> world.startIn(g, GUARD, "answer").waited(1), "answer has no wait");
        assertThrows(MachineException.class, () -> world.startIn(g, GUARD, "answer").remembering("patrol", "patrol.watch"),
                "patrol is not a history state");
    }

    /** A polled table whose enter hooks count, to show that a fixture's start runs none of them. */
    static final dev.enginestates.ecs.States<int[]> COUNTED = dev.enginestates.ecs.States.of(dev.enginestates.StatesDef.define("start-in-counted", () -> new int[1], d -> d
            .initial("idle")
            .state("idle", st -> st.enter((c, from) -> c[0]++))
            .state("busy", st -> st.enter((c, from) -> c[0]++))));

    @Test
    void aPolledMachineIsPutInItsStatesWithNoCodeRunAsEveryStyleIs() {
        int[] entered = {0};
        StateRecord<int[]> r = world.spawnIn(COUNTED, entered, "busy").record();
        assertEquals("busy", r.state());
        assertEquals(0, entered[0], "no enter hook ran: neither the initial state's nor the arranged one's");
    }
}

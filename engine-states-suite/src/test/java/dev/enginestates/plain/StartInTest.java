package dev.enginestates.plain;

import dev.enginestates.Fixtures;
import dev.enginestates.Machine;
import dev.enginestates.StatesDef;
import dev.enginestates.declare.MachineException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code StateMachine.startIn(Machine, ctx, states...)} puts a machine where a test wants it, and
 * refuses what the ECS face's {@code setState} refuses: no state, states that cannot be active
 * together, several branches of a polled machine.
 */
class StartInTest {
    static final class Ctx {
        final List<String> calls = new ArrayList<>();
    }

    static final Machine<Ctx> ARMED = Machine.define("armed", Ctx::new, Fixtures.armed());

    static final StatesDef<Ctx> POLLED = StatesDef.<Ctx>define("polled", d -> d
            .state("a", s -> s.enter((c, f) -> c.calls.add("enter a")))
            .state("b", s -> s.enter((c, f) -> c.calls.add("enter b")).state("b1").state("b2")));

    @Test
    void startInPutsAnXStateMachineInStatesOfDifferentRegions() {
        StateMachine<Ctx> m = StateMachine.startIn(ARMED, new Ctx(), "armed.weapon.cooldown", "armed.move.run");
        assertEquals(Map.of("armed", Map.of("weapon", "cooldown", "move", "run")), m.value());
    }

    @Test
    void startInRefusesStatesThatCannotBeActiveTogether() {
        Ctx ctx = new Ctx();
        MachineException e = assertThrows(MachineException.class,
                () -> StateMachine.startIn(ARMED, ctx, "armed.weapon.ready", "armed.weapon.cooldown"));
        assertEquals("armed", e.machineId());
        assertTrue(e.getMessage().contains("machine 'armed'") && e.getMessage().contains("'armed.weapon.ready' and 'armed.weapon.cooldown'")
                && e.getMessage().contains("cannot be active together"), e.getMessage());
        assertThrows(MachineException.class, () -> StateMachine.startIn(ARMED, ctx, "armed.move.run", "down"));
    }

    @Test
    void startInRefusesNoStates() {
        MachineException e = assertThrows(MachineException.class, () -> StateMachine.startIn(ARMED, new Ctx()));
        assertEquals("armed", e.machineId());
        assertTrue(e.getMessage().contains("machine 'armed'") && e.getMessage().contains("at least one state")
                && e.getMessage().contains("armed.weapon.ready"), e.getMessage());
    }

    @Test
    void startInPutsAPolledMachineInOneStateWithNoCodeRun() {
        Ctx ctx = new Ctx();
        StateMachine<Ctx> m = StateMachine.startIn(POLLED.machine(), ctx, "b.b2");
        assertEquals("b.b2", m.state());
        assertEquals(List.of(), ctx.calls, "no enter ran");
        m.go("a");
        assertEquals(List.of("enter a"), ctx.calls, "the machine runs on from there");
    }

    @Test
    void startInRefusesSeveralStatesOfAPolledMachine() {
        MachineException e = assertThrows(MachineException.class, () -> StateMachine.startIn(POLLED.machine(), new Ctx(), "a", "b"));
        assertEquals("polled", e.machineId());
        assertTrue(e.getMessage().contains("machine 'polled' is polled") && e.getMessage().contains("one"), e.getMessage());
        assertThrows(MachineException.class, () -> StateMachine.startIn(POLLED.machine(), new Ctx()));
    }
}

package dev.enginestates.samples;

import dev.enginestates.plain.StateMachine;
import dev.enginestates.samples.PolledDoorSample.Door;
import org.junit.jupiter.api.Test;

import static dev.enginestates.samples.PolledDoorSample.DOOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The polled door: use, a swing moved by update, after to close by itself, $back after a blocked doorway. */
class PolledDoorSampleTest {
    static final double DT = 1.0 / 60;

    private static void steps(StateMachine<Door> door, int n) {
        for (int i = 0; i < n; i++) {
            door.step(DT);
        }
    }

    @Test
    void aLockedDoorHandlesUseAndStaysShut() {
        Door d = new Door();
        d.locked = true;
        StateMachine<Door> door = new StateMachine<>(DOOR, d);
        assertTrue(door.send("use"), "closed's handler took it and returned no name");
        assertEquals("closed", door.state());
        d.locked = false;
        assertTrue(door.send("use"));
        assertEquals("opening", door.state());
    }

    @Test
    void aSwingTakes45UpdatesAndAnOpenDoorClosesByItselfAfterThreeSeconds() {
        StateMachine<Door> door = new StateMachine<>(DOOR, new Door());
        door.send("use");
        steps(door, 30);
        assertEquals("opening", door.state());
        assertEquals(30.0 / 45, door.ctx().openness, 1e-9);
        steps(door, 15);
        assertEquals("open", door.state());
        assertEquals(1, door.ctx().openness);
        steps(door, 179);
        assertEquals("open", door.state());
        steps(door, 1);
        assertEquals("closing", door.state(), "after " + PolledDoorSample.HOLD_OPEN_SECONDS + " s");
        // a state that after (or a guard) entered updates in the same step: the swing began in it
        assertEquals(44.0 / 45, door.ctx().openness, 1e-9);
        steps(door, 43);
        assertEquals("closing", door.state());
        steps(door, 1);
        assertEquals("closed", door.state());
        assertEquals(0, door.ctx().openness);
    }

    @Test
    void useWhileClosingTurnsBackFromWhereItIs() {
        Door d = new Door();
        d.openness = 0.2;
        StateMachine<Door> door = StateMachine.startIn(DOOR, d, "closing");
        assertTrue(door.send("use"));
        assertEquals("opening", door.state());
        assertEquals(0.2, d.openness, "no jump");
        steps(door, 35);
        assertEquals("opening", door.state());
        steps(door, 1);
        assertEquals("open", door.state(), "0.8 of a swing: 36 steps, not 45");
    }

    @Test
    void aBlockedDoorwayStopsTheSwingAndBackResumesIt() {
        Door d = new Door();
        d.openness = 0.5;
        StateMachine<Door> closing = StateMachine.startIn(DOOR, d, "closing");
        d.blocked = true;
        steps(closing, 30);
        assertEquals("stopped", closing.state());
        assertEquals(0.5, d.openness, "the door does not close on anyone");
        assertFalse(closing.send("use"), "stopped does not name use");
        d.blocked = false;
        steps(closing, 1);
        assertEquals("closing", closing.state(), "$back: the swing it interrupted");
        assertEquals(0.5, d.openness);

        Door e = new Door();
        e.openness = 0.5;
        StateMachine<Door> opening = StateMachine.startIn(DOOR, e, "opening");
        e.blocked = true;
        steps(opening, 1);
        e.blocked = false;
        steps(opening, 1);
        assertEquals("opening", opening.state());
        assertEquals("stopped", opening.previous());
    }

    @Test
    void aDoorDueToCloseOnSomeoneStopsInTheSameStep() {
        Door d = new Door();
        d.openness = 1;
        d.blocked = true;
        StateMachine<Door> door = StateMachine.startIn(DOOR, d, "open").withTime("open", PolledDoorSample.HOLD_OPEN_SECONDS);
        door.step(DT);
        assertEquals("stopped", door.state(), "open, closing, stopped: a chain in one step");
        assertEquals(1, d.openness);
    }
}

package dev.enginestates.devtools;

import dev.enginestates.ecs.StateRecord;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Setting a state by hand from the page, without a browser or a server: the request as the
 * world's thread applies it. The {@code 003} document: "To put a machine in a state by hand,
 * set its record's state ...; its tags move at the start of the next step, before any system
 * reads them, and a tool that names a tag rather than the state is refused." Every refusal
 * names the entity, the machine and what was expected, and changes nothing.
 */
class DevtoolsHandSetTest {
    private static HandSet.Outcome set(Room room, boolean writable, String entity, String machine, String... states) {
        return new HandSet(entity, machine, List.of(states)).apply(room.world, new EntityNames(), writable);
    }

    private static void assertUnchanged(Room room) {
        assertEquals("patrol.watch", Room.GUARD.read(room.guard1).state());
        assertTrue(room.world.query(Room.GUARD.is("patrol.watch")).list().contains(room.guard1));
    }

    @Test
    void aHandSetStateMovesTheRecordAtOnceAndItsTagsAtTheStartOfTheNextStep() {
        try (Room room = new Room()) {
            HandSet.Outcome o = set(room, true, "guard-1", "guard", "answer");
            assertTrue(o.ok(), () -> o.error);
            assertEquals(200, o.status);
            StateRecord<Room.Patrol> r = Room.GUARD.read(room.guard1);
            assertEquals("answer", r.state(), "the record moves at once");
            assertEquals(0, r.context().bells, "no action ran: BELL's action was not taken");
            assertFalse(room.world.query(Room.GUARD.is("answer")).list().contains(room.guard1), "the tags wait for the next step");
            room.world.step(Room.DT);
            assertTrue(room.world.query(Room.GUARD.is("answer")).list().contains(room.guard1), "and move at its start");
            assertFalse(room.world.query(Room.GUARD.is("patrol")).list().contains(room.guard1));
        }
    }

    @Test
    void aRequestThatNamesATagRatherThanTheStateIsRefused() {
        try (Room room = new Room()) {
            HandSet.Outcome o = set(room, true, "guard-1", "guard", "guard.patrol.rest");
            assertFalse(o.ok());
            assertEquals(422, o.status);
            assertEquals("machine 'guard' on 'guard-1': 'guard.patrol.rest' names the tag of state 'patrol.rest' (a tag is named"
                    + " <machine id>.<state path>), not a state; a tool that names a tag rather than the state is refused. Set the"
                    + " state: 'patrol.rest'. Nothing was changed.", o.error);
            assertUnchanged(room);
        }
    }

    @Test
    void aTagNameAmongParallelRegionsIsRefusedAndNoRegionMoves() {
        try (Room room = new Room()) {
            HandSet.Outcome o = set(room, true, "weapon#1", "weapon", "armed.weapon.cooldown", "weapon.armed.move.run");
            assertEquals(404, o.status, "weapon#1 is not a name the page has given yet: " + o.error);
        }
        try (Room room = new Room()) {
            EntityNames names = new EntityNames();
            new Snapshots(names).build(room.world, 1, true); // the page has seen the room: weapon#1 has its name
            HandSet.Outcome o = new HandSet("weapon#1", "weapon", List.of("armed.weapon.cooldown", "weapon.armed.move.run"))
                    .apply(room.world, names, true);
            assertEquals(422, o.status);
            assertTrue(o.error.contains("'weapon.armed.move.run' names the tag of state 'armed.move.run'"), o.error);
            assertEquals(List.of("armed.weapon.ready", "armed.move.walk"), Room.WEAPON.read(room.weapon).leaves());
            HandSet.Outcome both = new HandSet("weapon#1", "weapon", List.of("armed.weapon.cooldown", "armed.move.run"))
                    .apply(room.world, names, true);
            assertTrue(both.ok(), () -> both.error);
            assertEquals(List.of("armed.weapon.cooldown", "armed.move.run"), Room.WEAPON.read(room.weapon).leaves(),
                    "one path per region of a parallel state");
        }
    }

    @Test
    void aStateNamedTwiceIsRefusedSoNoRequestMakesTheGamesThreadCompareEveryPairOfAHugeList() {
        try (Room room = new Room()) {
            String[] many = new String[10_000]; // fits the 64 kB a request may hold
            java.util.Arrays.fill(many, "answer");
            HandSet.Outcome o = set(room, true, "guard-1", "guard", many);
            assertEquals(422, o.status);
            assertEquals("machine 'guard' on 'guard-1': 'answer' is named twice; name one state per region of a parallel state."
                    + " Nothing was changed.", o.error);
            assertUnchanged(room);
        }
    }

    @Test
    void anUnknownStateIsRefusedWithTheMachinesStates() {
        try (Room room = new Room()) {
            HandSet.Outcome o = set(room, true, "guard-1", "guard", "patrol.wach");
            assertEquals(422, o.status);
            assertTrue(o.error.startsWith("machine 'guard' has no state 'patrol.wach'; expected one of patrol, patrol.watch,"), o.error);
            assertTrue(o.error.contains("did you mean 'patrol.watch'"), o.error);
            assertTrue(o.error.endsWith("(entity 'guard-1'). Nothing was changed."), o.error);
            assertUnchanged(room);
        }
    }

    @Test
    void aHistoryStateIsRefused() {
        try (Room room = new Room()) {
            HandSet.Outcome o = set(room, true, "guard-1", "guard", "patrol.resumed");
            assertEquals(422, o.status);
            assertTrue(o.error.contains("'patrol.resumed' is a history state, which is never active"), o.error);
            assertUnchanged(room);
        }
    }

    @Test
    void writesAreRefusedUnlessThePageWasServedWritable() {
        try (Room room = new Room()) {
            HandSet.Outcome o = set(room, false, "guard-1", "guard", "answer");
            assertEquals(403, o.status);
            assertEquals("this devtools page is read-only, so 'guard' on 'guard-1' was not set; serve it with"
                    + " DevtoolsOptions.onPort(port).writable(true) to set states by hand", o.error);
            assertUnchanged(room);
        }
    }

    @Test
    void anUnknownEntityIsRefused() {
        try (Room room = new Room()) {
            HandSet.Outcome o = set(room, true, "guard-9", "guard", "answer");
            assertEquals(404, o.status);
            assertEquals("no live entity of " + room.world + " is named 'guard-9', so 'guard' on 'guard-9' was not set; expected a name the page"
                    + " lists (an entity's key, or a name such as 'guard#3')", o.error);
            assertUnchanged(room);
        }
    }

    @Test
    void aMachineTheEntityDoesNotHoldIsRefused() {
        try (Room room = new Room()) {
            HandSet.Outcome o = set(room, true, "guard-1", "siege", "fight");
            assertEquals(404, o.status);
            assertEquals("entity 'guard-1' holds no 'siege' machine; it holds [guard]. Nothing was changed.", o.error);
            HandSet.Outcome unknown = set(room, true, "guard-1", "gaurd", "answer");
            assertEquals(404, unknown.status);
            assertEquals("no machine of " + room.world + " has id 'gaurd'; expected one of [siege, guard, weapon, bot]. Nothing was changed.",
                    unknown.error);
            assertUnchanged(room);
        }
    }

    @Test
    void noStateAtAllIsRefused() {
        try (Room room = new Room()) {
            HandSet.Outcome o = set(room, true, "guard-1", "guard");
            assertEquals(400, o.status);
            assertTrue(o.error.startsWith("machine 'guard' on 'guard-1': name at least one state to set"), o.error);
            assertUnchanged(room);
        }
    }

    @Test
    void theWorldsOwnMachineIsSetOnTheEntityNamedWorld() {
        try (Room room = new Room()) {
            HandSet.Outcome o = set(room, true, "world", "siege", "breather");
            assertTrue(o.ok(), () -> o.error);
            assertEquals("siege: breather, 12 s left", Snapshots.fact(Room.SIEGE.read(room.world)), "a wait set by hand starts from zero");
            assertNull(o.error);
        }
    }

    @Test
    void aPolledMachineIsSetToOneState() {
        try (Room room = new Room()) {
            HandSet.Outcome o = set(room, true, "bot-1", "bot", "search");
            assertTrue(o.ok(), () -> o.error);
            assertEquals("search", Room.BOT.read(room.bot).state());
            HandSet.Outcome two = set(room, true, "bot-1", "bot", "idle", "search");
            assertEquals(422, two.status);
            assertTrue(two.error.contains("is polled: one branch is active at a time"), two.error);
        }
    }
}

package dev.enginestates.pekko;

import dev.enginestates.pekko.Lamps.Command;
import dev.enginestates.pekko.Lamps.Flip;
import dev.enginestates.pekko.Lamps.Hold;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static dev.enginestates.pekko.Node.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The library's promises on a one-node cluster over an in-memory H2 journal, with a clock the
 * test moves by hand (one step is 100 ms of it): commands applied once per sequence number,
 * a room behind its clock catching up in bounded steps, and a room started again on a new node
 * equal to a twin that never stopped (snapshot restored, the events after it replayed).
 * {@link RoomsOnPostgresTest} runs the same with the journal and snapshots in PostgreSQL.
 */
class RoomsTest {
    private static final long T0 = 1_000_000_000L;
    private static final String APPLIED = "select count(*) from \"event_journal\" where \"persistence_id\" = ?"
            + " and \"event_ser_manifest\" like '%Applied'";
    private static final String SNAPSHOTS = "select count(*) from \"snapshot\" where \"persistence_id\" = ?";
    private static final String LAST_SNAPSHOT = "select max(\"sequence_number\") from \"snapshot\" where \"persistence_id\" = ?";
    private static final String LAST_EVENT = "select max(\"sequence_number\") from \"event_journal\" where \"persistence_id\" = ?";

    private final AtomicLong clock = new AtomicLong(T0);

    /**
     * The test's own database for the journal and snapshots: H2 in memory here.
     *
     * @return a new database with the plugin's tables
     * @throws SQLException if the database refuses them
     */
    Journal journal() throws SQLException {
        return Journal.h2();
    }

    /** A recovery a listener heard, with the recovered world's dump. */
    record Recovery(String node, long steps, long lastSeq, String dump) {
    }

    /** Hears the rooms of every node in this JVM. */
    static final class Heard implements RoomListener {
        final List<Recovery> recoveries = Collections.synchronizedList(new ArrayList<>());
        final List<Long> written = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void recovered(String roomId, String node, long steps, long lastSeq, long recoveryNanos, Room<?> room) {
            recoveries.add(new Recovery(node, steps, lastSeq, room == null ? null : room.dump()));
        }

        @Override
        public void stepsPersisted(String roomId, String node, long steps) {
            written.add(steps);
        }
    }

    private void stepTo(Rooms<Command> rooms, String room, long step) throws Exception {
        Node.stepTo(rooms, room, clock, T0, step);
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aCommandSentAgainIsAnsweredAsTheFirstTimeAndAppliedOnce() throws Exception {
        RoomKind<Command> kind = Lamps.kind(3, clock::get);
        try (Journal db = journal(); Node node = Node.start(db)) {
            Rooms<Command> rooms = Rooms.start(node.system, kind);
            assertEquals(new Rooms.Ack(0, 0, true), get(rooms.open("r")));
            assertEquals(new Rooms.Ack(0, 0, false), get(rooms.open("r")), "a room opens once");
            stepTo(rooms, "r", 4);

            Rooms.Ack first = get(rooms.send("r", 1, new Flip("lamp-0")));
            assertEquals(new Rooms.Ack(1, 4, true), first);
            assertEquals(first, get(rooms.send("r", 1, new Flip("lamp-0"))), "sent again: answered as the first time");
            assertEquals(new Rooms.Ack(2, 4, false), get(rooms.send("r", 2, new Flip("lamp-9"))), "no lamp-9: refused, changes nothing");
            assertEquals(new Rooms.Ack(1, -1, false), get(rooms.send("r", 1, new Flip("lamp-0"))), "older than the last: not applied");
            assertEquals(2, db.count(APPLIED, "lamps|r"), "the journal has each command once");

            try (Room<Command> twin = Room.open(kind, "r")) {
                twin.step(4);
                assertTrue(twin.apply(new Flip("lamp-0")));
                assertFalse(twin.apply(new Flip("lamp-9")));
                assertEquals(twin.dump(), get(rooms.dump("r")).dump());
            }
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aRoomBehindItsClockCatchesUpAtMostMaxCatchUpStepsAnEventAndStopsAtTheStepsDue() throws Exception {
        Heard heard = new Heard();
        try (Journal db = journal(); Node node = Node.start(db)) {
            Rooms<Command> rooms = Rooms.start(node.system, Lamps.kind(3, clock::get).maxCatchUp(4), heard);
            get(rooms.open("r"));
            stepTo(rooms, "r", 25);

            List<Long> written = List.copyOf(heard.written);
            assertEquals(25L, written.get(written.size() - 1));
            long before = 0;
            for (long steps : written) {
                assertTrue(steps - before >= 1 && steps - before <= 4, "a step event ran " + (steps - before) + " steps: " + written);
                before = steps;
            }
            assertTrue(written.size() >= 7, "25 steps, at most 4 an event: " + written);
            // the clock stands: the room runs no step beyond those due
            assertEquals(new Rooms.Ack(1, 25, true), get(rooms.send("r", 1, new Flip("lamp-1"))));
            assertEquals(25, get(rooms.status("r")).steps());
        }
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aRoomStartedOnANewNodeIsItsSnapshotAndTheEventsAfterItAndEqualsItsTwinThenCatchesUp() throws Exception {
        Heard heard = new Heard();
        RoomKind<Command> kind = Lamps.kind(3, clock::get).snapshotEvery(5).maxCatchUp(4);
        List<Command> sent = List.of(new Flip("lamp-0"), new Hold("lamp-1", true), new Flip("lamp-1"), new Hold("lamp-2", true),
                new Flip("lamp-0"));
        long[] at = {3, 8, 12, 17, 23};
        List<Rooms.Ack> acks = new ArrayList<>();
        long incarnation;
        try (Journal db = journal()) {
            try (Node first = Node.start(db)) {
                Rooms<Command> rooms = Rooms.start(first.system, kind, heard);
                get(rooms.open("r"));
                for (int i = 0; i < sent.size(); i++) {
                    stepTo(rooms, "r", at[i]);
                    acks.add(get(rooms.send("r", i + 1, sent.get(i))));
                }
                stepTo(rooms, "r", 24);
                // snapshots at steps 5, 10, 15 and 20 (the event that crossed 20 ran to 23); the command and step after it are events only
                Node.await("four snapshots written", Duration.ofSeconds(30), () -> {
                    try {
                        return db.count(SNAPSHOTS, "lamps|r") == 4;
                    } catch (Exception e) {
                        return false;
                    }
                });
                incarnation = get(rooms.status("r")).incarnation();
            }
            assertTrue(db.count(LAST_SNAPSHOT, "lamps|r") < db.count(LAST_EVENT, "lamps|r"), "events follow the last snapshot");

            clock.set(T0 + 40 * 100);
            heard.recoveries.clear();
            try (Node second = Node.start(db); Room<Command> twin = Room.open(kind, "r")) {
                Rooms<Command> rooms = Rooms.start(second.system, kind, heard);
                Rooms.Ack last = acks.get(acks.size() - 1);
                assertEquals(last, get(rooms.send("r", sent.size(), sent.get(sent.size() - 1))), "the last command again, on the new node");

                for (int i = 0; i < sent.size(); i++) {
                    twin.step((int) (acks.get(i).step() - twin.steps()));
                    assertEquals(acks.get(i).taken(), twin.apply(sent.get(i)), "command " + (i + 1));
                }
                twin.step((int) (24 - twin.steps()));
                Recovery back = heard.recoveries.stream().filter(r -> r.dump() != null).findFirst().orElseThrow();
                assertEquals(24, back.steps(), "the room came back with every step written");
                assertEquals(sent.size(), back.lastSeq());
                assertEquals(twin.dump(), back.dump(), "the recovered room differs from its twin");
                assertNotEquals(-1, twin.dump().indexOf("lamp-2"));

                stepTo(rooms, "r", 40);
                twin.step(16);
                assertEquals(twin.dump(), get(rooms.dump("r")).dump(), "after catching up the room differs from its twin");
                assertTrue(get(rooms.status("r")).incarnation() > incarnation, "a newer incarnation on the new node");
            }
        }
    }

    @Test
    void aKindThatCannotOpenOrApplyIsRefusedSayingWhatItNeeds() {
        RoomKind<Command> bare = RoomKind.of("lamps", Command.class, Lamps.LAMP);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Room.open(bare, "r"));
        assertEquals("room kind 'lamps' cannot run rooms yet: it needs .opens(world -> ...) to spawn a new room's entities"
                + " and .applies((world, command) -> ...) to apply the game's commands", e.getMessage());
        IllegalArgumentException step = assertThrows(IllegalArgumentException.class, () -> bare.stepSeconds(0));
        assertTrue(step.getMessage().startsWith("room kind 'lamps': stepSeconds must be above 0"), step.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RoomKind.of(" ", Command.class, Lamps.LAMP));
        assertThrows(IllegalArgumentException.class, () -> RoomKind.of("lamps", Command.class));
    }
}

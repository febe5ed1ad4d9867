package dev.enginestates.pekko;

import dev.enginestates.pekko.Lamps.Command;
import dev.enginestates.pekko.Lamps.Flip;
import dev.enginestates.pekko.Lamps.Hold;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static dev.enginestates.pekko.Node.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RoomKind#keepSnapshots}: a room's journal keeps its latest snapshots and the events after the oldest of them,
 * and nothing else; a room recovered from what is kept equals its twin and its incarnation still rises; without the
 * option nothing is deleted. On an in-memory H2 journal with a clock the test moves by hand (one step is 100 ms of it);
 * {@link RoomsRetentionOnPostgresTest} runs the same on PostgreSQL.
 */
class RoomsRetentionTest {
    private static final long T0 = 1_000_000_000L;
    /** The rooms' ask timeout: a first node under a loaded machine may take more than the default 5 s to start its shard. */
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final String ROOM = "lamps|r";
    /** Every row of the room in the journal, those the plugin keeps marked deleted included. */
    private static final String EVENT_ROWS = "select count(*) from \"event_journal\" where \"persistence_id\" = ?";
    private static final String FIRST_EVENT = "select coalesce(min(\"sequence_number\"), 0) from \"event_journal\" where \"persistence_id\" = ?";
    private static final String LAST_EVENT = "select coalesce(max(\"sequence_number\"), 0) from \"event_journal\" where \"persistence_id\" = ?";
    private static final String LIVE_EVENTS = "select count(*) from \"event_journal\" where \"persistence_id\" = ? and \"deleted\" = false";
    private static final String LAST_INCARNATED = "select coalesce(max(\"sequence_number\"), 0) from \"event_journal\""
            + " where \"persistence_id\" = ? and \"event_ser_manifest\" like '%Incarnated'";
    private static final String SNAPSHOTS = "select count(*) from \"snapshot\" where \"persistence_id\" = ?";
    private static final String FIRST_SNAPSHOT = "select coalesce(min(\"sequence_number\"), 0) from \"snapshot\" where \"persistence_id\" = ?";

    private final AtomicLong clock = new AtomicLong(T0);
    /** How many of the sent commands the twin has applied. */
    private int twinApplied;

    /**
     * The test's own database for the journal and snapshots: H2 in memory here.
     *
     * @return a new database with the plugin's tables
     * @throws SQLException if the database refuses them
     */
    Journal journal() throws SQLException {
        return Journal.h2();
    }

    private void stepTo(Rooms<Command> rooms, long step) throws Exception {
        Node.stepTo(rooms, "r", clock, T0, step);
    }

    private static long count(Journal db, String sql) {
        try {
            return db.count(sql, ROOM);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Waits for the journal to hold only the two latest snapshots and what the older covers no more. */
    private static void awaitTrimmed(Journal db, String when) throws InterruptedException {
        Node.await("the journal trimmed to two snapshots " + when, Duration.ofSeconds(30),
                () -> count(db, SNAPSHOTS) == 2 && count(db, FIRST_EVENT) >= count(db, FIRST_SNAPSHOT));
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aRoomKeepingTwoSnapshotsKeepsItsJournalBoundedAndEveryEventAfterTheOldestKeptSnapshot() throws Exception {
        RoomKind<Command> kind = Lamps.kind(3, clock::get).snapshotEvery(5).keepSnapshots(2);
        try (Journal db = journal(); Node node = Node.start(db)) {
            Rooms<Command> rooms = Rooms.start(node.system, kind).withAskTimeout(PATIENCE);
            get(rooms.open("r"));
            long seq = 0;
            long mostRows = 0;
            for (int period = 1; period <= 20; period++) {
                for (long step = (period - 1) * 5L + 1; step <= period * 5L; step++) {
                    stepTo(rooms, step);
                    if (step % 7 == 0) {
                        get(rooms.send("r", ++seq, new Flip("lamp-" + step % 3)));
                    }
                }
                if (period >= 2) {
                    awaitTrimmed(db, "after " + period + " snapshots");
                    long oldestKept = count(db, FIRST_SNAPSHOT);
                    // a recovery from the oldest kept snapshot replays every event after it: none of them may be gone
                    assertEquals(count(db, LAST_EVENT) - oldestKept, count(db, LIVE_EVENTS),
                            "after " + period + " snapshots, events after the oldest kept snapshot (" + oldestKept + ") are missing");
                    mostRows = Math.max(mostRows, count(db, EVENT_ROWS));
                }
            }
            // the oldest kept snapshot's row (the plugin keeps it marked deleted), the period of 5 one-step events after it,
            // a command in that period and one sent right after the latest snapshot
            assertTrue(mostRows <= 8, "the room's journal held " + mostRows + " rows after a trim; expected at most 8");
            assertTrue(count(db, FIRST_EVENT) > 80, "the first 80 steps' events are deleted; the first event kept is "
                    + count(db, FIRST_EVENT));
        }
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void aRoomRecoveredFromATrimmedJournalEqualsItsTwinAndItsIncarnationKeepsRising() throws Exception {
        RoomKind<Command> kind = Lamps.kind(3, clock::get).snapshotEvery(5).keepSnapshots(2).maxCatchUp(4);
        List<Command> sent = List.of(new Flip("lamp-0"), new Hold("lamp-1", true), new Flip("lamp-1"), new Hold("lamp-2", true),
                new Flip("lamp-0"), new Flip("lamp-2"), new Hold("lamp-1", false), new Flip("lamp-1"));
        long[] at = {3, 8, 17, 24, 44, 47, 52, 58};
        List<Rooms.Ack> acks = new ArrayList<>();
        RoomsTest.Heard heard = new RoomsTest.Heard();
        try (Journal db = journal(); Room<Command> twin = Room.open(kind, "r")) {
            long[] incarnations = new long[3];
            try (Node first = Node.start(db)) {
                Rooms<Command> rooms = Rooms.start(first.system, kind, heard).withAskTimeout(PATIENCE);
                get(rooms.open("r"));
                send(rooms, sent, at, acks, 0, 30);
                awaitTrimmed(db, "on the first node");
                incarnations[0] = incarnation(rooms);
            }
            assertTrue(count(db, FIRST_EVENT) > 1, "the first node deleted the events its oldest kept snapshot covers");

            // the second node starts 10 steps later: it catches up, then runs until the journal no longer has its own Incarnated
            clock.set(T0 + 40 * 100);
            heard.recoveries.clear();
            try (Node second = Node.start(db)) {
                Rooms<Command> rooms = Rooms.start(second.system, kind, heard).withAskTimeout(PATIENCE);
                stepTo(rooms, 40);
                assertRecoveredAsTwin(heard, twin, sent, acks, 30);
                incarnations[1] = incarnation(rooms);
                long incarnated = count(db, LAST_INCARNATED);
                send(rooms, sent, at, acks, 40, 60);
                Node.await("the second node's Incarnated event deleted", Duration.ofSeconds(30),
                        () -> count(db, FIRST_EVENT) > incarnated && count(db, SNAPSHOTS) == 2);
            }
            assertEquals(0, count(db, "select count(*) from \"event_journal\" where \"persistence_id\" = ?"
                    + " and \"event_ser_manifest\" like '%Incarnated' and \"deleted\" = false"), "no Incarnated event is left to replay");

            clock.set(T0 + 60 * 100);
            heard.recoveries.clear();
            try (Node third = Node.start(db)) {
                Rooms<Command> rooms = Rooms.start(third.system, kind, heard).withAskTimeout(PATIENCE);
                incarnations[2] = incarnation(rooms);
                assertRecoveredAsTwin(heard, twin, sent, acks, 60);
            }
            assertTrue(incarnations[0] >= 1 && incarnations[1] > incarnations[0] && incarnations[2] > incarnations[1],
                    "each start of the room takes a larger incarnation than the last, its events deleted or not: "
                            + incarnations[0] + ", " + incarnations[1] + ", " + incarnations[2]);
        }
    }

    /** The room's incarnation once it is in the journal (0 before). */
    private static long incarnation(Rooms<Command> rooms) throws Exception {
        Node.await("the room's incarnation persisted", Duration.ofSeconds(30), () -> {
            try {
                return get(rooms.status("r")).incarnation() > 0;
            } catch (Exception e) {
                return false;
            }
        });
        return get(rooms.status("r")).incarnation();
    }

    /** Steps the room one step at a time over (from, to], sending each command due in that range. */
    private void send(Rooms<Command> rooms, List<Command> sent, long[] at, List<Rooms.Ack> acks, long from, long to) throws Exception {
        for (long step = from + 1; step <= to; step++) {
            stepTo(rooms, step);
            for (int i = 0; i < at.length; i++) {
                if (at[i] == step) {
                    Rooms.Ack ack = get(rooms.send("r", i + 1, sent.get(i)));
                    assertEquals(step, ack.step(), "command " + (i + 1));
                    acks.add(ack);
                }
            }
        }
    }

    /** The room's recovered world equals the twin given the same commands at the steps their acks name. */
    private void assertRecoveredAsTwin(RoomsTest.Heard heard, Room<Command> twin, List<Command> sent, List<Rooms.Ack> acks,
                                       long steps) throws InterruptedException {
        Node.await("the room recovered", Duration.ofSeconds(30), () -> heard.recoveries.stream().anyMatch(r -> r.dump() != null));
        RoomsTest.Recovery back = heard.recoveries.stream().filter(r -> r.dump() != null).findFirst().orElseThrow();
        assertEquals(steps, back.steps(), "the room came back with every step written");
        for (; twinApplied < acks.size(); twinApplied++) {
            Rooms.Ack ack = acks.get(twinApplied);
            twin.step((int) (ack.step() - twin.steps()));
            assertEquals(ack.taken(), twin.apply(sent.get(twinApplied)), "command " + (twinApplied + 1) + " on the twin");
        }
        twin.step((int) (steps - twin.steps()));
        assertEquals(twin.dump(), back.dump(), "the room recovered from a trimmed journal differs from its twin");
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void withoutKeepSnapshotsTheJournalKeepsEveryEventAndSnapshot() throws Exception {
        RoomKind<Command> kind = Lamps.kind(3, clock::get).snapshotEvery(5);
        try (Journal db = journal(); Node node = Node.start(db)) {
            Rooms<Command> rooms = Rooms.start(node.system, kind).withAskTimeout(PATIENCE);
            get(rooms.open("r"));
            for (long step = 1; step <= 40; step++) {
                stepTo(rooms, step);
            }
            Node.await("eight snapshots written", Duration.ofSeconds(30), () -> count(db, SNAPSHOTS) == 8);
            assertEquals(1, count(db, FIRST_EVENT), "the room's first event is kept");
            assertEquals(count(db, LAST_EVENT), count(db, LIVE_EVENTS), "every event is kept");
            assertTrue(count(db, LIVE_EVENTS) >= 42, "Opened, Incarnated and 40 one-step events: " + count(db, LIVE_EVENTS));
        }
    }

    @Test
    void keepingFewerThanOneSnapshotIsRefusedSayingHowToKeepTheWholeJournal() {
        RoomKind<Command> kind = Lamps.kind(3, clock::get);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> kind.keepSnapshots(0));
        assertEquals("room kind 'lamps': keepSnapshots must keep at least 1 snapshot (the one a recovery starts from); found 0."
                + " To keep the whole journal, do not call keepSnapshots", e.getMessage());
        assertEquals(0, kind.keepSnapshots(), "the whole journal by default");
        assertEquals(3, kind.keepSnapshots(3).keepSnapshots());
    }
}

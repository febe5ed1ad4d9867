package dev.enginestates.pekko;

import dev.enginestates.pekko.Lamps.Command;
import dev.enginestates.pekko.Lamps.Flip;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static dev.enginestates.pekko.Node.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A game's listener runs on the room's actor with the recovered room in hand: one that throws, or
 * that tries to close, step or command the room it was lent, must not stop the room nor change it
 * behind its journal's back. Before, a listener that threw in {@code recovered} failed every start
 * of the room, and one that closed it broke every step after.
 */
class HostileListenerTest {
    private static final long T0 = 1_000_000_000L;
    private final AtomicLong clock = new AtomicLong(T0);
    private final java.util.logging.Logger roomLog = java.util.logging.Logger.getLogger(Room.class.getName());

    @BeforeEach
    void quiet() {
        roomLog.setUseParentHandlers(false); // the listener's failures are logged: expected here, not printed
    }

    @AfterEach
    void loud() {
        roomLog.setUseParentHandlers(true);
    }

    /** Throws from every call, after trying to close, step and command the room it was lent. */
    static final class Hostile implements RoomListener {
        final List<String> refused = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void recovered(String roomId, String node, long steps, long lastSeq, long recoveryNanos, Room<?> room) {
            if (room != null) {
                @SuppressWarnings("unchecked")
                Room<Command> lent = (Room<Command>) room;
                for (Runnable attack : List.<Runnable>of(lent::close, () -> lent.step(5), () -> lent.apply(new Flip("lamp-0")))) {
                    try {
                        attack.run();
                    } catch (IllegalStateException e) {
                        refused.add(e.getMessage());
                    }
                }
            }
            throw new IllegalStateException("the game's metrics are down");
        }

        @Override
        public void stepsPersisted(String roomId, String node, long steps) {
            throw new IllegalStateException("the game's metrics are down");
        }
    }

    private void stepTo(Rooms<Command> rooms, long step) throws Exception {
        Node.stepTo(rooms, "r", clock, T0, step);
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aListenerThatThrowsOrTouchesTheRoomItWasLentNeitherStopsItNorChangesIt() throws Exception {
        RoomKind<Command> kind = Lamps.kind(3, clock::get).snapshotEvery(4);
        Hostile hostile = new Hostile();
        try (Journal db = Journal.h2()) {
            try (Node first = Node.start(db)) {
                Rooms<Command> rooms = Rooms.start(first.system, kind, hostile).withAskTimeout(Duration.ofSeconds(20));
                get(rooms.open("r"));
                stepTo(rooms, 6);
                assertEquals(new Rooms.Ack(1, 6, true), get(rooms.send("r", 1, new Flip("lamp-1"))));
                stepTo(rooms, 9);
            }
            try (Node second = Node.start(db); Room<Command> twin = Room.open(kind, "r")) {
                Rooms<Command> rooms = Rooms.start(second.system, kind, hostile).withAskTimeout(Duration.ofSeconds(20));
                stepTo(rooms, 12);
                twin.step(6);
                twin.apply(new Flip("lamp-1"));
                twin.step(6);
                assertEquals(twin.dump(), get(rooms.dump("r")).dump(), "the room differs from its twin");
            }
        }
        assertTrue(hostile.refused.size() >= 3, "the lent room's close, step and apply were refused: " + hostile.refused);
        assertTrue(hostile.refused.get(0).contains("lent"), hostile.refused.get(0));
    }
}

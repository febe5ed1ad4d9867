package dev.enginestates.pekko;

import org.apache.pekko.http.javadsl.ServerBinding;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.enginestates.pekko.Node.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A room id nobody opened costs nothing lasting: any id a player's connection names, or a status
 * asks about, starts a room entity through sharding (a guess, a typo, an attacker's million ids).
 * Such an entity writes nothing to the journal, runs no timer and is stopped, and forgotten by
 * remember-entities, after {@code engine-states.rooms.unopened-linger}; a connection to it is
 * refused with 404 at once. Before, each one persisted an incarnation and ticked every 100 ms for
 * good, and came back on every restart of the cluster.
 */
class UnopenedRoomsTest {
    private static final String URL = "jdbc:h2:mem:unopened-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    private static final String EVENTS = "select count(*) from \"event_journal\" where \"persistence_id\" = ?";
    private static final Map<String, AtomicInteger> STARTS = new ConcurrentHashMap<>();

    private static Node node;
    private static Rooms<Lamps.Command> rooms;

    @BeforeAll
    static void start() throws Exception {
        Rooms.createH2Tables(URL);
        node = Node.start(URL, Map.of("engine-states.rooms.unopened-linger", "300ms"));
        RoomListener listener = new RoomListener() {
            @Override
            public void recovered(String roomId, String nodeAddress, long steps, long lastSeq, long recoveryNanos, Room<?> room) {
                STARTS.computeIfAbsent(roomId, k -> new AtomicInteger()).incrementAndGet();
            }
        };
        rooms = Rooms.start(node.system, Lamps.withPockets(2, List.of("alice"), System::currentTimeMillis), listener);
    }

    @AfterAll
    static void stop() throws Exception {
        node.close();
    }

    private static int starts(String roomId) {
        return STARTS.getOrDefault(roomId, new AtomicInteger()).get();
    }

    @Test
    void aRoomIdNobodyOpenedWritesNothingRunsNoTimerAndIsStoppedAfterItsLinger() throws Exception {
        Rooms.Status ghost = get(rooms.status("ghost"));
        assertEquals(-1, ghost.steps(), "not open: " + ghost);
        assertEquals(0, ghost.incarnation(), "no incarnation for a room nobody opened: " + ghost);
        assertEquals(1, starts("ghost"));

        // stopped after its linger: the next question starts it again
        Node.await("the unopened room stopped after its linger", Duration.ofSeconds(30), () -> {
            try {
                get(rooms.status("ghost"));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return starts("ghost") >= 2;
        });
        assertEquals(0, Node.count(URL, EVENTS, "pockets|ghost"), "a room nobody opened wrote to the journal");
    }

    @Test
    void aRoomOpenedWhileItLingersRunsAndStays() throws Exception {
        get(rooms.status("late"));
        get(rooms.open("late"));
        long first = get(rooms.status("late")).steps();
        Node.await("the opened room steps", Duration.ofSeconds(30), () -> {
            try {
                return get(rooms.status("late")).steps() > first + 10; // a second of steps: well past the linger
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Rooms.Status late = get(rooms.status("late"));
        assertEquals(1, starts("late"), "an opened room is not stopped by the linger of its unopened start");
        assertEquals(1, late.incarnation(), "opened and incarnated once: " + late);
    }

    @Test
    void aPlayersConnectionToARoomNobodyOpenedIsRefusedWith404AndWritesNothing() throws Exception {
        ServerBinding binding = get(RoomsWebSocket.bind(node.system, rooms, 0));
        try {
            HttpResponse<String> refused = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                    "http://127.0.0.1:" + binding.localAddress().getPort() + "/rooms/nowhere?player=alice")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(404, refused.statusCode(), refused.body());
            assertTrue(refused.body().contains("room 'nowhere' is not open"), refused.body());
            assertEquals(0, Node.count(URL, EVENTS, "pockets|nowhere"), "a connection to a room nobody opened wrote to the journal");
        } finally {
            get(binding.unbind());
        }
    }
}

package dev.enginestates.pekko;

import com.fasterxml.jackson.databind.JsonNode;
import dev.enginestates.pekko.Lamps.Command;
import dev.enginestates.pekko.Lamps.Flip;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static dev.enginestates.pekko.Node.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Sequence numbers are each sender's own: two players of one room both send their first command
 * as seq 1, and the game server its own, and each is applied once, answered as its own. The room's
 * application hears who sent each, in a replay too; a room keeps the last answers of at most
 * {@link Rooms#MAX_SENDERS} players. Before, one number ran per room: a second player's seq 1 was
 * taken for the first player's command sent again, answered with its ack and never applied.
 */
class SendersTest {
    private static final String APPLIED = "select count(*) from \"event_journal\" where \"persistence_id\" = ?"
            + " and \"event_ser_manifest\" like '%Applied'";

    /** The senders the room's application heard, in order, live and in replays. */
    private final List<String> heard = Collections.synchronizedList(new ArrayList<>());

    private RoomKind<Command> kind() {
        return Lamps.kind(3, () -> 1_000_000_000L).snapshotEvery(1).appliesFrom((world, sender, command) -> {
            heard.add(String.valueOf(sender));
            return Lamps.apply(world, command);
        });
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void eachSendersNumbersAreItsOwnAndTheApplicationHearsWhoSentEachInAReplayToo() throws Exception {
        RoomKind<Command> kind = kind();
        try (Journal db = Journal.h2()) {
            try (Node node = Node.start(db)) {
                Rooms<Command> rooms = Rooms.start(node.system, kind);
                get(rooms.open("r"));
                assertEquals(new Rooms.Ack(1, 0, true), get(rooms.send("r", "alice", 1, new Flip("lamp-0"))));
                assertEquals(new Rooms.Ack(1, 0, true), get(rooms.send("r", "bob", 1, new Flip("lamp-1"))), "bob's own seq 1");
                assertEquals(new Rooms.Ack(1, 0, true), get(rooms.send("r", 1, new Flip("lamp-2"))), "the game server's own seq 1");
                assertEquals(new Rooms.Ack(1, 0, true), get(rooms.send("r", "alice", 1, new Flip("lamp-0"))), "alice's again: as before");
                assertEquals(new Rooms.Ack(2, 0, true), get(rooms.send("r", "alice", 2, new Flip("lamp-0"))));
                assertEquals(4, db.count(APPLIED, "lamps|r"), "four commands in the journal, each once");
                assertEquals(List.of("alice", "bob", "null", "alice"), List.copyOf(heard));
            }
            heard.clear();
            try (Node again = Node.start(db)) {
                Rooms<Command> rooms = Rooms.start(again.system, kind);
                // recovered: the players' last answers came back with the room
                assertEquals(new Rooms.Ack(1, 0, true), get(rooms.send("r", "bob", 1, new Flip("lamp-1"))), "bob's again, after a recovery");
                assertEquals(new Rooms.Ack(2, 0, true), get(rooms.send("r", "alice", 2, new Flip("lamp-0"))), "alice's again");
                assertEquals(new Rooms.Ack(1, -1, false), get(rooms.send("r", "alice", 1, new Flip("lamp-0"))), "older than alice's last");
                assertEquals(4, db.count(APPLIED, "lamps|r"), "nothing applied twice");
            }
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aRoomTakesCommandsFromAtMostMaxSendersPlayersAndRefusesOneMoreWithoutApplyingIt() throws Exception {
        try (Journal db = Journal.h2(); Node node = Node.start(db)) {
            Rooms<Command> rooms = Rooms.start(node.system, Lamps.kind(1, () -> 1_000_000_000L));
            get(rooms.open("r"));
            for (int p = 0; p < Rooms.MAX_SENDERS; p++) {
                assertEquals(0, get(rooms.send("r", "p" + p, 1, new Flip("lamp-0"))).step(), "player " + p);
            }
            assertEquals(new Rooms.Ack(1, -1, false), get(rooms.send("r", "one-more", 1, new Flip("lamp-0"))));
            assertEquals(new Rooms.Ack(2, 0, true), get(rooms.send("r", "p7", 2, new Flip("lamp-0"))), "a player it knows goes on");
            assertEquals(Rooms.MAX_SENDERS + 1, db.count(APPLIED, "lamps|r"));
            assertThrows(IllegalArgumentException.class, () -> rooms.send("r", "", 1, new Flip("lamp-0")));
            assertThrows(IllegalArgumentException.class, () -> rooms.send("r", "x".repeat(129), 1, new Flip("lamp-0")));
        }
    }

    /** A player's page that only reads the answers to its commands. */
    static final class Answers implements WebSocket.Listener {
        final BlockingQueue<JsonNode> acks = new LinkedBlockingQueue<>();
        final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                JsonNode message = Seen.parse(partial.toString());
                partial.setLength(0);
                if (message.has("ack")) {
                    acks.add(message);
                }
            }
            webSocket.request(1);
            return null;
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void twoPlayersOverWebSocketEachSendTheirSeqOneAndBothAreApplied() throws Exception {
        try (Journal db = Journal.h2(); Node node = Node.start(db)) {
            Rooms<Command> rooms = Rooms.start(node.system, kind());
            get(rooms.open("r"));
            ServerBinding binding = get(RoomsWebSocket.bind(node.system, rooms, 0));
            try {
                HttpClient http = HttpClient.newHttpClient();
                List<String> senders = new ArrayList<>();
                for (String player : List.of("alice", "bob")) {
                    Answers page = new Answers();
                    WebSocket socket = http.newWebSocketBuilder().buildAsync(URI.create("ws://127.0.0.1:"
                            + binding.localAddress().getPort() + "/rooms/r?player=" + player), page).get(30, TimeUnit.SECONDS);
                    socket.sendText("{\"seq\": 1, \"command\": {\"type\": \"flip\", \"key\": \"lamp-0\"}}", true).get(30, TimeUnit.SECONDS);
                    JsonNode ack = page.acks.poll(30, TimeUnit.SECONDS);
                    assertNotNull(ack, player + " had no answer");
                    assertEquals(true, ack.get("taken").asBoolean(), player + "'s seq 1: " + ack);
                    senders.add(player);
                    socket.abort();
                }
                assertEquals(2, db.count(APPLIED, "lamps|r"), "both players' seq 1 in the journal");
                assertEquals(senders, List.copyOf(heard), "the application heard each player as the sender");
            } finally {
                get(binding.unbind());
            }
        }
    }
}

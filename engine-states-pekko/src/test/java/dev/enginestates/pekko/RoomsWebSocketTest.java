package dev.enginestates.pekko;

import dev.enginestates.pekko.Lamps.Command;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.apache.pekko.http.javadsl.model.ws.Message;
import org.apache.pekko.stream.BoundedSourceQueue;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static dev.enginestates.pekko.Node.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The WebSocket endpoint refuses what it cannot take, saying why, and sends the room nothing of it. */
class RoomsWebSocketTest {
    private static final String APPLIED = "select count(*) from \"event_journal\" where \"persistence_id\" = ?"
            + " and \"event_ser_manifest\" like '%Applied'";

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final String url = "jdbc:h2:mem:ws-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";

    /** Waits for the connection's last message (the error) and its close. */
    static final class Ending implements WebSocket.Listener {
        final CompletableFuture<String> error = new CompletableFuture<>();
        final CompletableFuture<Integer> closed = new CompletableFuture<>();
        final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String text = partial.toString();
                partial.setLength(0);
                if (text.startsWith("{\"error\"")) {
                    error.complete(Seen.parse(text).get("error").asText());
                }
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closed.complete(statusCode);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable e) {
            closed.complete(-1);
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aConnectionDropsAFrameOfAnOlderEpochThanTheNewestItSent() throws Exception {
        Rooms.createH2Tables(url);
        try (Node node = Node.start(url)) {
            Rooms<Command> rooms = Rooms.start(node.system, Lamps.withPockets(2, List.of("alice"), clock::get));
            BlockingQueue<String> sent = new LinkedBlockingQueue<>();
            BoundedSourceQueue<Message> queue = Source.<Message>queue(RoomsWebSocket.BUFFER)
                    .to(Sink.foreach(m -> sent.add(m.asTextMessage().getStrictText())))
                    .run(Materializer.matFromSystem(node.system));
            // a room never opened: its only frames are the test's
            ActorRef<Object> connection = node.system.systemActorOf(RoomsWebSocket.Connection.create(rooms, "quiet", "alice",
                    new RoomsWebSocket.Outbox(queue, rooms.json())), "connection", Props.empty());
            connection.tell(new Rooms.Frame("quiet", 2, "two", null));
            connection.tell(new Rooms.Frame("quiet", 1, "one, late from the older home", null));
            connection.tell(new Rooms.Frame("quiet", 3, "three", null));
            assertEquals("two", sent.poll(30, TimeUnit.SECONDS));
            assertEquals("three", sent.poll(30, TimeUnit.SECONDS), "the older epoch's frame was sent after a newer one");
            queue.complete();
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aBadMessageClosesTheConnectionWithItsReasonAndSendsTheRoomNothing() throws Exception {
        Rooms.createH2Tables(url);
        try (Node node = Node.start(url)) {
            Rooms<Command> rooms = Rooms.start(node.system, Lamps.withPockets(2, List.of("alice"), clock::get));
            get(rooms.open("r"));
            ServerBinding binding = get(RoomsWebSocket.bind(node.system, rooms, 0));
            int port = binding.localAddress().getPort();
            HttpClient http = HttpClient.newHttpClient();
            URI uri = URI.create("ws://127.0.0.1:" + port + "/rooms/r?player=alice");

            List<String[]> bad = List.of(
                    new String[] {"hello", "a message is not JSON: hello"},
                    new String[] {"{\"seq\": 0, \"command\": {\"type\": \"flip\", \"key\": \"lamp-0\"}}", "with n a whole number from 1"},
                    new String[] {"{\"seq\": 1}", "expected {\"seq\": n, \"command\": {...}}"},
                    new String[] {"{\"seq\": 1, \"command\": {\"type\": \"dance\"}}", "command 1 cannot be read as Command"},
                    new String[] {"{\"seq\": 1, \"command\": {\"type\": \"flip\", \"key\": \"" + "x".repeat(RoomsWebSocket.MAX_INPUT_CHARS)
                            + "\"}}", "a message must be 1 to " + RoomsWebSocket.MAX_INPUT_CHARS + " characters"});
            for (String[] b : bad) {
                Ending ending = new Ending();
                WebSocket socket = http.newWebSocketBuilder().buildAsync(uri, ending).get(30, TimeUnit.SECONDS);
                socket.sendText(b[0], true).get(30, TimeUnit.SECONDS);
                String error = ending.error.get(30, TimeUnit.SECONDS);
                assertTrue(error.contains(b[1]) && error.startsWith("room 'r'"), "for " + b[0].substring(0, Math.min(60, b[0].length()))
                        + ": " + error);
                ending.closed.get(30, TimeUnit.SECONDS);
            }
            Ending binary = new Ending();
            WebSocket socket = http.newWebSocketBuilder().buildAsync(uri, binary).get(30, TimeUnit.SECONDS);
            socket.sendBinary(ByteBuffer.wrap(new byte[] {1, 2, 3}), true).get(30, TimeUnit.SECONDS);
            assertTrue(binary.error.get(30, TimeUnit.SECONDS).contains("got a binary message"));
            assertEquals(0, Node.count(url, APPLIED, "pockets|r"), "a refused message reached the journal");

            HttpResponse<String> noPlayer = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/rooms/r")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(400, noPlayer.statusCode());
            assertEquals("room 'r': expected ?player={id}, the player's id of 1 to 128 characters", noPlayer.body());
            binding.unbind().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aBrowserPageOfAnOriginTheServerDoesNotListIsRefusedAndOneItListsConnects() throws Exception {
        Rooms.createH2Tables(url);
        try (Node node = Node.start(url)) {
            Rooms<Command> rooms = Rooms.start(node.system, Lamps.withPockets(2, List.of("alice"), clock::get));
            get(rooms.open("r"));
            ServerBinding binding = get(RoomsWebSocket.bind(node.system, rooms, "127.0.0.1", 0, List.of("https://play.example.com")));
            URI uri = URI.create("ws://127.0.0.1:" + binding.localAddress().getPort() + "/rooms/r?player=alice");
            HttpClient http = HttpClient.newHttpClient();
            // another site's page, which a player's browser would open a socket from
            java.util.concurrent.CompletionException refused = org.junit.jupiter.api.Assertions.assertThrows(
                    java.util.concurrent.CompletionException.class, () -> http.newWebSocketBuilder()
                            .header("Origin", "https://evil.example").buildAsync(uri, new WebSocket.Listener() { }).join());
            assertTrue(refused.getCause() instanceof java.net.http.WebSocketHandshakeException, String.valueOf(refused.getCause()));
            assertEquals(403, ((java.net.http.WebSocketHandshakeException) refused.getCause()).getResponse().statusCode());
            // the game's own page, and a client that is not a browser (no origin)
            http.newWebSocketBuilder().header("Origin", "https://play.example.com").buildAsync(uri, new WebSocket.Listener() { })
                    .get(30, TimeUnit.SECONDS).abort();
            http.newWebSocketBuilder().buildAsync(uri, new WebSocket.Listener() { }).get(30, TimeUnit.SECONDS).abort();
            get(binding.unbind());
        }
    }
}

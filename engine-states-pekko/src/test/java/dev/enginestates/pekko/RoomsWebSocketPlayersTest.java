package dev.enginestates.pekko;

import dev.enginestates.pekko.Lamps.Command;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.enginestates.pekko.Node.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The game decides who a connection's player is ({@link RoomsWebSocket.Players}): a request its
 * check does not name a player for, whose check fails or never answers, or that names a player
 * by an id out of bounds is refused, saying why, and no room hears of it; the server goes on
 * serving.
 */
class RoomsWebSocketPlayersTest {
    private static final String URL = "jdbc:h2:mem:ws-players-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    private static final String TOKEN = "Bearer alice-token";
    /** The players the room made a frame for: only subscribed ones are asked about. */
    private static final Set<String> STREAMED_TO = ConcurrentHashMap.newKeySet();

    /** The endpoint's log: its warnings about failing checks are expected here, and the run prints nothing. */
    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(RoomsWebSocket.class.getName());

    private static Node node;
    private static Rooms<Command> rooms;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        LOG.setUseParentHandlers(false);
        Rooms.createH2Tables(URL);
        node = Node.start(URL);
        rooms = Rooms.start(node.system, Lamps.withPockets(2, List.of("alice", "bob"), () -> 1_000_000_000L)
                .interest((player, entity) -> STREAMED_TO.add(player) || true));
        get(rooms.open("r"));
    }

    @AfterAll
    static void stop() throws Exception {
        node.close();
        LOG.setUseParentHandlers(true);
    }

    /** The game's check: the bearer of alice's token is alice, anyone else nobody. */
    private static CompletionStage<Optional<String>> byToken(String roomId, org.apache.pekko.http.javadsl.model.HttpRequest request) {
        boolean alice = "r".equals(roomId) && request.getHeader("Authorization").map(HttpHeader::value).filter(TOKEN::equals).isPresent();
        return CompletableFuture.completedFuture(alice ? Optional.of("alice") : Optional.empty());
    }

    private static ServerBinding bind(RoomsWebSocket.Players players) throws Exception {
        return get(RoomsWebSocket.bind(node.system, rooms, "127.0.0.1", 0, List.of("https://play.example.com"), players));
    }

    private static String base(ServerBinding binding, String scheme) {
        return scheme + "://127.0.0.1:" + binding.localAddress().getPort() + "/rooms/r";
    }

    private HttpResponse<String> plainGet(ServerBinding binding, String query) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base(binding, "http") + query)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The status a WebSocket handshake is refused with. */
    private int refusedHandshake(WebSocket.Builder builder, URI uri) {
        CompletionException refused = assertThrows(CompletionException.class,
                () -> builder.buildAsync(uri, new WebSocket.Listener() { }).join());
        assertTrue(refused.getCause() instanceof WebSocketHandshakeException, String.valueOf(refused.getCause()));
        return ((WebSocketHandshakeException) refused.getCause()).getResponse().statusCode();
    }

    /** Connects and waits for the room's first (whole) frame. */
    private void connectsAndGetsAFrame(WebSocket.Builder builder, URI uri) throws Exception {
        CompletableFuture<String> frame = new CompletableFuture<>();
        WebSocket socket = builder.buildAsync(uri, new WebSocket.Listener() {
            @Override
            public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                frame.complete(data.toString());
                return null;
            }
        }).get(30, TimeUnit.SECONDS);
        assertTrue(frame.get(30, TimeUnit.SECONDS).length() > 0);
        socket.abort();
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aRequestTheGamesCheckNamesNoPlayerForIsRefusedWith401AndNoRoomStreamsToIt() throws Exception {
        ServerBinding binding = bind(RoomsWebSocketPlayersTest::byToken);
        // bob's id claimed in the query, without bob's credentials, or with another's
        URI claimsBob = URI.create(base(binding, "ws") + "?player=bob");
        assertEquals(401, refusedHandshake(http.newWebSocketBuilder(), claimsBob));
        assertEquals(401, refusedHandshake(http.newWebSocketBuilder().header("Authorization", "Bearer guessed"), claimsBob));
        HttpResponse<String> refused = plainGet(binding, "?player=bob");
        assertEquals(401, refused.statusCode());
        assertEquals("room 'r': the game did not recognise this connection's player; connect with the game's credentials", refused.body());
        // the game's player, whose connection is the room's only subscriber: bob's name never reached it
        connectsAndGetsAFrame(http.newWebSocketBuilder().header("Authorization", TOKEN), claimsBob);
        assertEquals(Set.of("alice"), Set.copyOf(STREAMED_TO), "the room made frames for a player the game's check refused");
        get(binding.unbind());
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aCheckThatThrowsOrFailsRefusesTheRequestWith503AndTheServerServesTheNext() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        ServerBinding binding = bind((roomId, request) -> {
            String query = request.getUri().query().get("player").orElse("");
            asked.incrementAndGet();
            if (query.equals("throws")) {
                throw new IllegalStateException("the accounts' service is down");
            }
            if (query.equals("fails")) {
                return CompletableFuture.failedFuture(new IllegalStateException("the accounts' service timed out"));
            }
            return byToken(roomId, request);
        });
        for (String how : List.of("throws", "fails")) {
            HttpResponse<String> refused = plainGet(binding, "?player=" + how);
            assertEquals(503, refused.statusCode(), how);
            assertEquals("room 'r': the game's check of who the player is failed; connect again later", refused.body(), how);
            assertEquals(503, refusedHandshake(http.newWebSocketBuilder(), URI.create(base(binding, "ws") + "?player=" + how)), how);
        }
        assertEquals(4, asked.get());
        connectsAndGetsAFrame(http.newWebSocketBuilder().header("Authorization", TOKEN), URI.create(base(binding, "ws")));
        get(binding.unbind());
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aCheckThatNeverAnswersRefusesTheRequestWith503AfterTheBoundedWait() throws Exception {
        CompletableFuture<Optional<String>> never = new CompletableFuture<>();
        ServerBinding binding = bind((roomId, request) -> never);
        // the wait is a few seconds; the guard only keeps a broken bound from hanging the build
        HttpResponse<String> refused = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> plainGet(binding, ""));
        assertEquals(503, refused.statusCode());
        assertEquals("room 'r': the game's check of who the player is gave no answer within "
                + RoomsWebSocket.IDENTIFY_WAIT.toSeconds() + " s; connect again later", refused.body());
        assertEquals(503, assertTimeoutPreemptively(Duration.ofSeconds(60),
                () -> refusedHandshake(http.newWebSocketBuilder(), URI.create(base(binding, "ws")))));
        assertTrue(!never.isDone(), "the server completed the game's own stage");
        get(binding.unbind());
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aPlayerIdOfTheCheckThatIsEmptyOrAbove128CharactersIsRefusedWith400() throws Exception {
        ServerBinding binding = bind((roomId, request) -> CompletableFuture.completedFuture(request.getUri().query().get("player")));
        HttpResponse<String> empty = plainGet(binding, "?player=");
        assertEquals(400, empty.statusCode());
        assertEquals("room 'r': the game's check named a player id of 0 characters; expected 1 to 128", empty.body());
        HttpResponse<String> tooLong = plainGet(binding, "?player=" + "x".repeat(129));
        assertEquals(400, tooLong.statusCode());
        assertEquals("room 'r': the game's check named a player id of 129 characters; expected 1 to 128", tooLong.body());
        assertEquals(400, refusedHandshake(http.newWebSocketBuilder(), URI.create(base(binding, "ws") + "?player=" + "x".repeat(129))));
        get(binding.unbind());
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void theOriginIsCheckedBeforeTheGamesCheckIsAsked() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        ServerBinding binding = bind((roomId, request) -> {
            asked.incrementAndGet();
            return byToken(roomId, request);
        });
        assertEquals(403, refusedHandshake(http.newWebSocketBuilder().header("Origin", "https://evil.example")
                .header("Authorization", TOKEN), URI.create(base(binding, "ws"))));
        assertEquals(0, asked.get(), "the game's check was asked for a page of an origin the server does not list");
        connectsAndGetsAFrame(http.newWebSocketBuilder().header("Origin", "https://play.example.com").header("Authorization", TOKEN),
                URI.create(base(binding, "ws")));
        assertEquals(1, asked.get());
        get(binding.unbind());
    }
}

package dev.enginestates.pekko;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.StatusCode;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.model.ws.Message;
import org.apache.pekko.http.javadsl.model.ws.TextMessage;
import org.apache.pekko.http.javadsl.server.PathMatchers;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.japi.Pair;
import org.apache.pekko.stream.BoundedSourceQueue;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.QueueOfferResult;
import org.apache.pekko.stream.javadsl.Flow;
import org.apache.pekko.stream.javadsl.Keep;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.apache.pekko.http.javadsl.server.Directives.complete;
import static org.apache.pekko.http.javadsl.server.Directives.extractRequest;
import static org.apache.pekko.http.javadsl.server.Directives.extractWebSocketUpgrade;
import static org.apache.pekko.http.javadsl.server.Directives.onComplete;
import static org.apache.pekko.http.javadsl.server.Directives.onSuccess;
import static org.apache.pekko.http.javadsl.server.Directives.optionalHeaderValueByName;
import static org.apache.pekko.http.javadsl.server.Directives.path;
import static org.apache.pekko.http.javadsl.server.Directives.pathPrefix;

/**
 * Players over WebSocket, on any node of the rooms' cluster:
 * {@code ws://host:port/rooms/{roomId}}, the player being who the game's {@link Players} check says
 * (by default the request's {@code ?player={id}}, unchecked). The connection subscribes to the room
 * ({@link Rooms#subscribe}) and pushes each frame the room sends as a text message, for the
 * player's {@link dev.enginestates.io.Replica}. It follows the room when it moves: it watches the
 * room's actor that sent the frames, and when that actor ends (its node gone) or no frame came
 * for {@link #SILENCE}, it subscribes again through sharding, waiting 200 ms, then twice as long
 * each time, up to 5 s, for at most {@link #FOLLOW} without a frame (long enough for the cluster to
 * down a dead node with the split-brain resolver's default 20 s and start its rooms elsewhere);
 * the room's new home sends a whole frame of a larger epoch. A frame of an older epoch than the newest sent on the connection
 * is dropped. The room sends a frame in pieces of at most {@link Rooms#PIECE_CHARS} characters
 * (each one cluster message when the room runs on another node), which the connection joins
 * before it pushes the frame; a frame whose pieces do not all arrive in order is dropped whole,
 * never pushed, and the connection subscribes again (a whole frame follows).
 *
 * <p>A player sends text messages {@code {"seq": n, "command": {...}}}: the game's command as
 * its JSON, with the player's own sequence number for the room
 * ({@link Rooms#send(String, String, long, Object)}: applied once per player and seq). Each is answered {@code {"ack": n, "step": s, "taken": t}} (step -1: not applied, such as
 * a room that did not answer in time; send it again with the same seq). One command is in
 * flight per connection; the next is read once it is answered.
 *
 * <p>Bounds: a connection holds at most {@link #BUFFER} messages for its client; a client that
 * falls further behind is closed, not sent fewer frames (a frame left out would be a gap its
 * replica refuses; it connects again and gets a whole frame). A message from the client of more
 * than {@link #MAX_INPUT_CHARS} characters, one that is not text, not JSON of that form or not the
 * room's command closes the connection with a last text message {@code {"error": "..."}} saying
 * why, and sends the room nothing. A frame of more than {@link Rooms#MAX_FRAME_CHARS} characters
 * closes the connection the same way, holding no more of it.
 */
public final class RoomsWebSocket {
    /** The messages a connection holds for a client that reads slower than the room sends. */
    public static final int BUFFER = 64;
    /** The longest text message a client may send, in characters. */
    public static final int MAX_INPUT_CHARS = 16 * 1024;
    /** How long a connection waits for a frame before it subscribes again. */
    public static final Duration SILENCE = Duration.ofSeconds(3);
    /** How long a connection keeps subscribing again without a frame before it closes. */
    public static final Duration FOLLOW = Duration.ofSeconds(60);
    /** How long a request waits for the game's {@link Players} check before it is refused (503). */
    public static final Duration IDENTIFY_WAIT = Duration.ofSeconds(5);

    private static final System.Logger LOG = System.getLogger(RoomsWebSocket.class.getName());

    private static final long FIRST_BACKOFF_MILLIS = 200;
    private static final long MAX_BACKOFF_MILLIS = 5_000;
    private static final int MAX_ID_CHARS = 128;

    /** The default check: the request's {@code ?player=} as given; a query that cannot be read names nobody. */
    private static final Players FROM_QUERY = (roomId, request) -> {
        Optional<String> player;
        try {
            player = request.getUri().query().get("player");
        } catch (RuntimeException e) {
            player = Optional.empty();
        }
        return CompletableFuture.completedFuture(player);
    };

    private RoomsWebSocket() {
    }

    /**
     * Who a connection's player is: the game's check of the WebSocket upgrade request, such as a
     * session token in the {@code Authorization} header, a cookie or the query, against its own
     * accounts. The request reaches no room before the check answers an id: an empty answer is
     * refused with 401, a check that throws, fails or gives no answer within {@link #IDENTIFY_WAIT}
     * with 503, an id that is empty or above 128 characters with 400.
     */
    @FunctionalInterface
    public interface Players {
        /**
         * The player a request comes from. Called on the server's threads for each request to a
         * room, once its {@code Origin} is allowed: it must not block; a check that asks the game's
         * own service answers with that call's stage.
         *
         * @param roomId  the room the request asks for
         * @param request the upgrade request, its headers and URI as the client sent them
         * @return the player's id (1 to 128 characters), or empty to refuse the connection
         */
        CompletionStage<Optional<String>> identify(String roomId, HttpRequest request);

        /**
         * The default: the player is the request's {@code ?player={id}}, as the client gave it.
         * Nothing checks it: anyone who reaches the port may connect as any player; on a public
         * interface, give a check of the game's own.
         *
         * @return the check that takes the query's id
         */
        static Players fromQuery() {
            return FROM_QUERY;
        }
    }

    /**
     * Serves the rooms' players on this node, on 127.0.0.1.
     *
     * @param system the node's actor system
     * @param rooms  the rooms' handle on this node
     * @param port   the port; 0 for any free one
     * @return the binding once bound (its {@code localAddress()} gives the port)
     */
    public static CompletionStage<ServerBinding> bind(ActorSystem<?> system, Rooms<?> rooms, int port) {
        return bind(system, rooms, "127.0.0.1", port);
    }

    /**
     * Serves the rooms' players on this node.
     *
     * @param system the node's actor system
     * @param rooms  the rooms' handle on this node
     * @param host   the interface to listen on, such as {@code 127.0.0.1} (a public one only behind the game's own checks)
     * @param port   the port; 0 for any free one
     * @return the binding once bound (its {@code localAddress()} gives the port; {@code unbind()} stops it)
     */
    public static CompletionStage<ServerBinding> bind(ActorSystem<?> system, Rooms<?> rooms, String host, int port) {
        return bind(system, rooms, host, port, java.util.Set.of());
    }

    /**
     * Serves the rooms' players on this node, to browser pages of these origins. A browser sends
     * its page's origin with every WebSocket request, and any site a player visits may open a
     * socket to this port (to 127.0.0.1 too): a request whose {@code Origin} is not listed is
     * refused with 403 and reaches no room. A client that is not a browser sends no origin and
     * connects. {@link #bind(ActorSystem, Rooms, String, int)} lists none. The player is the
     * request's {@code ?player={id}} ({@link Players#fromQuery()}).
     *
     * @param system         the node's actor system
     * @param rooms          the rooms' handle on this node
     * @param host           the interface to listen on, such as {@code 127.0.0.1} (a public one only behind the game's own checks)
     * @param port           the port; 0 for any free one
     * @param allowedOrigins the origins of the game's own pages, such as {@code "https://play.example.com"}
     * @return the binding once bound (its {@code localAddress()} gives the port; {@code unbind()} stops it)
     */
    public static CompletionStage<ServerBinding> bind(ActorSystem<?> system, Rooms<?> rooms, String host, int port,
                                                      java.util.Collection<String> allowedOrigins) {
        return bind(system, rooms, host, port, allowedOrigins, Players.fromQuery());
    }

    /**
     * Serves the rooms' players on this node, to browser pages of these origins, each connection's
     * player being who the game's check says. The {@code Origin} is checked first (403), then the
     * room's id (400), then the game's check; only a request it names a player for is upgraded
     * and subscribed.
     *
     * @param system         the node's actor system
     * @param rooms          the rooms' handle on this node
     * @param host           the interface to listen on, such as {@code 127.0.0.1}
     * @param port           the port; 0 for any free one
     * @param allowedOrigins the origins of the game's own pages, such as {@code "https://play.example.com"}
     * @param players        the game's check of who a request's player is
     * @return the binding once bound (its {@code localAddress()} gives the port; {@code unbind()} stops it)
     */
    public static CompletionStage<ServerBinding> bind(ActorSystem<?> system, Rooms<?> rooms, String host, int port,
                                                      java.util.Collection<String> allowedOrigins, Players players) {
        java.util.Set<String> origins = java.util.Set.copyOf(allowedOrigins);
        java.util.Objects.requireNonNull(players, "bind needs the game's check of who a request's player is;"
                + " RoomsWebSocket.Players.fromQuery() takes the request's ?player= as given");
        AtomicLong connections = new AtomicLong();
        CheckFailures failures = new CheckFailures();
        Route route = pathPrefix("rooms", () -> path(PathMatchers.segment(), roomId -> optionalHeaderValueByName("Origin", origin -> {
            if (origin.isPresent() && !origins.contains(origin.get())) {
                return complete(StatusCodes.FORBIDDEN, "room '" + roomId + "': a page of origin " + origin.get()
                        + " may not connect; the server lists the origins of the game's own pages");
            }
            if (roomId.isEmpty() || roomId.length() > MAX_ID_CHARS) {
                return complete(StatusCodes.BAD_REQUEST, "expected /rooms/{roomId} with a room id of 1 to " + MAX_ID_CHARS + " characters");
            }
            return extractRequest(request -> onSuccess(identify(players, failures, roomId, request), verdict -> verdict.player() == null
                    ? complete(verdict.status(), verdict.reason())
                    // a room that is not open refuses the connection at once, rather than leave it waiting for frames
                    : onComplete(rooms.status(roomId), status -> status.isFailure()
                            ? complete(StatusCodes.SERVICE_UNAVAILABLE, "room '" + roomId + "' did not answer (it may be moving"
                                    + " to another node); connect again in a few seconds")
                            : status.get().steps() < 0
                            ? complete(StatusCodes.NOT_FOUND, "room '" + roomId + "' is not open; the game opens its rooms")
                            : extractWebSocketUpgrade(upgrade -> complete(upgrade.handleMessagesWith(
                                    connect(system, rooms, roomId, verdict.player(), connections.incrementAndGet())))))));
        })));
        return Http.get(system).newServerAt(host, port).bind(route);
    }

    /** The game's check's answer for one request: the player, or the status and reason it is refused with. */
    record Verdict(String player, StatusCode status, String reason) {
    }

    /** Asks the game's check, bounded by {@link #IDENTIFY_WAIT}; the answer always completes, never exceptionally. */
    private static CompletionStage<Verdict> identify(Players players, CheckFailures failures, String roomId, HttpRequest request) {
        CompletionStage<Optional<String>> answer;
        try {
            answer = players.identify(roomId, request);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(failures.refuse(roomId, e));
        }
        if (answer == null) {
            return CompletableFuture.completedFuture(failures.refuse(roomId, new NullPointerException("the check answered null, not a stage")));
        }
        CompletableFuture<Verdict> verdict = new CompletableFuture<>();
        answer.whenComplete((player, error) -> verdict.complete(error != null ? failures.refuse(roomId, error)
                : player == null ? failures.refuse(roomId, new NullPointerException("the check's stage gave null, not an Optional"))
                : verdict(players, roomId, player)));
        // a stage that never completes must not hold the request: the first of the answer and the wait wins
        return verdict.completeOnTimeout(new Verdict(null, StatusCodes.SERVICE_UNAVAILABLE, "room '" + roomId
                        + "': the game's check of who the player is gave no answer within " + IDENTIFY_WAIT.toSeconds()
                        + " s; connect again later"), IDENTIFY_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static Verdict verdict(Players players, String roomId, Optional<String> player) {
        boolean fromQuery = players == FROM_QUERY;
        if (player.isEmpty() && !fromQuery) {
            return new Verdict(null, StatusCodes.UNAUTHORIZED, "room '" + roomId
                    + "': the game did not recognise this connection's player; connect with the game's credentials");
        }
        if (player.isEmpty() || player.get().isEmpty() || player.get().length() > MAX_ID_CHARS) {
            return new Verdict(null, StatusCodes.BAD_REQUEST, fromQuery
                    ? "room '" + roomId + "': expected ?player={id}, the player's id of 1 to " + MAX_ID_CHARS + " characters"
                    : "room '" + roomId + "': the game's check named a player id of " + player.get().length()
                            + " characters; expected 1 to " + MAX_ID_CHARS);
        }
        return new Verdict(player.get(), null, null);
    }

    /**
     * A check that failed refuses the request; why goes to the log, not to the client. While the
     * game's service is down every request fails: the log gets the first failure, then at most one
     * each {@link SparseLog#EVERY}, saying how many it left out.
     */
    static final class CheckFailures {
        private final SparseLog log;

        CheckFailures() {
            this(System::nanoTime);
        }

        CheckFailures(java.util.function.LongSupplier nanos) {
            this.log = new SparseLog(LOG, nanos);
        }

        Verdict refuse(String roomId, Throwable error) {
            log.warn("room '" + roomId + "': the game's check of who a connection's player is failed; the connection is refused", error);
            return new Verdict(null, StatusCodes.SERVICE_UNAVAILABLE, "room '" + roomId
                    + "': the game's check of who the player is failed; connect again later");
        }
    }

    /** One connection: the frames out through a bounded queue its actor fills, the commands in one at a time. */
    private static <I> Flow<Message, Message, ?> connect(ActorSystem<?> system, Rooms<I> rooms, String roomId, String player,
                                                         long number) {
        Materializer materializer = Materializer.matFromSystem(system);
        Pair<Pair<BoundedSourceQueue<Message>, CompletionStage<Done>>, Source<Message, org.apache.pekko.NotUsed>> out =
                Source.<Message>queue(BUFFER).watchTermination(Pair::create).preMaterialize(materializer);
        BoundedSourceQueue<Message> queue = out.first().first();
        Outbox outbox = new Outbox(queue, rooms.json());
        ActorRef<Object> connection = system.systemActorOf(Connection.create(rooms, roomId, player, outbox),
                "room-player-" + number, Props.empty());
        // the client gone, or the connection closed: the room forgets it
        out.first().second().whenComplete((done, error) -> connection.tell(Connection.Closed.INSTANCE));
        Sink<Message, ?> in = Flow.<Message>create()
                .mapAsync(1, m -> read(m, materializer))
                .mapAsync(1, text -> command(rooms, roomId, player, text, outbox))
                .to(Sink.ignore());
        return Flow.fromSinkAndSourceCoupled(in, out.second());
    }

    /** A client's message: its text, or what is wrong with it. */
    private record Read(String text, String problem) {
    }

    /** Reads a client's message whole, up to the bound; a binary one is drained and refused. */
    private static CompletionStage<Read> read(Message m, Materializer materializer) {
        if (!m.isText()) {
            return m.asBinaryMessage().getStreamedData().runWith(Sink.ignore(), materializer)
                    .handle((done, error) -> new Read(null, "expected text messages {\"seq\": n, \"command\": {...}}; got a binary message"));
        }
        return m.asTextMessage().getStreamedText()
                .limitWeighted(MAX_INPUT_CHARS, s -> (long) s.length())
                .runFold(new StringBuilder(), StringBuilder::append, materializer)
                .handle((sb, error) -> error == null && sb.length() > 0 ? new Read(sb.toString(), null)
                        : new Read(null, "a message must be 1 to " + MAX_INPUT_CHARS + " characters of {\"seq\": n, \"command\": {...}}"));
    }

    private static <I> CompletionStage<Done> command(Rooms<I> rooms, String roomId, String player, Read read, Outbox outbox) {
        if (outbox.closed()) {
            return CompletableFuture.completedFuture(Done.getInstance());
        }
        if (read.problem() != null) {
            outbox.close("room '" + roomId + "': " + read.problem());
            return CompletableFuture.completedFuture(Done.getInstance());
        }
        String text = read.text();
        long seq;
        I command;
        try {
            JsonNode tree = rooms.json().readTree(text);
            JsonNode seqNode = tree == null ? null : tree.get("seq");
            JsonNode commandNode = tree == null ? null : tree.get("command");
            if (seqNode == null || !seqNode.canConvertToLong() || !seqNode.isIntegralNumber() || seqNode.asLong() < 1
                    || commandNode == null || !commandNode.isObject()) {
                throw new IllegalArgumentException("room '" + roomId + "': expected {\"seq\": n, \"command\": {...}} with n a whole"
                        + " number from 1; got " + abbreviated(text));
            }
            seq = seqNode.asLong();
            command = rooms.command(roomId, seq, commandNode);
        } catch (Exception e) {
            outbox.close(e instanceof IllegalArgumentException ? e.getMessage()
                    : "room '" + roomId + "': a message is not JSON: " + abbreviated(text));
            return CompletableFuture.completedFuture(Done.getInstance());
        }
        return rooms.send(roomId, player, seq, command).handle((ack, error) -> {
            outbox.ack(seq, error == null ? ack.step() : -1, error == null && ack.taken());
            return Done.getInstance();
        });
    }

    private static String abbreviated(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "...";
    }

    /** What goes to the client: frames, answers and a last error, through the bounded queue. */
    static final class Outbox {
        private final BoundedSourceQueue<Message> queue;
        private final ObjectMapper json;
        private final AtomicBoolean closed = new AtomicBoolean();

        Outbox(BoundedSourceQueue<Message> queue, ObjectMapper json) {
            this.queue = queue;
            this.json = json;
        }

        boolean closed() {
            return closed.get();
        }

        /** Offers a message; a client too far behind is closed (the socket fails), since a frame left out would be a gap. */
        boolean offer(String text) {
            if (closed.get()) {
                return false;
            }
            QueueOfferResult result = queue.offer(TextMessage.create(text));
            if (result == QueueOfferResult.enqueued()) {
                return true;
            }
            if (closed.compareAndSet(false, true)) {
                queue.fail(new IllegalStateException("the client fell more than " + BUFFER + " messages behind"));
            }
            return false;
        }

        void ack(long seq, long step, boolean taken) {
            ObjectNode a = json.createObjectNode();
            a.put("ack", seq);
            a.put("step", step);
            a.put("taken", taken);
            offer(a.toString());
        }

        /** Closes the connection after a last message saying why. */
        void close(String reason) {
            ObjectNode e = json.createObjectNode();
            e.put("error", reason);
            if (offer(e.toString()) && closed.compareAndSet(false, true)) {
                queue.complete();
            }
        }
    }

    /** The connection's actor: subscribes, forwards frames, follows the room. */
    static final class Connection {
        /** The connection ended. */
        enum Closed {
            INSTANCE
        }

        /** No frame for a while: subscribe again. */
        enum Silence {
            INSTANCE
        }

        /** The room's actor that sent the frames ended. */
        record RoomGone(ActorRef<?> room) {
        }

        private Connection() {
        }

        @SuppressWarnings("unchecked")
        static <I> Behavior<Object> create(Rooms<I> rooms, String roomId, String player, Outbox outbox) {
            return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
                ActorRef<FramePiece> self = ctx.getSelf().narrow();
                // the connection joins the room's pieces itself, so a frame too big to join closes it saying why
                FrameJoin join = new FrameJoin(roomId, player);
                rooms.subscribePieces(roomId, player, self);
                timers.startSingleTimer(Silence.INSTANCE, SILENCE);
                long[] newestEpoch = {0};
                int[] attempts = {0};
                long[] lastFrameNanos = {System.nanoTime()};
                ActorRef<?>[] watched = {null};
                Runnable again = () -> {
                    attempts[0]++;
                    if (System.nanoTime() - lastFrameNanos[0] > FOLLOW.toNanos()) {
                        outbox.close("room '" + roomId + "' sent no frame for " + FOLLOW.toSeconds() + " s (" + attempts[0]
                                + " subscriptions); connect again later");
                        rooms.unsubscribePieces(roomId, player, self);
                        return;
                    }
                    rooms.subscribePieces(roomId, player, self);
                    long backoff = Math.min(MAX_BACKOFF_MILLIS, FIRST_BACKOFF_MILLIS << Math.min(attempts[0] - 1, 10));
                    timers.startSingleTimer(Silence.INSTANCE, Duration.ofMillis(backoff));
                };
                // watches the room's actor that sends: when it ends, the connection follows the room
                java.util.function.Consumer<ActorRef<?>> follow = room -> {
                    if (room != null && !room.equals(watched[0])) {
                        if (watched[0] != null) {
                            ctx.unwatch(watched[0]);
                        }
                        watched[0] = room;
                        ctx.watchWith((ActorRef<Object>) room, new RoomGone(room));
                    }
                };
                java.util.function.Function<Rooms.Frame, Behavior<Object>> frame = f -> {
                    if (f.epoch() < newestEpoch[0]) {
                        return Behaviors.same(); // a late frame of the room's older home
                    }
                    newestEpoch[0] = f.epoch();
                    follow.accept(f.room());
                    attempts[0] = 0;
                    lastFrameNanos[0] = System.nanoTime();
                    timers.startSingleTimer(Silence.INSTANCE, SILENCE);
                    if (!outbox.offer(f.text())) {
                        rooms.unsubscribePieces(roomId, player, self);
                        return Behaviors.stopped();
                    }
                    return Behaviors.same();
                };
                return Behaviors.receive(Object.class)
                        .onMessage(FramePiece.class, p -> {
                            if (p.epoch() >= newestEpoch[0]) {
                                follow.accept(p.room());
                            }
                            return switch (join.add(p)) {
                                case WHOLE -> frame.apply(join.whole());
                                case WAITING -> Behaviors.same();
                                case DROPPED -> {
                                    // a frame cut off is never shown: a new subscription brings a whole one
                                    rooms.subscribePieces(roomId, player, self);
                                    yield Behaviors.same();
                                }
                                case REFUSED -> {
                                    outbox.close(join.refusal());
                                    rooms.unsubscribePieces(roomId, player, self);
                                    yield Behaviors.stopped();
                                }
                            };
                        })
                        .onMessage(Rooms.Frame.class, frame::apply)
                        .onMessage(RoomGone.class, g -> {
                            join.roomGone(g.room());
                            if (g.room().equals(watched[0])) {
                                watched[0] = null;
                                again.run();
                            }
                            return Behaviors.same();
                        })
                        .onMessageEquals(Silence.INSTANCE, () -> {
                            again.run();
                            return Behaviors.same();
                        })
                        .onMessageEquals(Closed.INSTANCE, () -> {
                            rooms.unsubscribePieces(roomId, player, self);
                            return Behaviors.stopped();
                        })
                        .build();
            }));
        }
    }
}

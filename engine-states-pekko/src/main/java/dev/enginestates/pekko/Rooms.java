package dev.enginestates.pekko;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.sharding.typed.ClusterShardingSettings;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.serialization.jackson.JacksonObjectMapperProvider;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * The rooms of one kind on this node's cluster: {@link #start} makes this node a home for them
 * (cluster sharding places rooms on the nodes that started the kind and moves them off a dead
 * one), and the handle sends any room its commands, from any node.
 *
 * <ul>
 *   <li><b>A fixed-rate clock.</b> A room's timer looks every {@link RoomKind#tickMillis()} for
 *   the steps due since it opened and runs them (at most {@link RoomKind#maxCatchUp()} at once) as
 *   one journal event. A room back from a dead node is behind its clock and catches up.</li>
 *   <li><b>Commands once.</b> A command carries its sender's sequence number for its room (the
 *   game server and each player count their own); the answer comes once the journal has it. A
 *   sender's last command sent again (after a lost answer) is answered as the first time and not
 *   applied twice.</li>
 *   <li><b>Recovery</b> = the latest snapshot (the world's checkpoint and the game's part) restored,
 *   then the events after it replayed; remember-entities starts a moved room at once.</li>
 *   <li><b>Incarnations.</b> Each start of a room persists one more than its last
 *   ({@link Status#incarnation()}): the epoch of a stream of the room.</li>
 * </ul>
 *
 * @param <I> the game's command type
 */
public final class Rooms<I> {
    /**
     * The most characters of a frame one cluster message carries: a bigger frame goes as pieces,
     * joined again on the subscriber's node. Artery refuses a message above its
     * {@code maximum-frame-size} (256 KiB by default) and the frame's text goes as a JSON string,
     * where a character takes at most 6 bytes (a control character, escaped as six): 32 Ki
     * characters stay under 192 KiB, with room for the rest of the message.
     */
    public static final int PIECE_CHARS = 32 * 1024;
    /**
     * The longest frame a subscription joins from its pieces, in characters (16 Mi): a room or a
     * peer that sends more ends the subscription rather than make the node hold unbounded text.
     */
    public static final int MAX_FRAME_CHARS = 16 * 1024 * 1024;
    /** The default wait for a room's answer. */
    public static final Duration ASK_TIMEOUT = Duration.ofSeconds(5);
    /** The players a room takes commands from: it keeps each one's last answer in every snapshot. */
    public static final int MAX_SENDERS = 1024;

    /** The JDBC plugin's PostgreSQL schema, in its jar. */
    private static final String POSTGRES_SCHEMA = "schema/postgres/postgres-create-schema.sql";

    private final RoomKind<I> kind;
    private final ClusterSharding sharding;
    private final EntityTypeKey<RoomEntity.Command> type;
    private final ObjectMapper json;
    private final Duration askTimeout;
    /** This node's game actors' subscriptions, shared by the handles {@link #withAskTimeout} makes. */
    private final FrameJoiners joiners;

    private Rooms(RoomKind<I> kind, ClusterSharding sharding, EntityTypeKey<RoomEntity.Command> type, ObjectMapper json,
                  Duration askTimeout, FrameJoiners joiners) {
        this.kind = kind;
        this.sharding = sharding;
        this.type = type;
        this.json = json;
        this.askTimeout = askTimeout;
        this.joiners = joiners;
    }

    /**
     * Makes this node a home for the kind's rooms, hearing nothing of them.
     *
     * @param system the node's actor system, a cluster member or about to join; configured as {@link #config} gives
     * @param kind   the rooms' kind, the same on every node
     * @param <I>    the game's command type
     * @return the handle
     * @throws IllegalStateException if the kind has no opening or no application of commands
     */
    public static <I> Rooms<I> start(ActorSystem<?> system, RoomKind<I> kind) {
        return start(system, kind, RoomListener.NONE);
    }

    /**
     * Makes this node a home for the kind's rooms. Remember-entities is on (kept in the journal):
     * a room moved off a dead node starts on its new one at once, because its clock must go on.
     *
     * @param system   the node's actor system, a cluster member or about to join; configured as {@link #config} gives
     * @param kind     the rooms' kind, the same on every node
     * @param listener told of this node's rooms' recoveries and written steps
     * @param <I>      the game's command type
     * @return the handle
     * @throws IllegalStateException if the kind has no opening or no application of commands
     */
    public static <I> Rooms<I> start(ActorSystem<?> system, RoomKind<I> kind, RoomListener listener) {
        Objects.requireNonNull(system, "system");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(listener, "listener");
        kind.checkComplete();
        ObjectMapper json = JacksonObjectMapperProvider.get(system).getOrCreate("jackson-json", Optional.empty());
        String node = Cluster.get(system).selfMember().address().toString();
        EntityTypeKey<RoomEntity.Command> type = EntityTypeKey.create(RoomEntity.Command.class, kind.name());
        ClusterSharding sharding = ClusterSharding.get(system);
        ClusterShardingSettings settings = ClusterShardingSettings.create(system)
                .withRememberEntities(true)
                .withRememberEntitiesStoreMode(ClusterShardingSettings.rememberEntitiesStoreModeEventSourced());
        Duration linger = system.settings().config().getDuration("engine-states.rooms.unopened-linger");
        sharding.init(Entity.of(type, ctx -> RoomEntity.create(type, ctx.getEntityId(), kind, json, listener, node, ctx.getShard(), linger))
                .withSettings(settings)
                .withStopMessage(RoomEntity.Passivate.INSTANCE));
        return new Rooms<>(kind, sharding, type, json, ASK_TIMEOUT, new FrameJoiners(system));
    }

    /**
     * A handle that waits this long for each answer.
     *
     * @param timeout the wait; above 0
     * @return the handle
     */
    public Rooms<I> withAskTimeout(Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("rooms of " + kind.name() + ": the ask timeout must be above 0; found " + timeout);
        }
        return new Rooms<>(kind, sharding, type, json, timeout, joiners);
    }

    /**
     * Opens a room (its kind's {@link RoomKind#opens}) if it is not open yet. Its clock starts now.
     *
     * @param roomId the room
     * @return the answer: step 0 and taken, or the room's current step and not taken when it was open
     */
    public CompletionStage<Ack> open(String roomId) {
        return sharding.entityRefFor(type, roomId).ask(RoomEntity.Open::new, askTimeout);
    }

    /**
     * Sends a room the game server's own command. It is applied once per (room, seq): the last one
     * sent again is answered as the first time. The server sends a room's commands one at a time,
     * each again until answered, with sequence numbers from 1, rising; players' commands have
     * numbers of their own ({@link #send(String, String, long, Object)}).
     *
     * @param roomId  the room
     * @param seq     the sender's sequence number for this room
     * @param command the command
     * @return the answer once the journal has the command: the step it was applied at and whether
     *         it changed the room; step -1 for a room not open, an older sequence number or a command
     *         the room could not read. It fails with a timeout when the room did not answer in time
     *         (moving, its node gone): send the same command again
     * @throws IllegalArgumentException if the command is null or Jackson cannot write and read it back as the kind's command type
     */
    public CompletionStage<Ack> send(String roomId, long seq, I command) {
        JsonNode input = toJson(roomId, seq, command);
        return sharding.entityRefFor(type, roomId).ask(r -> new RoomEntity.Input(seq, null, input, r), askTimeout);
    }

    /**
     * Sends a room a player's command, as {@link #send(String, long, Object)} does the game
     * server's: the sequence numbers are the player's own for this room (from 1, rising, one at a
     * time), so players never take each other's numbers, and the room's application hears who sent
     * it ({@link RoomKind#appliesFrom}). A room keeps the last answer of at most
     * {@link #MAX_SENDERS} players; a command from one more is answered with step -1 and not applied.
     *
     * @param roomId  the room
     * @param player  the player who sent it, as the game identified it (1 to 128 characters)
     * @param seq     the player's sequence number for this room
     * @param command the command
     * @return the answer, as {@link #send(String, long, Object)} gives it
     * @throws IllegalArgumentException if the player's id is empty or above 128 characters, the
     *                                  command null or not written and read back by Jackson
     */
    public CompletionStage<Ack> send(String roomId, String player, long seq, I command) {
        if (player == null || player.isEmpty() || player.length() > 128) {
            throw new IllegalArgumentException("room '" + roomId + "' of " + kind.name() + ": command " + seq + " needs its player's id"
                    + " of 1 to 128 characters; found " + (player == null ? "null" : player.length() + " characters"));
        }
        JsonNode input = toJson(roomId, seq, command);
        return sharding.entityRefFor(type, roomId).ask(r -> new RoomEntity.Input(seq, player, input, r), askTimeout);
    }

    private JsonNode toJson(String roomId, long seq, I command) {
        if (command == null) {
            throw new IllegalArgumentException("room '" + roomId + "' of " + kind.name() + ": command " + seq + " is null");
        }
        try {
            JsonNode tree = json.valueToTree(command);
            // read back here, so a command the rooms could not replay is refused before any journal has it
            json.treeToValue(tree, kind.commandType());
            return tree;
        } catch (Exception e) {
            throw new IllegalArgumentException("room '" + roomId + "' of " + kind.name() + ": command " + seq + " (" + command
                    + ") cannot be written as JSON and read back as " + kind.commandType().getName()
                    + "; a sealed interface needs @JsonTypeInfo and @JsonSubTypes: " + e.getMessage(), e);
        }
    }

    /**
     * Subscribes a player's connection to a room's frames ({@link dev.enginestates.io.RoomStream}), from any node:
     * the room's home joins the player (its next frame is whole) and, after each step, sends the
     * connection the player's frame, of the room's incarnation as epoch. A room not yet
     * incarnated after a move sends once it is; one that is not open sends once it is opened, if
     * that is within {@code engine-states.rooms.unopened-linger} (5 s) of its start, after which a
     * room nobody opened is stopped with its subscriptions (subscribe to open rooms). The subscription lives on the room's actor: when the
     * room moves (the {@link Frame#room()} that sent the frames ends), subscribe again, and the new
     * home sends a whole frame of a larger epoch. Subscribing again where the room is starts the
     * player over with a whole frame.
     *
     * <p>Frames of any size arrive whole: the room sends a frame in pieces of at most
     * {@link #PIECE_CHARS} characters, each one cluster message, and an actor on this node joins
     * them for {@code to}. A frame whose pieces do not all arrive in order (the room moving
     * mid-frame) is dropped whole and the subscription made again, which brings a whole frame. A
     * frame above {@link #MAX_FRAME_CHARS} characters ends the subscription (a warning in the log):
     * {@code to} gets no more frames.
     *
     * @param roomId the room
     * @param player the player's id, as the room's {@link dev.enginestates.ecs.Owner} components name players
     * @param to     the connection's actor; watched by the room, so one that ends is forgotten
     */
    public void subscribe(String roomId, String player, ActorRef<Frame> to) {
        requirePlayer(roomId, player);
        Objects.requireNonNull(to, "to");
        subscribePieces(roomId, player, joiners.of(this, roomId, player, to));
    }

    /**
     * Subscribes an actor that joins the room's pieces itself, such as a WebSocket connection.
     *
     * @param roomId the room
     * @param player the player's id
     * @param to     the actor, watched by the room
     */
    void subscribePieces(String roomId, String player, ActorRef<FramePiece> to) {
        sharding.entityRefFor(type, roomId).tell(new RoomEntity.Subscribe(player, to));
    }

    /**
     * Ends the subscription of an actor that joins the room's pieces itself.
     *
     * @param roomId the room
     * @param player the player's id
     * @param to     the actor, as subscribed
     */
    void unsubscribePieces(String roomId, String player, ActorRef<FramePiece> to) {
        sharding.entityRefFor(type, roomId).tell(new RoomEntity.Unsubscribe(player, to));
    }

    /**
     * Ends a connection's subscription to a room's frames; the room forgets a player with no connection left.
     *
     * @param roomId the room
     * @param player the player's id
     * @param to     the connection's actor, as subscribed
     */
    public void unsubscribe(String roomId, String player, ActorRef<Frame> to) {
        requirePlayer(roomId, player);
        Objects.requireNonNull(to, "to");
        ActorRef<FramePiece> joiner = joiners.remove(roomId, player, to);
        if (joiner != null) {
            unsubscribePieces(roomId, player, joiner);
        }
    }

    private void requirePlayer(String roomId, String player) {
        if (player == null || player.isEmpty()) {
            throw new IllegalArgumentException("room '" + roomId + "' of " + kind.name() + ": a subscription needs the player's id"
                    + " (as its entities' Owner names it); found " + (player == null ? "null" : "''"));
        }
    }

    /**
     * Reads a game command from its JSON, as a player's connection sends it.
     *
     * @param roomId  the room, for the message
     * @param seq     the command's sequence number, for the message
     * @param command the command's JSON
     * @return the command
     * @throws IllegalArgumentException if it is not the kind's command type
     */
    I command(String roomId, long seq, JsonNode command) {
        try {
            I read = json.treeToValue(command, kind.commandType());
            if (read == null) {
                throw new IllegalArgumentException("null");
            }
            return read;
        } catch (Exception e) {
            throw new IllegalArgumentException("room '" + roomId + "' of " + kind.name() + ": command " + seq + " cannot be read as "
                    + kind.commandType().getSimpleName() + ": " + e.getMessage(), e);
        }
    }

    /**
     * The mapper the rooms write their JSON with (Pekko's {@code jackson-json}).
     *
     * @return the mapper
     */
    ObjectMapper json() {
        return json;
    }

    /**
     * Asks a room where it runs and how.
     *
     * @param roomId the room
     * @return its status
     */
    public CompletionStage<Status> status(String roomId) {
        return sharding.entityRefFor(type, roomId).ask(RoomEntity.GetStatus::new, askTimeout);
    }

    /**
     * Asks a room for its world's dump.
     *
     * @param roomId the room
     * @return the dump and the step it was taken at
     */
    public CompletionStage<Dump> dump(String roomId) {
        return sharding.entityRefFor(type, roomId).ask(RoomEntity.GetDump::new, askTimeout);
    }

    /**
     * The rooms' kind.
     *
     * @return the kind
     */
    public RoomKind<I> kind() {
        return kind;
    }

    /**
     * A node's configuration: the game's settings over its {@code application.conf}, over the
     * library's {@code engine-states-pekko.conf} (cluster provider, split-brain resolver, the JDBC
     * journal and snapshot store on an in-memory H2 database), over Pekko's defaults; system
     * properties over all. A deployment sets {@code engine-states.rooms.jdbc.*} to its database,
     * and the node's host and seed nodes.
     *
     * @param settings the game's own settings, such as {@code ConfigFactory.parseMap(Map.of("engine-states.rooms.jdbc.url", url))}
     * @return the configuration, resolved
     */
    public static Config config(Config settings) {
        Config library = ConfigFactory.parseResources(Rooms.class, "/engine-states-pekko.conf",
                ConfigParseOptions.defaults().setAllowMissing(false));
        return ConfigFactory.load(settings.withFallback(ConfigFactory.defaultApplication()).withFallback(library));
    }

    /**
     * Creates the journal's and snapshot store's tables in an H2 database if they are not there
     * (the JDBC plugin's own H2 script). PostgreSQL has {@link #createPostgresTables}; another
     * database runs the plugin's script for it once.
     *
     * @param jdbcUrl the database, such as {@code jdbc:h2:mem:rooms;DB_CLOSE_DELAY=-1}
     * @throws SQLException if the database refuses them
     */
    public static void createH2Tables(String jdbcUrl) throws SQLException {
        try (Connection c = DriverManager.getConnection(jdbcUrl, "sa", ""); Statement s = c.createStatement()) {
            s.execute("RUNSCRIPT FROM 'classpath:/schema/h2/h2-create-schema.sql'");
        }
    }

    /**
     * Creates the journal's and snapshot store's tables in a PostgreSQL database if they are not
     * there: the JDBC plugin's own {@code schema/postgres/postgres-create-schema.sql}, one statement
     * at a time (two of its indexes are made {@code CONCURRENTLY}, which PostgreSQL refuses when the
     * driver sends the script whole, as one pipeline). Needs the PostgreSQL driver on the class path.
     *
     * @param jdbcUrl  the database, such as {@code jdbc:postgresql://db:5432/rooms}
     * @param user     its user, allowed to create tables in its {@code public} schema
     * @param password the user's password
     * @throws SQLException if the database refuses them
     */
    public static void createPostgresTables(String jdbcUrl, String user, String password) throws SQLException {
        String script = POSTGRES_SCHEMA;
        try (InputStream in = Rooms.class.getClassLoader().getResourceAsStream(script)) {
            if (in == null) {
                throw new IllegalStateException("the rooms' PostgreSQL tables: " + script + " is not on the class path;"
                        + " it comes with org.apache.pekko:pekko-persistence-jdbc_2.13, which engine-states-pekko depends on");
            }
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("the rooms' PostgreSQL tables: " + POSTGRES_SCHEMA + " could not be read", e);
        }
        try (Connection c = DriverManager.getConnection(jdbcUrl, user, password)) {
            // the script's indexes are not "if not exists": the journal's table says whether it ran
            try (ResultSet there = c.getMetaData().getTables(null, "public", "event_journal", null)) {
                if (there.next()) {
                    return;
                }
            }
            try (Statement s = c.createStatement()) {
                for (String statement : script.split(";")) {
                    if (!statement.isBlank()) {
                        s.execute(statement);
                    }
                }
            }
        }
    }

    /**
     * A command's answer.
     *
     * @param seq   the command's sequence number (0 for an open)
     * @param step  the step it was applied at (after that many steps, before the next); -1 when it was refused
     * @param taken whether it changed the room
     */
    public record Ack(long seq, long step, boolean taken) implements RoomMessage {
    }

    /**
     * Where a room runs and how it came there.
     *
     * @param roomId        the room
     * @param node          the node running it
     * @param steps         its world's steps (-1 when not open)
     * @param midWait       machines part-way through a wait
     * @param recoveredAt   the steps its world had when this incarnation finished recovering
     * @param recoveryNanos how long that recovery took
     * @param incarnation   this incarnation's number, from its journal (0 until persisted): the epoch of a stream of the room
     */
    public record Status(String roomId, String node, long steps, int midWait, long recoveredAt, long recoveryNanos, long incarnation)
            implements RoomMessage {
    }

    /**
     * One frame of a room's stream for one player, whole, handed to each of the player's subscribed
     * actors on that actor's node (the room sends it across the cluster in pieces).
     *
     * @param roomId the room
     * @param epoch  the stream's epoch: the incarnation of the room's home that made it
     * @param text   the frame's JSON text, for the player's {@link dev.enginestates.io.Replica#apply}
     * @param room   the room's actor that sent it: a connection watches it to follow the room when it moves
     */
    public record Frame(String roomId, long epoch, String text, ActorRef<?> room) implements RoomMessage {
    }

    /**
     * A room's dump.
     *
     * @param roomId the room
     * @param steps  the step it was taken at (-1 when not open)
     * @param dump   the world's dump text ({@link Room#dump()}); empty when not open
     */
    public record Dump(String roomId, long steps, String dump) implements RoomMessage {
    }

    @Override
    public String toString() {
        return "rooms of " + kind;
    }
}

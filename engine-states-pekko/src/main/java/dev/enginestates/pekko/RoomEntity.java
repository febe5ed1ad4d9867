package dev.enginestates.pekko;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.enginestates.io.RoomStream;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.RecoveryCompleted;
import org.apache.pekko.persistence.typed.SnapshotAdapter;
import org.apache.pekko.persistence.typed.SnapshotCompleted;
import org.apache.pekko.persistence.typed.javadsl.CommandHandler;
import org.apache.pekko.persistence.typed.javadsl.Effect;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehavior;
import org.apache.pekko.persistence.typed.javadsl.SignalHandler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A room as a sharded, event-sourced Pekko entity. Every input its world sees is an event in
 * the journal: the game's commands ({@link Event.Applied}) and the timer's steps
 * ({@link Event.Stepped}), so a replay sees them in the order the room did. Each time the step
 * count crosses a multiple of the kind's snapshot cadence, the world's checkpoint is the
 * snapshot. A room that comes back (on another node after its node died) restores the latest
 * snapshot, replays the events after it, then runs the steps its clock missed while it was away.
 *
 * <p>Each time the room starts, on whichever node, it persists its incarnation
 * ({@link Event.Incarnated}), one more than the last in its journal: the epoch of a stream of the
 * room to players' replicas. The snapshot alone would not give it: a room that dies before its
 * next snapshot is restored from the same one again.
 *
 * <p>With {@link RoomKind#keepSnapshots} a saved snapshot makes a {@link JournalTrim} delete the
 * events and snapshots the oldest kept snapshot covers, one trim at a time.
 *
 * <p>Once open and incarnated, the room keeps a {@link RoomStream} of that epoch and, after each
 * step and after each command it applies, sends each subscribed player's connections the player's frame, in pieces of at most
 * {@link Rooms#PIECE_CHARS} characters ({@link FramePiece}) so that a frame of any size crosses the cluster. Subscriptions live on
 * the actor only: after a move, connections subscribe again on the new home (and get a whole frame).
 *
 * @param <I> the game's command type
 */
final class RoomEntity<I> extends EventSourcedBehavior<RoomEntity.Command, RoomEntity.Event, RoomEntity.State<I>> {
    /** What a room is told. */
    sealed interface Command extends RoomMessage {
    }

    /** Opens the room if it is not open yet; answered with step 0's ack, or the current step when it was open. */
    record Open(ActorRef<Rooms.Ack> replyTo) implements Command {
    }

    /**
     * A game command, as JSON, from a player or ({@code sender} null) the game server: sequence
     * numbers are each sender's own; one already applied is only answered.
     */
    record Input(long seq, String sender, JsonNode input, ActorRef<Rooms.Ack> replyTo) implements Command {
    }

    /** Asks where the room is and how it runs. */
    record GetStatus(ActorRef<Rooms.Status> replyTo) implements Command {
    }

    /** Asks for the world's dump. */
    record GetDump(ActorRef<Rooms.Dump> replyTo) implements Command {
    }

    /**
     * A player's connection asks for the room's frames: its next frame is whole. Watched, so a
     * connection that ends is unsubscribed.
     */
    record Subscribe(String player, ActorRef<FramePiece> to) implements Command {
    }

    /** A player's connection no longer wants the room's frames. */
    record Unsubscribe(String player, ActorRef<FramePiece> to) implements Command {
    }

    /** The room's timer. */
    enum Tick implements Command {
        INSTANCE
    }

    /** Sent to itself once recovered: persists the room's next incarnation (a signal handler cannot persist). */
    enum Incarnate implements Command {
        INSTANCE
    }

    /** Sent to itself a while after it started unopened: a room nobody opened is not kept. */
    enum Linger implements Command {
        INSTANCE
    }

    /** The room's {@link JournalTrim} ended (done or given up): the next saved snapshot may start another. */
    enum Trimmed implements Command {
        INSTANCE
    }

    /** Stops the room when sharding hands it off. */
    enum Passivate implements Command {
        INSTANCE
    }

    /** What the journal keeps of a room. */
    sealed interface Event extends RoomMessage {
        /** The room opened; its steps follow the clock from {@code atMillis}. */
        record Opened(long atMillis) implements Event {
        }

        /** A game command was applied, as JSON, with its sender: a player, or null for the game server (and in older journals). */
        record Applied(long seq, String sender, JsonNode input) implements Event {
        }

        /** The room started on a node: one more than the last incarnation in the journal, from 1. */
        record Incarnated(long incarnation) implements Event {
        }

        /** The timer ran this many fixed steps. */
        record Stepped(int count) implements Event {
        }
    }

    /** The snapshot: the world's checkpoint, the game's part and the room's bookkeeping. */
    record Saved(long openedAtMillis, long lastSeq, long lastStep, boolean lastTaken, long incarnation, String checkpoint,
                 Map<String, String> owners, JsonNode part, Map<String, Answer> players) implements RoomMessage {
    }

    /** A sender's last command's answer: sent again, it is answered so and not applied again. */
    record Answer(long seq, long step, boolean taken) {
        static final Answer NONE = new Answer(0, -1, false);
    }

    /** The room's state, on the actor only: its world (null until opened) and the last command's answer. */
    static final class State<I> {
        Room<I> room;
        long openedAtMillis;
        long lastSeq;
        long lastStep = -1;
        boolean lastTaken;
        /** Each player's last answer, by player, for the players who sent commands. */
        final Map<String, Answer> players = new LinkedHashMap<>();

        Answer last(String sender) {
            return sender == null ? new Answer(lastSeq, lastStep, lastTaken) : players.getOrDefault(sender, Answer.NONE);
        }
        long incarnation;
    }

    private final String roomId;
    private final RoomKind<I> kind;
    private final ObjectMapper json;
    private final RoomListener listener;
    private final String node;
    private final TimerScheduler<Command> timers;
    private final ActorContext<Command> context;
    private final ActorRef<ClusterSharding.ShardCommand> shard;
    private final Duration linger;
    /** The players' connections on this incarnation, by player, in the order they subscribed. */
    private final Map<String, List<ActorRef<FramePiece>>> subscribers = new LinkedHashMap<>();
    /** The room's stream to its players, made once the incarnation is persisted and the room open: its epoch is the incarnation. */
    private RoomStream stream;
    private final long startNanos = System.nanoTime();
    private long recoveredAt = -1;
    private long recoveryNanos = -1;
    /** Whether this incarnation's number is in the journal: until then the room has no epoch to stream with. */
    private boolean incarnated;
    /**
     * The sequence numbers of the snapshots this incarnation saved, the last {@link RoomKind#keepSnapshots} of them in a
     * ring; null when the journal keeps everything. Only snapshots seen saved count, so a trim never goes past one.
     */
    private final long[] kept;
    /** How many snapshots this incarnation saved. */
    private long saved;
    /** Whether a {@link JournalTrim} of this room runs. */
    private boolean trimming;
    /** Whether a snapshot was saved while a trim ran: once it ends, another trims up to the oldest kept snapshot then. */
    private boolean trimAgain;

    private RoomEntity(EntityTypeKey<Command> type, String roomId, RoomKind<I> kind, ObjectMapper json, RoomListener listener,
                       String node, ActorRef<ClusterSharding.ShardCommand> shard, Duration linger, TimerScheduler<Command> timers,
                       ActorContext<Command> context) {
        super(PersistenceId.of(type.name(), roomId),
                SupervisorStrategy.restartWithBackoff(Duration.ofMillis(200), Duration.ofSeconds(2), 0.1));
        this.roomId = roomId;
        this.kind = kind;
        this.json = json;
        this.listener = listener;
        this.node = node;
        this.timers = timers;
        this.context = context;
        this.shard = shard;
        this.linger = linger;
        this.kept = kind.keepSnapshots() > 0 ? new long[kind.keepSnapshots()] : null;
    }

    static <I> Behavior<Command> create(EntityTypeKey<Command> type, String roomId, RoomKind<I> kind, ObjectMapper json,
                                        RoomListener listener, String node, ActorRef<ClusterSharding.ShardCommand> shard,
                                        Duration linger) {
        return Behaviors.setup(context -> Behaviors.withTimers(timers -> new RoomEntity<>(type, roomId, kind, json, listener, node,
                shard, linger, timers, context)));
    }

    @Override
    public State<I> emptyState() {
        return new State<>();
    }

    @Override
    public CommandHandler<Command, Event, State<I>> commandHandler() {
        return newCommandHandlerBuilder().forAnyState()
                .onCommand(Open.class, (s, c) -> s.room != null
                        ? Effect().reply(c.replyTo(), new Rooms.Ack(0, s.room.steps(), false))
                        // opened and incarnated at once: a room starts to run, and to be kept, only when opened
                        : Effect().persist(List.of(new Event.Opened(kind.now()), new Event.Incarnated(s.incarnation + 1)))
                                .thenRun(st -> {
                                    incarnated = true;
                                    run();
                                    sendFrames(st);
                                })
                                .thenReply(c.replyTo(), st -> new Rooms.Ack(0, 0, true)))
                .onCommand(Linger.class, (s, c) -> {
                    if (s.room == null) {
                        // nobody opened it: the shard stops it and forgets it (remember-entities included)
                        shard.tell(new ClusterSharding.Passivate<>(context.getSelf()));
                    }
                    return Effect().none();
                })
                .onCommand(Input.class, this::onInput)
                .onCommand(Tick.class, this::onTick)
                .onCommand(Incarnate.class, (s, c) -> Effect().persist(new Event.Incarnated(s.incarnation + 1))
                        .thenRun(st -> {
                            incarnated = true;
                            sendFrames(st);
                        }))
                .onCommand(Subscribe.class, this::onSubscribe)
                .onCommand(Unsubscribe.class, this::onUnsubscribe)
                .onCommand(GetStatus.class, (s, c) -> Effect().reply(c.replyTo(), new Rooms.Status(roomId, node,
                        s.room == null ? -1 : s.room.steps(), s.room == null ? 0 : s.room.midWait(), recoveredAt, recoveryNanos,
                        incarnated ? s.incarnation : 0)))
                .onCommand(GetDump.class, (s, c) -> Effect().reply(c.replyTo(), new Rooms.Dump(roomId,
                        s.room == null ? -1 : s.room.steps(), s.room == null ? "" : s.room.dump())))
                .onCommand(Trimmed.class, (s, c) -> {
                    trimming = false;
                    if (trimAgain) {
                        trimAgain = false;
                        trim();
                    }
                    return Effect().none();
                })
                .onCommand(Passivate.class, (s, c) -> Effect().stop())
                .build();
    }

    private Effect<Event, State<I>> onInput(State<I> s, Input c) {
        if (s.room == null) {
            return Effect().reply(c.replyTo(), new Rooms.Ack(c.seq(), -1, false));
        }
        Answer last = s.last(c.sender());
        if (c.seq() <= last.seq()) {
            // sent again after a lost answer: answered as the first time, applied once
            boolean again = c.seq() == last.seq();
            return Effect().reply(c.replyTo(), new Rooms.Ack(c.seq(), again ? last.step() : -1, again && last.taken()));
        }
        if (c.sender() != null && !s.players.containsKey(c.sender()) && s.players.size() >= Rooms.MAX_SENDERS) {
            // each sender's last answer is kept for good (in every snapshot): a room takes commands from so many players
            return Effect().reply(c.replyTo(), new Rooms.Ack(c.seq(), -1, false));
        }
        try {
            command(c.input(), c.seq());
        } catch (IllegalArgumentException e) {
            // refused before it is written: in the journal it would fail every replay (Rooms.send checks this first)
            return Effect().reply(c.replyTo(), new Rooms.Ack(c.seq(), -1, false));
        }
        // the players see a command's effect at once, not only at the next step
        return Effect().persist(new Event.Applied(c.seq(), c.sender(), c.input())).thenRun(this::sendFrames)
                .thenReply(c.replyTo(), st -> {
                    Answer a = st.last(c.sender());
                    return new Rooms.Ack(c.seq(), a.step(), a.taken());
                });
    }

    private Effect<Event, State<I>> onTick(State<I> s, Tick t) {
        if (s.room == null) {
            return Effect().none();
        }
        // the steps due by the clock since the room opened: a room back from a dead node catches up
        long due = (long) Math.floor((kind.now() - s.openedAtMillis) / (kind.stepSeconds() * 1000));
        long behind = due - s.room.steps();
        if (behind <= 0) {
            return Effect().none();
        }
        return Effect().persist(new Event.Stepped((int) Math.min(behind, kind.maxCatchUp())))
                .thenRun(st -> {
                    long steps = st.room.steps();
                    tell("stepsPersisted", () -> listener.stepsPersisted(roomId, node, steps));
                    sendFrames(st);
                });
    }

    private Effect<Event, State<I>> onSubscribe(State<I> s, Subscribe c) {
        List<ActorRef<FramePiece>> refs = subscribers.computeIfAbsent(c.player(), p -> new ArrayList<>());
        if (!refs.contains(c.to())) {
            refs.add(c.to());
            // a connection that ends (its node gone included) leaves without saying so
            context.watchWith(c.to(), new Unsubscribe(c.player(), c.to()));
        }
        if (streams(s)) {
            // a connection back after a move or a silence starts over: its next frame is whole, sent now
            stream.join(c.player());
            send(c.player(), s.room.frame(stream, c.player()));
        }
        return Effect().none();
    }

    private Effect<Event, State<I>> onUnsubscribe(State<I> s, Unsubscribe c) {
        List<ActorRef<FramePiece>> refs = subscribers.get(c.player());
        if (refs != null && refs.remove(c.to())) {
            context.unwatch(c.to());
            if (refs.isEmpty()) {
                subscribers.remove(c.player());
                if (stream != null) {
                    stream.leave(c.player());
                }
            }
        }
        return Effect().none();
    }

    /**
     * The game's code threw in the room: told to the listener once, when it happens; a recovery
     * replays the same throw without telling again. A listener that throws does not stop the room.
     */
    private void failed(String where, RuntimeException error) {
        if (recoveryNanos < 0) {
            return; // replaying the journal: told when it first happened
        }
        try {
            listener.failed(roomId, node, where, error);
        } catch (RuntimeException listenerFailed) {
            error.addSuppressed(listenerFailed);
            RoomListener.NONE.failed(roomId, node, where, error);
        }
    }

    /** Calls the game's listener: one that throws is logged and the room goes on (a throw here would fail the room's start). */
    private void tell(String call, Runnable listening) {
        try {
            listening.run();
        } catch (RuntimeException e) {
            SparseLog.ROOM_FAILURES.warn("room '" + roomId + "' on " + node + ": the game's listener threw in " + call
                    + "; the room goes on", e);
        }
    }

    /** Starts the room's clock: its timer looks for due steps. */
    private void run() {
        timers.cancel(Linger.INSTANCE);
        timers.startTimerAtFixedRate(Tick.INSTANCE, Duration.ofMillis(kind.tickMillis()));
    }

    /**
     * A snapshot is saved: with {@link RoomKind#keepSnapshots} on and as many snapshots seen saved, deletes what the
     * oldest kept one covers. While a trim runs, the next starts when it ends.
     */
    private void snapshotSaved(long sequenceNr) {
        if (kept == null) {
            return;
        }
        kept[(int) (saved % kept.length)] = sequenceNr;
        saved++;
        if (saved < kept.length) {
            return;
        }
        if (trimming) {
            trimAgain = true;
        } else {
            trim();
        }
    }

    /** Starts a {@link JournalTrim} up to the oldest of the snapshots kept: the slot the next snapshot will take. */
    private void trim() {
        long oldestKept = kept[(int) (saved % kept.length)];
        org.apache.pekko.actor.ActorRef trim = Adapter.actorOf(context, JournalTrim.props(persistenceId().id(), oldestKept));
        context.watchWith(Adapter.toTyped(trim), Trimmed.INSTANCE);
        trimming = true;
    }

    /** After a step (or once the room can stream): each subscribed player's frame to its connections. */
    private void sendFrames(State<I> s) {
        if (subscribers.isEmpty() || !streams(s)) {
            return;
        }
        for (Map.Entry<String, String> f : s.room.frames(stream).entrySet()) {
            send(f.getKey(), f.getValue());
        }
    }

    /** Whether the room streams, making its stream when it first can: open, and its incarnation (the epoch) persisted. */
    private boolean streams(State<I> s) {
        if (stream == null && s.room != null && incarnated) {
            stream = s.room.stream(s.incarnation);
            subscribers.keySet().forEach(stream::join);
        }
        return stream != null;
    }

    /** A player's frame to its connections, in pieces that each fit one cluster message; each connection gets them in order. */
    private void send(String player, String frame) {
        List<ActorRef<FramePiece>> refs = subscribers.get(player);
        if (refs == null) {
            return;
        }
        int count = FramePiece.count(frame);
        int start = 0;
        for (int i = 0; i < count; i++) {
            int end = FramePiece.end(frame, start);
            FramePiece piece = new FramePiece(roomId, stream.epoch(), context.getSelf(), i, count,
                    count == 1 ? frame : frame.substring(start, end));
            start = end;
            for (ActorRef<FramePiece> ref : refs) {
                ref.tell(piece);
            }
        }
    }

    private I command(JsonNode input, long seq) {
        try {
            return json.treeToValue(input, kind.commandType());
        } catch (Exception e) {
            throw new IllegalArgumentException("room '" + roomId + "' of " + kind.name() + ": command " + seq + " cannot be read as "
                    + kind.commandType().getName() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public EventHandler<State<I>, Event> eventHandler() {
        return newEventHandlerBuilder().forAnyState()
                .onEvent(Event.Opened.class, (s, e) -> {
                    s.room = Room.open(kind, roomId, this::failed);
                    s.openedAtMillis = e.atMillis();
                    return s;
                })
                .onEvent(Event.Applied.class, (s, e) -> {
                    boolean taken = s.room.apply(e.sender(), command(e.input(), e.seq()));
                    if (e.sender() == null) {
                        s.lastTaken = taken;
                        s.lastSeq = e.seq();
                        s.lastStep = s.room.steps();
                    } else {
                        s.players.put(e.sender(), new Answer(e.seq(), s.room.steps(), taken));
                    }
                    return s;
                })
                .onEvent(Event.Incarnated.class, (s, e) -> {
                    s.incarnation = e.incarnation();
                    return s;
                })
                .onEvent(Event.Stepped.class, (s, e) -> {
                    s.room.step(e.count());
                    return s;
                })
                .build();
    }

    @Override
    public boolean shouldSnapshot(State<I> state, Event event, long sequenceNr) {
        if (!(event instanceof Event.Stepped stepped)) {
            return false;
        }
        long now = state.room.steps();
        long every = kind.snapshotEvery();
        return now / every != (now - stepped.count()) / every;
    }

    @Override
    public SnapshotAdapter<State<I>> snapshotAdapter() {
        // the snapshot store writes on its own threads: it gets an immutable copy made here, on the room's actor
        return new SnapshotAdapter<>() {
            @Override
            public Object toJournal(State<I> s) {
                return new Saved(s.openedAtMillis, s.lastSeq, s.lastStep, s.lastTaken, s.incarnation, s.room.checkpoint(),
                        s.room.owners(), s.room.part(json), Map.copyOf(s.players));
            }

            @Override
            public State<I> fromJournal(Object from) {
                Saved saved = (Saved) from;
                State<I> s = new State<>();
                s.room = Room.restore(kind, roomId, saved.checkpoint(), saved.owners(), saved.part(), json);
                s.room.reportFailuresTo(RoomEntity.this::failed);
                s.openedAtMillis = saved.openedAtMillis();
                s.lastSeq = saved.lastSeq();
                s.lastStep = saved.lastStep();
                s.lastTaken = saved.lastTaken();
                if (saved.players() != null) {
                    s.players.putAll(saved.players());
                }
                s.incarnation = saved.incarnation();
                return s;
            }
        };
    }

    @Override
    public SignalHandler<State<I>> signalHandler() {
        return newSignalHandlerBuilder()
                .onSignal(RecoveryCompleted.instance(), s -> {
                    recoveryNanos = System.nanoTime() - startNanos;
                    recoveredAt = s.room == null ? -1 : s.room.steps();
                    Runnable recovered = () -> listener.recovered(roomId, node, recoveredAt, s.lastSeq, recoveryNanos, s.room);
                    if (s.room == null) {
                        tell("recovered", recovered);
                    } else {
                        s.room.lend(() -> tell("recovered", recovered));
                    }
                    if (s.room != null) {
                        run();
                        timers.startSingleTimer(Incarnate.INSTANCE, Duration.ZERO);
                    } else {
                        // a room id nobody opened (a status asked, a player's connection, a typo, an attacker's guess):
                        // no timer, nothing in the journal, and gone after a while
                        timers.startSingleTimer(Linger.INSTANCE, linger);
                    }
                })
                .onSignal(SnapshotCompleted.class, (s, done) -> snapshotSaved(done.metadata().sequenceNr()))
                .onSignal(PostStop.instance(), s -> {
                    if (s.room != null) {
                        s.room.close();
                    }
                })
                .build();
    }
}

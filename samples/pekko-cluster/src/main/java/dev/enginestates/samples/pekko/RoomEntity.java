package dev.enginestates.samples.pekko;

import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.RecoveryCompleted;
import org.apache.pekko.persistence.typed.SnapshotAdapter;
import org.apache.pekko.persistence.typed.javadsl.CommandHandler;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehavior;
import org.apache.pekko.persistence.typed.javadsl.SignalHandler;

import java.time.Duration;

/**
 * A room as a sharded, event-sourced Pekko entity. Every input the room's world sees is an
 * event in the journal: the game's commands ({@link Event.Applied}) and the timer's steps
 * ({@link Event.Stepped}), so a replay sees them in the order the room did. Every
 * {@link RoomDefinition#snapshotEvery()} steps the world's checkpoint is the snapshot. A room
 * that comes back (on another node after its node died) restores the latest snapshot, replays
 * the events after it, and then runs the steps its clock missed while it was away.
 *
 * <p>Commands carry the sender's sequence number: a command sent again after a lost reply is
 * answered, not applied twice.
 *
 * <p>Each time the room starts, on whichever node, it persists its incarnation ({@link Event.Incarnated}):
 * one more than the last one in its journal. A stream of the room to players' replicas takes it
 * as its epoch ({@code RoomStream.of(world, incarnation, ...)}), so replicas take the frames of the
 * room's new home over any late ones of the home it left. The snapshot alone would not do: a
 * room that dies before its next snapshot is restored from the same one again.
 */
public final class RoomEntity extends EventSourcedBehavior<RoomEntity.Command, RoomEntity.Event, RoomEntity.State> {
    /** The rooms' entity type in cluster sharding. */
    public static final EntityTypeKey<Command> TYPE_KEY = EntityTypeKey.create(Command.class, "room");

    /** What a room is told. */
    public sealed interface Command extends JsonSerializable {
    }

    /**
     * Opens the room (spawns its guards) if it is not open yet.
     *
     * @param replyTo answered with step 0's ack, or the room's current step when it was open
     */
    public record Open(ActorRef<Ack> replyTo) implements Command {
    }

    /**
     * A game command.
     *
     * @param seq     the sender's sequence number for this room, from 1, rising; one already applied is only answered
     * @param input   the command
     * @param replyTo told once the command is in the journal
     */
    public record Input(long seq, RoomInput input, ActorRef<Ack> replyTo) implements Command {
    }

    /**
     * Asks where the room is and how it runs.
     *
     * @param replyTo told the status
     */
    public record GetStatus(ActorRef<Status> replyTo) implements Command {
    }

    /**
     * Asks for the world's dump.
     *
     * @param replyTo told the dump and the step it was taken at
     */
    public record GetDump(ActorRef<Dump> replyTo) implements Command {
    }

    /** The room's timer. */
    enum Tick implements Command {
        INSTANCE
    }

    /** Sent to itself once recovered: persists the room's next incarnation. */
    enum Incarnate implements Command {
        INSTANCE
    }

    /** Stops the room when sharding hands it off. */
    public enum Passivate implements Command {
        /** The one message. */
        INSTANCE
    }

    /**
     * A command's answer.
     *
     * @param seq   the command's sequence number (0 for an open)
     * @param step  the step the command was applied at: after that many steps, before the next; -1 when it was refused
     * @param taken whether it changed the room
     */
    public record Ack(long seq, long step, boolean taken) implements JsonSerializable {
    }

    /**
     * Where a room is and how it came there.
     *
     * @param roomId        the room
     * @param node          the node running it
     * @param steps         its world's steps
     * @param midWait       guards part-way through a wait
     * @param recoveredAt   the steps its world had when this incarnation finished recovering
     * @param recoveryNanos how long that recovery took
     * @param incarnation   this incarnation's number, from its journal (0 until persisted): the epoch of a stream of the room
     */
    public record Status(String roomId, String node, long steps, int midWait, long recoveredAt, long recoveryNanos, long incarnation)
            implements JsonSerializable {
    }

    /**
     * A room's dump.
     *
     * @param roomId the room
     * @param steps  the step it was taken at
     * @param dump   the world's dump text
     */
    public record Dump(String roomId, long steps, String dump) implements JsonSerializable {
    }

    /** What the journal keeps of a room. */
    public sealed interface Event extends JsonSerializable {
        /**
         * The room opened.
         *
         * @param atMillis the wall clock's milliseconds at step 0: the room's steps follow this clock
         */
        record Opened(long atMillis) implements Event {
        }

        /**
         * A game command was applied.
         *
         * @param seq   its sequence number
         * @param input the command
         */
        record Applied(long seq, RoomInput input) implements Event {
        }

        /**
         * The room started on a node.
         *
         * @param incarnation one more than the last incarnation in the journal, from 1
         */
        record Incarnated(long incarnation) implements Event {
        }

        /**
         * The timer ran steps.
         *
         * @param count how many fixed steps
         */
        record Stepped(int count) implements Event {
        }
    }

    /**
     * The snapshot: the world's and the room's bookkeeping.
     *
     * @param openedAtMillis when the room opened
     * @param lastSeq        the last command's sequence number
     * @param lastStep       the step it was applied at
     * @param lastTaken      whether it changed the room
     * @param incarnation    the last incarnation persisted
     * @param world          the world
     */
    public record Saved(long openedAtMillis, long lastSeq, long lastStep, boolean lastTaken, long incarnation, RoomSnapshot world)
            implements JsonSerializable {
    }

    /** The room's state: its world (null until opened) and the last command's answer. Lives on the actor only. */
    public static final class State {
        Room room;
        long openedAtMillis;
        long lastSeq;
        long lastStep = -1;
        boolean lastTaken;
        long incarnation;
    }

    private final String roomId;
    private final RoomDefinition definition;
    private final RoomProbe probe;
    private final String node;
    private final TimerScheduler<Command> timers;
    private final long startNanos = System.nanoTime();
    private long recoveredAt = -1;
    private long recoveryNanos = -1;
    /** Whether this incarnation's number is in the journal: until then the room has no epoch to stream with. */
    private boolean incarnated;

    private RoomEntity(String roomId, RoomDefinition definition, RoomProbe probe, String node, TimerScheduler<Command> timers) {
        super(PersistenceId.of(TYPE_KEY.name(), roomId),
                SupervisorStrategy.restartWithBackoff(Duration.ofMillis(200), Duration.ofSeconds(2), 0.1));
        this.roomId = roomId;
        this.definition = definition;
        this.probe = probe;
        this.node = node;
        this.timers = timers;
    }

    /**
     * The room's behaviour, for cluster sharding's entity factory.
     *
     * @param roomId     the entity's id
     * @param definition what rooms hold
     * @param probe      told of recoveries and written steps
     * @param node       this node's address, for the probe and the status
     * @return the behaviour
     */
    public static Behavior<Command> create(String roomId, RoomDefinition definition, RoomProbe probe, String node) {
        return Behaviors.withTimers(timers -> new RoomEntity(roomId, definition, probe, node, timers));
    }

    @Override
    public State emptyState() {
        return new State();
    }

    @Override
    public CommandHandler<Command, Event, State> commandHandler() {
        return newCommandHandlerBuilder().forAnyState()
                .onCommand(Open.class, (s, c) -> s.room != null
                        ? Effect().reply(c.replyTo(), new Ack(0, s.room.steps(), false))
                        : Effect().persist(new Event.Opened(System.currentTimeMillis())).thenReply(c.replyTo(), st -> new Ack(0, 0, true)))
                .onCommand(Input.class, this::onInput)
                .onCommand(Tick.class, this::onTick)
                .onCommand(Incarnate.class, (s, c) -> Effect().persist(new Event.Incarnated(s.incarnation + 1))
                        .thenRun(st -> incarnated = true))
                .onCommand(GetStatus.class, (s, c) -> Effect().reply(c.replyTo(), new Status(roomId, node,
                        s.room == null ? -1 : s.room.steps(), s.room == null ? 0 : s.room.midWait(), recoveredAt, recoveryNanos,
                        incarnated ? s.incarnation : 0)))
                .onCommand(GetDump.class, (s, c) -> Effect().reply(c.replyTo(), new Dump(roomId,
                        s.room == null ? -1 : s.room.steps(), s.room == null ? "" : s.room.dump())))
                .onCommand(Passivate.class, (s, c) -> Effect().stop())
                .build();
    }

    private org.apache.pekko.persistence.typed.javadsl.Effect<Event, State> onInput(State s, Input c) {
        if (s.room == null) {
            return Effect().reply(c.replyTo(), new Ack(c.seq(), -1, false));
        }
        if (c.seq() <= s.lastSeq) {
            // sent again after a lost answer: answered as the first time, applied once
            return Effect().reply(c.replyTo(), new Ack(c.seq(), c.seq() == s.lastSeq ? s.lastStep : -1, c.seq() == s.lastSeq && s.lastTaken));
        }
        return Effect().persist(new Event.Applied(c.seq(), c.input()))
                .thenReply(c.replyTo(), st -> new Ack(c.seq(), st.lastStep, st.lastTaken));
    }

    private org.apache.pekko.persistence.typed.javadsl.Effect<Event, State> onTick(State s, Tick t) {
        if (s.room == null) {
            return Effect().none();
        }
        // the steps due by the wall clock since the room opened: a room back from a dead node catches up
        long due = (long) Math.floor((System.currentTimeMillis() - s.openedAtMillis) / (definition.dt() * 1000));
        long behind = due - s.room.steps();
        if (behind <= 0) {
            return Effect().none();
        }
        return Effect().persist(new Event.Stepped((int) Math.min(behind, definition.maxCatchUp())))
                .thenRun(st -> probe.stepsPersisted(roomId, node, st.room.steps()));
    }

    @Override
    public EventHandler<State, Event> eventHandler() {
        return newEventHandlerBuilder().forAnyState()
                .onEvent(Event.Opened.class, (s, e) -> {
                    s.room = Room.open(roomId, definition);
                    s.openedAtMillis = e.atMillis();
                    return s;
                })
                .onEvent(Event.Applied.class, (s, e) -> {
                    s.lastTaken = s.room.apply(e.input());
                    s.lastSeq = e.seq();
                    s.lastStep = s.room.steps();
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
    public boolean shouldSnapshot(State state, Event event, long sequenceNr) {
        if (!(event instanceof Event.Stepped stepped)) {
            return false;
        }
        long now = state.room.steps();
        long every = definition.snapshotEvery();
        return now / every != (now - stepped.count()) / every;
    }

    @Override
    public SnapshotAdapter<State> snapshotAdapter() {
        // the snapshot store writes on its own threads: it gets an immutable copy made here, on the room's actor
        return new SnapshotAdapter<>() {
            @Override
            public Object toJournal(State s) {
                return new Saved(s.openedAtMillis, s.lastSeq, s.lastStep, s.lastTaken, s.incarnation, s.room.snapshot());
            }

            @Override
            public State fromJournal(Object from) {
                Saved saved = (Saved) from;
                State s = new State();
                s.room = Room.restore(roomId, definition, saved.world());
                s.openedAtMillis = saved.openedAtMillis();
                s.lastSeq = saved.lastSeq();
                s.lastStep = saved.lastStep();
                s.lastTaken = saved.lastTaken();
                s.incarnation = saved.incarnation();
                return s;
            }
        };
    }

    @Override
    public SignalHandler<State> signalHandler() {
        return newSignalHandlerBuilder()
                .onSignal(RecoveryCompleted.instance(), s -> {
                    recoveryNanos = System.nanoTime() - startNanos;
                    recoveredAt = s.room == null ? -1 : s.room.steps();
                    probe.recovered(roomId, node, recoveredAt, s.lastSeq, recoveryNanos, s.room);
                    timers.startTimerAtFixedRate(Tick.INSTANCE, Duration.ofMillis(definition.tickMillis()));
                    timers.startSingleTimer(Incarnate.INSTANCE, Duration.ZERO); // a command: a signal handler cannot persist
                })
                .onSignal(PostStop.instance(), s -> {
                    if (s.room != null) {
                        s.room.close();
                    }
                })
                .build();
    }
}

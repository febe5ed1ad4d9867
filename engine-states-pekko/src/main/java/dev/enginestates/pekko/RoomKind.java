package dev.enginestates.pekko;

import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Interest;
import dev.enginestates.io.RoomStream;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * What a game's room is and how it runs, the same on every node: its machines, how it opens, the
 * game's commands and how one is applied, the fixed step and the clock's timer, how often a
 * snapshot is saved and how many the journal keeps, and the game's own part of a snapshot. Built fluently; each method returns
 * a new kind, so a kind can be shared.
 *
 * <pre>{@code
 * RoomKind<Move> kind = RoomKind.of("arena", Move.class, GUARD)
 *         .opens(world -> world.spawn(EntityKey.of("guard-1"), GUARD.trait()))
 *         .applies((world, move) -> GUARD.send(world.entity(move.key()), move.event()))
 *         .stepSeconds(1.0 / 60);
 * }</pre>
 *
 * <p>Everything a room's world depends on must come from its commands and its steps: the opening,
 * the command's application and the snapshot part's functions must be deterministic (no wall
 * clock, no random source of their own, nothing of another room), because a recovery replays
 * them and expects the same world.
 *
 * @param <I> the game's command type, which Jackson can write and read (a record, or a sealed
 *            interface with {@code @JsonTypeInfo} and its subtypes)
 */
public final class RoomKind<I> {
    private final String name;
    private final Class<I> commandType;
    private final List<States<?>> machines;
    private final Consumer<StateWorld> opens;
    private final Application<? super I> applies;
    private final double stepSeconds;
    private final long tickMillis;
    private final int snapshotEvery;
    /** How many of a room's latest snapshots its journal keeps, with the events after the oldest of them; 0 for all. */
    private final int keepSnapshots;
    private final int maxCatchUp;
    private final Part<?> part;
    private final LongSupplier clock;
    /** Which entities each player's stream carries, or {@code null} for every one. */
    private final Interest interest;

    /**
     * The game's own part of a snapshot: what its world holds that a checkpoint does not carry.
     *
     * @param type    the part's class, which Jackson can write and read
     * @param save    reads the part from the world
     * @param restore puts the part back into a world just restored from its checkpoint
     * @param <P>     the part's type
     */
    record Part<P>(Class<P> type, Function<StateWorld, ? extends P> save, BiConsumer<StateWorld, ? super P> restore) {
    }

    private RoomKind(String name, Class<I> commandType, List<States<?>> machines, Consumer<StateWorld> opens,
                     Application<? super I> applies, double stepSeconds, long tickMillis, int snapshotEvery,
                     int keepSnapshots, int maxCatchUp, Part<?> part, LongSupplier clock, Interest interest) {
        this.name = name;
        this.commandType = commandType;
        this.machines = machines;
        this.opens = opens;
        this.applies = applies;
        this.stepSeconds = stepSeconds;
        this.tickMillis = tickMillis;
        this.snapshotEvery = snapshotEvery;
        this.keepSnapshots = keepSnapshots;
        this.maxCatchUp = maxCatchUp;
        this.part = part;
        this.clock = clock;
        this.interest = interest;
    }

    /**
     * A room kind with ten steps a second, its timer every 100 ms, a snapshot every 50 steps and
     * at most 100 steps caught up per tick; nothing opened and no command taken until
     * {@link #opens} and {@link #applies} say how.
     *
     * @param name        the rooms' entity type in cluster sharding and the first part of their journal ids; not blank
     * @param commandType the game's command class
     * @param machines    the machines a room's worlds run, for their checkpoints and dumps; at least one
     * @param <I>         the game's command type
     * @return the kind
     * @throws IllegalArgumentException if the name is blank, the command class is null or no machine is given
     */
    public static <I> RoomKind<I> of(String name, Class<I> commandType, States<?>... machines) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a room kind needs a name (its rooms' entity type and journal ids); found "
                    + (name == null ? "null" : "'" + name + "'"));
        }
        if (commandType == null) {
            throw new IllegalArgumentException("room kind '" + name + "': the command class is null; pass the game's command type,"
                    + " such as RoomInput.class");
        }
        if (machines == null || machines.length == 0 || Arrays.asList(machines).contains(null)) {
            throw new IllegalArgumentException("room kind '" + name + "': expected the machines its rooms run (at least one, none null)");
        }
        return new RoomKind<>(name, commandType, List.of(machines), null, null, 0.1, 100, 50, 0, 100, null, System::currentTimeMillis, null);
    }

    /**
     * How a room opens: spawns its entities into the new world.
     *
     * @param opens called once per room, on the world at step 0
     * @return a kind that opens so
     */
    public RoomKind<I> opens(Consumer<StateWorld> opens) {
        return new RoomKind<>(name, commandType, machines, required(opens, "opens"), applies, stepSeconds, tickMillis,
                snapshotEvery, keepSnapshots, maxCatchUp, part, clock, interest);
    }

    /**
     * How a command is applied to a room's world. A command the room cannot take changes nothing and
     * answers false, the same on every replay.
     *
     * @param applies applies one command; answers whether it changed the room (the {@link Rooms.Ack#taken()})
     * @return a kind that applies commands so
     */
    public RoomKind<I> applies(BiPredicate<StateWorld, ? super I> applies) {
        BiPredicate<StateWorld, ? super I> given = required(applies, "applies");
        return appliesFrom((world, sender, command) -> given.test(world, command));
    }

    /**
     * How a command is applied, knowing who sent it: a player's id, or {@code null} for the game
     * server's own ({@link Rooms#send(String, long, Object)}). A room's commands from players come
     * through {@link Rooms#send(String, String, long, Object)} (the WebSocket sends each player's
     * so): the game checks there what the player may do, such as move only its own units. The
     * sender is in the journal with the command, so a replay hands it over again.
     *
     * @param applies applies one command from its sender; answers whether it changed the room
     * @return a kind that applies commands so
     */
    public RoomKind<I> appliesFrom(Application<? super I> applies) {
        return new RoomKind<>(name, commandType, machines, opens, required(applies, "applies"), stepSeconds, tickMillis,
                snapshotEvery, keepSnapshots, maxCatchUp, part, clock, interest);
    }

    /**
     * Applies a command from its sender to a room's world.
     *
     * @param <I> the game's command type
     */
    @FunctionalInterface
    public interface Application<I> {
        /**
         * Applies one command; deterministic, as a replay applies it again.
         *
         * @param world   the room's world
         * @param sender  the player who sent it, or {@code null} for the game server
         * @param command the command
         * @return whether it changed the room (the {@link Rooms.Ack#taken()})
         */
        boolean apply(StateWorld world, String sender, I command);
    }

    /**
     * The fixed step: the game time of one step. A room runs {@code 1 / stepSeconds} steps per second of the wall clock.
     *
     * @param stepSeconds seconds of game time per step, such as {@code 1.0 / 60}; above 0
     * @return a kind with this step
     */
    public RoomKind<I> stepSeconds(double stepSeconds) {
        if (!(stepSeconds > 0) || stepSeconds > StateWorld.MAX_STEP_SECONDS) {
            throw new IllegalArgumentException("room kind '" + name + "': stepSeconds must be above 0 and at most "
                    + StateWorld.MAX_STEP_SECONDS + "; found " + stepSeconds);
        }
        return new RoomKind<>(name, commandType, machines, opens, applies, stepSeconds, tickMillis, snapshotEvery, keepSnapshots, maxCatchUp,
                part, clock, interest);
    }

    /**
     * How often a room's timer looks for due steps and runs them, as one journal event.
     *
     * @param tickMillis the timer's period in milliseconds; above 0
     * @return a kind with this period
     */
    public RoomKind<I> tickMillis(long tickMillis) {
        if (tickMillis <= 0) {
            throw new IllegalArgumentException("room kind '" + name + "': tickMillis must be above 0; found " + tickMillis);
        }
        return new RoomKind<>(name, commandType, machines, opens, applies, stepSeconds, tickMillis, snapshotEvery, keepSnapshots, maxCatchUp,
                part, clock, interest);
    }

    /**
     * How often a room's checkpoint is saved as its snapshot: this bounds a recovery's replay.
     *
     * @param steps a snapshot each time the world's step count crosses a multiple of this; above 0
     * @return a kind with this cadence
     */
    public RoomKind<I> snapshotEvery(int steps) {
        if (steps <= 0) {
            throw new IllegalArgumentException("room kind '" + name + "': snapshotEvery must be above 0 steps; found " + steps);
        }
        return new RoomKind<>(name, commandType, machines, opens, applies, stepSeconds, tickMillis, steps, keepSnapshots, maxCatchUp, part, clock, interest);
    }

    /**
     * Keeps each room's journal bounded: once a snapshot is saved, the journal keeps only the room's
     * latest {@code snapshots} snapshots and the events after the oldest of them; older events and
     * snapshots are deleted. A recovery needs no more: it restores the latest snapshot and replays
     * the events after it, and the room's incarnation (the epoch of its players' streams) is in
     * every snapshot, so it keeps rising.
     *
     * <p>Off by default: the journal then keeps every event, the room's whole history of commands
     * and steps, which a game may want for replays and audits. With it on, that history is gone
     * beyond the oldest kept snapshot. Deleting runs beside the room, never on its step. A room
     * started again deletes once it has saved {@code snapshots} snapshots of its own, the older
     * ones included. Leave the snapshot store's {@code snapshot-is-optional} off (Pekko's default):
     * a room whose snapshot could not be read would otherwise start over from events no longer
     * there.
     *
     * @param snapshots how many of the latest snapshots to keep, at least 1
     * @return a kind whose rooms delete what their oldest kept snapshot covers
     * @throws IllegalArgumentException if {@code snapshots} is below 1
     */
    public RoomKind<I> keepSnapshots(int snapshots) {
        if (snapshots < 1) {
            throw new IllegalArgumentException("room kind '" + name + "': keepSnapshots must keep at least 1 snapshot (the one a"
                    + " recovery starts from); found " + snapshots + ". To keep the whole journal, do not call keepSnapshots");
        }
        return new RoomKind<>(name, commandType, machines, opens, applies, stepSeconds, tickMillis, snapshotEvery, snapshots, maxCatchUp,
                part, clock, interest);
    }

    /**
     * The most steps one tick runs when the room is behind its clock (after a move): a room
     * catches up over several ticks, answering its commands between them.
     *
     * @param steps the bound; above 0
     * @return a kind with this bound
     */
    public RoomKind<I> maxCatchUp(int steps) {
        if (steps <= 0) {
            throw new IllegalArgumentException("room kind '" + name + "': maxCatchUp must be above 0 steps; found " + steps);
        }
        return new RoomKind<>(name, commandType, machines, opens, applies, stepSeconds, tickMillis, snapshotEvery, keepSnapshots, steps, part, clock, interest);
    }

    /**
     * The game's own part of a snapshot: components of its entities that a checkpoint does not
     * carry (a checkpoint holds the machines' records, their waits and the world's clock).
     *
     * @param type    the part's class, which Jackson can write and read (a record or a list of records)
     * @param save    reads the part from a world, on the room's actor
     * @param restore puts the part back into a world just restored from its checkpoint
     * @param <P>     the part's type
     * @return a kind whose snapshots keep this part
     */
    public <P> RoomKind<I> keeps(Class<P> type, Function<StateWorld, ? extends P> save, BiConsumer<StateWorld, ? super P> restore) {
        Part<P> p = new Part<>(required(type, "keeps' type"), required(save, "keeps' save"), required(restore, "keeps' restore"));
        return new RoomKind<>(name, commandType, machines, opens, applies, stepSeconds, tickMillis, snapshotEvery, keepSnapshots, maxCatchUp, p, clock, interest);
    }

    /**
     * Which entities each player's stream carries beyond what {@code ownerOnly} allows: a team, an
     * area, what the player can see. An entity that enters a player's interest arrives whole in the
     * player's next frame, one that leaves is removed, and no byte of an entity outside it reaches
     * the player; see {@link RoomStream#interest}. Asked on the room's thread, once per player and
     * entity each frame.
     *
     * @param interest the rule, such as {@code (player, entity) -> sameTeam(player, entity)}
     * @return a kind whose rooms stream by this rule
     */
    public RoomKind<I> interest(Interest interest) {
        Interest rule = required(interest, "interest");
        return new RoomKind<>(name, commandType, machines, opens, applies, stepSeconds, tickMillis, snapshotEvery, keepSnapshots, maxCatchUp, part,
                clock, rule);
    }

    /**
     * The rule that chooses what each player's stream carries.
     *
     * @return the rule, or {@code null} when every player gets every entity {@code ownerOnly} allows
     */
    public Interest interest() {
        return interest;
    }

    /**
     * The wall clock the rooms' steps follow. Every node must read the same time: tests give a
     * clock of their own to move time by hand.
     *
     * @param millis milliseconds since the epoch; {@code System::currentTimeMillis} by default
     * @return a kind on this clock
     */
    public RoomKind<I> clock(LongSupplier millis) {
        return new RoomKind<>(name, commandType, machines, opens, applies, stepSeconds, tickMillis, snapshotEvery, keepSnapshots, maxCatchUp, part,
                required(millis, "clock"), interest);
    }

    /**
     * The kind's name: its rooms' entity type and the first part of their journal ids.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * The game's command class.
     *
     * @return the class
     */
    public Class<I> commandType() {
        return commandType;
    }

    /**
     * The machines a room's world runs.
     *
     * @return the machines, unmodifiable
     */
    public List<States<?>> machines() {
        return machines;
    }

    /**
     * The game time of one step.
     *
     * @return seconds
     */
    public double stepSeconds() {
        return stepSeconds;
    }

    /**
     * The timer's period.
     *
     * @return milliseconds
     */
    public long tickMillis() {
        return tickMillis;
    }

    /**
     * The snapshot cadence.
     *
     * @return steps
     */
    public int snapshotEvery() {
        return snapshotEvery;
    }

    /**
     * How many of a room's latest snapshots its journal keeps.
     *
     * @return snapshots, or 0 when the journal keeps everything (the default)
     */
    public int keepSnapshots() {
        return keepSnapshots;
    }

    /**
     * The most steps one tick runs.
     *
     * @return steps
     */
    public int maxCatchUp() {
        return maxCatchUp;
    }

    /**
     * Checks the kind can open rooms and take commands.
     *
     * @throws IllegalStateException if {@link #opens} or {@link #applies} was not given
     */
    void checkComplete() {
        if (opens == null || applies == null) {
            throw new IllegalStateException("room kind '" + name + "' cannot run rooms yet: it needs "
                    + (opens == null ? ".opens(world -> ...) to spawn a new room's entities" : "")
                    + (opens == null && applies == null ? " and " : "")
                    + (applies == null ? ".applies((world, command) -> ...) to apply the game's commands" : ""));
        }
    }

    Consumer<StateWorld> opening() {
        return opens;
    }

    Application<? super I> application() {
        return applies;
    }

    Part<?> part() {
        return part;
    }

    long now() {
        return clock.getAsLong();
    }

    private <T> T required(T value, String what) {
        return Objects.requireNonNull(value, () -> "room kind '" + name + "': " + what + " is null");
    }

    @Override
    public String toString() {
        return "room kind '" + name + "' (" + commandType.getSimpleName() + " commands, step " + stepSeconds + " s, tick "
                + tickMillis + " ms, snapshot every " + snapshotEvery + " steps, "
                + (keepSnapshots == 0 ? "whole journal kept" : "last " + keepSnapshots + " snapshots kept") + ", catch-up " + maxCatchUp + " steps a tick)";
    }
}

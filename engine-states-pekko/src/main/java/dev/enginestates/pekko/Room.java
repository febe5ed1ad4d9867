package dev.enginestates.pekko;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.Owner;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.RoomStream;
import dev.enginestates.io.Saves;

import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * One room's world with nothing of Pekko: opened by its kind, moved by commands and fixed
 * steps, dumped, saved as a checkpoint and restored from one. The cluster's rooms run through
 * this class, and a game's test can run a room's twin with it (the same commands at the same
 * steps give the same dump).
 *
 * <p>A world belongs to one thread at a time and an actor's messages run on any of the
 * dispatcher's threads: each method hands the world back ({@link StateWorld#release()}) when it
 * returns, so the next call may come from another thread. A room is not for two threads at once.
 *
 * @param <I> the game's command type
 */
public final class Room<I> implements AutoCloseable {
    private final String id;
    private final RoomKind<I> kind;
    private final Saves saves;
    private final StateWorld world;
    /** Whether the room is lent to a listener, to read only: its actor changes it through the journal. */
    private volatile boolean lent;
    /** Where the game's code that threw goes: the room goes on, alike on its node, in a recovery and in a twin. */
    private volatile BiConsumer<String, RuntimeException> failures;

    private Room(String id, RoomKind<I> kind, BiConsumer<String, RuntimeException> failures) {
        this.id = id;
        this.kind = kind;
        this.saves = Saves.of(kind.machines().toArray(new States<?>[0]));
        this.failures = failures != null ? failures : (where, e) -> RoomListener.NONE.failed(id, "this JVM", where, e);
        this.world = StateWorld.create(id);
        // a machine that fails during a step is reported once the step completed for the others, not thrown
        world.onFailure(f -> this.failures.accept("step " + world.steps() + ": machine '" + f.machineId() + "' on "
                + f.entity() + ", in '" + f.statePath() + "', event '" + f.eventType() + "'", f.cause()));
        world.release();
    }

    /**
     * Opens a room: a new world, which the kind's {@link RoomKind#opens} fills.
     *
     * @param kind the room's kind
     * @param id   the room's id, the world's name
     * @param <I>  the game's command type
     * @return the room, at step 0
     * @throws IllegalStateException if the kind has no opening or no application of commands
     */
    public static <I> Room<I> open(RoomKind<I> kind, String id) {
        return open(kind, id, null);
    }

    /** Opens a room whose game code's failures go to {@code failures} (null: logged). */
    static <I> Room<I> open(RoomKind<I> kind, String id, BiConsumer<String, RuntimeException> failures) {
        kind.checkComplete();
        Room<I> room = new Room<>(id, kind, failures);
        try {
            kind.opening().accept(room.world);
        } catch (RuntimeException e) {
            room.failures.accept("its opening", e);
        } finally {
            room.world.release();
        }
        return room;
    }

    /**
     * A room back from its snapshot: the checkpoint restored (records, clock, waits mid-way), the
     * game's part put back.
     *
     * @param kind       the room's kind
     * @param id         the room's id
     * @param checkpoint the world's checkpoint
     * @param part       the game's part as JSON, or null when the kind keeps none
     * @param json       reads the part
     * @return the room, at the snapshot's step
     */
    static <I> Room<I> restore(RoomKind<I> kind, String id, String checkpoint, Map<String, String> owners, JsonNode part,
                               ObjectMapper json) {
        Room<I> room = new Room<>(id, kind, null);
        try {
            room.saves.restoreSpawningMissing(room.world, checkpoint);
            if (owners != null) {
                owners.forEach((key, player) -> {
                    Entity e = room.world.entity(key);
                    if (e != null) {
                        e.add(new Owner(player));
                    }
                });
            }
            if (kind.part() != null && part != null) {
                putBack(kind.part(), room.world, part, json, id);
            }
        } finally {
            room.world.release();
        }
        return room;
    }

    private static <P> void putBack(RoomKind.Part<P> p, StateWorld world, JsonNode part, ObjectMapper json, String id) {
        P value;
        try {
            value = json.treeToValue(part, p.type());
        } catch (Exception e) {
            throw new IllegalStateException("room '" + id + "': its snapshot's game part cannot be read as "
                    + p.type().getName() + ": " + e.getMessage(), e);
        }
        p.restore().accept(world, value);
    }

    /**
     * Applies a game command with the kind's {@link RoomKind#applies}. An application that throws
     * counts as not taken: the room goes on with what it did, as its node's room does in a
     * recovery, and the failure is reported (a room made by {@link #open(RoomKind, String)} logs it).
     *
     * @param command the command
     * @return whether it changed the room
     */
    public boolean apply(I command) {
        return apply(null, command);
    }

    /**
     * Applies a player's command (the kind's {@link RoomKind#appliesFrom}), as
     * {@link #apply(Object)} does the game server's.
     *
     * @param sender  the player who sent it, or {@code null} for the game server
     * @param command the command
     * @return whether it changed the room
     */
    public boolean apply(String sender, I command) {
        checkNotLent("apply a command to");
        try {
            return kind.application().apply(world, sender, command);
        } catch (RuntimeException e) {
            // in the journal already: every replay meets the same throw here, so the room goes on alike
            failures.accept((sender == null ? "its command " : "a command of player '" + sender + "': ") + command, e);
            return false;
        } finally {
            world.release();
        }
    }

    /** Sends the failures of the game's code here from now on (the room's actor, once it made or restored the room). */
    void reportFailuresTo(BiConsumer<String, RuntimeException> to) {
        this.failures = to;
    }

    /**
     * Runs fixed steps of the kind's {@link RoomKind#stepSeconds}.
     *
     * @param count how many; 0 or more
     */
    public void step(int count) {
        checkNotLent("step");
        try {
            for (int i = 0; i < count; i++) {
                world.step(kind.stepSeconds());
            }
        } finally {
            world.release();
        }
    }

    /**
     * The steps the world has taken.
     *
     * @return the step count
     */
    public long steps() {
        try {
            return world.steps();
        } finally {
            world.release();
        }
    }

    /**
     * The world's dump ({@link Saves#dump}): every machine's state, seconds waited and left, holds.
     *
     * @return the dump's text; equal texts mean equal rooms
     */
    public String dump() {
        try {
            return saves.dump(world);
        } finally {
            world.release();
        }
    }

    /**
     * How many machines are part-way through a wait.
     *
     * @return the count
     */
    public int midWait() {
        try {
            int n = 0;
            for (States<?> m : kind.machines()) {
                for (var r : world.records(m)) {
                    if (r.secondsLeft() > 0 && r.secondsLeft() < Double.POSITIVE_INFINITY) {
                        n++;
                    }
                }
            }
            return n;
        } finally {
            world.release();
        }
    }

    /**
     * Reads the world: a game's status or metrics. The function must not keep the world.
     *
     * @param read what to read
     * @param <R>  what it gives
     * @return what it gave
     */
    public <R> R read(Function<StateWorld, R> read) {
        try {
            return read.apply(world);
        } finally {
            world.release();
        }
    }

    /**
     * The world's checkpoint.
     *
     * @return the checkpoint text
     */
    String checkpoint() {
        try {
            return saves.checkpoint(world);
        } finally {
            world.release();
        }
    }

    /**
     * Each owned entity's player, by key: an {@link Owner} is a component, which the checkpoint does
     * not carry, and streams need it after a move to send each player its {@code ownerOnly} machines.
     *
     * @return the owners, keys sorted
     */
    Map<String, String> owners() {
        try {
            Map<String, String> owners = new java.util.TreeMap<>();
            for (Entity e : world.query(Owner.class)) {
                String key = StateWorld.keyOf(e);
                if (key != null) {
                    owners.put(key, e.get(Owner.class).player());
                }
            }
            return owners;
        } finally {
            world.release();
        }
    }

    /**
     * The game's part of the snapshot as JSON, or null when the kind keeps none.
     *
     * @param json writes the part
     * @return the part
     */
    JsonNode part(ObjectMapper json) {
        RoomKind.Part<?> p = kind.part();
        if (p == null) {
            return null;
        }
        try {
            return json.valueToTree(p.save().apply(world));
        } finally {
            world.release();
        }
    }

    /**
     * A stream of the kind's machines in this world, for players' replicas.
     *
     * @param epoch the room's incarnation, 1 or more
     * @return the stream, with no player yet
     */
    RoomStream stream(long epoch) {
        try {
            RoomStream stream = RoomStream.of(world, epoch, kind.machines().toArray(new States<?>[0]));
            return kind.interest() == null ? stream : stream.interest(kind.interest());
        } finally {
            world.release();
        }
    }

    /**
     * The next frame of one player of a stream of this room.
     *
     * @param stream    the stream, made by {@link #stream(long)}
     * @param recipient a player that has joined
     * @return the frame's text
     */
    String frame(RoomStream stream, String recipient) {
        try {
            return stream.frame(recipient);
        } finally {
            world.release();
        }
    }

    /**
     * The next frame of every player of a stream of this room, from one pass over the world.
     *
     * @param stream the stream, made by {@link #stream(long)}
     * @return the frames by player
     */
    Map<String, String> frames(RoomStream stream) {
        try {
            return stream.frames();
        } finally {
            world.release();
        }
    }

    /** Closes the world. */
    @Override
    public void close() {
        checkNotLent("close");
        world.close();
    }

    /** Lends the room to a listener for the length of its call: it may read the room, not change it. */
    void lend(Runnable call) {
        lent = true;
        try {
            call.run();
        } finally {
            lent = false;
        }
    }

    private void checkNotLent(String what) {
        if (lent) {
            throw new IllegalStateException("room '" + id + "' is lent to the game's listener to read: it may not " + what
                    + " the room, which its actor changes only through its journal");
        }
    }

    @Override
    public String toString() {
        return "room '" + id + "' of " + kind.name();
    }
}

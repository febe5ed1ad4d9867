package dev.enginestates.samples.pekko;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.MachinePaused;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.io.Saves;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

import static dev.enginestates.samples.pekko.RoomGuard.GUARD;

/**
 * One room's world, with nothing of Pekko: opened from a definition, moved by inputs and
 * steps, saved as a checkpoint and restored from one. The cluster's room entity and the test's
 * twin (a single world, no failure) both run a room through this class.
 *
 * <p>A world belongs to one thread at a time, and an actor's messages run on any of the
 * dispatcher's threads: each method hands the world back ({@link StateWorld#release()}) when it
 * returns, so the next message may use it from another thread.
 */
public final class Room implements AutoCloseable {
    /** The saves of a room's machines. */
    public static final Saves SAVES = Saves.of(GUARD);

    private final String id;
    private final RoomDefinition definition;
    private final StateWorld world;
    // held guards: MachinePaused is a game component, which a checkpoint does not carry
    private final TreeSet<String> held = new TreeSet<>();

    private Room(String id, RoomDefinition definition) {
        this.id = id;
        this.definition = definition;
        this.world = StateWorld.create(id);
    }

    /**
     * Opens a room: a world with the definition's guards, each at the start of his patrol.
     *
     * @param id         the room's id, the world's name
     * @param definition what the room holds
     * @return the room, at step 0
     */
    public static Room open(String id, RoomDefinition definition) {
        Room room = new Room(id, definition);
        try {
            for (int i = 0; i < definition.guards(); i++) {
                room.world.spawn(EntityKey.of(String.format(Locale.ROOT, "guard-%03d", i)), GUARD.trait());
            }
        } finally {
            room.world.release();
        }
        return room;
    }

    /**
     * A room back from a snapshot: the checkpoint restored (records, clock, waits mid-way), the holds put back.
     *
     * @param id         the room's id
     * @param definition what the room holds
     * @param snapshot   the snapshot, as {@link #snapshot} made it
     * @return the room, at the snapshot's step
     */
    public static Room restore(String id, RoomDefinition definition, RoomSnapshot snapshot) {
        Room room = new Room(id, definition);
        try {
            SAVES.restoreSpawningMissing(room.world, snapshot.checkpoint());
            for (String key : snapshot.held()) {
                room.world.entity(key).add(MachinePaused.INSTANCE);
                room.held.add(key);
            }
        } finally {
            room.world.release();
        }
        return room;
    }

    /**
     * Applies a game command. A command the room cannot take (an unknown guard, a key taken, a
     * hold already on) changes nothing and answers false, the same on every replay.
     *
     * @param input the command
     * @return whether it changed the room (for a send: whether the guard's machine took the event)
     */
    public boolean apply(RoomInput input) {
        try {
            if (input instanceof RoomInput.Spawn s) {
                if (world.entity(s.key()) != null || EntityKey.WORLD.equals(s.key())) {
                    return false;
                }
                world.spawn(EntityKey.of(s.key()), GUARD.trait());
                return true;
            }
            Entity guard = input instanceof RoomInput.Send s ? world.entity(s.key()) : world.entity(((RoomInput.Hold) input).key());
            if (guard == null || guard == world.entity()) {
                return false;
            }
            if (input instanceof RoomInput.Send s) {
                return GUARD.send(guard, s.event());
            }
            RoomInput.Hold h = (RoomInput.Hold) input;
            if (h.on() == held.contains(h.key())) {
                return false;
            }
            if (h.on()) {
                guard.add(MachinePaused.INSTANCE);
                held.add(h.key());
            } else {
                guard.removeType(MachinePaused.class);
                held.remove(h.key());
            }
            return true;
        } finally {
            world.release();
        }
    }

    /**
     * Runs fixed steps of the definition's {@code dt}.
     *
     * @param count how many
     */
    public void step(int count) {
        try {
            for (int i = 0; i < count; i++) {
                world.step(definition.dt());
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
     * The world's dump ({@link Saves#dump}): every guard's state, seconds waited and left, holds.
     *
     * @return the dump's text; equal texts mean equal rooms
     */
    public String dump() {
        try {
            return SAVES.dump(world);
        } finally {
            world.release();
        }
    }

    /**
     * How many guards are part-way through a wait (held or not).
     *
     * @return the count
     */
    public int midWait() {
        try {
            int n = 0;
            for (var r : world.records(GUARD)) {
                if (r.secondsLeft() > 0 && r.secondsLeft() < Double.POSITIVE_INFINITY) {
                    n++;
                }
            }
            return n;
        } finally {
            world.release();
        }
    }

    /**
     * The room as a snapshot: the world's checkpoint and the holds.
     *
     * @return the snapshot, immutable, for the journal's snapshot store
     */
    public RoomSnapshot snapshot() {
        try {
            return new RoomSnapshot(SAVES.checkpoint(world), List.copyOf(new ArrayList<>(held)));
        } finally {
            world.release();
        }
    }

    /** Closes the world. */
    @Override
    public void close() {
        world.close();
    }

    @Override
    public String toString() {
        return "room '" + id + "'";
    }
}

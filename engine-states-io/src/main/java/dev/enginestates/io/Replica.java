package dev.enginestates.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.StateMachineDefinition;
import dev.enginestates.StatesDef;
import dev.enginestates.Machine;
import dev.enginestates.records.Access;
import dev.enginestates.records.MachineRecord;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A player's side of a {@link RoomStream}: applies the room's frames to a replica world, so the
 * replica holds the room's records of the machines this player may see, and its entities carry
 * the tags of their states ({@code world.query(GUARD.is("answer"))} works on it). No machine
 * code runs on a replica: records are written as a checkpoint restore writes them, so a record
 * that arrives whole (a page that joins mid-run or reloads) holds the state it names with none
 * of the machine's initial state, and no entry or exit action runs. Each record is written
 * through {@link StateWorld#restored}, so its tags, wait and {@code when} rules follow it.
 *
 * <pre>{@code
 * Replica replica = Replica.of(StateWorld.create(), "alice", GUARD, TALK);
 * replica.apply(frameText);                  // each frame, in order, as it arrives
 * replica.world().query(GUARD.is("answer"))  // the guards answering the bell, as the room has them
 * }</pre>
 *
 * <p><b>Checked whole, then applied.</b> A frame is read strictly and refused with a
 * {@link StreamException}, the replica unchanged, when it is not JSON, is of another format or
 * version, is for another player, is of an older epoch than the newest frame it applied (a late
 * frame from a room's previous home, whole or not), is of another stream with the same epoch as
 * the stream it follows (two homes given one epoch cannot be ordered), is out of order (a frame of
 * changes whose {@code seq} is not one more than the last frame's, or a whole frame of the same
 * stream numbered no higher than it; a whole frame of a newer epoch is taken whatever its number,
 * since a room's new home counts afresh), holds changes from another stream than the
 * one whose whole frame it last applied (another room's frames for the same player, numbered
 * alike), names a machine the replica was not
 * made with or a state, field or context field its machine does not have, removes a record the
 * replica does not hold, gives only some fields of a record the replica does not hold, or makes
 * a record its machine cannot be in. After a refused frame, ask the room for a whole one
 * ({@link RoomStream#join} again).
 *
 * <p><b>Versions.</b> A frame names the version of each machine whose records it brings first (a
 * whole frame, of every machine it holds), and the replica reads its records as that version.
 * Made with several versions of one machine, it follows a room that swaps from one to another
 * ({@link StateWorld#swap}): the room's next frame is whole, and its records of the newer version
 * replace those of the older. A frame naming a version the replica was not made with is refused,
 * naming the machine, that version and fingerprint, and those the replica knows. A machine no
 * frame named (a frame written before versions) is read as the newest version given.
 *
 * <p><b>The replica world.</b> It follows the room's clock (records keep their times, so
 * seconds waited and left read as on the room). The game does not step it: a step would run the
 * machines' code on the replica, and the next frame would overwrite what it did. An entity is
 * matched by its {@link EntityKey}: one the world lacks is spawned with that key alone, and is
 * despawned when its last streamed record goes; an entity the game spawned with the key only
 * loses the records. A whole frame replaces everything: every record of the replica's machines
 * that it does not name is taken off. A record's context object is replaced when its context
 * changes and kept when it does not.
 *
 * <p>Jackson is needed, as for {@link Saves}. A replica belongs to its world's thread.
 */
public final class Replica {
    private final ReplicaFrames impl;

    private Replica(ReplicaFrames impl) {
        this.impl = impl;
    }

    /**
     * A replica of a room's machines for one player.
     *
     * @param world     the replica world, which the game does not step
     * @param recipient the player's id, as the room's stream names it; frames for another are refused
     * @param machines  the machines the room streams (the same definitions), and any other version of them the room
     *                  may swap to; frames naming others are refused
     * @return the replica, waiting for its first, whole frame
     * @throws StreamException if a context type cannot be written and read back exactly, or two machines share an id and a version
     * @throws IllegalArgumentException if the recipient is empty
     * @throws IllegalStateException if Jackson is not there
     */
    public static Replica of(StateWorld world, String recipient, States<?>... machines) {
        Objects.requireNonNull(world, "world");
        Objects.requireNonNull(recipient, "recipient");
        if (recipient.isEmpty()) {
            throw new IllegalArgumentException("a recipient's id must not be empty; expected the player's id, as the room names it");
        }
        Jackson.require("Replica");
        return new Replica(new ReplicaFrames(world, recipient, machines));
    }

    /**
     * A replica of a room's XState-style machines: {@link #of(StateWorld, String, States...)} of their bindings.
     *
     * @param world     the replica world
     * @param recipient the player's id
     * @param machines  the machines the room streams
     * @return the replica
     */
    public static Replica of(StateWorld world, String recipient, Machine<?>... machines) {
        return of(world, recipient, Bindings.of(machines));
    }

    /**
     * A replica of a room's polled tables: {@link #of(StateWorld, String, States...)} of their bindings.
     *
     * @param world       the replica world
     * @param recipient   the player's id
     * @param definitions the tables the room streams
     * @return the replica
     */
    public static Replica of(StateWorld world, String recipient, StatesDef<?>... definitions) {
        return of(world, recipient, Bindings.of(definitions));
    }

    /**
     * A replica of a room's builder-style machines: {@link #of(StateWorld, String, States...)} of their bindings.
     *
     * @param world       the replica world
     * @param recipient   the player's id
     * @param definitions the built machines the room streams
     * @return the replica
     */
    public static Replica of(StateWorld world, String recipient, StateMachineDefinition<?>... definitions) {
        return of(world, recipient, Bindings.of(definitions));
    }

    /**
     * Applies a frame: checks all of it, then sets the world's clock and writes, removes and
     * spawns as it says.
     *
     * @param frame a frame's JSON text, as {@link RoomStream#frame} wrote it for this player
     * @throws StreamException listing every problem, the replica unchanged
     * @throws IllegalStateException from the game's code during a call of the replica world (a listener's, during a
     *         send or another frame), or between {@link StateWorld#advance} and {@link StateWorld#runStates}; nothing changes
     */
    public void apply(String frame) {
        Access.during(impl.world, "a replica's frame", () -> {
            impl.apply(frame);
            return null;
        });
    }

    /**
     * The number of the last frame applied.
     *
     * @return its {@code seq}, or 0 before the first
     */
    public long sequence() {
        return impl.seq;
    }

    /**
     * The epoch of the last frame applied: the room's incarnation it follows.
     *
     * @return the frame's {@code epoch}, or 0 before the first
     */
    public long epoch() {
        return impl.epoch;
    }

    /**
     * The player this replica is for.
     *
     * @return the recipient's id
     */
    public String recipient() {
        return impl.recipient;
    }

    /**
     * The replica world.
     *
     * @return the world the frames are written into
     */
    public StateWorld world() {
        return impl.world;
    }
}

/** What {@link Replica} does, with Jackson (linked only once {@link Replica#of} found it). */
final class ReplicaFrames {
    final StateWorld world;
    final String recipient;
    private final SavesJson saves;
    private final RecordCodec codec;
    /** By id, the definition the replica reads records as: the one the last frame named, else the newest given. */
    private final Map<String, States<?>> machines = new LinkedHashMap<>();
    /** Every definition the replica was made with, several versions of one id among them. */
    private final List<States<?>> definitions = new ArrayList<>();
    /** The room's record as last applied, whole, by entity key and machine id: what a frame's changes apply to. */
    private final Map<String, Map<String, ObjectNode>> view = new HashMap<>();
    /** The keys of the entities this replica spawned (and so despawns when their last record goes). */
    private final Set<String> spawned = new HashSet<>();
    long seq;
    /** The stream whose frames this replica applies, from its last whole frame; {@code null} before the first. */
    private String stream;
    /** The epoch of that stream: frames of a smaller one are refused, whole ones of a larger one taken; 0 before the first. */
    long epoch;

    ReplicaFrames(StateWorld world, String recipient, States<?>[] machines) {
        this.world = world;
        this.recipient = recipient;
        try {
            this.saves = new SavesJson(machines);
        } catch (CheckpointException e) {
            throw new StreamException("these machines cannot be replicated", e.problems());
        }
        this.codec = saves.codec();
        Access.mirrorChildren(world); // the room starts and stops children; their records come in its frames
        for (States<?> m : SavesJson.withInvokedChildren(machines)) {
            this.machines.put(m.id(), saves.machine(m.id()));
            if (!definitions.contains(m)) {
                definitions.add(m);
            }
        }
    }

    void apply(String text) {
        JsonNode root;
        try {
            root = saves.parse(text, "frame");
        } catch (CheckpointException e) {
            throw refused(e.problems());
        }
        List<String> problems = new ArrayList<>();
        if (!root.isObject()) {
            throw refused(List.of("$: expected a frame object, found " + Json.kind(root)));
        }
        if (!RoomStream.FORMAT.equals(root.path("format").asText(null))) {
            problems.add("$.format: expected \"" + RoomStream.FORMAT + "\", found " + Json.kind(root.get("format")));
        }
        if (!root.path("version").isInt() || root.get("version").asInt() != RoomStream.VERSION) {
            problems.add("$.version: expected " + RoomStream.VERSION + " (this library reads stream version " + RoomStream.VERSION
                    + "), found " + Json.kind(root.get("version")));
        }
        boolean known = problems.isEmpty(); // a frame of another format or version says so alone
        JsonNode streamNode = root.get("stream");
        String frameStream = streamNode != null && streamNode.isTextual() && !streamNode.asText().isEmpty() ? streamNode.asText() : null;
        if (frameStream == null && known) {
            problems.add("$.stream: expected the id of the room's stream, a string that is not empty; found " + Json.kind(streamNode));
        }
        JsonNode epochNode = root.get("epoch");
        long frameEpoch = epochNode != null && epochNode.isIntegralNumber() && epochNode.canConvertToLong() ? epochNode.asLong() : -1;
        if (frameEpoch < 1 && known) {
            problems.add("$.epoch: expected the room's epoch, a whole number 1 or more; found " + Json.kind(epochNode));
        }
        if (!recipient.equals(root.path("recipient").asText(null)) || !root.path("recipient").isTextual()) {
            problems.add("$.recipient: this replica is " + recipient + "'s; found a frame for " + Json.kind(root.get("recipient")));
        }
        JsonNode seqNode = root.get("seq");
        long frameSeq = seqNode != null && seqNode.isIntegralNumber() && seqNode.canConvertToLong() ? seqNode.asLong() : -1;
        if (frameSeq < 1) {
            problems.add("$.seq: expected the frame's number, a whole number 1 or more; found " + Json.kind(seqNode));
        }
        JsonNode wholeNode = root.get("whole");
        if (wholeNode == null || !wholeNode.isBoolean()) {
            problems.add("$.whole: expected true or false, found " + Json.kind(wholeNode));
        }
        boolean whole = wholeNode != null && wholeNode.asBoolean();
        JsonNode clock = root.path("clock");
        double time = clock.path("time").isNumber() ? clock.get("time").asDouble() : Double.NaN;
        long steps = clock.path("steps").isIntegralNumber() && clock.path("steps").canConvertToLong() ? clock.get("steps").asLong() : -1;
        if (!(time >= 0) || Double.isInfinite(time)) {
            problems.add("$.clock.time: expected the room's seconds, a finite number 0 or more; found " + Json.kind(clock.get("time")));
        }
        if (steps < 0) {
            problems.add("$.clock.steps: expected the room's step count, a whole number 0 or more; found " + Json.kind(clock.get("steps")));
        }
        JsonNode entities = root.get("entities");
        if (entities == null || !entities.isObject()) {
            problems.add("$.entities: expected an object from entity key to its machines, found " + Json.kind(entities));
        }
        if (problems.isEmpty()) {
            order(frameStream, frameEpoch, frameSeq, whole, problems);
        }
        if (problems.isEmpty() && !whole && seq > 0 && time < world.time()) {
            // the records the frame leaves out keep their times, which would then lie after the clock
            problems.add("$.clock.time: " + time + " s is before this replica's clock (" + world.time() + " s); a frame of changes"
                    + " never moves the clock back; expected " + world.time() + " s or later, or a whole frame (ask the room to"
                    + " join this player again)");
        }
        if (!problems.isEmpty()) {
            throw refused(problems);
        }
        Map<String, States<?>> reading = new LinkedHashMap<>();
        Map<String, String> otherPrint = new HashMap<>();
        Set<String> unread = new HashSet<>();
        versions(root.get(SavesJson.MACHINES), whole, reading, otherPrint, unread, problems);
        List<Staged> staged = new ArrayList<>();
        List<String[]> removed = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : entities.properties()) {
            String key = e.getKey();
            String at = "$.entities." + key;
            if (key.isEmpty()) {
                problems.add(at + ": an empty entity key; expected the key of an entity of the room");
                continue;
            }
            if (!e.getValue().isObject()) {
                problems.add(at + ": expected an object from machine id to record (or null), found " + Json.kind(e.getValue()));
                continue;
            }
            Map<String, ObjectNode> held = whole ? null : view.get(key);
            for (Map.Entry<String, JsonNode> m : e.getValue().properties()) {
                String where = at + "." + m.getKey();
                States<?> machine = reading.get(m.getKey());
                if (machine == null) {
                    problems.add(where + ": no machine has id '" + m.getKey() + "'; expected one of " + machines.keySet());
                    continue;
                }
                if (unread.contains(m.getKey())) {
                    continue; // its version is unknown here: said once, at $.machines
                }
                int before = problems.size();
                ObjectNode base = held == null ? null : held.get(m.getKey());
                if (m.getValue().isNull()) {
                    if (whole) {
                        problems.add(where + ": null in a whole frame; expected the record (a whole frame removes nothing by name)");
                    } else if (base == null) {
                        problems.add(where + ": removes machine '" + m.getKey() + "' from entity '" + key
                                + "', which this replica does not hold; expected a record it holds");
                    } else {
                        removed.add(new String[] {key, m.getKey()});
                    }
                    continue;
                }
                ObjectNode merged = merge(base, m.getValue(), machine, key, where, problems);
                MachineRecord r = merged == null ? null : codec.decode(merged, machine, where, problems);
                if (r != null && !SavesJson.timesFit(r, time, where, problems)) {
                    r = null;
                }
                String print = problems.size() > before ? otherPrint.remove(m.getKey()) : null;
                if (print != null) {
                    // once per machine: the likely reason its records do not fit
                    problems.add("$." + SavesJson.MACHINES + "." + m.getKey() + ": the room's records of machine '" + m.getKey() + "' are "
                            + print + ", and this replica's definition has the same version but fingerprint "
                            + machine.machine().fingerprint() + ": the room runs another definition of that version; expected the"
                            + " replica made with the room's definition");
                }
                if (r != null) {
                    boolean contextKept = base != null && !m.getValue().has("context") && !m.getValue().has("contextFields");
                    staged.add(new Staged(key, machine, r, merged, contextKept));
                }
            }
        }
        if (!problems.isEmpty()) {
            throw refused(problems);
        }
        // a listener's failure is thrown once the whole frame is written and counted, so the next frame is not taken for a gap
        Access.writeAll(world, () -> {
            write(time, steps, whole, staged, removed);
            machines.putAll(reading);
            seq = frameSeq;
            stream = frameStream;
            epoch = frameEpoch;
        });
    }

    /**
     * The definition each machine's records in this frame are read as, into {@code reading}: the
     * version the frame names ({@code machines}, which a whole frame carries), which the replica must
     * hold; a machine the frame does not name keeps the definition of the last frame (a whole frame's
     * falls back to the newest given, as frames written before versions are read). A frame of changes
     * names another definition than the one followed only for a machine the replica holds no record
     * of (its first record for this player): the room sends a whole frame after a swap.
     */
    private void versions(JsonNode node, boolean whole, Map<String, States<?>> reading, Map<String, String> otherPrint,
                          Set<String> unread, List<String> problems) {
        for (States<?> m : machines.values()) {
            reading.put(m.id(), whole ? saves.machine(m.id()) : m);
        }
        if (node == null) {
            return;
        }
        String at = "$." + SavesJson.MACHINES;
        if (!node.isObject()) {
            problems.add(at + ": expected an object from machine id to {version, fingerprint}, found " + Json.kind(node));
            return;
        }
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            String id = e.getKey();
            String where = at + "." + id;
            JsonNode v = e.getValue();
            if (!SavesJson.isIdentity(v)) {
                problems.add(where + ": expected " + SavesJson.IDENTITY + ", found " + v);
                unread.add(id);
                continue;
            }
            JsonNode version = v.get("version");
            JsonNode fingerprint = v.get("fingerprint");
            States<?> followed = machines.get(id);
            if (followed == null) {
                continue; // a machine this replica was not made with: its records, if any, say so one by one
            }
            String theirs = SavesJson.identityText(v);
            States<?> m = saves.machine(id, version.asInt());
            if (m == null) {
                unread.add(id);
                problems.add(where + ": the room's records of machine '" + id + "' are " + theirs + ", which this replica does not"
                        + " know: it knows " + known(id) + "; expected the replica made with that definition too (Replica.of(world,"
                        + " player, ...) given every version the room may swap to)");
                continue;
            }
            if (!whole && m != followed && holds(id)) {
                unread.add(id);
                problems.add(where + ": a frame of changes names machine '" + id + "' " + theirs + ", but this replica holds its"
                        + " records as version " + followed.machine().version() + " (fingerprint " + followed.machine().fingerprint()
                        + "); expected a whole frame to change the version (ask the room to join this player again)");
                continue;
            }
            if (!fingerprint.asText().equals(m.machine().fingerprint())) {
                otherPrint.put(id, theirs); // read as this version all the same; said only if a record does not fit
            }
            reading.put(id, m);
        }
    }

    /** Whether the replica holds a record of machine {@code id}, as last applied. */
    private boolean holds(String id) {
        for (Map<String, ObjectNode> held : view.values()) {
            if (held.containsKey(id)) {
                return true;
            }
        }
        return false;
    }

    /** The versions of machine {@code id} this replica was made with, for messages: {@code version 1 (fingerprint ...)}. */
    private String known(String id) {
        List<String> out = new ArrayList<>();
        for (States<?> m : definitions) {
            if (m.id().equals(id)) {
                out.add("version " + m.machine().version() + " (fingerprint " + m.machine().fingerprint() + ")");
            }
        }
        return String.join(", ", out);
    }

    /**
     * Whether a frame may follow the last one applied: never one of an older epoch (a late frame
     * from a room's previous home), never another stream's of the same epoch (they cannot be
     * ordered), a whole frame of a newer epoch whatever its number (a room's new home counts
     * afresh), and within the stream followed a whole frame numbered above the last and a frame of
     * changes numbered one above it.
     */
    private void order(String frameStream, long frameEpoch, long frameSeq, boolean whole, List<String> problems) {
        String what = (whole ? "whole frame " : "frame ") + frameSeq;
        if (seq == 0) {
            if (!whole) {
                problems.add("$.seq: frame " + frameSeq + " holds changes, but this replica has had no whole frame to apply them to;"
                        + " expected a whole frame first (the room's join)");
            }
        } else if (frameEpoch < epoch) {
            problems.add("$.epoch: " + what + " is of epoch " + frameEpoch + ", but this replica follows the room's epoch " + epoch
                    + " already (stream " + stream + "): a late frame from the room's previous home, which would take the replica"
                    + " back; expected a frame of epoch " + epoch + " or later");
        } else if (frameEpoch > epoch) {
            if (!whole) {
                problems.add("$.epoch: frame " + frameSeq + " holds changes of epoch " + frameEpoch + ", but this replica has had no"
                        + " whole frame of that epoch to apply them to (it follows epoch " + epoch + "); expected the whole frame of"
                        + " epoch " + frameEpoch + " first (ask the room's new home to join this player)");
            }
        } else if (!frameStream.equals(stream)) {
            problems.add(whole
                    ? "$.stream: whole frame " + frameSeq + " is of stream " + frameStream + " and epoch " + frameEpoch + ", but this"
                            + " replica follows stream " + stream + " of the same epoch: two streams of one epoch cannot be ordered, so"
                            + " it keeps the one it follows; expected a frame of stream " + stream + ", or a whole frame of a larger"
                            + " epoch (a room that moves streams from its new home with a larger epoch than its old home's:"
                            + " RoomStream.of(world, epoch, machines))"
                    : "$.stream: frame " + frameSeq + " holds changes from stream " + frameStream + ", but this replica follows"
                            + " stream " + stream + " (another room's frames, or a stream of the same epoch " + frameEpoch + "); expected"
                            + " a whole frame of the stream to follow (ask the room to join this player again)");
        } else if (whole) {
            if (frameSeq <= seq) {
                problems.add("$.seq: whole frame " + frameSeq + " comes after frame " + seq + " of the same stream was applied: a late"
                        + " or repeated frame, which would take the replica back; expected a frame numbered above " + seq);
            }
        } else if (frameSeq <= seq) {
            problems.add("$.seq: frame " + frameSeq + " comes after frame " + seq + " was applied: a repeat or a frame out of order;"
                    + " expected frame " + (seq + 1));
        } else if (frameSeq != seq + 1) {
            problems.add("$.seq: frame " + frameSeq + " after frame " + seq + ": " + (frameSeq - seq - 1) + " frame"
                    + (frameSeq - seq - 1 == 1 ? " is" : "s are") + " missing; expected frame " + (seq + 1)
                    + ", or a whole frame (ask the room to join this player again)");
        }
    }

    /** The whole record a frame's entry makes: the entry over the record last applied; {@code null} with the problems added. */
    private ObjectNode merge(ObjectNode base, JsonNode entry, States<?> machine, String key, String at, List<String> problems) {
        if (!entry.isObject()) {
            problems.add(at + ": expected a record object (or null when the record is gone), found " + Json.kind(entry));
            return null;
        }
        List<String> fields = RecordCodec.fieldNames(Access.chart(machine.machine()));
        int before = problems.size();
        for (Iterator<String> it = entry.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!fields.contains(f) && !f.equals("contextFields") && !f.equals(RecordCodec.RANDOM)) {
                problems.add(at + "." + f + ": '" + f + "' is not a field of a '" + machine.id() + "' record; expected some of " + fields
                        + ", contextFields or random");
            }
        }
        if (entry.has("context") && entry.has("contextFields")) {
            problems.add(at + ": gives both context and contextFields; expected the whole context or its changed fields");
        }
        if (base == null) {
            List<String> missing = new ArrayList<>();
            for (String f : fields) {
                if (!entry.has(f)) {
                    missing.add(f);
                }
            }
            if (!missing.isEmpty() || entry.has("contextFields")) {
                problems.add(at + ": this replica holds no '" + machine.id() + "' record on entity '" + key + "', so the frame must give"
                        + " it whole; " + (missing.isEmpty() ? "found contextFields, expected context" : "missing " + missing));
            }
        }
        if (problems.size() > before) {
            return null;
        }
        ObjectNode merged = base == null ? ((ObjectNode) entry).deepCopy() : base.deepCopy();
        for (Map.Entry<String, JsonNode> f : entry.properties()) {
            if (!f.getKey().equals("contextFields")) {
                merged.set(f.getKey(), f.getValue());
            }
        }
        JsonNode changed = entry.get("contextFields");
        if (changed != null) {
            JsonNode context = merged.get("context");
            if (!changed.isObject()) {
                problems.add(at + ".contextFields: expected an object of the context's changed fields, found " + Json.kind(changed));
            } else if (context == null || !context.isObject()) {
                problems.add(at + ".contextFields: the context held is " + Json.kind(context) + ", which has no fields; expected context");
            } else {
                for (Map.Entry<String, JsonNode> f : changed.properties()) {
                    if (!context.has(f.getKey())) {
                        problems.add(at + ".contextFields." + f.getKey() + ": the '" + machine.id() + "' context held has no field '"
                                + f.getKey() + "'; expected one of its fields, or the whole context");
                    } else {
                        ((ObjectNode) context).set(f.getKey(), f.getValue());
                    }
                }
            }
        }
        merged.remove("contextFields");
        return problems.size() > before ? null : merged;
    }

    /** Writes a checked frame: the clock, then what goes, then what comes. */
    private void write(double time, long steps, boolean whole, List<Staged> staged, List<String[]> removed) {
        Access.followClock(world, time, steps);
        Set<String> touched = new HashSet<>();
        if (whole) {
            Set<String> named = new HashSet<>();
            for (Staged s : staged) {
                named.add(s.key + '\u0000' + s.machine.id());
            }
            for (States<?> m : definitions) {
                for (StateRecord<?> r : recordsOf(m)) {
                    String key = StateWorld.keyOf(r.entity());
                    if (key == null || !named.contains(key + '\u0000' + m.id())) {
                        world.detach(r.entity(), m);
                        if (key != null) {
                            touched.add(key);
                        }
                    }
                }
            }
            view.clear();
        }
        for (String[] gone : removed) {
            Entity e = entity(gone[0]);
            if (e != null) {
                for (States<?> m : definitions) {
                    if (m.id().equals(gone[1])) {
                        world.detach(e, m);
                    }
                }
            }
            Map<String, ObjectNode> held = view.get(gone[0]);
            held.remove(gone[1]);
            if (held.isEmpty()) {
                view.remove(gone[0]);
            }
            touched.add(gone[0]);
        }
        for (Staged s : staged) {
            Entity e = entity(s.key);
            if (e == null) {
                e = world.spawn(EntityKey.of(s.key));
                spawned.add(s.key);
            }
            StateRecord<?> now = e.get(s.machine.recordType());
            if (s.contextKept && now != null && now.world() == world) {
                s.record.context(now.context()); // the context did not change: the game's references to it stay good
            }
            SavesJson.write(world, e, s.machine, s.record);
            view.computeIfAbsent(s.key, k -> new HashMap<>()).put(s.machine.id(), s.merged);
        }
        for (String key : touched) {
            Entity e = entity(key);
            if (e != null && spawned.contains(key) && !holdsAny(e)) {
                world.despawn(e);
                spawned.remove(key);
            }
        }
    }

    private List<? extends StateRecord<?>> recordsOf(States<?> m) {
        return world.records(m);
    }

    private Entity entity(String key) {
        return world.entity(key);
    }

    private boolean holdsAny(Entity e) {
        for (States<?> m : definitions) {
            StateRecord<?> r = e.get(m.recordType());
            if (r != null && r.world() == world) {
                return true;
            }
        }
        return false;
    }

    private static StreamException refused(List<String> problems) {
        return new StreamException("the frame cannot be applied; the replica is unchanged", problems);
    }

    /** A record checked and ready to write. */
    private static final class Staged {
        final String key;
        final States<?> machine;
        final MachineRecord record;
        final ObjectNode merged;
        final boolean contextKept;

        Staged(String key, States<?> machine, MachineRecord record, ObjectNode merged, boolean contextKept) {
            this.key = key;
            this.machine = machine;
            this.record = record;
            this.merged = merged;
            this.contextKept = contextKept;
        }
    }
}

package dev.enginestates.io;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.enginestates.algorithm.RecordField;
import dev.enginestates.algorithm.StyleRuntime;
import dev.enginestates.declare.SavedContext;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.Owner;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.StateMachineDefinition;
import dev.enginestates.StatesDef;
import dev.enginestates.Machine;
import dev.enginestates.records.Access;
import dev.enginestates.records.MachineRecord;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The room's side of streaming its machines to players' replicas: after each step, a frame per
 * player holding the records that changed since that player's last frame, and of each only
 * the fields that changed. A player who joins, or joins again after a reload, gets a whole
 * frame: every record it may see, whole. The replica side is {@link Replica}; the transport
 * (WebSocket, server-sent events, a game's own socket) is the game's.
 *
 * <pre>{@code
 * RoomStream stream = RoomStream.of(world, GUARD, TALK);
 * stream.join("alice");                       // her next frame is whole
 * world.step(1 / 60.0);
 * for (Map.Entry<String, String> f : stream.frames().entrySet()) {
 *     send(f.getKey(), f.getValue());         // the game's transport
 * }
 * }</pre>
 *
 * <p><b>Who gets what.</b> A machine declared {@code ownerOnly()} goes to the player its
 * entity's {@link Owner} component names and to nobody else: another player's frames hold no
 * byte of it, not even its entity's key when the entity holds nothing else they may see. An
 * {@code ownerOnly} machine on an entity without an owner (the world's own entity included, unless
 * the game gives it one) goes to nobody. Every other machine goes to every player. When an
 * entity changes hands, the old owner's next frame removes the record and the new owner's
 * brings it whole. Machines of ids the stream was not made with stay on the room.
 *
 * <p><b>Interest management.</b> With an {@link Interest} set ({@link #interest}), a player's
 * frames carry only the entities it selects for that player, on top of {@code ownerOnly}: a
 * record goes to a player only when both allow it. An entity that enters a player's interest
 * arrives whole in the next frame, one that leaves it is removed there, and an entity outside
 * it sends that player not a byte. Without one, every entity goes to every player.
 *
 * <p><b>Entities are named by key</b>, as in a checkpoint: every entity holding a streamed
 * machine needs an {@link EntityKey} ({@code "world"} is the world's own), or the frame is
 * refused with a {@link StreamException} naming it.
 *
 * <p><b>The frame</b> (format {@value #FORMAT}, version {@value #VERSION}) is one JSON object:
 * <table class="striped">
 * <caption>Fields of a frame</caption>
 * <thead><tr><th>field</th><th>value</th></tr></thead>
 * <tbody>
 * <tr><td>{@code format}</td><td>{@code "engine-states/stream"}</td></tr>
 * <tr><td>{@code version}</td><td>{@value #VERSION}; a replica refuses any other</td></tr>
 * <tr><td>{@code stream}</td><td>this stream's id, 16 hexadecimal digits drawn at random when it is made: a replica takes
 * a frame of changes only from the stream whose whole frame it last applied</td></tr>
 * <tr><td>{@code epoch}</td><td>the room's incarnation ({@link #epoch()}), 1 or more: a replica never applies a frame of an
 * epoch older than the newest it applied, nor a frame of another stream with the same epoch</td></tr>
 * <tr><td>{@code recipient}</td><td>the player the frame is for</td></tr>
 * <tr><td>{@code seq}</td><td>rising for each player: a frame of changes follows the one numbered one less; a player's
 * first frame after {@link #join} (a new player, or one that left) is numbered after every frame this stream made
 * before it, so no late frame of the stream outnumbers it</td></tr>
 * <tr><td>{@code whole}</td><td>{@code true}: everything the player may see (after {@link #join}); {@code false}: what
 * changed since the player's last frame</td></tr>
 * <tr><td>{@code clock}</td><td>{@code {"time": seconds, "steps": count}}: the room's clock, exactly</td></tr>
 * <tr><td>{@code machines}</td><td>{@code {machine id: {"version": n, "fingerprint": "..."}}}, as a checkpoint names them: the
 * definition each machine's records are read as, in a whole frame for every machine it holds records of, and in a frame
 * of changes for a machine whose first record reaches the player; absent when it names none</td></tr>
 * <tr><td>{@code entities}</td><td>{@code {key: {machine id: record, or null when the record is gone for this
 * player}}}, only the entities with something to say; empty when nothing changed</td></tr>
 * </tbody>
 * </table>
 * A record has the fields a checkpoint writes ({@code status}, {@code active} (the active
 * state paths in entry order), {@code history}, {@code paused}, {@code wait} (its state, the
 * clock time it started and its seconds, so a wait costs nothing while it counts),
 * {@code heldSince}, {@code context}, and a polled or builder-style machine's clocks); each is
 * replaced whole when it changes. A record the player already holds comes with the fields that
 * changed only, and a context that is a JSON object with the same field names as before comes as
 * {@code contextFields}: its changed fields alone. A record new to the player comes whole.
 *
 * <p><b>A machine swapped mid-run.</b> The stream sends, of each machine id, the definition whose
 * records the world holds: after {@link StateWorld#swap} it follows the newer one (made with it or
 * not), and every player's next frame is whole, naming the new version, so a replica made with that
 * version replaces its records of the older one. Records of two definitions of one id at once
 * cannot be named by one frame, and are refused with a {@link StreamException} naming both.
 *
 * <p><b>Epochs: a room that moves.</b> A room restored on another node (from its checkpoint, or its
 * journal) streams from there with a new {@code RoomStream}, whose whole frames replicas take in
 * place of the old home's. Frames of the old home may still arrive late, or the old home may
 * still run for a while; a replica tells them apart by the epoch: it never goes back to a smaller
 * one. So the new home's stream needs an epoch larger than any its old home used. The room's
 * code gives it: for example the epoch saved beside the checkpoint, plus one; or, when two homes
 * can restore the same checkpoint (a room replaying its journal after the home that restored it
 * died before saving again), a number its journal makes larger at each incarnation
 * ({@code samples/pekko-cluster} persists one). Two streams of one epoch cannot be ordered: a
 * replica follows the first it applied and refuses the other's frames, whole frames included.
 *
 * <p><b>Cost.</b> A frame compares each streamed record with the copy kept of it at the last
 * frame (no allocation) and writes its context to a reused buffer to see whether it changed;
 * records are encoded only when they changed, once for all players. {@link #frames()} makes
 * every player's frame from one such pass; {@link #frame(String)} makes a pass for one. An
 * {@link Interest} is asked once per player per frame for each entity holding a record the
 * player may otherwise see; its answers are kept in a bit set per player, reused from frame to
 * frame.
 *
 * <p>Jackson is needed, as for {@link Saves}. A stream belongs to its world's thread; its
 * frames are strings any thread may send.
 */
public final class RoomStream {
    /** The frame format's name. */
    public static final String FORMAT = "engine-states/stream";
    /**
     * The frame format's version; a replica refuses frames of another. 2: an XState-style record
     * carries its entry times ({@code entered}), which version 1 had not. 3: a frame names its
     * stream ({@code stream}), so a replica refuses changes from another room's stream. 4: a frame
     * carries its room's {@code epoch}, so a replica never goes back to a room's older home.
     */
    public static final int VERSION = 4;

    private final RoomFrames impl;

    private RoomStream(RoomFrames impl) {
        this.impl = impl;
    }

    /**
     * A stream of these machines' records in this world, of epoch 1: a room's first home. A room
     * that moves streams from its new home with {@link #of(StateWorld, long, States...)} and a
     * larger epoch.
     *
     * @param world    the room's world
     * @param machines the machines to stream; the world's other machines stay on the room
     * @return the stream, with no player yet
     * @throws StreamException if a context type cannot be written and read back exactly, or two machines share an id
     * @throws IllegalStateException if Jackson is not there
     */
    public static RoomStream of(StateWorld world, States<?>... machines) {
        return of(world, 1, machines);
    }

    /**
     * A stream of these machines' records in this world, of the room's given epoch (its
     * incarnation): replicas take its whole frames over those of any smaller epoch, and never
     * take a frame of a smaller epoch after one of its own.
     *
     * @param world    the room's world
     * @param epoch    the room's incarnation, 1 or more: larger than the epoch of every stream the room had before, on
     *                 any node; the room's code keeps it (beside its checkpoint, or in its journal)
     * @param machines the machines to stream; the world's other machines stay on the room
     * @return the stream, with no player yet
     * @throws IllegalArgumentException if the epoch is below 1
     * @throws StreamException if a context type cannot be written and read back exactly, or two machines share an id
     * @throws IllegalStateException if Jackson is not there
     */
    public static RoomStream of(StateWorld world, long epoch, States<?>... machines) {
        Objects.requireNonNull(world, "world");
        if (epoch < 1) {
            throw new IllegalArgumentException("a room stream's epoch must be 1 or more, found " + epoch + " for the stream of world "
                    + world + "; expected the room's incarnation, larger than that of every stream it had before");
        }
        Jackson.require("RoomStream");
        return new RoomStream(new RoomFrames(world, epoch, machines));
    }

    /**
     * A stream of these XState-style machines: {@link #of(StateWorld, long, States...)} of their bindings.
     * Machines of several styles are streamed together through their bindings ({@code States.of(...)}).
     *
     * @param world    the room's world
     * @param epoch    the room's incarnation, 1 or more
     * @param machines the machines to stream
     * @return the stream, with no player yet
     */
    public static RoomStream of(StateWorld world, long epoch, Machine<?>... machines) {
        return of(world, epoch, Bindings.of(machines));
    }

    /**
     * A stream of these polled tables: {@link #of(StateWorld, long, States...)} of their bindings.
     *
     * @param world       the room's world
     * @param epoch       the room's incarnation, 1 or more
     * @param definitions the tables to stream
     * @return the stream, with no player yet
     */
    public static RoomStream of(StateWorld world, long epoch, StatesDef<?>... definitions) {
        return of(world, epoch, Bindings.of(definitions));
    }

    /**
     * A stream of these builder-style machines: {@link #of(StateWorld, long, States...)} of their bindings.
     *
     * @param world       the room's world
     * @param epoch       the room's incarnation, 1 or more
     * @param definitions the built machines to stream
     * @return the stream, with no player yet
     */
    public static RoomStream of(StateWorld world, long epoch, StateMachineDefinition<?>... definitions) {
        return of(world, epoch, Bindings.of(definitions));
    }

    /**
     * A stream of these XState-style machines, of epoch 1.
     *
     * @param world    the room's world
     * @param machines the machines to stream
     * @return the stream, with no player yet
     */
    public static RoomStream of(StateWorld world, Machine<?>... machines) {
        return of(world, 1, machines);
    }

    /**
     * A stream of these polled tables, of epoch 1.
     *
     * @param world       the room's world
     * @param definitions the tables to stream
     * @return the stream, with no player yet
     */
    public static RoomStream of(StateWorld world, StatesDef<?>... definitions) {
        return of(world, 1, definitions);
    }

    /**
     * A stream of these builder-style machines, of epoch 1.
     *
     * @param world       the room's world
     * @param definitions the built machines to stream
     * @return the stream, with no player yet
     */
    public static RoomStream of(StateWorld world, StateMachineDefinition<?>... definitions) {
        return of(world, 1, definitions);
    }

    /**
     * This stream's epoch, which every frame carries.
     *
     * @return the epoch it was made with (1 unless given)
     */
    public long epoch() {
        return impl.epoch;
    }

    /**
     * Adds a player, or starts one over (a page that reloads): its next frame is whole. A player
     * new to the stream, or back after {@link #leave}, is numbered on from the stream's frames
     * made so far, not from 1, so its replica takes no late frame of its earlier stay after it.
     *
     * @param recipient the player's id, as its entities' {@link Owner} names it; not empty
     * @throws IllegalArgumentException if the id is empty
     * @throws IllegalStateException if called from the stream's {@link Interest} while it is asked
     */
    public void join(String recipient) {
        impl.join(recipient);
    }

    /**
     * Forgets a player and what it was sent.
     *
     * @param recipient the player's id
     * @return {@code true} if the player had joined
     * @throws IllegalStateException if called from the stream's {@link Interest} while it is asked
     */
    public boolean leave(String recipient) {
        return impl.leave(recipient);
    }

    /**
     * The players that have joined.
     *
     * @return a new list, in the order they first joined
     */
    public List<String> recipients() {
        return impl.recipients();
    }

    /**
     * The next frame for one player: whole after {@link #join}, else the changes since its last frame.
     *
     * @param recipient a player that has joined
     * @return the frame's JSON text, for the player's {@link Replica#apply}
     * @throws IllegalArgumentException if the player has not joined
     * @throws IllegalStateException if called from the game's code inside one of the world's calls,
     *         such as a listener during a send, where a record may be half-way through a move, or from the stream's interest
     * @throws StreamException if an entity holding a streamed machine has no key, or two such entities share one, or the
     *         {@link Interest} throws (no player's frame is made)
     */
    public String frame(String recipient) {
        return impl.frame(recipient);
    }

    /**
     * The next frame of every player, from one pass over the world.
     *
     * @return the frames' JSON texts by player, in the order they first joined
     * @throws IllegalStateException if called from the game's code inside one of the world's calls, or from the stream's interest
     * @throws StreamException if an entity holding a streamed machine has no key, or two such entities share one, or the
     *         {@link Interest} throws for any player (no player's frame is made)
     */
    public Map<String, String> frames() {
        return impl.frames();
    }

    /**
     * Sets the rule of which entities each player's frames carry (interest management), or, with
     * {@code null}, goes back to every entity for every player. It applies from the next frame:
     * an entity that enters a player's interest then arrives whole, one that leaves it is removed.
     *
     * <p>It is asked during {@link #frames()} and {@link #frame(String)}, on the room's thread,
     * after the pass over the world and before any frame is written, every player's answers
     * first: an interest that throws fails the call with a {@link StreamException} naming the
     * player and the entity, and no player's frame is made nor any player's view changed, so the
     * next call asks again. What it changes in the world while asked reaches the players in the
     * next frame (the frame being made was read before); calling this stream from it is refused.
     *
     * @param interest the rule, or {@code null} for every entity
     * @return this stream
     * @throws IllegalStateException if called from an interest while the stream asks it
     */
    public RoomStream interest(Interest interest) {
        impl.interest(interest);
        return this;
    }

    /**
     * The ids of the machines this stream sends.
     *
     * @return the ids, in the order the machines were given
     */
    public List<String> machineIds() {
        return impl.machineIds();
    }
}

/**
 * What {@link RoomStream} does, with Jackson (linked only once {@link RoomStream#of} found it).
 */
final class RoomFrames {
    /** The audience of an {@code ownerOnly} record on an entity without an owner: no player's id is empty. */
    private static final String NOBODY = "";

    private final StateWorld world;
    private final SavesJson saves;
    private final ObjectMapper json;
    private final RecordCodec codec;
    /**
     * The definition streamed of each machine id: the one given, until the world's records of that
     * id are another definition's ({@link StateWorld#swap}), which the stream then follows.
     */
    private final Map<String, States<?>> machines = new LinkedHashMap<>();
    /** Every streamed record of the world at the last pass, and what was found of it. */
    private final Map<StateRecord<?>, Tracked> tracked = new IdentityHashMap<>();
    /** The records of the last pass, in the world's order (machines as declared, records as spawned). */
    private final List<Tracked> order = new ArrayList<>();
    /**
     * The record each key named in its last pass, kept from pass to pass (a key names one entity): a
     * pass only replaces values, so a room whose keys stay put allocates nothing here.
     */
    private final Map<String, Tracked> named = new HashMap<>();
    private final Map<String, Recipient> recipients = new LinkedHashMap<>();
    private final Buffer buffer = new Buffer();
    /** Writes contexts into {@link #buffer}, one after another, kept from pass to pass. */
    private final JsonGenerator contexts;
    /** Counts the passes over the world; a player who joins is numbered on from here, since each of its frames takes a pass. */
    private long passes;
    /** The room's clock at the last pass: a frame names the clock its records were read at, whatever ran since. */
    private double passTime;
    private long passSteps;
    /** The entities of the last pass (each the head of its records): the numbers of their slots in a player's {@link Recipient#seen}. */
    private int heads;
    /** The game's rule of which entities each player's frames carry, or {@code null} for every entity. */
    private Interest interest;
    /** Whether {@link #interest} is being asked now: this stream's calls from it are refused. */
    private boolean asking;
    /** The room's incarnation, named in every frame. */
    final long epoch;
    /**
     * This stream's id, named in every frame: two rooms' frames for one player may carry the same
     * numbers, and a replica must not apply one room's changes over the other's records.
     */
    private final String stream = String.format("%016x", java.util.concurrent.ThreadLocalRandom.current().nextLong());

    RoomFrames(StateWorld world, long epoch, States<?>[] machines) {
        this.world = world;
        this.epoch = epoch;
        try {
            this.saves = new SavesJson(machines);
        } catch (CheckpointException e) {
            throw new StreamException("these machines cannot be streamed", e.problems());
        }
        this.json = saves.json();
        this.codec = saves.codec();
        for (States<?> m : SavesJson.withInvokedChildren(machines)) {
            this.machines.put(m.id(), m);
        }
        try {
            this.contexts = json.getFactory().createGenerator(buffer);
        } catch (IOException e) {
            throw new IllegalStateException(e); // a generator over memory does no I/O
        }
        contexts.setRootValueSeparator(null); // each context's bytes alone, wherever it falls in the run
    }

    void join(String recipient) {
        refuseWhileAsking("join", recipient);
        Objects.requireNonNull(recipient, "recipient");
        if (recipient.isEmpty()) {
            throw new IllegalArgumentException("a recipient's id must not be empty; expected the player's id, as Owner names it");
        }
        Recipient r = recipients.computeIfAbsent(recipient, id -> new Recipient(id, passes));
        r.whole = true;
    }

    boolean leave(String recipient) {
        refuseWhileAsking("leave", recipient);
        return recipients.remove(recipient) != null;
    }

    void interest(Interest rule) {
        refuseWhileAsking("interest(...)", null);
        this.interest = rule;
    }

    /**
     * Refuses a call that changes players' views from inside the interest, which the stream asks
     * between its pass and the frames it writes from it. The call's text is made only then: a frame allocates none of it.
     */
    private void refuseWhileAsking(String method, String recipient) {
        if (asking) {
            String call = recipient == null ? method : method + "(\"" + recipient + "\")";
            throw new IllegalStateException("the stream's " + call + " was called from its Interest while the stream was asking it,"
                    + " between reading the room and writing the frames; expected the interest to answer only (keep a flag and"
                    + " make the call after frames() returns). Nothing was changed.");
        }
    }

    List<String> recipients() {
        return new ArrayList<>(recipients.keySet());
    }

    List<String> machineIds() {
        return new ArrayList<>(machines.keySet());
    }

    String frame(String recipient) {
        refuseWhileAsking("frame", recipient);
        Recipient r = recipients.get(recipient);
        if (r == null) {
            throw new IllegalArgumentException("recipient '" + recipient + "' has not joined this stream; expected join(\"" + recipient
                    + "\") first (joined: " + recipients.keySet() + ")");
        }
        Access.checkOutsideCalls(world, "a stream's frame");
        SaveFlight.FrameEvent recorded = SaveFlight.frame(); // its time: the pass over the world and the player's frame
        boolean whole = r.whole;
        pass();
        Interest rule = interest;
        if (rule != null) {
            ask(rule, r);
        }
        String frame = write(r, rule != null);
        if (recorded != null) {
            SaveFlight.framed(recorded, world, recipient, frame, whole, recipients.size());
        }
        return frame;
    }

    Map<String, String> frames() {
        refuseWhileAsking("frames()", null);
        Access.checkOutsideCalls(world, "a stream's frames");
        pass();
        Interest rule = interest;
        if (rule != null) {
            // every player's answers before any frame: an interest that throws for the last player leaves the first as it was
            for (Recipient r : recipients.values()) {
                ask(rule, r);
            }
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Recipient r : recipients.values()) {
            SaveFlight.FrameEvent recorded = SaveFlight.frame(); // its time: the player's frame (the pass is shared)
            boolean whole = r.whole;
            String frame = write(r, rule != null);
            if (recorded != null) {
                SaveFlight.framed(recorded, world, r.id, frame, whole, recipients.size());
            }
            out.put(r.id, frame);
        }
        return out;
    }

    /**
     * Asks the interest about each entity of the last pass that holds a record the player may
     * otherwise see, and notes the answers in the player's {@link Recipient#seen}; nothing else
     * of the player changes, so a rule that throws leaves the player as it was.
     */
    private void ask(Interest rule, Recipient r) {
        BitSet seen = r.seen;
        seen.clear();
        asking = true;
        try {
            for (Tracked t : order) {
                if (t.head != t || !(t.forAll || r.id.equals(t.ownedBy))) {
                    continue; // asked once per entity, and not about an entity the player may see nothing of anyway
                }
                boolean sees;
                try {
                    sees = rule.sees(r.id, t.record.entity());
                } catch (RuntimeException e) {
                    StreamException refused = new StreamException("the room's Interest failed; no player's frame was made and nothing"
                            + " was changed, so the next call asks again", List.of("$.entities." + t.key + ": the interest threw for"
                            + " player '" + r.id + "' on entity '" + t.key + "': " + e + "; expected it to answer whether the player"
                            + " sees the entity"));
                    refused.initCause(e);
                    throw refused;
                }
                if (sees) {
                    seen.set(t.slot);
                }
            }
        } finally {
            asking = false;
        }
    }

    // ------------------------------------------------------------------ the pass over the world

    /** Finds every streamed record, and encodes again those that changed since the last pass. */
    private void pass() {
        List<String> problems = new ArrayList<>();
        int unkeyed = 0;
        long pass = ++passes;
        order.clear();
        heads = 0;
        passTime = world.time();
        passSteps = world.steps();
        follow(problems);
        for (States<?> m : world.machines()) {
            if (machines.get(m.id()) != m) {
                continue;
            }
            for (StateRecord<?> r : world.records(m)) {
                String key = StateWorld.keyOf(r.entity());
                if (key == null) {
                    if (++unkeyed <= Problems.LISTED) {
                        problems.add("entity " + StateWorld.nameOf(r.entity()) + " holds machine '" + m.id() + "' but has no EntityKey,"
                                + " so no replica could name it; expected the game to spawn it with EntityKey.of(...)");
                    }
                    continue;
                }
                Tracked owner = named.get(key);
                if (owner != null && owner.pass == pass && owner.record.entity() != r.entity()) {
                    // a replica would hold one record under the key where the room has two: refused, as a checkpoint refuses it
                    problems.add("two entities have key '" + key + "' (one holds machine '" + m.id() + "'); keys must be unique, so a"
                            + " replica can name each; expected each entity its own EntityKey");
                    continue;
                }
                Tracked t = tracked.get(r);
                if (t == null) {
                    t = new Tracked(r, m);
                    tracked.put(r, t);
                }
                if (owner != null && owner != t && owner.pass == pass) {
                    t.head = owner.head; // the entity's first record of this pass speaks for it to the interest
                } else {
                    t.head = t;
                    t.slot = heads++;
                    t.forAll = false;
                    t.ownedBy = null;
                }
                t.key = key;
                t.pass = pass;
                if (owner != t) {
                    named.put(key, t);
                }
                order.add(t);
            }
        }
        if (unkeyed > Problems.LISTED) {
            // a game that forgot keys forgot them for every entity: a few lines say so, not one per entity
            problems.add(Problems.moreUnkeyed(unkeyed));
        }
        if (!problems.isEmpty()) {
            throw new StreamException("the room cannot be streamed; no frame was made", problems);
        }
        tracked.values().removeIf(t -> t.pass != pass); // despawned or detached
        named.values().removeIf(t -> t.pass != pass); // and keys no entity has now
        for (Tracked t : order) {
            update(t);
            if (t.audience == null) {
                t.head.forAll = true;
            } else {
                t.head.ownedBy = t.audience; // an entity has one owner, so its ownerOnly records share it
            }
        }
    }

    /**
     * Follows each machine id to the definition whose records the world holds: after a swap the
     * records are the newer definition's, and every player's next frame is whole, naming it, so a
     * replica reads them all as that version. Two definitions of one id holding records at once
     * cannot be named by one frame, and are refused.
     */
    private void follow(List<String> problems) {
        for (States<?> m : world.machines()) {
            States<?> streamed = machines.get(m.id());
            if (streamed == null || streamed == m || world.records(m).isEmpty()) {
                continue;
            }
            if (!world.records(streamed).isEmpty()) {
                problems.add("machine '" + m.id() + "' has records of two definitions in the room: version "
                        + streamed.machine().version() + " (fingerprint " + streamed.machine().fingerprint() + ") and version "
                        + m.machine().version() + " (fingerprint " + m.machine().fingerprint() + "); a frame reads every record of"
                        + " a machine as one version, so expected world.swap(older, newer) to move them all");
                continue;
            }
            try {
                new SavesJson(new States<?>[] {m}); // its context must write and read back, as the given machines' must
            } catch (CheckpointException e) {
                problems.addAll(e.problems());
                continue;
            }
            machines.put(m.id(), m);
            for (Recipient r : recipients.values()) {
                r.whole = true; // the records held of the older definition are all replaced, under the version named
            }
        }
    }

    private void update(Tracked t) {
        MachineRecord rec = Access.record(t.record);
        boolean fieldsChanged = t.shadow == null || !sameFields(rec, t.shadow);
        Object context = rec.contextObject();
        boolean contextChanged;
        if (context == null) {
            contextChanged = t.contextBytes != null || t.shadow == null;
            t.contextBytes = null;
        } else {
            buffer.reset();
            try {
                // a context that saves itself is written as it saves (encoded once more below if it changed)
                json.writeValue(contexts, context instanceof SavedContext ? codec.encodeContext(context) : context);
                contexts.flush();
            } catch (IOException e) {
                throw new IllegalStateException("machine '" + t.machine.id() + "': its context could not be written: " + Json.oneLine(e), e);
            } catch (RecordCodec.Refused e) {
                throw new StreamException("the room cannot be streamed", List.of("$.entities." + t.key + "." + t.machine.id()
                        + ".context: machine '" + t.machine.id() + "' on entity '" + t.key + "' cannot save its context: " + e.getMessage()));
            }
            contextChanged = t.contextBytes == null || !buffer.holds(t.contextBytes);
            if (contextChanged) {
                t.contextBytes = buffer.toByteArray();
            }
        }
        if (fieldsChanged || contextChanged) {
            ObjectNode f = codec.encodeFields(rec);
            f.set("context", contextChanged ? codec.encodeContext(context) : t.fields.get("context"));
            t.fields = f; // never changed once made: players' views share it
            t.version++;
            if (fieldsChanged) {
                if (t.shadow == null) {
                    t.shadow = new MachineRecord(rec.chart(), null);
                }
                t.shadow.copyFrom(rec);
            }
        }
        if (!t.machine.machine().ownerOnly()) {
            t.audience = null;
        } else {
            Owner owner = t.record.entity().get(Owner.class);
            t.audience = owner == null ? NOBODY : owner.player();
        }
    }

    /** Whether a record's fields (all but its context) are as the copy kept at the last pass has them. */
    private static boolean sameFields(MachineRecord a, MachineRecord b) {
        if (a.status() != b.status() || a.activeCount() != b.activeCount() || a.waitState() != b.waitState()
                || !same(a.heldSince(), b.heldSince())) {
            return false;
        }
        if (a.waitState() >= 0 && (!same(a.waitStart(), b.waitStart()) || !same(a.waitSeconds(), b.waitSeconds()))) {
            return false;
        }
        for (int i = 0; i < a.activeCount(); i++) {
            if (a.activeAt(i) != b.activeAt(i)) {
                return false;
            }
        }
        int size = a.chart().size;
        for (int s = 0; s < size; s++) {
            if (!same(a.paused(s), b.paused(s)) || a.historySize(s) != b.historySize(s)) {
                return false;
            }
            for (int i = 0; i < a.historySize(s); i++) {
                if (a.historyAt(s, i) != b.historyAt(s, i)) {
                    return false;
                }
            }
        }
        if (a.randomState() != b.randomState()) {
            return false;
        }
        List<RecordField> own = StyleRuntime.of(a.chart()).recordFields(); // the fields the frame would write, as the frame writes them
        for (int i = 0; i < own.size(); i++) {
            if (!own.get(i).same(a, b)) {
                return false;
            }
        }
        return true;
    }

    private static boolean same(double a, double b) {
        return Double.doubleToLongBits(a) == Double.doubleToLongBits(b);
    }

    // ------------------------------------------------------------------ one player's frame

    /** The player's frame from the last pass; {@code filtered}: only the entities its {@link Recipient#seen} holds. */
    private String write(Recipient r, boolean filtered) {
        boolean whole = r.whole;
        if (whole) {
            r.sent.clear();
            r.named.clear();
        }
        ObjectNode versions = null;
        long round = ++r.rounds;
        ObjectNode entities = JsonNodeFactory.instance.objectNode();
        for (Tracked t : order) {
            if (t.audience != null && !t.audience.equals(r.id)) {
                continue; // not this player's: not a byte of it
            }
            if (filtered && !r.seen.get(t.head.slot)) {
                continue; // outside the player's interest: not a byte of it either
            }
            Sent s = r.sent.get(t);
            if (s != null && s.version == t.version && s.key.equals(t.key)) {
                s.round = round;
                continue;
            }
            boolean moved = s != null && !s.key.equals(t.key);
            if (moved) {
                // its entity's key changed, or it went to another entity: gone from the old name, whole under the new
                removal(entities, s.key, t.machine.id());
            }
            ObjectNode out = s == null || moved ? t.fields : changes(s.fields, t.fields);
            if (out != null) {
                entity(entities, t.key).set(t.machine.id(), out);
                if (r.named.get(t.machine.id()) != t.machine) {
                    // the first record of the machine this player gets: the frame names the version it is read as
                    r.named.put(t.machine.id(), t.machine);
                    if (versions == null) {
                        versions = JsonNodeFactory.instance.objectNode();
                    }
                    versions.set(t.machine.id(), SavesJson.identity(t.machine));
                }
            }
            if (s == null) {
                s = new Sent(t);
                r.sent.put(t, s);
            }
            s.key = t.key;
            s.version = t.version;
            s.fields = t.fields;
            s.round = round;
        }
        for (Iterator<Sent> it = r.sent.values().iterator(); it.hasNext(); ) {
            Sent s = it.next();
            if (s.round != round) {
                removal(entities, s.key, s.source.machine.id()); // gone, or no longer this player's
                it.remove();
            }
        }
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("format", RoomStream.FORMAT);
        root.put("version", RoomStream.VERSION);
        root.put("stream", stream);
        root.put("epoch", epoch);
        root.put("recipient", r.id);
        root.put("seq", ++r.seq);
        root.put("whole", whole);
        ObjectNode clock = root.putObject("clock");
        clock.put("time", passTime);
        clock.put("steps", passSteps);
        if (versions != null) {
            root.set(SavesJson.MACHINES, versions);
        }
        root.set("entities", entities);
        r.whole = false;
        try {
            return json.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A record gone from a name, unless the frame already gives that name a record (one that took its place). */
    private static void removal(ObjectNode entities, String key, String machineId) {
        ObjectNode e = entity(entities, key);
        if (!e.has(machineId)) {
            e.putNull(machineId);
        }
    }

    private static ObjectNode entity(ObjectNode entities, String key) {
        JsonNode e = entities.get(key);
        return e != null ? (ObjectNode) e : entities.putObject(key);
    }

    /** The fields of {@code now} that differ from {@code before}, or {@code null} when none does. */
    private static ObjectNode changes(ObjectNode before, ObjectNode now) {
        ObjectNode out = null;
        for (Map.Entry<String, JsonNode> f : now.properties()) {
            JsonNode was = before.get(f.getKey());
            if (was == f.getValue() || f.getValue().equals(was)) {
                continue;
            }
            if (out == null) {
                out = JsonNodeFactory.instance.objectNode();
            }
            if (f.getKey().equals("context") && sameShape(was, f.getValue())) {
                ObjectNode fields = out.putObject("contextFields");
                for (Map.Entry<String, JsonNode> c : f.getValue().properties()) {
                    if (!c.getValue().equals(was.get(c.getKey()))) {
                        fields.set(c.getKey(), c.getValue());
                    }
                }
            } else {
                out.set(f.getKey(), f.getValue());
            }
        }
        for (Iterator<String> it = before.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!now.has(f)) {
                // a field written only when set (the random numbers' state, which a restore may take back to "not seeded")
                if (out == null) {
                    out = JsonNodeFactory.instance.objectNode();
                }
                out.putNull(f);
            }
        }
        return out;
    }

    /** Whether two contexts are objects with the same field names, so the changed fields alone say what changed. */
    private static boolean sameShape(JsonNode a, JsonNode b) {
        if (a == null || !a.isObject() || !b.isObject() || a.size() != b.size()) {
            return false;
        }
        for (Iterator<String> it = b.fieldNames(); it.hasNext(); ) {
            if (!a.has(it.next())) {
                return false;
            }
        }
        return true;
    }

    /** A streamed record and what the last pass found of it. */
    private static final class Tracked {
        final StateRecord<?> record;
        final States<?> machine;
        String key;
        /** A copy of the record's fields at its last encoding, or {@code null} before the first. */
        MachineRecord shadow;
        /** Its context as written at its last encoding, or {@code null} (none, or no context). */
        byte[] contextBytes;
        /** The record as a checkpoint writes it, at its last encoding; never changed once made. */
        ObjectNode fields;
        /** Counts the encodings, so a player's view knows whether it holds the last one. */
        long version;
        /** The one player who may see it, {@link #NOBODY}, or {@code null} for everyone. */
        String audience;
        long pass;
        /** The first record of its entity in the last pass, which holds the entity's slot; itself when it is that record. */
        Tracked head;
        /** Of a head: the entity's number in the last pass, its bit in a player's {@link Recipient#seen}. */
        int slot;
        /** Of a head: whether a record of the entity goes to every player. */
        boolean forAll;
        /** Of a head: the player its {@code ownerOnly} records go to, if it holds any, else {@code null}. */
        String ownedBy;

        Tracked(StateRecord<?> record, States<?> machine) {
            this.record = record;
            this.machine = machine;
        }
    }

    /** A player: what it was sent of each record. */
    private static final class Recipient {
        final String id;
        final Map<Tracked, Sent> sent = new IdentityHashMap<>();
        /**
         * By id, the definition its frames named since its last whole frame: a machine is named when
         * its first record reaches the player (so an {@code ownerOnly} one only to its owner), and a
         * definition changes only in a whole frame, after which the records held are all replaced.
         */
        final Map<String, States<?>> named = new HashMap<>();
        boolean whole = true;
        /** The interest's answers at the last frame, by entity slot: set bits are the entities it sees. Reused from frame to frame. */
        final BitSet seen = new BitSet();
        /**
         * The number of its last frame. It starts at the passes made before it joined: a frame takes
         * a pass, so the numbers stay at most the passes made, and a player back after leaving is
         * numbered above any frame of its earlier stay (a late one of them cannot pass for newer).
         */
        long seq;
        long rounds;

        Recipient(String id, long seq) {
            this.id = id;
            this.seq = seq;
        }
    }

    /** What a player was last sent of one record. */
    private static final class Sent {
        final Tracked source;
        /** The key of the entity it was sent under. */
        String key;
        long version;
        ObjectNode fields;
        long round;

        Sent(Tracked source) {
            this.source = source;
        }
    }

    /** A byte buffer kept from pass to pass, which compares what it holds without copying it. */
    private static final class Buffer extends ByteArrayOutputStream {
        Buffer() {
            super(256);
        }

        boolean holds(byte[] bytes) {
            return Arrays.equals(buf, 0, count, bytes, 0, bytes.length);
        }
    }
}

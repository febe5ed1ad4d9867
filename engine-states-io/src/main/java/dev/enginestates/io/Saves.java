package dev.enginestates.io;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.enginestates.declare.SavedContext;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.Owner;
import dev.enginestates.ecs.Rewind;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.StateMachineDefinition;
import dev.enginestates.StatesDef;
import dev.enginestates.Machine;
import dev.enginestates.records.Access;

import java.util.List;

/**
 * Dumps, checkpoints and restores the machines of a world, and records and replays its inputs.
 * Made once for the machines a game saves; it checks at once that each context type can be
 * saved.
 *
 * <p><b>What a context must be to be saved:</b> a type Jackson can write and read back as it
 * was: a Java record, or a class with a no-argument constructor and public fields or
 * getters/setters, made of numbers, strings, booleans, enums, lists, maps and other such
 * types. {@link #of} writes a fresh context, reads it back and writes it again, and refuses a
 * type whose two writings differ or that cannot be read.
 *
 * <p><b>Entities are matched by key.</b> A checkpoint names each entity by its
 * {@link EntityKey} ({@code "world"} for the world's own entity). An entity that holds a
 * machine but has no key cannot be matched later, so {@link #checkpoint} refuses it (the dump,
 * which is for reading, names it {@code "#1"}, {@code "#2"}... in spawn order). A restore
 * writes each saved record onto the entity with the same key, replacing the record it has or
 * attaching one; machines the checkpoint does not name are left as they are.
 *
 * <p><b>Jackson.</b> Saves write JSON with Jackson ({@code com.fasterxml.jackson.core:jackson-databind}),
 * which engine-states-io brings. On the module path, Jackson reads and writes the contexts'
 * fields by reflection: the game's module opens their package to it
 * ({@code opens com.example.game to com.fasterxml.jackson.databind;}), or {@link #of} refuses the
 * context type.
 *
 * <p>Immutable and thread-safe; the worlds it reads and writes are not.
 */
public final class Saves {
    // This class only delegates, and names Jackson's types only where it passes them on unchanged,
    // so the JVM links it without Jackson and of() can say what is missing; SavesJson, below,
    // does the work.

    /** The checkpoint format's name and version. */
    public static final String CHECKPOINT_FORMAT = SavesJson.CHECKPOINT_FORMAT;
    /** The current checkpoint version; a checkpoint of another version is refused. */
    public static final int CHECKPOINT_VERSION = SavesJson.CHECKPOINT_VERSION;

    private final SavesJson impl;

    private Saves(SavesJson impl) {
        this.impl = impl;
    }

    /**
     * Saves for these machines. Several versions of one machine may be given
     * ({@code Saves.of(GUARD_V1, GUARD_V2)}): a checkpoint names each machine's version, a record of
     * a version given is read as that version, and a record of an older one is migrated to the
     * newest given, through the migrations it declares.
     *
     * @param machines the machines a game saves
     * @return saves for these machines
     * @throws CheckpointException if a context type cannot be written and read back exactly, or two machines share an id and a version
     * @throws IllegalStateException if Jackson is not there (a build that excludes engine-states-io's dependency)
     */
    public static Saves of(States<?>... machines) {
        Jackson.require("Saves");
        return new Saves(new SavesJson(machines));
    }

    /**
     * Saves for these XState-style machines: {@link #of(States...)} of their bindings. Machines of
     * several styles are saved together through their bindings ({@code States.of(...)}).
     *
     * @param machines the machines a game saves
     * @return saves for these machines
     * @throws CheckpointException as {@link #of(States...)}
     * @throws IllegalStateException if Jackson is not there
     */
    public static Saves of(Machine<?>... machines) {
        Jackson.require("Saves");
        return of(Bindings.of(machines));
    }

    /**
     * Saves for these polled tables: {@link #of(States...)} of their bindings.
     *
     * @param definitions the tables a game saves
     * @return saves for these machines
     * @throws CheckpointException as {@link #of(States...)}
     * @throws IllegalStateException if Jackson is not there
     */
    public static Saves of(StatesDef<?>... definitions) {
        Jackson.require("Saves");
        return of(Bindings.of(definitions));
    }

    /**
     * Saves for these builder-style machines: {@link #of(States...)} of their bindings.
     *
     * @param definitions the built machines a game saves
     * @return saves for these machines
     * @throws CheckpointException as {@link #of(States...)}
     * @throws IllegalStateException if Jackson is not there
     */
    public static Saves of(StateMachineDefinition<?>... definitions) {
        Jackson.require("Saves");
        return of(Bindings.of(definitions));
    }

    /**
     * A human-readable JSON picture of every machine on every entity: its state as XState
     * writes it, seconds waited and left, paused seconds by state, history, context (a polled
     * machine: every active state's clock, the total, the previous leaf and its {@code after}'s
     * seconds left), and each tag the entity has, named {@code <machine id>.<state path>}. A machine
     * declared {@code ownerOnly()} shows {@code "ownerOnly": true}, and an entity with an {@link Owner}
     * shows {@code "owner"}. A child machine's record shows {@code "parent"}: the entity and machine
     * that run it and its id among their children (a checkpoint holds no such link; a restore derives
     * it again). Keys are sorted and seconds rounded to the microsecond, so the same world always
     * dumps the same text.
     *
     * @param world the world to draw
     * @return the dump, as indented JSON text
     * @throws CheckpointException if a machine's context refuses to be written (a {@link dev.enginestates.declare.SavedContext}
     *         holding what is not a JSON value, such as an SCXML variable holding a function), naming the entity and machine
     */
    public String dump(StateWorld world) {
        return impl.dump(world);
    }

    /**
     * The records of every machine in the world, exactly, with the world's clock and a format
     * version. Tags are not saved: a restore rebuilds them from the records.
     *
     * @param world the world to checkpoint
     * @return the checkpoint, as JSON text
     * @throws CheckpointException if an entity holding a machine has no {@link EntityKey}, a machine is not one of these saves',
     *         or a machine's context refuses to be written (as {@link #dump} says)
     * @throws IllegalStateException if called during a step or a send (from a machine's own code), or between
     *         {@link StateWorld#advance} and {@link StateWorld#runStates}: a checkpoint is taken between ticks
     */
    public String checkpoint(StateWorld world) {
        SaveFlight.CheckpointEvent recorded = SaveFlight.checkpoint();
        String text = Access.during(world, "a checkpoint", () -> impl.checkpoint(world));
        if (recorded != null) {
            SaveFlight.checkpointed(recorded, world, text);
        }
        return text;
    }

    /**
     * The checkpoint of a tick a {@link Rewind} keeps, as {@link #checkpoint(StateWorld)} would have
     * written it at the start of that tick: the readable, versioned form of the rewind's binary
     * snapshot (to save, to send, to load into a test). Made in a scratch world of its own.
     *
     * @param rewind the rewind
     * @param tick   a kept tick, from {@link Rewind#oldest()} to {@link Rewind#tick()} - 1
     * @return the checkpoint, as JSON text
     * @throws IllegalArgumentException if the tick is not kept
     * @throws CheckpointException as {@link #checkpoint(StateWorld)}
     */
    public String checkpoint(Rewind rewind, long tick) {
        try (StateWorld copy = StateWorld.create()) {
            rewind.copyTo(tick, copy);
            return checkpoint(copy);
        }
    }

    /**
     * Restores a checkpoint: sets the world's clock and writes each saved record onto the
     * entity with the same key; tags, timers and {@code when} rules are rebuilt from the
     * records. All or nothing: every problem is found first, and if there is one nothing changes.
     * The world must hold an entity for each of the checkpoint's keys: a fresh world (a server
     * restarting) takes {@link #restoreSpawningMissing} instead, and this refusal's first line says
     * so, with how many of the checkpoint's entities the world lacks.
     *
     * @param world the world to restore into
     * @param checkpoint a checkpoint's JSON text, as {@link #checkpoint} wrote it
     * @throws CheckpointException for malformed JSON, another format or version, keys that match no entity
     *         (the first 10 listed, the rest counted), an unknown machine or state, a context that does not fit its type
     * @throws IllegalStateException as {@link #checkpoint} does: a restore is made between ticks
     */
    public void restore(StateWorld world, String checkpoint) {
        SaveFlight.RestoreEvent recorded = SaveFlight.restore();
        boolean refused = true;
        try {
            Access.during(world, "a restore", () -> {
                impl.restore(world, checkpoint);
                return null;
            });
            refused = false;
        } finally {
            if (recorded != null) {
                SaveFlight.restored(recorded, world, checkpoint, refused);
            }
        }
    }

    /**
     * Restores like {@link #restore(StateWorld, String)}, spawning an entity (with only its key) for each key the world lacks.
     *
     * @param world the world to restore into
     * @param checkpoint a checkpoint's JSON text, as {@link #checkpoint} wrote it
     * @throws CheckpointException as {@link #restore(StateWorld, String)} does
     */
    public void restoreSpawningMissing(StateWorld world, String checkpoint) {
        SaveFlight.RestoreEvent recorded = SaveFlight.restore();
        boolean refused = true;
        try {
            Access.during(world, "a restore", () -> {
                impl.restoreSpawningMissing(world, checkpoint);
                return null;
            });
            refused = false;
        } finally {
            if (recorded != null) {
                SaveFlight.restored(recorded, world, checkpoint, refused);
            }
        }
    }

    /**
     * The ids of the machines these saves know.
     *
     * @return the ids, in the order the machines were given
     */
    public List<String> machineIds() {
        return impl.machineIds();
    }

    ObjectNode checkpointTree(StateWorld world) {
        return Access.during(world, "a checkpoint", () -> impl.checkpointTree(world));
    }

    void restore(StateWorld world, JsonNode root, boolean spawnMissing) {
        Access.during(world, "a restore", () -> {
            impl.restore(world, root, spawnMissing);
            return null;
        });
    }

    JsonNode parse(String text, String what) {
        return impl.parse(text, what);
    }

    String write(JsonNode node) {
        return impl.write(node);
    }

    ObjectMapper json() {
        return impl.json();
    }

    RecordCodec codec() {
        return impl.codec();
    }

    States<?> machine(String id) {
        return impl.machine(id);
    }

    States<?> machine(String id, int version) {
        return impl.machine(id, version);
    }

    java.util.Set<Integer> versions(String id) {
        return impl.versions(id);
    }
}

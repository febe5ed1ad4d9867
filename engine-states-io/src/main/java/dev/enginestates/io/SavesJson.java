package dev.enginestates.io;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dominion.ecs.api.Entity;
import dev.dominion.ecs.api.Results;
import dev.enginestates.algorithm.RecordField;
import dev.enginestates.algorithm.StyleRuntime;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.SavedContext;
import dev.enginestates.declare.StateType;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.Owner;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.records.Access;
import dev.enginestates.records.MachineRecord;
import dev.enginestates.records.StateValue;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What {@link Saves} does, with Jackson. A class of its own: the JVM needs Jackson to link it,
 * and links it only once {@link Saves#of} has found Jackson.
 */
final class SavesJson {
    /** The checkpoint format's name and version. */
    public static final String CHECKPOINT_FORMAT = "engine-states/checkpoint";
    /** The current checkpoint version; a checkpoint of another version is refused. */
    public static final int CHECKPOINT_VERSION = 1;
    /** The field of the world's seed of random numbers ({@link StateWorld#randomSeed()}), written when it is not 0. */
    static final String RANDOM_SEED = "randomSeed";

    private final ObjectMapper json = Json.mapper();
    private final RecordCodec codec = new RecordCodec(json);
    /** By id, the newest version these saves know: what a checkpoint's records of that id are restored as, migrated when older. */
    private final Map<String, States<?>> machines = new LinkedHashMap<>();
    /** By id and version, every definition these saves know: a checkpoint, a frame or a log of a version held is read as it. */
    private final Map<String, Map<Integer, States<?>>> byVersion = new LinkedHashMap<>();

    SavesJson(States<?>[] given) {
        List<String> problems = new ArrayList<>();
        for (States<?> m : withInvokedChildren(given)) {
            Objects.requireNonNull(m, "machine");
            Map<Integer, States<?>> versions = byVersion.computeIfAbsent(m.id(), k -> new TreeMap<>());
            States<?> before = versions.putIfAbsent(m.machine().version(), m);
            if (before != null && before != m) {
                problems.add("two machines have id '" + m.id() + "' and version " + m.machine().version() + "; a checkpoint names"
                        + " machines by id and version, so expected other ids, or other versions of one machine (version(n, ...))");
            }
            States<?> newest = this.machines.get(m.id());
            if (newest == null || newest.machine().version() < m.machine().version()) {
                this.machines.put(m.id(), m);
            }
            checkContext(m, problems);
        }
        if (!problems.isEmpty()) {
            throw new CheckpointException("these machines cannot be saved", problems);
        }
    }

    /**
     * The machines given, then the child machines they invoke or declare they spawn (transitively) that no machine given
     * has the id and version of: saving a parent saves the children it runs.
     */
    static List<States<?>> withInvokedChildren(States<?>[] given) {
        List<States<?>> all = new ArrayList<>();
        for (States<?> m : given) {
            all.add(Objects.requireNonNull(m, "machine"));
        }
        for (int i = 0; i < all.size(); i++) {
            Chart c = Access.chart(all.get(i).machine());
            List<dev.enginestates.declare.ChildMachine<?>> children = new ArrayList<>(List.of(c.spawns));
            for (int s = 0; c.invokes != null && s < c.invokes.length; s++) {
                for (dev.enginestates.chart.Invocation inv : c.invokes[s]) {
                    children.add(inv.machine);
                }
            }
            for (dev.enginestates.declare.ChildMachine<?> declared : children) {
                if (!(declared instanceof dev.enginestates.Machine<?> child)) {
                    continue; // the world refuses it when it would start
                }
                boolean named = false;
                for (States<?> m : all) {
                    named |= m.machine() == child || (m.id().equals(child.id()) && m.machine().version() == child.version());
                }
                if (!named) {
                    all.add(States.of(child));
                }
            }
        }
        return all;
    }

    private void checkContext(States<?> m, List<String> problems) {
        Object fresh = m.machine().newContext();
        if (fresh == null) {
            return;
        }
        if (fresh instanceof SavedContext saved) {
            // a context that saves itself: a fresh one must read back what it saved
            try {
                JsonNode first = codec.encodeContext(saved);
                ((SavedContext) m.machine().newContext()).restore(RecordCodec.plain(first));
                return;
            } catch (RuntimeException e) {
                problems.add("machine '" + m.id() + "': a fresh context of type " + fresh.getClass().getName()
                        + " cannot be saved and restored: " + Json.oneLine(e));
                return;
            }
        }
        String type = fresh.getClass().getName();
        List<String> hidden = HiddenFields.of(json, fresh.getClass());
        if (!hidden.isEmpty()) {
            // Jackson would write what it sees and read it back whole, so the round trip below cannot notice the loss
            problems.add("machine '" + m.id() + "': context type " + type + " keeps state Jackson cannot see, which every checkpoint,"
                    + " dump, input log and stream frame would silently drop: " + (hidden.size() == 1 ? "field " : "fields ")
                    + String.join(", ", hidden) + "; expected each such field public or with a public getter and setter, or its class"
                    + " a record (or the context a SavedContext, which saves itself); a field that is not state can say so with transient or @JsonIgnore");
            return;
        }
        try {
            JsonNode first = json.valueToTree(fresh);
            Object back = json.treeToValue(first, fresh.getClass());
            JsonNode second = json.valueToTree(back);
            if (!first.equals(second)) {
                problems.add("machine '" + m.id() + "': context type " + type + " does not read back as it was written ("
                        + first + " became " + second + "); expected a record or a class with a no-argument constructor and"
                        + " public fields or getters and setters");
            } else {
                String changed = changedType(fresh, back, type, 0);
                if (changed != null) {
                    problems.add("machine '" + m.id() + "': context type " + type + " reads back with another type in " + changed
                            + "; declare the field with the class it holds (a field of type Object or an interface reads a"
                            + " JSON object back as a map)");
                }
            }
        } catch (JsonProcessingException | IllegalArgumentException e) {
            problems.add("machine '" + m.id() + "': context type " + type + " cannot be saved: " + Json.oneLine(e)
                    + "; expected a record or a class with a no-argument constructor and public fields or getters and setters");
        }
    }

    /**
     * Where an object read back holds a value of another class than the one written (a field of
     * type Object holding a game's class comes back a LinkedHashMap, with the same JSON): the
     * property's path, or null. JDK values (numbers, strings, collections, maps, arrays, enums)
     * are compared by their JSON alone; a game's classes are walked, a few levels deep.
     */
    private String changedType(Object written, Object read, String at, int depth) {
        if (written == null || read == null || depth > 8 || isJdkValue(written)) {
            return null;
        }
        if (written.getClass() != read.getClass()) {
            return at + " (" + written.getClass().getName() + " became " + read.getClass().getName() + ")";
        }
        com.fasterxml.jackson.databind.BeanDescription bean = json.getSerializationConfig().introspect(json.constructType(written.getClass()));
        for (com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition p : bean.findProperties()) {
            com.fasterxml.jackson.databind.introspect.AnnotatedMember accessor = p.getAccessor();
            if (accessor == null) {
                continue;
            }
            Object a;
            Object b;
            try {
                a = accessor.getValue(written);
                b = accessor.getValue(read);
            } catch (RuntimeException e) {
                continue; // a getter that throws was refused by the writing already, or is the game's to answer for
            }
            String changed = changedType(a, b, at + "." + p.getName(), depth + 1);
            if (changed != null) {
                return changed;
            }
        }
        return null;
    }

    /** A value whose JSON says all: the JDK's own classes (a game's collection or map subclass included), arrays and enums. */
    private static boolean isJdkValue(Object v) {
        Class<?> c = v.getClass();
        return c.isArray() || c.isEnum() || v instanceof java.util.Collection || v instanceof Map || c.getName().startsWith("java.");
    }

    // ------------------------------------------------------------------ dump

    /**
     * A human-readable JSON picture of every machine on every entity: its state as XState
     * writes it, seconds waited and left, paused seconds by state, history, context (a polled
     * machine: every active state's clock, the total, the previous leaf and its {@code after}'s
     * seconds left), and each tag the entity has, named {@code <machine id>.<state path>}. A child machine's
     * record names its {@code parent} (entity, machine and the child's id). Keys are sorted and seconds
     * rounded to the microsecond, so the same world always dumps the same text.
     */
    public String dump(StateWorld world) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.set("time", rounded(world.time()));
        root.put("steps", world.steps());
        ObjectNode entities = root.putObject("entities");
        Map<Entity, String> names = names(world, false, null);
        List<String> problems = new ArrayList<>();
        for (Map.Entry<Entity, String> e : names.entrySet()) {
            Entity entity = e.getKey();
            ObjectNode out = entities.putObject(e.getValue());
            Owner owner = entity.get(Owner.class);
            if (owner != null) {
                out.put("owner", owner.player()); // who an ownerOnly machine on it is streamed to
            }
            ObjectNode ms = out.putObject("machines");
            ObjectNode tags = out.putObject("tags");
            for (States<?> m : world.machines()) {
                StateRecord<?> r = entity.get(m.recordType());
                if (r == null || r.world() != world) {
                    continue;
                }
                try {
                    ObjectNode dumped = dumpRecord(r);
                    StateRecord<?> up = r.parentRecord();
                    if (up != null) { // a child machine: derived from its parent's state, as a restore derives it
                        ObjectNode p = dumped.putObject("parent");
                        p.put("entity", names.get(up.entity()));
                        p.put("machine", up.machineId());
                        p.put("id", r.childId());
                    }
                    ms.set(m.id(), dumped);
                } catch (RecordCodec.Refused refused) {
                    problems.add(refused(e.getValue(), m, refused));
                }
                if (m.machine().tags()) {
                    Chart c = Access.chart(m.machine());
                    for (int s = 1; s < c.size; s++) {
                        if (c.type[s] != StateType.HISTORY && entity.has(m.is(c.path[s]))) {
                            tags.put(m.id() + "." + c.path[s], true);
                        }
                    }
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new CheckpointException("the world cannot be dumped", problems);
        }
        return write(root);
    }

    private ObjectNode dumpRecord(StateRecord<?> r) {
        MachineRecord rec = Access.record(r);
        Chart c = rec.chart();
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.set("state", json.valueToTree(StateValue.of(rec)));
        o.put("status", rec.isDone() ? "done" : "active");
        if (r.isWaiting()) {
            ObjectNode w = o.putObject("wait");
            w.put("state", r.waitingIn());
            w.set("waited", rounded(r.waited()));
            w.set("left", rounded(r.secondsLeft()));
            w.put("held", r.isHeld());
        } else {
            o.putNull("wait");
        }
        ObjectNode encoded = codec.encode(rec);
        ObjectNode paused = o.putObject("paused");
        for (Map.Entry<String, JsonNode> e : encoded.get("paused").properties()) {
            paused.set(e.getKey(), rounded(e.getValue().asDouble()));
        }
        o.set("history", encoded.get("history"));
        o.set("context", encoded.get("context"));
        o.put("held", rec.isHeld());
        if (r.states().machine().ownerOnly()) {
            o.put("ownerOnly", true); // streamed to its entity's owner alone
        }
        for (RecordField f : StyleRuntime.of(c).dumpFields()) {
            RecordCodec.put(o, f, rec, SavesJson::rounded); // the style's own picture: its clocks as they read, rounded
        }
        return o;
    }

    private static DecimalNode rounded(double seconds) {
        return DecimalNode.valueOf(BigDecimal.valueOf(seconds).setScale(6, RoundingMode.HALF_EVEN).stripTrailingZeros());
    }

    // ------------------------------------------------------------------ checkpoint

    /**
     * The records of every machine in the world, exactly, with the world's clock and a format
     * version. Tags are not saved: a restore rebuilds them from the records.
     *
     * @throws CheckpointException if an entity holding a machine has no {@link EntityKey}, or a machine is not one of these saves'
     */
    public String checkpoint(StateWorld world) {
        return write(checkpointTree(world));
    }

    ObjectNode checkpointTree(StateWorld world) {
        List<String> problems = new ArrayList<>();
        Map<Entity, String> names = names(world, true, problems);
        for (States<?> m : world.machines()) {
            if (!knows(m) && !world.records(m).isEmpty()) {
                States<?> same = machine(m.id(), m.machine().version());
                problems.add("machine '" + m.id() + "' (version " + m.machine().version() + ", fingerprint " + m.machine().fingerprint()
                        + ") is in the world but not in these saves" + (same == null ? "" : ", which hold another definition of that"
                        + " version (fingerprint " + same.machine().fingerprint() + "): the world runs the one it swapped to")
                        + "; expected Saves.of(...) with the definition the world runs, among " + known());
            }
        }
        if (!problems.isEmpty()) {
            throw new CheckpointException("the world cannot be checkpointed", problems);
        }
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("format", CHECKPOINT_FORMAT);
        root.put("version", CHECKPOINT_VERSION);
        ObjectNode clock = root.putObject("clock");
        clock.put("time", world.time());
        clock.put("steps", world.steps());
        if (world.randomSeed() != 0) {
            root.put(RANDOM_SEED, RecordCodec.hex(world.randomSeed())); // written when set: older checkpoints read as before
        }
        ObjectNode versions = root.putObject(MACHINES);
        for (States<?> m : world.machines()) {
            if (knows(m) && !versions.has(m.id()) && !world.records(m).isEmpty()) {
                versions.set(m.id(), identity(m));
            }
        }
        ObjectNode entities = root.putObject("entities");
        for (Map.Entry<Entity, String> e : names.entrySet()) {
            ObjectNode out = entities.putObject(e.getValue());
            for (States<?> m : world.machines()) {
                StateRecord<?> r = e.getKey().get(m.recordType());
                if (r != null && r.world() == world) {
                    try {
                        out.set(m.id(), codec.encode(Access.record(r)));
                    } catch (RecordCodec.Refused refused) {
                        problems.add(refused(e.getValue(), m, refused));
                    }
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new CheckpointException("the world cannot be checkpointed", problems);
        }
        return root;
    }

    /** The field naming each machine's version and fingerprint, by id; a checkpoint written before it has none. */
    static final String MACHINES = "machines";

    /** A machine's version and fingerprint, as checkpoints, stream frames and input logs write them. */
    static ObjectNode identity(States<?> m) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("version", m.machine().version());
        o.put("fingerprint", m.machine().fingerprint());
        return o;
    }

    /** What an {@link #identity} holds, for a message refusing another shape. */
    static final String IDENTITY = "{\"version\": a whole number 0 or more, \"fingerprint\": a string}";

    /** Whether {@code node} has the shape {@link #identity} writes. */
    static boolean isIdentity(JsonNode node) {
        return node != null && node.isObject() && node.path("version").isInt() && node.path("version").asInt() >= 0
                && node.path("fingerprint").isTextual();
    }

    /** A well-formed {@link #identity} as messages say it: {@code version 2 (fingerprint 0123456789abcdef)}. */
    static String identityText(JsonNode identity) {
        return "version " + identity.path("version").asInt() + " (fingerprint " + identity.path("fingerprint").asText() + ")";
    }

    /**
     * How the records of each machine a checkpoint (or a frame, a log) names are read: by
     * {@link #decodeAny}, which migrates those of an older version. The problems with a machine's
     * version are added once, at {@code $.machines.id}, not once per record.
     */
    final class Versions {
        private final Map<String, List<dev.enginestates.declare.Migration>> chains = new java.util.HashMap<>();
        private final Map<String, String> stored = new java.util.HashMap<>();
        private final java.util.Set<String> refused = new java.util.HashSet<>();
        private final java.util.Set<String> noted = new java.util.HashSet<>();
        private final Map<String, States<?>> chosen = new java.util.HashMap<>();
        private final double time;

        Versions(JsonNode node, String at, double time, List<String> problems) {
            this.time = time;
            if (node == null) {
                return; // written before versions were: every record is read as this definition's
            }
            if (!node.isObject()) {
                problems.add(at + ": expected an object from machine id to {version, fingerprint}, found " + Json.kind(node));
                return;
            }
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                String where = at + "." + e.getKey();
                JsonNode v = e.getValue();
                if (!isIdentity(v)) {
                    problems.add(where + ": expected " + IDENTITY + ", found " + v);
                    continue;
                }
                JsonNode version = v.get("version");
                JsonNode fingerprint = v.get("fingerprint");
                States<?> m = machines.get(e.getKey());
                if (m == null) {
                    continue; // its records say so, one by one
                }
                int theirs = version.asInt();
                String fp = fingerprint.asText();
                States<?> exact = machine(e.getKey(), theirs);
                if (exact != null && exact != m) {
                    chosen.put(e.getKey(), exact); // a version these saves hold is read as itself, not migrated
                    m = exact;
                }
                int mine = m.machine().version();
                stored.put(e.getKey(), "version " + theirs + " (fingerprint " + fp + ")");
                if (theirs > mine) {
                    refused.add(e.getKey());
                    problems.add(where + ": the records of machine '" + e.getKey() + "' were written by version " + theirs
                            + " (fingerprint " + fp + "), newer than this definition, version " + mine + " (fingerprint "
                            + m.machine().fingerprint() + "); expected a definition of version " + theirs + " or later");
                } else if (theirs < mine) {
                    try {
                        chains.put(e.getKey(), m.machine().migrationsFrom(theirs));
                    } catch (dev.enginestates.declare.MachineException missing) {
                        refused.add(e.getKey());
                        problems.add(where + ": the records of machine '" + e.getKey() + "' are version " + theirs + " (fingerprint " + fp
                                + "): " + missing.getMessage());
                    }
                } else if (!fp.equals(m.machine().fingerprint())) {
                    noted.add(e.getKey());
                }
            }
        }

        /** The definition a record of machine {@code id} is read as: the version the checkpoint names when these saves hold it, else the newest. */
        States<?> definition(String id) {
            States<?> m = chosen.get(id);
            return m != null ? m : machines.get(id);
        }

        /** A record of machine {@code m} as this definition's: decoded, or migrated from the version the checkpoint names; {@code null} with problems. */
        MachineRecord decode(JsonNode node, States<?> m, String at, List<String> problems) {
            if (refused.contains(m.id())) {
                return null;
            }
            List<dev.enginestates.declare.Migration> chain = chains.get(m.id());
            if (chain != null) {
                return codec.decodeMigrated(node, m, chain, "version " + m.machine().version() + " (fingerprint "
                        + m.machine().fingerprint() + ")", time, at, problems);
            }
            int before = problems.size();
            MachineRecord r = codec.decode(node, m, at, problems);
            if (problems.size() > before && noted.remove(m.id())) {
                problems.add("$." + MACHINES + "." + m.id() + ": the records of machine '" + m.id() + "' are " + stored.get(m.id())
                        + ", and this definition has the same version but fingerprint " + m.machine().fingerprint()
                        + ": its structure changed without a new version; expected version(" + (m.machine().version() + 1)
                        + ", Migration.from(" + m.machine().version() + ")...) on the definition, to migrate them");
            }
            return r;
        }
    }

    /** A context that refused to be written, as a problem naming the entity, the machine and what was refused. */
    private static String refused(String key, States<?> m, RecordCodec.Refused e) {
        return "$.entities." + key + "." + m.id() + ".context: machine '" + m.id() + "' on entity '" + key
                + "' cannot save its context: " + e.getMessage();
    }

    /**
     * Restores a checkpoint: sets the world's clock and writes each saved record onto the
     * entity with the same key; tags, timers and {@code when} rules are rebuilt from the
     * records. All or nothing: every problem is found first, and if there is one nothing changes.
     *
     * @throws CheckpointException for malformed JSON, another format or version, a key that matches no entity,
     *         an unknown machine or state, a context that does not fit its type
     */
    public void restore(StateWorld world, String checkpoint) {
        restore(world, parse(checkpoint, "checkpoint"), false);
    }

    /** Restores like {@link #restore(StateWorld, String)}, spawning an entity (with only its key) for each key the world lacks. */
    public void restoreSpawningMissing(StateWorld world, String checkpoint) {
        restore(world, parse(checkpoint, "checkpoint"), true);
    }

    void restore(StateWorld world, JsonNode root, boolean spawnMissing) {
        MissingKeys missing = new MissingKeys();
        try {
            restoreChecked(world, root, spawnMissing, missing);
        } catch (Problems.Full full) {
            throw missing.refusal(true, full.problems);
        }
    }

    /**
     * The restore: every check first (stopping at {@link Problems#MAX} problems; the keys the world lacks are
     * counted in {@code missing} apart from them, without {@code spawnMissing}), then the writes.
     */
    private void restoreChecked(StateWorld world, JsonNode root, boolean spawnMissing, MissingKeys missing) {
        List<String> problems = new Problems();
        if (!root.isObject()) {
            throw new CheckpointException("the checkpoint cannot be restored", List.of("$: expected a checkpoint object, found " + Json.kind(root)));
        }
        if (!CHECKPOINT_FORMAT.equals(root.path("format").asText(null))) {
            problems.add("$.format: expected \"" + CHECKPOINT_FORMAT + "\", found " + Json.kind(root.get("format")));
        }
        if (!root.path("version").isInt() || root.get("version").asInt() != CHECKPOINT_VERSION) {
            problems.add("$.version: expected " + CHECKPOINT_VERSION + " (this library reads checkpoint version " + CHECKPOINT_VERSION
                    + "), found " + Json.kind(root.get("version")));
        }
        unknown(root, "$", List.of("format", "version", "clock", RANDOM_SEED, MACHINES, "entities"), problems);
        long seed = 0; // absent: a checkpoint of a world whose seed was never set
        if (root.has(RANDOM_SEED)) {
            Long s = RecordCodec.unhex(root.get(RANDOM_SEED), "$." + RANDOM_SEED, "the world's seed of random numbers", problems);
            seed = s == null ? 0 : s;
        }
        long randomSeed = seed;
        JsonNode clock = root.path("clock");
        unknown(clock, "$.clock", List.of("time", "steps"), problems);
        double time = clock.path("time").isNumber() ? clock.get("time").asDouble() : Double.NaN;
        long steps = clock.path("steps").canConvertToLong() && clock.path("steps").isIntegralNumber() ? clock.get("steps").asLong() : -1;
        if (!(time >= 0) || Double.isInfinite(time)) {
            problems.add("$.clock.time: expected the world's seconds, a finite number 0 or more; found " + Json.kind(clock.get("time")));
        }
        if (steps < 0) {
            problems.add("$.clock.steps: expected the step count, a whole number 0 or more; found " + Json.kind(clock.get("steps")));
        }
        JsonNode entities = root.path("entities");
        if (!entities.isObject()) {
            problems.add("$.entities: expected an object from entity key to its machines, found " + Json.kind(root.get("entities")));
        }
        if (!problems.isEmpty()) {
            throw new CheckpointException("the checkpoint cannot be restored", problems);
        }
        Versions versions = new Versions(root.get(MACHINES), "$." + MACHINES, time, problems);
        Map<String, Entity> byKey = keyed(world, problems);
        List<Staged> staged = new ArrayList<>();
        missing.entities(entities.size());
        for (Map.Entry<String, JsonNode> e : entities.properties()) {
            String at = "$.entities." + e.getKey();
            Entity entity = byKey.get(e.getKey());
            if (entity == null && !spawnMissing) {
                missing.add(e.getKey()); // a fresh world lacks them all: one line says so, not one per key
            }
            if (!e.getValue().isObject()) {
                problems.add(at + ": expected an object from machine id to record, found " + Json.kind(e.getValue()));
                continue;
            }
            for (Map.Entry<String, JsonNode> m : e.getValue().properties()) {
                States<?> machine = versions.definition(m.getKey());
                if (machine == null) {
                    problems.add(at + "." + m.getKey() + ": no machine has id '" + m.getKey() + "'; expected one of " + machines.keySet());
                    continue;
                }
                MachineRecord r = versions.decode(m.getValue(), machine, at + "." + m.getKey(), problems);
                if (r != null && !timesFit(r, time, at + "." + m.getKey(), problems)) {
                    r = null;
                }
                if (r != null) {
                    staged.add(new Staged(e.getKey(), entity, machine, r));
                }
            }
        }
        if (!problems.isEmpty() || missing.any()) {
            throw missing.refusal(false, problems);
        }
        // a listener's failure is thrown once every record is written: a restore is all-or-nothing
        Access.writeAll(world, () -> {
            Access.restoreClock(world, time, steps); // the restore is the call under way: the game may not set the clock now
            world.randomSeed(randomSeed); // records that have not drawn yet seed their streams as they would have
            Map<String, Entity> spawned = new LinkedHashMap<>();
            for (Staged s : staged) {
                Entity entity = s.entity;
                if (entity == null) {
                    entity = spawned.computeIfAbsent(s.key, k -> world.spawn(EntityKey.of(k)));
                }
                write(world, entity, s.machine, s.record);
            }
        });
    }

    /** Each field of {@code node} not in {@code names}, as a problem: a misspelt field would otherwise be skipped unread. */
    private static void unknown(JsonNode node, String at, List<String> names, List<String> problems) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!names.contains(f)) {
                problems.add(at + "." + f + ": not a field of a checkpoint" + (at.equals("$") ? "" : "'s " + at.substring(2))
                        + "; expected " + String.join(", ", names));
            }
        }
    }

    /**
     * Whether a decoded record's times fit the checkpoint's clock: a wait starts at or before it and
     * has waited at most {@link RecordCodec#MAX_SECONDS}, and so was each active state entered; a hold began within the wait and at or
     * before the clock. (Whether the entity still carries the hold is not asked: a hold taken off
     * since the last step stays on the record until the next step, and a checkpoint may be taken
     * in between; the first step after the restore releases it, as it would have.)
     */
    static boolean timesFit(MachineRecord r, double time, String at, List<String> problems) {
        int before = problems.size();
        if (r.waitState() >= 0 && r.waitStart() > time + StateWorld.TIME_TOLERANCE) {
            problems.add(at + ".wait.start: the wait starts at " + r.waitStart()
                    + " s, after the checkpoint's clock (" + time + " s); expected a start at or before the clock");
        } else if (r.waitState() >= 0 && time - r.waitStart() > RecordCodec.MAX_SECONDS) {
            problems.add(at + ".wait.start: the wait would have counted " + (time - r.waitStart()) + " s by the clock; expected at most "
                    + RecordCodec.MAX_SECONDS);
        }
        for (int i = 0; i < r.activeCount(); i++) {
            int s = r.activeAt(i);
            double entered = r.enteredAt(s);
            if (Double.isNaN(entered)) {
                continue; // not the XState style
            }
            if (entered > time + StateWorld.TIME_TOLERANCE) {
                problems.add(at + ".entered: '" + r.chart().describe(s) + "' was entered at " + entered + " s, after the checkpoint's"
                        + " clock (" + time + " s); expected a time at or before the clock");
            } else if (time - entered > RecordCodec.MAX_SECONDS) {
                problems.add(at + ".entered: '" + r.chart().describe(s) + "' would have been active " + (time - entered)
                        + " s by the clock; expected at most " + RecordCodec.MAX_SECONDS);
            }
        }
        if (r.isHeld()) {
            if (r.heldSince() > time + StateWorld.TIME_TOLERANCE) {
                problems.add(at + ".heldSince: the hold began at " + r.heldSince() + " s, after the checkpoint's clock (" + time
                        + " s); expected a time at or before the clock");
            } else if (r.waitState() >= 0 && r.heldSince() < r.waitStart() - StateWorld.TIME_TOLERANCE) {
                problems.add(at + ".heldSince: the hold began at " + r.heldSince() + " s, before the wait it holds (" + r.waitStart()
                        + " s); expected a time within the wait");
            } else if (time - r.heldSince() > RecordCodec.MAX_SECONDS) {
                // without a wait to bound it: its release would push every pending send that far
                problems.add(at + ".heldSince: the hold would have lasted " + (time - r.heldSince()) + " s by the clock; expected at most "
                        + RecordCodec.MAX_SECONDS);
            }
        }
        for (int i = 0; i < r.sendCount(); i++) {
            // overdue like a wait's start: any finite delay is a send's own, so only the past is bounded
            if (time - r.sendDue(i) > RecordCodec.MAX_SECONDS) {
                problems.add(at + ".sends[" + i + "].due: the send would be overdue by " + (time - r.sendDue(i)) + " s by the clock ("
                        + time + " s); expected at most " + RecordCodec.MAX_SECONDS);
            }
        }
        return problems.size() == before;
    }

    /** Writes a staged record onto an entity: into its record of that machine, or a new one attached. */
    static <C> void write(StateWorld world, Entity entity, States<C> machine, MachineRecord staged) {
        for (States<?> other : world.machines()) {
            if (other != machine && other.id().equals(machine.id())) {
                world.detach(entity, other); // another definition of the machine: the record written takes its place
            }
        }
        StateRecord<C> r = entity.get(machine.recordType());
        if (r == null || r.world() != world) {
            r = traitOf(machine, staged);
            world.attach(entity, r);
        } else {
            Access.restore(r, staged);
        }
        world.restored(r);
    }

    @SuppressWarnings("unchecked")
    private static <C> StateRecord<C> traitOf(States<C> machine, MachineRecord staged) {
        return (StateRecord<C>) Access.trait(machine, staged);
    }

    private static final class Staged {
        final String key;
        final Entity entity;
        final States<?> machine;
        final MachineRecord record;

        Staged(String key, Entity entity, States<?> machine, MachineRecord record) {
            this.key = key;
            this.entity = entity;
            this.machine = machine;
            this.record = record;
        }
    }

    // ------------------------------------------------------------------ shared

    /** The entities holding machines, by name: key order, then unkeyed ones as #1, #2... in spawn order. */
    private Map<Entity, String> names(StateWorld world, boolean keysRequired, List<String> problems) {
        TreeMap<String, Entity> keyed = new TreeMap<>();
        Map<Entity, String> unkeyed = new IdentityHashMap<>();
        List<Entity> unkeyedOrder = new ArrayList<>();
        for (States<?> m : world.machines()) {
            for (StateRecord<?> r : world.records(m)) {
                Entity e = r.entity();
                String key = StateWorld.keyOf(e);
                if (key != null) {
                    Entity other = keyed.putIfAbsent(key, e);
                    if (other != null && other != e && problems != null) {
                        problems.add("two entities have key '" + key + "'; keys must be unique");
                    }
                } else if (!unkeyed.containsKey(e)) {
                    unkeyed.put(e, "#" + (unkeyed.size() + 1));
                    unkeyedOrder.add(e);
                    if (keysRequired && unkeyed.size() <= Problems.LISTED) {
                        problems.add("entity '" + StateWorld.nameOf(e) + "' holds machine '" + m.id()
                                + "' but has no EntityKey, so a restore could not match it; expected the game to spawn it with EntityKey.of(...)");
                    }
                }
            }
        }
        if (keysRequired && unkeyed.size() > Problems.LISTED) {
            // a game that forgot keys forgot them for every entity: a few lines say so, not one per entity
            problems.add(Problems.moreUnkeyed(unkeyed.size()));
        }
        Map<Entity, String> out = new LinkedHashMap<>();
        keyed.forEach((k, e) -> out.put(e, k));
        for (Entity e : unkeyedOrder) {
            out.put(e, unkeyed.get(e));
        }
        return out;
    }

    private static Map<String, Entity> keyed(StateWorld world, List<String> problems) {
        Map<String, Entity> out = new LinkedHashMap<>();
        Entity self = world.entity(EntityKey.WORLD);
        for (Results.With1<EntityKey> w : world.dominion().findEntitiesWith(EntityKey.class)) {
            if (EntityKey.WORLD.equals(w.comp().value()) && w.entity() != self) {
                continue; // another world's own entity, on a Dominion the worlds share (StateWorld.over)
            }
            Entity before = out.putIfAbsent(w.comp().value(), w.entity());
            if (before != null && before != w.entity()) {
                problems.add("two entities of the world have key '" + w.comp().value() + "'; keys must be unique");
            }
        }
        return out;
    }

    JsonNode parse(String text, String what) {
        if (text == null || text.isBlank()) {
            throw new CheckpointException("the " + what + " cannot be read", List.of("$: expected a JSON " + what + ", found nothing"));
        }
        try {
            return json.readerFor(JsonNode.class).readValue(text);
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
            throw new CheckpointException("the " + what + " cannot be read", List.of("$: not valid JSON" + where + ": " + e.getOriginalMessage()));
        }
    }

    String write(JsonNode node) {
        try {
            return json.writerWithDefaultPrettyPrinter().writeValueAsString(Json.sorted(node));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    ObjectMapper json() {
        return json;
    }

    RecordCodec codec() {
        return codec;
    }

    States<?> machine(String id) {
        return machines.get(id);
    }

    /** The definition of machine {@code id} at {@code version} these saves hold, or {@code null}. */
    States<?> machine(String id, int version) {
        Map<Integer, States<?>> versions = byVersion.get(id);
        return versions == null ? null : versions.get(version);
    }

    /** The versions of machine {@code id} these saves hold, oldest first; empty when they hold none. */
    java.util.Set<Integer> versions(String id) {
        Map<Integer, States<?>> versions = byVersion.get(id);
        return versions == null ? java.util.Set.of() : versions.keySet();
    }

    /** Whether {@code m} is one of the definitions these saves hold. */
    boolean knows(States<?> m) {
        return machine(m.id(), m.machine().version()) == m;
    }

    /** The definitions held, for messages: {@code guard (versions 1, 2)}. */
    private List<String> known() {
        List<String> out = new ArrayList<>();
        byVersion.forEach((id, v) -> out.add(v.size() == 1 ? id : id + " (versions " + v.keySet() + ")"));
        return out;
    }

    /** The ids of the machines these saves know. */
    public List<String> machineIds() {
        return new ArrayList<>(machines.keySet());
    }
}

package dev.enginestates.io;

import dev.enginestates.algorithm.StyleRuntime;
import dev.enginestates.records.Access;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.Event;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.MachinePaused;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.ecs.WorldInputs;
import dev.enginestates.records.MachineRecord;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The inputs of a world since a checkpoint: spawns, despawns, attachments and detachments made
 * by the game, events sent from outside the step, states and records set by hand (a restore
 * included), clock changes, steps. What machines' own code does during a step or a send is not
 * in it: the replay does it again. Replaying the log from its checkpoint into a fresh world
 * reproduces the machines' records bit for bit, which is how a bug seen once is reproduced at will.
 *
 * <pre>{@code
 * InputLog log = InputLog.start(saves, world);   // checkpoints the world, then listens
 * ... the game runs ...
 * Files.writeString(path, log.text());
 * InputLog.replay(saves, StateWorld.create(), Files.readString(path));
 * }</pre>
 *
 * <p>What it keeps of an input is what the machines see: the entity's key, the machine, the
 * event's type and fields with their exact Java types (see {@link EventFields}), the record of a
 * spawned machine. A replay checks the whole log first (every entity, machine, event, state and
 * record at its point of the log) and refuses it before anything changes. The hold components
 * each step finds ({@code MachinePaused}, a machine's {@code heldBy} types) are in it, and put on
 * and taken off before each replayed step. A game's other components are not in it:
 * a {@code when} test that reads them replays the same only if the game restores them too.
 * Entities spawned without an {@link EntityKey} cannot be matched on replay; the log notes
 * each and {@link #replay} refuses such a log.
 *
 * <p><b>Versions.</b> The start checkpoint names each machine's version and fingerprint, and a
 * {@link StateWorld#swap swap} is an input naming both definitions: the replay's saves hold
 * every version the log names ({@code Saves.of(v1, v2)}), or the replay is refused before
 * anything changes. A spawn or an attach names its record's definition when it is not the one
 * the log named last for that id. A swap through a {@code Migration} given to it, or between two
 * definitions of one version, is noted as unmatched, as an entity without a key is: a migration is
 * code, which a log does not hold, and no saves hold two definitions of one version.
 */
public final class InputLog implements WorldInputs {
    /** The input log format's name and version. */
    public static final String FORMAT = "engine-states/inputs";
    /** The current input log version. */
    public static final int VERSION = 1;

    /** The kinds of input a log holds, as the check and the replay name them when one is of no kind. */
    private static final String KINDS = "step, advance, runStates, send, go, set, edit, spawn, attach, detach, despawn, clock, hold, swap";

    private final Saves saves;
    private final StateWorld world;
    private final ObjectNode start;
    private final ArrayNode inputs = JsonNodeFactory.instance.arrayNode();
    private final List<String> unmatched = new ArrayList<>();
    /** By machine id, the definition the log has named last (its start checkpoint, a spawn, an attach, a swap): what a replay reads it as. */
    private final Map<String, States<?>> named = new java.util.HashMap<>();

    private InputLog(Saves saves, StateWorld world) {
        this.saves = saves;
        this.world = world;
        this.start = saves.checkpointTree(world);
        for (States<?> m : world.machines()) {
            if (!named.containsKey(m.id()) && !world.records(m).isEmpty()) {
                named.put(m.id(), m); // as the checkpoint names it
            }
        }
    }

    /**
     * Checkpoints the world and records its inputs from now on (until {@link #stop}).
     * The log becomes the world's one input recorder ({@link StateWorld#recordInputs}), replacing any other.
     *
     * @param saves the saves for the world's machines, which write the checkpoint and the records
     * @param world the world to record; every entity holding a machine needs an {@link EntityKey}
     * @return the log, recording
     * @throws CheckpointException if the world cannot be checkpointed (an entity holding a machine has no key,
     *                             or a machine is not one of the saves')
     * @throws IllegalStateException as {@link Saves#checkpoint} does: a log starts between ticks
     */
    public static InputLog start(Saves saves, StateWorld world) {
        InputLog log = new InputLog(saves, world);
        world.recordInputs(log);
        return log;
    }

    /**
     * Stops recording. The world's input recorder is taken away only while it is this log: a recorder
     * set since the log started (another log, a tool) keeps hearing the world.
     */
    public void stop() {
        if (world.inputRecorder() == this) {
            world.recordInputs(null);
        }
    }

    /**
     * The log as JSON text: the starting checkpoint and the inputs in order.
     *
     * @return the log so far, which {@link #replay} reads; it may be called again as the log grows
     */
    public String text() {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("format", FORMAT);
        root.put("version", VERSION);
        root.set("start", start);
        root.set("inputs", inputs);
        ArrayNode un = root.putArray("unmatched");
        unmatched.forEach(un::add);
        return saves.write(root);
    }

    /**
     * How many inputs were recorded.
     *
     * @return the number of inputs so far, unmatched ones included
     */
    public int size() {
        return inputs.size();
    }

    @Override
    public void spawned(Entity entity, StateRecord<?>[] records) {
        String key = key(entity, "spawn");
        if (key == null) {
            return;
        }
        ObjectNode spawn = inputs.addObject().putObject("spawn");
        spawn.put("entity", key);
        ObjectNode ms = spawn.putObject("machines");
        for (StateRecord<?> r : records) {
            ms.set(r.machineId(), saves.codec().encode(Access.record(r)));
        }
        for (StateRecord<?> r : records) {
            if (naming(r.states())) {
                ObjectNode defs = spawn.has(LogDefinitions.SPAWNED) ? (ObjectNode) spawn.get(LogDefinitions.SPAWNED)
                        : spawn.putObject(LogDefinitions.SPAWNED);
                defs.set(r.machineId(), LogDefinitions.identity(r.states()));
            }
        }
    }

    /**
     * Whether a record of {@code m} needs its definition named in the log: another definition of its id
     * was named before, or none was and {@code m} declares a version, which the replay's saves may hold
     * beside others. A machine without versions is logged as before versions were.
     */
    private boolean naming(States<?> m) {
        States<?> was = named.get(m.id());
        if (was == m || was == null && m.machine().version() == 0) {
            return false;
        }
        named.put(m.id(), m);
        return true;
    }

    @Override
    public void attached(Entity entity, StateRecord<?> record) {
        String key = key(entity, "attach");
        if (key != null) {
            ObjectNode a = inputs.addObject().putObject("attach");
            a.put("entity", key);
            a.put("machine", record.machineId());
            a.set("record", saves.codec().encode(Access.record(record)));
            if (naming(record.states())) {
                a.set(LogDefinitions.ATTACHED, LogDefinitions.identity(record.states()));
            }
        }
    }

    @Override
    public void detached(Entity entity, States<?> machine) {
        String key = key(entity, "detach");
        if (key != null) {
            ObjectNode d = inputs.addObject().putObject("detach");
            d.put("entity", key);
            d.put("machine", machine.id());
        }
    }

    @Override
    public void despawned(Entity entity) {
        String key = key(entity, "despawn");
        if (key != null) {
            inputs.addObject().put("despawn", key);
        }
    }

    @Override
    public void sent(StateRecord<?> record, Event event) {
        ObjectNode s = sendEntry(record, event.type(), event.fields());
        if (s != null && StyleRuntime.of(Access.record(record).chart()).handsEventToCode()) {
            s.put("asEvent", true); // the style's code received the event itself, not the bare name
        }
    }

    @Override
    public void sent(StateRecord<?> record, String event, Object[] args) {
        ObjectNode s = sendEntry(record, event, Map.of());
        if (s != null && args != null && args.length > 0) { // none: the replay sends the bare name
            Map<String, Object> numbered = new java.util.LinkedHashMap<>();
            for (int i = 0; i < args.length; i++) {
                numbered.put(Integer.toString(i), args[i]);
            }
            s.set("args", EventFields.encode(numbered));
        }
    }

    /** A new {@code send} entry, or {@code null} when the entity has no key (the key check reports it). */
    private ObjectNode sendEntry(StateRecord<?> record, String type, Map<String, ?> fields) {
        String key = key(record.entity(), "send");
        if (key == null) {
            return null;
        }
        ObjectNode s = inputs.addObject().putObject("send");
        s.put("entity", key);
        s.put("machine", record.machineId());
        ObjectNode ev = s.putObject("event");
        ev.put("type", type);
        ev.set("fields", EventFields.encode(fields));
        return s;
    }

    @Override
    public void went(StateRecord<?> record, String name) {
        String key = key(record.entity(), "go");
        if (key != null) {
            ObjectNode g = inputs.addObject().putObject("go");
            g.put("entity", key);
            g.put("machine", record.machineId());
            g.put("state", name);
        }
    }

    @Override
    public void stateSet(StateRecord<?> record, String[] paths) {
        String key = key(record.entity(), "set");
        if (key != null) {
            ObjectNode s = inputs.addObject().putObject("set");
            s.put("entity", key);
            s.put("machine", record.machineId());
            ArrayNode a = s.putArray("states");
            for (String p : paths) {
                a.add(p);
            }
        }
    }

    @Override
    public void edited(StateRecord<?> record) {
        String key = key(record.entity(), "edit");
        if (key != null) {
            ObjectNode a = inputs.addObject().putObject("edit");
            a.put("entity", key);
            a.put("machine", record.machineId());
            a.set("record", saves.codec().encode(Access.record(record)));
        }
    }

    @Override
    public void holdChanged(Entity entity, Class<?> component, boolean on) {
        String key = key(entity, "hold");
        if (key != null) {
            ObjectNode h = inputs.addObject().putObject("hold");
            h.put("entity", key);
            h.put("component", component == MachinePaused.class ? "MachinePaused" : component.getName());
            h.put("on", on);
        }
    }

    @Override
    public void clockSet(double time, long steps) {
        ObjectNode c = inputs.addObject().putObject("clock");
        c.put("time", time);
        c.put("steps", steps);
    }

    @Override
    public void stepped(double dt) {
        inputs.addObject().put("step", dt);
    }

    @Override
    public void advanced(double dt) {
        inputs.addObject().put("advance", dt);
    }

    @Override
    public void ranStates() {
        inputs.addObject().put("runStates", true);
    }

    /**
     * A swap through the definitions' declared migrations is logged by the two definitions' names,
     * which the replay's saves must hold. One through a {@code Migration} given to the swap is noted
     * as unmatched, as an entity without a key is: its mapping is code (a context change), which a log
     * cannot hold, so a replay refuses the log. So is one between two definitions of one version (an
     * edit reloaded while the game runs): saves hold one definition per version, so no replay could
     * have both.
     */
    @Override
    public void swapped(States<?> from, States<?> to, dev.enginestates.declare.Migration mapping) {
        named.put(to.id(), to);
        String what = "swap of machine '" + from.id() + "' from version " + from.machine().version() + " to version "
                + to.machine().version();
        String why = mapping != null ? " through a Migration given to swap, whose code a log cannot hold"
                : from.machine().version() == to.machine().version() ? " (fingerprints " + from.machine().fingerprint() + " and "
                + to.machine().fingerprint() + "), two definitions of one version, which no saves hold together" : null;
        if (why != null) {
            unmatched.add(what + why + " (input " + inputs.size() + ")");
            System.getLogger("dev.enginestates").log(System.Logger.Level.WARNING, () -> "input log: " + what + why
                    + ", is recorded as unmatched and cannot be replayed; ship the change as a new version with its migration"
                    + " (version(n, migration)) and swap(from, to) for a log that replays, or start a new log after the swap");
            inputs.addObject().put("unmatched", "swap");
            return;
        }
        ObjectNode s = inputs.addObject().putObject("swap");
        s.put("machine", from.id());
        s.set("from", LogDefinitions.identity(from));
        s.set("to", LogDefinitions.identity(to));
    }

    private String key(Entity entity, String what) {
        String key = StateWorld.keyOf(entity);
        if (key == null) {
            String name = StateWorld.nameOf(entity);
            String who = name == null ? "an entity" : "entity '" + name + "'";
            unmatched.add(what + " on " + who + ", which has no EntityKey (input " + inputs.size() + ")");
            System.getLogger("dev.enginestates").log(System.Logger.Level.WARNING, () -> "input log: " + what + " on " + who
                    + ", which has no EntityKey, is recorded as unmatched and cannot be replayed; spawn the entities a log"
                    + " must replay with EntityKey.of(...)");
            inputs.addObject().put("unmatched", what);
        }
        return key;
    }

    /**
     * Replays a log into a world: restores its starting checkpoint (spawning the keyed
     * entities the world lacks), then applies each input in order.
     *
     * <p>The checks come first, and a log they refuse changes nothing. Once the inputs are being
     * applied, a replayed step throws as {@link StateWorld#step} does (a
     * {@link dev.enginestates.ecs.StepFailedException} when machines fail and the world has no
     * failure handler), leaving the world part-way through the log.
     *
     * @param saves the saves for the log's machines
     * @param world the world to replay into, usually a fresh one
     * @param log   the log's JSON text, as {@link #text()} wrote it
     * @throws CheckpointException if the log is malformed, of another version, notes inputs on entities without keys,
     *         names an entity, machine or state that does not exist, or holds an input the replay could not apply at its
     *         point of the log (a step too long or too small for the clock, a runStates with no advance before it, a record
     *         whose times are after the clock), or names a version of a machine the saves do not hold with its fingerprint
     *         (a swap's two definitions, a spawned or attached record's)
     * @throws IllegalStateException from the game's code during a call of the world (a listener's, during a send), or
     *         between {@link StateWorld#advance} and {@link StateWorld#runStates}; nothing changes. During the replay, the
     *         world's {@code onFailure} handler cannot close the world or restore into it.
     */
    public static void replay(Saves saves, StateWorld world, String log) {
        JsonNode root = saves.parse(log, "input log");
        List<String> problems = new Problems();
        if (!FORMAT.equals(root.path("format").asText(null))) {
            problems.add("$.format: expected \"" + FORMAT + "\", found " + Json.kind(root.get("format")));
        }
        if (root.path("version").asInt(-1) != VERSION) {
            problems.add("$.version: expected " + VERSION + ", found " + Json.kind(root.get("version")));
        }
        if (root.path("unmatched").size() > 0) {
            problems.add("$.unmatched: the log has inputs a replay cannot match (on entities without an EntityKey, or a swap"
                    + " through a Migration given to it or between two definitions of one version): " + root.get("unmatched"));
        }
        if (!root.path("inputs").isArray()) {
            problems.add("$.inputs: expected an array of inputs, found " + Json.kind(root.get("inputs")));
        }
        if (problems.isEmpty()) {
            try {
                check(saves, world, root, new LogDefinitions(saves, root.path("start")), problems);
            } catch (Problems.Full full) {
                throw Problems.refusal("the input log cannot be replayed; the world is unchanged", full);
            }
        }
        if (!problems.isEmpty()) {
            throw new CheckpointException("the input log cannot be replayed; the world is unchanged", problems);
        }
        JsonNode inputs = root.get("inputs");
        // between two inputs the world is not at rest: the game's code (a failure handler) cannot close or restore it
        LogDefinitions definitions = new LogDefinitions(saves, root.path("start"));
        Access.replay(world, () -> saves.restore(world, root.get("start"), true), () -> {
            for (int i = 0; i < inputs.size(); i++) {
                apply(saves, world, definitions, inputs.get(i), "$.inputs[" + i + "]");
            }
        });
    }

    /**
     * Checks every input before anything is applied, so a bad log changes nothing: it follows
     * which entity holds which machines through the log, as the replay would find them.
     */
    private static void check(Saves saves, StateWorld world, JsonNode root, LogDefinitions definitions, List<String> problems) {
        Map<String, java.util.Set<String>> machinesOf = new java.util.HashMap<>();
        machinesOf.put(EntityKey.WORLD, new java.util.HashSet<>());
        for (dev.dominion.ecs.api.Results.With1<EntityKey> w : world.dominion().findEntitiesWith(EntityKey.class)) {
            java.util.Set<String> held = machinesOf.computeIfAbsent(w.comp().value(), k -> new java.util.HashSet<>());
            for (States<?> m : world.machines()) {
                StateRecord<?> r = w.entity().get(m.recordType());
                if (r != null && r.world() == world) {
                    held.add(m.id());
                }
            }
        }
        root.path("start").path("entities").properties().forEach(e -> {
            java.util.Set<String> held = machinesOf.computeIfAbsent(e.getKey(), k -> new java.util.HashSet<>());
            e.getValue().fieldNames().forEachRemaining(held::add);
        });
        java.util.Set<String> onParents = childrenOnTheirParentsEntity(saves, definitions);
        // the clock as the replay will have it at each input (a bad start is the restore's to refuse), and whether a split
        // tick's advance waits for its runStates
        double clock = root.path("start").path("clock").path("time").asDouble(0);
        boolean split = false;
        JsonNode inputs = root.get("inputs");
        for (int i = 0; i < inputs.size(); i++) {
            JsonNode input = inputs.get(i);
            String at = "$.inputs[" + i + "]";
            String kind = input.isObject() && input.size() == 1 ? input.fieldNames().next() : "";
            JsonNode body = input.path(kind);
            String key = body.path("entity").asText("");
            java.util.Set<String> held = machinesOf.get(key);
            // a child machine's entity ("<parent key>/<id>") comes and goes with its parent's moves, which
            // the log does not hold: inputs on it are checked when the replay reaches them
            boolean child = held == null && key != null && key.indexOf('/') > 0;
            switch (kind) {
                case "step":
                case "advance":
                    double dt = body.asDouble(Double.NaN);
                    if (!body.isNumber() || !(dt >= 0) || dt > StateWorld.MAX_STEP_SECONDS) {
                        problems.add(at + "." + kind + ": expected the step's seconds, a finite number 0 to " + StateWorld.MAX_STEP_SECONDS
                                + " (StateWorld.MAX_STEP_SECONDS); found " + Json.kind(body));
                    } else if (dt > 0 && !(clock + dt > clock && clock + dt < Double.POSITIVE_INFINITY)) {
                        problems.add(at + "." + kind + ": " + kind + "(" + dt + ") would not advance the clock at t=" + clock
                                + " s (too small a step for a double this large); expected a step the clock can add");
                    } else {
                        clock = clock + dt;
                    }
                    split = kind.equals("advance");
                    break;
                case "runStates":
                    if (!body.isBoolean() || !body.asBoolean()) {
                        problems.add(at + ".runStates: expected true, found " + Json.kind(body));
                    } else if (!split) {
                        problems.add(at + ".runStates: runStates without an advance before it since the last tick; expected advance(dt),"
                                + " then runStates()");
                    }
                    split = false;
                    break;
                case "hold": {
                    if (held == null && !child) {
                        problems.add(at + ".hold.entity: no entity has key '" + key + "' at this point of the log");
                    }
                    if (!body.path("on").isBoolean()) {
                        problems.add(at + ".hold.on: expected true or false, found " + Json.kind(body.get("on")));
                    }
                    holdComponent(saves, body.path("component").asText(""), at + ".hold.component", problems);
                    break;
                }
                case "clock":
                    if (!body.path("time").isNumber() || !(body.path("time").asDouble() >= 0) || Double.isInfinite(body.path("time").asDouble())
                            || !body.path("steps").isIntegralNumber() || !body.path("steps").canConvertToLong()
                            || body.path("steps").asLong() < 0) {
                        problems.add(at + ".clock: expected {time: seconds 0 or more, steps: a whole number 0 or more}; found " + body);
                    } else {
                        clock = body.path("time").asDouble();
                    }
                    break;
                case "send":
                case "go":
                case "set":
                case "edit":
                case "detach":
                case "attach": {
                    if (kind.equals("attach") && body.has(LogDefinitions.ATTACHED)) {
                        definitions.named(body.path("machine").asText(""), body.get(LogDefinitions.ATTACHED), at + ".attach."
                                + LogDefinitions.ATTACHED, problems);
                    }
                    States<?> m = known(saves, definitions, body.path("machine"), at + "." + kind + ".machine", problems);
                    if (held == null && !child) {
                        problems.add(at + "." + kind + ".entity: no entity has key '" + key + "' at this point of the log");
                    } else if (held == null) {
                        // a child's entity: see above
                    } else if (m != null && kind.equals("attach") && held.contains(m.id())) {
                        problems.add(at + ".attach: entity '" + key + "' already holds machine '" + m.id() + "' at this point of the log");
                    } else if (m != null && !kind.equals("attach") && !held.contains(m.id()) && !onParents.contains(m.id())) {
                        problems.add(at + "." + kind + ": entity '" + key + "' holds no machine '" + m.id() + "' at this point of the log");
                    }
                    if (m != null && kind.equals("send")) {
                        checkEvent(m, body.path("event"), at + ".send.event", problems);
                        if (body.has("args")) {
                            EventFields.decode(body.get("args"), at + ".send.args", problems);
                        }
                    }
                    if (m != null && kind.equals("go")) {
                        checkGo(m, body.path("state"), at + ".go", problems);
                    }
                    if (m != null && kind.equals("set")) {
                        checkStates(m, body.path("states"), at + ".set.states", problems);
                    }
                    if (m != null && (kind.equals("edit") || kind.equals("attach"))) {
                        MachineRecord r = saves.codec().decode(body.path("record"), m, at + "." + kind + ".record", problems);
                        if (r != null) {
                            SavesJson.timesFit(r, clock, at + "." + kind + ".record", problems);
                        }
                    }
                    if (m != null && held != null) {
                        if (kind.equals("attach")) {
                            held.add(m.id());
                        } else if (kind.equals("detach")) {
                            held.remove(m.id());
                        }
                    }
                    break;
                }
                case "spawn": {
                    if (key.isEmpty() || key.equals(EntityKey.WORLD)) {
                        problems.add(at + ".spawn.entity: expected a key other than \"" + EntityKey.WORLD + "\" (the world's own entity); found "
                                + Json.kind(body.get("entity")));
                    } else if (held != null) {
                        problems.add(at + ".spawn.entity: an entity with key '" + key + "' exists at this point of the log; keys name one entity each");
                    }
                    java.util.Set<String> spawned = new java.util.HashSet<>();
                    for (Map.Entry<String, JsonNode> e : body.path(LogDefinitions.SPAWNED).properties()) {
                        definitions.named(e.getKey(), e.getValue(), at + ".spawn." + LogDefinitions.SPAWNED + "." + e.getKey(), problems);
                    }
                    for (Map.Entry<String, JsonNode> e : body.path("machines").properties()) {
                        States<?> sm = definitions.of(e.getKey());
                        if (sm == null) {
                            problems.add(at + ".spawn.machines." + e.getKey() + ": no machine has id '" + e.getKey()
                                    + "'; expected one of " + saves.machineIds());
                        } else {
                            MachineRecord r = saves.codec().decode(e.getValue(), sm, at + ".spawn.machines." + e.getKey(), problems);
                            if (r != null) {
                                SavesJson.timesFit(r, clock, at + ".spawn.machines." + e.getKey(), problems);
                            }
                            spawned.add(sm.id());
                        }
                    }
                    if (held == null && !key.isEmpty()) {
                        machinesOf.put(key, spawned);
                    }
                    break;
                }
                case "swap": {
                    String id = body.path("machine").asText("");
                    JsonNode from = body.get("from");
                    JsonNode to = body.get("to");
                    if (id.isEmpty() || !LogDefinitions.wellFormed(from) || !LogDefinitions.wellFormed(to)) {
                        problems.add(at + ".swap: expected {\"machine\": an id, \"from\": {\"version\", \"fingerprint\"}, \"to\":"
                                + " {\"version\", \"fingerprint\"}}; found " + body);
                        break;
                    }
                    String why = definitions.missing(id, from);
                    String which = LogDefinitions.text(from);
                    if (why == null) {
                        why = definitions.missing(id, to);
                        which = LogDefinitions.text(to);
                    }
                    if (why != null) {
                        problems.add(at + ".swap: the log swaps machine '" + id + "' from " + LogDefinitions.text(from) + " to "
                                + LogDefinitions.text(to) + ", but " + why + "; expected saves holding both definitions, with "
                                + which + " as the game had it (Saves.of takes several versions of one machine)");
                        break;
                    }
                    definitions.use(definitions.held(id, to));
                    break;
                }
                case "despawn": {
                    String gone = body.asText("");
                    if (gone.equals(EntityKey.WORLD)) {
                        problems.add(at + ".despawn: the world's own entity cannot be despawned");
                    } else if (machinesOf.remove(gone) == null && gone.indexOf('/') <= 0) {
                        problems.add(at + ".despawn: no entity has key '" + gone + "' at this point of the log");
                    }
                    break;
                }
                default:
                    problems.add(at + ": expected one of " + KINDS + "; found " + input);
            }
        }
    }

    /**
     * The hold component a log names: {@code MachinePaused}, or a {@code heldBy} type of one of the
     * saved machines (only those: a log never makes a class of its choosing), with a no-argument
     * constructor for the replay to make one.
     */
    private static Class<?> holdComponent(Saves saves, String name, String at, List<String> problems) {
        if (name.equals("MachinePaused")) {
            return MachinePaused.class;
        }
        for (String id : saves.machineIds()) {
            for (Class<?> type : saves.machine(id).machine().heldBy()) {
                if (type.getName().equals(name)) {
                    try {
                        // checked here, before anything is applied: on the module path the game's module must open the
                        // package, or the replay could only fail half-way, at the first hold
                        if (!type.getDeclaredConstructor().trySetAccessible()) {
                            String pkg = type.getPackageName();
                            String io = InputLog.class.getModule().getName();
                            problems.add(at + ": " + name + " holds machine '" + id + "', but a replay cannot make one: its module, "
                                    + type.getModule().getName() + ", does not open package " + pkg + " to "
                                    + (io != null ? io + "; expected 'opens " + pkg + " to " + io + ";' in its module-info.java"
                                    : "the class path; expected --add-opens " + type.getModule().getName() + "/" + pkg + "=ALL-UNNAMED"));
                            return null;
                        }
                        return type;
                    } catch (NoSuchMethodException e) {
                        problems.add(at + ": " + name + " holds machine '" + id + "' but has no no-argument constructor, so a replay cannot"
                                + " put one on the entity; expected a class with one");
                        return null;
                    }
                }
            }
        }
        problems.add(at + ": '" + name + "' is neither MachinePaused nor a heldBy type of " + saves.machineIds());
        return null;
    }

    private static Object newHold(Class<?> type, String at) {
        try {
            java.lang.reflect.Constructor<?> c = type.getDeclaredConstructor();
            c.setAccessible(true);
            return c.newInstance();
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw fail(at + ".hold.component", "cannot make a " + type.getName() + ": " + e);
        }
    }

    private static void checkEvent(States<?> m, JsonNode event, String at, List<String> problems) {
        String type = event.path("type").asText("");
        if (type.isEmpty()) {
            problems.add(at + ".type: expected the event's type, found " + Json.kind(event.get("type")));
            return;
        }
        dev.enginestates.chart.Chart c = Access.chart(m.machine());
        if (c.unknownEvents == dev.enginestates.declare.UnknownEvents.REJECT && !c.knownEvents().contains(type)) {
            problems.add(at + ".type: machine '" + m.id() + "' knows no event '" + type + "'; expected one of " + c.knownEvents());
        }
        EventFields.decode(event.path("fields"), at + ".fields", problems);
    }

    /**
     * A logged {@code go}: a state name the machine's style can be forced to from some state. The
     * check does not follow which state is active, so a name that resolves from nowhere is what it
     * can refuse.
     */
    private static void checkGo(States<?> m, JsonNode state, String at, List<String> problems) {
        if (!state.isTextual()) {
            problems.add(at + ".state: expected the name of the state go forced the machine to; found " + Json.kind(state));
            return;
        }
        dev.enginestates.chart.Chart c = Access.chart(m.machine());
        String problem = StyleRuntime.of(c).forceNameProblem(c, "go", state.asText());
        if (problem != null) {
            problems.add(at + ": " + problem);
        }
    }

    private static void checkStates(States<?> m, JsonNode paths, String at, List<String> problems) {
        dev.enginestates.chart.Chart c = Access.chart(m.machine());
        if (!paths.isArray() || paths.isEmpty()) {
            problems.add(at + ": expected the state paths, a non-empty array; found " + Json.kind(paths));
            return;
        }
        int[] states = new int[paths.size()];
        for (int i = 0; i < paths.size(); i++) {
            states[i] = c.stateAt(paths.get(i).asText());
            if (states[i] <= 0 || c.type[states[i]] == dev.enginestates.declare.StateType.HISTORY) {
                problems.add(at + "[" + i + "]: machine '" + m.id() + "' has no state '" + paths.get(i).asText() + "' that can be active");
                return;
            }
        }
        String[] named = new String[paths.size()];
        for (int i = 0; i < named.length; i++) {
            named[i] = paths.get(i).asText();
        }
        try {
            StyleRuntime.of(c).checkPlace(c, named); // a style in one state at a time takes one
        } catch (dev.enginestates.declare.MachineException e) {
            problems.add(at + ": " + e.getMessage());
            return;
        }
        int distinct = distinct(states, c.size);
        for (int i = 0; i < distinct; i++) {
            for (int j = i + 1; j < distinct; j++) {
                if (!c.canBeActiveTogether(states[i], states[j])) {
                    problems.add(at + ": '" + c.path[states[i]] + "' and '" + c.path[states[j]] + "' cannot be active together in machine '"
                            + m.id() + "'; expected states in different regions of a parallel state");
                }
            }
        }
    }

    /**
     * Moves each state's first occurrence to the front, in order, and returns how many there are: a
     * state named twice is one state, and the pairs are checked among distinct ones, so a list of a
     * million repeats costs a million steps, not half a million million.
     */
    private static int distinct(int[] states, int chartSize) {
        boolean[] seen = new boolean[chartSize];
        int n = 0;
        for (int s : states) {
            if (!seen[s]) {
                seen[s] = true;
                states[n++] = s;
            }
        }
        return n;
    }

    /**
     * The ids of the machines some machine of {@code saves} invokes on its own entity: such a child
     * comes and goes with its parent's moves, which the log does not hold, so inputs to it are
     * checked when the replay reaches them, as those on a child's own entity are.
     */
    private static java.util.Set<String> childrenOnTheirParentsEntity(Saves saves, LogDefinitions definitions) {
        java.util.Set<String> ids = new java.util.HashSet<>();
        for (String id : saves.machineIds()) {
            States<?> m = definitions.of(id);
            dev.enginestates.chart.Invocation[][] invokes = m == null ? null : Access.chart(m.machine()).invokes;
            for (int s = 0; invokes != null && s < invokes.length; s++) {
                for (dev.enginestates.chart.Invocation inv : invokes[s]) {
                    if (inv.sameEntity) {
                        ids.add(inv.machine.id());
                    }
                }
            }
        }
        return ids;
    }

    private static States<?> known(Saves saves, LogDefinitions definitions, JsonNode id, String at, List<String> problems) {
        States<?> m = definitions.of(id.asText(""));
        if (m == null) {
            problems.add(at + ": no machine has id '" + id.asText("") + "'; expected one of " + saves.machineIds());
        }
        return m;
    }

    /** Applies one input; the checks ran first. Package-private for tests: a log the checks pass never reaches its last branch. */
    static void apply(Saves saves, StateWorld world, JsonNode input, String at) {
        apply(saves, world, new LogDefinitions(saves, com.fasterxml.jackson.databind.node.MissingNode.getInstance()), input, at);
    }

    private static void apply(Saves saves, StateWorld world, LogDefinitions definitions, JsonNode input, String at) {
        if (input.has("step")) {
            world.step(input.get("step").asDouble());
        } else if (input.has("advance")) {
            world.advance(input.get("advance").asDouble());
        } else if (input.has("runStates")) {
            world.runStates();
        } else if (input.has("send")) {
            JsonNode s = input.get("send");
            States<?> m = machine(saves, definitions, s, at + ".send");
            Entity e = entity(world, s.path("entity").asText(), at + ".send.entity");
            JsonNode ev = s.path("event");
            List<String> problems = new ArrayList<>();
            Map<String, Object> fields = EventFields.decode(ev.path("fields"), at + ".send.event.fields", problems);
            if (fields == null) {
                throw new CheckpointException("the input log cannot be replayed", problems);
            }
            String type = ev.path("type").asText();
            if (s.has("args")) {
                Map<String, Object> numbered = EventFields.decode(s.get("args"), at + ".send.args", problems);
                if (numbered == null) {
                    throw new CheckpointException("the input log cannot be replayed", problems);
                }
                m.send(e, type, numbered.values().toArray());
            } else if (StyleRuntime.of(Access.chart(m.machine())).handsEventToCode() && !s.path("asEvent").asBoolean()) {
                m.send(e, type); // the bare name, as it was sent: the style's code got no event
            } else {
                m.send(e, Event.of(type, fields));
            }
        } else if (input.has("go")) {
            JsonNode g = input.get("go");
            States<?> m = machine(saves, definitions, g, at + ".go");
            m.go(entity(world, g.path("entity").asText(), at + ".go.entity"), g.path("state").asText());
        } else if (input.has("hold")) {
            JsonNode h = input.get("hold");
            Entity e = entity(world, h.path("entity").asText(), at + ".hold.entity");
            List<String> problems = new ArrayList<>();
            Class<?> type = holdComponent(saves, h.path("component").asText(), at + ".hold.component", problems);
            if (type == null) {
                throw new CheckpointException("the input log cannot be replayed", problems);
            }
            if (h.path("on").asBoolean() && !e.has(type)) {
                e.add(type == MachinePaused.class ? MachinePaused.INSTANCE : newHold(type, at));
            } else if (!h.path("on").asBoolean()) {
                e.removeType(type);
            }
        } else if (input.has("clock")) {
            JsonNode c = input.get("clock");
            world.restoreClock(c.path("time").asDouble(), c.path("steps").asLong());
        } else if (input.has("set")) {
            JsonNode s = input.get("set");
            States<?> m = machine(saves, definitions, s, at + ".set");
            Entity e = entity(world, s.path("entity").asText(), at + ".set.entity");
            List<String> paths = new ArrayList<>();
            s.path("states").forEach(p -> paths.add(p.asText()));
            m.read(e).setState(paths.toArray(new String[0]));
        } else if (input.has("spawn")) {
            JsonNode s = input.get("spawn");
            String key = s.path("entity").asText();
            List<Object> components = new ArrayList<>();
            components.add(EntityKey.of(key));
            for (Map.Entry<String, JsonNode> m : s.path(LogDefinitions.SPAWNED).properties()) {
                definitions.use(definitions.held(m.getKey(), m.getValue()));
            }
            for (Map.Entry<String, JsonNode> m : s.path("machines").properties()) {
                components.add(record(saves, definitions, m.getKey(), m.getValue(), at + ".spawn.machines." + m.getKey()));
            }
            world.spawn(components.toArray());
        } else if (input.has("attach")) {
            JsonNode a = input.get("attach");
            Entity e = entity(world, a.path("entity").asText(), at + ".attach.entity");
            if (a.has(LogDefinitions.ATTACHED)) {
                definitions.use(definitions.held(a.path("machine").asText(), a.get(LogDefinitions.ATTACHED)));
            }
            world.attach(e, record(saves, definitions, a.path("machine").asText(), a.path("record"), at + ".attach.record"));
        } else if (input.has("edit")) {
            JsonNode a = input.get("edit");
            Entity e = entity(world, a.path("entity").asText(), at + ".edit.entity");
            States<?> m = machine(saves, definitions, a, at + ".edit");
            List<String> problems = new ArrayList<>();
            MachineRecord staged = saves.codec().decode(a.path("record"), m, at + ".edit.record", problems);
            if (staged == null) {
                throw new CheckpointException("the input log cannot be replayed", problems);
            }
            StateRecord<?> r = m.read(e);
            Access.restore(r, staged);
            world.restored(r);
        } else if (input.has("detach")) {
            JsonNode d = input.get("detach");
            world.detach(entity(world, d.path("entity").asText(), at + ".detach.entity"), machine(saves, definitions, d, at + ".detach"));
        } else if (input.has("despawn")) {
            world.despawn(entity(world, input.get("despawn").asText(), at + ".despawn"));
        } else if (input.has("swap")) {
            JsonNode s = input.get("swap");
            String id = s.path("machine").asText();
            States<?> to = definitions.held(id, s.path("to"));
            Access.swapReplayed(world, definitions.held(id, s.path("from")), to);
            definitions.use(to);
        } else {
            throw fail(at, "expected one of " + KINDS + "; found " + input);
        }
    }

    private static StateRecord<?> record(Saves saves, LogDefinitions definitions, String id, JsonNode node, String at) {
        States<?> m = definitions.of(id);
        if (m == null) {
            throw fail(at, "no machine has id '" + id + "'; expected one of " + saves.machineIds());
        }
        List<String> problems = new ArrayList<>();
        MachineRecord staged = saves.codec().decode(node, m, at, problems);
        if (staged == null) {
            throw new CheckpointException("the input log cannot be replayed", problems);
        }
        return (StateRecord<?>) Access.trait(m, staged);
    }

    private static States<?> machine(Saves saves, LogDefinitions definitions, JsonNode node, String at) {
        String id = node.path("machine").asText();
        States<?> m = definitions.of(id);
        if (m == null) {
            throw fail(at + ".machine", "no machine has id '" + id + "'; expected one of " + saves.machineIds());
        }
        return m;
    }

    private static Entity entity(StateWorld world, String key, String at) {
        Entity e = world.entity(key);
        if (e == null) {
            throw fail(at, "no entity has key '" + key + "'");
        }
        return e;
    }

    private static CheckpointException fail(String at, String what) {
        return new CheckpointException("the input log cannot be replayed", List.of(at + ": " + what));
    }
}

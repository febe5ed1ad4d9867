package dev.enginestates.io;

import dev.enginestates.algorithm.Migrator;
import dev.enginestates.algorithm.RecordField;
import dev.enginestates.algorithm.RecordImage;
import dev.enginestates.algorithm.Scratch;
import dev.enginestates.declare.Migration;
import dev.enginestates.algorithm.StyleRuntime;
import dev.enginestates.algorithm.TimeRules;
import dev.enginestates.records.Access;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.SavedContext;
import dev.enginestates.declare.StateType;
import dev.enginestates.ecs.States;
import dev.enginestates.records.Configurations;
import dev.enginestates.records.MachineRecord;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleFunction;

/**
 * One machine record as exact JSON, and back. The active states are kept in the order they
 * were entered (XState's order, which decides later choices), every time as the exact double
 * it is, the context through Jackson. Decoding checks everything and reports each problem with
 * its JSON path; it never touches a live record. A decoded record is one the machine can hold
 * ({@link Configurations}); its context has every field its type writes, of the type it has
 * (no coercion from strings or numbers, no null into a primitive).
 */
final class RecordCodec {
    /** Seconds beyond this (31,700 years) in a wait, its waited seconds or paused seconds are taken for corruption. */
    static final double MAX_SECONDS = TimeRules.MAX_SECONDS; // the longest step too: what a step writes, a restore reads

    private final ObjectMapper json;

    RecordCodec(ObjectMapper json) {
        this.json = json;
    }

    ObjectNode encode(MachineRecord r) {
        ObjectNode o = encodeFields(r);
        if (r.sendCount() > 0) {
            o.set("sends", encodeSends(r)); // written only when some are pending: older checkpoints and dumps read as before
        }
        o.set("context", encodeContext(r.contextObject()));
        return o;
    }

    /**
     * The record's pending sends to itself, in delivery order: each its event's type, its fields
     * (when it has some), its due time on the world's (or plain machine's) clock and its id
     * (when it has one).
     */
    static ArrayNode encodeSends(MachineRecord r) {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < r.sendCount(); i++) {
            ObjectNode s = out.addObject();
            Event e = r.sendEvent(i);
            s.put("type", e.type());
            if (!e.fields().isEmpty()) {
                s.set("fields", EventFields.encode(e.fields()));
            }
            s.put("due", r.sendDue(i));
            if (r.sendId(i) != null) {
                s.put("id", r.sendId(i));
            }
        }
        return out;
    }

    /** Reads pending sends into a record, in the order written (which must be delivery order). */
    private static void decodeSends(JsonNode node, MachineRecord r, String at, List<String> problems) {
        Chart c = r.chart();
        if (!node.isArray()) {
            problems.add(at + ": expected the pending sends to itself, an array of {type, fields, due, id}; found " + Json.kind(node));
            return;
        }
        double last = Double.NEGATIVE_INFINITY;
        JsonPath sends = JsonPath.of(at);
        for (int i = 0; i < node.size(); i++) {
            JsonNode s = node.get(i);
            JsonPath where = sends.index(i); // spelt out only for a problem: a send is read per element, the path may be long
            if (!s.isObject()) {
                problems.add(where + ": expected {type, fields, due, id}, found " + Json.kind(s));
                continue;
            }
            for (Iterator<String> it = s.fieldNames(); it.hasNext(); ) {
                String f = it.next();
                if (!List.of("type", "fields", "due", "id").contains(f)) {
                    problems.add(where + "." + f + ": not a field of a pending send; expected type, fields, due, id");
                }
            }
            JsonNode type = s.get("type");
            if (type == null || !type.isTextual() || type.asText().isEmpty()) {
                problems.add(where + ".type: expected the event's type, a non-empty string; found " + Json.kind(type));
                continue;
            }
            String t = type.asText();
            if (c.eventId(t) < 0 && c.unknownEvents == dev.enginestates.declare.UnknownEvents.REJECT) {
                problems.add(where + ".type: machine '" + c.machineId + "' knows no event '" + t + "'; expected one of " + c.knownEvents());
                continue;
            }
            Map<String, Object> fields = Map.of();
            if (s.has("fields")) {
                fields = EventFields.decode(s.get("fields"), where.field("fields"), problems);
                if (fields == null) {
                    continue;
                }
            }
            double due = number(s.get("due"), where.field("due"), problems);
            if (Double.isNaN(due)) {
                continue;
            }
            if (due < last) {
                problems.add(where + ".due: " + due + " comes before the send above it (" + last + "); expected delivery order");
                continue;
            }
            last = due;
            JsonNode id = s.get("id");
            if (id != null && !id.isTextual()) {
                problems.add(where + ".id: expected a string, found " + Json.kind(id));
                continue;
            }
            int eid = c.eventId(t);
            Event event = fields.isEmpty() && eid >= 0 && c.isExact(eid) ? c.eventObjects[eid] : Event.of(t, fields);
            r.restoreSend(event, due, id == null ? null : id.asText());
        }
    }

    /**
     * A context as a record's {@code context} field holds it: what a {@link SavedContext} saves, else its fields through Jackson.
     *
     * @throws Refused if a {@link SavedContext} refuses or saves what is not a JSON value
     */
    JsonNode encodeContext(Object context) {
        if (context instanceof SavedContext saved) {
            Object state;
            try {
                state = saved.save();
            } catch (RuntimeException e) {
                throw new Refused(Json.oneLine(e), e);
            }
            return node(state, "the saved state");
        }
        return context == null ? JsonNodeFactory.instance.nullNode() : json.valueToTree(context);
    }

    /** A context that cannot be written; the caller adds where (entity, machine) to the message. */
    static final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Refused(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** A saved state's JSON value as a node; anything else is refused (a {@link SavedContext} must save JSON values). */
    private static JsonNode node(Object v, String at) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        if (v == null) {
            return f.nullNode();
        }
        if (v instanceof String s) {
            return f.textNode(s);
        }
        if (v instanceof Boolean b) {
            return f.booleanNode(b);
        }
        if (v instanceof Integer i) {
            return f.numberNode(i);
        }
        if (v instanceof Long l) {
            return f.numberNode(l);
        }
        if (v instanceof Double d && Double.isFinite(d)) {
            return f.numberNode(d);
        }
        if (v instanceof List<?> l) {
            ArrayNode a = f.arrayNode();
            for (int i = 0; i < l.size(); i++) {
                a.add(node(l.get(i), at + "[" + i + "]"));
            }
            return a;
        }
        if (v instanceof Map<?, ?> m) {
            ObjectNode o = f.objectNode();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!(e.getKey() instanceof String k)) {
                    throw new Refused(at + " has the key " + e.getKey() + "; expected string keys", null);
                }
                o.set(k, node(e.getValue(), at + "." + k));
            }
            return o;
        }
        throw new Refused(at + " holds " + (v instanceof Double ? v : "a " + v.getClass().getName())
                + "; expected JSON values: null, strings, booleans, finite Double, Integer or Long, lists and string-keyed maps", null);
    }

    /** A JSON value as the Java value a {@link SavedContext} restores: objects keep their order, whole numbers are {@code Long}. */
    static Object plain(JsonNode n) {
        if (n.isObject()) {
            Map<String, Object> out = new LinkedHashMap<>();
            n.properties().forEach(e -> out.put(e.getKey(), plain(e.getValue())));
            return out;
        }
        if (n.isArray()) {
            List<Object> out = new ArrayList<>();
            n.forEach(x -> out.add(plain(x)));
            return out;
        }
        if (n.isIntegralNumber() && n.canConvertToLong()) {
            return n.asLong();
        }
        if (n.isNumber()) {
            return n.asDouble();
        }
        if (n.isTextual()) {
            return n.asText();
        }
        if (n.isBoolean()) {
            return n.asBoolean();
        }
        return null;
    }

    /** Every field of a record but its context, in the order {@link #encode} writes them. */
    ObjectNode encodeFields(MachineRecord r) {
        Chart c = r.chart();
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("status", r.isDone() ? "done" : "active");
        ArrayNode active = o.putArray("active");
        for (int i = 0; i < r.activeCount(); i++) {
            int s = r.activeAt(i);
            if (s > 0) {
                active.add(c.path[s]);
            }
        }
        ObjectNode history = o.putObject("history");
        for (int h = 1; h < c.size; h++) {
            if (c.type[h] == StateType.HISTORY && r.historySize(h) >= 0) {
                ArrayNode remembered = history.putArray(c.path[h]);
                for (int i = 0; i < r.historySize(h); i++) {
                    remembered.add(c.path[r.historyAt(h, i)]);
                }
            }
        }
        ObjectNode paused = o.putObject("paused");
        for (int s = 1; s < c.size; s++) {
            if (!Double.isNaN(r.paused(s))) {
                paused.put(c.path[s], r.paused(s));
            }
        }
        if (r.waitState() >= 0) {
            ObjectNode wait = o.putObject("wait");
            wait.put("state", c.path[r.waitState()]);
            wait.put("start", r.waitStart());
            wait.put("seconds", r.waitSeconds());
        } else {
            o.putNull("wait");
        }
        if (r.isHeld()) {
            o.put("heldSince", r.heldSince());
        } else {
            o.putNull("heldSince");
        }
        for (RecordField f : StyleRuntime.of(c).recordFields()) {
            put(o, f, r, JsonNodeFactory.instance::numberNode);
        }
        if (r.randomState() != 0) {
            o.put(RANDOM, hex(r.randomState())); // only once its code has drawn: older checkpoints and frames read as before
        }
        return o;
    }

    /** The field of a record's random numbers' state, written once the machine's code has drawn. */
    static final String RANDOM = "random";

    /**
     * A long as 16 hex digits: a JSON number holds it exactly only in readers that keep 64-bit
     * integers, and a browser (the devtools page, a replica in JavaScript) keeps 53 bits.
     */
    static String hex(long v) {
        String digits = Long.toHexString(v);
        return "0".repeat(16 - digits.length()) + digits;
    }

    /** A long written by {@link #hex}, or {@code null} with a problem: exactly 16 digits 0-9, a-f. */
    static Long unhex(JsonNode node, String at, String meaning, List<String> problems) {
        String t = node != null && node.isTextual() ? node.asText() : null;
        if (t == null || t.length() != 16 || !t.chars().allMatch(ch -> ch >= '0' && ch <= '9' || ch >= 'a' && ch <= 'f')) {
            problems.add(at + ": expected " + meaning + ", 16 hex digits (0-9, a-f) in a string; found " + Json.kind(node));
            return null;
        }
        return Long.parseUnsignedLong(t, 16);
    }

    /** The names of the fields {@link #encode} writes for a record of this chart, in that order. */
    static List<String> fieldNames(Chart c) {
        List<String> out = new java.util.ArrayList<>(List.of("status", "active", "history", "paused", "wait", "heldSince"));
        for (RecordField f : StyleRuntime.of(c).recordFields()) {
            out.add(f.name);
        }
        out.add("context");
        return out;
    }

    /** A new record decoded from {@code node}, or {@code null} with the problems added. */
    MachineRecord decode(JsonNode node, States<?> machine, String at, List<String> problems) {
        Chart c = Access.chart(machine.machine());
        int before = problems.size();
        if (!node.isObject()) {
            problems.add(at + ": expected a machine record object, found " + Json.kind(node));
            return null;
        }
        // a misspelt optional field (say "Sends") would otherwise be skipped and its content silently lost
        List<String> known = fieldNames(c);
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!known.contains(f) && !f.equals("sends") && !f.equals(RANDOM)) {
                problems.add(at + "." + f + ": not a field of a '" + c.machineId + "' record; expected " + known + " and, when some are"
                        + " pending, sends, and once its code has drawn random numbers, random");
            }
        }
        Object context = decodeContext(node.get("context"), machine, at + ".context", problems);
        MachineRecord r = new MachineRecord(c, context);
        r.enter(0);
        JsonNode active = node.get("active");
        if (active == null || !active.isArray() || active.isEmpty()) {
            problems.add(at + ".active: expected the active state paths in entry order, a non-empty array; found " + Json.kind(active));
        } else {
            for (int i = 0; i < active.size(); i++) {
                int s = state(c, active.get(i), at + ".active[" + i + "]", problems);
                if (s < 0) {
                    continue;
                }
                if (c.type[s] == StateType.HISTORY) {
                    problems.add(at + ".active[" + i + "]: '" + c.path[s] + "' is a history state, which is never active");
                } else if (r.isActive(s)) {
                    problems.add(at + ".active[" + i + "]: '" + c.path[s] + "' is listed twice");
                } else {
                    // taken as written: XState (and so the engine) can leave configurations a chart
                    // would not suggest, such as a state whose parent a multi-region step exited
                    r.enter(s);
                }
            }
        }
        String status = node.path("status").asText("");
        if (status.equals("done")) {
            r.status(MachineRecord.DONE);
            inReverseDocumentOrder(r); // as the engine (and XState) leaves a done machine's states
        } else if (status.equals("active")) {
            r.status(MachineRecord.ACTIVE);
        } else {
            problems.add(at + ".status: expected \"active\" or \"done\", found " + Json.kind(node.get("status")));
        }
        JsonNode history = node.path("history");
        if (!history.isObject()) {
            problems.add(at + ".history: expected an object from history state path to remembered paths, found " + Json.kind(node.get("history")));
        } else {
            for (Map.Entry<String, JsonNode> e : history.properties()) {
                String where = at + ".history." + e.getKey();
                int h = c.stateAt(e.getKey());
                if (h <= 0 || c.type[h] != StateType.HISTORY) {
                    problems.add(where + ": '" + e.getKey() + "' names no history state of machine '" + c.machineId + "'");
                    continue;
                }
                if (!e.getValue().isArray()) {
                    problems.add(where + ": expected the remembered state paths, an array; found " + Json.kind(e.getValue()));
                    continue;
                }
                r.clearHistory(h);
                for (int i = 0; i < e.getValue().size(); i++) {
                    int s = state(c, e.getValue().get(i), where + "[" + i + "]", problems);
                    if (s >= 0 && !c.isDescendant(s, c.parent[h])) {
                        problems.add(where + "[" + i + "]: '" + c.path[s] + "' is not inside '" + c.describe(c.parent[h])
                                + "', which the history state remembers");
                    } else if (s >= 0 && remembers(r, h, s)) {
                        problems.add(where + "[" + i + "]: '" + c.path[s] + "' is listed twice; expected each state once");
                    } else if (s >= 0) {
                        r.addHistory(h, s);
                    }
                }
            }
        }
        JsonNode paused = node.path("paused");
        if (!paused.isObject()) {
            problems.add(at + ".paused: expected an object from state path to seconds, found " + Json.kind(node.get("paused")));
        } else {
            for (Map.Entry<String, JsonNode> e : paused.properties()) {
                String where = at + ".paused." + e.getKey();
                int s = c.stateAt(e.getKey());
                if (s <= 0 || c.waitTransition[s] < 0) {
                    problems.add(where + ": '" + e.getKey() + "' names no state with a wait in machine '" + c.machineId + "'");
                } else {
                    double v = seconds(e.getValue(), where, problems);
                    if (!Double.isNaN(v)) {
                        r.setPaused(s, v);
                    }
                }
            }
        }
        JsonNode wait = node.get("wait");
        if (wait != null && !wait.isNull()) {
            if (!wait.isObject()) {
                problems.add(at + ".wait: expected null or {state, start, seconds}, found " + Json.kind(wait));
            } else {
                for (Iterator<String> it = wait.fieldNames(); it.hasNext(); ) {
                    String f = it.next();
                    if (!List.of("state", "start", "seconds").contains(f)) {
                        problems.add(at + ".wait." + f + ": not a field of a wait; expected state, start, seconds");
                    }
                }
                int s = state(c, wait.get("state"), at + ".wait.state", problems);
                double start = number(wait.get("start"), at + ".wait.start", problems);
                double secs = seconds(wait.get("seconds"), at + ".wait.seconds", problems);
                if (s >= 0 && (c.waitTransition[s] < 0 || !r.isActive(s))) {
                    problems.add(at + ".wait.state: '" + c.path[s] + "' is not an active state with a wait");
                } else if (s >= 0 && !Double.isNaN(secs) && c.waitSecondsOf[s] == null && secs != c.waitSeconds[s]) {
                    problems.add(at + ".wait.seconds: " + secs + " s, but the wait of '" + c.path[s] + "' is "
                            + c.waitSeconds[s] + " s; expected the machine's own seconds");
                } else if (s >= 0 && !Double.isNaN(start) && !Double.isNaN(secs)) {
                    r.setWait(s, start, secs);
                }
            }
        }
        JsonNode held = node.get("heldSince");
        if (held != null && !held.isNull()) {
            double since = number(held, at + ".heldSince", problems);
            if (!Double.isNaN(since)) {
                r.setHeldSince(since);
            }
        }
        List<RecordField> own = StyleRuntime.of(c).recordFields();
        for (RecordField f : own) {
            if (!f.afterShape()) {
                read(node, f, r, at, problems);
            }
        }
        JsonNode sends = node.get("sends");
        if (sends != null) {
            decodeSends(sends, r, at + ".sends", problems);
        }
        JsonNode random = node.get(RANDOM);
        if (random != null && !random.isNull()) { // absent (written before it was) or null: not seeded, as a new record
            Long state = unhex(random, at + "." + RANDOM, "the state of the machine's random numbers", problems);
            if (state != null) {
                r.randomState(state);
            }
        }
        if (problems.size() == before) {
            String shape = Configurations.problem(r);
            if (shape != null) {
                problems.add(at + ": " + shape);
            }
        }
        for (RecordField f : own) {
            if (f.afterShape() && problems.size() == before) {
                read(node, f, r, at, problems);
            }
        }
        return problems.size() == before ? r : null;
    }

    // ------------------------------------------------------------------ an older version's record

    /**
     * A record of an older version of {@code machine}, decoded through the migrations {@code chain}
     * ({@link Migrator}): read by paths, without the older definition, then placed in the newer
     * one at the checkpoint's clock {@code time}. {@code null} with the problems added.
     */
    MachineRecord decodeMigrated(JsonNode node, States<?> machine, List<Migration> chain, String version, double time, String at,
            List<String> problems) {
        Chart c = Access.chart(machine.machine());
        int before = problems.size();
        if (!node.isObject()) {
            problems.add(at + ": expected a machine record object, found " + Json.kind(node));
            return null;
        }
        RecordImage img = image(node, c, at, problems);
        int changes = -1;
        for (int i = chain.size() - 1; i >= 0; i--) {
            if (chain.get(i).changesContext()) {
                changes = i; // the context is read as the version before the first change wrote it
            }
        }
        Object context;
        if (changes < 0) {
            context = decodeContext(node.get("context"), machine, at + ".context", problems);
        } else {
            Migration first = chain.get(changes);
            context = decodeContext(node.get("context"), first::oldContext, machine.id(), at + ".context", problems);
            if (problems.size() == before) {
                try {
                    context = Migrator.context(chain, changes, context);
                } catch (RuntimeException e) {
                    problems.add(at + ".context: the migration's context change threw " + e);
                }
            }
        }
        if (problems.size() > before) {
            return null;
        }
        return Migrator.migrate(img, chain, c, version, context, new Scratch().at(time, 0), at, problems);
    }

    /** A record's fields by paths, checked for their JSON types only: the older chart that would say more is gone. */
    private static RecordImage image(JsonNode node, Chart newer, String at, List<String> problems) {
        RecordImage img = new RecordImage();
        String status = node.path("status").asText("");
        if (!status.equals("done") && !status.equals("active")) {
            problems.add(at + ".status: expected \"active\" or \"done\", found " + Json.kind(node.get("status")));
        }
        img.done = status.equals("done");
        JsonNode active = node.get("active");
        if (active == null || !active.isArray() || active.isEmpty()) {
            problems.add(at + ".active: expected the active state paths in entry order, a non-empty array; found " + Json.kind(active));
        } else {
            img.active.addAll(paths(active, at + ".active", problems));
        }
        JsonNode history = node.path("history");
        if (!history.isObject()) {
            problems.add(at + ".history: expected an object from history state path to remembered paths, found " + Json.kind(history));
        } else {
            for (Map.Entry<String, JsonNode> e : history.properties()) {
                img.history.put(e.getKey(), paths(e.getValue(), at + ".history." + e.getKey(), problems));
            }
        }
        JsonNode paused = node.path("paused");
        if (paused.isObject()) {
            for (Map.Entry<String, JsonNode> e : paused.properties()) {
                double v = seconds(e.getValue(), at + ".paused." + e.getKey(), problems);
                if (!Double.isNaN(v)) {
                    img.paused.put(e.getKey(), v);
                }
            }
        }
        JsonNode wait = node.get("wait");
        if (wait != null && !wait.isNull()) {
            JsonNode state = wait.get("state");
            if (state == null || !state.isTextual()) {
                problems.add(at + ".wait.state: expected a state path, found " + Json.kind(state));
            } else {
                img.waitState = state.asText();
                img.waitStart = number(wait.get("start"), at + ".wait.start", problems);
                img.waitSeconds = seconds(wait.get("seconds"), at + ".wait.seconds", problems);
            }
        }
        JsonNode held = node.get("heldSince");
        if (held != null && !held.isNull()) {
            img.heldSince = number(held, at + ".heldSince", problems);
        }
        for (RecordField f : StyleRuntime.of(newer).recordFields()) {
            JsonNode v = node.get(f.name);
            String where = at + "." + f.name;
            if (v == null) {
                continue;
            }
            if (f instanceof RecordField.Number) {
                double x = number(v, where, problems);
                if (!Double.isNaN(x)) {
                    img.fields.put(f.name, x);
                }
            } else if (f instanceof RecordField.StatePath) {
                img.fields.put(f.name, v.asText(""));
            } else if (f instanceof RecordField.Times) {
                Map<String, Double> values = new LinkedHashMap<>();
                if (v.isObject()) {
                    for (Map.Entry<String, JsonNode> e : v.properties()) {
                        double x = number(e.getValue(), where + "." + e.getKey(), problems);
                        values.put(e.getKey(), x);
                    }
                }
                img.fields.put(f.name, values);
            } else {
                img.fields.put(f.name, paths(v, where, problems));
            }
        }
        JsonNode sends = node.get("sends");
        if (sends != null && sends.isArray()) {
            for (int i = 0; i < sends.size(); i++) {
                JsonNode send = sends.get(i);
                String where = at + ".sends[" + i + "]";
                JsonNode type = send.get("type");
                if (type == null || !type.isTextual()) {
                    problems.add(where + ".type: expected the event's type, found " + Json.kind(type));
                    continue;
                }
                Map<String, Object> fields = send.has("fields") ? EventFields.decode(send.get("fields"), JsonPath.of(where + ".fields"),
                        problems) : Map.of();
                double due = number(send.get("due"), where + ".due", problems);
                JsonNode id = send.get("id");
                if (fields != null) {
                    img.sends.add(new RecordImage.Send(Event.of(type.asText(), fields), due, id == null || !id.isTextual() ? null
                            : id.asText()));
                }
            }
        }
        JsonNode random = node.get(RANDOM);
        if (random != null && !random.isNull()) {
            Long state = unhex(random, at + "." + RANDOM, "the state of the machine's random numbers", problems);
            img.random = state == null ? 0 : state;
        }
        return img;
    }

    private static List<String> paths(JsonNode v, String at, List<String> problems) {
        List<String> out = new ArrayList<>();
        if (v == null || !v.isArray()) {
            problems.add(at + ": expected an array of state paths, found " + Json.kind(v));
            return out;
        }
        for (int i = 0; i < v.size(); i++) {
            if (!v.get(i).isTextual() || v.get(i).asText().isEmpty()) {
                problems.add(at + "[" + i + "]: expected a state path, found " + Json.kind(v.get(i)));
            } else {
                out.add(v.get(i).asText());
            }
        }
        return out;
    }

    /**
     * Writes one of a style's own fields into {@code o} by its kind: numbers through {@code number}
     * (exact doubles in a record, rounded ones in a dump), states as their paths ({@code ""} for
     * none), and per-state values and lists in the order the active states were entered.
     */
    static void put(ObjectNode o, RecordField f, MachineRecord r, DoubleFunction<JsonNode> number) {
        Chart c = r.chart();
        if (f instanceof RecordField.Number n) {
            o.set(f.name, number.apply(n.read(r)));
        } else if (f instanceof RecordField.StatePath p) {
            int s = p.read(r);
            o.put(f.name, s < 0 ? "" : c.path[s]);
        } else if (f instanceof RecordField.Times t) {
            ObjectNode values = o.putObject(f.name);
            for (int i = 0; i < r.activeCount(); i++) {
                int s = r.activeAt(i);
                if (t.takes(s) && t.has(r, s)) {
                    values.set(c.path[s], number.apply(t.read(r, s)));
                }
            }
        } else if (f instanceof RecordField.StateList l) {
            ArrayNode states = o.putArray(f.name);
            for (int i = 0; i < r.activeCount(); i++) {
                if (l.has(r, r.activeAt(i))) {
                    states.add(c.path[r.activeAt(i)]);
                }
            }
        }
    }

    /** Reads one of a style's own fields from {@code node} into {@code r} by its kind, adding each problem with its path. */
    private static void read(JsonNode node, RecordField f, MachineRecord r, String at, List<String> problems) {
        Chart c = r.chart();
        JsonNode v = node.get(f.name);
        String where = at + "." + f.name;
        if (v == null && f.optional()) {
            return; // a record written before the field was: the new record's own value stands
        }
        if (f instanceof RecordField.Number n) {
            double x = number(v, where, problems);
            if (!Double.isNaN(x)) {
                refused(n.write(r, x), where, problems);
            }
        } else if (f instanceof RecordField.StatePath p) {
            if (v == null || !v.isTextual()) {
                problems.add(where + ": expected " + f.meaning + ", or \"\", found " + Json.kind(v));
            } else if (!v.asText().isEmpty()) {
                refused(p.write(r, v.asText()), where, problems);
            }
        } else if (f instanceof RecordField.Times t) {
            readTimes(v, t, r, where, problems);
        } else if (f instanceof RecordField.StateList l) {
            if (v == null || !v.isArray()) {
                problems.add(where + ": expected " + f.meaning + ", an array; found " + Json.kind(v));
                return;
            }
            for (int i = 0; i < v.size(); i++) {
                String item = where + "[" + i + "]";
                int s = state(c, v.get(i), item, problems);
                if (s >= 0 && l.has(r, s)) {
                    problems.add(item + ": '" + c.path[s] + "' is listed twice; expected each state once");
                } else if (s >= 0) {
                    refused(l.add(r, s), item, problems);
                }
            }
        }
    }

    /** Values keyed by active states' paths (the root's ""): each a state the field takes, and every one when the field wants all. */
    private static void readTimes(JsonNode v, RecordField.Times t, MachineRecord r, String at, List<String> problems) {
        Chart c = r.chart();
        if (v == null || !v.isObject()) {
            problems.add(at + ": expected an object from " + t.meaning + ", found " + Json.kind(v));
            return;
        }
        for (Map.Entry<String, JsonNode> e : v.properties()) {
            int s = e.getKey().isEmpty() ? 0 : c.stateAt(e.getKey());
            if (s < 0 || !r.isActive(s) || !t.takes(s)) {
                problems.add(at + "." + e.getKey() + ": '" + e.getKey() + "' is not an active state of machine '" + c.machineId
                        + "'; expected " + t.one + " for each active state only");
                continue;
            }
            double x = number(e.getValue(), at + "." + e.getKey(), problems);
            if (!Double.isNaN(x)) {
                refused(t.write(r, s, x), at + "." + e.getKey(), problems);
            }
        }
        if (t.everyOne()) {
            String noun = t.one.substring(t.one.indexOf(' ') + 1); // "an entry time": "no entry time"
            for (int i = 0; i < r.activeCount(); i++) {
                int s = r.activeAt(i);
                if (t.takes(s) && !v.has(c.path[s])) {
                    problems.add(at + ": no " + noun + " for active state '" + c.describe(s) + "'; expected one per active state");
                }
            }
        }
    }

    private static void refused(String problem, String at, List<String> problems) {
        if (problem != null) {
            problems.add(at + ": " + problem);
        }
    }

    private static void inReverseDocumentOrder(MachineRecord r) {
        int n = r.activeCount();
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = r.activeAt(i);
        }
        java.util.Arrays.sort(order);
        for (int i = 0; i < n / 2; i++) {
            int t = order[i];
            order[i] = order[n - 1 - i];
            order[n - 1 - i] = t;
        }
        r.restoreOrder(order, n);
    }

    private static boolean remembers(MachineRecord r, int h, int s) {
        for (int i = 0; i < r.historySize(h); i++) {
            if (r.historyAt(h, i) == s) {
                return true;
            }
        }
        return false;
    }

    private Object decodeContext(JsonNode node, States<?> machine, String at, List<String> problems) {
        return decodeContext(node, machine.machine()::newContext, machine.id(), at, problems);
    }

    private Object decodeContext(JsonNode node, java.util.function.Supplier<?> newContext, String machineId, String at,
            List<String> problems) {
        Object fresh;
        try {
            fresh = newContext.get();
        } catch (dev.enginestates.declare.MachineException e) {
            problems.add(at + ": " + e.getMessage()); // a polled machine defined without a context factory
            return null;
        }
        if (node == null) {
            problems.add(at + ": missing; expected the context" + (fresh == null ? ", or null" : ""));
            return null;
        }
        if (fresh == null) {
            if (!node.isNull()) {
                problems.add(at + ": expected null (machine '" + machineId + "' has no context), found " + Json.kind(node));
            }
            return null;
        }
        if (node.isNull()) {
            problems.add(at + ": null, but machine '" + machineId + "' has a context of type " + fresh.getClass().getName()
                    + "; expected its fields");
            return null;
        }
        if (fresh instanceof SavedContext saved) {
            try {
                saved.restore(plain(node));
                return fresh;
            } catch (RuntimeException e) { // IllegalArgumentException by contract; other failures of its code are refusals too
                String why = e instanceof IllegalArgumentException ? Json.oneLine(e) : e.toString(); // another: its code failed, say what
                problems.add(at + ": machine '" + machineId + "' cannot restore its context: " + why);
                return null;
            }
        }
        int missing = problems.size();
        missingFields(json.valueToTree(fresh), node, at, problems);
        if (problems.size() > missing) {
            return null;
        }
        try {
            return json.treeToValue(node, fresh.getClass());
        } catch (JsonProcessingException | IllegalArgumentException e) {
            problems.add(at + fieldPath(e) + ": does not fit context type " + fresh.getClass().getName() + ": "
                    + (e instanceof JsonProcessingException ? ((JsonProcessingException) e).getOriginalMessage() : Json.oneLine(e)));
            return null;
        }
    }

    /** Every field the context type writes must be there: a missing one would quietly take its default. */
    private static void missingFields(JsonNode written, JsonNode given, String at, List<String> problems) {
        if (!written.isObject() || !given.isObject()) {
            return;
        }
        for (Map.Entry<String, JsonNode> f : written.properties()) {
            JsonNode value = given.get(f.getKey());
            if (value == null) {
                problems.add(at + "." + f.getKey() + ": missing; expected every field of the context, as a checkpoint writes it");
            } else {
                missingFields(f.getValue(), value, at + "." + f.getKey(), problems);
            }
        }
    }

    /** The field path inside the context that Jackson stopped at, such as {@code .bells}. */
    private static String fieldPath(Exception e) {
        if (!(e instanceof com.fasterxml.jackson.databind.JsonMappingException)) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        for (com.fasterxml.jackson.databind.JsonMappingException.Reference ref
                : ((com.fasterxml.jackson.databind.JsonMappingException) e).getPath()) {
            if (ref.getFieldName() != null) {
                sb.append('.').append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                sb.append('[').append(ref.getIndex()).append(']');
            }
        }
        return sb.toString();
    }

    private static int state(Chart c, JsonNode node, String at, List<String> problems) {
        if (node == null || !node.isTextual()) {
            problems.add(at + ": expected a state path, found " + Json.kind(node));
            return -1;
        }
        int s = c.stateAt(node.asText());
        if (s <= 0) {
            problems.add(at + ": machine '" + c.machineId + "' has no state '" + node.asText() + "'");
            return -1;
        }
        return s;
    }

    /** A finite number, or NaN with a problem; {@code at} (a String or a {@link JsonPath}) is spelt out only for the problem. */
    private static double number(JsonNode node, Object at, List<String> problems) {
        if (node == null || !node.isNumber()) {
            problems.add(at + ": expected a number, found " + Json.kind(node));
            return Double.NaN;
        }
        double v = node.asDouble();
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            problems.add(at + ": expected a finite number, found " + v);
            return Double.NaN;
        }
        return v;
    }

    private static double seconds(JsonNode node, String at, List<String> problems) {
        double v = number(node, at, problems);
        String problem = Double.isNaN(v) ? null : RecordField.secondsProblem(v);
        if (problem != null) {
            problems.add(at + ": " + problem);
            return Double.NaN;
        }
        return v;
    }
}

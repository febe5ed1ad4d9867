package dev.enginestates.io;

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
            n.fields().forEachRemaining(e -> out.put(e.getKey(), plain(e.getValue())));
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
        if (c.polled == null && c.builder == null) {
            // the XState style's entry times: the clock time each active state was entered at, which timeIn counts from
            ObjectNode entered = o.putObject("entered");
            for (int i = 0; i < r.activeCount(); i++) {
                int s = r.activeAt(i);
                entered.put(c.path[s], r.enteredAt(s));
            }
        }
        if (c.polled != null) {
            // the polled style's clocks: every active state's seconds (the root's is the total) and $back's leaf
            // each clock as its floating sum and, where rounding dropped something, the carry kept (keyed "" for the total)
            o.put("time", r.clockSum(0));
            ObjectNode clocks = o.putObject("clocks");
            ObjectNode carries = o.putObject("carries");
            for (int i = 0; i < r.activeCount(); i++) {
                int s = r.activeAt(i);
                if (s > 0) {
                    clocks.put(c.path[s], r.clockSum(s));
                }
                if (r.clockCarry(s) != 0) {
                    carries.put(c.path[s], r.clockCarry(s));
                }
            }
            o.put("previous", r.previousLeaf() < 0 ? "" : c.path[r.previousLeaf()]);
            // the active states whose after has fired in this stay: it must not fire again after a restore
            ArrayNode fired = o.putArray("afterFired");
            for (int i = 0; i < r.activeCount(); i++) {
                if (r.afterFired(r.activeAt(i))) {
                    fired.add(c.path[r.activeAt(i)]);
                }
            }
        }
        if (c.builder != null) {
            // the builder style's float clock, written as the double it widens to so it reads back exactly
            o.put("timeInState", (double) r.timeInState());
            o.put("previousProgress", (double) r.previousProgress());
            o.put("previous", r.previousLeaf() < 0 ? "" : c.path[r.previousLeaf()]);
        }
        return o;
    }

    /** The names of the fields {@link #encode} writes for a record of this chart, in that order. */
    static List<String> fieldNames(Chart c) {
        List<String> out = new java.util.ArrayList<>(List.of("status", "active", "history", "paused", "wait", "heldSince"));
        if (c.polled == null && c.builder == null) {
            out.add("entered");
        }
        if (c.polled != null) {
            out.addAll(List.of("time", "clocks", "carries", "previous", "afterFired"));
        }
        if (c.builder != null) {
            out.addAll(List.of("timeInState", "previousProgress", "previous"));
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
            if (!known.contains(f) && !f.equals("sends")) {
                problems.add(at + "." + f + ": not a field of a '" + c.machineId + "' record; expected " + known + " and, when some are"
                        + " pending, sends");
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
            for (Iterator<Map.Entry<String, JsonNode>> it = history.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
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
            for (Iterator<Map.Entry<String, JsonNode>> it = paused.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
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
        if (c.polled != null) {
            decodeClocks(node, r, at, problems);
        }
        if (c.builder != null) {
            decodeBuilderClock(node, r, at, problems);
        }
        JsonNode sends = node.get("sends");
        if (sends != null) {
            decodeSends(sends, r, at + ".sends", problems);
        }
        if (problems.size() == before) {
            String shape = Configurations.problem(r);
            if (shape != null) {
                problems.add(at + ": " + shape);
            }
        }
        // read once the configuration stands: entry times belong to its active states
        JsonNode entered = node.get("entered");
        if (problems.size() == before && entered != null && c.polled == null && c.builder == null) {
            decodeEntered(entered, r, at + ".entered", problems); // absent in checkpoints before it was written: times from 0
        } else if (problems.size() == before && entered != null) {
            problems.add(at + ".entered: machine '" + c.machineId + "' is " + (c.polled != null ? "polled" : "builder-style")
                    + "; entry times are an XState-style record's (its clocks are its own fields)");
        }
        return problems.size() == before ? r : null;
    }

    /** An XState-style record's entry times: one clock time per active state (the root's keyed ""), and no other. */
    private static void decodeEntered(JsonNode entered, MachineRecord r, String at, List<String> problems) {
        Chart c = r.chart();
        if (!entered.isObject()) {
            problems.add(at + ": expected an object from each active state's path to the clock time it was entered at, found "
                    + Json.kind(entered));
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = entered.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            int s = e.getKey().isEmpty() ? 0 : c.stateAt(e.getKey());
            if (s < 0 || !r.isActive(s)) {
                problems.add(at + "." + e.getKey() + ": '" + e.getKey() + "' is not an active state of machine '" + c.machineId
                        + "'; expected an entry time for each active state only");
                continue;
            }
            double t = number(e.getValue(), at + "." + e.getKey(), problems);
            if (!Double.isNaN(t)) {
                r.markEntered(s, t);
            }
        }
        for (int i = 0; i < r.activeCount(); i++) {
            int s = r.activeAt(i);
            if (!entered.has(c.path[s])) {
                problems.add(at + ": no entry time for active state '" + c.describe(s) + "'; expected one per active state");
            }
        }
    }

    /** A polled record's clocks: the root's total, one per active state and no other, and the previous leaf. */
    private static void decodeClocks(JsonNode node, MachineRecord r, String at, List<String> problems) {
        Chart c = r.chart();
        double total = seconds(node.get("time"), at + ".time", problems);
        if (!Double.isNaN(total)) {
            r.setClock(0, total);
        }
        JsonNode clocks = node.get("clocks");
        if (clocks == null || !clocks.isObject()) {
            problems.add(at + ".clocks: expected an object from each active state's path to its seconds, found " + Json.kind(clocks));
        } else {
            for (Iterator<Map.Entry<String, JsonNode>> it = clocks.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                int s = c.stateAt(e.getKey());
                if (s <= 0 || !r.isActive(s)) {
                    problems.add(at + ".clocks." + e.getKey() + ": '" + e.getKey() + "' is not an active state of machine '" + c.machineId
                            + "'; expected a clock for each active state only");
                    continue;
                }
                double v = seconds(e.getValue(), at + ".clocks." + e.getKey(), problems);
                if (!Double.isNaN(v)) {
                    r.setClock(s, v);
                }
            }
            for (int i = 0; i < r.activeCount(); i++) {
                int s = r.activeAt(i);
                if (s > 0 && !clocks.has(c.path[s])) {
                    problems.add(at + ".clocks: no clock for active state '" + c.path[s] + "'; expected one per active state");
                }
            }
        }
        JsonNode carries = node.get("carries");
        if (carries == null || !carries.isObject()) {
            problems.add(at + ".carries: expected an object from active state path (\"\" for the total) to the rounding its clock kept,"
                    + " found " + Json.kind(carries));
        } else {
            for (Iterator<Map.Entry<String, JsonNode>> it = carries.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                int s = e.getKey().isEmpty() ? 0 : c.stateAt(e.getKey());
                double v = number(e.getValue(), at + ".carries." + e.getKey(), problems);
                if (s < 0 || !r.isActive(s)) {
                    problems.add(at + ".carries." + e.getKey() + ": '" + e.getKey() + "' is not an active state of machine '" + c.machineId + "'");
                } else if (!Double.isNaN(v) && Math.abs(v) > 1e-6) {
                    problems.add(at + ".carries." + e.getKey() + ": " + v + " is not a rounding carry; expected a tiny number");
                } else if (!Double.isNaN(v)) {
                    r.setClock(s, r.clockSum(s), v);
                }
            }
        }
        JsonNode previous = node.get("previous");
        if (previous == null || !previous.isTextual()) {
            problems.add(at + ".previous: expected the leaf active before the last transition, or \"\", found " + Json.kind(previous));
        } else if (!previous.asText().isEmpty()) {
            int p = c.stateAt(previous.asText());
            if (p <= 0 || !c.isLeaf(p)) {
                problems.add(at + ".previous: '" + previous.asText() + "' is not a leaf state of machine '" + c.machineId + "'");
            } else {
                r.previousLeaf(p);
            }
        }
        JsonNode fired = node.get("afterFired");
        if (fired != null) { // absent in checkpoints written before it was: no after has fired yet
            decodeAfterFired(fired, r, at + ".afterFired", problems);
        }
    }

    /** The active states whose after has fired in this stay: each active, with an after whose seconds its clock has reached. */
    private static void decodeAfterFired(JsonNode fired, MachineRecord r, String at, List<String> problems) {
        Chart c = r.chart();
        if (!fired.isArray()) {
            problems.add(at + ": expected the paths of the active states whose after has fired, an array; found " + Json.kind(fired));
            return;
        }
        for (int i = 0; i < fired.size(); i++) {
            String where = at + "[" + i + "]";
            int s = state(c, fired.get(i), where, problems);
            if (s < 0) {
                continue;
            }
            double after = c.polled.afterSeconds[s];
            if (!r.isActive(s) || Double.isNaN(after)) {
                problems.add(where + ": '" + c.path[s] + "' is not an active state with an after in machine '" + c.machineId + "'");
            } else if (r.afterFired(s)) {
                problems.add(where + ": '" + c.path[s] + "' is listed twice; expected each state once");
            } else if (r.clock(s) < after - dev.enginestates.algorithm.TimeRules.TIME_TOLERANCE) {
                problems.add(where + ": the after of '" + c.path[s] + "' is " + after + " s but its clock is " + r.clock(s)
                        + " s; an after fires only once its seconds have passed");
            } else {
                r.markAfterFired(s);
            }
        }
    }

    /** A builder-style record's time in state and previous progress (floats) and the previous state. */
    private static void decodeBuilderClock(JsonNode node, MachineRecord r, String at, List<String> problems) {
        Chart c = r.chart();
        double time = seconds(node.get("timeInState"), at + ".timeInState", problems);
        if (!Double.isNaN(time)) {
            if ((double) (float) time != time) {
                problems.add(at + ".timeInState: " + time + " is not a float; expected the machine's float32 clock as written");
            } else {
                r.setTimeInState((float) time);
            }
        }
        double progress = seconds(node.get("previousProgress"), at + ".previousProgress", problems);
        if (!Double.isNaN(progress)) {
            if ((double) (float) progress != progress) {
                problems.add(at + ".previousProgress: " + progress + " is not a float; expected the progress as written");
            } else {
                r.setPreviousProgress((float) progress);
            }
        }
        JsonNode previous = node.get("previous");
        if (previous == null || !previous.isTextual()) {
            problems.add(at + ".previous: expected the state active before the last transition, or \"\", found " + Json.kind(previous));
        } else if (!previous.asText().isEmpty()) {
            int p = c.stateAt(previous.asText());
            if (p <= 0) {
                problems.add(at + ".previous: '" + previous.asText() + "' is not a state of machine '" + c.machineId + "'");
            } else {
                r.previousLeaf(p);
            }
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
        Object fresh;
        try {
            fresh = machine.machine().newContext();
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
                problems.add(at + ": expected null (machine '" + machine.id() + "' has no context), found " + Json.kind(node));
            }
            return null;
        }
        if (node.isNull()) {
            problems.add(at + ": null, but machine '" + machine.id() + "' has a context of type " + fresh.getClass().getName()
                    + "; expected its fields");
            return null;
        }
        if (fresh instanceof SavedContext saved) {
            try {
                saved.restore(plain(node));
                return fresh;
            } catch (RuntimeException e) { // IllegalArgumentException by contract; other failures of its code are refusals too
                String why = e instanceof IllegalArgumentException ? Json.oneLine(e) : e.toString(); // another: its code failed, say what
                problems.add(at + ": machine '" + machine.id() + "' cannot restore its context: " + why);
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
        for (Iterator<Map.Entry<String, JsonNode>> it = written.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
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
        if (v < 0) {
            problems.add(at + ": expected seconds, 0 or more, found " + v);
            return Double.NaN;
        }
        if (v > MAX_SECONDS) {
            problems.add(at + ": " + v + " seconds; expected at most " + MAX_SECONDS + " (31,700 years)");
            return Double.NaN;
        }
        return v;
    }
}

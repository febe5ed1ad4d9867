package dev.enginestates.devtools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The page's reads of the past, on the server's threads, from what the world's thread recorded
 * ({@link Timeline}) and kept ({@link History}); never the world itself. Each answer is a status
 * and JSON text (or a checkpoint to download); a bad request's answer says what was expected.
 *
 * <p>Routes: {@code GET /api/timeline?entity=&machine=&after=&limit=}, {@code GET /api/history},
 * {@code GET /api/history/snapshot?tick=N}, {@code GET /api/diff?entity=&machine=&from=A&to=B},
 * {@code GET /api/checkpoint?tick=N}.
 */
final class TimeTravel {
    /** A status, a content type, the body and the extra headers to send. */
    record Answer(int status, String type, byte[] body, String... headers) {
    }

    /** A query's problem, answered 400. */
    static final class BadQuery extends Exception {
        BadQuery(String message) {
            super(message, null, false, false);
        }
    }

    static final String JSON_TYPE = "application/json; charset=utf-8";

    private final Devtools devtools;
    private final ObjectMapper json;

    TimeTravel(Devtools devtools, ObjectMapper json) {
        this.devtools = devtools;
        this.json = json;
    }

    /** The answer for one of the routes, or {@code null} if the path is none of them. */
    Answer answer(String path, String query) throws JsonProcessingException {
        try {
            Map<String, String> q = params(query);
            return switch (path) {
                case "/api/timeline" -> timeline(q);
                case "/api/history" -> history();
                case "/api/history/snapshot" -> snapshot(q);
                case "/api/diff" -> diff(q);
                case "/api/checkpoint" -> checkpoint(q);
                default -> null;
            };
        } catch (BadQuery e) {
            return error(400, e.getMessage());
        }
    }

    private Answer timeline(Map<String, String> q) throws BadQuery, JsonProcessingException {
        long after = number(q, "after", -1, "the number ('n') of the last entry the page has, or -1 for the newest");
        long limit = number(q, "limit", 500, "how many entries at most, 1 to " + Timeline.MAX_ANSWER);
        if (limit < 1 || limit > Timeline.MAX_ANSWER) {
            throw new BadQuery("limit=" + limit + ": expected 1 to " + Timeline.MAX_ANSWER + " entries");
        }
        ObjectNode o = devtools.timeline().read(after, blankToNull(q.get("entity")), blankToNull(q.get("machine")), (int) limit);
        return ok(o);
    }

    private Answer history() throws JsonProcessingException {
        ObjectNode o = json.createObjectNode();
        History h = devtools.history();
        ArrayNode ticks = o.putArray("ticks");
        for (History.Kept k : h.all()) {
            ObjectNode t = ticks.addObject();
            t.put("tick", k.tick());
            t.put("time", Math.round(k.time() * 1000) / 1000.0);
            t.put("checkpoint", k.checkpoint() != null);
            if (k.checkpoint() == null) {
                t.put("noCheckpoint", k.noCheckpoint());
            }
        }
        o.put("limit", devtools.options().historyTicks());
        o.put("bytes", h.heldBytes());
        o.put("budget", devtools.options().historyBytes());
        return ok(o);
    }

    private Answer snapshot(Map<String, String> q) throws BadQuery, JsonProcessingException {
        History.Kept k = kept(q, "tick");
        if (k == null) {
            return unknownTick(q.get("tick"));
        }
        return new Answer(200, JSON_TYPE, k.snapshot().getBytes(StandardCharsets.UTF_8));
    }

    private Answer diff(Map<String, String> q) throws BadQuery, JsonProcessingException {
        String entity = q.get("entity");
        String machine = q.get("machine");
        if (blankToNull(entity) == null || blankToNull(machine) == null) {
            throw new BadQuery("a diff names the record: entity=<a name the page lists>&machine=<a machine id>&from=<tick>&to=<tick>");
        }
        History.Kept from = kept(q, "from");
        if (from == null) {
            return unknownTick(q.get("from"));
        }
        History.Kept to = kept(q, "to");
        if (to == null) {
            return unknownTick(q.get("to"));
        }
        JsonNode before = RecordDiff.record(json.readTree(from.snapshot()), entity, machine);
        JsonNode after = RecordDiff.record(json.readTree(to.snapshot()), entity, machine);
        if (before == null && after == null) {
            return error(404, "entity '" + entity + "' held no '" + machine + "' machine at tick " + from.tick() + " nor at tick "
                    + to.tick() + "; expected an entity and machine the page listed at one of them");
        }
        ObjectNode o = json.createObjectNode();
        o.put("entity", entity);
        o.put("machine", machine);
        o.put("from", from.tick());
        o.put("to", to.tick());
        o.put("before", before != null);
        o.put("after", after != null);
        o.set("changes", RecordDiff.changes(before, after));
        return ok(o);
    }

    private Answer checkpoint(Map<String, String> q) throws BadQuery, JsonProcessingException {
        History.Kept k = kept(q, "tick");
        if (k == null) {
            return unknownTick(q.get("tick"));
        }
        if (k.checkpoint() == null) {
            return error(409, "tick " + k.tick() + " was kept without a checkpoint: " + k.noCheckpoint());
        }
        String file = "checkpoint-tick-" + k.tick() + ".json";
        return new Answer(200, JSON_TYPE, k.checkpoint().getBytes(StandardCharsets.UTF_8),
                "Content-Disposition", "attachment; filename=\"" + file + "\"");
    }

    private History.Kept kept(Map<String, String> q, String name) throws BadQuery {
        String t = q.get(name);
        if (t == null) {
            throw new BadQuery("expected " + name + "=<a tick the page keeps>; " + devtools.history().describe());
        }
        long tick;
        try {
            tick = Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new BadQuery(name + "=" + t + ": expected a tick (the world's step count) the page keeps; " + devtools.history().describe());
        }
        return devtools.history().at(tick);
    }

    private Answer unknownTick(String tick) throws JsonProcessingException {
        return error(404, "tick " + tick + " is not kept; " + devtools.history().describe()
                + " (the page keeps the last " + devtools.options().historyTicks() + " ticks it showed)");
    }

    private static long number(Map<String, String> q, String name, long otherwise, String expected) throws BadQuery {
        String v = q.get(name);
        if (v == null) {
            return otherwise;
        }
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new BadQuery(name + "=" + v + ": expected " + expected);
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    /** The query's parameters, percent-decoded; a name given twice is ambiguous and refused. */
    static Map<String, String> params(String query) throws BadQuery {
        Map<String, String> out = new HashMap<>();
        if (query == null || query.isEmpty()) {
            return out;
        }
        for (String part : query.split("&")) {
            if (part.isEmpty()) {
                continue;
            }
            int eq = part.indexOf('=');
            try {
                String name = URLDecoder.decode(eq < 0 ? part : part.substring(0, eq), StandardCharsets.UTF_8);
                String value = eq < 0 ? "" : URLDecoder.decode(part.substring(eq + 1), StandardCharsets.UTF_8);
                if (out.put(name, value) != null) {
                    throw new BadQuery("'" + name + "' is given twice in the query; give it once");
                }
            } catch (IllegalArgumentException e) {
                throw new BadQuery("the query '" + query + "' is not percent-encoded text: " + e.getMessage());
            }
        }
        return out;
    }

    private Answer ok(ObjectNode o) throws JsonProcessingException {
        return new Answer(200, JSON_TYPE, json.writeValueAsBytes(o));
    }

    private Answer error(int status, String message) throws JsonProcessingException {
        ObjectNode o = json.createObjectNode();
        o.put("ok", false);
        o.put("error", message);
        return new Answer(status, JSON_TYPE, json.writeValueAsBytes(o));
    }
}

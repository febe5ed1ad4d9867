package dev.enginestates.devtools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What changed in one record between two kept snapshots: every field of the inspector's record
 * (its configuration, waits, history, context, fact), compared leaf by leaf, such as
 * {@code context.bells: 0 → 1}. On a server thread, over the snapshots' JSON; the world is not read.
 */
final class RecordDiff {
    private RecordDiff() {
    }

    /** The record of {@code machine} on {@code entity} in a snapshot, or {@code null} if that entity held none then. */
    static JsonNode record(JsonNode snapshot, String entity, String machine) {
        for (JsonNode e : snapshot.path("entities")) {
            if (entity.equals(e.path("name").asText())) {
                for (JsonNode r : e.path("machines")) {
                    if (machine.equals(r.path("machine").asText())) {
                        return r;
                    }
                }
            }
        }
        return null;
    }

    /**
     * The changes from {@code before} to {@code after} (either {@code null} when the record was
     * not there), each with {@code field} (a dotted path into the record), {@code before} and
     * {@code after} (JSON values; {@code null} where the field was absent).
     */
    static ArrayNode changes(JsonNode before, JsonNode after) {
        Map<String, JsonNode> a = new LinkedHashMap<>();
        Map<String, JsonNode> b = new LinkedHashMap<>();
        flatten("", before, a);
        flatten("", after, b);
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        for (Map.Entry<String, JsonNode> e : a.entrySet()) {
            JsonNode now = b.get(e.getKey());
            if (!e.getValue().equals(now)) {
                add(out, e.getKey(), e.getValue(), now);
            }
        }
        for (Map.Entry<String, JsonNode> e : b.entrySet()) {
            if (!a.containsKey(e.getKey())) {
                add(out, e.getKey(), null, e.getValue());
            }
        }
        return out;
    }

    private static void add(ArrayNode out, String field, JsonNode before, JsonNode after) {
        ObjectNode o = out.addObject();
        o.put("field", field);
        o.set("before", before == null ? NullNode.getInstance() : before);
        o.set("after", after == null ? NullNode.getInstance() : after);
    }

    /** Objects are opened down to their leaves; arrays (active states, leaves) compare whole. */
    private static void flatten(String path, JsonNode n, Map<String, JsonNode> out) {
        if (n == null) {
            return;
        }
        if (n.isObject() && n.size() > 0) {
            for (Map.Entry<String, JsonNode> f : n.properties()) {
                flatten(path.isEmpty() ? f.getKey() : path + "." + f.getKey(), f.getValue(), out);
            }
        } else if (!path.isEmpty()) {
            out.put(path, n);
        }
    }
}

package dev.enginestates.io;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/** The JSON settings shared by dumps, checkpoints and logs: stable output, strict input. */
final class Json {
    private Json() {
    }

    /** A mapper whose output does not depend on declaration or insertion order. */
    static ObjectMapper mapper() {
        return JsonMapper.builder()
                .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
                .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                // strict input: a key given twice, "12" or null for an int, 1 for a boolean are refused
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_CREATOR_PROPERTIES)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
                .build();
    }

    /** A copy of the tree with every object's fields sorted by name; arrays keep their order. */
    static JsonNode sorted(JsonNode node) {
        if (node.isObject()) {
            List<String> names = new ArrayList<>();
            node.fieldNames().forEachRemaining(names::add);
            names.sort(null);
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            for (String n : names) {
                out.set(n, sorted(node.get(n)));
            }
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            for (JsonNode e : node) {
                out.add(sorted(e));
            }
            return out;
        }
        return node;
    }

    static String kind(JsonNode n) {
        if (n == null || n.isMissingNode()) {
            return "nothing";
        }
        switch (n.getNodeType()) {
            case ARRAY: return "an array";
            case OBJECT: return "an object";
            case STRING: return "the string \"" + n.asText() + "\"";
            case NUMBER: return "the number " + n.asText();
            case BOOLEAN: return n.asText();
            case NULL: return "null";
            default: return n.getNodeType().name().toLowerCase();
        }
    }

    static String oneLine(Exception e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        int cut = m.indexOf('\n');
        return cut < 0 ? m : m.substring(0, cut);
    }
}

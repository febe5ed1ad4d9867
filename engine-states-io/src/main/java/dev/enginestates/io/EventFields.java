package dev.enginestates.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An event's fields in an input log, with their exact Java types, so that a guard reading them on
 * replay decides as it did: JSON's own types carry {@code String}, {@code Boolean}, {@code Integer}
 * and finite {@code Double} values; every other type is written as a one-field object naming it
 * ({@code {"$long": "12"}}, {@code {"$float": "1.5"}}, {@code {"$enum": "com.game.Team", "name":
 * "RED"}}). The fields, and a map's entries, are written as {@code [name, value]} pairs, so they
 * keep their order (a log's objects are written with sorted keys). Lists and maps read back as
 * {@code ArrayList} and {@code LinkedHashMap}. A value of any other type cannot be replayed exactly: it is written as
 * {@code {"$unsupported": "its class"}}, and a replay refuses the log.
 */
final class EventFields {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** The most digits a {@code $bigint} or {@code $decimal} may have, as Jackson allows a number (its StreamReadConstraints). */
    static final int MAX_DIGITS = 1000;

    private EventFields() {
    }

    static ArrayNode encode(Map<String, ?> fields) {
        ArrayNode out = NODES.arrayNode();
        fields.forEach((name, value) -> out.addArray().add(name).add(encodeValue(value)));
        return out;
    }

    private static JsonNode encodeValue(Object v) {
        if (v == null) {
            return NODES.nullNode();
        }
        if (v instanceof String) {
            return NODES.textNode((String) v);
        }
        if (v instanceof Boolean) {
            return NODES.booleanNode((Boolean) v);
        }
        if (v instanceof Integer) {
            return NODES.numberNode((Integer) v);
        }
        if (v instanceof Double) {
            double d = (Double) v;
            return Double.isFinite(d) ? NODES.numberNode(d) : typed("$double", Double.toString(d));
        }
        if (v instanceof Long) {
            return typed("$long", v.toString());
        }
        if (v instanceof Float) {
            return typed("$float", v.toString());
        }
        if (v instanceof Short) {
            return typed("$short", v.toString());
        }
        if (v instanceof Byte) {
            return typed("$byte", v.toString());
        }
        if (v instanceof Character) {
            return typed("$char", v.toString());
        }
        if (v instanceof BigInteger) {
            return typed("$bigint", v.toString());
        }
        if (v instanceof BigDecimal) {
            return typed("$decimal", v.toString());
        }
        if (v instanceof Enum) {
            ObjectNode o = typed("$enum", ((Enum<?>) v).getDeclaringClass().getName());
            o.put("name", ((Enum<?>) v).name());
            return o;
        }
        if (v instanceof List) {
            ArrayNode a = NODES.arrayNode();
            for (Object e : (List<?>) v) {
                a.add(encodeValue(e));
            }
            return a;
        }
        if (v instanceof Map && ((Map<?, ?>) v).keySet().stream().allMatch(k -> k instanceof String)) {
            @SuppressWarnings("unchecked")
            Map<String, ?> map = (Map<String, ?>) v;
            ObjectNode o = NODES.objectNode();
            o.set("$map", encode(map));
            return o;
        }
        return typed("$unsupported", v.getClass().getName());
    }

    private static ObjectNode typed(String type, String text) {
        ObjectNode o = NODES.objectNode();
        o.put(type, text);
        return o;
    }

    /** The fields, or {@code null} with the problems added (each with its JSON path). */
    static Map<String, Object> decode(JsonNode node, String at, List<String> problems) {
        return decode(node, JsonPath.of(at), problems);
    }

    /** The fields at {@code at}, or {@code null} with the problems added. */
    static Map<String, Object> decode(JsonNode node, JsonPath at, List<String> problems) {
        int before = problems.size();
        Map<String, Object> out = pairs(node, at, problems);
        return problems.size() == before ? out : null;
    }

    private static Map<String, Object> pairs(JsonNode node, JsonPath at, List<String> problems) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (!node.isArray()) {
            problems.add(at + ": expected [name, value] pairs, found " + Json.kind(node));
            return out;
        }
        for (int i = 0; i < node.size(); i++) {
            JsonNode pair = node.get(i);
            if (!pair.isArray() || pair.size() != 2 || !pair.get(0).isTextual() || out.containsKey(pair.get(0).asText())) {
                problems.add(at.index(i) + ": expected a [name, value] pair with a name not given before, found " + pair);
                continue;
            }
            String name = pair.get(0).asText();
            out.put(name, decodeValue(pair.get(1), at.field(name), problems));
        }
        return out;
    }

    private static Object decodeValue(JsonNode n, JsonPath at, List<String> problems) {
        if (n.isNull()) {
            return null;
        }
        if (n.isTextual()) {
            return n.asText();
        }
        if (n.isBoolean()) {
            return n.asBoolean();
        }
        if (n.isInt()) {
            return n.asInt();
        }
        if (n.isDouble() || n.isFloat() || n.isBigDecimal()) {
            return n.asDouble();
        }
        if (n.isArray()) {
            List<Object> list = new ArrayList<>();
            for (int i = 0; i < n.size(); i++) {
                list.add(decodeValue(n.get(i), at.index(i), problems));
            }
            return list;
        }
        if (n.isObject() && n.size() >= 1) {
            String type = n.fieldNames().next();
            JsonNode value = n.get(type);
            int size = type.equals("$enum") ? 2 : 1; // an enum also names its constant
            if (n.size() != size || size == 2 && !n.has("name")) {
                problems.add(at + ": a typed value has " + (type.equals("$enum") ? "{\"$enum\": class, \"name\": constant}" : "one key, its type")
                        + "; found the keys " + names(n));
                return null;
            }
            long digits = value.asText().chars().filter(ch -> ch >= '0' && ch <= '9').count();
            if ((type.equals("$bigint") || type.equals("$decimal")) && digits > MAX_DIGITS) {
                // Java reads a long number in time quadratic in its length: refused first, as Jackson refuses its own
                problems.add(at + ": " + type + " value of " + digits + " digits; expected at most " + MAX_DIGITS
                        + ", Jackson's own limit for a number");
                return null;
            }
            try {
                switch (type) {
                    case "$map": return pairs(value, at, problems);
                    case "$double": return Double.valueOf(value.asText());
                    case "$long": return Long.valueOf(value.asText());
                    case "$float": return Float.valueOf(value.asText());
                    case "$short": return Short.valueOf(value.asText());
                    case "$byte": return Byte.valueOf(value.asText());
                    case "$bigint": return new BigInteger(value.asText());
                    case "$decimal": return new BigDecimal(value.asText());
                    case "$char":
                        if (value.asText().length() == 1) {
                            return value.asText().charAt(0);
                        }
                        break;
                    case "$enum": return enumValue(value.asText(), n.path("name").asText(), at, problems);
                    case "$unsupported":
                        problems.add(at + ": the value was of type " + value.asText() + ", which a log cannot carry exactly; "
                                + "expected strings, numbers, booleans, enums, lists and maps of them");
                        return null;
                    default:
                        break;
                }
            } catch (NumberFormatException e) {
                problems.add(at + ": " + type + " value " + value + " is not a number of that type");
                return null;
            }
        }
        problems.add(at + ": expected a field value (JSON, or a typed {\"$long\": ...} object), found " + Json.kind(n));
        return null;
    }

    private static List<String> names(JsonNode n) {
        List<String> out = new ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }

    private static Object enumValue(String className, String name, JsonPath at, List<String> problems) {
        try {
            Class<?> type = Class.forName(className, false, Thread.currentThread().getContextClassLoader());
            if (!type.isEnum()) {
                problems.add(at + ": " + className + " is not an enum");
                return null;
            }
            for (Object constant : type.getEnumConstants()) {
                if (((Enum<?>) constant).name().equals(name)) {
                    return constant;
                }
            }
            problems.add(at + ": enum " + className + " has no constant " + name);
        } catch (ClassNotFoundException | LinkageError e) {
            problems.add(at + ": no enum " + className + " here");
        }
        return null;
    }
}

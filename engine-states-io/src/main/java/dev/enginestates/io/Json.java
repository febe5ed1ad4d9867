package dev.enginestates.io;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;import java.util.ArrayList;
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
                .addModule(strictNumbers())
                .build();
    }

    /**
     * Numbers read as strictly as the rest: Jackson itself takes a number out of its type's range
     * (1e300 for a float becomes Infinity, 200 for a byte -56) and "INF" for a double, whatever its
     * coercion settings. A double or float reads what Jackson writes for it: a finite number, or
     * the strings "NaN", "Infinity" and "-Infinity" (JSON has no such numbers).
     */
    private static SimpleModule strictNumbers() {
        SimpleModule m = new SimpleModule("engine-states strict numbers");
        add(m, double.class, new StrictNumber(double.class));
        add(m, Double.class, new StrictNumber(Double.class));
        add(m, float.class, new StrictNumber(float.class));
        add(m, Float.class, new StrictNumber(Float.class));
        add(m, byte.class, new StrictNumber(byte.class));
        add(m, Byte.class, new StrictNumber(Byte.class));
        add(m, short.class, new StrictNumber(short.class));
        add(m, Short.class, new StrictNumber(Short.class));
        // Jackson reads primitive arrays' elements itself, past the deserializers above
        add(m, double[].class, new StrictArray(double[].class, new StrictNumber(double.class)));
        add(m, float[].class, new StrictArray(float[].class, new StrictNumber(float.class)));
        add(m, short[].class, new StrictArray(short[].class, new StrictNumber(short.class)));
        return m;
    }

    @SuppressWarnings("unchecked")
    private static <T> void add(SimpleModule m, Class<T> type, com.fasterxml.jackson.databind.JsonDeserializer<?> d) {
        m.addDeserializer(type, (com.fasterxml.jackson.databind.JsonDeserializer<T>) d); // each reads exactly its type
    }

    /** A double, float, byte or short (or its wrapper) from a JSON number that it holds: finite, and in range. */
    private static final class StrictNumber extends StdScalarDeserializer<Object> {
        private static final long serialVersionUID = 1L;
        private final Class<?> primitive;

        StrictNumber(Class<?> type) {
            super(type);
            this.primitive = type.isPrimitive() ? type : MethodType.methodType(type).unwrap().returnType();
        }

        @Override
        public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonToken t = p.currentToken();
            if (t == JsonToken.VALUE_STRING && (primitive == double.class || primitive == float.class)) {
                switch (p.getText()) {
                    case "NaN": return primitive == double.class ? (Object) Double.NaN : (Object) Float.NaN;
                    case "Infinity": return primitive == double.class ? (Object) Double.POSITIVE_INFINITY : (Object) Float.POSITIVE_INFINITY;
                    case "-Infinity": return primitive == double.class ? (Object) Double.NEGATIVE_INFINITY : (Object) Float.NEGATIVE_INFINITY;
                    default: break;
                }
            }
            boolean whole = t == JsonToken.VALUE_NUMBER_INT;
            boolean fraction = t == JsonToken.VALUE_NUMBER_FLOAT && (primitive == double.class || primitive == float.class);
            if (!whole && !fraction) {
                return ctxt.handleUnexpectedToken(handledType(), p); // a string ("12", "INF"), a boolean, an object: refused
            }
            if (primitive == double.class || primitive == float.class) {
                double v = p.getDoubleValue();
                if (primitive == double.class && Double.isFinite(v)) {
                    return v;
                }
                if (primitive == float.class && Float.isFinite((float) v)) {
                    return (float) v;
                }
                return ctxt.reportInputMismatch(this, "%s is out of the range of a %s", p.getText(), primitive);
            }
            long min = primitive == byte.class ? Byte.MIN_VALUE : Short.MIN_VALUE;
            long max = primitive == byte.class ? Byte.MAX_VALUE : Short.MAX_VALUE;
            if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER || p.getLongValue() < min || p.getLongValue() > max) {
                return ctxt.reportInputMismatch(this, "%s is out of the range of a %s (%d to %d)", p.getText(), primitive, min, max);
            }
            return primitive == byte.class ? (Object) (byte) p.getLongValue() : (Object) (short) p.getLongValue();
        }

        @Override
        public Object getNullValue(DeserializationContext ctxt) throws JsonMappingException {
            if (handledType().isPrimitive()) {
                return ctxt.reportInputMismatch(this, "null for a %s; expected a number", handledType());
            }
            return null;
        }
    }

    /** A double[], float[] or short[] whose every element is read by a {@link StrictNumber}. */
    private static final class StrictArray extends StdDeserializer<Object> {
        private static final long serialVersionUID = 1L;
        private final StrictNumber element;

        StrictArray(Class<?> type, StrictNumber element) {
            super(type);
            this.element = element;
        }

        @Override
        public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (!p.isExpectedStartArrayToken()) {
                return ctxt.handleUnexpectedToken(handledType(), p);
            }
            List<Object> values = new ArrayList<>();
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                try {
                    values.add(t == JsonToken.VALUE_NULL ? element.getNullValue(ctxt) : element.deserialize(p, ctxt));
                } catch (IOException e) {
                    throw JsonMappingException.wrapWithPath(e, values, values.size());
                }
            }
            Object out = Array.newInstance(handledType().getComponentType(), values.size());
            for (int i = 0; i < values.size(); i++) {
                Array.set(out, i, values.get(i));
            }
            return out;
        }
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

package dev.enginestates.xstate;

import java.util.List;
import java.util.Map;

/**
 * Writes a tree of maps, lists, strings, numbers and booleans as JSON, indented by two spaces
 * as {@code JSON.stringify(value, null, 2)} does, with short lists of strings on one line. The
 * export writes JSON without Jackson, so exporting loads no Jackson class.
 */
final class JsonText {
    private static final int INLINE = 100;

    private JsonText() {
    }

    static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(out, value, 0);
        return out.append('\n').toString();
    }

    private static void write(StringBuilder out, Object value, int indent) {
        if (value instanceof Map) {
            Map<?, ?> map = (Map<?, ?>) value;
            if (map.isEmpty()) {
                out.append("{}");
                return;
            }
            out.append("{\n");
            int i = 0;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                pad(out, indent + 1);
                string(out, (String) e.getKey());
                out.append(": ");
                write(out, e.getValue(), indent + 1);
                out.append(++i < map.size() ? ",\n" : "\n");
            }
            pad(out, indent);
            out.append('}');
        } else if (value instanceof List) {
            List<?> list = (List<?>) value;
            String inline = inline(list);
            if (inline != null) {
                out.append(inline);
                return;
            }
            out.append("[\n");
            for (int i = 0; i < list.size(); i++) {
                pad(out, indent + 1);
                write(out, list.get(i), indent + 1);
                out.append(i + 1 < list.size() ? ",\n" : "\n");
            }
            pad(out, indent);
            out.append(']');
        } else if (value instanceof String) {
            string(out, (String) value);
        } else if (value instanceof Double) {
            out.append(number((Double) value));
        } else if (value instanceof Number || value instanceof Boolean) {
            out.append(value);
        } else {
            throw new IllegalArgumentException("not a JSON value: " + value);
        }
    }

    /** A list of strings on one line when it is short, else {@code null}. */
    private static String inline(List<?> list) {
        StringBuilder sb = new StringBuilder("[");
        for (Object o : list) {
            if (!(o instanceof String)) {
                return null;
            }
            if (sb.length() > 1) {
                sb.append(", ");
            }
            string(sb, (String) o);
        }
        sb.append(']');
        return sb.length() <= INLINE ? sb.toString() : null;
    }

    /** Whole seconds as integers ({@code 12}), others as Java writes them, which reads back to the same double. */
    static String number(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 1e15 && !(d == 0 && 1 / d < 0)) {
            return Long.toString((long) d);
        }
        return Double.toString(d);
    }

    private static void pad(StringBuilder out, int indent) {
        for (int i = 0; i < indent; i++) {
            out.append("  ");
        }
    }

    static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                case '\b': out.append("\\b"); break;
                case '\f': out.append("\\f"); break;
                default:
                    // half of a surrogate pair alone has no UTF-8: its escape keeps the text writable and reads back
                    if (c < 0x20 || c == 0x2028 || c == 0x2029 || Character.isSurrogate(c) && !paired(s, i)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
            }
        }
        out.append('"');
    }

    /** Whether the surrogate at {@code i} is half of a pair. */
    private static boolean paired(String s, int i) {
        char c = s.charAt(i);
        return Character.isHighSurrogate(c) ? i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))
                : i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }
}

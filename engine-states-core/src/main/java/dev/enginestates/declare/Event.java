package dev.enginestates.declare;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An event sent to a machine: a type, and optional fields that guards and actions read, as
 * XState's event objects carry them ({@code {type: "WAVE_HELD", wave: 3}}).
 *
 * <p>Immutable and safe to share between threads and machines. A game that sends the same
 * event every step can keep one instance and send it again: sending never copies it.
 */
public final class Event {
    private final String type;
    private final Map<String, Object> fields;
    private final Enum<?> constant;

    private Event(String type, Map<String, Object> fields) {
        this(type, fields, null);
    }

    private Event(String type, Map<String, Object> fields, Enum<?> constant) {
        this.type = type;
        this.fields = fields;
        this.constant = constant;
    }

    /**
     * An event named by a constant of a typed machine's event enum, with no fields: its type is
     * the constant's name ({@code "BELL"}).
     *
     * @param type a constant of the machine's event enum; not {@code null}
     * @return a new event
     */
    public static Event of(Enum<?> type) {
        return new Event(Objects.requireNonNull(type, "type").name(), Map.of(), type);
    }

    /**
     * An event named by a constant of a typed machine's event enum, with fields (copied, in order).
     *
     * @param type a constant of the machine's event enum; not {@code null}
     * @param fields field names and their values, such as {@code Map.of("wave", 3)}; not {@code null}
     * @return a new event
     * @throws IllegalArgumentException if the map has a {@code null} key
     */
    public static Event of(Enum<?> type, Map<String, ?> fields) {
        Event e = of(Objects.requireNonNull(type, "type").name(), fields);
        return new Event(e.type, e.fields, type);
    }

    /**
     * The constant the event was named by ({@link #of(Enum)}), or {@code null} when named by a
     * string. A typed machine's guards and actions see its events with their constants.
     *
     * @return the constant, or {@code null}
     */
    public Enum<?> constant() {
        return constant;
    }

    /**
     * Whether this event is the one named by {@code constant} (its constant, or for an event named by a string, its type).
     *
     * @param constant a constant of an event enum; not {@code null}
     * @return whether this event is the one it names
     */
    public boolean is(Enum<?> constant) {
        return this.constant != null ? this.constant == constant : type.equals(constant.name());
    }

    /**
     * An event with a type and no fields.
     *
     * @param type the event's type, such as {@code "WAVE_HELD"}
     * @return a new event
     * @throws IllegalArgumentException if the type is {@code null} or empty
     */
    public static Event of(String type) {
        return new Event(checkType(type), Map.of());
    }

    /**
     * An event with fields. The map is copied; its iteration order is kept.
     *
     * @param type the event's type, such as {@code "WAVE_HELD"}
     * @param fields field names and their values, such as {@code Map.of("wave", 3)}; not {@code null}
     * @return a new event
     * @throws IllegalArgumentException if the type is {@code null} or empty, or the map has a {@code null} key
     */
    public static Event of(String type, Map<String, ?> fields) {
        Objects.requireNonNull(fields, "fields");
        LinkedHashMap<String, Object> copy = new LinkedHashMap<>();
        for (Map.Entry<String, ?> e : fields.entrySet()) {
            if (e.getKey() == null) {
                throw new IllegalArgumentException("event '" + type + "' has a field with a null name");
            }
            copy.put(e.getKey(), e.getValue());
        }
        return new Event(checkType(type), Collections.unmodifiableMap(copy));
    }

    /**
     * A copy of this event with one more field (or that field replaced).
     *
     * @param field the field's name; not {@code null}
     * @param value its value, {@code null} allowed
     * @return a new event with the same type, constant and other fields; this one is unchanged
     */
    public Event with(String field, Object value) {
        LinkedHashMap<String, Object> copy = new LinkedHashMap<>(fields);
        copy.put(Objects.requireNonNull(field, "field"), value);
        return new Event(type, Collections.unmodifiableMap(copy), constant);
    }

    private static String checkType(String type) {
        if (type == null || type.isEmpty()) {
            throw new IllegalArgumentException("an event needs a non-empty type, got " + (type == null ? "null" : "\"\""));
        }
        return type;
    }

    /**
     * The event's type, such as {@code "WAVE_HELD"}.
     *
     * @return the type, never {@code null} or empty
     */
    public String type() {
        return type;
    }

    /**
     * All fields, unmodifiable, in the order they were given.
     *
     * @return the fields by name; empty for an event without any
     */
    public Map<String, Object> fields() {
        return fields;
    }

    /**
     * A field's value, or {@code null} when the event has no such field.
     *
     * @param field the field's name
     * @return the value; {@code null} also for a field that holds {@code null} ({@link #has} tells the two
     *         apart)
     */
    public Object get(String field) {
        return fields.get(field);
    }

    /**
     * Whether the event has the field.
     *
     * @param field the field's name
     * @return whether the event has it, even holding {@code null}
     */
    public boolean has(String field) {
        return fields.containsKey(field);
    }

    /**
     * True exactly when the field holds {@link Boolean#TRUE} (as XState's {@code event.ok === true}).
     *
     * @param field the field's name
     * @return {@code true} for {@code Boolean.TRUE} only; {@code false} for a missing field, {@code false}, or
     *         any other value (the string {@code "true"} included)
     */
    public boolean isTrue(String field) {
        return Boolean.TRUE.equals(fields.get(field));
    }

    /**
     * A numeric field as a double.
     *
     * @param field the field's name
     * @return the field's value as a double: an {@code Integer} 3 gives 3.0
     * @throws IllegalArgumentException if the field is missing or not a number
     */
    public double number(String field) {
        Object v = fields.get(field);
        if (v instanceof Number) {
            return ((Number) v).doubleValue();
        }
        throw new IllegalArgumentException("event '" + type + "': field '" + field + "' is "
                + (v == null ? "missing" : "a " + v.getClass().getSimpleName()) + ", expected a number");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Event && ((Event) o).type.equals(type) && ((Event) o).fields.equals(fields);
    }

    @Override
    public int hashCode() {
        return type.hashCode() * 31 + fields.hashCode();
    }

    @Override
    public String toString() {
        return fields.isEmpty() ? type : type + fields;
    }
}

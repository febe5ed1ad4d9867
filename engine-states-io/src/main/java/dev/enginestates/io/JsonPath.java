package dev.enginestates.io;

/**
 * Where a value is in a JSON text ({@code $.inputs[3].send.event.fields.loot[2]}), spelt out only
 * when a problem names it. Built as a string at every element, a path copies its long parts
 * once per element under them: a field name of 100,000 characters over a list of 30,000 numbers
 * made three billion characters to read 160 kB. A name longer than {@link #SHOWN} characters is
 * shortened in the text, so a problem's line stays short whatever the names.
 */
final class JsonPath {
    /** The characters of a name a path shows; a longer one shows its start and its length. */
    static final int SHOWN = 64;

    private final JsonPath parent;
    /** The whole path for the root, else a field's name ({@code null} for an index). */
    private final String name;
    private final int index;

    private JsonPath(JsonPath parent, String name, int index) {
        this.parent = parent;
        this.name = name;
        this.index = index;
    }

    /** A path starting at {@code at}, already spelt out (such as {@code "$.inputs[3].send.event.fields"}). */
    static JsonPath of(String at) {
        return new JsonPath(null, at, -1);
    }

    /** The path of this object's field {@code name}. */
    JsonPath field(String name) {
        return new JsonPath(this, name, -1);
    }

    /** The path of this array's element {@code i}. */
    JsonPath index(int i) {
        return new JsonPath(this, null, i);
    }

    @Override
    public String toString() {
        int depth = 0;
        for (JsonPath p = this; p != null; p = p.parent) {
            depth++;
        }
        JsonPath[] steps = new JsonPath[depth]; // root first; no recursion, as a path may be a thousand levels deep
        for (JsonPath p = this; p != null; p = p.parent) {
            steps[--depth] = p;
        }
        StringBuilder sb = new StringBuilder(steps[0].name);
        for (int i = 1; i < steps.length; i++) {
            if (steps[i].name == null) {
                sb.append('[').append(steps[i].index).append(']');
            } else {
                sb.append('.').append(shown(steps[i].name));
            }
        }
        return sb.toString();
    }

    /** A name as a message shows it: whole up to {@link #SHOWN} characters, else its start and its length. */
    static String shown(String name) {
        if (name.length() <= SHOWN) {
            return name;
        }
        int cut = Character.isHighSurrogate(name.charAt(SHOWN - 1)) ? SHOWN - 1 : SHOWN; // never half a character
        return name.substring(0, cut) + "…(" + name.length() + " characters)";
    }
}

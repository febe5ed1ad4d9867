package dev.enginestates.ecs;

import java.util.Objects;

/**
 * A stable name a game gives an entity (such as {@code "guard-7"}), by which checkpoints,
 * dumps and input logs match it across runs. Dominion's own entity ids are not stable; a key
 * is. The world's own entity has the key {@link #WORLD}.
 *
 * <pre>{@code world.spawn(EntityKey.of("guard-7"), GUARD.trait());}</pre>
 */
public final class EntityKey implements Comparable<EntityKey> {
    /** The key of the world's own entity (world-level machines). */
    public static final String WORLD = "world";

    private final String value;

    private EntityKey(String value) {
        this.value = value;
    }

    /**
     * A key.
     *
     * @param value the key's text, such as {@code "guard-7"}; compared exactly, case included
     * @return the key; two keys made from the same text are equal
     * @throws NullPointerException     if the value is {@code null}
     * @throws IllegalArgumentException if the value is empty or is {@value #WORLD}, which the world's own entity has
     */
    public static EntityKey of(String value) {
        Objects.requireNonNull(value, "key");
        if (value.isEmpty()) {
            throw new IllegalArgumentException("an entity key must not be empty");
        }
        if (value.equals(WORLD)) {
            throw new IllegalArgumentException("the key \"" + WORLD + "\" belongs to the world's own entity; choose another");
        }
        return new EntityKey(value);
    }

    static EntityKey world() {
        return new EntityKey(WORLD);
    }

    /**
     * The key's text.
     *
     * @return the text the key was made from, such as {@code "guard-7"}, or {@value #WORLD} for the world's own entity
     */
    public String value() {
        return value;
    }

    @Override
    public int compareTo(EntityKey o) {
        return value.compareTo(o.value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EntityKey && ((EntityKey) o).value.equals(value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    @Override
    public String toString() {
        return value;
    }
}

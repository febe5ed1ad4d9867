package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.dominion.IntEntity;

/**
 * How messages, dumps and the devtools page name an entity: by its {@link EntityKey}, or, when it
 * has none, by the first machine it holds (in declaration order) and a number that machine gives
 * it the first time it is named, {@code guard#3} (see {@link Binding#nameOf}). Never by Dominion's
 * own description of the entity, whose ids are reused and mean nothing to a reader. Only failures,
 * dumps and tools ask, so finding the records by reading the entity's components costs nothing on
 * a step, and a record never named holds no name.
 */
final class EntityName {
    private EntityName() {
    }

    /** The entity's name, or {@code null} for a deleted entity, or one with neither a key nor a machine in a world. */
    static String of(Entity e) {
        if (e == null || e.isDeleted()) {
            return null;
        }
        EntityKey k = e.get(EntityKey.class);
        if (k != null) {
            return k.value();
        }
        EntityRecord<?> first = firstRecord(e);
        return first == null ? null : first.binding.nameOf(first, first.world);
    }

    /** The entity in a sentence: {@code entity 'guard-7'}, {@code entity 'guard#3'}; safe on a deleted or missing one. */
    static String describe(Entity e) {
        if (e == null) {
            return "no entity";
        }
        if (e.isDeleted()) {
            return "a deleted entity";
        }
        String name = of(e);
        return name != null ? "entity '" + name + "'" : "an entity without a key or a machine";
    }

    /** The record that names an unkeyed entity: the one of the machine declared first, among those in a world. */
    private static EntityRecord<?> firstRecord(Entity e) {
        Object[] components = e instanceof IntEntity ie ? ie.getComponentArray() : null;
        if (components == null) {
            return null;
        }
        EntityRecord<?> first = null;
        for (Object c : components) {
            if (c instanceof EntityRecord<?> r && r.entity == e && r.world != null
                    && (first == null || r.states.order() < first.states.order())) {
                first = r;
            }
        }
        return first;
    }
}

package dev.enginestates.devtools;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * The names the page gives entities, on the world's thread: the world's own
 * ({@link StateWorld#nameOf}), so the page and the library's messages name an entity alike. An
 * entity with an {@link EntityKey} is named by its key ({@code "world"} for the world's own); one
 * without, by its first machine and that record's number in the world, {@code "guard#3"}. The page
 * remembers the unkeyed names it has shown, so a write it sends reaches the entity it showed
 * and no other: a name is never given twice in a world, and one a game's key spells is passed over.
 */
final class EntityNames {
    private final Map<Entity, String> unkeyed = new IdentityHashMap<>();
    private final Map<String, Entity> byName = new HashMap<>();

    /** The entity's name, remembering it when the entity has no key. */
    String nameOf(Entity e) {
        String name = StateWorld.nameOf(e);
        if (name == null) {
            return "(a deleted entity)";
        }
        if (e.get(EntityKey.class) == null) {
            String before = unkeyed.put(e, name);
            if (before != null && !before.equals(name)) {
                byName.remove(before); // a key the game gave later spells the old name
            }
            byName.put(name, e);
        }
        return name;
    }

    /** An entity for a context shown as JSON: its name. */
    String describe(Entity e) {
        if (e.isDeleted()) {
            return "(a deleted entity)";
        }
        String name = StateWorld.nameOf(e);
        return name != null ? name : "(an entity without a key)";
    }

    /** The live entity of the world with that name, or {@code null}: by key, else one the page has shown. */
    Entity find(StateWorld world, String name) {
        Entity e = world.entity(name);
        if (e != null) {
            return e;
        }
        e = byName.get(name);
        return e == null || e.isDeleted() || e.get(EntityKey.class) != null || !name.equals(StateWorld.nameOf(e)) ? null : e;
    }

    /** Drops the names of deleted entities (a name is never given again). */
    void forgetDeleted() {
        for (Iterator<Map.Entry<Entity, String>> it = unkeyed.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Entity, String> en = it.next();
            if (en.getKey().isDeleted()) {
                byName.remove(en.getValue());
                it.remove();
            }
        }
    }
}

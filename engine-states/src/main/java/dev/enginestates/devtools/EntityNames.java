package dev.enginestates.devtools;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * The names the page gives entities, on the world's thread. An entity with an {@link EntityKey}
 * is named by its key ({@code "world"} for the world's own); one without is named by the
 * machine it was first seen holding and a number, {@code "guard#3"}, as the {@code 003}
 * document's devtools name "an entity that nothing else names by its machine". A number is
 * given once, in the order the page first saw the entities, and kept while the entity lives,
 * so a write the page sends names the entity it showed.
 */
final class EntityNames {
    private final Map<Entity, String> unkeyed = new IdentityHashMap<>();
    private final Map<String, Entity> byName = new HashMap<>();
    private int next = 1;

    /**
     * The entity's name, giving an unkeyed one its number now if it has none. A game's key may
     * read like a number given here ({@code "guard#1"}); a number a live key has taken is skipped,
     * and an entity whose number a key took later gets a new one, so the page never shows two
     * entities by one name (a write would reach the keyed one).
     */
    String nameOf(StateWorld world, Entity e, String machineId) {
        EntityKey k = e.isDeleted() ? null : e.get(EntityKey.class);
        if (k != null) {
            return k.value();
        }
        String name = unkeyed.get(e);
        if (name == null || world.entity(name) != null) {
            if (name != null) {
                byName.remove(name);
            }
            do {
                name = machineId + "#" + next++;
            } while (world.entity(name) != null);
            unkeyed.put(e, name);
            byName.put(name, e);
        }
        return name;
    }

    /** An entity for a context shown as JSON: its name when it has one, without giving it a number. */
    String describe(Entity e) {
        if (e.isDeleted()) {
            return "(a deleted entity)";
        }
        EntityKey k = e.get(EntityKey.class);
        if (k != null) {
            return k.value();
        }
        String name = unkeyed.get(e);
        return name != null ? name : "(an entity without a key)";
    }

    /** The live entity of the world with that name, or {@code null}. */
    Entity find(StateWorld world, String name) {
        Entity e = world.entity(name);
        if (e != null) {
            return e;
        }
        e = byName.get(name);
        return e == null || e.isDeleted() || e.get(EntityKey.class) != null ? null : e;
    }

    /** Drops the numbers of deleted entities (numbers are never given again). */
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

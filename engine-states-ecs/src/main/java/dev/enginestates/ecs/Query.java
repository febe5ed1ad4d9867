package dev.enginestates.ecs;

import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.dominion.ecs.api.Results;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * The entities that have every one of some component types (tags included) and none of
 * others: {@code world.query(GUARD.is("answer"))},
 * {@code world.query(Transform.class).without(GUARD.is("patrol"))}. Iterating reads a snapshot
 * taken when iteration starts, so a loop may send events (and so move tags) safely.
 */
public final class Query implements Iterable<Entity> {
    private final Dominion dominion;
    private final Class<?>[] with;
    private final Class<?>[] without;

    Query(Dominion dominion, Class<?>[] with, Class<?>[] without) {
        if (with.length == 0) {
            throw new IllegalArgumentException("a query needs at least one component type to look for");
        }
        this.dominion = dominion;
        this.with = with.clone();
        this.without = without.clone();
    }

    /**
     * The same query, also excluding entities that have any of these types (the "not" form).
     * This query is not changed.
     *
     * @param types component or tag classes the entities must not have, such as {@code GUARD.is("patrol")}
     * @return a new query with these types added to the excluded ones
     */
    public Query without(Class<?>... types) {
        Class<?>[] all = Arrays.copyOf(without, without.length + types.length);
        System.arraycopy(types, 0, all, without.length, types.length);
        return new Query(dominion, with, all);
    }

    /**
     * The matching entities now.
     *
     * @return a new, modifiable list of the entities that match at this call; empty if none do
     */
    public List<Entity> list() {
        List<Entity> out = new ArrayList<>();
        Results<? extends Results.With1<?>> results = dominion.findEntitiesWith(with[0]);
        if (with.length > 1) {
            results = results.withAlso(Arrays.copyOfRange(with, 1, with.length));
        }
        if (without.length > 0) {
            results = results.without(without);
        }
        for (Results.With1<?> r : results) {
            out.add(r.entity());
        }
        return out;
    }

    /**
     * How many entities match now.
     *
     * @return the number of matching entities
     */
    public int count() {
        return list().size();
    }

    /**
     * Whether none match.
     *
     * @return {@code true} if no entity matches now
     */
    public boolean isEmpty() {
        return list().isEmpty();
    }

    /**
     * One matching entity, or {@code null}.
     *
     * @return the first entity the query finds (which one is up to Dominion), or {@code null} if none match
     */
    public Entity first() {
        List<Entity> l = list();
        return l.isEmpty() ? null : l.get(0);
    }

    /** Iterates a snapshot of the matching entities. */
    @Override
    public Iterator<Entity> iterator() {
        return list().iterator();
    }
}

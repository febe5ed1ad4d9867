package dev.enginestates.dominion;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.dominion.Dominions.A;
import dev.enginestates.dominion.Dominions.B;
import dev.enginestates.dominion.Dominions.C;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static dev.enginestates.dominion.Dominions.count;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Patch 0001: a query goes on past a chunk that emptied out in the middle of its composition's
 * chunks. Upstream's iterators stopped there, so entities created after churn were not found.
 */
class IteratorsTest {
    private static final int CHUNK = 4096; // the default Dominion's chunk capacity

    @Test
    void aQueryFindsAnEntityPastAChunkThatEmptiedOut() {
        try (Dominions.Closing d = Dominions.create("past-empty-chunk")) {
            d.createEntity(new C(0)); // another composition, so the (A, B) chunks are not the pool's first
            List<Entity> made = new ArrayList<>();
            for (int i = 0; i < 3 * CHUNK + 1; i++) {
                made.add(d.createEntity(new A(i), new B(i)));
            }
            made.forEach(d::deleteEntity);
            Entity survivor = d.createEntity(new A(-1), new B(-1));

            assertEquals(List.of(survivor), Dominions.entities(d.findEntitiesWith(A.class)),
                    "upstream 0.9.0 finds 0 of 1: its iterator stops at the first empty chunk");
            assertEquals(1, count(d.findCompositionsWith(A.class)));
            assertEquals(2, count(d.findAllEntities()), "C(0) and the survivor");
        }
    }

    @Test
    void everyEntityIsFoundOnceAfterChunksEmptyOutInTheMiddle() {
        try (Dominions.Closing d = Dominions.create("churn")) {
            List<Entity> live = new ArrayList<>();
            for (int i = 0; i < 5 * CHUNK; i++) {
                live.add(d.createEntity(new A(i), new B(i)));
            }
            // empty the second and third chunks entirely, keep the others
            for (int i = CHUNK; i < 3 * CHUNK; i++) {
                d.deleteEntity(live.get(i));
            }
            live.subList(CHUNK, 3 * CHUNK).clear();

            Set<Entity> found = new HashSet<>(Dominions.entities(d.findEntitiesWith(A.class)));
            assertEquals(live.size(), count(d.findEntitiesWith(A.class)), "no entity visited twice");
            assertEquals(new HashSet<>(live), found);
            assertEquals(live.size(), count(d.findAllEntities()));
        }
    }

    enum Mood { CALM, ANGRY }

    @Test
    void findAllEntitiesListsAnEntityWithAStateOnce() {
        try (Dominions.Closing d = Dominions.create("states")) {
            d.createEntity(new A(1)).setState(Mood.CALM);
            d.createEntity(new A(2));
            assertEquals(2, count(d.findAllEntities()), "upstream also lists the entity kept in the state's chunk");
            assertEquals(1, count(d.findEntitiesWith(A.class).withState(Mood.CALM)));
        }
    }
}

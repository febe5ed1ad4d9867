package dev.enginestates.dominion;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.dominion.Dominions.A;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * Patch 0003: a Dominion meets any number of component classes. Upstream's compositions indexed a
 * fixed {@code int[1024]} by class index, so the 1,024th class threw inside a create or a move.
 */
class ManyClassesTest {

    @Test
    void tenThousandComponentClassesEachFoundOnItsEntity() {
        try (Dominions.Closing d = Dominions.create("many-classes")) {
            List<Class<?>> classes = new ArrayList<>();
            List<Entity> entities = new ArrayList<>();
            for (int i = 0; i < 10_000; i++) {
                Class<?> type = Dominions.newComponentClass();
                classes.add(type);
                Entity e = d.createEntity(new A(i));
                e.add(Dominions.instanceOf(type)); // a move into a two-component composition
                entities.add(e);
            }
            for (int i = 0; i < classes.size(); i += 97) {
                Class<?> type = classes.get(i);
                Entity e = entities.get(i);
                assertEquals(new A(i), e.get(A.class));
                assertSame(type, e.get(type).getClass());
                assertNull(e.get(classes.get((i + 1) % classes.size())), "another entity's class");
                assertEquals(List.of(e), Dominions.entities(d.findEntitiesWith(type)));
            }
            assertEquals(10_000, Dominions.count(d.findEntitiesWith(A.class)));
        }
    }

    @Test
    void aPreparedMoveWorksPastTheThousandthClass() {
        try (Dominions.Closing d = Dominions.create("moves")) {
            Entity e = d.createEntity(new A(0), Dominions.instanceOf(Dominions.newComponentClass()));
            Class<?> last = null;
            for (int i = 0; i < 1_100; i++) {
                Class<?> next = Dominions.newComponentClass();
                d.modifyEntity(d.composition().byAdding1AndRemoving(castClass(next), last == null ? new Class<?>[0] : new Class<?>[]{last})
                        .withValue(e, Dominions.instanceOf(next)));
                last = next;
                assertSame(last, e.get(last).getClass());
                assertEquals(new A(0), e.get(A.class));
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Class<Object> castClass(Class<?> type) {
        return (Class<Object>) type;
    }
}

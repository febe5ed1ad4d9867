package dev.enginestates.dominion;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.dominion.Dominions.A;
import dev.enginestates.dominion.Dominions.B;
import dev.enginestates.dominion.Dominions.C;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Patch 0012: a watched component type's arrivals are counted, so engine-states learns that an
 * entity may have gained a hold without a query a step. Upstream has no such API (the calls go
 * through reflection so that {@code -Pupstream} still compiles the other tests, and these fail).
 */
class WatchedJoinsTest {

    @Test
    void everyWayAnEntityGainsAWatchedTypeCountsAJoin() {
        try (Dominions.Closing d = Dominions.create("watch")) {
            watch(d, B.class);
            long n = joins(d);
            Entity e = d.createEntity(new A(1));
            assertEquals(n, joins(d), "an entity without B");
            e.add(new B(1));
            assertTrue(joins(d) > n, "an add");
            n = joins(d);
            d.createEntity(new A(2), new B(2));
            assertTrue(joins(d) > n, "created with it");
            n = joins(d);
            Entity f = d.createEntity(new A(3));
            d.modifyEntity(d.composition().byAdding1AndRemoving(B.class, A.class).withValue(f, new B(3)));
            assertTrue(joins(d) > n, "a modify");
            n = joins(d);
            f.setEnabled(false);
            assertEquals(n, joins(d), "disabling");
            f.setEnabled(true);
            assertTrue(joins(d) > n, "enabled again");
        }
    }

    @Test
    void movesThatGainNoWatchedTypeLeaveTheCountAlone() {
        try (Dominions.Closing d = Dominions.create("quiet")) {
            watch(d, B.class);
            Entity held = d.createEntity(new A(1), new B(1));
            long n = joins(d);
            Entity e = d.createEntity(new A(2));
            e.add(new C(2));
            e.removeType(C.class);
            held.removeType(B.class);
            d.deleteEntity(e);
            d.createEntity(new C(3));
            assertEquals(n, joins(d), "no entity gained B");
        }
    }

    @Test
    void watchingATypeCountsOnceForTheEntitiesThatCarryItAlready() {
        try (Dominions.Closing d = Dominions.create("late")) {
            d.createEntity(new A(1), new C(1));
            long n = joins(d);
            watch(d, C.class);
            assertTrue(joins(d) > n, "C was already on an entity");
            n = joins(d);
            watch(d, C.class);
            assertEquals(n, joins(d), "watching twice changes nothing");
            Entity e = d.createEntity(new A(2));
            e.add(new C(2));
            assertTrue(joins(d) > n, "a composition made before the watch counts too");
        }
    }

    private static void watch(Dominions.Closing d, Class<?> type) {
        call(d, "watch", new Class<?>[]{Class.class}, type);
    }

    private static long joins(Dominions.Closing d) {
        return (Long) call(d, "watchedJoins", new Class<?>[0]);
    }

    private static Object call(Dominions.Closing d, String name, Class<?>[] types, Object... args) {
        try {
            Method m = EntityRepository.class.getMethod(name, types);
            return m.invoke(d.real(), args);
        } catch (NoSuchMethodException | IllegalAccessException e) {
            throw new AssertionError("EntityRepository." + name + " is missing: patch 0012 not applied", e);
        } catch (InvocationTargetException e) {
            throw new AssertionError(e.getCause());
        }
    }
}

package dev.enginestates.ecs;

import dev.dominion.ecs.api.Dominion;

import java.lang.reflect.Field;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A guard against a flaw of Dominion 0.9.0: its class index finds a component class by a
 * slot taken from the class's identity hash and does not check whose slot it is, so two
 * classes that share a slot are taken for one another (an entity in one state then also
 * "has" another state's tag, in queries and in {@code has}). With the hundreds of tag classes
 * machines make, that happens (about 15% of worlds with 100 tag classes, measured). The index
 * has a collision-free map it switches to when it notices a collision; this switches every
 * world's index to it from the start. It costs a few nanoseconds per class lookup.
 */
final class DominionClassIndex {
    private DominionClassIndex() {
    }

    /** Switches the Dominion's class index to its collision-free map; false if this Dominion is not the one expected. */
    static boolean useCollisionFreeMap(Dominion dominion) {
        try {
            Object compositions = field(dominion, "compositions");
            Object classIndex = field(compositions, "classIndex");
            Object flag = field(classIndex, "useFallbackMap");
            if (flag instanceof AtomicBoolean) {
                ((AtomicBoolean) flag).set(true);
                return true;
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // another Dominion implementation or version: nothing to switch
        }
        return false;
    }

    private static Object field(Object owner, String name) throws ReflectiveOperationException {
        Field f = owner.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return f.get(owner);
    }
}

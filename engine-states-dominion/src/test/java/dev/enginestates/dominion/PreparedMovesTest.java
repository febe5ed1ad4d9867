package dev.enginestates.dominion;

import dev.dominion.ecs.api.Composition;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.dominion.Dominions.A;
import dev.enginestates.dominion.Dominions.B;
import dev.enginestates.dominion.Dominions.C;
import dev.enginestates.dominion.Dominions.D;
import dev.enginestates.dominion.Dominions.E;
import dev.enginestates.dominion.Dominions.F;
import dev.enginestates.dominion.Dominions.G;
import org.junit.jupiter.api.Test;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Patch 0013: {@code EntityRepository.modifyEntity(prepared, entity, added)} applies a prepared
 * modifier with the caller's components, allocating nothing, and each added component lands under
 * its own type. Upstream has no such method (it is found through a method handle, so that
 * {@code -Pupstream} still compiles the other tests, and these fail).
 */
class PreparedMovesTest {
    private static final MethodHandle MODIFY = modify();

    private static MethodHandle modify() {
        try {
            return MethodHandles.publicLookup().findVirtual(EntityRepository.class, "modifyEntity",
                    MethodType.methodType(boolean.class, Composition.Modifier.class, Entity.class, Object[].class));
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    private static boolean move(EntityRepository d, Composition.Modifier m, Entity e, Object[] added) {
        assertNotNull(MODIFY, "EntityRepository.modifyEntity(Composition.Modifier, Entity, Object[])");
        try {
            return (boolean) MODIFY.invokeExact(d, m, e, added);
        } catch (RuntimeException | Error t) {
            throw t;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static long allocatedSoFar() {
        return THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    @Test
    void aPreparedMoveWithAReusedArrayAllocatesNothing() {
        try (Dominions.Closing closing = Dominions.create("no-alloc")) {
            EntityRepository d = closing.real();
            List<Entity> entities = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                entities.add(d.createEntity(new A(i), new C(i)));
            }
            Composition.Modifier toB = d.composition().byAdding1AndRemoving(B.class, A.class);
            Composition.Modifier toA = d.composition().byAdding1AndRemoving(A.class, B.class);
            Object[] b = {new B(-1)};
            Object[] a = {new A(-1)};
            Runnable roundTrip = () -> {
                for (Entity e : entities) {
                    move(d, toB, e, b);
                }
                for (Entity e : entities) {
                    move(d, toA, e, a);
                }
            };
            for (int i = 0; i < 20; i++) {
                roundTrip.run();
            }
            allocatedSoFar();
            long before = allocatedSoFar();
            roundTrip.run();
            long bytes = allocatedSoFar() - before;
            assertTrue(bytes <= 1024, "2,000 prepared moves allocated " + bytes + " B");
            assertEquals(1_000, Dominions.count(d.findEntitiesWith(A.class, C.class)), "every entity back with A");
        }
    }

    @Test
    void everyAddedComponentLandsUnderItsType() {
        Random random = new Random(13);
        Class<?>[] pool = {A.class, B.class, C.class, D.class, E.class, F.class, G.class};
        for (int round = 0; round < 200; round++) {
            try (Dominions.Closing closing = Dominions.create("types")) {
                EntityRepository d = closing.real();
                List<Class<?>> shuffled = new ArrayList<>(List.of(pool));
                java.util.Collections.shuffle(shuffled, random);
                int kept = 1 + random.nextInt(3);
                int added = 1 + random.nextInt(pool.length - kept);
                Object[] start = new Object[kept];
                for (int i = 0; i < kept; i++) {
                    start[i] = component(shuffled.get(i), 100 + i);
                }
                Entity e = d.createEntity(start);
                Class<?>[] addedTypes = shuffled.subList(kept, kept + added).toArray(new Class<?>[0]);
                Class<?> removed = shuffled.get(0);
                Composition.Modifier m = byAdding(d.composition(), addedTypes, removed);
                Object[] components = new Object[added];
                for (int i = 0; i < added; i++) {
                    components[i] = component(addedTypes[i], i);
                }
                Object[] given = components.clone();
                assertTrue(move(d, m, e, components), "moved");
                for (int i = 0; i < added; i++) {
                    components[i] = component(addedTypes[i], -1); // the array is reused: the entity keeps what it was given
                }
                Entity other = d.createEntity(start.clone());
                assertTrue(move(d, m, other, components));
                for (int i = 0; i < added; i++) {
                    assertSame(given[i], e.get(addedTypes[i]), "round " + round + ": " + addedTypes[i].getSimpleName() + " under its type");
                    assertSame(components[i], other.get(addedTypes[i]));
                }
                assertNull(e.get(removed), "removed");
                for (int i = 1; i < kept; i++) {
                    assertSame(start[i], e.get(shuffled.get(i)), "kept");
                }
                assertEquals(2, Dominions.count(d.findEntitiesWith(addedTypes[0])), "queries find both");
                assertFalse(move(d, d.composition().byRemoving(removed), e, null), "already in the target: no move");
            }
        }
    }

    @Test
    void badInputThrowsAndMovesNothing() {
        try (Dominions.Closing closing = Dominions.create("bad"); Dominions.Closing another = Dominions.create("another")) {
            EntityRepository d = closing.real();
            Entity e = d.createEntity(new A(1));
            Composition.Modifier toBC = d.composition().byAdding2AndRemoving(B.class, C.class, A.class);
            assertThrows(IllegalArgumentException.class, () -> move(d, toBC, e, new Object[]{new B(1)}), "too few");
            assertThrows(IllegalArgumentException.class, () -> move(d, toBC, e, new Object[]{new C(1), new B(1)}), "wrong order");
            assertThrows(IllegalArgumentException.class, () -> move(d, toBC, e, new Object[]{new B(1), null}), "null");
            assertThrows(IllegalArgumentException.class, () -> move(d, toBC, e, null), "no array");
            Composition.Modifier foreign = another.real().composition().byAdding2AndRemoving(B.class, C.class, A.class);
            assertThrows(IllegalArgumentException.class, () -> move(d, foreign, e, new Object[]{new B(1), new C(1)}), "another Dominion's modifier");
            Entity stranger = another.real().createEntity(new A(2));
            assertThrows(IllegalArgumentException.class, () -> move(d, toBC, stranger, new Object[]{new B(1), new C(1)}), "another Dominion's entity");
            assertSame(A.class, e.get(A.class).getClass(), "unchanged");
            assertFalse(e.has(B.class));
            assertEquals(1, Dominions.count(d.findEntitiesWith(A.class)));
            assertEquals(1, Dominions.count(another.real().findEntitiesWith(A.class)));
            assertTrue(move(d, d.composition().byRemoving(A.class), e, null), "a removal takes no array");
            assertFalse(e.has(A.class));
        }
    }

    @Test
    void disabledAndDeletedEntitiesDoNotMove() {
        try (Dominions.Closing closing = Dominions.create("off")) {
            EntityRepository d = closing.real();
            Composition.Modifier toB = d.composition().byAdding1AndRemoving(B.class, A.class);
            Entity disabled = d.createEntity(new A(1));
            disabled.setEnabled(false);
            Entity deleted = d.createEntity(new A(2));
            d.deleteEntity(deleted);
            assertFalse(move(d, toB, disabled, new Object[]{new B(1)}));
            assertFalse(move(d, toB, deleted, new Object[]{new B(2)}));
            disabled.setEnabled(true);
            assertEquals(new A(1), disabled.get(A.class));
            assertEquals(0, Dominions.count(d.findEntitiesWith(B.class)));
        }
    }

    /**
     * Four threads move the same entities between compositions with the same prepared modifiers
     * (so the modifiers' last target changes hands all the time): no entity is lost, and each ends
     * with exactly the components of one composition, its own values. A thread that moves an entity
     * another thread has just moved gets Dominion's refusal (the modifier would add a type the
     * entity has), as {@code withValue} gives it, and nothing changes.
     */
    @Test
    void concurrentMovesLoseNothingAndMixNothingUp() throws InterruptedException {
        try (Dominions.Closing closing = Dominions.create("threads")) {
            EntityRepository d = closing.real();
            int n = 2_000;
            Entity[] entities = new Entity[n];
            for (int i = 0; i < n; i++) {
                entities[i] = i % 2 == 0 ? d.createEntity(new A(i)) : d.createEntity(new A(i), new C(i));
            }
            Composition.Modifier toB = d.composition().byAdding1AndRemoving(B.class, A.class);
            Composition.Modifier toA = d.composition().byAdding1AndRemoving(A.class, B.class);
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            Thread[] threads = new Thread[4];
            for (int t = 0; t < threads.length; t++) {
                int seed = t;
                threads[t] = new Thread(() -> {
                    try {
                        Random random = new Random(seed);
                        Object[] added = new Object[1];
                        for (int k = 0; k < 100_000; k++) {
                            int i = random.nextInt(n);
                            boolean b = entities[i].has(A.class);
                            added[0] = b ? new B(i) : new A(i);
                            try {
                                move(d, b ? toB : toA, entities[i], added);
                            } catch (IllegalArgumentException raced) {
                                // another thread moved it since has(): the target is found under the
                                // entity's lock (the Dominion's since 0016), so this move saw the new
                                // composition and was refused whole
                                if (!String.valueOf(raced.getMessage()).contains("Duplicate")) {
                                    throw raced;
                                }
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                });
                threads[t].start();
            }
            for (Thread t : threads) {
                t.join();
            }
            assertTrue(failures.isEmpty(), () -> "a thread failed: " + failures.peek());
            int found = Dominions.count(d.findEntitiesWith(A.class)) + Dominions.count(d.findEntitiesWith(B.class));
            assertEquals(n, found, "every entity is in a composition with A or with B");
            for (int i = 0; i < n; i++) {
                Entity e = entities[i];
                A a = e.get(A.class);
                B b = e.get(B.class);
                assertTrue(a == null ^ b == null, "entity " + i + " has A or B: " + e);
                assertEquals(i, a != null ? a.v() : b.v(), "entity " + i + "'s own value");
                C c = e.get(C.class);
                assertEquals(i % 2 == 1, c != null, "entity " + i + " keeps C");
                if (c != null) {
                    assertEquals(i, c.v());
                }
            }
        }
    }

    private static Object component(Class<?> type, int v) {
        try {
            return type.getDeclaredConstructor(int.class).newInstance(v);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Composition.Modifier byAdding(Composition c, Class[] t, Class<?> removed) {
        return switch (t.length) {
            case 1 -> c.byAdding1AndRemoving(t[0], removed);
            case 2 -> c.byAdding2AndRemoving(t[0], t[1], removed);
            case 3 -> c.byAdding3AndRemoving(t[0], t[1], t[2], removed);
            case 4 -> c.byAdding4AndRemoving(t[0], t[1], t[2], t[3], removed);
            case 5 -> c.byAdding5AndRemoving(t[0], t[1], t[2], t[3], t[4], removed);
            default -> c.byAdding6AndRemoving(t[0], t[1], t[2], t[3], t[4], t[5], removed);
        };
    }
}

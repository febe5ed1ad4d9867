package dev.enginestates.dominion;

import dev.dominion.ecs.api.Composition;
import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.dominion.Dominions.A;
import dev.enginestates.dominion.Dominions.B;
import dev.enginestates.dominion.Dominions.C;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Patch 0015: a composition's reusable ids are a plain stack guarded by its tenant's lock (the
 * Dominion's since 0016), which every caller of {@code nextId} and {@code freeId} holds. The tenant
 * asserts it (the tests run
 * with assertions on), so each way an entity takes or frees an id is run here over compositions
 * of many small chunks, where freed ids go through the stack; and moves on several threads keep
 * every entity, once, with its own components.
 */
class TenantIdsUnderItsLockTest {
    private static final int SMALL_CHUNK_BIT = 8; // 256 entities a chunk

    enum Mood { CALM, ANGRY }

    @Test
    void everyWayAnEntityTakesOrFreesAnIdHoldsItsTenantsLock() {
        Dominion d = Dominions.createWithChunkBit("ids-locked", SMALL_CHUNK_BIT);
        try {
            List<Entity> all = new ArrayList<>();
            for (int i = 0; i < 2_000; i++) {
                all.add(d.createEntity(new A(i)));
            }
            Composition.ByAdding1AndRemoving<B> toB = d.composition().byAdding1AndRemoving(B.class, A.class);
            Composition.ByAdding1AndRemoving<A> toA = d.composition().byAdding1AndRemoving(A.class, B.class);
            for (int i = 0; i < all.size(); i += 3) {
                Entity e = all.get(i);
                switch (i % 6) {
                    case 0 -> e.add(new C(i));
                    case 3 -> Dominions.preparedMove(d, toB, e, new Object[] {new B(i)});
                    default -> { }
                }
            }
            for (int i = 1; i < all.size(); i += 3) {
                Entity e = all.get(i);
                d.modifyEntity(toB.withValue(e, new B(i)));
                e.setState(i % 2 == 0 ? Mood.CALM : Mood.ANGRY);
                e.setState(i % 2 == 0 ? Mood.ANGRY : Mood.CALM);
            }
            for (int i = 2; i < all.size(); i += 3) {
                Entity e = all.get(i);
                e.setEnabled(false);
                if (i % 2 == 0) {
                    e.setEnabled(true);
                }
            }
            for (int i = 0; i < all.size(); i += 6) {
                all.get(i).removeType(C.class);
            }
            for (int i = 1; i < all.size(); i += 9) {
                Dominions.preparedMove(d, toA, all.get(i), new Object[] {new A(i)});
            }
            for (int i = 4; i < all.size(); i += 12) {
                d.deleteEntity(all.get(i));
            }
            Set<Integer> ids = new HashSet<>();
            int live = 0;
            for (int i = 0; i < all.size(); i++) {
                IntEntity e = (IntEntity) all.get(i);
                if (e.isDeleted() || !e.isEnabled()) {
                    continue;
                }
                live++;
                assertTrue(ids.add(e.getId()), "entity " + i + " shares its id with another");
                Object a = e.get(A.class);
                Object b = e.get(B.class);
                assertTrue(a != null ? ((A) a).v() == i : ((B) b).v() == i, "entity " + i + " keeps its own component");
            }
            int found = Dominions.count(d.findEntitiesWith(A.class)) + Dominions.count(d.findEntitiesWith(B.class));
            assertEquals(live, found, "the queries find each live entity once");
        } finally {
            d.close();
        }
    }

    @Test
    void movesOnSeveralThreadsAcrossManyChunksKeepEveryEntityOnce() throws InterruptedException {
        Dominion d = Dominions.createWithChunkBit("ids-threads", SMALL_CHUNK_BIT);
        try {
            int threads = 4;
            int each = 1_000;
            Entity[][] mine = new Entity[threads][each];
            for (int t = 0; t < threads; t++) {
                for (int i = 0; i < each; i++) {
                    mine[t][i] = d.createEntity(new A(t * each + i));
                }
            }
            Composition.ByAdding1AndRemoving<B> toB = d.composition().byAdding1AndRemoving(B.class, A.class);
            Composition.ByAdding1AndRemoving<A> toA = d.composition().byAdding1AndRemoving(A.class, B.class);
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            List<Thread> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int base = t * each;
                Entity[] entities = mine[t];
                Thread thread = new Thread(() -> {
                    try {
                        for (int round = 0; round < 40; round++) {
                            for (int i = 0; i < each; i++) {
                                int v = base + i;
                                if (round % 2 == 0) {
                                    Dominions.preparedMove(d, toB, entities[i], new Object[] {new B(v)});
                                } else {
                                    Dominions.preparedMove(d, toA, entities[i], new Object[] {new A(v)});
                                }
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                });
                running.add(thread);
                thread.start();
            }
            for (Thread thread : running) {
                thread.join();
            }
            assertTrue(failures.isEmpty(), () -> "a thread failed: " + failures.peek());
            Set<Integer> ids = new HashSet<>();
            for (int t = 0; t < threads; t++) {
                for (int i = 0; i < each; i++) {
                    IntEntity e = (IntEntity) mine[t][i];
                    assertTrue(ids.add(e.getId()), "two entities share an id");
                    assertEquals(t * each + i, ((A) e.get(A.class)).v(), "each entity keeps its own component");
                }
            }
            assertEquals(threads * each, Dominions.count(d.findEntitiesWith(A.class)));
            assertEquals(0, Dominions.count(d.findEntitiesWith(B.class)));
        } finally {
            d.close();
        }
    }
}

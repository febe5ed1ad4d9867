package dev.enginestates.dominion;

import dev.dominion.ecs.api.Composition;
import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.dominion.ecs.api.Results;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Patch 0016: every change of an entity's composition, state, enabled flag or life takes one lock,
 * its Dominion's, once, and reads the entity again under it. Upstream took the entity's monitor and
 * one or two tenants' (0014 ordered them). The lock itself is not observable; what it must keep is:
 * a modifier made by {@code withValue} before the entity moved applies to the composition the entity
 * is in when it is applied (upstream applied a target computed for the one it had left); chunks made
 * on several threads at once each get their own number; and four threads changing their own and
 * shared entities at once leave every entity where a model of each thread's changes says, found once
 * by each query, with its own components, without a deadlock. All four fail on 0015.
 */
class OneLockPerDominionTest {
    record Own(int thread, int index) {}
    record P(int v) {}
    record Q(int v) {}
    record R(int v) {}
    record Shared(int index) {}
    record T0(int v) {}
    record T1(int v) {}
    record T2(int v) {}
    record T3(int v) {}

    enum Mood { CALM, ANGRY, SLEEPY }

    private static final int THREADS = 4;
    private static final int SHARED = 64;
    private static final int OPERATIONS = 150_000;
    /** The smallest chunk Dominion allows (256 entities): chunks are made and emptied all the time. */
    private static final int SMALL_CHUNK_BIT = 8;

    /** One toggled type per thread on the shared entities: only its thread adds or removes it. */
    private static final List<Class<?>> TOGGLED = List.of(T0.class, T1.class, T2.class, T3.class);
    private static final List<IntFunction<Object>> TOGGLE_MAKERS = List.of(T0::new, T1::new, T2::new, T3::new);
    private static final List<Class<?>> TYPES =
            List.of(Own.class, P.class, Q.class, R.class, Shared.class, T0.class, T1.class, T2.class, T3.class);

    private static boolean preparedMove(Dominion d, Composition.Modifier m, Entity e, Object... added) {
        return Dominions.preparedMove(d, m, e, added);
    }

    @Test
    void aModifierMadeBeforeTheEntityMovedAppliesToTheCompositionItIsInNow() {
        try (Dominions.Closing d = Dominions.create("stale-modifier")) {
            Entity e = d.createEntity(new P(1));
            Entity other = d.createEntity(new P(2));
            Composition.Modifier toQ = d.composition().byAdding1AndRemoving(Q.class, P.class).withValue(e, new Q(1));
            e.add(new R(1)); // the entity leaves {P} for {P, R} after the modifier was made for {P}
            assertTrue(d.modifyEntity(toQ), "the move is applied");
            assertNull(e.get(P.class), "P removed");
            assertEquals(new Q(1), e.get(Q.class), "Q added");
            assertEquals(new R(1), e.get(R.class), "R, added in between, kept");
            assertEquals(List.of(e), Dominions.entities(d.findEntitiesWith(Q.class)), "found once under Q");
            assertEquals(List.of(e), Dominions.entities(d.findEntitiesWith(R.class)), "found once under R");
            assertEquals(List.of(other), Dominions.entities(d.findEntitiesWith(P.class)), "only the other entity left under P");
            assertEquals(new P(2), other.get(P.class));
        }
    }

    @Test
    void aModifierMadeBeforeTheEntityReachedItsTargetMovesNothing() {
        try (Dominions.Closing d = Dominions.create("stale-modifier-target")) {
            Entity e = d.createEntity(new P(1), new R(1));
            Composition.ByRemoving dropR = d.composition().byRemoving(R.class);
            Composition.Modifier stale = dropR.withValue(e);
            assertTrue(e.removeType(R.class));
            assertFalse(d.modifyEntity(stale), "already without R: nothing to do");
            assertEquals(new P(1), e.get(P.class));
            assertEquals(List.of(e), Dominions.entities(d.findEntitiesWith(P.class)));
            assertEquals(0, Dominions.count(d.findEntitiesWith(R.class)));
            Composition.Modifier afterDelete = d.composition().byAdding1AndRemoving(Q.class, P.class).withValue(e, new Q(1));
            assertTrue(d.deleteEntity(e));
            assertFalse(d.modifyEntity(afterDelete), "deleted in between: nothing moves");
            assertEquals(0, Dominions.count(d.findEntitiesWith(Q.class)));
            assertEquals(0, Dominions.count(d.findEntitiesWith(P.class)));
        }
    }

    /**
     * Compositions filling up on several threads at once make chunks at once. Upstream, and 0015, made
     * them holding only their own tenant's lock, so two could take one chunk number (the pool's
     * {@code ++chunkIndex}) or one could be lost while the chunk table grew; an entity's id then led to
     * another entity, or to none (here on 0015: a third of the rounds once the code is compiled, none
     * in the first). Every entity's id must lead back to it, in every round.
     */
    @Test
    void chunksMadeOnFourThreadsAtOnceEachHaveTheirOwnNumber() {
        for (int round = 0; round < 12; round++) {
            Dominion d = Dominions.createWithChunkBit("one-lock-chunks-" + round, SMALL_CHUNK_BIT);
            try {
                createOnFourThreadsAndFindEachById(d, round);
            } finally {
                d.close();
            }
        }
    }

    private static void createOnFourThreadsAndFindEachById(Dominion d, int round) {
        int each = 60_000; // 235 chunks a thread
        IntEntity[][] made = new IntEntity[THREADS][each];
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            List<Thread> running = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                IntFunction<Object> maker = TOGGLE_MAKERS.get(t);
                IntEntity[] mine = made[t];
                Thread worker = new Thread(() -> {
                    try {
                        for (int i = 0; i < each; i++) {
                            mine[i] = (IntEntity) d.createEntity(maker.apply(i));
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }, "creator-" + t);
                worker.setDaemon(true);
                running.add(worker);
            }
            running.forEach(Thread::start);
            for (Thread worker : running) {
                worker.join();
            }
        });
        assertTrue(failures.isEmpty(), () -> "round " + round + ": a creating thread failed: " + failures.peek());
        var pool = made[0][0].getComposition().getRepository().getPool();
        for (int t = 0; t < THREADS; t++) {
            for (int i = 0; i < each; i++) {
                IntEntity e = made[t][i];
                if (pool.getEntry(e.getId()) != e) {
                    fail("round " + round + ": the id of entity " + i + " of thread " + t + " leads to " + pool.getEntry(e.getId()));
                }
            }
            assertEquals(each, Dominions.count(d.findEntitiesWith(TOGGLED.get(t))), "round " + round);
        }
    }

    /** What one thread did to one entity, as the thread saw each change applied. */
    private static final class Model {
        final Map<Class<?>, Object> components = new HashMap<>();
        Mood state;
        boolean enabled = true;
        boolean deleted;
    }

    /** The shared entities: the keeper (index % THREADS) alone disables, enables, sets the state of and deletes one. */
    private static final class SharedModel {
        final Model[] kept = new Model[SHARED];
        /** [thread][entity]: the thread's toggled component on the entity, or null. */
        final Object[][] toggles = new Object[THREADS][SHARED];
    }

    @Test
    void changesOnFourThreadsKeepEveryEntityOnceWithItsOwnComponents() {
        Dominion d = Dominions.createWithChunkBit("one-lock-stress", SMALL_CHUNK_BIT);
        try {
            Entity[] shared = new Entity[SHARED];
            SharedModel sharedModel = new SharedModel();
            for (int i = 0; i < SHARED; i++) {
                shared[i] = d.createEntity(new Shared(i));
                sharedModel.kept[i] = new Model();
                sharedModel.kept[i].components.put(Shared.class, new Shared(i));
            }
            List<List<Entity>> own = new ArrayList<>();
            List<List<Model>> ownModels = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                own.add(new ArrayList<>());
                ownModels.add(new ArrayList<>());
            }
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
                List<Thread> running = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    Worker worker = new Worker(d, t, shared, sharedModel, own.get(t), ownModels.get(t));
                    Thread thread = new Thread(() -> {
                        try {
                            worker.run();
                        } catch (Throwable e) {
                            failures.add(e);
                        }
                    }, "changer-" + t);
                    thread.setDaemon(true); // if they deadlock, the timeout fails the test and the JVM may still exit
                    running.add(thread);
                }
                running.forEach(Thread::start);
                for (Thread thread : running) {
                    thread.join();
                }
            }, "the changing threads did not finish: deadlocked?");
            if (!failures.isEmpty()) {
                AssertionError error = new AssertionError("a changing thread failed: " + failures.peek(), failures.peek());
                failures.stream().skip(1).forEach(error::addSuppressed);
                throw error;
            }
            checkAgainstModels(d, shared, sharedModel, own, ownModels);
        } finally {
            d.close();
        }
    }

    private static final class Worker {
        private final Dominion d;
        private final int thread;
        private final Entity[] shared;
        private final SharedModel sharedModel;
        private final List<Entity> own;
        private final List<Model> models;
        private final Random random;
        private final Composition.ByAdding1AndRemoving<Q> pToQ;
        private final Composition.ByAdding1AndRemoving<P> qToP;
        private final Composition.ByAdding1AndRemoving<Object> addToggle;
        private final Composition.ByRemoving removeToggle;
        private final Class<?> toggled;
        private final IntFunction<Object> toggleMaker;
        private int next;

        @SuppressWarnings("unchecked")
        Worker(Dominion d, int thread, Entity[] shared, SharedModel sharedModel, List<Entity> own, List<Model> models) {
            this.d = d;
            this.thread = thread;
            this.shared = shared;
            this.sharedModel = sharedModel;
            this.own = own;
            this.models = models;
            this.random = new Random(1_000 + thread);
            pToQ = d.composition().byAdding1AndRemoving(Q.class, P.class);
            qToP = d.composition().byAdding1AndRemoving(P.class, Q.class);
            toggled = TOGGLED.get(thread);
            toggleMaker = TOGGLE_MAKERS.get(thread);
            addToggle = (Composition.ByAdding1AndRemoving<Object>) d.composition().byAdding1AndRemoving(toggled);
            removeToggle = d.composition().byRemoving(toggled);
        }

        private int value() {
            return (thread << 24) | next++;
        }

        void run() {
            for (int k = 0; k < 64; k++) {
                create();
            }
            for (int op = 0; op < OPERATIONS; op++) {
                int choice = random.nextInt(20);
                if (choice < 8) {
                    toggleShared(random.nextInt(SHARED));
                } else if (choice < 10) {
                    keepShared(random.nextInt(SHARED / THREADS) * THREADS + thread);
                } else if (choice == 10) {
                    create();
                } else {
                    changeOwn(random.nextInt(own.size()), choice);
                }
            }
        }

        /**
         * Threads 0 and 2 create their entities with P, 1 and 3 with Q, and each moves its own between
         * the two: threads moving entities from {P} to {Q} and from {Q} to {P} at once (patch 0014's deadlock).
         */
        private void create() {
            int v = value();
            Model m = new Model();
            Own id = new Own(thread, own.size());
            m.components.put(Own.class, id);
            Entity e;
            if (thread % 2 == 0) {
                e = d.createEntity(id, new P(v));
                m.components.put(P.class, new P(v));
            } else {
                e = d.createEntity(new Q(v), id);
                m.components.put(Q.class, new Q(v));
            }
            own.add(e);
            models.add(m);
        }

        private void changeOwn(int index, int choice) {
            Entity e = own.get(index);
            Model m = models.get(index);
            boolean live = m.enabled && !m.deleted;
            switch (choice) {
                case 11, 12, 13 -> { // P <-> Q, a prepared move (0013)
                    boolean toQ = m.components.containsKey(P.class);
                    Object added = toQ ? new Q(value()) : new P(value());
                    boolean moved = preparedMove(d, toQ ? pToQ : qToP, e, added);
                    assertEquals(live, moved, "prepared move of a " + (live ? "live" : "disabled or deleted") + " entity");
                    if (moved) {
                        m.components.remove(toQ ? P.class : Q.class);
                        m.components.put(added.getClass(), added);
                    }
                }
                case 14 -> { // P <-> Q, withValue then modifyEntity (withValue reads a deleted entity's composition: skip those)
                    if (m.deleted) {
                        return;
                    }
                    boolean toQ = m.components.containsKey(P.class);
                    Object added = toQ ? new Q(value()) : new P(value());
                    Composition.Modifier mod = toQ ? pToQ.withValue(e, (Q) added) : qToP.withValue(e, (P) added);
                    boolean moved = d.modifyEntity(mod);
                    assertEquals(live, moved, "modifyEntity of a " + (live ? "live" : "disabled") + " entity");
                    if (moved) {
                        m.components.remove(toQ ? P.class : Q.class);
                        m.components.put(added.getClass(), added);
                    }
                }
                case 15, 16 -> { // add or remove R
                    if (m.components.containsKey(R.class)) {
                        boolean removed = random.nextBoolean() ? e.removeType(R.class) : e.remove(m.components.get(R.class));
                        assertEquals(live, removed, "remove of a " + (live ? "live" : "disabled or deleted") + " entity");
                        if (removed) {
                            m.components.remove(R.class);
                        }
                    } else {
                        R r = new R(value());
                        e.add(r);
                        if (live) {
                            m.components.put(R.class, r);
                        }
                    }
                }
                case 17 -> { // a state, or none
                    Mood mood = m.state != null && random.nextInt(4) == 0 ? null : Mood.values()[random.nextInt(Mood.values().length)];
                    e.setState(mood);
                    if (live) {
                        m.state = mood;
                    }
                }
                case 18 -> { // disabled, enabled again
                    boolean enable = !m.enabled;
                    e.setEnabled(enable);
                    if (!m.deleted) {
                        m.enabled = enable;
                    }
                }
                default -> { // deleted, now and then
                    if (random.nextInt(8) == 0) {
                        assertEquals(!m.deleted, d.deleteEntity(e), "delete answers whether it deleted");
                        m.deleted = true;
                    }
                }
            }
        }

        /** This thread's own type on a shared entity, which any thread may be moving, disabling or deleting meanwhile. */
        private void toggleShared(int index) {
            Entity e = shared[index];
            Object present = sharedModel.toggles[thread][index];
            if (present != null) {
                boolean removed = switch (random.nextInt(3)) {
                    case 0 -> e.removeType(toggled);
                    case 1 -> e.remove(present);
                    default -> preparedMove(d, removeToggle, e);
                };
                if (removed) {
                    sharedModel.toggles[thread][index] = null;
                }
            } else {
                Object added = toggleMaker.apply(value());
                if (preparedMove(d, addToggle, e, added)) {
                    sharedModel.toggles[thread][index] = added;
                }
            }
        }

        /**
         * What the keeper of a shared entity alone does to it: its state, disabling, deleting, and its own
         * type through withValue, so the modifier is made while other threads move the entity.
         */
        private void keepShared(int index) {
            Entity e = shared[index];
            Model m = sharedModel.kept[index];
            if (m.deleted) {
                return;
            }
            int choice = random.nextInt(16);
            if (choice < 8) {
                Object present = sharedModel.toggles[thread][index];
                Composition.Modifier mod;
                Object added = null;
                if (present != null) {
                    mod = removeToggle.withValue(e);
                } else {
                    added = toggleMaker.apply(value());
                    mod = addToggle.withValue(e, added);
                }
                assertNotNull(mod, "the keeper knows whether its type is there");
                boolean moved = d.modifyEntity(mod);
                assertEquals(m.enabled, moved, "the keeper's modifyEntity on a " + (m.enabled ? "live" : "disabled") + " shared entity");
                if (moved) {
                    sharedModel.toggles[thread][index] = added;
                }
            } else if (choice < 12) {
                Mood mood = Mood.values()[random.nextInt(Mood.values().length)];
                e.setState(mood);
                if (m.enabled) {
                    m.state = mood;
                }
            } else if (choice < 15) {
                e.setEnabled(!m.enabled);
                m.enabled = !m.enabled;
            } else if (random.nextInt(8) == 0) {
                assertTrue(d.deleteEntity(e), "the keeper deletes it once");
                m.deleted = true;
            }
        }
    }

    private static void checkAgainstModels(Dominion d, Entity[] shared, SharedModel sharedModel,
                                           List<List<Entity>> own, List<List<Model>> ownModels) {
        Map<Class<?>, Map<Entity, Object>> expected = new HashMap<>();
        for (Class<?> type : TYPES) {
            expected.put(type, new IdentityHashMap<>());
        }
        Map<Mood, Set<Entity>> ownByState = new HashMap<>();
        Map<Mood, Set<Entity>> sharedByState = new HashMap<>();
        for (Mood mood : Mood.values()) {
            ownByState.put(mood, Collections.newSetFromMap(new IdentityHashMap<>()));
            sharedByState.put(mood, Collections.newSetFromMap(new IdentityHashMap<>()));
        }
        Set<Integer> ids = new HashSet<>();
        Set<Integer> stateIds = new HashSet<>();
        int live = 0;
        for (int t = 0; t < THREADS; t++) {
            for (int i = 0; i < own.get(t).size(); i++) {
                Entity e = own.get(t).get(i);
                Model m = ownModels.get(t).get(i);
                String who = "own entity " + i + " of thread " + t;
                live += checkEntity(who, e, m, m.components, expected, ownByState, ids, stateIds);
            }
        }
        for (int i = 0; i < SHARED; i++) {
            Model m = sharedModel.kept[i];
            Map<Class<?>, Object> components = new HashMap<>(m.components);
            for (int t = 0; t < THREADS; t++) {
                if (sharedModel.toggles[t][i] != null) {
                    components.put(TOGGLED.get(t), sharedModel.toggles[t][i]);
                }
            }
            live += checkEntity("shared entity " + i, shared[i], m, components, expected, sharedByState, ids, stateIds);
        }
        for (Class<?> type : TYPES) {
            Map<Entity, Object> found = new IdentityHashMap<>();
            for (Results.With1<?> r : d.findEntitiesWith(type)) {
                Object before = found.put(r.entity(), r.comp());
                assertNull(before, () -> r.entity() + " found twice by the query of " + type.getSimpleName());
            }
            assertSameEntries(type.getSimpleName(), expected.get(type), found);
        }
        for (Mood mood : Mood.values()) {
            assertSameEntities("Own in state " + mood, ownByState.get(mood), d.findEntitiesWith(Own.class).withState(mood));
            assertSameEntities("Shared in state " + mood, sharedByState.get(mood), d.findEntitiesWith(Shared.class).withState(mood));
        }
        assertEquals(live, Dominions.count(d.findAllEntities()), "findAllEntities lists each live entity once");
    }

    /** @return 1 if the entity is live and enabled, which its model then adds to what the queries must find */
    private static int checkEntity(String who, Entity e, Model m, Map<Class<?>, Object> components,
                                   Map<Class<?>, Map<Entity, Object>> expected, Map<Mood, Set<Entity>> byState,
                                   Set<Integer> ids, Set<Integer> stateIds) {
        assertEquals(m.deleted, e.isDeleted(), who + ": deleted");
        if (m.deleted) {
            return 0;
        }
        assertEquals(m.enabled, e.isEnabled(), who + ": enabled");
        for (Class<?> type : TYPES) {
            assertEquals(components.get(type), e.get(type), who + ": its own " + type.getSimpleName() + (m.enabled ? "" : " (disabled)"));
        }
        if (!m.enabled) {
            return 0;
        }
        IntEntity entity = (IntEntity) e;
        assertTrue(ids.add(entity.getId()), who + " shares its id with another entity");
        if (m.state != null) {
            assertTrue(stateIds.add(entity.getStateId()), who + " shares its state id with another entity");
            byState.get(m.state).add(e);
        }
        components.forEach((type, value) -> expected.get(type).put(e, value));
        return 1;
    }

    private static void assertSameEntries(String what, Map<Entity, Object> expected, Map<Entity, Object> found) {
        for (Map.Entry<Entity, Object> entry : expected.entrySet()) {
            if (!found.containsKey(entry.getKey())) {
                fail("the query of " + what + " misses " + entry.getKey() + ", which holds " + entry.getValue());
            }
            assertEquals(entry.getValue(), found.get(entry.getKey()), "the query of " + what + " gives the entity's own component");
        }
        for (Entity e : found.keySet()) {
            assertTrue(expected.containsKey(e), () -> "the query of " + what + " finds " + e + ", which should not be there");
        }
    }

    private static void assertSameEntities(String what, Set<Entity> expected, Results<? extends Results.With1<?>> results) {
        Set<Entity> found = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Results.With1<?> r : results) {
            assertTrue(found.add(r.entity()), () -> r.entity() + " found twice by the query of " + what);
        }
        assertEquals(expected.size(), found.size(), "the query of " + what + " finds as many entities as the models hold");
        assertTrue(found.containsAll(expected), "the query of " + what + " finds the entities of the models");
    }
}

package dev.enginestates.dominion;

import dev.dominion.ecs.api.Composition;
import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Random operations applied side by side to a Dominion and to a plain model of what each entity
 * holds; after every batch, every kind of query must find exactly what the model says: the same
 * entities, each once, with the same component values.
 */
class QueriesMatchAModelPropertyTest {

    // component values are unique within a run, so a value identifies one component
    record A(int v) {}
    record B(int v) {}
    record C(int v) {}
    record D(int v) {}
    record E(int v) {}
    record F(int v) {}
    record G(int v) {}
    record H(int v) {}

    private static final List<Class<?>> TYPES =
            List.of(A.class, B.class, C.class, D.class, E.class, F.class, G.class, H.class);
    private static final List<IntFunction<Object>> MAKERS =
            List.of(A::new, B::new, C::new, D::new, E::new, F::new, G::new, H::new);
    private static final int TYPE_COUNT = TYPES.size();

    /** The smallest chunk Dominion allows (256 entities): few entities already span many chunks. */
    private static final int SMALL_CHUNK_BIT = 8;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void smallRunsWithSmallChunksMatchTheModel(long seed) {
        play(new Run(seed, Dominions.createWithChunkBit("model-small-" + seed, SMALL_CHUNK_BIT)), run -> {
            for (int batch = 0; batch < 30; batch++) {
                if (batch % 5 == 4) {
                    // checked with chunks emptied, then again once new entities took freed ids
                    List<Class<?>> types = run.randomTypes(TYPE_COUNT);
                    run.burstThenDeleteItsMiddle(types, 2_000, 200);
                    run.checkEverything();
                    run.burst(types, 100);
                    run.checkEverything();
                }
                run.operations(1_000, batch < 10 ? Run.GROWING : Run.CHURNING);
                run.checkEverything();
            }
        });
    }

    @Test
    void aBigRunPastAHundredThousandEntitiesMatchesTheModel() {
        play(new Run(20_240_611L, new EntityRepository.Factory().create("model-big")), run -> {
            // 60,000 entities over up to 255 compositions, each created with its types in a random order
            run.operationsUntil(60_000, Run.GROWING);
            run.checkEverything();

            List<Class<?>> types = run.randomTypes(TYPE_COUNT);
            run.burstThenDeleteItsMiddle(types, 30_000, 2_000); // empties about 6 chunks of 4,096
            run.checkEverything();
            run.burst(types, 1_000); // on ids freed last-in-first-out, spread over those chunks
            run.checkEverything();

            run.operationsUntil(105_000, Run.GROWING);
            run.checkEverything();

            run.operations(60_000, Run.CHURNING);
            run.checkEverything();

            // most of everything goes, in random order, then the world fills up again
            run.deleteInRandomOrder(run.live.subList(0, run.live.size() * 4 / 5));
            run.checkEverything();
            run.operations(40_000, Run.GROWING);
            run.checkEverything();

            assertTrue(run.peak >= 100_000, "peak of live entities " + run.peak);
        });
    }

    /** Plays a scenario; an exception thrown by Dominion is reported with its seed and operation too. */
    private static void play(Run run, Consumer<Run> scenario) {
        try (run) {
            scenario.accept(run);
        } catch (RuntimeException e) {
            throw new AssertionError(run.where() + "Dominion threw " + e, e);
        }
    }

    private static String typeName(int type) {
        return TYPES.get(type).getSimpleName();
    }

    private static String typeNames(int... types) {
        return IntStream.of(types).mapToObj(QueriesMatchAModelPropertyTest::typeName).collect(Collectors.joining(", "));
    }

    /** What one live entity holds according to the model. */
    private static final class Tracked {
        final Entity entity;
        final int serial;
        final int createdAtOp;
        final Object[] held = new Object[TYPE_COUNT]; // by type index, null when not held
        boolean enabled = true;
        int slot;         // position in Run.live, for removal in constant time
        int lastQuery;    // the last query that found it: a second find by the same query is a duplicate

        Tracked(Entity entity, int serial, int createdAtOp) {
            this.entity = entity;
            this.serial = serial;
            this.createdAtOp = createdAtOp;
        }

        boolean holds(int type) {
            return held[type] != null;
        }

        @Override
        public String toString() {
            return "entity #" + serial + " (created at op " + createdAtOp + ", " + (enabled ? "enabled" : "disabled")
                    + ") holding " + Stream.of(held).filter(Objects::nonNull).toList();
        }
    }

    /** A query's result reduced to the entity (when the query gives one) and the components read. */
    private record Found(Entity entity, Object... components) {}

    private enum Op {
        CREATE, CREATE_PREPARED, DELETE, ADD, REMOVE_TYPE, MODIFY_ADD_AND_REMOVE, MODIFY_REMOVE, TOGGLE_ENABLED;

        static final Op[] ALL = values();
    }

    /** One Dominion, the model of it, and the random operations applied to both. */
    private static final class Run implements AutoCloseable {
        /** Weights of {@link Op}'s constants, in their order. */
        static final int[] GROWING = {40, 10, 10, 10, 8, 8, 6, 8};
        static final int[] CHURNING = {20, 5, 25, 12, 10, 10, 8, 10};

        final long seed;
        final Random random;
        final Dominion dominion;
        final List<Tracked> live = new ArrayList<>();
        final Map<Entity, Tracked> byEntity = new IdentityHashMap<>();
        final Map<List<Class<?>>, Composition.ByAdding1AndRemoving<Object>> addingAndRemoving = new HashMap<>();
        final Map<Class<?>, Composition.ByRemoving> removing = new HashMap<>();
        final Map<List<Class<?>>, Composition.OfTypes> prepared = new HashMap<>();
        int op;              // operations applied so far
        String lastOperation = "none";
        boolean checkingAll; // in checkEverything, rather than checking the last operation
        int nextValue;
        int serials;
        int queries;
        int peak;

        Run(long seed, Dominion dominion) {
            this.seed = seed;
            this.random = new Random(seed);
            this.dominion = dominion;
            // modifiers are prepared once and reused, as a game would
            for (Class<?> added : TYPES) {
                removing.put(added, dominion.composition().byRemoving(added));
                for (Class<?> removed : TYPES) {
                    if (added != removed) {
                        addingAndRemoving.put(List.of(added, removed),
                                dominion.composition().byAdding1AndRemoving(asObject(added), removed));
                    }
                }
            }
        }

        @SuppressWarnings("unchecked")
        private static Class<Object> asObject(Class<?> type) {
            return (Class<Object>) type;
        }

        @Override
        public void close() {
            dominion.close();
        }

        // ---- operations ----

        void operations(int count, int[] weights) {
            for (int i = 0; i < count; i++) {
                randomOperation(weights);
            }
        }

        void operationsUntil(int liveEntities, int[] weights) {
            while (live.size() < liveEntities) {
                randomOperation(weights);
            }
        }

        /**
         * Many entities of one composition, then the middle of them by creation order (so whole
         * chunks) deleted in random order: that composition's chunks empty out between chunks that
         * still hold entities.
         */
        void burstThenDeleteItsMiddle(List<Class<?>> types, int count, int keptAtEachEnd) {
            List<Tracked> burst = burst(types, count);
            deleteInRandomOrder(burst.subList(keptAtEachEnd, count - keptAtEachEnd));
        }

        /** Entities of one composition, each given its types in a new random order. */
        List<Tracked> burst(List<Class<?>> types, int count) {
            List<Tracked> burst = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                burst.add(create(shuffled(types)));
            }
            return burst;
        }

        void deleteInRandomOrder(List<Tracked> entities) {
            List<Tracked> order = new ArrayList<>(entities);
            Collections.shuffle(order, random);
            for (Tracked tracked : order) {
                if (byEntity.containsKey(tracked.entity)) {
                    delete(tracked);
                }
            }
        }

        private void randomOperation(int[] weights) {
            Op kind = pick(weights);
            if (kind == Op.CREATE || live.isEmpty()) {
                create(randomTypes(TYPE_COUNT));
            } else if (kind == Op.CREATE_PREPARED) {
                createPrepared(randomTypes(4));
            } else {
                Tracked tracked = live.get(random.nextInt(live.size()));
                if (kind == Op.DELETE) {
                    delete(tracked);
                } else if (kind == Op.TOGGLE_ENABLED || !tracked.enabled) {
                    // components are changed on enabled entities only: a disabled one is enabled instead
                    setEnabled(tracked, !tracked.enabled);
                } else {
                    change(tracked, kind);
                }
            }
        }

        private Op pick(int[] weights) {
            int roll = random.nextInt(IntStream.of(weights).sum());
            for (int i = 0; ; i++) {
                if ((roll -= weights[i]) < 0) {
                    return Op.ALL[i];
                }
            }
        }

        /** 1 to max distinct types, in a random order (Dominion sorts them into its composition's order). */
        private List<Class<?>> randomTypes(int max) {
            return shuffled(TYPES).subList(0, 1 + random.nextInt(max));
        }

        private List<Class<?>> shuffled(List<Class<?>> types) {
            List<Class<?>> copy = new ArrayList<>(types);
            Collections.shuffle(copy, random);
            return copy;
        }

        private Object newComponent(Class<?> type) {
            return MAKERS.get(TYPES.indexOf(type)).apply(nextValue++);
        }

        private Tracked create(List<Class<?>> types) {
            Object[] components = types.stream().map(this::newComponent).toArray();
            begin("createEntity" + List.of(components));
            // the array is given as a copy: Dominion sorts the array it is given in place
            Tracked tracked = track(dominion.createEntity(components.clone()), components);
            checkEntity(tracked);
            return tracked;
        }

        private void createPrepared(List<Class<?>> types) {
            Object[] c = types.stream().map(this::newComponent).toArray();
            begin("createPreparedEntity(of" + types.stream().map(Class::getSimpleName).toList() + " with " + List.of(c) + ")");
            Composition.OfTypes withValues = prepared(types, c);
            checkEntity(track(dominion.createPreparedEntity(withValues), c));
        }

        /** Prepared compositions are made once per order of types and reused. */
        @SuppressWarnings("unchecked")
        private Composition.OfTypes prepared(List<Class<?>> types, Object[] c) {
            Composition.OfTypes of = prepared.computeIfAbsent(List.copyOf(types), t -> switch (t.size()) {
                case 1 -> dominion.composition().of(asObject(t.get(0)));
                case 2 -> dominion.composition().of(asObject(t.get(0)), asObject(t.get(1)));
                case 3 -> dominion.composition().of(asObject(t.get(0)), asObject(t.get(1)), asObject(t.get(2)));
                case 4 -> dominion.composition().of(asObject(t.get(0)), asObject(t.get(1)), asObject(t.get(2)), asObject(t.get(3)));
                default -> throw new IllegalArgumentException(t.toString());
            });
            return switch (c.length) {
                case 1 -> ((Composition.Of1<Object>) of).withValue(c[0]);
                case 2 -> ((Composition.Of2<Object, Object>) of).withValue(c[0], c[1]);
                case 3 -> ((Composition.Of3<Object, Object, Object>) of).withValue(c[0], c[1], c[2]);
                default -> ((Composition.Of4<Object, Object, Object, Object>) of).withValue(c[0], c[1], c[2], c[3]);
            };
        }

        private Tracked track(Entity entity, Object[] components) {
            Tracked tracked = new Tracked(entity, ++serials, op);
            for (Object component : components) {
                tracked.held[TYPES.indexOf(component.getClass())] = component;
            }
            tracked.slot = live.size();
            live.add(tracked);
            byEntity.put(entity, tracked);
            peak = Math.max(peak, live.size());
            return tracked;
        }

        private void delete(Tracked tracked) {
            begin("deleteEntity(" + tracked + ")");
            boolean deleted = dominion.deleteEntity(tracked.entity);
            Tracked moved = live.remove(live.size() - 1);
            if (moved != tracked) {
                moved.slot = tracked.slot;
                live.set(tracked.slot, moved);
            }
            byEntity.remove(tracked.entity);
            check(deleted, () -> "deleteEntity returned false");
            check(tracked.entity.isDeleted(), () -> "isDeleted() is false after deleteEntity");
        }

        private void setEnabled(Tracked tracked, boolean enabled) {
            begin("setEnabled(" + enabled + ") on " + tracked);
            tracked.entity.setEnabled(enabled);
            tracked.enabled = enabled;
            checkEntity(tracked);
        }

        /** Adds and removes components; an added type is one the entity lacks, a removed one may be lacking. */
        private void change(Tracked tracked, Op kind) {
            Entity entity = tracked.entity;
            int added = randomTypeNotHeld(tracked);
            int removed = random.nextInt(TYPE_COUNT);
            if (added < 0 && (kind == Op.ADD || kind == Op.MODIFY_ADD_AND_REMOVE)) {
                kind = Op.REMOVE_TYPE; // it holds every type
            }
            switch (kind) {
                case ADD -> {
                    Object component = newComponent(TYPES.get(added));
                    begin("add(" + component + ") to " + tracked);
                    entity.add(component);
                    tracked.held[added] = component;
                }
                case REMOVE_TYPE -> {
                    begin("removeType(" + typeName(removed) + ") from " + tracked);
                    boolean done = entity.removeType(TYPES.get(removed));
                    check(done == tracked.holds(removed), () -> "removeType returned " + done);
                    tracked.held[removed] = null;
                }
                case MODIFY_ADD_AND_REMOVE -> {
                    int other = (added + 1 + random.nextInt(TYPE_COUNT - 1)) % TYPE_COUNT;
                    Object component = newComponent(TYPES.get(added));
                    begin("modifyEntity(byAdding1AndRemoving(" + typeNames(added, other) + ") with " + component + ") on " + tracked);
                    var modifier = addingAndRemoving.get(List.of(TYPES.get(added), TYPES.get(other)));
                    boolean done = dominion.modifyEntity(modifier.withValue(entity, component));
                    check(done, () -> "modifyEntity returned false");
                    tracked.held[other] = null;
                    tracked.held[added] = component;
                }
                case MODIFY_REMOVE -> {
                    begin("modifyEntity(byRemoving(" + typeName(removed) + ")) on " + tracked);
                    // the prepared modifier gives null when the entity lacks the type: nothing to do
                    boolean done = dominion.modifyEntity(removing.get(TYPES.get(removed)).withValue(entity));
                    check(done == tracked.holds(removed), () -> "modifyEntity returned " + done);
                    tracked.held[removed] = null;
                }
                default -> throw new IllegalArgumentException(kind.toString());
            }
            checkEntity(tracked);
        }

        private int randomTypeNotHeld(Tracked tracked) {
            int[] notHeld = IntStream.range(0, TYPE_COUNT).filter(t -> !tracked.holds(t)).toArray();
            return notHeld.length == 0 ? -1 : notHeld[random.nextInt(notHeld.length)];
        }

        private void begin(String operation) {
            op++;
            lastOperation = operation;
        }

        // ---- checks ----

        private String where() {
            return "seed " + seed + (checkingAll ? ", check after op " + op + " (last: " : ", op " + op + " (")
                    + lastOperation + "), " + live.size() + " live entities: ";
        }

        private void check(boolean ok, Supplier<String> message) {
            if (!ok) {
                fail(where() + message.get());
            }
        }

        /** Every query kind against the model, and every model entity's own components. */
        void checkEverything() {
            checkingAll = true;
            for (Tracked tracked : live) {
                checkEntity(tracked);
            }
            checkAllEntities();
            for (int x = 0; x < TYPE_COUNT; x++) {
                int a = x;
                Class<?> typeA = TYPES.get(a);
                checkQuery("findEntitiesWith(" + typeNames(a) + ")",
                        dominion.findEntitiesWith(typeA).stream().map(r -> new Found(r.entity(), r.comp())),
                        new int[]{a}, t -> t.holds(a));
                checkCompositionsWith(a);
                for (int b = a + 1; b < TYPE_COUNT; b++) {
                    int b1 = b;
                    checkQuery("findEntitiesWith(" + typeNames(a, b1) + ")",
                            dominion.findEntitiesWith(typeA, TYPES.get(b1)).stream().map(r -> new Found(r.entity(), r.comp1(), r.comp2())),
                            new int[]{a, b1}, t -> t.holds(a) && t.holds(b1));
                }
            }
            for (int i = 0; i < 8; i++) {
                int[] t3 = distinctTypes(3);
                checkQuery("findEntitiesWith(" + typeNames(t3) + ")",
                        dominion.findEntitiesWith(TYPES.get(t3[0]), TYPES.get(t3[1]), TYPES.get(t3[2])).stream()
                                .map(r -> new Found(r.entity(), r.comp1(), r.comp2(), r.comp3())),
                        t3, t -> t.holds(t3[0]) && t.holds(t3[1]) && t.holds(t3[2]));

                int[] also = distinctTypes(3);
                checkQuery("findEntitiesWith(" + typeNames(also[0]) + ").withAlso(" + typeNames(also[1], also[2]) + ")",
                        dominion.findEntitiesWith(TYPES.get(also[0])).withAlso(TYPES.get(also[1]), TYPES.get(also[2])).stream()
                                .map(r -> new Found(r.entity(), r.comp())),
                        new int[]{also[0]}, t -> t.holds(also[0]) && t.holds(also[1]) && t.holds(also[2]));

                int[] w = distinctTypes(3);
                checkQuery("findEntitiesWith(" + typeNames(w[0]) + ").without(" + typeNames(w[1]) + ")",
                        dominion.findEntitiesWith(TYPES.get(w[0])).without(TYPES.get(w[1])).stream()
                                .map(r -> new Found(r.entity(), r.comp())),
                        new int[]{w[0]}, t -> t.holds(w[0]) && !t.holds(w[1]));
                checkQuery("findEntitiesWith(" + typeNames(w[0], w[1]) + ").without(" + typeNames(w[2]) + ")",
                        dominion.findEntitiesWith(TYPES.get(w[0]), TYPES.get(w[1])).without(TYPES.get(w[2])).stream()
                                .map(r -> new Found(r.entity(), r.comp1(), r.comp2())),
                        new int[]{w[0], w[1]}, t -> t.holds(w[0]) && t.holds(w[1]) && !t.holds(w[2]));
            }
            checkingAll = false;
        }

        private int[] distinctTypes(int count) {
            return shuffled(TYPES).subList(0, count).stream().mapToInt(TYPES::indexOf).toArray();
        }

        /** What the entity itself answers: enabled or not, and for every type has(), get() and contains(). */
        private void checkEntity(Tracked tracked) {
            Entity entity = tracked.entity;
            check(!entity.isDeleted(), () -> tracked + ": isDeleted() is true");
            check(entity.isEnabled() == tracked.enabled, () -> tracked + ": isEnabled() is " + entity.isEnabled());
            for (int type = 0; type < TYPE_COUNT; type++) {
                Class<?> typeClass = TYPES.get(type);
                Object got = entity.get(typeClass);
                boolean has = entity.has(typeClass);
                int t = type;
                check(Objects.equals(got, tracked.held[type]), () -> tracked + ": get(" + typeName(t) + ") gave " + got);
                check(has == tracked.holds(type), () -> tracked + ": has(" + typeName(t) + ") is " + has);
                check(!tracked.holds(type) || entity.contains(tracked.held[type]),
                        () -> tracked + ": contains(" + tracked.held[t] + ") is false");
            }
        }

        /**
         * Each result must be an enabled live entity the query selects, found once, with the
         * model's components for the types read; and every such entity must be found.
         */
        private void checkQuery(String query, Stream<Found> results, int[] read, Predicate<Tracked> selects) {
            int stamp = ++queries;
            int count = 0;
            for (Iterator<Found> it = results.iterator(); it.hasNext(); ) {
                Found found = it.next();
                Tracked tracked = byEntity.get(found.entity());
                check(tracked != null, () -> query + " found an entity the model does not hold (isDeleted() "
                        + found.entity().isDeleted() + ") with " + List.of(found.components()));
                check(tracked.enabled, () -> query + " found disabled " + tracked);
                check(selects.test(tracked), () -> query + " found " + tracked);
                check(tracked.lastQuery != stamp, () -> query + " found twice " + tracked);
                tracked.lastQuery = stamp;
                count++;
                for (int i = 0; i < read.length; i++) {
                    int r = i;
                    check(Objects.equals(found.components()[i], tracked.held[read[i]]),
                            () -> query + " gave " + found.components()[r] + " as " + typeName(read[r]) + " of " + tracked);
                }
            }
            checkNoneMissing(query, stamp, count, selects);
        }

        private void checkCompositionsWith(int type) {
            String query = "findCompositionsWith(" + typeName(type) + ")";
            Map<Object, Tracked> expected = new HashMap<>();
            for (Tracked tracked : live) {
                if (tracked.enabled && tracked.holds(type)) {
                    expected.put(tracked.held[type], tracked);
                }
            }
            int stamp = ++queries;
            int count = 0;
            for (Object component : dominion.findCompositionsWith(TYPES.get(type))) {
                Tracked tracked = expected.get(component);
                check(tracked != null, () -> query + " found " + component + ", which no enabled entity holds"
                        + live.stream().filter(t -> component.equals(t.held[type])).map(t -> " (" + t + " does)").findAny().orElse(""));
                check(tracked.lastQuery != stamp, () -> query + " found twice " + component + " of " + tracked);
                tracked.lastQuery = stamp;
                count++;
            }
            checkNoneMissing(query, stamp, count, t -> t.holds(type));
        }

        private void checkAllEntities() {
            String query = "findAllEntities()";
            int stamp = ++queries;
            int count = 0;
            for (Entity entity : dominion.findAllEntities()) {
                Tracked tracked = byEntity.get(entity);
                check(tracked != null, () -> query + " found an entity the model does not hold (isDeleted() " + entity.isDeleted() + ")");
                check(tracked.enabled, () -> query + " found disabled " + tracked);
                check(tracked.lastQuery != stamp, () -> query + " found twice " + tracked);
                tracked.lastQuery = stamp;
                count++;
            }
            checkNoneMissing(query, stamp, count, t -> true);
        }

        private void checkNoneMissing(String query, int stamp, int count, Predicate<Tracked> selects) {
            List<Tracked> missing = live.stream()
                    .filter(t -> t.enabled && selects.test(t) && t.lastQuery != stamp)
                    .toList();
            check(missing.isEmpty(), () -> query + " found " + count + " entities and missed " + missing.size()
                    + ", e.g. " + missing.subList(0, Math.min(3, missing.size())));
        }
    }
}

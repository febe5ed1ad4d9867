package dev.enginestates.dominion;

import dev.dominion.ecs.api.Composition;
import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.dominion.Dominions.A;
import dev.enginestates.dominion.Dominions.B;
import dev.enginestates.dominion.Dominions.C;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Patch 0018: moving an entity from one composition to another writes no reference into the
 * entity (its chunk is found from its id), so under G1 a move of an old entity dirties no card
 * of its own: at 100,000 tagged machines those cards, refined by a concurrent thread, were most of
 * what a state change cost beyond its cost at 1,000 (bench/README.md). What the world relies on
 * besides: the entity still reads its own components through every move, disable, enable and
 * delete, and readers on another thread find entities while the chunk table grows.
 */
class MovesWriteNoReferenceIntoTheEntityTest {

    /** The entity's reference fields, read by reflection, in declaration order. */
    private static List<Object> referenceFields(Entity e) {
        List<Object> values = new ArrayList<>();
        for (Field f : e.getClass().getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) {
                continue;
            }
            f.setAccessible(true);
            try {
                values.add(f.get(e));
            } catch (IllegalAccessException x) {
                throw new IllegalStateException(x);
            }
        }
        return values;
    }

    private static void assertSameReferences(List<Object> before, List<Object> after, String move) {
        assertEquals(before.size(), after.size());
        for (int i = 0; i < before.size(); i++) {
            assertSame(before.get(i), after.get(i), move + " wrote reference field " + i + " of the entity (upstream: its chunk)");
        }
    }

    @Test
    void aMoveToAnotherCompositionWritesNoReferenceIntoTheEntity() {
        try (Dominions.Closing d = Dominions.create("no-reference")) {
            Entity e = d.createEntity(new A(1));
            d.createEntity(new A(2), new B(2)); // the compositions the moves go to exist already
            List<Object> before = referenceFields(e);
            e.add(new B(1));
            assertSameReferences(before, referenceFields(e), "add");
            e.removeType(B.class);
            assertSameReferences(before, referenceFields(e), "remove");
            Composition.Modifier toAC = d.composition().byAdding1AndRemoving(C.class);
            Dominions.preparedMove(d.real(), toAC, e, new C(1));
            assertSameReferences(before, referenceFields(e), "a prepared move");
            assertEquals(new A(1), e.get(A.class));
            assertEquals(new C(1), e.get(C.class));
            assertFalse(e.has(B.class));
        }
    }

    @Test
    void chunkNumbersNameTheChunkAnEntityIsIn() {
        Dominion raw = Dominions.createWithChunkBit("chunk-numbers", 8); // 256 entities a chunk
        try {
            List<Entity> as = new ArrayList<>();
            for (int i = 0; i < 600; i++) {
                as.add(raw.createEntity(new A(i)));
            }
            assertEquals(3, as.stream().mapToInt(Dominions::chunkNumber).distinct().count(), "600 entities in chunks of 256");
            Entity e = as.get(0);
            int first = Dominions.chunkNumber(e);
            e.add(new B(0));
            assertNotEquals(first, Dominions.chunkNumber(e), "another composition, another chunk");
            assertTrue(Dominions.chunkNumber(e) >= 0);
            e.removeType(B.class);
            assertEquals(first, Dominions.chunkNumber(e), "back among the other A entities, in the chunk whose slot it freed");
            e.setEnabled(false);
            int shelved = Dominions.chunkNumber(e);
            assertTrue(shelved >= 0, "a disabled entity keeps the number of the chunk it left");
            raw.createEntity(new A(1000)); // may take the disabled entity's slot
            assertEquals(shelved, Dominions.chunkNumber(e));
            assertEquals(new A(0), e.get(A.class), "a disabled entity reads its own components, not the slot's new owner's");
            e.setEnabled(true);
            assertEquals(new A(0), e.get(A.class));
            raw.deleteEntity(e);
            assertEquals(-1, Dominions.chunkNumber(e), "deleted");
            assertNull(e.get(A.class));
            assertFalse(e.has(A.class));
        } finally {
            raw.close();
        }
    }

    @Test
    void entitiesReadTheirOwnComponentsThroughRandomMovesDisablesAndDeletes() {
        Dominion raw = Dominions.createWithChunkBit("random-moves", 8);
        try {
            Random random = new Random(18);
            List<Entity> live = new ArrayList<>();
            List<Integer> values = new ArrayList<>();
            List<Entity> deleted = new ArrayList<>();
            for (int round = 0; round < 20_000; round++) {
                int op = random.nextInt(10);
                if (live.isEmpty() || op < 3) {
                    live.add(raw.createEntity(new A(round)));
                    values.add(round);
                    continue;
                }
                int k = random.nextInt(live.size());
                Entity e = live.get(k);
                switch (op) {
                    case 3, 4 -> {
                        if (e.has(B.class)) {
                            e.removeType(B.class);
                        } else {
                            e.add(new B(values.get(k)));
                        }
                    }
                    case 5 -> e.setEnabled(!e.isEnabled());
                    case 6 -> {
                        raw.deleteEntity(e);
                        deleted.add(e);
                        live.remove(k);
                        values.remove(k);
                    }
                    default -> {
                        if (e.has(C.class)) {
                            e.removeType(C.class);
                        } else {
                            e.add(new C(values.get(k)));
                        }
                    }
                }
            }
            for (int k = 0; k < live.size(); k++) {
                Entity e = live.get(k);
                int v = values.get(k);
                assertEquals(new A(v), e.get(A.class), "entity " + k);
                if (e.has(B.class)) {
                    assertEquals(new B(v), e.get(B.class));
                }
                if (e.has(C.class)) {
                    assertEquals(new C(v), e.get(C.class));
                }
            }
            long enabled = live.stream().filter(Entity::isEnabled).count();
            assertEquals(enabled, Dominions.count(raw.findEntitiesWith(A.class)), "every enabled entity found once");
            for (Entity e : deleted) {
                assertTrue(e.isDeleted());
                assertNull(e.get(A.class));
            }
        } finally {
            raw.close();
        }
    }

    @Test
    void aReaderOnAnotherThreadFindsEntitiesWhileTheChunkTableGrows() throws InterruptedException {
        Dominion raw = Dominions.createWithChunkBit("growing-table", 8); // a new chunk every 256 entities: the table grows 16, 32, ...
        try {
            AtomicReference<Entity> latest = new AtomicReference<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            int n = 60_000;
            Thread reader = new Thread(() -> {
                try {
                    int seen = 0;
                    int rounds = 0;
                    while (seen < n - 1) {
                        Entity e = latest.get();
                        if (e == null) {
                            continue;
                        }
                        A a = e.get(A.class);
                        if (a == null) {
                            throw new AssertionError("a live entity read no A: " + e);
                        }
                        seen = Math.max(seen, a.v());
                        if (++rounds % 64 == 0) {
                            int found = 0;
                            for (Object ignored : raw.findAllEntities()) { // walks the chunk table as it grows
                                found++;
                            }
                            if (found < a.v()) {
                                throw new AssertionError("all entities: " + found + ", but entity " + a.v() + " was made");
                            }
                        }
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            reader.start();
            for (int i = 0; i < n; i++) {
                latest.set(raw.createEntity(new A(i)));
            }
            reader.join(60_000);
            assertFalse(reader.isAlive(), "the reader saw the last entity");
            assertNull(failure.get(), () -> "the reader failed: " + failure.get());
        } finally {
            raw.close();
        }
    }
}

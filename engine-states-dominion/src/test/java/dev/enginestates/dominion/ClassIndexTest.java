package dev.enginestates.dominion;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.dominion.Dominions.A;
import dev.enginestates.dominion.system.ClassIndex;
import dev.enginestates.dominion.system.IndexKey;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Patch 0005: the class index tells every class apart. Upstream found a class by a slot taken
 * from the top bits of its identity hash and did not check whose slot it was.
 */
class ClassIndexTest {

    @Test
    void twoClassesSharingAHashSlotAreNotTakenForOneAnother() {
        Class<?>[] pair = twoClassesInOneSlot(new ClassIndex().getHashBit());
        Class<?> held = pair[0];
        Class<?> other = pair[1];
        try (Dominions.Closing d = Dominions.create("collision")) {
            Entity e = d.createEntity(new A(1), Dominions.instanceOf(held));
            assertEquals(0, Dominions.count(d.findEntitiesWith(other)),
                    "upstream finds the entity holding " + held.getName() + " when asked for " + other.getName());
            assertFalse(e.has(other));
            assertNull(e.get(other));
            assertTrue(e.has(held));
        }
    }

    @Test
    void compositionKeysWithTheSameHashAndLowBytesAreDifferentKeys() {
        // two sets of class indexes above 255 whose hash codes and per-index bytes agree
        int[][] pair = keysAgreeingInHashAndBytes();
        IndexKey one = new IndexKey(pair[0]);
        IndexKey two = new IndexKey(pair[1]);
        assertEquals(one.hashCode(), two.hashCode());
        assertNotEquals(one, two, "upstream compares one byte per index: " + java.util.Arrays.toString(pair[0])
                + " and " + java.util.Arrays.toString(pair[1]) + " were one key");
        assertNotEquals(new IndexKey(3), new IndexKey(300));
    }

    /** Two run-time classes whose identity hashes fall in one slot of a class index with hashBit bits. */
    private static Class<?>[] twoClassesInOneSlot(int hashBit) {
        Map<Integer, Class<?>> bySlot = new HashMap<>();
        for (int i = 0; i < 1_000_000; i++) {
            Class<?> c = Dominions.newComponentClass();
            Class<?> before = bySlot.putIfAbsent(System.identityHashCode(c) >> (32 - hashBit), c);
            if (before != null) {
                return new Class<?>[]{before, c};
            }
        }
        throw new AssertionError("no two of 1,000,000 classes share a slot");
    }

    private static int[][] keysAgreeingInHashAndBytes() {
        // hash of {a, b} is 31 * (31 + a) + b; byte of i is (byte) (i ^ (i >>> 8))
        for (int a = 256; a < 4096; a++) {
            for (int c = a + 1; c < 4096; c++) {
                if ((byte) (a ^ (a >>> 8)) != (byte) (c ^ (c >>> 8))) {
                    continue;
                }
                int b = 31 * (c - a) + 5000; // then d = b - 31 * (c - a) keeps the hash
                int d = b - 31 * (c - a);
                if (b > a && d > c && (byte) (b ^ (b >>> 8)) == (byte) (d ^ (d >>> 8))) {
                    return new int[][]{{a, b}, {c, d}};
                }
            }
        }
        throw new AssertionError("no pair found");
    }
}

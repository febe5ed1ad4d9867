package dev.enginestates.dominion;

import dev.enginestates.dominion.Dominions.A;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Patch 0004: a JVM makes as many Dominions as it likes. Upstream took a slot of a static
 * 1,024-entry logging array per Dominion and never gave it back: the 1,024th threw, closed or not.
 */
class ManyDominionsTest {

    @Test
    void tenThousandDominionsCreatedAndClosedInOneJvm() {
        int made = 0;
        for (int i = 0; i < 10_000; i++) {
            try (Dominions.Closing d = Dominions.create("room-" + i)) {
                d.createEntity(new A(i));
                assertEquals(1, Dominions.count(d.findEntitiesWith(A.class)));
                made++;
            }
        }
        assertEquals(10_000, made);
    }
}

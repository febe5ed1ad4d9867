package dev.enginestates.dominion;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.dominion.Dominions.A;
import dev.enginestates.dominion.Dominions.B;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Patch 0006: a disabled entity keeps its own components, and deleting it deletes nothing else.
 * Upstream gave its slot back to the chunk but kept pointing at it, where another entity then sat.
 */
class DisabledEntitiesTest {

    @Test
    void aDisabledEntityReadsItsOwnComponents() {
        try (Dominions.Closing d = Dominions.create("disabled-read")) {
            Entity first = d.createEntity(new A(1), new B(1));
            d.createEntity(new A(2), new B(2)); // the chunk's last entity moves into first's slot
            first.setEnabled(false);
            assertEquals(new A(1), first.get(A.class), "upstream reads the entity that took the slot");
            assertTrue(first.has(B.class));
            assertEquals(1, Dominions.count(d.findEntitiesWith(A.class)), "a disabled entity is found by no query");
            first.setEnabled(true);
            assertEquals(2, Dominions.count(d.findEntitiesWith(A.class)));
            assertEquals(new A(1), first.get(A.class));
        }
    }

    @Test
    void deletingADisabledEntityDeletesNothingElse() {
        try (Dominions.Closing d = Dominions.create("disabled-delete")) {
            Entity first = d.createEntity(new A(1), new B(1));
            Entity second = d.createEntity(new A(2), new B(2));
            first.setEnabled(false);
            d.deleteEntity(first);
            assertTrue(first.isDeleted());
            assertFalse(second.isDeleted());
            assertEquals(List.of(second), Dominions.entities(d.findEntitiesWith(A.class)), "upstream deletes the second entity's data");
            assertEquals(new A(2), second.get(A.class));
            assertEquals(new B(2), second.get(B.class));
        }
    }
}

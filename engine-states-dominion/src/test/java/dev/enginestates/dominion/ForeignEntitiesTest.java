package dev.enginestates.dominion;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.dominion.Dominions.A;
import dev.enginestates.dominion.Dominions.B;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Patch 0010: a Dominion refuses another Dominion's entities. Upstream deleted the entity from
 * its own Dominion, or moved it into this one's compositions, where no query found it again.
 */
class ForeignEntitiesTest {

    @Test
    void deletingAnotherDominionsEntityIsRefusedAndChangesNothing() {
        try (Dominions.Closing mine = Dominions.create("mine"); Dominions.Closing theirs = Dominions.create("theirs")) {
            Entity e = theirs.createEntity(new A(1));
            assertThrows(IllegalArgumentException.class, () -> mine.deleteEntity(e));
            assertFalse(e.isDeleted(), "upstream deletes it from its own Dominion");
            assertEquals(List.of(e), Dominions.entities(theirs.findEntitiesWith(A.class)));
        }
    }

    @Test
    void movingAnotherDominionsEntityIsRefusedAndChangesNothing() {
        try (Dominions.Closing mine = Dominions.create("mine"); Dominions.Closing theirs = Dominions.create("theirs")) {
            mine.createEntity(new A(0), new B(0)); // so the move has a composition to go to here
            Entity e = theirs.createEntity(new A(1));
            assertThrows(IllegalArgumentException.class,
                    () -> mine.modifyEntity(mine.composition().byAdding1AndRemoving(B.class).withValue(e, new B(1))));
            assertEquals(List.of(e), Dominions.entities(theirs.findEntitiesWith(A.class)), "upstream loses it from its own queries");
            assertFalse(e.has(B.class));
        }
    }
}

package dev.enginestates.dominion;

import dev.dominion.ecs.api.Entity;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Patch 0017: {@code setState(null)} clears an entity's state, and on an entity that has none it
 * does nothing (upstream threw a NullPointerException from inside Dominion). Clearing a state
 * that was set still takes the entity out of that state's query.
 */
class ClearingAStateNeverSetTest {
    enum Mood { CALM, ANGRY }

    @Test
    void clearingAStateNeverSetIsANoOp() {
        try (Dominions.Closing d = Dominions.create("states")) {
            Entity e = d.createEntity(new Dominions.A(1));
            assertSame(e, e.setState(null));
            assertEquals(1, d.findEntitiesWith(Dominions.A.class).stream().count(), "the entity is still found once");
            assertEquals(1, d.findEntitiesWith(Dominions.A.class).stream().findFirst().orElseThrow().comp().v());
        }
    }

    @Test
    void clearingAStateSetTakesTheEntityOutOfItsQueryAndASecondClearDoesNothing() {
        try (Dominions.Closing d = Dominions.create("states")) {
            Entity calm = d.createEntity(new Dominions.A(1)).setState(Mood.CALM);
            Entity angry = d.createEntity(new Dominions.A(2)).setState(Mood.ANGRY);
            calm.setState(null);
            calm.setState(null);
            assertEquals(0, d.findEntitiesWith(Dominions.A.class).withState(Mood.CALM).stream().count());
            assertEquals(1, d.findEntitiesWith(Dominions.A.class).withState(Mood.ANGRY).stream().count());
            assertTrue(d.findEntitiesWith(Dominions.A.class).withState(Mood.ANGRY).stream().allMatch(r -> r.entity() == angry));
            calm.setState(Mood.ANGRY);
            assertEquals(2, d.findEntitiesWith(Dominions.A.class).withState(Mood.ANGRY).stream().count(), "a state set again after a clear");
        }
    }
}

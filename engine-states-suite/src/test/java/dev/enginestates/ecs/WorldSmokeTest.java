package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Fixtures;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WorldSmokeTest {
    static final class G {
    }

    static final States<G> GUARD = States.define("guard", G::new, Fixtures.guard());

    @Test
    void smoke() {
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            assertTrue(g.has(GUARD.is("patrol")));
            assertTrue(g.has(GUARD.is("patrol.watch")));
            assertEquals(1, world.query(GUARD.is("patrol.watch")).count());
            for (int i = 0; i < 180; i++) {
                world.step(1.0 / 60);
            }
            assertEquals(1.0, GUARD.read(g).secondsLeft(), 1e-9);
            assertTrue(GUARD.send(g, "BELL"));
            assertTrue(g.has(GUARD.is("answer")));
            assertFalse(g.has(GUARD.is("patrol")));
            world.step(1.0 / 60);
            assertTrue(GUARD.send(g, "RESUME"));
            assertTrue(GUARD.read(g).matches("patrol.watch"));
            assertEquals(1.0, GUARD.read(g).secondsLeft(), 1e-9);
            for (int i = 0; i < 60; i++) {
                world.step(1.0 / 60);
            }
            assertTrue(GUARD.read(g).matches("patrol.rest"), GUARD.read(g).toString());
            assertTrue(g.has(GUARD.is("patrol.rest")));
            assertEquals(1, world.query(GUARD.is("patrol")).without(GUARD.is("patrol.watch")).count());
        }
    }
}

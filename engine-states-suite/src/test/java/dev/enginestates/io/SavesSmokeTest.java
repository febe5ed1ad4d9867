package dev.enginestates.io;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Fixtures;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.MachinePaused;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A first end-to-end pass: checkpoint, restore, continue side by side, replay. */
class SavesSmokeTest {
    public static final class G {
        public int bells;
    }

    static final States<G> GUARD = States.define("guardIo", G::new, Fixtures.<G>guard()
            .answer(s -> s.entry((g, e) -> g.bells++)));

    @Test
    void smoke() {
        Saves saves = Saves.of(GUARD);
        StateWorld a = StateWorld.create();
        Entity g1 = a.spawn(EntityKey.of("g1"), GUARD.trait());
        Entity g2 = a.spawn(EntityKey.of("g2"), GUARD.trait());
        for (int i = 0; i < 180; i++) {
            a.step(1.0 / 60);
        }
        GUARD.send(g1, "BELL");
        g2.add(MachinePaused.INSTANCE);
        a.step(1.0 / 60);
        String c1 = saves.checkpoint(a);
        StateWorld b = StateWorld.create();
        saves.restoreSpawningMissing(b, c1);
        String c2 = saves.checkpoint(b);
        assertEquals(c1, c2);
        b.entity("g2").add(MachinePaused.INSTANCE);
        InputLog log = InputLog.start(saves, a);
        for (int i = 0; i < 100; i++) {
            a.step(1.0 / 60);
            b.step(1.0 / 60);
        }
        GUARD.send(g1, "RESUME");
        GUARD.send(b.entity("g1"), "RESUME");
        for (int i = 0; i < 100; i++) {
            a.step(1.0 / 60);
            b.step(1.0 / 60);
        }
        assertEquals(saves.checkpoint(a), saves.checkpoint(b));
        assertEquals(saves.dump(a), saves.dump(b));
        StateWorld c = StateWorld.create();
        InputLog.replay(saves, c, log.text());
        assertTrue(log.size() > 200);
    }
}

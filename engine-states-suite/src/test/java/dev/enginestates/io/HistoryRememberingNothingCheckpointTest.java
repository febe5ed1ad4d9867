package dev.enginestates.io;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A transition whose only target is a history state that remembers nothing has no effective
 * target: XState 5.33.3 leaves every state below its source (its domain) and enters nothing, so
 * the source stays active with nothing below it (checked against XState with the same machine:
 * {@code k1} active, {@code k1.c} left, value still {@code {k2: {k0: a, k1: c, k3: e}}} through its
 * completion). The engine does the same; its checkpoint of that configuration must restore, and
 * the same shape anywhere no such transition can leave it must still be refused.
 */
class HistoryRememberingNothingCheckpointTest {
    public static final class Go {
        public int go;
    }

    /** A parallel state {@code k2} whose region {@code k1} has a when rule to its own deep history, and {@code k2} one to {@code out}'s. */
    static final States<Go> EMPTIED = States.define("cfg-emptied", Go::new, m -> m
            .initial("k2")
            .state("k2", k2 -> k2.parallel()
                    .state("k0", r -> r.initial("a").state("a").state("b"))
                    .state("k1", r -> r.initial("c").state("c").state("d")
                            .history("h", h -> h.id("h").depth(HistoryDepth.DEEP))
                            .when(g -> g.go == 1, "#h"))
                    .state("k3", r -> r.initial("e").state("e").state("f"))
                    .when(g -> g.go == 2, "#ho"))
            .state("out", o -> o.initial("p").state("p").state("q").history("ho", h -> h.id("ho").depth(HistoryDepth.DEEP))));

    static final Saves SAVES = Saves.of(EMPTIED);

    /** The world's checkpoint after its first step, with the given history remembering nothing. */
    static String rememberingNothing(String history) {
        try (StateWorld a = StateWorld.create()) {
            a.spawn(EntityKey.of("x"), EMPTIED.trait());
            a.step(1 / 60.0);
            String text = SAVES.checkpoint(a);
            String patched = text.replaceFirst("\"history\" : \\{ *\\}", "\"history\" : { \"" + history + "\" : [ ] }");
            assertTrue(!patched.equals(text), "the checkpoint has an empty history object to fill: " + text);
            return patched;
        }
    }

    /** Restores, sets go, steps once (the when rule moves), and returns the world's checkpoint. */
    static String stepFrom(String text, int go) {
        try (StateWorld b = StateWorld.create()) {
            SAVES.restoreSpawningMissing(b, text);
            Entity e = b.entity("x");
            EMPTIED.read(e).context().go = go;
            b.step(1 / 60.0);
            return SAVES.checkpoint(b);
        }
    }

    static void assertRestoresByteIdentical(String text) {
        try (StateWorld c = StateWorld.create()) {
            SAVES.restoreSpawningMissing(c, text); // refused before the fix: no active state below 'k2.k1' / in region 'k2.k0'
            assertEquals(text, SAVES.checkpoint(c));
        }
    }

    @Test
    void aRegionLeftEmptyByItsTransitionToAHistoryThatRemembersNothingRestores() {
        String after = stepFrom(rememberingNothing("k2.k1.h"), 1);
        assertTrue(after.contains("\"k2.k1\"") && !after.contains("\"k2.k1.c\""), after);
        assertRestoresByteIdentical(after);
    }

    @Test
    void aParallelStateLeftWithoutRegionsByItsTransitionToAHistoryThatRemembersNothingRestores() {
        String after = stepFrom(rememberingNothing("out.ho"), 2);
        assertTrue(after.contains("\"k2\"") && !after.contains("\"k2.k0\""), after);
        assertRestoresByteIdentical(after);
    }

    @Test
    void aStateLeftEmptyWhereNoTransitionToAHistoryCanEmptyItIsStillRefused() {
        String after = stepFrom(rememberingNothing("k2.k1.h"), 1);
        // k2.k0 has no transition to a history: its emptiness is no configuration the engine can reach
        String forged = after.replace("\"k2.k0.a\", ", "").replace(", \"k2.k0.a\"", "");
        assertTrue(!forged.equals(after), after);
        try (StateWorld c = StateWorld.create()) {
            CheckpointException e = assertThrows(CheckpointException.class, () -> SAVES.restoreSpawningMissing(c, forged));
            assertTrue(e.getMessage().contains("machine 'cfg-emptied'") && e.getMessage().contains("'k2.k0'")
                    && e.getMessage().contains("x"), e.getMessage());
        }
    }
}

package dev.enginestates.io;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A server restarting restores its last checkpoint into a fresh world, which has none of the
 * checkpoint's entities. A plain restore refuses that, and its refusal must lead with the cause
 * (how many entities the world lacks, of how many) and the method that spawns them, list only a
 * few of the keys, and change nothing.
 */
class RestoreIntoAFreshWorldTest {
    public static final class Guard {
        public int alarms;
    }

    static final States<Guard> GUARD = States.define("fresh-guard", Guard::new, m -> m
            .initial("patrol")
            .state("patrol", s -> s.on("ALARM", "alert"))
            .state("alert", s -> s.waitFor(5, "patrol")));

    static final Saves SAVES = Saves.of(GUARD);

    /** A world of {@code guards} keyed guards, every other one alerted, a second in. */
    private static String checkpointOf(int guards) {
        try (StateWorld w = StateWorld.create("before-the-restart")) {
            for (int i = 0; i < guards; i++) {
                Entity g = w.spawn(EntityKey.of("guard-" + i), GUARD.trait());
                if (i % 2 == 0) {
                    GUARD.send(g, "ALARM");
                }
            }
            w.step(1.0);
            return SAVES.checkpoint(w);
        }
    }

    /** What a refused restore must leave as it was. */
    private record Picture(String dump, String checkpoint, int entities, double time, long steps) {
        static Picture of(StateWorld w) {
            return new Picture(SAVES.dump(w), SAVES.checkpoint(w), w.dominion().findAllEntities().stream().mapToInt(x -> 1).sum(),
                    w.time(), w.steps());
        }
    }

    @Test
    void aPlainRestoreIntoAFreshWorldSaysFirstThatTheWorldLacksTheEntitiesAndNamesRestoreSpawningMissing() {
        String checkpoint = checkpointOf(1_001);
        try (StateWorld fresh = StateWorld.create("after-the-restart")) {
            Picture before = Picture.of(fresh);
            CheckpointException e = assertThrows(CheckpointException.class, () -> SAVES.restore(fresh, checkpoint));

            String first = e.getMessage().lines().findFirst().orElse("");
            assertTrue(first.startsWith("the checkpoint cannot be restored: the world lacks 1001 of its 1001 entities."), first);
            assertTrue(first.contains("Saves.restoreSpawningMissing(StateWorld world, String checkpoint)"), first);
            assertTrue(first.contains("The world is unchanged"), first);
            assertDoesNotThrow(() -> Saves.class.getMethod("restoreSpawningMissing", StateWorld.class, String.class),
                    "the method the message names is the one there is");

            assertEquals(Problems.LISTED + 1, e.problems().size(), "ten keys and the count of the rest: " + e.problems());
            assertTrue(e.problems().get(0).startsWith("$.entities.guard-"), e.problems().get(0));
            assertEquals("… and 991 more keys the world lacks", e.problems().get(Problems.LISTED));
            assertEquals(Problems.LISTED + 2, e.getMessage().lines().count(), "the first line and one a problem");

            assertEquals(before, Picture.of(fresh), "nothing changed in the world");

            SAVES.restoreSpawningMissing(fresh, checkpoint); // the method the refusal names takes the same text
            assertEquals(1_001, fresh.query(GUARD.is("patrol")).count() + fresh.query(GUARD.is("alert")).count());
            assertEquals(501, fresh.query(GUARD.is("alert")).count());
            assertEquals(1.0, fresh.time());
        }
    }

    @Test
    void aWorldLackingSomeEntitiesIsToldHowManyOfHowManyBeforeTheOtherProblems() {
        String checkpoint = ReplayTest.edit(checkpointOf(5), root ->
                ((ObjectNode) root.path("entities").path("guard-4")).set("no-such-machine", root.objectNode()));
        try (StateWorld half = StateWorld.create("half")) {
            half.spawn(EntityKey.of("guard-0"), GUARD.trait());
            half.spawn(EntityKey.of("guard-4"), GUARD.trait());
            Picture before = Picture.of(half);
            CheckpointException e = assertThrows(CheckpointException.class, () -> SAVES.restore(half, checkpoint));
            assertTrue(e.getMessage().startsWith("the checkpoint cannot be restored: the world lacks 3 of its 5 entities."), e.getMessage());
            List<String> problems = e.problems();
            assertEquals(4, problems.size(), "the three missing keys, then the other problem: " + problems);
            for (int i = 0; i < 3; i++) {
                assertTrue(problems.get(i).startsWith("$.entities.guard-" + (i + 1) + ": no entity of the world has key"), problems.get(i));
            }
            assertTrue(problems.get(3).startsWith("$.entities.guard-4.no-such-machine: no machine has id"), problems.get(3));
            assertEquals(before, Picture.of(half), "nothing changed in the world");
        }
    }
}

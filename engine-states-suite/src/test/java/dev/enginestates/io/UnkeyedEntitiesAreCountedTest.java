package dev.enginestates.io;

import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A game that forgot to give its entities keys forgot it for all of them: the checkpoint's and
 * the stream's refusals list the first few such entities and count the rest, instead of a line
 * for each of a thousand guards, and still name the fix (EntityKey.of).
 */
class UnkeyedEntitiesAreCountedTest {
    public static final class Guard {
        public int alarms;
    }

    static final States<Guard> GUARD = States.define("unkeyed-guard", Guard::new, m -> m
            .initial("patrol")
            .state("patrol", s -> s.on("ALARM", "alert"))
            .state("alert"));

    private static StateWorld worldOfUnkeyedGuards(int guards) {
        StateWorld world = StateWorld.create();
        for (int i = 0; i < guards; i++) {
            world.spawn(GUARD.trait());
        }
        return world;
    }

    private static void assertCounted(List<String> problems, int guards) {
        assertEquals(Problems.LISTED + 1, problems.size(), String.join("\n", problems));
        for (String p : problems.subList(0, Problems.LISTED)) {
            assertTrue(p.contains("has no EntityKey") && p.contains("EntityKey.of"), p);
        }
        String last = problems.get(problems.size() - 1);
        assertTrue(last.contains((guards - Problems.LISTED) + " more entities") && last.contains(guards + " in all"), last);
    }

    @Test
    void aCheckpointOfAThousandUnkeyedGuardsListsTenAndCountsTheRest() {
        try (StateWorld world = worldOfUnkeyedGuards(1000)) {
            CheckpointException e = assertThrows(CheckpointException.class, () -> Saves.of(GUARD).checkpoint(world));
            assertCounted(e.problems(), 1000);
        }
    }

    @Test
    void aStreamOfAThousandUnkeyedGuardsListsTenAndCountsTheRest() {
        try (StateWorld world = worldOfUnkeyedGuards(1000)) {
            RoomStream stream = RoomStream.of(world, GUARD);
            stream.join("p1");
            StreamException e = assertThrows(StreamException.class, () -> stream.frame("p1"));
            assertCounted(e.problems(), 1000);
        }
    }

    @Test
    void aFewUnkeyedGuardsAreEachListed() {
        try (StateWorld world = worldOfUnkeyedGuards(3)) {
            CheckpointException e = assertThrows(CheckpointException.class, () -> Saves.of(GUARD).checkpoint(world));
            assertEquals(3, e.problems().size(), String.join("\n", e.problems()));
        }
    }
}

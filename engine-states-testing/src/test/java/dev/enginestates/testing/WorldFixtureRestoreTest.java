package dev.enginestates.testing;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Saves;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A test starts from a checkpoint, such as one saved from the devtools page: the fixture's world
 * then holds the saved entities, records and clock, and steps on from there.
 */
class WorldFixtureRestoreTest {
    @RegisterExtension
    static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);

    /** The door's context: how often it opened. */
    public static final class Hinges {
        /** Times opened. */
        public int opened;
    }

    static final States<Hinges> DOOR = States.define("door", Hinges::new, m -> m
            .initial("shut")
            .state("shut", s -> s.on("OPEN", "open"))
            .state("open", s -> s
                    .entry((h, e) -> h.opened++)
                    .waitFor(5, "shut")));

    /** A game's world with door-1 open for 2 s, as its checkpoint. */
    private static String gamesCheckpoint() {
        try (StateWorld game = StateWorld.create("game")) {
            Entity door = game.spawn(EntityKey.of("door-1"), DOOR.trait());
            DOOR.send(door, "OPEN");
            for (int i = 0; i < 120; i++) {
                game.step(1.0 / 60);
            }
            return Saves.of(DOOR).checkpoint(game);
        }
    }

    @Test
    void aTestStartsFromACheckpointWithItsRecordsWaitsContextsAndClock() {
        world.restore(Saves.of(DOOR), gamesCheckpoint());

        Entity door = world.world().entity("door-1");
        StateRecord<Hinges> r = DOOR.read(door);
        assertEquals("open", r.state());
        assertEquals(3.0, r.secondsLeft(), 1e-9, "the wait resumes with the seconds it had left");
        assertEquals(1, r.context().opened);
        assertEquals(120, world.steps(), "the clock as the game's was");
        assertEquals(2.0, world.time(), 1e-9);

        world.advance(3.0);
        assertEquals("shut", DOOR.read(door).state(), "and the test steps on from there");
    }

    @Test
    void aCheckpointFileIsReadAndAMissingOneIsRefusedNamingIt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("checkpoint-tick-120.json");
        Files.writeString(file, gamesCheckpoint());
        world.restore(Saves.of(DOOR), file);
        assertEquals("open", DOOR.read(world.world().entity("door-1")).state());

        Path missing = dir.resolve("nowhere.json");
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> world.restore(Saves.of(DOOR), missing));
        assertTrue(e.getMessage().startsWith("the checkpoint " + missing + " could not be read for the test world"), e.getMessage());
    }

    @Test
    void aCheckpointThatDoesNotFitChangesNothing() {
        String text = gamesCheckpoint().replace("\"open\"", "\"ajar\"");
        assertThrows(RuntimeException.class, () -> world.restore(Saves.of(DOOR), text));
        assertNull(world.world().entity("door-1"), "all or nothing: no entity was spawned");
        assertEquals(0, world.steps());
    }
}

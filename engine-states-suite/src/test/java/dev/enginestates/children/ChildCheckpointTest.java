package dev.enginestates.children;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.io.Saves;
import org.junit.jupiter.api.Test;

import static dev.enginestates.children.Squads.SIEGES;
import static dev.enginestates.children.Squads.WAVES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Children are records like any other, so a checkpoint holds them with nothing more: a restore
 * finds each invoked child by its key and links it again, and the restored world steps like a
 * twin that never stopped, done events included.
 */
class ChildCheckpointTest {
    static final double DT = 1.0 / 60;
    /** Saves of the siege alone: the waves it invokes are saved with it. */
    static final Saves SAVES = Saves.of(SIEGES);

    static StateWorld room() {
        StateWorld world = StateWorld.create();
        for (int i = 0; i < 6; i++) {
            Entity s = world.spawn(EntityKey.of("siege-" + i), SIEGES.trait());
            if (i % 2 == 0) {
                SIEGES.send(s, "ATTACK");
            }
        }
        for (int i = 0; i < 70; i++) {
            world.step(DT); // mid-wait: each wave's 2 s wait has run 70 steps
        }
        return world;
    }

    /** The same inputs on both worlds: kills for every wave, until they are done, with steps between. */
    static void play(StateWorld world) {
        for (int round = 0; round < 5; round++) {
            for (int i = 0; i < 6; i++) {
                Entity wave = world.entity("siege-" + i + "/wave");
                if (wave != null) {
                    WAVES.send(wave, "KILL");
                }
                if (round == 1 && i == 1) {
                    SIEGES.send(world.entity("siege-1"), "ATTACK");
                }
            }
            for (int s = 0; s < 40; s++) {
                world.step(DT);
            }
        }
    }

    @Test
    void aCheckpointMidChildRestoresAndStepsLikeATwin() {
        try (StateWorld room = room(); StateWorld restored = StateWorld.create()) {
            String checkpoint = SAVES.checkpoint(room);
            assertTrue(checkpoint.contains("\"siege-0/wave\""), "the child's entity is in the checkpoint under its key");
            SAVES.restoreSpawningMissing(restored, checkpoint);
            assertEquals(SAVES.checkpoint(room), SAVES.checkpoint(restored));
            assertEquals(3, restored.records(WAVES).size(), "each child restored once, none started again");
            for (int i = 0; i < 6; i += 2) {
                Entity siege = restored.entity("siege-" + i);
                Entity wave = restored.entity("siege-" + i + "/wave");
                assertEquals(wave, SIEGES.read(siege).child("wave"), "the restore linked the child to its parent again");
                assertEquals(siege, WAVES.read(wave).parent());
            }
            play(room);
            play(restored);
            assertEquals(SAVES.checkpoint(room), SAVES.checkpoint(restored));
            assertTrue(SIEGES.read(restored.entity("siege-0")).context().heard > 0, "the restored waves kept their waits and sent HELP");
            assertEquals("rest", SIEGES.read(restored.entity("siege-0")).state(), "the done event reached the restored parent");
            assertEquals(SIEGES.read(room.entity("siege-0")).context().heard, SIEGES.read(restored.entity("siege-0")).context().heard);
        }
    }

    @Test
    void restoringACheckpointTakenBeforeTheChildStartedStopsTheChild() {
        try (StateWorld world = StateWorld.create()) {
            Entity siege = world.spawn(EntityKey.of("siege-1"), SIEGES.trait());
            String calm = SAVES.checkpoint(world);
            SIEGES.send(siege, "ATTACK");
            Entity wave = world.entity("siege-1/wave");
            assertNotNull(wave);
            SAVES.restore(world, calm);
            assertEquals("calm", SIEGES.read(siege).state());
            assertTrue(wave.isDeleted(), "the parent is no longer in the invoking state, so its child went");
            assertNull(world.entity("siege-1/wave"));
            SIEGES.send(siege, "ATTACK");
            assertEquals(1, world.records(WAVES).size());
        }
    }

    @Test
    void restoringAParentInItsInvokingStateOntoAWorldWithoutTheChildStartsNoDuplicate() {
        try (StateWorld room = room(); StateWorld other = StateWorld.create()) {
            String checkpoint = SAVES.checkpoint(room);
            for (int i = 0; i < 6; i++) {
                other.spawn(EntityKey.of("siege-" + i), SIEGES.trait()); // the parents only, calm
            }
            SAVES.restoreSpawningMissing(other, checkpoint);
            assertEquals(3, other.records(WAVES).size());
            assertEquals(SAVES.checkpoint(room), SAVES.checkpoint(other));
        }
    }
}

package dev.enginestates.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.enginestates.Wanderers;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.records.Access;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The generator of a machine's random numbers is part of its record, and the world's seed part of
 * the world: a checkpoint and its restore, an input log's replay and a replica carry them, so the
 * draws after any of them are a straight run's.
 */
class RandomNumbersTravelTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final double DT = 1.0 / 60;
    static final States<Wanderers.Walk> WANDERER = Wanderers.wanderer("travelling-wanderer");
    static final States<Wanderers.Walk> RESTING = Wanderers.wanderer("resting-wanderer", false);
    static final Saves SAVES = Saves.of(WANDERER, RESTING);

    static {
        RandomWorlds.quiet();
    }

    static StateWorld world(long seed) {
        StateWorld w = StateWorld.create();
        w.randomSeed(seed);
        w.spawn(EntityKey.of("a"), WANDERER.trait());
        w.spawn(EntityKey.of("b"), WANDERER.trait());
        return w;
    }

    static void steps(StateWorld w, int n) {
        for (int i = 0; i < n; i++) {
            w.step(DT);
        }
    }

    @Test
    void aCheckpointMidRun_restoredIntoAFreshWorld_drawsWhatTheStraightRunDraws_waitsAndChoicesIncluded() {
        try (StateWorld straight = world(9); StateWorld fresh = StateWorld.create()) {
            steps(straight, 250);
            String mid = SAVES.checkpoint(straight);
            assertTrue(mid.contains("\"random\"") && mid.contains("\"randomSeed\""), "the generators and the world's seed are saved");
            steps(straight, 350);
            SAVES.restoreSpawningMissing(fresh, mid);
            assertEquals(9, fresh.randomSeed(), "the restore sets the world's seed");
            steps(fresh, 350);
            assertEquals(SAVES.checkpoint(straight), SAVES.checkpoint(fresh));
            Wanderers.Walk walk = WANDERER.read(fresh.entity("a")).context();
            assertTrue(walk.waits.size() > 5 && walk.turns.contains("L") && walk.turns.contains("R"),
                    "random waits and both choices after the restore: " + walk.turns);
        }
    }

    @Test
    void theReplayOfAnInputLog_drawsWhatTheRecordedRunDrew() {
        try (StateWorld recorded = world(5); StateWorld replayed = StateWorld.create()) {
            steps(recorded, 100);
            InputLog log = InputLog.start(SAVES, recorded);
            steps(recorded, 200);
            Entity c = recorded.spawn(EntityKey.of("c"), WANDERER.trait()); // a record spawned during the log, its first wait drawn off-world
            steps(recorded, 300);
            assertNotEquals(WANDERER.read(c).context().rolls, WANDERER.read(recorded.entity("a")).context().rolls);
            InputLog.replay(SAVES, replayed, log.text());
            assertEquals(SAVES.checkpoint(recorded), SAVES.checkpoint(replayed));
        }
    }

    @Test
    void aReplica_holdsTheRoomsRecords_theirGeneratorsIncluded_afterEveryStep() {
        try (StateWorld room = world(3); StateWorld page = StateWorld.create()) {
            RoomStream stream = RoomStream.of(room, WANDERER);
            Replica replica = Replica.of(page, "alice", WANDERER);
            stream.join("alice");
            for (int i = 0; i < 300; i++) {
                room.step(DT);
                replica.apply(stream.frame("alice"));
                assertEquals(Access.record(WANDERER.read(room.entity("a"))).randomState(),
                        Access.record(WANDERER.read(page.entity("a"))).randomState(), "after step " + (i + 1));
                assertEquals(withoutSeed(SAVES.checkpoint(room)), withoutSeed(SAVES.checkpoint(page)), "after step " + (i + 1));
            }
        }
    }

    @Test
    void aRestoreTakingARecordBackToNotSeeded_reachesTheReplicaToo() throws Exception {
        try (StateWorld room = world(3); StateWorld page = StateWorld.create()) {
            RoomStream stream = RoomStream.of(room, WANDERER);
            Replica replica = Replica.of(page, "alice", WANDERER);
            stream.join("alice");
            steps(room, 120);
            replica.apply(stream.frame("alice"));
            assertTrue(SAVES.checkpoint(page).contains("\"random\""));
            ObjectNode now = (ObjectNode) JSON.readTree(SAVES.checkpoint(room));
            ((ObjectNode) now.get("entities").get("a").get(WANDERER.id())).remove("random"); // as a checkpoint written before it was
            SAVES.restore(room, now.toString());
            replica.apply(stream.frame("alice"));
            assertEquals(0, Access.record(WANDERER.read(page.entity("a"))).randomState());
            assertEquals(withoutSeed(SAVES.checkpoint(room)), withoutSeed(SAVES.checkpoint(page)), "the replica is the room again");
        }
    }

    @Test
    void aCheckpointWrittenBeforeRandomNumbers_loads_andItsRecordsSeedAsNewOnesWould() throws Exception {
        try (StateWorld straight = StateWorld.create(); StateWorld old = StateWorld.create()) {
            straight.spawn(EntityKey.of("a"), RESTING.trait());
            straight.spawn(EntityKey.of("b"), RESTING.trait());
            String start = SAVES.checkpoint(straight);
            assertFalse(start.contains("random"), "a world that never set its seed, whose records drew nothing, saves as before: " + start);
            SAVES.restoreSpawningMissing(old, start);
            steps(straight, 400);
            steps(old, 400);
            assertEquals(SAVES.checkpoint(straight), SAVES.checkpoint(old));
        }
    }

    @Test
    void aGeneratorStateOfTheWrongType_isRefusedWhole_andNothingChanges() throws Exception {
        try (StateWorld w = world(1)) {
            steps(w, 100);
            String good = SAVES.checkpoint(w);
            for (String bad : new String[] {"12", "\"12\"", "\"XYZ0000000000000\"", "true", "{}"}) {
                ObjectNode root = (ObjectNode) JSON.readTree(good);
                ((ObjectNode) root.get("entities").get("a").get(WANDERER.id())).set("random", JSON.readTree(bad));
                steps(w, 10);
                String now = SAVES.checkpoint(w);
                CheckpointException e = assertThrows(CheckpointException.class, () -> SAVES.restore(w, root.toString()));
                assertTrue(e.getMessage().contains("$.entities.a." + WANDERER.id() + ".random: expected the state of the machine's random"
                        + " numbers, 16 hex digits"), e.getMessage());
                assertEquals(now, SAVES.checkpoint(w), "nothing changed");
            }
            ObjectNode root = (ObjectNode) JSON.readTree(good);
            root.put("randomSeed", 1);
            CheckpointException e = assertThrows(CheckpointException.class, () -> SAVES.restore(w, root.toString()));
            assertTrue(e.getMessage().contains("$.randomSeed: expected the world's seed of random numbers, 16 hex digits"), e.getMessage());
        }
    }

    /** A checkpoint's tree without the world's seed, which a replica's world does not follow (its records do not draw). */
    static JsonNode withoutSeed(String checkpoint) throws RuntimeException {
        try {
            ObjectNode root = (ObjectNode) JSON.readTree(checkpoint);
            root.remove("randomSeed");
            return root;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}

package dev.enginestates.versions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.io.CheckpointException;
import dev.enginestates.io.InputLog;
import dev.enginestates.io.Saves;
import org.junit.jupiter.api.Test;

import static dev.enginestates.versions.GuardVersions.FROM_1;
import static dev.enginestates.versions.GuardVersions.V1;
import static dev.enginestates.versions.GuardVersions.V2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An input log records a swap as an input naming both definitions, and a replay whose saves
 * hold both versions ends where the game did, record for record; saves lacking one are refused
 * before anything changes, and a swap through a mapping given to it (code) is noted unmatched.
 */
class InputLogsRecordSwapsTest {
    static final double DT = 1.0 / 60;
    static final Saves BOTH = Saves.of(V1, V2);
    static final ObjectMapper JSON = new ObjectMapper();

    /** Guards of version 1 in every state, some mid-wait. */
    static void spawnGuards(StateWorld world, int from, int n) {
        for (int i = from; i < from + n; i++) {
            Entity e = world.spawn(EntityKey.of("g" + i), V1.trait());
            switch (i % 5) {
                case 1 -> V1.send(e, "BELL");
                case 2 -> V1.send(e, "ALARM");
                case 3 -> V1.send(e, "SEARCH");
                default -> { }
            }
            world.step(DT);
        }
    }

    /** The play after the log starts: steps and sends in version 1, the swap, steps, sends and a spawn in version 2. */
    static void play(StateWorld world) {
        for (int i = 0; i < 120; i++) {
            world.step(DT);
        }
        V1.send(world.entity("g0"), "BELL");
        V1.send(world.entity("g4"), "SEARCH");
        world.step(DT);
        assertEquals(30, world.swap(V1, V2));
        for (int i = 0; i < 90; i++) {
            world.step(DT);
            if (i % 10 == 0) {
                V2.send(world.entity("g" + (i / 10)), i % 20 == 0 ? "NOISE" : "BELL");
            }
        }
        world.spawn(EntityKey.of("late"), V2.trait());
        for (int i = 0; i < 400; i++) {
            world.step(DT);
        }
    }

    @Test
    void aLoggedSwapReplaysFromSavesHoldingBothVersionsToTheSameRecordsBitForBit() throws Exception {
        try (StateWorld world = StateWorld.create(); StateWorld replayed = StateWorld.create()) {
            spawnGuards(world, 0, 30);
            InputLog log = InputLog.start(BOTH, world);
            play(world);
            String text = log.text();

            JsonNode tree = JSON.readTree(text);
            assertEquals(1, tree.at("/start/machines/vguard/version").asInt(), "the start checkpoint names version 1");
            JsonNode swap = null;
            for (JsonNode input : tree.get("inputs")) {
                if (input.has("swap")) {
                    swap = input.get("swap");
                }
            }
            assertTrue(swap != null, "the swap is an input");
            assertEquals("vguard", swap.get("machine").asText());
            assertEquals(1, swap.at("/from/version").asInt());
            assertEquals(V1.machine().fingerprint(), swap.at("/from/fingerprint").asText());
            assertEquals(2, swap.at("/to/version").asInt());
            assertEquals(V2.machine().fingerprint(), swap.at("/to/fingerprint").asText());

            InputLog.replay(BOTH, replayed, text);

            assertEquals(BOTH.checkpoint(world), BOTH.checkpoint(replayed), "the replay ends as the game did");
            assertTrue(replayed.records(V1).isEmpty(), "no record of version 1 is left");
            assertEquals(31, replayed.records(V2).size());
        }
    }

    @Test
    void aLogStartedBeforeTheGuardsSpawnedNamesTheirVersionSoTheReplayDoesNotReadThemAsTheNewest() {
        try (StateWorld world = StateWorld.create(); StateWorld replayed = StateWorld.create()) {
            InputLog log = InputLog.start(BOTH, world);
            spawnGuards(world, 0, 30);
            play(world);

            InputLog.replay(BOTH, replayed, log.text());

            assertEquals(BOTH.checkpoint(world), BOTH.checkpoint(replayed));
        }
    }

    @Test
    void aReplayWhoseSavesLackTheVersionTheLogSwapsFromIsRefusedNamingItAndChangesNothing() {
        try (StateWorld world = StateWorld.create(); StateWorld replayed = StateWorld.create()) {
            spawnGuards(world, 0, 30);
            InputLog log = InputLog.start(BOTH, world);
            play(world);
            replayed.spawn(EntityKey.of("bystander"), V2.trait());
            Saves onlyNewer = Saves.of(V2);
            String before = onlyNewer.checkpoint(replayed);

            CheckpointException e = assertThrows(CheckpointException.class, () -> InputLog.replay(onlyNewer, replayed, log.text()));

            String m = e.getMessage();
            assertTrue(m.contains("the world is unchanged"), m);
            assertTrue(m.contains("swap: the log swaps machine 'vguard' from version 1 (fingerprint " + V1.machine().fingerprint()
                    + ") to version 2 (fingerprint " + V2.machine().fingerprint() + "), but these saves hold no version 1 of it,"
                    + " only version 2"), m);
            assertEquals(before, onlyNewer.checkpoint(replayed), "nothing changed");
            assertEquals(1, replayed.records(V2).size());
        }
    }

    @Test
    void aSwapThroughAMigrationGivenToItIsNotedUnmatchedAndItsLogIsRefused() throws Exception {
        try (StateWorld world = StateWorld.create(); StateWorld replayed = StateWorld.create()) {
            spawnGuards(world, 0, 10);
            InputLog log = InputLog.start(BOTH, world);
            world.step(DT);
            world.swap(V1, V2, FROM_1);
            world.step(DT);

            JsonNode tree = JSON.readTree(log.text());
            assertEquals(1, tree.get("unmatched").size(), tree.get("unmatched").toString());
            assertTrue(tree.get("unmatched").get(0).asText().contains("swap of machine 'vguard' from version 1 to version 2"),
                    tree.get("unmatched").toString());
            CheckpointException e = assertThrows(CheckpointException.class, () -> InputLog.replay(BOTH, replayed, log.text()));
            assertTrue(e.getMessage().contains("$.unmatched") && e.getMessage().contains("a swap through a Migration given to it"),
                    e.getMessage());
            assertTrue(replayed.machines().isEmpty(), "nothing changed");
        }
    }

    @Test
    void aSwapBetweenTwoDefinitionsOfOneVersionIsNotedUnmatchedForNoSavesHoldBoth() throws Exception {
        dev.enginestates.ecs.States<GuardVersions.Guard> edited = dev.enginestates.ecs.States.define("vguard",
                GuardVersions.Guard::new, m -> m
                        .version(1)
                        .initial("patrol")
                        .state("patrol", p -> p
                                .initial("watch")
                                .state("watch", s -> s.waitFor(5, "rest"))
                                .state("rest", s -> s.waitFor(10, "watch"))
                                .history("resumed", dev.enginestates.declare.HistoryDepth.DEEP)
                                .on("BELL", "answer")
                                .on("ALARM", "alarm")
                                .on("SEARCH", "search"))
                        .state("answer", s -> s.on("RESUME", "patrol.resumed").on("RESTART", "patrol"))
                        .state("alarm", s -> s.waitFor(6, "patrol"))
                        .state("search", s -> s.waitFor(8, "patrol.resumed").on("BELL", "answer")));
        try (StateWorld world = StateWorld.create()) {
            spawnGuards(world, 0, 10);
            InputLog log = InputLog.start(Saves.of(V1), world);
            world.swap(V1, edited);
            world.step(DT);

            JsonNode unmatched = JSON.readTree(log.text()).get("unmatched");
            assertEquals(1, unmatched.size(), unmatched.toString());
            assertTrue(unmatched.get(0).asText().contains("two definitions of one version"), unmatched.toString());
            assertTrue(unmatched.get(0).asText().contains(edited.machine().fingerprint()), unmatched.toString());
        }
    }
}

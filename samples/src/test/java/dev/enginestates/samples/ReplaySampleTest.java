package dev.enginestates.samples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.io.InputLog;
import dev.enginestates.testing.WorldFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.enginestates.samples.ReplaySample.SAVES;
import static dev.enginestates.samples.WeaponSample.WEAPON;
import static dev.enginestates.testing.StateAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A bug reproduced from a saved input log: the replay ends with the same records, bit for bit. */
class ReplaySampleTest {
    @RegisterExtension
    static WorldFixture world = WorldFixture.fixedStep(ReplaySample.DT);

    @Test
    void theSurpriseOfSeed42ReplaysFromItsLogFileToTheSameRecords(@TempDir Path dir) throws Exception {
        ReplaySample.Surprise s = ReplaySample.play(world.world(), 42, 3600);
        assertNotNull(s, "seed 42 finds the surprise within a minute");
        assertEquals("player-3", s.player);
        assertEquals(74, s.step);
        assertEquals("at 1.233 s (step 74) player-3 pulled the trigger with 4 of 6 rounds and nothing happened: the weapon is reloading,"
                + " 1.450 s left", s.description);
        assertEquals(List.of("step 36: FIRE (refused)", "step 41: FIRE (refused)", "step 42: FIRE (refused)", "step 71: RELOAD (taken)",
                "step 74: FIRE (refused)"), s.lastPresses);
        assertThat(world, world.world().entity("player-3")).machine(WEAPON).isIn("reload").hasSecondsLeft(1.45)
                .hasContext("4 rounds", w -> w.ammo == 4);

        Path file = dir.resolve("bug.json");
        Files.writeString(file, s.log);
        assertEquals(s.checkpoint, ReplaySample.replay(file), "the replay's records equal the run's, bit for bit");

        try (StateWorld replayed = StateWorld.create("replayed")) {
            InputLog.replay(SAVES, replayed, Files.readString(file));
            assertThat(replayed, replayed.entity("player-3")).machine(WEAPON).isIn("reload").hasSecondsLeft(1.45)
                    .hasContext(w -> w.ammo == 4);
            assertEquals(74, replayed.steps());
        }
    }

    @Test
    void withoutTheReloadPressTheReplayEndsElsewhere(@TempDir Path dir) throws Exception {
        ReplaySample.Surprise s = ReplaySample.play(world.world(), 42, 3600);
        ObjectMapper json = new ObjectMapper();
        JsonNode log = json.readTree(s.log);
        ArrayNode inputs = (ArrayNode) log.get("inputs");
        int reload = -1;
        for (int i = 0; i < inputs.size(); i++) {
            JsonNode send = inputs.get(i).get("send");
            if (send != null && send.get("entity").asText().equals("player-3") && send.get("event").get("type").asText().equals("RELOAD")) {
                reload = i;
            }
        }
        assertTrue(reload >= 0, "the log holds player-3's RELOAD");
        inputs.remove(reload);
        Path file = dir.resolve("edited.json");
        Files.writeString(file, json.writeValueAsString(log));
        assertNotEquals(s.checkpoint, ReplaySample.replay(file));
        try (StateWorld replayed = StateWorld.create("edited")) {
            InputLog.replay(SAVES, replayed, Files.readString(file));
            assertThat(replayed, replayed.entity("player-3")).machine(WEAPON).isNotIn("reload");
        }
    }
}

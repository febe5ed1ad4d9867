package dev.enginestates.io;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.enginestates.ecs.StateWorld;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import static dev.enginestates.io.PreRuntimeMachines.GUARD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An input log written before machines had versions (its start checkpoint names none, its
 * spawns name no definition: {@code fixtures/pre-runtime/xstate-inputs.json}) replays as it did,
 * each machine read as the saves' definition.
 */
class LogsWrittenBeforeVersionsTest {

    private static String fixture(String name) {
        try (InputStream in = LogsWrittenBeforeVersionsTest.class.getResourceAsStream("/fixtures/pre-runtime/" + name)) {
            assertTrue(in != null, "fixture " + name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aLogWhoseStartNamesNoVersionsReplaysToTheRecordsItsCheckpointHolds() throws Exception {
        String log = fixture("xstate-inputs.json");
        assertFalse(new ObjectMapper().readTree(log).path("start").has("machines"), "the fixture is from before versions");
        Saves saves = Saves.of(GUARD);
        try (StateWorld replayed = StateWorld.create(); StateWorld restored = StateWorld.create()) {
            InputLog.replay(saves, replayed, log);
            saves.restoreSpawningMissing(restored, fixture("xstate-checkpoint.json"));
            assertEquals(saves.checkpoint(restored), saves.checkpoint(replayed));
            assertEquals("alert.search", GUARD.read(replayed.entity("g1")).state());
        }
    }
}

package dev.enginestates.samples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.enginestates.samples.readme.DevtoolsTour;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The README's "Devtools" section does what it says: the page's address printed, and the siege's fact line after four seconds. */
class DevtoolsTourTest {
    @Test
    void theDevtoolsTourServesTheRoomAndItsSnapshotSaysTheSiegesFact() throws Exception {
        PrintStream before = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        DevtoolsTour.Seen seen;
        try {
            seen = DevtoolsTour.tour(0);
        } finally {
            System.setOut(before);
        }
        assertTrue(seen.address.matches("http://127\\.0\\.0\\.1:\\d+/"), seen.address);
        assertEquals("devtools: " + seen.address + "\n", out.toString(StandardCharsets.UTF_8).replace("\r\n", "\n"));
        JsonNode snap = new ObjectMapper().readTree(seen.snapshot);
        assertEquals("engine-states/devtools", snap.get("format").asText());
        assertTrue(snap.get("writable").asBoolean());
        List<String> facts = new ArrayList<>();
        snap.get("facts").forEach(f -> facts.add(f.get("entity").asText() + ": " + f.get("text").asText()));
        assertEquals(List.of("world: siege: breather, 8 s left", "guard-1: guard: patrol.rest, 10 s left"), facts);
    }
}

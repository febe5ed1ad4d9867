package dev.enginestates.testing.conformance;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DESIGN.md: "the replayer must pass every one" of the traces XState 5.33.3 recorded (copied
 * from the conformance corpus into this module's test resources). One dynamic test per trace,
 * so a failure names the trace, the step, what XState did and what the engine did.
 */
class ConformanceTest {
    private static Path corpus() throws URISyntaxException {
        return Path.of(ConformanceTest.class.getResource("/conformance").toURI());
    }

    @TestFactory
    Stream<DynamicTest> everyRecordedTraceReplaysExactly() throws URISyntaxException {
        List<Path> files = TraceReplayer.expand(corpus().resolve("basics").toString(), corpus().resolve("xstate").toString());
        assertEquals(132, files.size(), "12 basics and 120 generated traces are in the corpus");
        return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> {
            TraceResult r = TraceReplayer.replay(f);
            assertTrue(r.passed(), r::toString);
        }));
    }

    /**
     * Traces from our own generator (engine-states-testing/tracegen, XState 5.33.3 as the
     * oracle) that once failed, shrunk: the XState behaviours they pin are noted in their names
     * (an unchanged configuration keeps its order; an incomplete configuration is completed for
     * the value, for choosing transitions and for reaching onDone).
     */
    @TestFactory
    Stream<DynamicTest> generatorRegressionsReplayExactly() throws URISyntaxException {
        List<Path> files = TraceReplayer.expand(corpus().resolve("regressions").toString());
        assertTrue(files.size() >= 6, "the regression traces are there: " + files.size());
        return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> {
            TraceResult r = TraceReplayer.replay(f);
            assertTrue(r.passed(), r::toString);
        }));
    }

    @Test
    void replayerPrintsOneLinePerFailureAndTheClosingCount() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int failed = TraceReplayer.run(List.of(corpus().resolve("basics/basic-01-shallow-history.json")),
                new PrintStream(buf, true, StandardCharsets.UTF_8));
        assertEquals(0, failed);
        assertEquals("1 passed, 0 failed", buf.toString(StandardCharsets.UTF_8).trim());
    }

    @Test
    void aTraceWithAWrongExpectationFailsWithStepExpectedAndGot() throws Exception {
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.node.ObjectNode trace = (com.fasterxml.jackson.databind.node.ObjectNode)
                json.readTree(corpus().resolve("basics/basic-01-shallow-history.json").toFile());
        // corrupt the recorded value of step 1: the engine must notice
        ((com.fasterxml.jackson.databind.node.ObjectNode) trace.get("steps").get(1)).put("value", "nowhere");
        TraceResult r = TraceReplayer.replay(trace, "corrupted");
        assertFalse(r.passed());
        assertEquals(1, r.step());
        assertTrue(r.expected().contains("\"nowhere\""), r.expected());
        assertFalse(r.got().contains("\"nowhere\""), r.got());
    }

    /** The smallest trace that passes: one state, no event. */
    private static final String MACHINE = "\"machine\": {\"id\": \"m\", \"initial\": \"a\", \"states\": {\"a\": {\"on\": {\"GO\": \"a\"}}}}";
    private static final String INITIAL = "\"initial\": {\"value\": \"a\", \"status\": \"active\", \"actions\": []}";

    @Test
    void aTraceThatCannotBeReplayedFailsWithTheReasonInsteadOfThrowing(@TempDir Path dir) throws Exception {
        assertTrue(replay(dir, "ok", "{" + MACHINE + ", " + INITIAL + ", \"steps\": [{\"event\": {\"type\": \"GO\"}, \"value\": \"a\","
                + " \"status\": \"active\", \"actions\": []}]}").passed(), "the smallest trace passes");
        Map<String, String> bad = new LinkedHashMap<>();
        bad.put("empty", "");
        bad.put("blank", "  \n");
        bad.put("garbage", "not a trace {");
        bad.put("number", "42");
        bad.put("array", "[]");
        bad.put("no-machine", "{" + INITIAL + ", \"steps\": []}");
        bad.put("no-initial", "{" + MACHINE + ", \"steps\": []}");
        bad.put("initial-not-an-object", "{" + MACHINE + ", \"initial\": \"a\", \"steps\": []}");
        bad.put("steps-not-an-array", "{" + MACHINE + ", " + INITIAL + ", \"steps\": {}}");
        bad.put("no-event", "{" + MACHINE + ", " + INITIAL + ", \"steps\": [{\"value\": \"a\"}]}");
        bad.put("no-type", "{" + MACHINE + ", " + INITIAL + ", \"steps\": [{\"event\": {\"ok\": true}, \"value\": \"a\"}]}");
        bad.put("type-not-text", "{" + MACHINE + ", " + INITIAL + ", \"steps\": [{\"event\": {\"type\": 3}, \"value\": \"a\"}]}");
        for (Map.Entry<String, String> e : bad.entrySet()) {
            TraceResult r = assertDoesNotThrow(() -> replay(dir, e.getKey(), e.getValue()), e.getKey());
            assertFalse(r.passed(), e.getKey());
            assertEquals(e.getKey(), r.name());
            assertTrue(r.expected() != null && !r.expected().isEmpty() && r.got() != null && !r.got().isEmpty(), r.toString());
        }
        assertTrue(replay(dir, "no-initial", bad.get("no-initial")).toString().contains("initial"));
        assertTrue(replay(dir, "no-type", bad.get("no-type")).toString().contains("type"));
        assertEquals(0, replay(dir, "no-type", bad.get("no-type")).step(), "the step whose event has no type");
        assertTrue(replay(dir, "empty", "").got().contains("empty"), replay(dir, "empty", "").toString());
    }

    private static TraceResult replay(Path dir, String name, String text) throws Exception {
        Path f = dir.resolve(name + ".json");
        Files.writeString(f, text);
        return TraceReplayer.replay(f);
    }
}

package dev.enginestates.testing.conformance;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

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
}

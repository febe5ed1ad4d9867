package dev.enginestates.samples.paths;

import dev.enginestates.testing.CoverageReport;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

/**
 * Transition coverage, read from outside the classes it measured: the generated paths of the
 * guard take every transition (100%), and a deliberately partial suite falls below its threshold
 * and names the transitions it never took, in its failure, its JSON report and its diagrams.
 */
class GuardCoverageTest {
    private static TestExecutionSummary run(Class<?>... testClasses) {
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        launcher.execute(request().selectors(java.util.Arrays.stream(testClasses).map(c -> selectClass(c)).toList()).build(), summary);
        return summary.getSummary();
    }

    @Test
    void theTableIsPrintedUnlessTheRunsConfigurationSaysNot() {
        java.io.PrintStream out = System.out;
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        String[] seen = new String[2];
        try {
            System.setOut(new java.io.PrintStream(printed, true, StandardCharsets.UTF_8));
            for (String print : new String[]{"true", "false"}) {
                printed.reset();
                SummaryGeneratingListener summary = new SummaryGeneratingListener();
                LauncherFactory.create().execute(request().selectors(selectClass(dev.enginestates.samples.docs.GeneratedPathsKitTest.class))
                        .configurationParameter(dev.enginestates.testing.TransitionCoverage.PRINT, print).build(), summary);
                assertEquals(0, summary.getSummary().getTotalFailureCount(), () -> summary.getSummary().getFailures().toString());
                seen[print.equals("true") ? 0 : 1] = printed.toString(StandardCharsets.UTF_8);
            }
        } finally {
            System.setOut(out);
        }
        assertTrue(seen[0].contains("engine-states transition coverage: dev.enginestates.samples.docs.GeneratedPathsKitTest"), seen[0]);
        assertTrue(seen[0].contains("guard    4/4 100.0%        4/4 100.0%"), seen[0]);
        assertEquals("", seen[1], "printing switched off by the run's configuration");
    }

    @Test
    void suitesRecordingAcrossTheRunAddUpToOneReport() throws IOException {
        Files.deleteIfExists(GuardRunHalves.REPORT.resolve("coverage.json"));
        TestExecutionSummary summary = run(GuardRunHalves.FirstHalfSuite.class, GuardRunHalves.SecondHalfSuite.class);
        assertEquals(2, summary.getTestsSucceededCount());
        assertEquals(0, summary.getTotalFailureCount(), () -> summary.getFailures().toString());
        String json = Files.readString(GuardRunHalves.REPORT.resolve("coverage.json"), StandardCharsets.UTF_8);
        assertTrue(json.contains("\"transitionRatio\" : 1.0"), json);
        assertTrue(json.contains("\"report\" : \"the test run\""), json);
    }

    @Test
    void halfASuiteAcrossTheRunFailsTheRunBelowItsThreshold() {
        TestExecutionSummary summary = run(GuardRunHalves.FirstHalfSuite.class);
        assertEquals(1, summary.getTestsSucceededCount());
        assertEquals(1, summary.getTotalFailureCount(), "the run's report fails when the run ends");
        String failure = summary.getFailures().get(0).getException().getMessage();
        assertTrue(failure.startsWith("transition coverage below 100.0% (the test run)") && failure.contains("ANSWER \u2013RESTART\u2192 PATROL"),
                failure);
    }

    @Test
    void theGuardsGeneratedPathsTakeEveryTransitionAndEnterEveryState() {
        TestExecutionSummary summary = run(GuardPathsTest.class);
        assertEquals(0, summary.getTotalFailureCount(), () -> summary.getFailures().toString());
        assertTrue(summary.getTestsSucceededCount() >= 3, "the paths ran as tests: " + summary.getTestsSucceededCount());
        CoverageReport.MachineCoverage guard = GuardPathsTest.coverage.report().machine("guard");
        assertEquals(1.0, guard.transitionRatio());
        assertEquals(1.0, guard.stateRatio());
        assertEquals(List.of(), guard.untaken());
    }

    @Test
    void aPartialSuiteFailsBelowItsThresholdNamingTheUntakenTransitions() throws IOException {
        TestExecutionSummary summary = run(GuardPartialSuite.class);
        assertEquals(1, summary.getTestsSucceededCount(), "the partial suite's own test passes");
        assertEquals(1, summary.getTotalFailureCount(), "the coverage threshold fails the class");
        String failure = summary.getFailures().get(0).getException().getMessage();
        assertTrue(failure.startsWith("transition coverage below 100.0% (dev.enginestates.samples.paths.GuardPartialSuite)"), failure);
        assertTrue(failure.contains("machine 'guard': 40.0% of transitions taken, 75.0% of states entered"), failure);

        CoverageReport.MachineCoverage guard = GuardPartialSuite.coverage.report().machine("guard");
        List<String> untaken = List.of("PATROL.WATCH \u2013wait 4 s\u2192 PATROL.REST", "PATROL.REST \u2013wait 10 s\u2192 PATROL.WATCH",
                "ANSWER \u2013RESTART\u2192 PATROL");
        assertTrue(failure.contains(untaken.toString()), failure);
        String json = Files.readString(GuardPartialSuite.REPORT.resolve("coverage.json"), StandardCharsets.UTF_8);
        assertTrue(json.contains("\"transition\" : \"ANSWER \u2013RESTART\u2192 PATROL\",\n      \"taken\" : 0"), json);
        assertTrue(json.contains("\"transition\" : \"PATROL \u2013BELL\u2192 ANSWER\",\n      \"taken\" : 1"), json);
        String mermaid = Files.readString(GuardPartialSuite.REPORT.resolve("guard.coverage.mmd"), StandardCharsets.UTF_8);
        assertTrue(mermaid.contains("ANSWER --> PATROL : RESTART (untaken)"), mermaid);
        assertTrue(mermaid.contains("PATROL --> ANSWER : BELL\n"), mermaid);
        assertTrue(mermaid.contains("class PATROL_REST unentered"), mermaid);
        String dot = Files.readString(GuardPartialSuite.REPORT.resolve("guard.coverage.dot"), StandardCharsets.UTF_8);
        assertTrue(dot.contains("RESTART (untaken)") && dot.contains("color=\"#c62828\""), dot);
        assertEquals(untaken, guard.untaken());
        String page = Files.readString(dev.enginestates.samples.docs.Pages.root().resolve("docs/testing.md"), StandardCharsets.UTF_8);
        assertTrue(page.contains(GuardPartialSuite.coverage.report().table()), "docs/testing.md shows the partial suite's table as it"
                + " prints:\n" + GuardPartialSuite.coverage.report().table());
        assertEquals(List.of("PATROL.REST"), guard.unentered());
    }
}

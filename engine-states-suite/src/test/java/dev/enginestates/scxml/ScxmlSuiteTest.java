package dev.enginestates.scxml;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The SCION and W3C SCXML tests (issue 17): every test of the package is listed in
 * {@code scxml/scope.tsv}, in scope or left out with its reason; each in-scope test must pass.
 * Without npm or the network the suite is skipped, unless {@code ENGINE_STATES_SCXML_SUITE=required}
 * (as {@code .ci/run} sets it). The counts go to {@code target/scxml-suite/count.txt}.
 */
class ScxmlSuiteTest {
    private static String missing;
    private static Map<String, String[]> scope;

    @BeforeAll
    static void fetch() throws IOException {
        missing = ScxmlSuite.fetch();
        if (missing != null && "required".equals(System.getenv("ENGINE_STATES_SCXML_SUITE"))) {
            throw new IllegalStateException("ENGINE_STATES_SCXML_SUITE=required, but the suite could not be fetched: " + missing);
        }
        scope = new LinkedHashMap<>();
        try (InputStream in = ScxmlSuiteTest.class.getResourceAsStream("/scxml/scope.tsv")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#") || line.startsWith("test\t")) {
                    continue;
                }
                String[] cols = line.split("\t", -1);
                scope.put(cols[0], cols);
            }
        }
    }

    @TestFactory
    Stream<DynamicTest> everyTestInScopePasses() {
        assumeTrue(missing == null, () -> "skipped: " + missing);
        return scope.values().stream().filter(c -> c[1].equals("in"))
                .map(c -> DynamicTest.dynamicTest(c[0], () -> assertNull(ScxmlSuite.run(c[0]), c[0])));
    }

    @Test
    void scopeListsEveryTestOfThePackageWithAReasonForEachLeftOut() throws IOException {
        assumeTrue(missing == null, () -> "skipped: " + missing);
        assertEquals(new TreeSet<>(ScxmlSuite.all()), new TreeSet<>(scope.keySet()));
        for (String[] c : scope.values()) {
            assertTrue(c[1].equals("in") || (c[1].equals("out") && c.length > 3 && !c[3].isBlank()),
                    () -> c[0] + ": 'in', or 'out' with a reason");
        }
    }

    /** Runs every test of the package, in scope or not, and writes the counts (.ci/run prints them). */
    @Test
    void countsAreWritten() throws IOException {
        assumeTrue(missing == null, () -> "skipped: " + missing);
        int scion = 0;
        int scionAll = 0;
        int w3c = 0;
        int w3cAll = 0;
        int xstate = 0;
        int xstateAll = 0;
        List<String> rows = new ArrayList<>();
        for (String test : ScxmlSuite.all()) {
            String[] c = scope.get(test);
            String failure = ScxmlSuite.run(test);
            boolean pass = failure == null;
            boolean isW3c = test.startsWith("w3c-ecma/");
            if (isW3c) {
                w3cAll++;
                w3c += pass ? 1 : 0;
            } else if (!test.startsWith("../")) {
                scionAll++;
                scion += pass ? 1 : 0;
            }
            if (c != null && c[2].equals("yes")) {
                xstateAll++;
                xstate += pass ? 1 : 0;
            }
            rows.add(test + "\t" + (pass ? "pass" : "fail\t" + failure.replace('\n', ' ')));
        }
        String count = "SCXML suite: SCION " + scion + "/" + scionAll + ", W3C " + w3c + "/" + w3cAll
                + ", XState's 169: " + xstate + "/" + xstateAll + "\n";
        Files.writeString(ScxmlSuite.DIR.resolve("count.txt"), count);
        Files.write(ScxmlSuite.DIR.resolve("results.tsv"), rows);
    }
}

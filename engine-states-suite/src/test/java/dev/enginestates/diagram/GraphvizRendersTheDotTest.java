package dev.enginestates.diagram;

import dev.enginestates.RandomStatecharts;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 13, part 4: the DOT output renders with Graphviz's own {@code dot}, without an error
 * or a warning, for the machines of these tests and for random machines of every style. Skipped,
 * with a message, on a machine without {@code dot} on its PATH ({@code .ci/run} installs
 * Graphviz, so CI runs it). The graphs go to one {@code dot} process, which renders each.
 */
class GraphvizRendersTheDotTest {
    static final int RUNS = 150;

    @Test
    void dotRendersEveryDiagram_withoutAnErrorOrAWarning() throws Exception {
        String dot = dotOnPath();
        Assumptions.assumeTrue(dot != null, "Graphviz's dot is not on the PATH: the DOT output was checked for its structure"
                + " only (DiagramsAreWellFormedPropertyTest); install graphviz to render it");
        List<String> graphs = new ArrayList<>();
        graphs.add(Diagrams.dot(DiagramsTest.GUARD, List.of("patrol.watch")));
        graphs.add(Diagrams.dot(DiagramsTest.RIDER));
        graphs.add(Diagrams.dot(DiagramsAreWellFormedPropertyTest.oddNames()));
        graphs.add(Diagrams.dot(DiagramsAreWellFormedPropertyTest.controlNames()));
        for (int seed = 1; seed <= RUNS; seed++) {
            graphs.add(Diagrams.dot(RandomStatecharts.statechart(seed)));
            graphs.add(Diagrams.dot(RandomStatecharts.polled(seed)));
            graphs.add(Diagrams.dot(RandomStatecharts.builder(seed)));
        }
        String[] result = render(dot, String.join("", graphs));
        if (!result[0].equals("0") || !result[2].isEmpty()) {
            // find the graph that fails, for the message
            for (String g : graphs) {
                String[] one = render(dot, g);
                assertTrue(one[0].equals("0") && one[2].isEmpty(), "dot -Tsvg exits " + one[0] + " with:\n" + one[2] + "\non:\n" + g);
            }
        }
        assertEquals("0", result[0], result[2]);
        assertEquals("", result[2], "dot prints no warning");
        assertEquals(graphs.size(), result[1].split("<svg ", -1).length - 1, "an SVG per graph");
    }

    /** {exit status, standard output, standard error} of {@code dot -Tsvg} on {@code input}. */
    private static String[] render(String dot, String input) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(dot, "-Tsvg").start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        try (var in = p.getOutputStream()) {
            in.write(input.getBytes(StandardCharsets.UTF_8));
        } catch (IOException stopped) {
            // dot stopped reading: its status and its error say why
        }
        int status = p.waitFor();
        return new String[] {Integer.toString(status), out.join(), err.join()};
    }

    private static String read(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static String dotOnPath() {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            File f = new File(dir, "dot");
            if (f.isFile() && f.canExecute()) {
                return f.getPath();
            }
        }
        return null;
    }
}

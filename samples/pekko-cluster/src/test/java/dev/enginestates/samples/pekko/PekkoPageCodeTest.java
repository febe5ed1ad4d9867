package dev.enginestates.samples.pekko;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * engine-states-pekko's page shows compiled code: each line of its Java blocks stands, in order,
 * in this sample's {@code GuardRooms.java}, which the failover test runs; and the game's code it
 * shows fits in 50 lines.
 */
class PekkoPageCodeTest {
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
    private static final String PAGE = "engine-states-pekko/README.md";
    private static final String SOURCE = "samples/pekko-cluster/src/main/java/dev/enginestates/samples/pekko/GuardRooms.java";

    @Test
    void everyJavaLineOfThePekkoPageStandsInOrderInTheCompiledGameAndTheyAreAtMostFifty() throws IOException {
        Path root = root();
        String page = Files.readString(root.resolve(PAGE)).replace("\r\n", "\n");
        List<String> source = new ArrayList<>();
        for (String line : Files.readAllLines(root.resolve(SOURCE))) {
            source.add(normal(line));
        }
        List<String> problems = new ArrayList<>();
        int blocks = 0;
        int lines = 0;
        Matcher m = JAVA_BLOCK.matcher(page);
        while (m.find()) {
            blocks++;
            int at = 0;
            for (String line : m.group(1).split("\n")) {
                String want = normal(line);
                if (want.isEmpty()) {
                    continue;
                }
                lines++;
                int found = source.subList(at, source.size()).indexOf(want);
                if (found < 0) {
                    problems.add(PAGE + ", Java block " + blocks + ": this line is not in " + SOURCE + " (in order):\n    " + line.strip());
                    break;
                }
                at += found + 1;
            }
        }
        assertEquals(List.of(), problems);
        assertTrue(blocks >= 3, "the page shows the game's code: " + blocks + " Java blocks");
        assertTrue(lines <= 50, "the page promises a game in at most 50 lines of its own code; its Java blocks have " + lines);
    }

    /** A line as the comparison reads it: no indentation, runs of spaces as one. */
    private static String normal(String line) {
        return line.strip().replaceAll("\\s+", " ");
    }

    /** The repository's root: the folder above that holds the page. */
    private static Path root() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve(PAGE))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("no folder above " + Path.of("").toAbsolutePath() + " holds " + PAGE);
        }
        return p;
    }
}

package dev.enginestates.samples.readme;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue "Test kit and samples": every code block in the README compiles. Each Java block's
 * lines must stand, in order, in compiled sources ({@link Tour}, {@link ReadmeKitTest}), and
 * the tour runs and does what the README says it does.
 */
class ReadmeCodeTest {
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);

    private static Path root() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("README.md"))) {
            p = p.getParent();
        }
        return p;
    }

    private static String normal(String line) {
        return line.strip().replaceAll("\\s+", " ");
    }

    @Test
    void everyJavaBlockOfTheReadmeStandsLineForLineInCompiledSources() throws IOException {
        Path root = root();
        String readme = Files.readString(root.resolve("README.md"));
        List<String> source = new ArrayList<>();
        for (String folder : new String[] {"samples/src/main/java/dev/enginestates/samples/readme",
                "samples/src/test/java/dev/enginestates/samples/readme"}) {
            try (var files = Files.walk(root.resolve(folder))) {
                for (Path f : (Iterable<Path>) files.filter(x -> x.toString().endsWith(".java")).sorted()::iterator) {
                    for (String line : Files.readAllLines(f)) {
                        source.add(normal(line));
                    }
                }
            }
        }
        Matcher m = JAVA_BLOCK.matcher(readme);
        int blocks = 0;
        while (m.find()) {
            blocks++;
            int at = 0;
            for (String line : m.group(1).split("\n")) {
                String want = normal(line);
                if (want.isEmpty()) {
                    continue;
                }
                int found = source.subList(at, source.size()).indexOf(want);
                assertTrue(found >= 0, "README block " + blocks + ": this line is not in the compiled tour sources (in order):\n  "
                        + line.strip());
                at += found + 1;
            }
        }
        assertTrue(blocks >= 6, "the README has its Java blocks: " + blocks);
    }

    @Test
    void thePolledTourDoesWhatTheReadmeSays() {
        PolledTour.LOG.clear();
        assertEquals("combat.engage", PolledTour.plain(), "back to combat.engage 0.2 s after the hit");
        assertEquals(List.of("[fsm] patrol>combat.engage", "[fsm] combat.engage>flinch", "[fsm] flinch>combat.engage"), PolledTour.LOG);
        assertEquals(1, PolledTour.ecs(), "the bot is back in combat");
    }

    @Test
    void theTourDoesWhatTheReadmeSays() {
        assertEquals(1.0, Tour.tour(), 1e-9, "RESUME brings the guard back with one second left");
        assertEquals("breather", Tour.plain());
        assertTrue(Tour.saves(), "the checkpoint restored into another world reads back the same");
        Tour.ecs();
    }

    @Test
    void theSiegeAsDeclaredInTheReadmeCountsItsWaves() {
        dev.enginestates.plain.StateMachine<Tour.Siege> siege = new dev.enginestates.plain.StateMachine<>(Tour.SIEGE_MACHINE);
        siege.send("START");
        siege.send("WAVE_HELD");
        assertEquals(1, siege.context().wave);
        assertFalse(siege.matches("fight"));
        assertEquals(Map.of(), Map.of());
    }
}

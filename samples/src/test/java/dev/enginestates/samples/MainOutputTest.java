package dev.enginestates.samples;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the samples' main job prints reads on its own: each part is labelled by the features it
 * shows and says in a line what its lines are, and the room's means are those of a warmed-up JVM,
 * the warm-up reported apart.
 */
class MainOutputTest {
    private static final Pattern A_DOCUMENT_NUMBER = Pattern.compile("\\b00[0-9]\\b");

    private static List<String> lines(Runnable part) {
        PrintStream before = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            part.run();
        } finally {
            System.setOut(before);
        }
        return out.toString(StandardCharsets.UTF_8).replace("\r\n", "\n").lines().toList();
    }

    private static void assertEachLabelIsExplained(List<String> lines) {
        int labels = 0;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith("==")) {
                labels++;
                assertFalse(A_DOCUMENT_NUMBER.matcher(line).find(), "a label names features, not a document: " + line);
                assertTrue(i + 1 < lines.size() && !lines.get(i + 1).isBlank() && !lines.get(i + 1).startsWith("=="),
                        "a line after " + line + " says what the part shows");
            }
        }
        assertTrue(labels > 0, String.join("\n", lines));
    }

    @Test
    void theWalkThroughLabelsNameFeaturesAndEachSaysWhatItsLinesShow() {
        List<String> lines = lines(Main::walkThrough);
        assertEachLabelIsExplained(lines);
        assertEquals(2, lines.stream().filter(l -> l.startsWith("==")).count(), String.join("\n", lines));
        assertTrue(lines.contains("  a second siege, lost in its first wave: ALL_DOWN during a fight ends it"),
                "the second siege is explained: " + String.join("\n", lines));
    }

    @Test
    void theRoomWarmsUpBeforeItReportsMeansAndReportsTheWarmUpApart() {
        List<String> lines = lines(() -> Main.room(null, false, new ByteArrayInputStream(new byte[0])));
        assertEachLabelIsExplained(lines);
        int warmUp = -1;
        int header = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("warm-up: ")) {
                warmUp = i;
            }
            if (lines.get(i).contains("step mean") && header < 0) {
                header = i;
            }
        }
        assertTrue(warmUp >= 0 && header > warmUp, "the warm-up is reported before the table: " + String.join("\n", lines));
        assertEquals(60, lines.stream().filter(l -> l.endsWith(" µs")).count(), "a line per game second");
        assertTrue(lines.get(lines.size() - 1).startsWith("3600 steps, mean "), String.join("\n", lines));
    }
}

package dev.enginestates;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Javadoc ships to game developers, who do not have the project's source documents nor its
 * issue tracker: a doc comment names the style or the feature ("the polled style", "as XState
 * does"), never "the 003 document" or "issue 14". Every main source tree is read: the library's
 * modules (module descriptors included), the test kit, the aggregate module and the samples.
 * Ordinary comments are left alone: they are for maintainers.
 */
class UserTextNamesNoInternalDocumentTest {
    /** A document's number, alone or as its file's prefix; not the digits of 1,000 or 3.000. */
    private static final Pattern DOCUMENT = Pattern.compile("(?<![\\w.,])00[0-4](?![0-9A-Za-z]|[.,]\\d)");
    private static final Pattern ISSUE = Pattern.compile("(?i)\\bissues?\\s+#?\\d+");

    @Test
    void docCommentsNameNoSourceDocumentNorIssueNumber() throws IOException {
        List<String> found = new ArrayList<>();
        int files = 0;
        for (Path tree : trees()) {
            List<Path> sources;
            try (Stream<Path> walk = Files.walk(tree)) {
                sources = walk.filter(f -> f.toString().endsWith(".java")).sorted().toList();
            }
            for (Path source : sources) {
                files++;
                found.addAll(mentions(source, Files.readString(source)));
            }
        }
        assertTrue(files > 150, "the scan read " + files + " sources of " + trees());
        assertTrue(found.isEmpty(), found.size() + " doc comment lines name a source document or an issue number;"
                + " name the style or feature instead (\"the polled style\", \"as XState does\"):\n"
                + String.join("\n", found));
    }

    @Test
    void theScanSeesOnlyDocComments() {
        String code = "/** Polled, as the {@code 000} document says (issue 14). */\n"
                + "class A {\n"
                + "    // the 003 document's rule, kept for maintainers\n"
                + "    /* 002 */ String s = \"/** 003 */\";\n"
                + "    /** 1,000 guards, t=3.000 s, 0.001 s; see 003_f8579c7b8965c6c1.txt */\n"
                + "    char c = '\"';\n"
                + "    /** fine */ String t = \"\"\"\n"
                + "        /** 004 */\n"
                + "        \"\"\";\n"
                + "}\n";
        List<String> found = mentions(Path.of("A.java"), code);
        assertEquals(List.of("A.java:1: 000", "A.java:1: issue 14", "A.java:5: 003"), found.stream()
                .map(f -> f.substring(0, f.indexOf(" in ")))
                .toList());
    }

    private static List<Path> trees() {
        List<Path> trees = new ArrayList<>();
        for (Path root : LibraryModules.sourceRoots()) {
            // the roots are <module>/src/main/java/dev/enginestates; module-info.java sits two folders up
            trees.add(root.getParent().getParent());
        }
        trees.add(Path.of("../engine-states/src/main/java"));
        trees.add(Path.of("../engine-states-testing/src/main/java"));
        trees.add(Path.of("../samples/src/main/java"));
        trees.add(Path.of("../engine-states-pekko/src/main/java"));
        return trees;
    }

    /** Each mention inside a doc comment, as {@code file:line: mention in <the line>}. */
    private static List<String> mentions(Path file, String text) {
        List<String> out = new ArrayList<>();
        for (int[] span : docComments(text)) {
            String comment = text.substring(span[0], span[1]);
            for (Pattern p : List.of(DOCUMENT, ISSUE)) {
                Matcher m = p.matcher(comment);
                while (m.find()) {
                    int at = span[0] + m.start();
                    int lineStart = text.lastIndexOf('\n', at - 1) + 1;
                    int lineEnd = text.indexOf('\n', at);
                    String line = text.substring(lineStart, lineEnd < 0 ? text.length() : lineEnd).trim();
                    out.add(file + ":" + lineOf(text, at) + ": " + m.group() + " in " + line);
                }
            }
        }
        out.sort(null);
        return out;
    }

    /**
     * The spans of {@code /** ... *\/} comments, skipping string, text-block and char literals and
     * other comments, so that a {@code "/**"} in code is not taken for one.
     */
    private static List<int[]> docComments(String s) {
        List<int[]> spans = new ArrayList<>();
        int i = 0;
        while (i < s.length()) {
            if (s.startsWith("//", i)) {
                int end = s.indexOf('\n', i);
                i = end < 0 ? s.length() : end + 1;
            } else if (s.startsWith("/*", i)) {
                int end = s.indexOf("*/", i + 2);
                int close = end < 0 ? s.length() : end + 2;
                if (s.startsWith("/**", i) && !s.startsWith("/**/", i)) {
                    spans.add(new int[] {i, close});
                }
                i = close;
            } else if (s.startsWith("\"\"\"", i)) {
                int end = s.indexOf("\"\"\"", i + 3);
                while (end > 0 && s.charAt(end - 1) == '\\') {
                    end = s.indexOf("\"\"\"", end + 1);
                }
                i = end < 0 ? s.length() : end + 3;
            } else if (s.charAt(i) == '"' || s.charAt(i) == '\'') {
                char quote = s.charAt(i);
                i++;
                while (i < s.length() && s.charAt(i) != quote && s.charAt(i) != '\n') {
                    i += s.charAt(i) == '\\' ? 2 : 1;
                }
                i++;
            } else {
                i++;
            }
        }
        return spans;
    }

    private static int lineOf(String text, int at) {
        int line = 1;
        for (int k = 0; k < at; k++) {
            if (text.charAt(k) == '\n') {
                line++;
            }
        }
        return line;
    }
}

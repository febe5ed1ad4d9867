package dev.enginestates.samples.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The README and the pages of docs/ as the tests read them: their Java blocks, their links and
 * headings, and the compiled sources their code must stand in.
 */
public final class Pages {
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern ANY_BLOCK = Pattern.compile("```.*?```", Pattern.DOTALL);
    private static final Pattern INLINE_CODE = Pattern.compile("`[^`\\n]*`");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6} (.+)$", Pattern.MULTILINE);

    /** The folders whose compiled sources hold the code of the README and of docs/. */
    public static final List<String> SOURCES = List.of(
            "samples/src/main/java/dev/enginestates/samples/readme",
            "samples/src/test/java/dev/enginestates/samples/readme",
            "samples/src/main/java/dev/enginestates/samples/docs",
            "samples/src/test/java/dev/enginestates/samples/docs");

    private Pages() {
    }

    /** The repository's root: the folder that holds README.md and docs/. */
    public static Path root() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !(Files.exists(p.resolve("README.md")) && Files.isDirectory(p.resolve("docs")))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("no folder above " + Path.of("").toAbsolutePath() + " holds README.md and docs/");
        }
        return p;
    }

    /** README.md and every page of docs/, README first, then the pages by name. */
    public static List<Path> all() {
        List<Path> pages = new ArrayList<>();
        pages.add(root().resolve("README.md"));
        pages.addAll(docs());
        return pages;
    }

    /** Every Markdown page of docs/, by name. */
    public static List<Path> docs() {
        try (var files = Files.list(root().resolve("docs"))) {
            return files.filter(f -> f.toString().endsWith(".md")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A page's text, with line ends as \n. */
    public static String text(Path page) {
        try {
            return Files.readString(page).replace("\r\n", "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The Java blocks of a page, in order, without their fences. */
    public static List<String> javaBlocks(Path page) {
        List<String> blocks = new ArrayList<>();
        Matcher m = JAVA_BLOCK.matcher(text(page));
        while (m.find()) {
            blocks.add(m.group(1));
        }
        return blocks;
    }

    /** A line as the comparison reads it: no indentation, runs of spaces as one. */
    public static String normal(String line) {
        return line.strip().replaceAll("\\s+", " ");
    }

    /** Every line of the compiled sources of the README and docs/, file by file in name order, normalised. */
    public static List<String> compiledLines() {
        List<String> lines = new ArrayList<>();
        for (Path f : compiledFiles()) {
            try {
                for (String line : Files.readAllLines(f)) {
                    lines.add(normal(line));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return lines;
    }

    /** The compiled source files of the README and docs/, in name order per folder. */
    public static List<Path> compiledFiles() {
        List<Path> files = new ArrayList<>();
        for (String folder : SOURCES) {
            Path dir = root().resolve(folder);
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (var all = Files.walk(dir)) {
                all.filter(x -> x.toString().endsWith(".java")).sorted().forEach(files::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return files;
    }

    /**
     * The first line of a block that does not stand, in order, in the compiled sources, or null
     * when every line does. Blank lines are skipped; each line must come after the one before it.
     */
    public static String firstLineNotInSources(String block, List<String> sources) {
        int at = 0;
        for (String line : block.split("\n")) {
            String want = normal(line);
            if (want.isEmpty()) {
                continue;
            }
            int found = sources.subList(at, sources.size()).indexOf(want);
            if (found < 0) {
                return line.strip();
            }
            at += found + 1;
        }
        return null;
    }

    /** The targets of a page's Markdown links and images, outside code blocks and code spans, in order. */
    public static List<String> links(Path page) {
        String prose = INLINE_CODE.matcher(ANY_BLOCK.matcher(text(page)).replaceAll("")).replaceAll("``");
        List<String> out = new ArrayList<>();
        Matcher m = LINK.matcher(prose);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** The anchors GitHub gives a page's headings (outside code blocks), with -1, -2 for repeats. */
    public static Set<String> anchors(Path page) {
        String prose = ANY_BLOCK.matcher(text(page)).replaceAll("");
        Set<String> out = new LinkedHashSet<>();
        Map<String, Integer> seen = new LinkedHashMap<>();
        Matcher m = HEADING.matcher(prose);
        while (m.find()) {
            String slug = slug(m.group(1));
            int n = seen.merge(slug, 1, Integer::sum) - 1;
            out.add(n == 0 ? slug : slug + "-" + n);
        }
        return out;
    }

    /** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
    public static String slug(String heading) {
        return heading.strip().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }
}

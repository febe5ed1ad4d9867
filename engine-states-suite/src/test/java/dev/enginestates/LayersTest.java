package dev.enginestates;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DESIGN.md, "Layers: data flows one way": declaration, compiled chart, record, algorithm,
 * the definitions that compile (the XState-style {@code Machine}, the builder style), the
 * faces, then I/O. A package may use the ones below it and never one above it or beside it,
 * so the packages form no cycle. Read from the sources, comments left out.
 */
class LayersTest {
    /** Each package's rank; a package may depend only on packages of a lower rank. */
    static final Map<String, Integer> RANK = Map.ofEntries(
            Map.entry("declare", 0),
            Map.entry("chart", 1),
            Map.entry("records", 2),
            Map.entry("algorithm", 3),
            Map.entry("", 4),          // Machine, StatesDef, MachineView
            Map.entry("running", 5),   // the running cell behind the plain-object faces
            Map.entry("fsm", 6),
            Map.entry("xstate", 8),    // the import yields a Machine; the export also takes an entity binding
            Map.entry("scxml", 6),
            Map.entry("ecs", 7),
            Map.entry("plain", 7),
            Map.entry("diagram", 9),   // reads definitions of every style and their entity bindings; its command imports and exports XState JSON
            Map.entry("io", 8),
            Map.entry("devtools", 9));

    private static final Pattern REFERENCE = Pattern.compile("\\bdev\\.enginestates\\.(?:([a-z]+)\\.)?[A-Z]");

    /** package → packages it names in code (imports and qualified names), comments and strings left out. */
    static Map<String, Set<String>> uses() {
        Map<String, Set<String>> uses = new TreeMap<>();
        try {
            for (Map.Entry<Path, Path> source : LibraryModules.sources().entrySet()) {
                Path f = source.getValue();
                Path parent = source.getKey().getParent();
                String pkg = parent == null ? "" : parent.toString().replace('/', '.');
                if (f.getFileName().toString().equals("package-info.java")) {
                    continue;
                }
                String code = Files.readString(f)
                        .replaceAll("(?s)/\\*.*?\\*/", "")
                        .replaceAll("//[^\n]*", "")
                        .replaceAll("\"(?:\\\\.|[^\"\\\\\n])*\"", "\"\"");
                Set<String> to = uses.computeIfAbsent(pkg, k -> new TreeSet<>());
                Matcher m = REFERENCE.matcher(code);
                while (m.find()) {
                    String target = m.group(1) == null ? "" : m.group(1);
                    if (!target.equals(pkg)) {
                        to.add(target);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return uses;
    }

    @Test
    void everyPackageHasARank() {
        Set<String> packages = uses().keySet();
        assertEquals(new TreeSet<>(RANK.keySet()), packages,
                "a new package needs its place in the layers (DESIGN.md) before it lands");
    }

    @Test
    void noLayerReachesBackUpOrSideways() {
        List<String> wrong = new ArrayList<>();
        uses().forEach((from, targets) -> {
            for (String to : targets) {
                if (to.equals("dominion")) {
                    continue; // the patched ECS, below everything; only the ECS face may use it (next test)
                }
                Integer rankTo = RANK.get(to);
                if (rankTo == null || rankTo >= RANK.get(from)) {
                    wrong.add("'" + name(from) + "' uses '" + name(to) + "'");
                }
            }
        });
        assertTrue(wrong.isEmpty(), "layers reached back up: " + wrong);
    }

    @Test
    void theRootPackageFormsNoCycleWithTheDeclarationOrTheChart() {
        Map<String, Set<String>> uses = uses();
        assertFalse(uses.get("declare").contains(""), "declare uses the root package");
        assertFalse(uses.get("chart").contains(""), "chart uses the root package");
        assertTrue(uses.get("").contains("chart") && uses.get("").contains("declare"),
                "the root's Machine compiles declarations; if that changed, this test's premise did");
    }

    @Test
    void theAlgorithmKnowsNothingOfDominionAndTheEcsBindingNothingOfJson() {
        try {
            for (Map.Entry<Path, Path> source : LibraryModules.sources().entrySet()) {
                Path f = source.getValue();
                Path parent = source.getKey().getParent();
                String pkg = parent == null ? "" : parent.toString();
                String code = Files.readString(f).replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "");
                if (RANK.get(pkg.replace('/', '.')) <= RANK.get("")) {
                    assertFalse(code.contains("dev.enginestates.dominion") || code.contains("dev.dominion"),
                            f + " knows Dominion; below the faces nothing may");
                }
                if (!pkg.equals("io") && !pkg.equals("xstate") && !pkg.equals("devtools")) {
                    assertFalse(code.contains("com.fasterxml"), f + " knows JSON; only io, xstate and devtools may");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The rule reads the sources it judges; a wrong path would make every test above pass on nothing. */
    @Test
    void theRuleSeesTheSources() {
        Map<String, Set<String>> uses = uses();
        assertTrue(uses.get("ecs").contains("algorithm"), uses::toString);
        assertTrue(uses.get("io").contains("records"), uses::toString);
    }

    private static String name(String pkg) {
        return pkg.isEmpty() ? "dev.enginestates" : "dev.enginestates." + pkg;
    }
}

package dev.enginestates;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the build declares is what it uses. A version the parent pom manages for no module reads
 * as a dependency of the project when nothing uses it; and the library itself brings in only
 * its ECS (README, "Dependency"): everything else is optional or for tests, on the class path
 * and on the module path alike.
 */
class DependenciesTest {
    private static final Path ROOT = Path.of("..");
    private static final Pattern DEPENDENCY = Pattern.compile("(?s)<dependency>(.*?)</dependency>");
    private static final Pattern ARTIFACT = Pattern.compile("<artifactId>([^<]+)</artifactId>");
    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
    private static final Pattern REQUIRES = Pattern.compile("\\brequires\\s+(transitive\\s+|static\\s+)*([\\w.]+)\\s*;");

    @Test
    void everyDependencyTheParentManagesIsDeclaredByOneOfItsModules() {
        String parent = pom(ROOT.resolve("pom.xml"));
        Set<String> declared = new TreeSet<>();
        Matcher module = MODULE.matcher(parent);
        int modules = 0;
        while (module.find()) {
            String pom = pom(ROOT.resolve(module.group(1)).resolve("pom.xml"));
            declared.addAll(artifacts(pom.replace(section(pom, "dependencyManagement"), "")));
            modules++;
        }
        assertTrue(modules >= 5 && declared.contains("engine-states-dominion") && declared.contains("jmh-core"),
                "the rule reads every module's pom; it found " + modules + " declaring " + declared);
        List<String> unused = new ArrayList<>(artifacts(section(parent, "dependencyManagement")));
        unused.removeAll(declared);
        assertEquals(List.of(), unused, "the parent pom manages a version of these, but no module declares them: "
                + "declare each where it is used, or drop it from <dependencyManagement>");
    }

    @Test
    void theLibraryNeedsNothingButItsEcsAtRunTime() {
        List<String> required = new ArrayList<>();
        Matcher d = DEPENDENCY.matcher(pom(Path.of("pom.xml")));
        while (d.find()) {
            String dependency = d.group(1);
            Matcher a = ARTIFACT.matcher(dependency);
            if (!dependency.contains("<optional>true</optional>") && !dependency.contains("<scope>test</scope>") && a.find()) {
                required.add(a.group(1).trim());
            }
        }
        assertEquals(List.of("engine-states-dominion"), required,
                "engine-states brings these into every game; anything but the ECS must be optional or for tests");

        List<String> modules = new ArrayList<>();
        Matcher r = REQUIRES.matcher(read(Path.of("src/main/java/module-info.java")).replaceAll("(?s)/\\*.*?\\*/|//[^\n]*", ""));
        while (r.find()) {
            if (r.group(1) == null || !r.group(1).contains("static")) {
                modules.add(r.group(2));
            }
        }
        assertEquals(List.of("dev.enginestates.dominion"), modules,
                "on the module path a game must resolve every module the library requires; anything but the ECS must be 'requires static'");
    }

    /** The artifactIds of the {@code <dependency>} elements in a piece of a pom. */
    private static List<String> artifacts(String xml) {
        List<String> out = new ArrayList<>();
        Matcher d = DEPENDENCY.matcher(xml);
        while (d.find()) {
            Matcher a = ARTIFACT.matcher(d.group(1));
            if (a.find()) {
                out.add(a.group(1).trim());
            }
        }
        return out;
    }

    /** The first {@code <tag>...</tag>} of a pom, or the empty string. */
    private static String section(String xml, String tag) {
        int from = xml.indexOf("<" + tag + ">");
        int to = xml.indexOf("</" + tag + ">");
        return from < 0 || to < from ? "" : xml.substring(from, to + tag.length() + 3);
    }

    /** A pom without its comments (they name artifacts in prose). */
    private static String pom(Path file) {
        return read(file).replaceAll("(?s)<!--.*?-->", "");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

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
 * What the build declares is what it uses: a version the parent pom manages for no module reads
 * as a dependency of the project when nothing uses it. (What each library module brings into a
 * game is {@link ModuleGraphTest}'s.)
 */
class DependenciesTest {
    private static final Path ROOT = Path.of("..");
    private static final Pattern DEPENDENCY = Pattern.compile("(?s)<dependency>(.*?)</dependency>");
    private static final Pattern ARTIFACT = Pattern.compile("<artifactId>([^<]+)</artifactId>");
    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");

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

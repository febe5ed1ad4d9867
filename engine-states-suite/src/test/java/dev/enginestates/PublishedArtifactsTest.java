package dev.enginestates;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the build publishes, read from the poms: every jar it deploys has a Javadoc jar beside
 * it (a repository such as Maven Central refuses a jar without one), and the BOM manages each of
 * them. The archetype is published too but is no dependency, so the BOM leaves it out.
 */
class PublishedArtifactsTest {
    private static final Path ROOT = Path.of("..");
    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");

    @Test
    void everyPublishedJarHasAJavadocJarAndTheBomManagesIt() {
        String bom = pom("engine-states-bom");
        List<String> noJavadoc = new ArrayList<>();
        List<String> notInBom = new ArrayList<>();
        int published = 0;
        Matcher m = MODULE.matcher(pom("."));
        while (m.find()) {
            String module = m.group(1).trim();
            String pom = pom(module);
            if (pom.contains("<packaging>") || pom.contains("<maven.deploy.skip>true</maven.deploy.skip>")) {
                continue; // the BOM and the archetype are no jars; the suite, bench and samples are not published
            }
            published++;
            if (pom.contains("<maven.javadoc.skip>true</maven.javadoc.skip>") && !pom.contains("<classifier>javadoc</classifier>")) {
                noJavadoc.add(module);
            }
            if (!bom.contains("<artifactId>" + artifactId(pom) + "</artifactId>")) {
                notInBom.add(module);
            }
        }
        assertTrue(published >= 9, "the rule read " + published + " published jars");
        assertEquals(List.of(), noJavadoc, "these published jars have no Javadoc jar beside them");
        assertEquals(List.of(), notInBom, "the BOM does not manage these published jars");
    }

    /** A module's pom without its comments. */
    private static String pom(String module) {
        return LibraryModules.read(ROOT.resolve(module).resolve("pom.xml")).replaceAll("(?s)<!--.*?-->", "");
    }

    /** The module's own artifactId: the first one after its parent's. */
    private static String artifactId(String pom) {
        String own = pom.replaceFirst("(?s)<parent>.*?</parent>", "");
        Matcher a = Pattern.compile("<artifactId>([^<]+)</artifactId>").matcher(own);
        assertTrue(a.find(), "a pom without an artifactId");
        return a.group(1).trim();
    }
}

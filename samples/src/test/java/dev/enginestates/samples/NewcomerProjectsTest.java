package dev.enginestates.samples;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pom a newcomer starts from: the archetype's (engine-states-archetype) and the minimal project's
 * (samples/minimal-project) are one pom, and it pins what Maven 3.6.3 to 3.8 would otherwise pick too old. The
 * projects themselves are built offline on JDK 17, JDK 25 and Maven 3.6.3 by .ci/newcomer-projects.
 */
class NewcomerProjectsTest {
    private static final Path TEMPLATE = Path.of("engine-states-archetype/src/main/resources/archetype-resources/pom.xml");
    private static final Path MINIMAL = Path.of("samples/minimal-project/pom.xml");

    private static Path root() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("engine-states-bom"))) {
            p = p.getParent();
        }
        return p;
    }

    private static String read(Path file) throws IOException {
        return Files.readString(root().resolve(file));
    }

    private static String projectVersion() throws IOException {
        Matcher m = Pattern.compile("<artifactId>engine-states-parent</artifactId>\\s*<version>([^<]+)</version>").matcher(read(Path.of("pom.xml")));
        assertTrue(m.find(), "the parent pom's version");
        return m.group(1);
    }

    @Test
    void theMinimalProjectsPomIsTheOneTheArchetypeGeneratesForItsCoordinates() throws IOException {
        String generated = read(TEMPLATE)
                .replace("${groupId}", "com.example")
                .replace("${artifactId}", "minimal-project")
                .replace("${version}", "1.0-SNAPSHOT")
                .replace("@project.version@", projectVersion());
        assertEquals(generated, read(MINIMAL), MINIMAL + " must be the pom the archetype generates for com.example:minimal-project:"
                + "1.0-SNAPSHOT (with this build's engine-states version): change " + TEMPLATE + " and copy it there");
    }

    @Test
    void theNewcomersPomPinsTheCompilerForJava17AndASurefireThatRunsJUnit5() throws IOException {
        String pom = read(TEMPLATE);
        assertTrue(pom.contains("<maven.compiler.release>17</maven.compiler.release>"), "compiles for Java 17");
        assertTrue(pom.contains("<project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>"),
                "names its encoding, so the build does not warn about the platform's");
        for (String plugin : new String[] {"maven-resources-plugin", "maven-compiler-plugin", "maven-surefire-plugin", "maven-jar-plugin"}) {
            Matcher m = Pattern.compile("<artifactId>" + plugin + "</artifactId>\\s*<version>(\\d+)\\.[^<]+</version>").matcher(pom);
            assertTrue(m.find(), plugin + " is pinned: Maven 3.6.3's default compiles for Java 5 or runs no JUnit 5 test");
            assertTrue(Integer.parseInt(m.group(1)) >= 3, plugin + " is 3.x or later, not " + m.group());
        }
    }

    /** A project made from the README's dependency section alone builds: the section shows the whole minimal pom, which CI builds. */
    @Test
    void theReadmesDependencySectionIsTheMinimalProjectsWholePom() throws IOException {
        String readme = read(Path.of("README.md"));
        int section = readme.indexOf("## Add it to a project");
        assertTrue(section >= 0, "the README has its dependency section");
        Matcher block = Pattern.compile("```xml\n(.*?)```", Pattern.DOTALL).matcher(readme);
        assertTrue(block.find(section), "the dependency section shows a pom");
        assertEquals(read(MINIMAL), block.group(1), "the README's pom must be " + MINIMAL + ", which .ci/newcomer-projects builds"
                + " on JDK 17, JDK 25 and Maven 3.6.3: copy it into the README");
    }
}

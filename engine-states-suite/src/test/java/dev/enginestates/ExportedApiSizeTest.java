package dev.enginestates;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A game depends on a small API: the public top-level types of the packages the module exports
 * to everyone stay at most {@link #MOST} (93 when the three styles came to share one runtime:
 * a new capability is written on that runtime, not as a type per style; 94 with {@code Rewind},
 * written once for every style, its codec and inputs nested in it; 95 with {@code Migration}, the
 * one declaration of how a version's records become the next's, for every style, every restore
 * and {@code StateWorld.swap}; 97 with {@code InvokeBuilder}, the one declaration of a child
 * machine, and {@code ChildMachine}, how a declaration names a compiled machine without
 * depending on it; their links and lifetime are written once, in the world; 98 with {@code Interest},
 * the game's rule of which entities a player's stream carries, one functional interface). Fewer is better; a new
 * exported type replaces one, or this number is raised on purpose, in review.
 */
class ExportedApiSizeTest {
    static final int MOST = 98;

    @Test
    void theExportedApiDoesNotGrow() throws Exception {
        List<String> packages = LibraryModules.apiPackages();
        assertFalse(packages.isEmpty(), "no module-info.java exports anything to everyone; are the sources there?");
        List<String> types = new ArrayList<>();
        for (String p : packages) {
            Path dir = LibraryModules.classRoots().stream().map(r -> r.resolve(p.replace('.', '/'))).filter(Files::isDirectory)
                    .findFirst().orElseThrow(() -> new AssertionError("no module's target/classes holds " + p));
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    String file = f.getFileName().toString();
                    if (!file.endsWith(".class") || file.contains("$") || file.startsWith("package-info")) {
                        continue;
                    }
                    Class<?> c = Class.forName(p + "." + file.substring(0, file.length() - 6), false, getClass().getClassLoader());
                    if (Modifier.isPublic(c.getModifiers())) {
                        types.add(c.getName());
                    }
                }
            }
        }
        assertTrue(types.size() > 40, "the scan found " + types.size() + " exported types; is target/classes there?");
        assertTrue(types.size() <= MOST, "the exported packages have " + types.size() + " public types, more than " + MOST
                + ": " + types);
    }
}

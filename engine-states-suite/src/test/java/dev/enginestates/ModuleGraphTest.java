package dev.enginestates;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The library is split by what a game uses, and each artifact brings only what it needs: the
 * core (declaration, chart, record, algorithm, machines on plain objects) no ECS, no JSON and no
 * HTTP; the ECS face the patched Dominion; persistence, XState and devtools Jackson (devtools
 * persistence too, for the checkpoints of the ticks it keeps); SCXML Rhino;
 * {@code engine-states} everything, as before the split. The Maven dependencies and the Java
 * module descriptors say the same, and no package lives in two modules.
 */
class ModuleGraphTest {
    private static final Pattern DEPENDENCY = Pattern.compile("(?s)<dependency>(.*?)</dependency>");
    private static final Pattern ARTIFACT = Pattern.compile("<artifactId>([^<]+)</artifactId>");

    /** Each module's run-time dependencies (not optional, not test), as its pom declares them. */
    private static final Map<String, List<String>> RUNTIME = Map.of(
            "engine-states-core", List.of(),
            "engine-states-ecs", List.of("engine-states-core", "engine-states-dominion"),
            "engine-states-io", List.of("engine-states-ecs", "jackson-databind"),
            "engine-states-xstate", List.of("engine-states-ecs", "jackson-databind"),
            "engine-states-scxml", List.of("engine-states-core", "rhino"),
            "engine-states-devtools", List.of("engine-states-ecs", "engine-states-io", "jackson-databind"));

    /** Each module's {@code requires}, with their modifiers. */
    private static final Map<String, Map<String, String>> REQUIRES = Map.of(
            // jdk.jfr: the flight recorder events of the core, the world and the saves (a module of the JDK)
            "engine-states-core", Map.of("dev.dominion.ecs.api", "static ", "jdk.jfr", ""),
            "engine-states-ecs", Map.of("dev.enginestates.core", "transitive ", "dev.enginestates.dominion", "transitive ",
                    "jdk.jfr", ""),
            "engine-states-io", Map.of("dev.enginestates.ecs", "transitive ", "com.fasterxml.jackson.databind", "", "jdk.jfr", ""),
            "engine-states-xstate", Map.of("dev.enginestates.ecs", "transitive ", "com.fasterxml.jackson.databind", "transitive "),
            "engine-states-scxml", Map.of("dev.enginestates.core", "transitive ", "java.xml", "", "org.mozilla.rhino", ""),
            "engine-states-devtools", Map.of("dev.enginestates.ecs", "transitive ", "dev.enginestates.io", "",
                    "com.fasterxml.jackson.databind", ""));

    @Test
    void eachModuleDependsOnWhatItsFeatureNeedsAndTheCoreOnNothing() {
        Map<String, List<String>> found = new TreeMap<>();
        for (String module : LibraryModules.MODULES.keySet()) {
            found.put(module, runtimeDependencies(module));
        }
        assertEquals(new TreeMap<>(RUNTIME), found, "a module's pom brings a game more (or less) than its feature needs");
        assertTrue(optionalDependencies("engine-states-core").equals(List.of("dominion-ecs-api")),
                "the core names Dominion's Entity only in the builder context's back-reference, optionally: "
                        + optionalDependencies("engine-states-core"));
    }

    @Test
    void eachModuleDescriptorRequiresWhatItsPomBrings() {
        Map<String, Map<String, String>> found = new TreeMap<>();
        for (String module : LibraryModules.MODULES.keySet()) {
            found.put(module, new TreeMap<>(LibraryModules.requires(module)));
        }
        Map<String, Map<String, String>> want = new TreeMap<>();
        REQUIRES.forEach((k, v) -> want.put(k, new TreeMap<>(v)));
        assertEquals(want, found, "module-info.java and the pom disagree, or a module reads more than it needs");
    }

    @Test
    void theAllInOneRequiresEveryModuleTransitivelyAndHasNoCodeOfItsOwn() throws IOException {
        Map<String, String> requires = LibraryModules.requires("engine-states");
        Map<String, String> want = new LinkedHashMap<>();
        for (String module : LibraryModules.MODULES.values()) {
            want.put(module, "transitive ");
        }
        assertEquals(want, requires, "engine-states must give a game every module, as before the split");
        List<String> artifacts = new ArrayList<>(LibraryModules.MODULES.keySet());
        assertEquals(artifacts, runtimeDependencies("engine-states"), "engine-states' pom brings every module");
        try (Stream<Path> files = Files.walk(LibraryModules.folder("engine-states").resolve("src/main/java"))) {
            List<String> code = files.filter(f -> f.toString().endsWith(".java") && !f.endsWith("module-info.java"))
                    .map(Path::toString).toList();
            assertEquals(List.of(), code, "the all-in-one is a module descriptor only; code belongs in a feature's module");
        }
    }

    @Test
    void noPackageLivesInTwoModules() {
        Map<String, String> owner = new HashMap<>();
        List<String> split = new ArrayList<>();
        int packages = 0;
        for (Map.Entry<String, String> module : LibraryModules.MODULES.entrySet()) {
            Path root = LibraryModules.folder(module.getKey()).resolve("src/main/java");
            for (Path source : LibraryModules.sources().values()) {
                if (!source.startsWith(root)) {
                    continue;
                }
                String pkg = root.relativize(source.getParent()).toString().replace('/', '.');
                String before = owner.putIfAbsent(pkg, module.getKey());
                if (before == null) {
                    packages++;
                } else if (!before.equals(module.getKey())) {
                    split.add(pkg + " in " + before + " and " + module.getKey());
                }
            }
        }
        assertTrue(packages >= 14, "the rule read " + packages + " packages");
        assertEquals(List.of(), split, "a package split between modules cannot be on the module path");
    }

    @Test
    void aModuleCallsNoneOfTheLibrariesItsPomBringsOptional() {
        // Jackson and Rhino were optional before the split; a module that brings one must not tell a game to add it
        List<String> stale = new ArrayList<>();
        for (String module : LibraryModules.MODULES.keySet()) {
            if (!RUNTIME.get(module).contains("jackson-databind") && !RUNTIME.get(module).contains("rhino")) {
                continue;
            }
            Path root = LibraryModules.folder(module).resolve("src/main/java");
            for (Path source : LibraryModules.sources().values()) {
                if (!source.startsWith(root)) {
                    continue;
                }
                // a sentence may run over lines of a comment or of concatenated strings
                String text = LibraryModules.read(source).replaceAll("\"\\s*\\+\\s*\"", "").replaceAll("[\\s*]+", " ");
                if (Pattern.compile("optional dependency").matcher(text).find()) {
                    stale.add(source.toString());
                }
            }
        }
        assertEquals(List.of(), stale, "these sources call Jackson or Rhino an optional dependency, which their module brings");
    }

    private static List<String> runtimeDependencies(String module) {
        List<String> out = new ArrayList<>();
        for (String d : dependencies(module)) {
            if (!d.contains("<optional>true</optional>") && !d.contains("<scope>test</scope>")) {
                out.add(artifact(d));
            }
        }
        return out;
    }

    private static List<String> optionalDependencies(String module) {
        List<String> out = new ArrayList<>();
        for (String d : dependencies(module)) {
            if (d.contains("<optional>true</optional>")) {
                out.add(artifact(d));
            }
        }
        return out;
    }

    private static List<String> dependencies(String module) {
        String pom = LibraryModules.read(LibraryModules.folder(module).resolve("pom.xml")).replaceAll("(?s)<!--.*?-->", "");
        List<String> out = new ArrayList<>();
        Matcher d = DEPENDENCY.matcher(pom);
        while (d.find()) {
            out.add(d.group(1));
        }
        return out;
    }

    private static String artifact(String dependency) {
        Matcher a = ARTIFACT.matcher(dependency);
        return a.find() ? a.group(1).trim() : "?";
    }
}

package dev.enginestates;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The library's modules, as the tests that read sources, classes and module descriptors see
 * them: each Maven module's folder (beside this suite's), its Java module and its packages.
 * The tests run from the suite's folder, so the library lies at {@code ..}.
 */
public final class LibraryModules {
    /** Maven module folder to Java module name, in build order. */
    public static final Map<String, String> MODULES = modules();
    private static final Path ROOT = Path.of("..");
    private static final Pattern EXPORTS = Pattern.compile("\\bexports\\s+([\\w.]+)\\s*(to\\s+[^;]+)?;");
    private static final Pattern REQUIRES = Pattern.compile("\\brequires\\s+((?:transitive\\s+|static\\s+)*)([\\w.]+)\\s*;");

    private LibraryModules() {
    }

    private static Map<String, String> modules() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("engine-states-core", "dev.enginestates.core");
        m.put("engine-states-ecs", "dev.enginestates.ecs");
        m.put("engine-states-io", "dev.enginestates.io");
        m.put("engine-states-xstate", "dev.enginestates.xstate");
        m.put("engine-states-scxml", "dev.enginestates.scxml");
        m.put("engine-states-devtools", "dev.enginestates.devtools");
        return m;
    }

    /** A module's folder. */
    public static Path folder(String module) {
        return ROOT.resolve(module);
    }

    /** The folders holding the library's sources, {@code <module>/src/main/java/dev/enginestates}. */
    public static List<Path> sourceRoots() {
        List<Path> roots = new ArrayList<>();
        for (String m : MODULES.keySet()) {
            roots.add(folder(m).resolve("src/main/java/dev/enginestates"));
        }
        return roots;
    }

    /** The folders holding the library's compiled classes, {@code <module>/target/classes}. */
    public static List<Path> classRoots() {
        List<Path> roots = new ArrayList<>();
        for (String m : MODULES.keySet()) {
            roots.add(folder(m).resolve("target/classes"));
        }
        return roots;
    }

    /** Every Java source of the library, each with its path under {@code dev/enginestates}. */
    public static Map<Path, Path> sources() {
        Map<Path, Path> out = new LinkedHashMap<>();
        for (Path root : sourceRoots()) {
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(f -> f.toString().endsWith(".java")).sorted().forEach(f -> out.put(root.relativize(f), f));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the sources under " + root.toAbsolutePath(), e);
            }
        }
        return out;
    }

    /** The source at a path under {@code dev/enginestates} (e.g. {@code plain/StateMachine.java}), in whichever module holds it. */
    public static Path source(String relative) {
        for (Path root : sourceRoots()) {
            if (Files.exists(root.resolve(relative))) {
                return root.resolve(relative);
            }
        }
        throw new IllegalStateException("no module of the library holds dev/enginestates/" + relative);
    }

    /** A module's descriptor, comments removed. */
    public static String moduleInfo(String module) {
        return read(folder(module).resolve("src/main/java/module-info.java")).replaceAll("(?s)/\\*.*?\\*/|//[^\n]*", "");
    }

    /** The packages a module exports to everyone (a qualified export is not API). */
    public static List<String> apiPackages(String module) {
        List<String> out = new ArrayList<>();
        Matcher m = EXPORTS.matcher(moduleInfo(module));
        while (m.find()) {
            if (m.group(2) == null) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    /** The packages of every module exported to everyone. */
    public static List<String> apiPackages() {
        List<String> out = new ArrayList<>();
        for (String m : MODULES.keySet()) {
            out.addAll(apiPackages(m));
        }
        return out;
    }

    /** A module's {@code requires}, each as its modifiers ("", "static ", "transitive ") and the module's name. */
    public static Map<String, String> requires(String module) {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = REQUIRES.matcher(moduleInfo(module));
        while (m.find()) {
            out.put(m.group(2), m.group(1).replaceAll("\\s+", " "));
        }
        return out;
    }

    public static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package dev.enginestates;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue "A library people can depend on": the exported packages' public and protected members
 * never hand out or take the engine's internals (the compiled chart shared by every room on
 * every thread, a live record, the interpreters). The library reaches them through
 * {@code records.Access}; game code reads a machine through {@link MachineView}.
 */
class SealedApiTest {
    /** Every package of the module that module-info.java does not export to everyone (a qualified export is still internal). */
    static final Set<String> INTERNAL = internalPackages();

    private static Set<String> internalPackages() {
        try {
            Set<String> exported = new java.util.HashSet<>(LibraryModules.apiPackages());
            Set<String> internal = new java.util.HashSet<>();
            for (Path classes : LibraryModules.classRoots()) {
                try (Stream<Path> dirs = Files.walk(classes.resolve("dev/enginestates"))) {
                    dirs.filter(Files::isDirectory).map(d -> classes.relativize(d).toString().replace('/', '.'))
                            .filter(p -> !exported.contains(p)).forEach(internal::add);
                }
            }
            if (!internal.contains("dev.enginestates.chart")) {
                throw new IllegalStateException("the scan of " + LibraryModules.classRoots() + " found no chart package; are the modules built?");
            }
            return internal;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static List<Class<?>> exportedClasses() throws IOException, ClassNotFoundException {
        List<Class<?>> out = new ArrayList<>();
        for (Path classes : LibraryModules.classRoots()) {
            try (Stream<Path> files = Files.walk(classes.resolve("dev/enginestates"))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".class")).collect(Collectors.toList())) {
                    String name = classes.relativize(f).toString().replace('/', '.').replaceAll("\\.class$", "");
                    if (name.endsWith("module-info") || name.endsWith("package-info")) {
                        continue;
                    }
                    Class<?> c = Class.forName(name, false, SealedApiTest.class.getClassLoader());
                    if (!INTERNAL.contains(c.getPackageName()) && visible(c)) {
                        out.add(c);
                    }
                }
            }
        }
        return out;
    }

    private static boolean visible(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getDeclaringClass()) {
            if (!Modifier.isPublic(k.getModifiers()) && !Modifier.isProtected(k.getModifiers())) {
                return false;
            }
        }
        return true;
    }

    private static boolean api(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static boolean internal(Type t) {
        String s = t.getTypeName();
        return INTERNAL.stream().anyMatch(p -> s.contains(p + "."));
    }

    @Test
    void noPublicMemberOfAnExportedTypeNamesAnInternalType() throws Exception {
        List<String> leaks = new ArrayList<>();
        List<Class<?>> classes = exportedClasses();
        for (Class<?> c : classes) {
            if (c.getGenericSuperclass() != null && internal(c.getGenericSuperclass())) {
                leaks.add(c.getName() + " extends " + c.getGenericSuperclass());
            }
            for (Method m : c.getDeclaredMethods()) {
                if (api(m.getModifiers()) && !m.isSynthetic() && (internal(m.getGenericReturnType()) || takesInternal(m))) {
                    leaks.add(m.toGenericString());
                }
            }
            for (Constructor<?> k : c.getDeclaredConstructors()) {
                if (api(k.getModifiers()) && takesInternal(k)) {
                    leaks.add(k.toGenericString());
                }
            }
            for (Field f : c.getDeclaredFields()) {
                if (api(f.getModifiers()) && internal(f.getGenericType())) {
                    leaks.add(f.toGenericString());
                }
            }
        }
        assertTrue(classes.size() > 40, "the scan found " + classes.size() + " exported classes; is target/classes there?");
        assertTrue(leaks.isEmpty(), "exported members that hand out or take the engine's internals:\n" + String.join("\n", leaks));
    }

    private static boolean takesInternal(Executable e) {
        for (Type t : e.getGenericParameterTypes()) {
            if (internal(t)) {
                return true;
            }
        }
        return false;
    }
}

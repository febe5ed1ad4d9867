package dev.enginestates.dominion.lookup;

import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code Dominion.create()}, Dominion's own entry point, returns the patched engine: through the
 * service provider this module declares, on the class path and on the module path, with or without
 * the official engine jar beside it. Upstream's API finds nothing of the relocated engine (it threw
 * {@code NoSuchElementException}, or took the official jar when present). The layouts are run in
 * child JVMs; the probe below is their main class. This package is not the engine's, so the probe
 * stays on the class path when the engine is a named module.
 */
class DominionCreateTest {

    record Hp(int value) {
    }

    /** The child JVM's main: a Dominion from the API's entry point, an entity, a query; prints whose they are. */
    public static final class Probe {
        public static void main(String[] args) {
            Dominion d = Dominion.create();
            Entity e = d.createEntity(new Hp(3));
            int found = 0;
            for (var r : d.findEntitiesWith(Hp.class)) {
                found += r.comp().value();
            }
            System.out.println(d.getClass().getPackageName() + " " + e.getClass().getPackageName() + " " + found);
            d.close();
        }
    }

    private static final String PATCHED = "dev.enginestates.dominion dev.enginestates.dominion 3";

    @Test
    void dominionCreateReturnsThePatchedEngineWhileTheOfficialJarIsOnTheClassPath() {
        assertTrue(System.getProperty("java.class.path").contains("dominion-ecs-engine"), "the official jar is on this test class path");
        Dominion d = Dominion.create("beside-the-official");
        try {
            Entity e = d.createEntity(new Hp(1));
            assertEquals("dev.enginestates.dominion", d.getClass().getPackageName());
            assertEquals("dev.enginestates.dominion", e.getClass().getPackageName());
            assertEquals("beside-the-official", d.getName());
            assertTrue(e.has(Hp.class));
        } finally {
            d.close();
        }
    }

    @Test
    void dominionCreateReturnsThePatchedEngineWithOnlyItsJarOnTheClassPath() throws Exception {
        assertEquals(PATCHED, run(List.of("-cp", join(probe(), api(), patched()))));
    }

    @Test
    void dominionCreateReturnsThePatchedEngineWhicheverJarComesFirstOnTheClassPath() throws Exception {
        // the official jar declares no provider for the class path: the API reaches it only when no provider is found
        assertEquals(PATCHED, run(List.of("-cp", join(probe(), api(), official(), patched()))));
        assertEquals(PATCHED, run(List.of("-cp", join(probe(), api(), patched(), official()))));
    }

    @Test
    void dominionCreateReturnsThePatchedEngineOnTheModulePath() throws Exception {
        assertEquals(PATCHED, run(List.of("--module-path", join(api(), patched()),
                "--add-modules", "dev.enginestates.dominion", "-cp", probe())));
    }

    @Test
    void dominionCreateOnTheModulePathWithTheOfficialEngineTooTakesTheOfficialOne() throws Exception {
        // Both modules provide the service; the JDK lists the providers of one module layer in an order of its own
        // (by module name, not by module path order), and on JDK 17 the official engine's comes first. PATCHES.md
        // says so, and StateWorld.over refuses its Dominions: this test tells if a JDK ever changes the order.
        String official = "dev.dominion.ecs.engine dev.dominion.ecs.engine 3";
        assertEquals(official, run(List.of("-Ddominion.show-banner=false", "--module-path", join(api(), patched(), official()),
                "--add-modules", "dev.enginestates.dominion", "-cp", probe())));
        assertEquals(official, run(List.of("-Ddominion.show-banner=false", "--module-path", join(api(), official(), patched()),
                "--add-modules", "dev.enginestates.dominion", "-cp", probe())));
    }

    private static String join(String... entries) {
        return String.join(File.pathSeparator, entries);
    }

    private static String entry(String what, java.util.function.Predicate<String> which) {
        List<String> found = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (which.test(e.replace('\\', '/'))) {
                found.add(e);
            }
        }
        assertEquals(1, found.size(), what + " once on this test class path: " + found);
        return found.get(0);
    }

    private static String api() {
        return entry("Dominion's API", e -> e.contains("dominion-ecs-api"));
    }

    private static String official() {
        return entry("the official engine", e -> e.contains("dominion-ecs-engine"));
    }

    /** This module's compiled engine, with its module descriptor and service file. */
    private static String patched() {
        return entry("the patched engine", e -> e.endsWith("/classes") || e.endsWith("/classes/"));
    }

    private static String probe() {
        return entry("the tests", e -> e.endsWith("/test-classes") || e.endsWith("/test-classes/"));
    }

    /** Runs the probe with these options; its one line of output, after checking it ran cleanly. */
    private static String run(List<String> options) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(options);
        command.add(Probe.class.getName());
        Process p = new ProcessBuilder(command).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the probe ends");
        assertEquals(0, p.exitValue(), command + "\n" + err);
        return out;
    }
}

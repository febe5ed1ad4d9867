package dev.enginestates.io;

import dev.enginestates.LibraryModules;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An input log's hold on the module path: a replay makes the game's hold component by reflection,
 * which the game's module allows by opening its package to {@code dev.enginestates.io}. Without
 * that, the replay is refused while it checks the log, before anything is applied, and says what
 * to add; with it, the hold comes back. Compiled and run as a game module in a child JVM.
 */
class HoldsOnTheModulePathTest {
    private static final String GAME = """
            package com.example.game;

            import dev.enginestates.ecs.EntityKey;
            import dev.enginestates.ecs.StateWorld;
            import dev.enginestates.ecs.States;
            import dev.enginestates.io.CheckpointException;
            import dev.enginestates.io.InputLog;
            import dev.enginestates.io.Saves;

            public class Main {
                public static class Guard {
                    public int alarms;
                }

                public static class Talking {
                }

                static final States<Guard> GUARD = States.define("guard", Guard::new, m -> m
                        .heldBy(Talking.class)
                        .initial("patrol")
                        .state("patrol", s -> s.waitFor(1, "post"))
                        .state("post"));

                public static void main(String[] args) {
                    Saves saves = Saves.of(GUARD);
                    String log;
                    try (StateWorld world = StateWorld.create("keep")) {
                        InputLog recording = InputLog.start(saves, world);
                        var guard = world.spawn(EntityKey.of("guard-1"), GUARD.trait());
                        world.step(0.5);
                        guard.add(new Talking());
                        world.step(0.7);
                        log = recording.text();
                    }
                    try (StateWorld world = StateWorld.create("keep")) {
                        try {
                            InputLog.replay(saves, world, log);
                            var guard = world.entity("guard-1");
                            System.out.println("replayed " + GUARD.read(guard).state() + " held=" + guard.has(Talking.class));
                        } catch (CheckpointException e) {
                            System.out.println("refused spawned=" + (world.entity("guard-1") != null));
                            System.out.println(e.getMessage());
                        }
                    }
                }
            }
            """;

    @Test
    void aReplayRefusesAHoldComponentItCannotMakeBeforeAnythingChangesAndNamesTheOpensToAdd(@TempDir Path dir) throws Exception {
        String[] out = runGame(dir, "module com.example.game { requires dev.enginestates.io;"
                + " opens com.example.game to com.fasterxml.jackson.databind; }");
        assertEquals("refused spawned=false", out[0], String.join("\n", out));
        String message = String.join("\n", out);
        assertTrue(message.contains("the world is unchanged"), message);
        assertTrue(message.contains("com.example.game.Main$Talking holds machine 'guard'")
                && message.contains("'opens com.example.game to dev.enginestates.io;'"), message);
    }

    @Test
    void aReplayMakesTheHoldComponentOfAGameModuleThatOpensItsPackageToIo(@TempDir Path dir) throws Exception {
        String[] out = runGame(dir, "module com.example.game { requires dev.enginestates.io;"
                + " opens com.example.game to com.fasterxml.jackson.databind, dev.enginestates.io; }");
        assertEquals("replayed patrol held=true", out[0], String.join("\n", out));
    }

    /** Compiles the game as a module beside the library's modules and runs it; returns its standard output's lines. */
    private static String[] runGame(Path dir, String moduleInfo) throws Exception {
        Path src = dir.resolve("src");
        Files.createDirectories(src.resolve("com/example/game"));
        Files.writeString(src.resolve("module-info.java"), moduleInfo);
        Files.writeString(src.resolve("com/example/game/Main.java"), GAME);
        List<String> modulePath = new ArrayList<>();
        for (String m : List.of("engine-states-core", "engine-states-ecs", "engine-states-io")) {
            modulePath.add(LibraryModules.folder(m).resolve("target/classes").toAbsolutePath().toString());
        }
        List<String> jars = List.of("dominion-ecs-api", "engine-states-dominion", "jackson-databind", "jackson-core", "jackson-annotations");
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (jars.stream().anyMatch(entry::contains)) {
                modulePath.add(entry);
            }
        }
        assertEquals(3 + jars.size(), modulePath.size(), "the library's modules and jars: " + modulePath);
        String path = String.join(File.pathSeparator, modulePath);
        Path classes = dir.resolve("out");
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = javac.run(null, err, err, "-d", classes.toString(), "--module-path", path,
                src.resolve("module-info.java").toString(), src.resolve("com/example/game/Main.java").toString());
        assertEquals(0, rc, err.toString(StandardCharsets.UTF_8));

        Process p = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
                "--module-path", classes + File.pathSeparator + path, "-m", "com.example.game/com.example.game.Main").start();
        p.getOutputStream().close();
        String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), stderr);
        assertNull(stderr.isEmpty() ? null : stderr, "the game prints nothing on standard error");
        return stdout.strip().split("\n");
    }
}

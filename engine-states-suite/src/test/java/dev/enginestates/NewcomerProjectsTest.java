package dev.enginestates;

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
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A newcomer's game, compiled and run as its own program against the library: once as a named
 * module on the module path, once on the class path. Each declares machines in the three styles,
 * runs them in a world and on plain objects, and must print only its own line: the world is
 * quiet. On the module path the engine's internals (chart, records, algorithm) are not there to
 * reach: a game that names them does not compile.
 */
class NewcomerProjectsTest {
    private static final String GAME = """
            package com.example.game;

            import dev.enginestates.Machine;
            import dev.enginestates.StatesDef;
            import dev.enginestates.ecs.StateWorld;
            import dev.enginestates.ecs.States;
            import dev.enginestates.fsm.AIContext;
            import dev.enginestates.fsm.State;
            import dev.enginestates.fsm.StateBehavior;
            import dev.enginestates.fsm.StateMachine;
            import dev.enginestates.fsm.StateMachineBuilder;

            public class Main {
                public static class Door {
                    public boolean open;
                }

                public static class Bot extends AIContext {
                    public boolean alarm;
                }

                @StateBehavior("bot")
                public static class BotBehavior {
                    @State(value = "Idle", initial = true)
                    public String idle(Bot b, float dt) { return b.alarm ? "Alert" : null; }

                    @State("Alert")
                    public String alert(Bot b, float dt) { return null; }
                }

                static final States<Door> DOOR = States.define("door", Door::new, m -> m
                        .initial("closed")
                        .state("closed", s -> s.on("OPEN", "open"))
                        .state("open", s -> s.waitFor(1, "closed")));

                static final StatesDef<Door> LATCH = StatesDef.define("latch", Door::new, d -> d
                        .state("shut", s -> s.to("loose", (door, t) -> door.open))
                        .state("loose"));

                public static void main(String[] args) {
                    try (StateWorld world = StateWorld.create()) {
                        var door = world.spawn(DOOR.trait(), States.of(LATCH).trait());
                        DOOR.send(door, "OPEN");
                        DOOR.read(door).context().open = true;
                        States.of(LATCH).read(door).context().open = true;
                        world.step(0.5);
                        var bots = new StateMachineBuilder<Bot>().registerHandlers(BotBehavior.class).build();
                        var bot = new Bot();
                        var brain = new StateMachine<>(bots);
                        brain.initialize(bot);
                        bot.alarm = true;
                        brain.update(bot, 1 / 60f);
                        System.out.println(DOOR.read(door).state() + " " + States.of(LATCH).read(door).state() + " "
                                + world.query(DOOR.is("open")).count() + " " + brain.state());
                    }
                }
            }
            """;

    private static final String EXPECTED = "open loose 1 Alert";

    /**
     * A game's class or module path: the compiled classes of the library modules it uses (each with its module
     * descriptor) and the jars of this suite's class path whose names contain one of {@code jars}.
     */
    private static List<String> library(List<String> modules, List<String> jars) {
        List<String> out = new ArrayList<>();
        for (String m : modules) {
            out.add(LibraryModules.folder(m).resolve("target/classes").toAbsolutePath().toString());
        }
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (jars.stream().anyMatch(entry::contains)) {
                out.add(entry);
            }
        }
        assertEquals(modules.size() + jars.size(), out.size(), "the library modules " + modules + " and the jars " + jars + ": " + out);
        return out;
    }

    /** A game of machines on entities: the core, the ECS face and Dominion's jars, not Jackson: a game that saves nothing needs none. */
    private static List<String> library() {
        return library(List.of("engine-states-core", "engine-states-ecs"), List.of("dominion-ecs-api", "engine-states-dominion"));
    }

    private static String compile(List<String> args) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = javac.run(null, err, err, args.toArray(new String[0]));
        return rc == 0 ? null : err.toString(StandardCharsets.UTF_8);
    }

    private static String[] run(List<String> command) throws Exception {
        List<String> full = new ArrayList<>();
        full.add(ProcessHandle.current().info().command().orElse("java"));
        full.addAll(command);
        Process p = new ProcessBuilder(full).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new String[] {String.valueOf(p.exitValue()), out, err};
    }

    @Test
    void a_game_module_on_the_module_path_builds_runs_quietly_and_cannot_reach_the_internals(@TempDir Path dir) throws Exception {
        Path src = dir.resolve("src");
        Files.createDirectories(src.resolve("com/example/game"));
        // the annotated behavior's package is opened to the library, which binds its handlers
        Files.writeString(src.resolve("module-info.java"),
                "module com.example.game { requires dev.enginestates.ecs; opens com.example.game to dev.enginestates.core; }");
        Files.writeString(src.resolve("com/example/game/Main.java"), GAME);
        Path out = dir.resolve("out");
        String modulePath = String.join(File.pathSeparator, library());
        String problems = compile(List.of("-d", out.toString(), "--module-path", modulePath,
                src.resolve("module-info.java").toString(), src.resolve("com/example/game/Main.java").toString()));
        assertEquals(null, problems);
        String[] r = run(List.of("--module-path", out + File.pathSeparator + modulePath, "-m", "com.example.game/com.example.game.Main"));
        assertEquals("0", r[0], r[2]);
        assertEquals(EXPECTED, r[1].trim(), r[2]);
        assertEquals("", r[2], "nothing but the game's own line is printed");

        Files.writeString(src.resolve("com/example/game/Main.java"), """
                package com.example.game;
                public class Main {
                    public static void main(String[] args) {
                        dev.enginestates.chart.Chart chart = null;
                    }
                }
                """);
        String refused = compile(List.of("-d", dir.resolve("out2").toString(), "--module-path", modulePath,
                src.resolve("module-info.java").toString(), src.resolve("com/example/game/Main.java").toString()));
        assertNotEquals(null, refused, "the chart is the engine's own");
        assertTrue(refused.contains("dev.enginestates.chart") && refused.contains("not"), refused);
    }

    private static final String TOOL = """
            package com.example.tool;

            import dev.enginestates.StatesDef;
            import dev.enginestates.fsm.AIContext;
            import dev.enginestates.fsm.StateMachineBuilder;
            import dev.enginestates.plain.StateMachine;

            public class Main {
                public static class Door {
                    public boolean open;
                }

                public static class Bot extends AIContext {
                    public boolean alarm;
                }

                public static void main(String[] args) {
                    StatesDef<Door> latch = StatesDef.define("latch", Door::new, d -> d
                            .state("shut", s -> s.to("loose", (door, t) -> door.open))
                            .state("loose"));
                    var door = new StateMachine<>(latch, new Door());
                    door.context().open = true;
                    door.step(0.1);
                    var builder = new StateMachineBuilder<Bot>();
                    builder.configureState("Idle").asInitial().handler((b, dt) -> b.alarm ? "Alert" : null);
                    builder.configureState("Alert").handler((b, dt) -> null);
                    var bots = builder.build();
                    var bot = new Bot();
                    var brain = new dev.enginestates.fsm.StateMachine<>(bots);
                    brain.initialize(bot);
                    bot.alarm = true;
                    brain.update(bot, 1 / 60f);
                    System.out.println(door.state() + " " + brain.state());
                }
            }
            """;

    @Test
    void a_headless_tool_runs_a_plain_machine_with_only_the_core_on_its_class_path(@TempDir Path dir) throws Exception {
        Path src = dir.resolve("src/com/example/tool");
        Files.createDirectories(src);
        Files.writeString(src.resolve("Main.java"), TOOL);
        Path out = dir.resolve("out");
        String classPath = String.join(File.pathSeparator, library(List.of("engine-states-core"), List.of()));
        assertEquals(null, compile(List.of("-d", out.toString(), "-cp", classPath, src.resolve("Main.java").toString())));
        String[] r = run(List.of("-cp", out + File.pathSeparator + classPath, "com.example.tool.Main"));
        assertEquals("0", r[0], r[2]);
        assertEquals("loose Alert", r[1].trim(), r[2]);
        assertEquals("", r[2], "nothing but the tool's own line is printed");
    }

    @Test
    void a_headless_tool_module_requires_the_core_alone(@TempDir Path dir) throws Exception {
        Path src = dir.resolve("src");
        Files.createDirectories(src.resolve("com/example/tool"));
        Files.writeString(src.resolve("module-info.java"), "module com.example.tool { requires dev.enginestates.core; }");
        Files.writeString(src.resolve("com/example/tool/Main.java"), TOOL);
        Path out = dir.resolve("out");
        String modulePath = String.join(File.pathSeparator, library(List.of("engine-states-core"), List.of()));
        assertEquals(null, compile(List.of("-d", out.toString(), "--module-path", modulePath,
                src.resolve("module-info.java").toString(), src.resolve("com/example/tool/Main.java").toString())));
        String[] r = run(List.of("--module-path", out + File.pathSeparator + modulePath, "-m", "com.example.tool/com.example.tool.Main"));
        assertEquals("0", r[0], r[2]);
        assertEquals("loose Alert", r[1].trim(), r[2]);
        assertEquals("", r[2], "nothing but the tool's own line is printed");
    }

    @Test
    void a_game_that_requires_the_all_in_one_module_reads_every_module(@TempDir Path dir) throws Exception {
        Path src = dir.resolve("src");
        Files.createDirectories(src.resolve("com/example/game"));
        Files.writeString(src.resolve("module-info.java"),
                "module com.example.game { requires dev.enginestates; opens com.example.game to dev.enginestates.core, com.fasterxml.jackson.databind; }");
        Files.writeString(src.resolve("com/example/game/Main.java"), GAME.replace(
                "System.out.println(", "dev.enginestates.io.Saves.of(DOOR); dev.enginestates.diagram.Diagrams.mermaid(DOOR);\n System.out.println("));
        List<String> modules = new ArrayList<>(LibraryModules.MODULES.keySet());
        modules.add("engine-states");
        String modulePath = String.join(File.pathSeparator, library(modules,
                List.of("dominion-ecs-api", "engine-states-dominion", "jackson-databind", "jackson-core", "jackson-annotations", "rhino")));
        Path out = dir.resolve("out");
        assertEquals(null, compile(List.of("-d", out.toString(), "--module-path", modulePath,
                src.resolve("module-info.java").toString(), src.resolve("com/example/game/Main.java").toString())));
        String[] r = run(List.of("--module-path", out + File.pathSeparator + modulePath, "-m", "com.example.game/com.example.game.Main"));
        assertEquals("0", r[0], r[2]);
        assertEquals(EXPECTED, r[1].trim(), r[2]);
        assertEquals("", r[2], "nothing but the game's own line is printed");
    }

    @Test
    void a_game_on_the_class_path_builds_and_runs_quietly(@TempDir Path dir) throws Exception {
        Path src = dir.resolve("src/com/example/game");
        Files.createDirectories(src);
        Files.writeString(src.resolve("Main.java"), GAME);
        Path out = dir.resolve("out");
        String classPath = String.join(File.pathSeparator, library());
        assertEquals(null, compile(List.of("-d", out.toString(), "-cp", classPath, src.resolve("Main.java").toString())));
        String[] r = run(List.of("-cp", out + File.pathSeparator + classPath, "com.example.game.Main"));
        assertEquals("0", r[0], r[2]);
        assertEquals(EXPECTED, r[1].trim(), r[2]);
        assertEquals("", r[2], "nothing but the game's own line is printed");
    }
}

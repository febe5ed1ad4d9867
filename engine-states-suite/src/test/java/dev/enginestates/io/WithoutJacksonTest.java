package dev.enginestates.io;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jackson is an optional dependency of engine-states: a game that does not save, replay or import
 * runs without it. Checked in a child JVM whose class path is this one's without Jackson's jars:
 * a world steps its machines, and {@link Saves#of} (as the XState import and the devtools page)
 * refuses with a sentence naming what to add rather than a {@link NoClassDefFoundError}.
 */
class WithoutJacksonTest {

    static final class Door {
        int opened;
    }

    static final States<Door> DOOR = States.define("no-jackson-door", Door::new, m -> m
            .initial("closed")
            .state("closed", s -> s.on("OPEN", t -> t.target("open").action((d, e) -> d.opened++)))
            .state("open", s -> s.waitFor(1, "closed")));

    /** The child JVM's main: prints what it saw, one fact a line. */
    public static void main(String[] args) {
        boolean jackson;
        try {
            Class.forName("com.fasterxml.jackson.databind.ObjectMapper");
            jackson = true;
        } catch (ClassNotFoundException e) {
            jackson = false;
        }
        System.out.println("jackson=" + jackson);
        try (StateWorld world = StateWorld.create("no-jackson")) {
            List<Entity> doors = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                doors.add(world.spawn(DOOR.trait()));
            }
            for (Entity door : doors) {
                DOOR.send(door, "OPEN");
            }
            world.step(0.5);
            int open = world.query(DOOR.is("open")).count();
            for (int i = 0; i < 60; i++) {
                world.step(1 / 60.0);
            }
            int closed = world.query(DOOR.is("closed")).count();
            System.out.println("open=" + open + " closed=" + closed + " opened=" + DOOR.read(doors.get(0)).context().opened);
            try {
                Saves.of(DOOR);
                System.out.println("saves=made");
            } catch (IllegalStateException e) {
                System.out.println("saves=" + e.getMessage());
            }
            try {
                dev.enginestates.xstate.XStateImport.withContext(Object::new).parse("{\"id\":\"x\",\"initial\":\"a\",\"states\":{\"a\":{}}}");
                System.out.println("import=made");
            } catch (IllegalStateException e) {
                System.out.println("import=" + e.getMessage());
            }
            try {
                dev.enginestates.devtools.Devtools.serve(world, 0).close();
                System.out.println("devtools=served");
            } catch (IllegalStateException e) {
                System.out.println("devtools=" + e.getMessage());
            }
        }
    }

    @Test
    void aWorldStepsMachinesWithoutJacksonAndSavesSayWhatIsMissing() throws Exception {
        List<String> classPath = new ArrayList<>();
        List<String> removed = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            (entry.contains("jackson") ? removed : classPath).add(entry);
        }
        assertFalse(removed.isEmpty(), "Jackson is on this test's class path, so the child's differs from it");

        List<String> command = List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp", String.join(File.pathSeparator, classPath),
                WithoutJacksonTest.class.getName());
        Process p = new ProcessBuilder(command).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), err);
        List<String> lines = out.lines().toList();
        assertEquals(5, lines.size(), out + err);
        assertEquals("jackson=false", lines.get(0), "Jackson is not on the child's class path");
        assertEquals("open=100 closed=100 opened=1", lines.get(1), "the world stepped every machine");
        String saves = lines.get(2);
        assertTrue(saves.startsWith("saves=Saves needs Jackson"), saves);
        assertTrue(saves.contains("com.fasterxml.jackson.core:jackson-databind"), "the message names the artifact to add: " + saves);
        String imported = lines.get(3);
        assertTrue(imported.startsWith("import=XStateImport needs Jackson") && imported.contains("jackson-databind"), imported);
        String devtools = lines.get(4);
        assertTrue(devtools.startsWith("devtools=the devtools page needs Jackson") && devtools.contains("jackson-databind"), devtools);
        assertEquals("", err, "nothing on standard error");
    }
}

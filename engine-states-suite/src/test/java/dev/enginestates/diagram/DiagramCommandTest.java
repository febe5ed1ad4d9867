package dev.enginestates.diagram;

import dev.enginestates.Machine;
import dev.enginestates.RandomStatecharts;
import dev.enginestates.StatesDef;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.StateMachineDefinition;
import dev.enginestates.xstate.XStateExport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 13, part 4: "A command-line entry ... prints them": {@code diagram mermaid|dot TARGET}
 * and {@code export xstate TARGET}, where the target is an XState JSON file or a
 * {@code Class#FIELD} holding a machine of any style. Bad input gets a message that says what
 * was expected, and a status other than 0.
 */
class DiagramCommandTest {
    /** Machines in static fields, as a game keeps them. */
    public static final Machine<DiagramsTest.Guard> GUARD = DiagramsTest.GUARD;
    public static final StatesDef<Object> POLLED = RandomStatecharts.polled(4);
    public static final StateMachineDefinition<RandomStatecharts.Actor> BUILT = RandomStatecharts.builder(4);
    public static final States<DiagramsTest.Guard> ON_ENTITIES = States.of(DiagramsTest.GUARD);
    static final Machine<DiagramsTest.Guard> HIDDEN = DiagramsTest.GUARD;
    public final Machine<DiagramsTest.Guard> notStatic = DiagramsTest.GUARD;
    public static final String NOT_A_MACHINE = "guard";

    private static final String CLASS = DiagramCommandTest.class.getName();

    /** {status, standard output, standard error}. */
    private static String[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = DiagramCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {Integer.toString(status), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }

    private static void ok(String[] r, String expectedOut) {
        assertEquals("0", r[0], r[2]);
        assertEquals("", r[2]);
        assertEquals(expectedOut, r[1]);
    }

    @Test
    void aStaticFieldOfEveryStyle_isDrawn_andAnXStateOneExported() {
        ok(run("diagram", "mermaid", CLASS + "#GUARD"), Diagrams.mermaid(GUARD));
        ok(run("diagram", "dot", CLASS + "#GUARD"), Diagrams.dot(GUARD));
        ok(run("diagram", "mermaid", CLASS + "#POLLED"), Diagrams.mermaid(POLLED));
        ok(run("diagram", "dot", CLASS + "#BUILT"), Diagrams.dot(BUILT));
        ok(run("diagram", "mermaid", CLASS + "#ON_ENTITIES"), Diagrams.mermaid(ON_ENTITIES.machine()));
        ok(run("diagram", "mermaid", CLASS + "#HIDDEN"), Diagrams.mermaid(GUARD));
        ok(run("export", "xstate", CLASS + "#GUARD"), XStateExport.toJson(GUARD));
        ok(run("diagram", "mermaid", CLASS + "#GUARD", "--active=patrol.watch"), Diagrams.mermaid(GUARD, List.of("patrol.watch")));
    }

    @Test
    void anXStateJsonFile_isReadWithItsNames_andDrawnOrExportedBack(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("guard.json");
        String json = XStateExport.toJson(GUARD);
        Files.writeString(file, json);
        ok(run("export", "xstate", file.toString()), json);
        ok(run("diagram", "mermaid", file.toString()), Diagrams.mermaid(GUARD));
        ok(run("diagram", "dot", file.toString(), "--active=answer"), Diagrams.dot(GUARD, List.of("answer")));
    }

    @Test
    void aCommandThatIsNotOne_printsTheUsage_withStatus2() {
        for (String[] args : new String[][] {{}, {"diagram"}, {"diagram", "svg", CLASS + "#GUARD"}, {"export", "scxml", "x"},
            {"export", "xstate", CLASS + "#GUARD", "--active=answer"}, {"diagram", "dot", "a", "b"}}) {
            String[] r = run(args);
            assertEquals("2", r[0], String.join(" ", args));
            assertTrue(r[2].contains("usage: diagram mermaid|dot TARGET [--active=PATH,PATH...]"), r[2]);
            assertEquals("", r[1]);
        }
        String[] help = run("--help");
        assertEquals("0", help[0]);
        assertTrue(help[1].startsWith("usage: "), help[1]);
    }

    @Test
    void aTargetThatCannotBeRead_saysWhy_withStatus1(@TempDir Path dir) throws IOException {
        String[] r = run("diagram", "mermaid", "no-such-file.json");
        assertEquals("1", r[0]);
        assertEquals("'no-such-file.json' is neither a file nor com.example.Game#FIELD; expected an XState JSON file or a class"
                + " and its static field\n", r[2]);
        r = run("diagram", "mermaid", "com.example.Nothing#GUARD");
        assertEquals("1", r[0]);
        assertTrue(r[2].startsWith("class 'com.example.Nothing' is not on the class path"), r[2]);
        r = run("diagram", "mermaid", CLASS + "#GAURD");
        assertEquals("1", r[0]);
        assertTrue(r[2].startsWith("class '" + CLASS + "' has no field 'GAURD'; its static fields: ["), r[2]);
        assertTrue(r[2].contains("GUARD"), r[2]);
        r = run("diagram", "mermaid", CLASS + "#notStatic");
        assertEquals(CLASS + "#notStatic is not static; expected a static field holding a machine\n", r[2]);
        r = run("diagram", "mermaid", CLASS + "#NOT_A_MACHINE");
        assertEquals(CLASS + "#NOT_A_MACHINE holds a java.lang.String; expected a Machine, a StatesDef, a StateMachineDefinition"
                + " or a States\n", r[2]);
        r = run("export", "xstate", CLASS + "#POLLED");
        assertEquals("1", r[0]);
        assertTrue(r[2].startsWith("machine 'polled4' is a polled (StatesDef) machine, which XState's config cannot express"), r[2]);
        r = run("diagram", "dot", CLASS + "#GUARD", "--active=patrol.wacth");
        assertEquals("1", r[0]);
        assertTrue(r[2].contains("did you mean 'patrol.watch'?"), r[2]);
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"id\": \"m\", \"states\": {\"a\": {\"on\": {\"GO\": \"nowhere\"}}}}");
        r = run("diagram", "mermaid", bad.toString());
        assertEquals("1", r[0]);
        assertTrue(r[2].startsWith(bad + ": machine 'm' is invalid: 1 problem"), r[2]);
        assertTrue(r[2].contains("targets 'nowhere', which names no state"), r[2]);
        assertEquals("", r[1], "nothing is printed on standard output");
    }

    @Test
    void theCodeReadFromJson_refusesToRun_namingItsName(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("door.json");
        Files.writeString(file, "{\"id\": \"door\", \"initial\": \"shut\", \"states\": {\"shut\": {\"entry\": [\"lock\"]}}}");
        Machine<?> door = DiagramCommand.load(file.toString());
        RuntimeException e = org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class,
                () -> new dev.enginestates.plain.StateMachine<>(door));
        assertEquals(UnsupportedOperationException.class, e.getCause().getClass(), "reported as the game's code that threw");
        assertEquals("action 'lock' was read from JSON by the diagram command; its code is not supplied", e.getCause().getMessage());
    }
}

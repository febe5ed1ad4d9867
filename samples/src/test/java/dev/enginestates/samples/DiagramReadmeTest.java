package dev.enginestates.samples;

import dev.enginestates.diagram.DiagramCommand;
import dev.enginestates.plain.StateMachine;
import dev.enginestates.samples.readme.DiagramTour;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The diagrams and XState pages show what the code prints: the {@code mermaid} block of
 * docs/diagrams.md (which GitHub renders) is {@code Diagrams.mermaid(GUARD)} and the {@code json}
 * block of docs/xstate.md is {@code XStateExport.of(GUARD).json()}, byte for byte; the machine read
 * back from that JSON behaves as the guard; the commands they show are the ones the build configures.
 */
class DiagramReadmeTest {
    private static Path root() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("README.md"))) {
            p = p.getParent();
        }
        return p;
    }

    /** The two pages that show the guard's diagram, its export and the commands. */
    private static String readme() throws IOException {
        return (Files.readString(root().resolve("docs/diagrams.md")) + Files.readString(root().resolve("docs/xstate.md")))
                .replace("\r\n", "\n");
    }

    @Test
    void theReadmesMermaidAndJsonBlocks_areWhatTheCodePrints() throws IOException {
        DiagramTour.Drawn drawn = DiagramTour.draw();
        String readme = readme();
        assertTrue(readme.contains("```mermaid\n" + drawn.mermaid() + "```\n"), "docs/diagrams.md's mermaid block is the guard's diagram:\n"
                + drawn.mermaid());
        assertTrue(readme.contains("```json\n" + drawn.json() + "```\n"), "docs/xstate.md's json block is the guard's export:\n" + drawn.json());
        assertTrue(drawn.dot().contains("\"patrol.watch\" [label=\"watch\", style=\"rounded,filled\""), "the watch is highlighted:\n"
                + drawn.dot());
    }

    @Test
    void theGuardReadBackFromItsJson_behavesAsTheGuard() {
        StateMachine<DiagramTour.Guard> guard = new StateMachine<>(DiagramTour.draw().back());
        guard.step(3);
        guard.send("BELL");
        assertEquals("answer", guard.value());
        assertEquals(1, guard.context().bells, "countBell ran, bound by its name");
        guard.send("RESUME");
        assertEquals(Map.of("patrol", "watch"), guard.value());
        assertEquals(1.0, guard.secondsLeft(), 1e-9, "back to the watch with one second left");
    }

    @Test
    void theCommandTheReadmeShows_isTheOneTheBuildRuns() throws IOException {
        String pom = Files.readString(root().resolve("engine-states/pom.xml"));
        assertTrue(pom.contains("<mainClass>" + DiagramCommand.class.getName() + "</mainClass>"), "engine-states' exec:java runs the command");
        String readme = readme();
        assertTrue(readme.contains("mvn -q -pl engine-states exec:java -Dexec.args=\"diagram mermaid machine.json\""), readme);
        assertTrue(readme.contains("-Dexec.mainClass=" + DiagramCommand.class.getName()
                + " -Dexec.args=\"diagram mermaid dev.enginestates.samples.Guard#MACHINE\""));
        assertEquals(Guard.MACHINE.id(), "guard", "the sample's field holds the guard");
    }
}

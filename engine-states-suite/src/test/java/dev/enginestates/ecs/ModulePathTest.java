package dev.enginestates.ecs;

import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
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
 * The patched engine on the module path: Dominion's API and engine-states-dominion load as the
 * named modules {@code dev.dominion.ecs.api} and {@code dev.enginestates.dominion} (which, since
 * patch 0011, touches no {@code sun.misc.Unsafe}: no warning on JDK 24 and later), and a world made
 * from the class path runs on them.
 * Run in a child JVM with that layout; the probe below is its main class.
 */
class ModulePathTest {

    static final class Unit {
    }

    static final States<Unit> DOOR = States.define("module-door", Unit::new, m -> m
            .initial("closed")
            .state("closed", s -> s.on("OPEN", "open"))
            .state("open", s -> s.waitFor(1, "closed")));

    /**
     * The child JVM's main: a world, a move, a wait, queries; prints what it saw. With the argument
     * {@code own}, the world runs over a Dominion the game made with Dominion's own {@code create()}.
     */
    public static void main(String[] args) {
        boolean own = args.length > 0 && args[0].equals("own");
        try (StateWorld world = own ? StateWorld.over(Dominion.create("own")) : StateWorld.create("module-path")) {
            Entity door = world.spawn(DOOR.trait());
            DOOR.send(door, "OPEN");
            world.step(0.5);
            int open = world.query(DOOR.is("open")).count();
            world.step(0.6);
            int closed = world.query(DOOR.is("closed")).count();
            System.out.println("module=" + world.dominion().getClass().getModule().getName()
                    + " open=" + open + " closed=" + closed);
        }
    }

    @Test
    void aWorldRunsWithThePatchedEngineAsANamedModule() throws Exception {
        assertEquals("module=dev.enginestates.dominion open=1 closed=1", runChild());
    }

    @Test
    void dominionCreateGivesThePatchedEngineAsANamedModuleAndAWorldRunsOverIt() throws Exception {
        assertEquals("module=dev.enginestates.dominion open=1 closed=1", runChild("own"));
    }

    /** Runs the main above with Dominion's API and the patched engine on the module path, the rest on the class path. */
    private static String runChild(String... args) throws Exception {
        List<String> modulePath = new ArrayList<>();
        List<String> classPath = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            boolean module = entry.contains("dominion-ecs-api") || entry.contains("engine-states-dominion");
            // the official engine jar stays on the class path, where it declares no provider: the API takes ours
            (module ? modulePath : classPath).add(entry);
        }
        assertEquals(2, modulePath.size(), "Dominion's API and the patched engine on this class path: " + modulePath);

        List<String> command = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "--module-path", String.join(File.pathSeparator, modulePath),
                "--add-modules", "dev.enginestates.dominion",
                "-cp", String.join(File.pathSeparator, classPath),
                ModulePathTest.class.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), err);
        assertFalse(err.contains("WARNING"), err);
        return out;
    }
}

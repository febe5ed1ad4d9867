package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Creating and stepping worlds prints nothing: no Dominion banner (patch 0007 of
 * engine-states-dominion turns it off unless {@code -Ddominion.show-banner=true} asks for it),
 * no logging configured behind the application's back, no JDK warning (patch 0011: no
 * {@code sun.misc.Unsafe}). Checked in a fresh JVM of the JDK running the tests, since Dominion
 * prints from a static initializer; CI runs the suite on JDK 17 and JDK 25.
 */
class QuietWorldTest {

    static final class Guard {
        int bells;
    }

    static final States<Guard> GUARD = States.define("quiet-guard", Guard::new, m -> m
            .initial("watch")
            .state("watch", s -> s.waitFor(1, "rest").on("BELL", t -> t.target("answer").action((g, e) -> g.bells++)))
            .state("rest", s -> s.waitFor(1, "watch"))
            .state("answer", s -> s.on("RESUME", "watch")));

    /** The child JVM's main: two worlds, spawns, steps, sends, queries, despawns; exits 1 if a count is wrong. */
    public static void main(String[] args) {
        int wrong = 0;
        for (int w = 0; w < 2; w++) {
            try (StateWorld world = StateWorld.create("quiet-" + w)) {
                List<Entity> guards = new ArrayList<>();
                for (int i = 0; i < 1_000; i++) {
                    guards.add(world.spawn(EntityKey.of("guard-" + i), GUARD.trait()));
                }
                for (int i = 0; i < 30; i++) {
                    world.step(1 / 60.0);
                }
                wrong += world.query(GUARD.is("watch")).count() == 1_000 ? 0 : 1;
                for (int i = 0; i < guards.size(); i += 2) {
                    GUARD.send(guards.get(i), "BELL");
                }
                wrong += world.query(GUARD.is("answer")).count() == 500 ? 0 : 1;
                for (int i = 0; i < 60; i++) {
                    world.step(1 / 60.0);
                }
                wrong += world.query(GUARD.is("rest")).count() == 500 ? 0 : 1;
                for (int i = 1; i < guards.size(); i += 2) {
                    world.despawn(guards.get(i));
                }
                world.step(1 / 60.0);
                wrong += world.query(GUARD.is("answer")).count() == 500 ? 0 : 1;
            }
        }
        System.exit(wrong == 0 ? 0 : 1);
    }

    @Test
    void creatingAndSteppingWorldsPrintsNothing() throws Exception {
        Output out = runChild();
        assertEquals(0, out.exit, "the child's worlds counted their guards right");
        assertEquals("", out.stdout, "nothing on standard output");
        assertEquals("", out.stderr, "nothing on standard error");
    }

    @Test
    void dominionsBannerPrintsOnlyWhenAskedFor() throws Exception {
        Output out = runChild("-Ddominion.show-banner=true");
        assertEquals(0, out.exit, out.stderr);
        assertTrue(out.stdout.contains("Dominion"), "the documented option brings the banner back: " + out.stdout);
    }

    private record Output(int exit, String stdout, String stderr) {
    }

    private static Output runChild(String... options) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(List.of(options));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(QuietWorldTest.class.getName());
        Process p = new ProcessBuilder(command).start();
        p.getOutputStream().close();
        byte[] stdout = p.getInputStream().readAllBytes();
        byte[] stderr = p.getErrorStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new Output(p.exitValue(), new String(stdout, StandardCharsets.UTF_8), new String(stderr, StandardCharsets.UTF_8));
    }
}

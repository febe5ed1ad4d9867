package dev.enginestates.dominion;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Patch 0007: creating Dominions prints nothing and leaves the JVM's logging configuration alone,
 * unless the banner is asked for. Checked in a fresh JVM, since Dominion prints from a static initializer.
 */
class QuietTest {

    /** Run in the child JVM: makes two Dominions and reports the JUL format property. */
    public static void main(String[] args) {
        try (Dominions.Closing one = Dominions.create("one"); Dominions.Closing two = Dominions.create("two")) {
            one.createEntity(new Dominions.A(1));
            two.createEntity(new Dominions.A(2));
        }
        System.err.println("format=" + System.getProperty("java.util.logging.SimpleFormatter.format"));
    }

    @Test
    void creatingDominionsPrintsNothing() throws Exception {
        Output out = runChild();
        assertEquals("", out.stdout, "nothing on standard output");
        assertTrue(out.stderr.contains("format=null"), "java.util.logging's format left alone: " + out.stderr);
    }

    @Test
    void theBannerPrintsWhenAskedFor() throws Exception {
        Output out = runChild("-Ddominion.show-banner=true");
        assertTrue(out.stdout.contains("Dominion 'one'"), out.stdout);
    }

    private record Output(String stdout, String stderr) {
    }

    private static Output runChild(String... options) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(List.of(options));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(QuietTest.class.getName());
        Process p = new ProcessBuilder(command).start();
        p.getOutputStream().close();
        byte[] stdout = p.getInputStream().readAllBytes();
        byte[] stderr = p.getErrorStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), new String(stderr, StandardCharsets.UTF_8));
        return new Output(new String(stdout, StandardCharsets.UTF_8), new String(stderr, StandardCharsets.UTF_8));
    }
}

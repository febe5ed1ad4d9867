package dev.enginestates.samples;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The samples' main job serves its room as a devtools page when given a port
 * ({@code -Ddevtools.port=...}), printing the address, and runs the same room; without one it
 * serves nothing. Run here without the real-time pace and with no one pressing Enter.
 */
class MainDevtoolsTest {
    private static String run(String port) {
        PrintStream before = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            Main.room(port, false, new ByteArrayInputStream(new byte[0]));
        } finally {
            System.setOut(before);
        }
        return out.toString(StandardCharsets.UTF_8).replace("\r\n", "\n");
    }

    @Test
    void withAPortTheRoomIsServedAndItsAddressPrinted() throws Exception {
        String output = run("0");
        Matcher m = Pattern.compile("devtools: (http://127\\.0\\.0\\.1:\\d+/) \\(read-only; -Ddevtools.write=true lets the page set"
                + " states by hand\\)\n").matcher(output);
        assertTrue(m.find(), output);
        assertTrue(output.contains("3600 steps, mean"), output);
        assertTrue(output.contains("devtools: the room has run its minute; the page stays up until you press Enter\n"), output);
        // the input ended, so the page closed with the room
        HttpClient http = HttpClient.newHttpClient();
        Exception e = assertThrows(Exception.class, () -> http.send(HttpRequest.newBuilder(URI.create(m.group(1))).build(),
                HttpResponse.BodyHandlers.discarding()));
        assertTrue(e instanceof ConnectException || e.getCause() instanceof ConnectException, e.toString());
    }

    @Test
    void withoutAPortNothingIsServed() {
        String output = run(null);
        assertFalse(output.contains("devtools"), output);
        assertTrue(output.startsWith("== a room on the world: 1000 guards on entities"), output);
        assertTrue(output.contains("\n1000 guards and a siege, 60 s of game time at 60 Hz\n"), output);
    }
}

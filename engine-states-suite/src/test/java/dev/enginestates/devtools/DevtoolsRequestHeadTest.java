package dev.enginestates.devtools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The devtools server reading request heads no browser sends: each is refused with a status and
 * a sentence, never read one way here and another way by the next program that sees it.
 */
@Timeout(60)
class DevtoolsRequestHeadTest {
    private static String status(Devtools d, String request) throws Exception {
        return RawHttp.status(d.address().getPort(), request);
    }

    private static String host(Devtools d) {
        return "Host: localhost:" + d.address().getPort() + "\r\n";
    }

    @Test
    void aRequestLineIsReadExactlyAsHttpWritesIt() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, 0)) {
            assertEquals("HTTP/1.1 200 OK", status(d, "GET / HTTP/1.1\r\n" + host(d) + "\r\n"));
            assertEquals("HTTP/1.1 200 OK", status(d, "GET / HTTP/1.0\r\n" + host(d) + "\r\n"));
            assertEquals("HTTP/1.1 400 Bad Request", status(d, "GET / HTTP/1.1junk\r\n" + host(d) + "\r\n"), "text after the version");
            assertEquals("HTTP/1.1 400 Bad Request", status(d, "GET / http/1.1\r\n" + host(d) + "\r\n"), "the version's name is in capitals");
            assertEquals("HTTP/1.1 400 Bad Request", status(d, "GET / HTTP/1.1\r\r\n" + host(d) + "\r\n"), "a CR that ends no line");
            assertEquals("HTTP/1.1 400 Bad Request", status(d, "G\u0000T / HTTP/1.1\r\n" + host(d) + "\r\n"), "a NUL in the method");
            assertEquals("HTTP/1.1 400 Bad Request", status(d, "G\u00c9T / HTTP/1.1\r\n" + host(d) + "\r\n"), "a byte past ASCII in the method");
            assertEquals("HTTP/1.1 505 HTTP Version Not Supported", status(d, "GET / HTTP/2.0\r\n" + host(d) + "\r\n"));
            String lower = RawHttp.exchange(d.address().getPort(), "get / HTTP/1.1\r\n" + host(d) + "\r\n");
            assertTrue(lower.startsWith("HTTP/1.1 405 Method Not Allowed\r\n"), "methods are case-sensitive: " + lower);
            assertTrue(lower.contains("get / is not served; use GET"), lower);
            String head = RawHttp.exchange(d.address().getPort(), "head / HTTP/1.1\r\n" + host(d) + "\r\n");
            assertTrue(head.startsWith("HTTP/1.1 405 ") && head.endsWith("use GET\"}"), "'head' is not HEAD, so its answer has a body: " + head);
        }
    }

    @Test
    void aHeaderWithAControlCharacterInItsValueOrNameIsRefused() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, 0)) {
            String line = "GET / HTTP/1.1\r\n";
            String nul = RawHttp.exchange(d.address().getPort(), line + host(d) + "X-Note: a\u0000b\r\n\r\n");
            assertTrue(nul.startsWith("HTTP/1.1 400 Bad Request\r\n"), nul);
            assertTrue(nul.contains("the X-Note header holds the control character 0x00; expected printable text"), nul);
            assertEquals("HTTP/1.1 400 Bad Request", status(d, line + host(d) + "X-Note: a\rb\r\n\r\n"), "a bare CR");
            assertEquals("HTTP/1.1 400 Bad Request", status(d, line + "Host: localhost:" + d.address().getPort() + "\u001f\r\n\r\n"),
                    "a Host with a control character after it is not that host");
            assertEquals("HTTP/1.1 400 Bad Request", status(d, line + host(d) + "X(Note): b\r\n\r\n"), "a name that is not a token");
            assertEquals("HTTP/1.1 200 OK", status(d, line + "Host:\t localhost:" + d.address().getPort() + " \t\r\n"
                    + "X-Note: caf\u00c3\u00a9, tab\there\r\n\r\n"), "spaces and tabs around a value, and bytes past ASCII in it, are fine");
        }
    }
}

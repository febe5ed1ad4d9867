package dev.enginestates.devtools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which names the devtools page answers to, on every address it may listen on: the loopback
 * names, its own address and the names the game lists, each with the server's port, parsed
 * exactly; and a browser's Origin must be one of those, not merely the request's own Host. A page
 * reached under another name is a DNS-rebinding attack.
 */
@Timeout(60)
class DevtoolsAllowedHostsTest {
    private static final String SET = "{\"entity\":\"guard-1\",\"machine\":\"guard\",\"states\":[\"answer\"]}";

    private static String post(String host, String origin) {
        return "POST /api/state HTTP/1.1\r\nHost: " + host + "\r\n" + (origin == null ? "" : "Origin: " + origin + "\r\n")
                + "Content-Type: application/json\r\nContent-Length: " + SET.length() + "\r\nConnection: close\r\n\r\n" + SET;
    }

    private static AllowedHosts loopbackOn(int port, String... listed) throws Exception {
        return new AllowedHosts(port, InetAddress.getByName("127.0.0.1"), "127.0.0.1", List.of(listed));
    }

    @Test
    void aPageBoundBeyondTheLoopbackRefusesAHostAndOriginItWasNotGiven() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, DevtoolsOptions.onPort(0).bindTo("0.0.0.0").writable(true))) {
            int port = d.address().getPort();
            String evil = "evil.example:" + port;
            String answer = RawHttp.exchange(port, post(evil, "http://" + evil));
            assertTrue(answer.startsWith("HTTP/1.1 403 Forbidden\r\n"), answer);
            assertTrue(answer.contains("not for 'evil.example:" + port + "'; a game that serves it under another name lists it with"
                    + " DevtoolsOptions.allowHosts(...)"), answer);
            assertEquals("HTTP/1.1 403 Forbidden", RawHttp.status(port, RawHttp.get("/api/snapshot", evil)), "nor may it read");
            d.publish();
            assertEquals(0, d.pendingRequests());
            assertEquals("patrol.watch", Room.GUARD.read(room.guard1).state(), "nothing was set");
            assertEquals("HTTP/1.1 200 OK", RawHttp.status(port, RawHttp.get("/", "localhost:" + port)), "the loopback names still are");
        }
    }

    @Test
    void aPageBoundBeyondTheLoopbackAnswersTheNamesTheGameLists() throws Exception {
        DevtoolsOptions options = DevtoolsOptions.onPort(0).bindTo("0.0.0.0").writable(true).allowHosts("Game.Example", "192.168.7.20");
        assertEquals(List.of("game.example", "192.168.7.20"), options.allowedHosts());
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, options)) {
            int port = d.address().getPort();
            assertEquals("HTTP/1.1 200 OK", RawHttp.status(port, RawHttp.get("/", "game.example:" + port)));
            assertEquals("HTTP/1.1 200 OK", RawHttp.status(port, RawHttp.get("/", "GAME.example:" + port)), "names have no case");
            assertEquals("HTTP/1.1 200 OK", RawHttp.status(port, RawHttp.get("/", "192.168.7.20:" + port)));
            assertEquals("HTTP/1.1 403 Forbidden", RawHttp.status(port, RawHttp.get("/", "game.example:" + (port + 1))),
                    "another port is another origin");
            java.util.concurrent.CompletableFuture<String> set = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    return RawHttp.exchange(port, post("game.example:" + port, "http://game.example:" + port));
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            while (!set.isDone()) {
                room.world.step(Room.DT);
                d.publish();
                Thread.sleep(2);
            }
            assertTrue(set.get().startsWith("HTTP/1.1 200 OK\r\n"), set.get());
            assertEquals("answer", Room.GUARD.read(room.guard1).state());
        }
    }

    @Test
    void aHostMustBeExactlyAnAllowedNameAndTheServersPort() throws Exception {
        AllowedHosts hosts = loopbackOn(8080);
        for (String ok : List.of("localhost:8080", "LOCALHOST:8080", "127.0.0.1:8080", "[::1]:8080", "[0:0:0:0:0:0:0:1]:8080",
                "[0::1]:8080", " localhost:8080 ")) {
            assertTrue(hosts.allowsHost(ok), ok);
        }
        for (String bad : List.of("localhost:evil.example", "localhost:8080@evil.example", "127.0.0.1:8080@evil.example",
                "evil.example@localhost:8080", "localhost:8080:80", "localhost:8080/x", "localhost.evil.example:8080",
                "localhost:8081", "localhost", "localhost:", "local host:8080", "[::1]x:8080", "[::1]:8080]", "[::1%lo]:8080",
                "[::2]:8080", "127.0.0.2:8080", "evil.example:8080", "", ":8080", "localhost:+8080", "localhost:8080 x")) {
            assertFalse(hosts.allowsHost(bad), bad);
        }
        assertTrue(loopbackOn(80).allowsHost("localhost"), "no port written is port 80");
    }

    @Test
    void aBrowsersOriginMustBeAnAllowedOriginNotMerelyTheRequestsOwnHost() throws Exception {
        AllowedHosts hosts = loopbackOn(8080, "game.example");
        for (String ok : List.of("http://localhost:8080", "http://127.0.0.1:8080", "http://[::1]:8080", "HTTP://game.example:8080")) {
            assertTrue(hosts.allowsOrigin(ok), ok);
        }
        for (String bad : List.of("http://evil.example:8080", "https://localhost:8080", "http://localhost:8081", "http://localhost",
                "null", "http://localhost:8080/", "http://user@localhost:8080", "localhost:8080", "http://localhost:8080.evil.example")) {
            assertFalse(hosts.allowsOrigin(bad), bad);
        }
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, DevtoolsOptions.onPort(0).writable(true))) {
            int port = d.address().getPort();
            // the Origin equals the Host, and both name a site that is not this page
            String answer = RawHttp.exchange(port, post("localhost:" + port, "http://localhost:" + (port + 1)));
            assertTrue(answer.startsWith("HTTP/1.1 403 Forbidden\r\n"), answer);
            assertTrue(answer.contains("not requests from http://localhost:" + (port + 1) + "; nothing was changed"), answer);
            d.publish();
            assertEquals("patrol.watch", Room.GUARD.read(room.guard1).state());
        }
    }

    @Test
    void aRequestWithoutAHostIsRefused() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, 0)) {
            int port = d.address().getPort();
            String answer = RawHttp.exchange(port, "GET /api/snapshot HTTP/1.0\r\n\r\n");
            assertTrue(answer.startsWith("HTTP/1.1 400 Bad Request\r\n"), answer);
            assertTrue(RawHttp.exchange(port, "GET / HTTP/1.1\r\nHost: localhost:" + port + "\r\nHost: evil.example\r\n\r\n")
                    .startsWith("HTTP/1.1 400 Bad Request\r\n"), "two Hosts are ambiguous");
        }
    }

    @Test
    void allowHostsTakesOnlyHostNamesAndAddressesAndSaysWhatItExpected() {
        DevtoolsOptions o = DevtoolsOptions.onPort(0);
        for (String bad : List.of("game.example:8080", "*.example", "http://game.example", "game example", "", "user@game.example",
                "game.example/", "[::1]:80", "fe80::1%eth0")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> o.allowHosts(bad), bad);
            assertEquals("a devtools host is a host name such as \"game-server.lan\" or an IP address such as \"192.168.1.20\","
                    + " without a port, path or wildcard; got \"" + bad + "\"", e.getMessage());
        }
        assertEquals(List.of("[0:0:0:0:0:0:0:1]", "[fd00:0:0:0:0:0:0:7]"), o.allowHosts("::1", "[FD00::7]").allowedHosts());
        assertEquals(List.of(), o.allowedHosts());
    }
}

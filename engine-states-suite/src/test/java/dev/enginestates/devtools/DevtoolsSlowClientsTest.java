package dev.enginestates.devtools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The devtools server against clients that are slow, many or never read: each holds its own
 * connection for a bounded time, and a normal page load is still answered while they do. The
 * checks are outcomes and counts; wall-clock time appears only as generous guards.
 */
@Timeout(120)
class DevtoolsSlowClientsTest {
    private static final String HALF_A_HEAD = "GET / HTTP/1.1\r\nHost: localhost\r\nUser-Agent: slow";

    private static int port(Devtools d) {
        return d.address().getPort();
    }

    private static String host(Devtools d) {
        return "localhost:" + port(d);
    }

    /** Waits (a bounded number of short sleeps) until a count reaches a value; the guard is the test's timeout. */
    private static void awaitCount(IntSupplier count, int expected) throws InterruptedException {
        while (count.getAsInt() != expected) {
            Thread.sleep(5);
        }
    }

    private static void closeAll(List<Socket> sockets) throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
    }

    @Test
    void fiftyClientsSendingHalfARequestDoNotKeepThePageFromBeingServed() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, 0)) {
            List<Socket> slow = new ArrayList<>();
            try {
                for (int i = 0; i < 50; i++) {
                    slow.add(RawHttp.open(port(d), HALF_A_HEAD));
                }
                assertEquals("HTTP/1.1 200 OK", RawHttp.status(port(d), RawHttp.get("/", host(d))),
                        "the page is answered while 50 clients hold half a request each");
                assertEquals("HTTP/1.1 200 OK", RawHttp.status(port(d), RawHttp.get("/api/snapshot", host(d))));
            } finally {
                closeAll(slow);
            }
        }
    }

    @Test
    void moreHalfRequestsThanConnectionsPushOutTheOldestRatherThanKeepANewRequestOut() throws Exception {
        Limits limits = new Limits(4, 2, 2, 60_000, 5_000, 10_000);
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, DevtoolsOptions.onPort(0), limits)) {
            List<Socket> slow = new ArrayList<>();
            try {
                for (int i = 0; i < 10; i++) {
                    slow.add(RawHttp.open(port(d), HALF_A_HEAD));
                }
                assertEquals("HTTP/1.1 200 OK", RawHttp.status(port(d), RawHttp.get("/", host(d))));
                HttpFront front = d.server().front();
                assertEquals(7, front.pushedOutConnections(), "10 half requests and the page load in 4 places: the 7 oldest went");
                assertEquals(0, front.refusedConnections());
                for (int i = 0; i < 7; i++) {
                    assertTrue(RawHttp.closedByServer(slow.get(i)), "the oldest half requests are the ones closed: #" + i);
                }
            } finally {
                closeAll(slow);
            }
        }
    }

    @Test
    void anAnsweredRequestWhoseAnnouncedBodyNeverComesGivesItsPlaceToANewConnection() throws Exception {
        Limits limits = new Limits(2, 2, 2, 5_000, 5_000, 60_000);
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, DevtoolsOptions.onPort(0), limits)) {
            // a Content-Length and never the body: the server answers, then reads the body it did not ask for, to drop it
            String announced = "GET / HTTP/1.1\r\nHost: " + host(d) + "\r\nContent-Length: 60000\r\n\r\n";
            List<Socket> held = new ArrayList<>();
            try {
                for (int i = 0; i < 2; i++) {
                    Socket s = RawHttp.open(port(d), announced);
                    held.add(s);
                    assertTrue(RawHttp.readAll(s).startsWith("HTTP/1.1 200 OK"), "answered; the server now only drains");
                }
                assertEquals(2, d.server().front().openConnections(), "both places are held by connections that only drain");
                assertEquals("HTTP/1.1 200 OK", RawHttp.status(port(d), RawHttp.get("/", host(d))),
                        "a page load takes the place of a connection that only drains, rather than being refused");
                assertEquals(0, d.server().front().refusedConnections());
                assertEquals(1, d.server().front().pushedOutConnections());
            } finally {
                closeAll(held);
            }
        }
    }

    @Test
    void aRequestHeadNotFinishedWithinItsTimeIsClosedEvenIfItTricklesOn() throws Exception {
        Limits limits = new Limits(4, 2, 2, 300, 300, 10_000);
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, DevtoolsOptions.onPort(0), limits)) {
            try (Socket still = RawHttp.open(port(d), HALF_A_HEAD)) {
                assertTrue(RawHttp.closedByServer(still), "half a request, then nothing: closed");
            }
            // one byte every 20 ms, each well within a single read's timeout: the head's own deadline ends it
            try (Socket trickle = RawHttp.open(port(d), HALF_A_HEAD)) {
                AtomicInteger sent = new AtomicInteger();
                Thread writer = new Thread(() -> {
                    try {
                        OutputStream out = trickle.getOutputStream();
                        for (int i = 0; i < 1_000; i++) {
                            out.write('x');
                            out.flush();
                            sent.incrementAndGet();
                            Thread.sleep(20);
                        }
                    } catch (IOException | InterruptedException e) {
                        // the server closed it: what the test waits for
                    }
                });
                writer.setDaemon(true);
                writer.start();
                assertTrue(RawHttp.closedByServer(trickle), "a head that trickles on is closed at its deadline");
                writer.join();
                assertTrue(sent.get() < 1_000, "the server closed the connection before the client stopped sending");
            }
            assertEquals("HTTP/1.1 200 OK", RawHttp.status(port(d), RawHttp.get("/", host(d))), "a whole request is still served");
        }
    }

    @Test
    void whenEveryConnectionIsBusyANewOneIsAnswered503AtOnce() throws Exception {
        Limits limits = new Limits(2, 2, 2, 5_000, 5_000, 10_000);
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, DevtoolsOptions.onPort(0), limits)) {
            // two long polls on a game that does not publish: busy, not sending a head, so not pushed out
            List<Socket> polls = new ArrayList<>();
            try {
                for (int i = 0; i < 2; i++) {
                    polls.add(RawHttp.open(port(d), RawHttp.get("/api/snapshot?after=" + Long.MAX_VALUE / 2, host(d))));
                }
                awaitCount(d.server()::waitingLongPolls, 2);
                try (Socket third = RawHttp.open(port(d), "")) {
                    String answer = RawHttp.readAll(third);
                    assertTrue(answer.startsWith("HTTP/1.1 503 Service Unavailable\r\n"), answer);
                    assertTrue(answer.contains("\r\nRetry-After: 1\r\n"), answer);
                }
                assertEquals(1, d.server().front().refusedConnections());
                assertEquals(2, d.server().waitingLongPolls(), "refused while both long polls still waited");
                for (Socket p : polls) {
                    assertTrue(RawHttp.readAll(p).startsWith("HTTP/1.1 200 OK"), "each long poll is answered in its time");
                }
            } finally {
                closeAll(polls);
            }
        }
    }

    @Test
    void longPollsBeyondTheirPlacesAreAnsweredAtOnceAndNeverHoldUpAPageLoad() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, 0)) {
            int places = Limits.DEFAULT.longPolls;
            String poll = RawHttp.get("/api/snapshot?after=" + Long.MAX_VALUE / 2, host(d));
            List<Socket> polls = new ArrayList<>();
            try {
                for (int i = 0; i < places; i++) {
                    polls.add(RawHttp.open(port(d), poll));
                }
                awaitCount(d.server()::waitingLongPolls, places);
                String extra = RawHttp.exchange(port(d), poll);
                assertTrue(extra.startsWith("HTTP/1.1 503 Service Unavailable\r\n"), extra);
                assertTrue(extra.contains("\r\nRetry-After: 1\r\n"), extra);
                assertTrue(extra.contains(places + " requests already wait for the next snapshot"), extra);
                assertEquals("HTTP/1.1 200 OK", RawHttp.status(port(d), RawHttp.get("/", host(d))));
                assertEquals("HTTP/1.1 200 OK", RawHttp.status(port(d), RawHttp.get("/api/snapshot", host(d))),
                        "a snapshot the page has not seen is answered at once, needing no place");
                assertEquals(places, d.server().waitingLongPolls(), "all of this was answered while every long poll still waited");
                for (Socket p : polls) {
                    assertTrue(RawHttp.readAll(p).startsWith("HTTP/1.1 200 OK"));
                }
            } finally {
                closeAll(polls);
            }
        }
    }

    @Test
    void aClientThatNeverReadsItsAnswerIsCutOffAtTheAnswersDeadline() throws Exception {
        Limits limits = new Limits(4, 2, 2, 5_000, 5_000, 300);
        HttpFront front = new HttpFront(InetAddress.getLoopbackAddress(), 0, limits);
        AtomicInteger cutOff = new AtomicInteger();
        byte[] large = new byte[64 * 1024 * 1024]; // more than any socket buffers between the two ends
        front.start(x -> {
            try {
                x.answer(200, "application/octet-stream", large);
            } catch (IOException e) {
                cutOff.incrementAndGet();
                throw e;
            }
        });
        try (Socket s = new Socket()) {
            s.setReceiveBufferSize(4096);
            s.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), front.port()));
            s.getOutputStream().write(RawHttp.get("/", "localhost").getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            // never reads
            awaitCount(cutOff::get, 1);
            awaitCount(front::openConnections, 0);
        } finally {
            front.stop();
        }
    }

    @Test
    void aBodyLongerThanTheLimitIsRefusedBeforeItIsSent() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, DevtoolsOptions.onPort(0).writable(true))) {
            String head = "POST /api/state HTTP/1.1\r\nHost: " + host(d) + "\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 100000000\r\n\r\n";
            String answer = RawHttp.exchange(port(d), head); // and not a byte of the body
            assertTrue(answer.startsWith("HTTP/1.1 413 "), answer);
            assertTrue(answer.contains("the request body is 100000000 bytes; a state is set with at most 65536 bytes"), answer);
            d.publish();
            assertEquals(0, d.pendingRequests());
        }
    }

    @Test
    void aRequestHeadOverItsSizeIsRefusedWith431AndABodyWithoutALengthWith411() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, DevtoolsOptions.onPort(0).writable(true))) {
            StringBuilder big = new StringBuilder("GET / HTTP/1.1\r\nHost: " + host(d) + "\r\n");
            for (int i = 0; i < 100; i++) {
                big.append("X-Filler-").append(i).append(": ").append("a".repeat(90)).append("\r\n"); // 10 kB in all
            }
            String answer = RawHttp.exchange(port(d), big.append("\r\n").toString());
            assertTrue(answer.startsWith("HTTP/1.1 431 Request Header Fields Too Large\r\n"), answer);
            assertTrue(answer.contains("the request's line and headers are longer than 8192 bytes"), answer);
            String chunked = "POST /api/state HTTP/1.1\r\nHost: " + host(d) + "\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n3\r\n{}\n\r\n0\r\n\r\n";
            assertTrue(RawHttp.exchange(port(d), chunked).startsWith("HTTP/1.1 411 Length Required\r\n"));
            d.publish();
            assertEquals(0, d.pendingRequests());
        }
    }

    @Test
    void aBodySentTooSlowlyIsCutOffAndSetsNothing() throws Exception {
        Limits limits = new Limits(4, 2, 2, 5_000, 300, 10_000);
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, DevtoolsOptions.onPort(0).writable(true), limits)) {
            String body = "{\"entity\":\"guard-1\",\"machine\":\"guard\",\"states\":[\"answer\"]}";
            String head = "POST /api/state HTTP/1.1\r\nHost: " + host(d) + "\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length() + "\r\n\r\n";
            try (Socket s = RawHttp.open(port(d), head + body.substring(0, 10))) {
                Thread writer = new Thread(() -> {
                    try {
                        OutputStream out = s.getOutputStream();
                        for (int i = 10; i < body.length() - 1; i++) { // never the last byte
                            out.write(body.charAt(i));
                            out.flush();
                            Thread.sleep(20);
                        }
                    } catch (IOException | InterruptedException e) {
                        // closed by the server
                    }
                });
                writer.setDaemon(true);
                writer.start();
                assertTrue(RawHttp.closedByServer(s), "a body that does not arrive in time is cut off");
                writer.join();
            }
            for (int i = 0; i < 10; i++) {
                room.world.step(Room.DT);
                d.publish();
            }
            assertEquals(0, d.pendingRequests());
            assertEquals("patrol.watch", Room.GUARD.read(room.guard1).state(), "nothing was set");
        }
    }

    @Test
    void handSetStatesBeyondTheirPlacesAreRefusedAtOnceAndChangeNothing() throws Exception {
        Limits limits = new Limits(8, 2, 2, 5_000, 5_000, 10_000);
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, DevtoolsOptions.onPort(0).writable(true), limits)) {
            List<Socket> waiting = new ArrayList<>();
            try {
                waiting.add(RawHttp.open(port(d), post(d, "guard-1", "answer")));
                waiting.add(RawHttp.open(port(d), post(d, "guard-2", "answer")));
                awaitCount(d::pendingRequests, 2);
                String third = RawHttp.exchange(port(d), post(d, "guard-1", "patrol.rest"));
                assertTrue(third.startsWith("HTTP/1.1 503 Service Unavailable\r\n"), third);
                assertTrue(third.contains("2 states set by hand already wait for the game's next publish, the most this page holds"
                        + " at once, so 'guard' on 'guard-1' was not set; nothing was changed"), third);
                d.publish();
                for (Socket s : waiting) {
                    assertTrue(RawHttp.readAll(s).startsWith("HTTP/1.1 200 OK"));
                }
                assertEquals("answer", Room.GUARD.read(room.guard1).state(), "the refused state was never set");
                assertEquals("answer", Room.GUARD.read(room.guard2).state());
            } finally {
                closeAll(waiting);
            }
        }
    }

    private static String post(Devtools d, String entity, String state) {
        String body = "{\"entity\":\"" + entity + "\",\"machine\":\"guard\",\"states\":[\"" + state + "\"]}";
        return "POST /api/state HTTP/1.1\r\nHost: " + host(d) + "\r\nContent-Type: application/json\r\nContent-Length: "
                + body.length() + "\r\nConnection: close\r\n\r\n" + body;
    }
}

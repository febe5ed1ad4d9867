package dev.enginestates.devtools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The devtools page over HTTP (the JDK's client against the JDK's server): what it serves, that
 * its threads never touch the world (the world's thread publishes and applies), and that it is
 * read-only and on the loopback address unless told otherwise.
 */
@Timeout(60)
class DevtoolsHttpTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private HttpResponse<String> get(Devtools d, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(d.address().resolve(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private CompletableFuture<HttpResponse<String>> post(Devtools d, String type, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(d.address().resolve("api/state")).POST(HttpRequest.BodyPublishers.ofString(body));
        if (type != null) {
            b.header("Content-Type", type);
        }
        return http.sendAsync(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The game's loop, on this (the world's) thread, until the page's request is answered. */
    private static <T> T stepUntil(Room room, Devtools d, CompletableFuture<T> answer) throws Exception {
        while (!answer.isDone()) {
            room.world.step(Room.DT);
            d.publish();
            Thread.sleep(2);
        }
        return answer.get();
    }

    @Test
    void thePageIsServedOnTheLoopbackAddressAndReadOnlyByDefault() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, 0)) {
            assertEquals("127.0.0.1", d.address().getHost());
            assertTrue(d.address().getPort() > 0, "port 0 takes a free port, which address() tells");
            assertFalse(d.options().isWritable());

            HttpResponse<String> page = get(d, "/");
            assertEquals(200, page.statusCode());
            assertTrue(page.headers().firstValue("Content-Type").orElse("").startsWith("text/html"));
            assertTrue(page.body().contains("<title>engine-states devtools</title>"));
            assertFalse(page.body().contains("src=\"http"), "the page is self-contained: no script from elsewhere");

            HttpResponse<String> snap = get(d, "/api/snapshot");
            assertEquals(200, snap.statusCode());
            JsonNode s = JSON.readTree(snap.body());
            assertEquals("engine-states/devtools", s.get("format").asText());
            assertFalse(s.get("writable").asBoolean());

            HttpResponse<String> refused = post(d, "application/json",
                    "{\"entity\":\"guard-1\",\"machine\":\"guard\",\"states\":[\"answer\"]}").get();
            assertEquals(403, refused.statusCode(), "refused at once: nothing for the game's thread to do");
            assertEquals("this devtools page is read-only, so 'guard' on 'guard-1' was not set; serve it with"
                    + " DevtoolsOptions.onPort(port).writable(true) to set states by hand", JSON.readTree(refused.body()).get("error").asText());
            d.publish();
            assertEquals("patrol.watch", Room.GUARD.read(room.guard1).state());
        }
    }

    @Test
    void aSnapshotRequestWaitsForTheNextSnapshotTheGamePublishes() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, DevtoolsOptions.onPort(0).interval(Duration.ZERO))) {
            long first = JSON.readTree(get(d, "/api/snapshot").body()).get("snapshot").asLong();
            CompletableFuture<HttpResponse<String>> next = http.sendAsync(
                    HttpRequest.newBuilder(d.address().resolve("/api/snapshot?after=" + first)).build(), HttpResponse.BodyHandlers.ofString());
            JsonNode s = JSON.readTree(stepUntil(room, d, next).body());
            assertTrue(s.get("snapshot").asLong() > first);
            assertTrue(s.get("steps").asLong() > 0, "the world stepped before this snapshot was taken");
        }
    }

    @Test
    void publishTakesNoSnapshotWhileNoPageWatchesNorMoreOftenThanTheInterval() throws Exception {
        try (Room room = new Room();
             Devtools quick = Devtools.serve(room.world, DevtoolsOptions.onPort(0).interval(Duration.ZERO));
             Devtools slow = Devtools.serve(room.world, DevtoolsOptions.onPort(0).interval(Duration.ofHours(1)))) {
            room.world.step(Room.DT);
            assertFalse(quick.publish(), "no page has asked: no snapshot");
            assertFalse(slow.publish());
            get(quick, "/api/snapshot");
            get(slow, "/api/snapshot");
            room.world.step(Room.DT);
            assertTrue(quick.publish(), "a page watches");
            assertTrue(quick.publish());
            assertFalse(slow.publish(), "its last snapshot (at serve) is less than an hour old");
            assertTrue(slow.snapshot().contains("\"steps\":2"), "snapshot() takes one now, whatever the interval");
        }
    }

    @Test
    void aStateSetFromThePageIsAppliedOnTheWorldsThreadAtTheNextPublish() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, DevtoolsOptions.onPort(0).writable(true))) {
            AtomicReference<Thread> applied = new AtomicReference<>();
            CompletableFuture<HttpResponse<String>> answer = post(d, "application/json",
                    "{\"entity\":\"guard-1\",\"machine\":\"guard\",\"states\":[\"answer\"]}");
            HttpResponse<String> r = stepUntil(room, d, answer.whenComplete((x, e) -> applied.compareAndSet(null, Thread.currentThread())));
            assertEquals(200, r.statusCode(), r.body());
            JsonNode body = JSON.readTree(r.body());
            assertTrue(body.get("ok").asBoolean());
            assertEquals("guard: answer", body.get("record").get("fact").asText());
            assertEquals("answer", Room.GUARD.read(room.guard1).state());
            JsonNode snap = JSON.readTree(get(d, "/api/snapshot").body());
            boolean shown = false;
            for (JsonNode f : snap.get("facts")) {
                shown |= f.get("entity").asText().equals("guard-1") && f.get("text").asText().equals("guard: answer");
            }
            assertTrue(shown, "the snapshot taken after the set shows it: " + snap.get("facts"));
        }
    }

    @Test
    void aTagNamedFromThePageIsRefusedAndNothingChanges() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, DevtoolsOptions.onPort(0).writable(true))) {
            HttpResponse<String> r = stepUntil(room, d, post(d, "application/json",
                    "{\"entity\":\"guard-1\",\"machine\":\"guard\",\"states\":[\"guard.answer\"]}"));
            assertEquals(422, r.statusCode());
            assertTrue(JSON.readTree(r.body()).get("error").asText().contains("'guard.answer' names the tag of state 'answer'"), r.body());
            assertEquals("patrol.watch", Room.GUARD.read(room.guard1).state());
        }
    }

    @Test
    void aStateIsSetOnlyByJsonFromThePagesOwnOrigin() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, DevtoolsOptions.onPort(0).writable(true))) {
            String body = "{\"entity\":\"guard-1\",\"machine\":\"guard\",\"states\":[\"answer\"]}";
            assertEquals(415, post(d, "text/plain", body).get().statusCode(), "a form on another site can send text/plain without asking");
            HttpResponse<String> foreign = http.send(HttpRequest.newBuilder(d.address().resolve("api/state"))
                    .header("Content-Type", "application/json").header("Origin", "http://evil.example")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(403, foreign.statusCode());
            assertEquals(400, post(d, "application/json", "{\"entity\":").get().statusCode());
            HttpResponse<String> shapeless = post(d, "application/json", "{\"entity\":\"guard-1\",\"machine\":\"guard\",\"states\":\"answer\"}").get();
            assertEquals(400, shapeless.statusCode());
            assertTrue(JSON.readTree(shapeless.body()).get("error").asText().contains("expected \"states\": a list of state paths"));
            d.publish();
            assertEquals("patrol.watch", Room.GUARD.read(room.guard1).state());
        }
    }

    @Test
    void aBodyWithADuplicateKeyOrTextAfterItsObjectIsRefusedAndChangesNothing() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, DevtoolsOptions.onPort(0).writable(true))) {
            String set = "{\"entity\":\"guard-1\",\"machine\":\"guard\",\"states\":[\"answer\"]}";
            List<String> bodies = List.of(
                    "{\"entity\":\"guard-1\",\"entity\":\"guard-2\",\"machine\":\"guard\",\"states\":[\"answer\"]}",
                    set + " and more",
                    set + "{\"entity\":\"guard-2\"}");
            for (String body : bodies) {
                HttpResponse<String> r = stepUntil(room, d, post(d, "application/json", body));
                assertEquals(400, r.statusCode(), body + " -> " + r.body());
                assertTrue(JSON.readTree(r.body()).get("error").asText().startsWith("the request body is not one JSON object"), r.body());
                assertEquals("patrol.watch", Room.GUARD.read(room.guard1).state(), body);
                assertEquals("patrol.watch", Room.GUARD.read(room.guard2).state(), body);
            }
        }
    }

    @Test
    void aBodyThatIsNotTextInAnEncodingOfJsonIsAnsweredWithAnErrorAndChangesNothing() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, DevtoolsOptions.onPort(0).writable(true))) {
            byte[] body = {0, 0, 0, '{', 0x7f, 0x7f, 0x7f, 0x7f}; // read as UTF-32 by its first bytes, then no character at all
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(d.address().resolve("api/state"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(400, r.statusCode(), r.body());
            assertTrue(JSON.readTree(r.body()).get("error").asText().startsWith("the request body is not JSON text"), r.body());
            d.publish();
            assertEquals("patrol.watch", Room.GUARD.read(room.guard1).state());
        }
    }

    @Test
    void aPageOnTheLoopbackAddressAnswersOnlyRequestsForLocalhost() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, 0)) {
            // a rebound DNS name pointing at 127.0.0.1 must not read the page: the Host header says which name was asked
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), d.address().getPort())) {
                OutputStream out = s.getOutputStream();
                out.write("GET /api/snapshot HTTP/1.1\r\nHost: evil.example:80\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = s.getInputStream();
                String status = new String(in.readAllBytes(), StandardCharsets.US_ASCII).lines().findFirst().orElse("");
                assertEquals("HTTP/1.1 403 Forbidden", status);
            }
            assertEquals(200, http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + d.address().getPort() + "/")).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode());
        }
    }

    @Test
    void aPageOnTheIpv6LoopbackAddressAnswersTheAddressItGives() throws Exception {
        try (Room room = new Room()) {
            Devtools d;
            try {
                d = Devtools.serve(room.world, DevtoolsOptions.onPort(0).bindTo("::1"));
            } catch (java.io.UncheckedIOException e) {
                org.junit.jupiter.api.Assumptions.abort("this machine has no IPv6 loopback address: " + e.getMessage());
                return;
            }
            try (d) {
                assertEquals(200, get(d, "/").statusCode(), "the page answers " + d.address() + ", which address() gives");
                assertEquals(200, http.send(HttpRequest.newBuilder(URI.create("http://[::1]:" + d.address().getPort() + "/")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode());
                try (Socket s = new Socket(InetAddress.getByName("::1"), d.address().getPort())) {
                    s.getOutputStream().write("GET / HTTP/1.1\r\nHost: [::2]\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    String status = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).lines().findFirst().orElse("");
                    assertEquals("HTTP/1.1 403 Forbidden", status, "an address that is not the loopback's is still refused");
                }
            }
        }
    }

    @Test
    void unknownPathsAndMethodsAreRefused() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, 0)) {
            assertEquals(404, get(d, "/nothing").statusCode());
            HttpResponse<String> wrong = http.send(HttpRequest.newBuilder(d.address().resolve("/api/snapshot"))
                    .DELETE().build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(405, wrong.statusCode());
            assertEquals("GET", wrong.headers().firstValue("Allow").orElse(""));
            assertEquals(400, get(d, "/api/snapshot?after=soon").statusCode());
        }
    }

    @Test
    void aStateTheGameNeverPublishesForIsGivenUpAndNeverSet() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, DevtoolsOptions.onPort(0).writable(true))) {
            HandSet.Outcome o = d.handSet(new HandSet("guard-1", "guard", List.of("answer")), 10);
            assertEquals(503, o.status);
            assertEquals("the game did not call Devtools.publish() within 10 ms, so 'guard' on 'guard-1' was not set; nothing was changed",
                    o.error);
            d.publish();
            assertEquals("patrol.watch", Room.GUARD.read(room.guard1).state(), "the request was given up: never applied later");
        }
    }

    @Test
    void aStateWhoseServerThreadWasInterruptedIsNeverSetLater() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, DevtoolsOptions.onPort(0).writable(true))) {
            Thread.currentThread().interrupt(); // as close() interrupts the server's threads; the page is then told nothing changed
            assertThrows(InterruptedException.class, () -> d.handSet(new HandSet("guard-1", "guard", List.of("answer")), 1_000));
            d.publish();
            assertEquals("patrol.watch", Room.GUARD.read(room.guard1).state(), "the request was given up: never applied later");
            assertEquals(0, d.pendingRequests());
        }
    }

    @Test
    void onlyTheWorldsThreadPublishesAndAnotherChangesNothing() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, DevtoolsOptions.onPort(0).writable(true))) {
            CompletableFuture<HttpResponse<String>> pending = post(d, "application/json",
                    "{\"entity\":\"guard-1\",\"machine\":\"guard\",\"states\":[\"answer\"]}");
            while (d.pendingRequests() == 0) {
                Thread.sleep(2);
            }
            CompletableFuture<Throwable> other = new CompletableFuture<>();
            Thread t = new Thread(() -> {
                try {
                    d.publish();
                    other.complete(null);
                } catch (Throwable e) {
                    other.complete(e);
                }
            });
            t.start();
            t.join();
            Throwable e = other.get();
            assertInstanceOf(IllegalStateException.class, e);
            assertTrue(e.getMessage().contains("a world belongs to one thread at a time"), e.getMessage());
            assertEquals("patrol.watch", Room.GUARD.read(room.guard1).state(), "the queued state was not applied on the wrong thread");
            assertEquals(200, stepUntil(room, d, pending).statusCode(), "the world's thread applies it");
            assertEquals("answer", Room.GUARD.read(room.guard1).state());
            assertThrows(IllegalStateException.class, () -> runOn(() -> Devtools.serve(room.world, 0)));
        }
    }

    private static void runOn(Runnable r) throws Exception {
        CompletableFuture<Void> done = CompletableFuture.runAsync(r);
        try {
            done.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException) {
                throw (RuntimeException) e.getCause();
            }
            throw e;
        }
    }

    @Test
    void aPageLeftOpenNeverKeepsTheGamesJvmAlive() throws Exception {
        try (Room room = new Room(); Devtools d = Devtools.serve(room.world, 0)) {
            get(d, "/api/snapshot");
            List<String> alive = new java.util.ArrayList<>();
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if ((t.getName().startsWith("HTTP-Dispatcher") || t.getName().startsWith("devtools-")) && !t.isDaemon()) {
                    alive.add(t.getName());
                }
            }
            assertEquals(List.of(), alive, "the server's threads are daemons");
        }
    }

    @Test
    void anIntervalTooLongForNanosecondsMeansNeverAgainRatherThanAThrowIntoTheGamesLoop() throws Exception {
        try (Room room = new Room();
             Devtools d = Devtools.serve(room.world, DevtoolsOptions.onPort(0).interval(java.time.temporal.ChronoUnit.FOREVER.getDuration()))) {
            get(d, "/api/snapshot"); // a page watches
            room.world.step(Room.DT);
            assertFalse(d.publish(), "the interval has not passed");
        }
    }

    @Test
    void publishAfterCloseTakesNoSnapshotForAPageThatCanNoLongerAsk() throws Exception {
        try (Room room = new Room()) {
            Devtools d = Devtools.serve(room.world, DevtoolsOptions.onPort(0).interval(Duration.ZERO));
            get(d, "/api/snapshot"); // a page watches
            assertTrue(d.publish());
            d.close();
            assertFalse(d.publish(), "closed: nobody can fetch a snapshot, so the game's thread takes none");
        }
    }

    /** The live threads of devtools servers, by name prefix. */
    private static java.util.Set<Thread> devtoolsThreads() {
        java.util.Set<Thread> all = new java.util.HashSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("devtools-") && t.isAlive()) {
                all.add(t);
            }
        }
        return all;
    }

    @Test
    void closeReturnsOnlyOnceEveryThreadOfThePageHasEnded() throws Exception {
        java.util.Set<Thread> before = devtoolsThreads(); // another test's page, if one is still closing
        try (Room room = new Room()) {
            Devtools d = Devtools.serve(room.world, DevtoolsOptions.onPort(0).writable(true));
            int port = d.address().getPort();
            String host = "localhost:" + port;
            String body = "{\"entity\":\"guard-1\",\"machine\":\"guard\",\"states\":[\"answer\"]}";
            List<Socket> clients = new java.util.ArrayList<>();
            try {
                for (int i = 0; i < 5; i++) {
                    assertEquals("HTTP/1.1 200 OK", RawHttp.status(port, RawHttp.get("/", host))); // threads left idle in the pool
                }
                clients.add(RawHttp.open(port, "GET / HTTP/1.1\r\nHost: " + host)); // half a head
                clients.add(RawHttp.open(port, RawHttp.get("/api/snapshot?after=" + Long.MAX_VALUE / 2, host))); // a long poll
                clients.add(RawHttp.open(port, "POST /api/state HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\n"
                        + "Content-Length: " + body.length() + "\r\n\r\n" + body)); // a state the game never publishes
                while (d.server().waitingLongPolls() < 1 || d.pendingRequests() < 1) {
                    Thread.sleep(5);
                }
                d.close();
                java.util.Set<Thread> left = devtoolsThreads();
                left.removeAll(before);
                assertEquals(java.util.Set.of(), left, "no thread of the page outlives its close()");
                assertEquals(0, d.server().front().openConnections());
                d.publish();
                assertEquals("patrol.watch", Room.GUARD.read(room.guard1).state(), "the state waiting at close() was never set");
            } finally {
                for (Socket s : clients) {
                    s.close();
                }
                d.close();
            }
        }
    }

    @Test
    void closingStopsServing() throws Exception {
        try (Room room = new Room()) {
            Devtools d = Devtools.serve(room.world, 0);
            assertEquals(200, get(d, "/").statusCode());
            d.close();
            Exception e = assertThrows(Exception.class, () -> get(d, "/"));
            assertInstanceOf(ConnectException.class, e instanceof ConnectException ? e : e.getCause(), e.toString());
            d.close(); // twice is harmless
        }
    }
}

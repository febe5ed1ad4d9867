package dev.enginestates.devtools;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The page's HTTP side, on the JDK's own server and threads of its own. It never touches the
 * world: it hands out the snapshot text the world's thread published, and queues the page's
 * hand-set states for the world's thread to apply.
 *
 * <p>Routes: {@code GET /} the page; {@code GET /api/snapshot?after=N} the latest snapshot,
 * waiting up to {@link #LONG_POLL_MILLIS} for one newer than {@code N}; {@code POST /api/state}
 * with {@code {"entity": ..., "machine": ..., "states": [...]}} sets a state by hand.
 */
final class Server {
    /** How long a snapshot request waits for a newer snapshot before answering with the one there is. */
    static final long LONG_POLL_MILLIS = 5_000;
    /** How long a hand-set state waits for the game's next publish before it is given up (and never applied). */
    static final long WRITE_WAIT_MILLIS = 10_000;
    private static final int MAX_BODY = 64 * 1024;
    private static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "127.0.0.1", "[::1]");

    private final Devtools devtools;
    private final ObjectMapper json;
    /** Reads a request strictly: a duplicate key or text after the object is ambiguous, so it is refused, never guessed at. */
    private final ObjectReader strict;
    private final byte[] page;
    private final HttpServer http;
    private final ExecutorService threads;
    private final boolean loopback;
    private final URI address;

    Server(Devtools devtools, DevtoolsOptions options, ObjectMapper json, byte[] page) throws IOException {
        this.devtools = devtools;
        this.json = json;
        this.strict = json.reader()
                .with(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
                .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        this.page = page;
        InetAddress bind = InetAddress.getByName(options.host());
        this.loopback = bind.isLoopbackAddress();
        this.http = HttpServer.create(new InetSocketAddress(bind, options.port()), 16);
        AtomicInteger n = new AtomicInteger();
        this.threads = Executors.newFixedThreadPool(8, r -> {
            Thread t = new Thread(r, "devtools-http-" + n.incrementAndGet());
            t.setDaemon(true); // a page left open never keeps the game's JVM alive (nor does the dispatcher, below)
            return t;
        });
        http.setExecutor(threads);
        http.createContext("/", this::handle);
        // the server's dispatcher thread takes its daemon flag from the thread that starts it: a daemon one
        Thread starter = new Thread(http::start, "devtools-start");
        starter.setDaemon(true);
        starter.start();
        try {
            starter.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            http.stop(0);
            threads.shutdownNow();
            throw new IOException("interrupted while starting the devtools page's server", e);
        }
        String host = bind.getHostAddress();
        if (host.contains(":")) {
            host = "[" + host + "]";
        }
        this.address = URI.create("http://" + host + ":" + http.getAddress().getPort() + "/");
    }

    URI address() {
        return address;
    }

    void stop() {
        http.stop(0);
        threads.shutdownNow();
    }

    private void handle(HttpExchange x) throws IOException {
        try (x) {
            if (loopback && !hostAllowed(x)) {
                // a page bound to this machine answers only names of this machine (no DNS rebinding)
                send(x, 403, "text/plain", "this devtools page answers requests for localhost only".getBytes(StandardCharsets.UTF_8));
                return;
            }
            String path = x.getRequestURI().getPath();
            String method = x.getRequestMethod().toUpperCase(Locale.ROOT);
            switch (path) {
                case "/":
                case "/index.html":
                    if (!method.equals("GET") && !method.equals("HEAD")) {
                        notAllowed(x, "GET");
                        return;
                    }
                    send(x, 200, "text/html; charset=utf-8", page);
                    return;
                case "/api/snapshot":
                    if (!method.equals("GET")) {
                        notAllowed(x, "GET");
                        return;
                    }
                    snapshot(x);
                    return;
                case "/api/state":
                    if (!method.equals("POST")) {
                        notAllowed(x, "POST");
                        return;
                    }
                    setState(x);
                    return;
                default:
                    sendError(x, 404, "no such page: " + path + "; the devtools page is at /");
            }
        } catch (RuntimeException e) {
            // a bad request must never take the server down; the exchange is closed by now
            System.getLogger("dev.enginestates").log(System.Logger.Level.WARNING, "devtools request failed", e);
        }
    }

    private boolean hostAllowed(HttpExchange x) {
        String host = x.getRequestHeaders().getFirst("Host");
        if (host == null) {
            return true; // HTTP/1.0 without a Host header: not a browser's request by a name
        }
        String name = host.strip().toLowerCase(Locale.ROOT);
        int colon = name.lastIndexOf(':');
        if (colon > 0 && name.indexOf(']') < colon) {
            name = name.substring(0, colon);
        }
        return LOOPBACK_NAMES.contains(name) || loopbackIpv6(name);
    }

    /**
     * A bracketed IPv6 literal of the loopback address in any spelling, such as the
     * {@code [0:0:0:0:0:0:0:1]} that {@link #address()} gives for {@code ::1}. Only a literal is
     * parsed: a host name is never looked up.
     */
    private static boolean loopbackIpv6(String name) {
        if (!name.startsWith("[") || !name.endsWith("]") || !name.substring(1, name.length() - 1).matches("[0-9a-f:.]+")) {
            return false;
        }
        try {
            return InetAddress.getByName(name).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private void snapshot(HttpExchange x) throws IOException {
        long after = -1;
        String query = x.getRequestURI().getRawQuery();
        if (query != null) {
            for (String part : query.split("&")) {
                if (part.startsWith("after=")) {
                    try {
                        after = Long.parseLong(part.substring(6));
                    } catch (NumberFormatException e) {
                        sendError(x, 400, "after=" + part.substring(6) + ": expected the number of the last snapshot the page has");
                        return;
                    }
                }
            }
        }
        String text;
        try {
            text = devtools.awaitSnapshot(after, LONG_POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            sendError(x, 503, "the devtools page is closing");
            return;
        }
        send(x, 200, "application/json; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
    }

    private void setState(HttpExchange x) throws IOException {
        String type = x.getRequestHeaders().getFirst("Content-Type");
        if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            // a form on another site cannot send JSON without the browser asking this server first
            sendError(x, 415, "a state is set with a JSON body (Content-Type: application/json), such as"
                    + " {\"entity\": \"guard-1\", \"machine\": \"guard\", \"states\": [\"patrol.watch\"]}");
            return;
        }
        String origin = x.getRequestHeaders().getFirst("Origin");
        String host = x.getRequestHeaders().getFirst("Host");
        if (origin != null && host != null && !origin.equalsIgnoreCase("http://" + host)) {
            sendError(x, 403, "a state is set from the devtools page itself, not from " + origin);
            return;
        }
        byte[] body = readBody(x.getRequestBody());
        if (body == null) {
            sendError(x, 413, "the request body is larger than " + MAX_BODY + " bytes");
            return;
        }
        HandSet request;
        try {
            request = parse(strict.readTree(body));
        } catch (JsonProcessingException e) {
            sendError(x, 400, "the request body is not one JSON object without duplicate keys: " + e.getOriginalMessage());
            return;
        } catch (IOException e) {
            // the body is in memory, so this is its decoding (bytes Jackson took for UTF-32 that are not): answered, not dropped
            sendError(x, 400, "the request body is not JSON text in UTF-8, UTF-16 or UTF-32: " + e.getMessage());
            return;
        } catch (IllegalArgumentException e) {
            sendError(x, 400, e.getMessage());
            return;
        }
        HandSet.Outcome outcome;
        try {
            outcome = devtools.handSet(request, WRITE_WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            sendError(x, 503, "the devtools page is closing; nothing was changed");
            return;
        }
        if (!outcome.ok()) {
            sendError(x, outcome.status, outcome.error);
            return;
        }
        send(x, 200, "application/json; charset=utf-8", outcome.body.getBytes(StandardCharsets.UTF_8));
    }

    /** The request's fields: {@code entity} and {@code machine} strings, {@code states} a list of strings (or {@code state}, one). */
    private static HandSet parse(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new IllegalArgumentException("expected a JSON object such as {\"entity\": \"guard-1\", \"machine\": \"guard\","
                    + " \"states\": [\"patrol.watch\"]}");
        }
        JsonNode entity = body.get("entity");
        JsonNode machine = body.get("machine");
        if (entity == null || !entity.isTextual() || machine == null || !machine.isTextual()) {
            throw new IllegalArgumentException("expected \"entity\" and \"machine\" as strings, the names the page lists");
        }
        List<String> states = new ArrayList<>();
        JsonNode many = body.get("states");
        JsonNode one = body.get("state");
        if (many != null && many.isArray()) {
            for (JsonNode s : many) {
                if (!s.isTextual()) {
                    throw new IllegalArgumentException("\"states\": expected state paths as strings, found " + s);
                }
                states.add(s.asText());
            }
        } else if (one != null && one.isTextual()) {
            states.add(one.asText());
        } else {
            throw new IllegalArgumentException("expected \"states\": a list of state paths (one per region of a parallel state),"
                    + " such as [\"patrol.watch\"]");
        }
        return new HandSet(entity.asText(), machine.asText(), states);
    }

    private static byte[] readBody(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        int n;
        while ((n = in.read(buf)) > 0) {
            out.write(buf, 0, n);
            if (out.size() > MAX_BODY) {
                return null;
            }
        }
        return out.toByteArray();
    }

    private void notAllowed(HttpExchange x, String allowed) throws IOException {
        x.getResponseHeaders().set("Allow", allowed);
        sendError(x, 405, x.getRequestMethod() + " " + x.getRequestURI().getPath() + " is not served; use " + allowed);
    }

    private void sendError(HttpExchange x, int status, String message) throws IOException {
        ObjectNode o = json.createObjectNode();
        o.put("ok", false);
        o.put("error", message);
        send(x, status, "application/json; charset=utf-8", json.writeValueAsBytes(o));
    }

    private static void send(HttpExchange x, int status, String type, byte[] body) throws IOException {
        x.getResponseHeaders().set("Content-Type", type);
        x.getResponseHeaders().set("Cache-Control", "no-store");
        x.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        boolean head = x.getRequestMethod().equalsIgnoreCase("HEAD");
        x.sendResponseHeaders(status, head ? -1 : body.length);
        if (!head) {
            try (OutputStream out = x.getResponseBody()) {
                out.write(body);
            }
        }
    }
}

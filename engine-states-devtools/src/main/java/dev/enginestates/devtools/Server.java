package dev.enginestates.devtools;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Semaphore;

/**
 * The page's HTTP side, on a small server of its own ({@link HttpFront}, {@link Exchange}) and
 * threads of its own. It never touches the world: it hands out the snapshot text the world's
 * thread published, and queues the page's hand-set states for the world's thread to apply.
 *
 * <p>Routes: {@code GET /} the page; {@code GET /api/snapshot?after=N} the latest snapshot,
 * waiting up to {@link #LONG_POLL_MILLIS} for one newer than {@code N}; {@code POST /api/state}
 * with {@code {"entity": ..., "machine": ..., "states": [...]}} sets a state by hand;
 * {@code POST /api/event} with {@code {"entity": ..., "machine": ..., "event": ...}} sends an event;
 * {@code POST /api/control} with {@code {"action": "pause" | "resume" | "step"}} holds or steps the
 * game's loop; the reads of the past are {@link TimeTravel}'s. Every
 * request must name an allowed host ({@link AllowedHosts}), and come from an allowed origin if
 * it names one. Waiting requests have places of their own ({@link Limits#longPolls},
 * {@link Limits#handSets}): when those are taken, a request that would wait is answered 503 at
 * once, so waiting pages never keep the others from their answers.
 */
final class Server {
    /** How long a snapshot request waits for a newer snapshot before answering with the one there is. */
    static final long LONG_POLL_MILLIS = 5_000;
    /** How long a hand-set state waits for the game's next publish before it is given up (and never applied). */
    static final long WRITE_WAIT_MILLIS = 10_000;

    private final Devtools devtools;
    private final ObjectMapper json;
    /** Reads a request strictly: a duplicate key or text after the object is ambiguous, so it is refused, never guessed at. */
    private final ObjectReader strict;
    private final byte[] page;
    private final HttpFront front;
    private final AllowedHosts hosts;
    private final Limits limits;
    private final Semaphore longPolls;
    private final Semaphore handSets;
    private final URI address;
    private final TimeTravel travel;

    Server(Devtools devtools, DevtoolsOptions options, ObjectMapper json, byte[] page, Limits limits) throws IOException {
        this.devtools = devtools;
        this.json = json;
        this.strict = json.reader()
                .with(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
                .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        this.page = page;
        this.travel = new TimeTravel(devtools, json);
        this.limits = limits;
        this.longPolls = new Semaphore(limits.longPolls);
        this.handSets = new Semaphore(limits.handSets);
        InetAddress bind = InetAddress.getByName(options.host());
        this.front = new HttpFront(bind, options.port(), limits);
        this.hosts = new AllowedHosts(front.port(), bind, options.host(), options.allowedHosts());
        String host = bind.getHostAddress();
        if (host.contains(":")) {
            host = "[" + host + "]";
        }
        this.address = URI.create("http://" + host + ":" + front.port() + "/");
        front.start(this::handle);
    }

    URI address() {
        return address;
    }

    /** The sockets' side, for tests that count connections. */
    HttpFront front() {
        return front;
    }

    /** How many snapshot requests wait for a newer snapshot now (for tests). */
    int waitingLongPolls() {
        return limits.longPolls - longPolls.availablePermits();
    }

    void stop() {
        front.stop();
    }

    private void handle(Exchange x) throws IOException {
        try {
            String host = x.header("Host");
            if (host == null) {
                sendError(x, 400, "a request names the host it is for (Host: " + hosts.describe().split(", ")[0]
                        + "); HTTP/1.1 requires it");
                return;
            }
            if (!hosts.allowsHost(host)) {
                // a page answers only the names it was given: another name is a DNS-rebinding attack
                sendError(x, 403, "this devtools page answers requests for " + hosts.describe() + " only, not for '" + host
                        + "'; a game that serves it under another name lists it with DevtoolsOptions.allowHosts(...)");
                return;
            }
            String origin = x.header("Origin");
            if (origin != null && !hosts.allowsOrigin(origin)) {
                // a browser names the site a request comes from: only the page's own may ask
                sendError(x, 403, "this devtools page answers its own pages only (http:// and one of " + hosts.describe()
                        + "), not requests from " + origin + "; nothing was changed");
                return;
            }
            String path = x.path();
            String method = x.method(); // case-sensitive, as HTTP's methods are: "get" is not GET
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
                case "/api/event":
                    if (!method.equals("POST")) {
                        notAllowed(x, "POST");
                        return;
                    }
                    sendEvent(x);
                    return;
                case "/api/control":
                    if (!method.equals("POST")) {
                        notAllowed(x, "POST");
                        return;
                    }
                    control(x);
                    return;
                default:
                    TimeTravel.Answer a = travel.answer(path, x.query());
                    if (a == null) {
                        sendError(x, 404, "no such page: " + path + "; the devtools page is at /");
                    } else if (!method.equals("GET")) {
                        notAllowed(x, "GET");
                    } else {
                        x.answer(a.status(), a.type(), a.body(), a.headers());
                    }
            }
        } catch (RuntimeException e) {
            // a bad request must never take the server down; the connection is closed after this
            System.getLogger("dev.enginestates").log(System.Logger.Level.WARNING, "devtools request failed", e);
        }
    }

    private void snapshot(Exchange x) throws IOException {
        long after = -1;
        String query = x.query();
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
        String text = devtools.snapshotAfter(after);
        if (text == null) {
            if (!longPolls.tryAcquire()) {
                // waiting places are taken: answered now, and the page asks again, rather than holding a connection
                x.answer(503, "application/json; charset=utf-8", error(limits.longPolls + " requests already wait for the next snapshot,"
                        + " the most this page serves at once; ask again in a second"), "Retry-After", "1");
                return;
            }
            try {
                text = devtools.awaitSnapshot(after, LONG_POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                sendError(x, 503, "the devtools page is closing");
                return;
            } finally {
                longPolls.release();
            }
        }
        send(x, 200, "application/json; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
    }

    private void setState(Exchange x) throws IOException {
        JsonNode body = readJson(x, "a state is set", "{\"entity\": \"guard-1\", \"machine\": \"guard\", \"states\": [\"patrol.watch\"]}");
        if (body == null) {
            return;
        }
        HandSet request;
        try {
            request = parse(body);
        } catch (IllegalArgumentException e) {
            sendError(x, 400, e.getMessage());
            return;
        }
        write(x, request, " states set by hand");
    }

    private void sendEvent(Exchange x) throws IOException {
        String example = "{\"entity\": \"guard-1\", \"machine\": \"guard\", \"event\": \"BELL\"}";
        JsonNode body = readJson(x, "an event is sent", example);
        if (body == null) {
            return;
        }
        JsonNode entity = body.get("entity");
        JsonNode machine = body.get("machine");
        JsonNode event = body.get("event");
        if (!body.isObject() || entity == null || !entity.isTextual() || machine == null || !machine.isTextual() || event == null
                || !event.isTextual()) {
            sendError(x, 400, "expected \"entity\", \"machine\" and \"event\" as strings, such as " + example);
            return;
        }
        write(x, new SentEvent(entity.asText(), machine.asText(), event.asText()), " events sent from the page");
    }

    private void control(Exchange x) throws IOException {
        JsonNode body = readJson(x, "the game's loop is paused, resumed or stepped", "{\"action\": \"pause\"}");
        if (body == null) {
            return;
        }
        JsonNode action = body.get("action");
        if (!body.isObject() || action == null || !action.isTextual() || !List.of("pause", "resume", "step").contains(action.asText())) {
            sendError(x, 400, "expected {\"action\": \"pause\"}, {\"action\": \"resume\"} or {\"action\": \"step\"}");
            return;
        }
        if (!devtools.options().isWritable()) {
            sendError(x, 403, "this devtools page is read-only, so the game's loop was not told to " + action.asText()
                    + "; serve it with DevtoolsOptions.onPort(port).writable(true) to pause and step the game from the page");
            return;
        }
        String answer = devtools.control(action.asText());
        if (answer == null) {
            x.answer(503, "application/json; charset=utf-8", error(Devtools.MAX_STEPS_ASKED + " steps asked from the page already wait"
                    + " for the game's loop (Devtools.step), the most it holds; nothing more was asked. Ask again in a second"),
                    "Retry-After", "1");
            return;
        }
        send(x, 200, "application/json; charset=utf-8", answer.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A write's JSON body, read strictly, or {@code null} once the refusal is answered: the type
     * must be JSON (a form on another site cannot send JSON without the browser asking this
     * server first), the length within {@link Limits#MAX_BODY_BYTES}.
     */
    private JsonNode readJson(Exchange x, String what, String example) throws IOException {
        String type = x.header("Content-Type");
        if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            sendError(x, 415, what + " with a JSON body (Content-Type: application/json), such as " + example);
            return null;
        }
        // the Origin, when a browser sends one, was checked with the Host: a foreign page was refused already
        if (x.contentLength() > Limits.MAX_BODY_BYTES) {
            // refused by its length, before a byte of it is read
            sendError(x, 413, "the request body is " + x.contentLength() + " bytes; " + what + " with at most "
                    + Limits.MAX_BODY_BYTES + " bytes of JSON. Nothing was changed.");
            return null;
        }
        byte[] body = x.body();
        try {
            JsonNode n = strict.readTree(body);
            if (n == null || !n.isObject()) {
                sendError(x, 400, "expected a JSON object such as " + example);
                return null;
            }
            return n;
        } catch (JsonProcessingException e) {
            sendError(x, 400, "the request body is not one JSON object without duplicate keys: " + e.getOriginalMessage());
            return null;
        } catch (IOException e) {
            // the body is in memory, so this is its decoding (bytes Jackson took for UTF-32 that are not): answered, not dropped
            sendError(x, 400, "the request body is not JSON text in UTF-8, UTF-16 or UTF-32: " + e.getMessage());
            return null;
        }
    }

    /** Queues a write for the world's thread, in the bounded places writes share, and answers what came of it. */
    private void write(Exchange x, PageWrite request, String kind) throws IOException {
        if (!handSets.tryAcquire()) {
            x.answer(503, "application/json; charset=utf-8", error(limits.handSets + kind + " already wait for the"
                    + " game's next publish, the most this page holds at once, so " + request.undone() + "; nothing was changed."
                    + " Ask again in a second"), "Retry-After", "1");
            return;
        }
        PageWrite.Outcome outcome;
        try {
            outcome = devtools.handSet(request, WRITE_WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            sendError(x, 503, "the devtools page is closing; nothing was changed");
            return;
        } finally {
            handSets.release();
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

    private void notAllowed(Exchange x, String allowed) throws IOException {
        x.answer(405, "application/json; charset=utf-8", error(x.method() + " " + x.path() + " is not served; use " + allowed),
                "Allow", allowed);
    }

    private byte[] error(String message) throws IOException {
        ObjectNode o = json.createObjectNode();
        o.put("ok", false);
        o.put("error", message);
        return json.writeValueAsBytes(o);
    }

    private void sendError(Exchange x, int status, String message) throws IOException {
        send(x, status, "application/json; charset=utf-8", error(message));
    }

    private static void send(Exchange x, int status, String type, byte[] body) throws IOException {
        x.answer(status, type, body);
    }
}

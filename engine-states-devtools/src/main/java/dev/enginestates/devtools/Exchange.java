package dev.enginestates.devtools;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * One connection of the devtools server: one HTTP/1.1 request read with bounds (its head in
 * {@link Limits#MAX_HEAD_BYTES} and {@link Limits#headMillis}, its body in
 * {@link Limits#MAX_BODY_BYTES} and {@link Limits#bodyMillis}), one answer written within
 * {@link Limits#answerMillis}, then closed. Every answer says {@code Connection: close}: a
 * connection never sits idle holding a place. {@link HttpFront} closes a connection whose
 * deadline has passed, which also ends a write to a client that never reads.
 */
final class Exchange {
    /**
     * What the connection is doing, for the front's deadlines and its choice of whom to push out.
     * DRAIN: answered, reading and dropping a body the server did not ask for before it closes.
     */
    enum Phase { HEAD, BODY, WORK, ANSWER, DRAIN, DONE }

    /** A request's problem found while reading it, answered with this status before the connection closes. */
    static final class BadRequest extends Exception {
        final int status;

        BadRequest(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    /** Headers that name one thing: given twice, a request is ambiguous and refused rather than guessed at. */
    private static final Set<String> SINGLE = Set.of("host", "origin", "content-length", "content-type", "transfer-encoding", "expect");
    private static final long NO_DEADLINE = Long.MAX_VALUE;
    /** HTTP-version: its name in capitals, one digit each side of the dot. */
    private static final Pattern VERSION = Pattern.compile("HTTP/[0-9]\\.[0-9]");

    private final Socket socket;
    private final Limits limits;
    private final long acceptedAt = System.nanoTime();
    private volatile Phase phase = Phase.HEAD;
    /** When the current phase must be over (System.nanoTime), or {@link #NO_DEADLINE} while the handler works. */
    private volatile long deadline;

    private InputStream in;
    private String method;
    private String path;
    private String query;
    private final Map<String, String> headers = new HashMap<>();
    private int headBytes;
    private long contentLength;
    private boolean bodyRead;
    private boolean answered;

    Exchange(Socket socket, Limits limits) {
        this.socket = socket;
        this.limits = limits;
        this.deadline = acceptedAt + TimeUnit.MILLISECONDS.toNanos(limits.headMillis);
    }

    /**
     * Whether a newer connection may take this one's place: it is still sending its head, or it
     * was answered and only a body nobody reads is left (a client can send a Content-Length and
     * never the body, and would otherwise hold a place until the deadline).
     */
    boolean pushable() {
        Phase p = phase;
        return p == Phase.HEAD || p == Phase.DRAIN;
    }

    boolean overdue(long now) {
        long d = deadline;
        return d != NO_DEADLINE && now - d > 0;
    }

    /** Closes the connection from another thread: a blocked read or write in it ends with an exception. */
    void abort() {
        phase = Phase.DONE;
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing is all that was asked
        }
    }

    /** Reads the request head; the handler then reads the body if it wants it, and answers. */
    void serve(HttpFront.Handler handler) {
        try {
            // a read that waits longer than a whole phase may take ends at once; the front ends a phase that trickles on
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, Math.max(limits.headMillis, limits.bodyMillis)));
            socket.setTcpNoDelay(true);
            in = new BufferedInputStream(socket.getInputStream(), 2048);
            try {
                readHead();
            } catch (BadRequest e) {
                answer(e.status, "text/plain; charset=utf-8", (e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8));
                return;
            }
            phase = Phase.WORK;
            deadline = NO_DEADLINE; // the handler's own waits are bounded (a long poll, a hand-set state)
            handler.handle(this);
            if (!answered) {
                answer(500, "text/plain; charset=utf-8", "the devtools server gave no answer\n".getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException | RuntimeException e) {
            // a client gone, too slow or pushed out: nothing more to say to it
            if (e instanceof RuntimeException) {
                System.getLogger("dev.enginestates").log(System.Logger.Level.WARNING, "devtools request failed", e);
            }
        } finally {
            close();
        }
    }

    private void readHead() throws IOException, BadRequest {
        String line = readLine();
        String[] parts = line.split(" ", -1);
        if (parts.length != 3 || !token(parts[0]) || !VERSION.matcher(parts[2]).matches()) {
            throw new BadRequest(400, "expected a request line such as GET / HTTP/1.1");
        }
        if (parts[2].charAt(5) != '1') {
            throw new BadRequest(505, "this server speaks HTTP/1.1; expected a request line such as GET / HTTP/1.1");
        }
        method = parts[0];
        String target = parts[1];
        if (!target.startsWith("/") || !visibleAscii(target)) {
            throw new BadRequest(400, "expected a path such as / or /api/snapshot");
        }
        int q = target.indexOf('?');
        path = q < 0 ? target : target.substring(0, q);
        query = q < 0 ? null : target.substring(q + 1);
        for (;;) {
            String h = readLine();
            if (h.isEmpty()) {
                break;
            }
            int colon = h.indexOf(':');
            if (colon <= 0 || !token(h.substring(0, colon))) { // also a folded line, which starts with a space or tab
                throw new BadRequest(400, "expected headers as Name: value");
            }
            String name = h.substring(0, colon).toLowerCase(Locale.ROOT);
            String value = fieldValue(h.substring(0, colon), h.substring(colon + 1));
            String before = headers.putIfAbsent(name, value);
            if (before != null) {
                if (SINGLE.contains(name)) {
                    throw new BadRequest(400, "the " + name + " header is given twice");
                }
                headers.put(name, before + ", " + value);
            }
        }
        if (headers.containsKey("transfer-encoding")) {
            throw new BadRequest(411, "a body is sent with a Content-Length");
        }
        String length = headers.get("content-length");
        if (length != null) {
            if (!length.matches("[0-9]{1,18}")) {
                throw new BadRequest(400, "Content-Length: expected a number of bytes");
            }
            contentLength = Long.parseLong(length);
        }
    }

    /** A line of the head ending in CRLF (or LF), counted against {@link Limits#MAX_HEAD_BYTES} for the whole head. */
    private String readLine() throws IOException, BadRequest {
        ByteArrayOutputStream line = new ByteArrayOutputStream(128);
        for (;;) {
            if (++headBytes > Limits.MAX_HEAD_BYTES) {
                throw new BadRequest(431, "the request's line and headers are longer than " + Limits.MAX_HEAD_BYTES + " bytes");
            }
            int b = in.read();
            if (b < 0) {
                throw new IOException("the client closed the connection in the request's head");
            }
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                int end = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, end, StandardCharsets.ISO_8859_1);
            }
            line.write(b);
        }
    }

    /**
     * A header's value without the spaces and tabs around it. A control character in it (a NUL, a
     * CR not followed by LF) is refused, as HTTP asks: it could end the header for one reader and
     * not for another, and no client has a reason to send one.
     */
    private static String fieldValue(String name, String raw) throws BadRequest {
        int start = 0;
        int end = raw.length();
        while (start < end && (raw.charAt(start) == ' ' || raw.charAt(start) == '\t')) {
            start++;
        }
        while (end > start && (raw.charAt(end - 1) == ' ' || raw.charAt(end - 1) == '\t')) {
            end--;
        }
        for (int i = start; i < end; i++) {
            char c = raw.charAt(i);
            if ((c < ' ' && c != '\t') || c == 0x7f) {
                throw new BadRequest(400, "the " + name + " header holds the control character 0x"
                        + String.format(Locale.ROOT, "%02x", (int) c) + "; expected printable text");
            }
        }
        return raw.substring(start, end);
    }

    /** A method's or a header's name as HTTP spells one: letters, digits and a few marks, no space or control character. */
    private static boolean token(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean letterOrDigit = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            if (!letterOrDigit && "!#$%&'*+-.^_`|~".indexOf(c) < 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean visibleAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= ' ' || c >= 0x7f) {
                return false;
            }
        }
        return true;
    }

    String method() {
        return method;
    }

    /** The path as sent, not decoded. */
    String path() {
        return path;
    }

    /** The query as sent, or {@code null}. */
    String query() {
        return query;
    }

    /** A header's value (several of one name joined with {@code ", "}), or {@code null}. */
    String header(String name) {
        return headers.get(name.toLowerCase(Locale.ROOT));
    }

    /** The Content-Length, 0 without one. */
    long contentLength() {
        return contentLength;
    }

    /**
     * The body, read within {@link Limits#bodyMillis}; the caller has checked its length against
     * {@link Limits#MAX_BODY_BYTES}. A client that asked to be told first ({@code Expect: 100-continue})
     * is told now, and only now that the body is wanted.
     */
    byte[] body() throws IOException {
        if (contentLength > Limits.MAX_BODY_BYTES) {
            throw new IllegalStateException("a body of " + contentLength + " bytes is more than the server reads");
        }
        phase = Phase.BODY;
        deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limits.bodyMillis);
        if ("100-continue".equalsIgnoreCase(header("expect"))) {
            OutputStream out = socket.getOutputStream();
            out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }
        byte[] body = in.readNBytes((int) contentLength);
        if (body.length < contentLength) {
            throw new IOException("the client closed the connection after " + body.length + " of " + contentLength + " bytes of body");
        }
        bodyRead = true;
        phase = Phase.WORK;
        deadline = NO_DEADLINE;
        return body;
    }

    /** Answers, with headers given as name, value pairs; the connection then closes. */
    void answer(int status, String type, byte[] body, String... extraHeaders) throws IOException {
        if (answered) {
            throw new IllegalStateException("a request is answered once");
        }
        answered = true;
        phase = Phase.ANSWER;
        deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limits.answerMillis);
        StringBuilder h = new StringBuilder(256);
        h.append("HTTP/1.1 ").append(status).append(' ').append(reason(status)).append("\r\n");
        h.append("Content-Type: ").append(type).append("\r\n");
        h.append("Content-Length: ").append(body.length).append("\r\n");
        h.append("Cache-Control: no-store\r\n");
        h.append("X-Content-Type-Options: nosniff\r\n");
        h.append("Connection: close\r\n");
        for (int i = 0; i + 1 < extraHeaders.length; i += 2) {
            h.append(extraHeaders[i]).append(": ").append(extraHeaders[i + 1]).append("\r\n");
        }
        h.append("\r\n");
        OutputStream out = socket.getOutputStream();
        out.write(h.toString().getBytes(StandardCharsets.ISO_8859_1));
        if (!"HEAD".equals(method)) { // methods are case-sensitive: "head" is another, unknown one
            out.write(body);
        }
        out.flush();
    }

    /**
     * Closes after the answer. A body the client sent and the server did not read (a refused
     * request) is drained first, a bounded amount within the answer's deadline: closing over
     * unread bytes resets the connection, and the client could lose the answer with it.
     */
    private void close() {
        if (phase != Phase.DONE && answered && !bodyRead && contentLength > 0) {
            phase = Phase.DRAIN; // before the client can see the answer end: from then on the place is anyone's
            try {
                socket.shutdownOutput();
                in.skipNBytes(Math.min(contentLength, 4L * Limits.MAX_BODY_BYTES));
            } catch (IOException | RuntimeException ignored) {
                // the client went away or was slow: closing is all that is left
            }
        }
        abort();
    }

    private static String reason(int status) {
        switch (status) {
            case 100: return "Continue";
            case 200: return "OK";
            case 400: return "Bad Request";
            case 403: return "Forbidden";
            case 404: return "Not Found";
            case 405: return "Method Not Allowed";
            case 408: return "Request Timeout";
            case 411: return "Length Required";
            case 413: return "Content Too Large";
            case 415: return "Unsupported Media Type";
            case 422: return "Unprocessable Content";
            case 431: return "Request Header Fields Too Large";
            case 500: return "Internal Server Error";
            case 503: return "Service Unavailable";
            case 505: return "HTTP Version Not Supported";
            default: return "Status";
        }
    }
}

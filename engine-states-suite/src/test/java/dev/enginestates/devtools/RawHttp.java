package dev.enginestates.devtools;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;

/**
 * HTTP over a plain loopback socket, for the tests that send what no well-behaved client sends:
 * half a request, a foreign Host, a body that trickles. Every read has a generous timeout, a
 * guard against hanging, never the thing a test checks.
 */
final class RawHttp {
    static final int GUARD_MILLIS = 20_000;

    private RawHttp() {
    }

    /** A connection that has sent {@code text} and is left open. */
    static Socket open(int port, String text) throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
        s.setSoTimeout(GUARD_MILLIS);
        if (!text.isEmpty()) {
            OutputStream out = s.getOutputStream();
            out.write(text.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        }
        return s;
    }

    /** Sends a whole request and returns the whole answer (the server closes every connection after it). */
    static String exchange(int port, String request) throws IOException {
        try (Socket s = open(port, request)) {
            return readAll(s);
        }
    }

    /** The answer's status line, such as {@code HTTP/1.1 200 OK}. */
    static String status(int port, String request) throws IOException {
        return exchange(port, request).lines().findFirst().orElse("");
    }

    /** {@code GET path} for a host, closing after. */
    static String get(String path, String host) {
        return "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n";
    }

    /** Everything the server sends until it closes; a reset after the answer counts as its close. */
    static String readAll(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        StringBuilder b = new StringBuilder();
        byte[] buf = new byte[8192];
        try {
            for (int n; (n = in.read(buf)) > 0; ) {
                b.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
            }
        } catch (SocketException e) {
            if (b.length() == 0) {
                throw e;
            }
        }
        return b.toString();
    }

    /** Whether the server has closed the connection: a read ends (-1 or a reset) within the guard. */
    static boolean closedByServer(Socket s) {
        try {
            InputStream in = s.getInputStream();
            byte[] buf = new byte[8192];
            int n;
            while ((n = in.read(buf)) > 0) {
                // an answer (such as 408) before the close is fine; the close is what counts
            }
            return n < 0;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }
}

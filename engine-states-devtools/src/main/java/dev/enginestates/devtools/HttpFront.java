package dev.enginestates.devtools;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The devtools server's sockets: accepts connections, gives each one a thread of its own, and
 * keeps at most {@link Limits#connections} open. The JDK's {@code HttpServer} reads a request's
 * head on a thread of its small pool with no time limit of its own (its limits are JVM-wide
 * system properties), so a few clients that send half a request held every thread; here a slow
 * client holds its own connection only, and only until its deadline.
 *
 * <p>When every place is taken, a new connection pushes out the oldest one still sending its
 * head (a browser sends its head at once, so that one is the slowest) or only draining a body
 * after its answer; if none is, the new one is answered 503 and closed at once. A watcher thread closes every connection whose phase has
 * outlived its deadline, which also ends a write to a client that never reads.
 */
final class HttpFront {
    /** Answers one request; runs on the connection's own thread. */
    interface Handler {
        void handle(Exchange x) throws IOException;
    }

    /** How long stop() waits for the server's threads to end. */
    private static final long STOP_SECONDS = 5;
    private static final byte[] BUSY = busy("the devtools page has every connection it takes open; ask again in a second\n");

    private final ServerSocket listener;
    private final Limits limits;
    private final ExecutorService threads;
    /** The open connections, oldest first; guarded by itself. */
    private final LinkedHashSet<Exchange> open = new LinkedHashSet<>();
    private final AtomicInteger refused = new AtomicInteger();
    private final AtomicInteger pushedOut = new AtomicInteger();
    /** Set under {@link #open}'s lock, so that no connection is admitted once stop() has taken the open ones. */
    private volatile boolean stopped;
    private Thread acceptor;
    private Thread watcher;
    /**
     * The pool's threads, for stop() to join: the pool's own termination is signalled while its
     * last threads are still ending. Guarded by itself.
     */
    private final List<Thread> made = new ArrayList<>();

    HttpFront(InetAddress bind, int port, Limits limits) throws IOException {
        this.limits = limits;
        this.listener = new ServerSocket();
        try {
            listener.bind(new InetSocketAddress(bind, port), 50);
        } catch (IOException e) {
            listener.close();
            throw e;
        }
        AtomicInteger n = new AtomicInteger();
        // a thread per open connection; the count of connections, not the pool, is the bound
        this.threads = Executors.newCachedThreadPool(r -> {
            Thread t = daemon(r, "devtools-http-" + n.incrementAndGet());
            synchronized (made) {
                made.removeIf(old -> !old.isAlive()); // the pool ends idle threads: keep only the few that may still run
                made.add(t);
            }
            return t;
        });
    }

    private static byte[] busy(String text) {
        byte[] body = text.getBytes(StandardCharsets.US_ASCII);
        String head = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: " + body.length
                + "\r\nRetry-After: 1\r\nConnection: close\r\n\r\n";
        byte[] all = new byte[head.length() + body.length];
        System.arraycopy(head.getBytes(StandardCharsets.US_ASCII), 0, all, 0, head.length());
        System.arraycopy(body, 0, all, head.length(), body.length);
        return all;
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true); // a page left open never keeps the game's JVM alive
        return t;
    }

    int port() {
        return listener.getLocalPort();
    }

    void start(Handler handler) {
        acceptor = daemon(() -> accept(handler), "devtools-accept");
        watcher = daemon(this::watch, "devtools-watch");
        acceptor.start();
        watcher.start();
    }

    private void accept(Handler handler) {
        while (!stopped) {
            Socket s;
            try {
                s = listener.accept();
            } catch (IOException e) {
                if (!stopped) {
                    System.getLogger("dev.enginestates").log(System.Logger.Level.WARNING, "the devtools server could not accept a connection", e);
                    pause(); // out of file descriptors, say: try again soon rather than spin
                }
                continue;
            }
            admit(s, handler);
        }
    }

    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void admit(Socket s, Handler handler) {
        Exchange x = new Exchange(s, limits);
        Exchange oldest = null;
        boolean full;
        synchronized (open) {
            if (stopped) {
                x.abort(); // accepted as the server stopped: no thread is started for it
                return;
            }
            full = open.size() >= limits.connections;
            if (full) {
                for (Exchange o : open) {
                    if (o.pushable()) {
                        oldest = o;
                        break;
                    }
                }
                if (oldest != null) {
                    open.remove(oldest);
                    full = false;
                }
            }
            if (!full) {
                open.add(x);
            }
        }
        if (oldest != null) {
            pushedOut.incrementAndGet();
            oldest.abort();
        }
        if (full) {
            refused.incrementAndGet();
            refuse(s);
            return;
        }
        try {
            threads.execute(() -> {
                try {
                    x.serve(handler);
                } finally {
                    synchronized (open) {
                        open.remove(x);
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            synchronized (open) {
                open.remove(x);
            }
            x.abort(); // stopping
        }
    }

    /** A few bytes into a new connection's empty send buffer, then closed: never waits on the client. */
    private static void refuse(Socket s) {
        try (s) {
            OutputStream out = s.getOutputStream();
            out.write(BUSY);
            out.flush();
            s.shutdownOutput();
        } catch (IOException ignored) {
            // the client is gone: it was refused either way
        }
    }

    private void watch() {
        long tick = Math.max(5, Math.min(250, Math.min(limits.headMillis, Math.min(limits.bodyMillis, limits.answerMillis)) / 4));
        List<Exchange> late = new ArrayList<>();
        while (!stopped) {
            try {
                Thread.sleep(tick);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            synchronized (open) {
                for (Exchange x : open) {
                    if (x.overdue(now)) {
                        late.add(x);
                    }
                }
                open.removeAll(late);
            }
            for (Exchange x : late) {
                x.abort();
            }
            late.clear();
        }
    }

    /** How many connections are open now (for tests). */
    int openConnections() {
        synchronized (open) {
            return open.size();
        }
    }

    /** How many connections were refused because every place was taken (for tests). */
    int refusedConnections() {
        return refused.get();
    }

    /** How many connections still sending their head, or draining after their answer, were pushed out by a newer one (for tests). */
    int pushedOutConnections() {
        return pushedOut.get();
    }

    /**
     * Stops serving and returns once every thread of the server has ended (within a bound): a
     * game that closes the page is left with no thread of it, nor an open connection.
     */
    void stop() {
        List<Exchange> all;
        synchronized (open) {
            stopped = true;
            all = new ArrayList<>(open);
            open.clear();
        }
        try {
            listener.close();
        } catch (IOException ignored) {
            // stopping either way
        }
        for (Exchange x : all) {
            x.abort();
        }
        threads.shutdownNow(); // a waiting handler (a long poll, a hand-set state) is interrupted
        if (watcher != null) {
            watcher.interrupt();
        }
        // every wait above ends at once; the bound keeps a stop called from a handler's own wait from hanging
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_SECONDS);
        try {
            for (Thread t : new Thread[] {acceptor, watcher}) {
                if (t != null && t != Thread.currentThread()) {
                    t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(until - System.nanoTime())));
                }
            }
            boolean ended = threads.awaitTermination(Math.max(0, until - System.nanoTime()), TimeUnit.NANOSECONDS);
            List<Thread> pool;
            synchronized (made) {
                pool = new ArrayList<>(made);
            }
            for (Thread t : pool) {
                if (ended && t != Thread.currentThread()) {
                    t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(until - System.nanoTime())));
                }
                ended &= !t.isAlive();
            }
            if (!ended) {
                System.getLogger("dev.enginestates").log(System.Logger.Level.WARNING,
                        "the devtools server's threads did not all end within " + STOP_SECONDS + " s of closing the page");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the caller's own interrupt: stopped, without waiting further
        }
    }
}

package dev.enginestates.devtools;

import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.records.Access;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A devtools page for one world, served over HTTP by a small server of its own. One page shows
 * <ul>
 *   <li>the <b>machines</b>: each machine with its states as a tree, the entities that hold it,
 *       and the state the world's own machine is in;</li>
 *   <li>an <b>inspector</b> of the selected entity: every machine on it, with its state, the
 *       seconds its wait has counted and has left, whether it is held, and its context;</li>
 *   <li>the <b>fact lines</b>, one per machine on each entity, such as
 *       {@code "siege: breather, 8 s left"};</li>
 *   <li>a <b>diagram</b> of the selected machine, its states as nested boxes with the active
 *       ones highlighted (and how many entities are in each);</li>
 * </ul>
 * and follows the world live while it steps. With {@link DevtoolsOptions#writable(boolean)} the
 * page may also set a machine's state by hand, as {@code StateRecord.setState} does (its tags
 * move at the start of the next step); a request that names a tag ({@code "guard.patrol.watch"})
 * rather than the state ({@code "patrol.watch"}) is refused. A writable page may also send an
 * event to an entity's machine, and pause, step and resume a game loop that calls {@link #step(double)}.
 *
 * <p><b>Time travel.</b> The page keeps a <b>timeline</b> of the last 10,000 things that
 * happened (transitions with their event, refused events, waits ending, holds put on and taken
 * off, spawns and despawns, each with the world's step count and clock), filterable by entity and
 * machine; it is heard on the world's thread into preallocated arrays, always, and written as JSON
 * only when the page asks. It also keeps the last ticks it took a snapshot of
 * ({@link DevtoolsOptions#history(int, long)}: 300 ticks within 64 MiB by default), each with a
 * checkpoint of the world, so the page can show the room as it was at any of them, diff a
 * record between two, and download a tick's checkpoint that the test kit's
 * {@code WorldFixture.restore} starts a test from. A world that cannot be checkpointed (an entity
 * holding a machine without a key) is still shown; its ticks' downloads say why there is none.
 *
 * <p><b>The loop.</b> A game whose loop calls {@link #step(double)} in place of
 * {@code world.step(dt)} and {@link #publish()} can be paused from a writable page: while paused,
 * {@code step} steps the world once per "step" the page asks for, and publishes every time.
 * Pausing holds only the world's machines; the game's own systems go on unless they ask
 * {@link #isPaused()}.
 *
 * <pre>{@code
 * try (Devtools devtools = Devtools.serve(world, DevtoolsOptions.onPort(8080).writable(true))) {
 *     while (running) {
 *         devtools.step(1 / 60.0);   // world.step unless the page paused it, then publish()
 *     }
 * }
 * }</pre>
 *
 * <p>A read-only page, with the game's own loop:
 *
 * <pre>{@code
 * try (Devtools devtools = Devtools.serve(world, 8080)) {   // http://127.0.0.1:8080/, read-only
 *     while (running) {
 *         world.step(1 / 60.0);
 *         devtools.publish();
 *     }
 * }
 * }</pre>
 *
 * <p><b>Threads.</b> A world belongs to one thread; the server's threads never touch it. The
 * game calls {@link #publish()} on the world's thread after each step: it applies the states
 * the page asked to set and, while a page is watching and at most once per
 * {@link DevtoolsOptions#interval()}, takes a snapshot of the world as JSON text, which the
 * server then hands out. While no page watches, {@code publish()} costs a queue check and a
 * clock read, and takes no snapshot. The server's threads are daemons, so a page left open
 * never keeps the game's JVM alive; {@link #close()} stops serving.
 *
 * <p><b>Names.</b> An entity with an {@link EntityKey} is named by its key ({@code "world"}
 * for the world's own entity); one without is named by the machine it was first seen holding
 * and a number given in the order the page first saw it, such as {@code "guard#3"}, kept while
 * it lives; a number that another entity's key spells is skipped, so two entities never share a name.
 *
 * <p><b>Fact lines</b> read {@code <machine id>: <active leaf>}, then {@code ", done"} once the
 * machine is done, {@code ", held"} while it is held, and {@code ", N s left"} while a wait (a
 * polled machine's {@code after}) counts, its seconds rounded up to the tenth: {@code "siege:
 * breather, 8 s left"}, {@code "guard: patrol.watch, held, 2.8 s left"} (a held wait counts no
 * seconds until the hold comes off). The leaves of a parallel state are joined by
 * {@code " + "}: {@code "weapon: armed.trigger.ready + armed.magazine.full"}.
 *
 * <p><b>Safety.</b> By default the page is read-only and listens on the loopback address only.
 * On any address it answers only requests for {@code localhost}, {@code 127.0.0.1} or
 * {@code [::1]} (in any spelling of the IPv6 loopback), for the address it is bound to, and for
 * the names {@link DevtoolsOptions#allowHosts(String...)} lists, each with its own port: a
 * {@code Host} that is not exactly one of these is refused (no DNS rebinding). A request a browser
 * sends with an {@code Origin} must come from one of these too, and a hand-set state must come as
 * JSON, so another site open in the same browser can neither read the page nor send one.
 *
 * <p><b>Bounds.</b> The server keeps at most 64 connections open, each on a thread of its own; a
 * request's line and headers must arrive within 5 s (8 kB at most), its body within 5 s more
 * (64 kB at most), and the client must take the answer within 10 s, or the connection is closed.
 * When every place is taken, a new connection pushes out the oldest one still sending its
 * headers or only waiting, after its answer, for a body it announced, or is answered 503. At most 16 snapshot requests wait for a newer snapshot at once and
 * at most 8 hand-set states and sent events together wait for {@link #publish()}, and at most 64
 * steps asked from the page wait for {@link #step(double)}; one more is answered 503 at once, so
 * slow, waiting or idle clients never keep the page from loading.
 *
 * <p><b>Jackson.</b> The page's snapshots are written with Jackson
 * ({@code com.fasterxml.jackson.core:jackson-databind}), which engine-states-devtools brings. On
 * the module path, a context's fields are shown when the game's module opens its package to
 * Jackson ({@code opens com.example.game to com.fasterxml.jackson.databind;}); otherwise the page
 * shows the context's {@code toString()}.
 *
 * <p>The snapshot's format is {@code "engine-states/devtools"}, version 1: see {@link #snapshot()}.
 */
public final class Devtools implements AutoCloseable {
    private static final String MAPPER = "com.fasterxml.jackson.databind.ObjectMapper";
    /** Whether the timeline listens to the world: from the first {@link #publish()} a page watched. */
    private boolean timelineOn;

    /** A page that asked within this long is watching: publish keeps taking snapshots for it. */
    private static final long WATCHING_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** The most steps the page may ask for ahead of the game's loop; one more is answered 503. */
    static final int MAX_STEPS_ASKED = 64;

    private final StateWorld world;
    private final DevtoolsOptions options;
    private final EntityNames names = new EntityNames();
    private final Snapshots snapshots;
    private final Server server;
    private final ConcurrentLinkedQueue<PageWrite> requests = new ConcurrentLinkedQueue<>();
    private final Timeline timeline;
    private final History history;
    private final TickSource source = new JsonCheckpoints();

    /** Whether the page paused the game's loop ({@link #step(double)}); set by a server thread. */
    private volatile boolean paused;
    /** Steps the page asked for while paused, not yet taken; at most {@link #MAX_STEPS_ASKED}. */
    private final AtomicInteger stepsAsked = new AtomicInteger();
    /** Whether the game's loop calls {@link #step(double)}, so the page can pause it. */
    private volatile boolean looping;

    // what the world's thread published, for the server's threads: guarded by this
    private String latest;
    private long seq;
    private boolean closed;

    /** When a page last asked for a snapshot (System.nanoTime), or 0 before any did. */
    private volatile long askedAt;
    /** When the last snapshot was taken; the world's thread only. */
    private long builtAt;
    /** The options' interval in nanoseconds; one too long for a long (ChronoUnit.FOREVER) is as good as never. */
    private final long intervalNanos;

    private Devtools(StateWorld world, DevtoolsOptions options, Limits limits) {
        this.world = world;
        this.options = options;
        this.intervalNanos = options.interval().compareTo(Duration.ofNanos(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE
                : options.interval().toNanos();
        this.snapshots = new Snapshots(names);
        this.timeline = new Timeline(world, Timeline.CAPACITY);
        this.history = new History(options.historyTicks(), options.historyBytes());
        byte[] page;
        try (InputStream in = Devtools.class.getResourceAsStream("devtools.html")) {
            if (in == null) {
                throw new IllegalStateException("the devtools page (dev/enginestates/devtools/devtools.html) is missing from the engine-states-devtools jar");
            }
            page = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("the devtools page could not be read from the engine-states-devtools jar", e);
        }
        build();
        try {
            this.server = new Server(this, options, snapshots.json(), page, limits);
        } catch (IOException e) {
            throw new UncheckedIOException("the devtools page for " + world + " could not listen on " + options.host() + ":"
                    + options.port() + " (" + e.getMessage() + "); choose another port, or 0 for any free one", e);
        }
    }

    /**
     * Serves a read-only devtools page for a world on a port of the loopback address. Call it on
     * the world's thread.
     *
     * @param world the world to show
     * @param port  the TCP port, or 0 for any free port ({@link #address()} tells which)
     * @return the running page; close it to stop serving
     * @throws IllegalArgumentException if the port is out of range
     * @throws UncheckedIOException     if the port cannot be listened on
     * @throws IllegalStateException    if Jackson is missing, or the calling thread does not own the world
     */
    public static Devtools serve(StateWorld world, int port) {
        return serve(world, DevtoolsOptions.onPort(port));
    }

    /**
     * Serves a devtools page for a world as the options say. Call it on the world's thread: it
     * takes the first snapshot at once.
     *
     * @param world   the world to show
     * @param options the port, the address, whether the page may set states, the snapshot interval
     * @return the running page; close it to stop serving
     * @throws UncheckedIOException  if the address and port cannot be listened on
     * @throws IllegalStateException if Jackson is missing, or the calling thread does not own the world
     */
    public static Devtools serve(StateWorld world, DevtoolsOptions options) {
        return serve(world, options, Limits.DEFAULT);
    }

    /** As {@link #serve(StateWorld, DevtoolsOptions)}, with the server's bounds given (tests make them small). */
    static Devtools serve(StateWorld world, DevtoolsOptions options, Limits limits) {
        Objects.requireNonNull(world, "world");
        Objects.requireNonNull(options, "options");
        requireJackson();
        world.entity(EntityKey.WORLD); // fails fast, changing nothing, on a thread that does not own the world
        return new Devtools(world, options, limits);
    }

    private static void requireJackson() {
        try {
            Class.forName(MAPPER, false, Devtools.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalStateException("the devtools page needs Jackson, which engine-states-devtools depends on, but "
                    + MAPPER + " was not found: the build excludes com.fasterxml.jackson.core:jackson-databind (2.x); keep it");
        }
    }

    /**
     * Where the page is, such as {@code http://127.0.0.1:8080/}.
     *
     * @return the page's address, with the port actually listened on
     */
    public URI address() {
        return server.address();
    }

    /**
     * The options the page was served with.
     *
     * @return the options
     */
    public DevtoolsOptions options() {
        return options;
    }

    /**
     * On the world's thread, after a step: applies the states the page asked to set (each
     * answered to the page, set or refused), then takes a snapshot if a page is watching and the
     * last one is at least {@link DevtoolsOptions#interval()} old, or if a state was set. Takes
     * no snapshot while no page watches, nor once the page is closed.
     *
     * @return {@code true} if a snapshot was taken
     * @throws IllegalStateException if the calling thread does not own the world, or if it is called
     *         from the game's code inside one of the world's calls, such as a listener during a send
     *         (nothing changes)
     */
    public boolean publish() {
        // the world's thread only, and never from the game's code inside a send or a step, where a
        // record may be half-way through a move: fails before anything is applied
        Access.checkOutsideCalls(world, "a devtools publish()");
        return publish(false);
    }

    /**
     * The game's loop, on the world's thread, in place of {@code world.step(dt)} and
     * {@link #publish()}: steps the world by {@code dt} unless the page paused it; while it is
     * paused, steps it once for each step the page asked for (one per call); then publishes. A
     * tick stepped from the page is always shown and kept, so the page can go back to it.
     * Pausing stops this call's step only: the game's other systems (physics, animation, input,
     * its own timers) go on unless the game asks {@link #isPaused()} and holds them too.
     *
     * <pre>{@code
     * while (running) {
     *     physics.update(dt);      // the game's own systems run on
     *     devtools.step(dt);       // world.step(dt) unless the page paused it, then publish()
     * }
     * }</pre>
     *
     * @param dt the step's seconds, as {@link StateWorld#step(double)} takes them
     * @return {@code true} if the world was stepped
     * @throws IllegalStateException as {@link #publish()} does, or as the world's step does (nothing is stepped then)
     */
    public boolean step(double dt) {
        Access.checkOutsideCalls(world, "a devtools step(dt)");
        looping = true;
        boolean fromPage = false;
        boolean step = !paused;
        if (!step) {
            fromPage = stepsAsked.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0;
            step = fromPage;
        }
        if (step) {
            world.step(dt);
        }
        publish(fromPage);
        return step;
    }

    /**
     * Whether the page has paused the game's loop: {@link #step(double)} then steps the world only
     * when the page asks. A game may read it to hold its own systems too.
     *
     * @return {@code true} while the page holds the loop paused
     */
    public boolean isPaused() {
        return paused;
    }

    private boolean publish(boolean force) {
        synchronized (this) {
            if (closed) {
                return false; // no page can fetch a snapshot any more, and close() refused every queued state
            }
        }
        long now = System.nanoTime();
        long asked = askedAt;
        boolean watching = asked != 0 && now - asked < WATCHING_NANOS;
        if (!timelineOn && (watching || force || !requests.isEmpty())) {
            // from the first page on, the timeline hears the machines as any listener does, and the
            // inputs beside the game's own recorder: a world no page has looked at pays nothing for it
            timelineOn = true;
            world.addListener(timeline);
            world.watchInputs(timeline);
        }
        boolean set = applyRequests();
        if (set || force || (watching && now - builtAt >= intervalNanos)) {
            build();
            return true;
        }
        return false;
    }

    /**
     * On the world's thread: takes a snapshot now, serves it, and returns it. The JSON object
     * has {@code format} ({@code "engine-states/devtools"}), {@code version} (1), {@code snapshot}
     * (its number, counting up), {@code world} (the world's name), {@code time} and {@code steps}
     * (the world's clock), {@code writable}, {@code loop} (whether the game's loop calls
     * {@link #step(double)}) and {@code paused}; {@code machines} (one per id: after a
     * {@link StateWorld#swap swap}, the definition holding the records), each with {@code id},
     * {@code version} and {@code fingerprint} (the definition's, as checkpoints name it), {@code style} ({@code "xstate"}, {@code "polled"} or {@code "builder"}), {@code tags},
     * {@code events} (the event types its states name),
     * {@code root} (the state tree: {@code key}, {@code path}, {@code type}, {@code initial},
     * {@code transitions} with {@code label} and {@code targets}, {@code children}),
     * {@code states} (the paths a state may be set to), {@code entities} (the names of the
     * entities that hold it), {@code counts} (how many of them are in each active state) and
     * {@code worldState} (the world's own record: {@code value}, {@code active}, {@code fact}; or
     * {@code null}); {@code entities}, each with {@code name}, {@code world} and {@code machines}
     * (each record's {@code machine}, {@code value} as XState writes it, {@code state},
     * {@code active}, {@code leaves}, {@code waiting}, {@code waited}, {@code left}, {@code held},
     * {@code done}, {@code time}, {@code context}, {@code fact}, {@code parent} (for a child
     * machine, its parent's {@code entity} and {@code machine} and its own {@code id}; otherwise
     * {@code null}) and {@code children} (the child machines it runs, in the order they started,
     * each with {@code id}, {@code entity}, {@code machine}, {@code state} and {@code fact})); and {@code facts}, each with
     * {@code entity}, {@code machine} and {@code text}. Seconds are rounded to the millisecond.
     *
     * @return the snapshot, as JSON text
     * @throws IllegalStateException if the calling thread does not own the world
     */
    public String snapshot() {
        world.entity(EntityKey.WORLD);
        return build();
    }

    private String build() {
        long next;
        synchronized (this) {
            next = seq + 1;
        }
        String text = snapshots.build(world, next, options.isWritable(), looping, paused);
        builtAt = System.nanoTime();
        if (history.enabled()) {
            String checkpoint = null;
            String why = null;
            try {
                checkpoint = source.checkpoint(world);
            } catch (RuntimeException | Error e) {
                if (e instanceof VirtualMachineError vm) {
                    throw vm;
                }
                // kept without one, and the page says why: a context's getter is the game's code, and whatever
                // it throws (an AssertionError too) must not reach the game's loop, as with the snapshot
                why = e.getMessage() != null ? e.getMessage() : e.toString();
            }
            history.keep(world.steps(), world.time(), text, checkpoint, why);
        }
        synchronized (this) {
            seq = next;
            latest = text;
            notifyAll();
        }
        return text;
    }

    /** Applies the queued hand-set states on the world's thread; true if one was set. */
    private boolean applyRequests() {
        boolean set = false;
        for (PageWrite r; (r = requests.poll()) != null; ) {
            if (!r.claim()) {
                continue; // the page gave up waiting: never applied
            }
            PageWrite.Outcome o;
            try {
                o = r.apply(world, names, options.isWritable());
            } catch (RuntimeException e) {
                o = PageWrite.Outcome.refused(500, r.undone() + ": it failed with " + e);
            }
            if (o.ok()) {
                set = true;
                o = o.answered(snapshots.setAnswer(r.entity, o.record, o.taken));
            }
            r.outcome.complete(o);
        }
        return set;
    }

    /** A server thread: the latest snapshot if it is newer than {@code after}, or {@code null} (a page is watching either way). */
    String snapshotAfter(long after) {
        askedAt = System.nanoTime() | 1; // never 0, which means "never asked"
        synchronized (this) {
            return seq > after || closed ? latest : null;
        }
    }

    /** The server (for tests that count its connections and waiting requests). */
    Server server() {
        return server;
    }

    /** A server thread: the latest snapshot, waiting up to {@code millis} for one newer than {@code after}. */
    String awaitSnapshot(long after, long millis) throws InterruptedException {
        askedAt = System.nanoTime() | 1; // never 0, which means "never asked"
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        synchronized (this) {
            while (seq <= after && !closed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            return latest;
        }
    }

    /** A server thread: queues a hand-set state and waits up to {@code millis} for the world's thread to apply or refuse it. */
    PageWrite.Outcome handSet(PageWrite request, long millis) throws InterruptedException {
        if (!options.isWritable()) {
            return request.readOnly(); // refused at once: nothing for the world's thread to do
        }
        synchronized (this) {
            if (closed) {
                return PageWrite.Outcome.refused(503, "the devtools page is closed; nothing was changed");
            }
            requests.add(request); // under the lock: close() drains the queue after it sets closed, so nothing queued is left behind
        }
        try {
            return request.outcome.get(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            if (request.claim()) {
                throw e; // given up (the page is told nothing changed): the world's thread now skips it
            }
            Thread.currentThread().interrupt();
            return request.outcome.join(); // the world's thread has it: its answer comes at once
        } catch (TimeoutException e) {
            if (request.claim()) {
                return PageWrite.Outcome.refused(503, "the game did not call Devtools.publish() within "
                        + (millis >= 1000 ? millis / 1000 + " s" : millis + " ms") + ", so " + request.undone() + "; nothing was changed");
            }
            return request.outcome.join(); // the world's thread has it: its answer comes at once (an interrupt must not lose it)
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /** The timeline, for the server's threads. */
    Timeline timeline() {
        return timeline;
    }

    /** The kept ticks, for the server's threads. */
    History history() {
        return history;
    }

    /**
     * A server thread: the page pauses, resumes or steps the game's loop. Answers the loop's
     * state, or {@code null} when the page already asked for {@link #MAX_STEPS_ASKED} steps the
     * loop has not taken.
     */
    String control(String action) {
        switch (action) {
            case "pause" -> paused = true;
            case "resume" -> {
                paused = false;
                stepsAsked.set(0);
            }
            case "step" -> {
                paused = true;
                if (stepsAsked.getAndUpdate(n -> n < MAX_STEPS_ASKED ? n + 1 : n) >= MAX_STEPS_ASKED) {
                    return null;
                }
            }
            default -> throw new IllegalArgumentException(action);
        }
        askedAt = System.nanoTime() | 1; // a page that controls the loop is watching it
        return "{\"ok\":true,\"paused\":" + paused + ",\"stepsAsked\":" + stepsAsked.get() + ",\"loop\":" + looping + "}";
    }

    /** How many hand-set states wait for the world's thread (for tests). */
    int pendingRequests() {
        return requests.size();
    }

    /**
     * Stops serving: the page's open requests are answered or dropped, and queued states are never
     * set. When it returns, the server's threads have ended and its connections are closed.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            notifyAll();
        }
        server.stop();
        try {
            if (timelineOn) {
                world.removeListener(timeline);
                world.unwatchInputs(timeline);
            }
        } catch (RuntimeException e) {
            // closed off the world's thread, or after the world: the timeline stays attached, bounded, and unread
            System.getLogger("dev.enginestates").log(System.Logger.Level.DEBUG, "the devtools timeline stays on " + world + ": " + e.getMessage());
        }
        for (PageWrite r; (r = requests.poll()) != null; ) {
            if (r.claim()) {
                r.outcome.complete(PageWrite.Outcome.refused(503, "the devtools page closed before the game published; nothing was changed"));
            }
        }
    }

    @Override
    public String toString() {
        return "Devtools(" + address() + " for " + world + (options.isWritable() ? ", writable" : ", read-only") + ")";
    }
}

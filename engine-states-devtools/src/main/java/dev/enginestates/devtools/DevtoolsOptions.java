package dev.enginestates.devtools;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How a devtools page is served: the port, the address it listens on, whether the page may set
 * states by hand, and how often at most a snapshot of the world is taken.
 *
 * <p>The defaults are the safe ones: read-only, and listening on the loopback address
 * ({@code 127.0.0.1}) only, so nothing off the machine reaches the page. Each method returns a
 * new options object; an options object is immutable and may be shared.
 *
 * <pre>{@code
 * Devtools devtools = Devtools.serve(world, DevtoolsOptions.onPort(8080).writable(true));
 * }</pre>
 */
public final class DevtoolsOptions {
    /** The loopback address, the default: only programs on this machine reach the page. */
    public static final String LOOPBACK = "127.0.0.1";
    /** The default least time between two snapshots: ten a second. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(100);
    /** The default number of ticks the page can go back to: 300 (30 s of snapshots at the default interval). */
    public static final int DEFAULT_HISTORY_TICKS = 300;
    /** The default budget of the kept ticks' text (their snapshots and checkpoints): 64 MiB. */
    public static final long DEFAULT_HISTORY_BYTES = 64L << 20;

    private final int port;
    private final String host;
    private final boolean writable;
    private final Duration interval;
    private final List<String> allowedHosts;
    private final int historyTicks;
    private final long historyBytes;

    private DevtoolsOptions(int port, String host, boolean writable, Duration interval, List<String> allowedHosts,
                            int historyTicks, long historyBytes) {
        this.historyTicks = historyTicks;
        this.historyBytes = historyBytes;
        this.port = port;
        this.host = host;
        this.writable = writable;
        this.interval = interval;
        this.allowedHosts = allowedHosts;
    }

    /**
     * Read-only options on a port, listening on the loopback address.
     *
     * @param port the TCP port, from 0 to 65535; 0 takes any free port ({@link Devtools#address()} tells which)
     * @return the options
     * @throws IllegalArgumentException if the port is out of range
     */
    public static DevtoolsOptions onPort(int port) {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("a devtools port is from 0 (any free port) to 65535; got " + port);
        }
        return new DevtoolsOptions(port, LOOPBACK, false, DEFAULT_INTERVAL, List.of(), DEFAULT_HISTORY_TICKS, DEFAULT_HISTORY_BYTES);
    }

    /**
     * Whether the page may set a machine's state by hand. Off by default: a page that may write
     * can move any machine of the room, so turn it on for a development server only.
     *
     * @param writable {@code true} to let the page set states
     * @return new options, the same but for this
     */
    public DevtoolsOptions writable(boolean writable) {
        return new DevtoolsOptions(port, host, writable, interval, allowedHosts, historyTicks, historyBytes);
    }

    /**
     * The address to listen on, such as {@code "0.0.0.0"} to be reached from other machines.
     * The default is {@link #LOOPBACK}. Only do this on a trusted network: the page has no login.
     * Whatever the address, the page answers only requests for the loopback names, for this
     * address itself and for the names {@link #allowHosts(String...)} lists: a browser on
     * another machine reaches it by one of those.
     *
     * @param host a host name or IP address of this machine; not {@code null} or blank
     * @return new options, the same but for this
     * @throws IllegalArgumentException if the host is blank
     */
    public DevtoolsOptions bindTo(String host) {
        Objects.requireNonNull(host, "host");
        if (host.isBlank()) {
            throw new IllegalArgumentException("a devtools host is a host name or an IP address, such as \"127.0.0.1\"; got a blank");
        }
        return new DevtoolsOptions(port, host.strip(), writable, interval, allowedHosts, historyTicks, historyBytes);
    }

    /**
     * The host names (or IP addresses) the page answers to besides the loopback names
     * ({@code localhost}, {@code 127.0.0.1}, {@code [::1]}) and the address it is bound to: the
     * names other machines reach it by once it listens beyond the loopback, such as
     * {@code bindTo("0.0.0.0").allowHosts("game-server.lan", "192.168.1.20")}. A request for any
     * other name is refused with 403, which keeps DNS-rebinding attacks out: a site that points
     * its own name at this machine cannot read the page or set a state. Each call replaces the
     * list.
     *
     * @param hosts host names, IPv4 addresses, or IPv6 addresses (with or without brackets), without a port;
     *              compared without case, never looked up
     * @return new options, the same but for this
     * @throws IllegalArgumentException if a host is not a host name or an IP address (such as one with a port,
     *                                  a path, user info or a wildcard)
     */
    public DevtoolsOptions allowHosts(String... hosts) {
        Objects.requireNonNull(hosts, "hosts");
        List<String> names = new ArrayList<>();
        for (String h : hosts) {
            Objects.requireNonNull(h, "a host in hosts");
            String n = AllowedHosts.normalize(h.strip());
            if (n == null) {
                throw new IllegalArgumentException("a devtools host is a host name such as \"game-server.lan\" or an IP address such"
                        + " as \"192.168.1.20\", without a port, path or wildcard; got \"" + h + "\"");
            }
            names.add(n);
        }
        return new DevtoolsOptions(port, host, writable, interval, List.copyOf(names), historyTicks, historyBytes);
    }

    /**
     * The host names the page answers to besides the loopback names and its address.
     *
     * @return the names {@link #allowHosts(String...)} listed, lower case (IPv6 addresses bracketed and written out);
     *         empty by default
     */
    public List<String> allowedHosts() {
        return allowedHosts;
    }

    /**
     * The least wall-clock time between two snapshots: {@link Devtools#publish()} takes one at
     * most this often while a page is watching (a snapshot of a large room costs the game thread
     * a little time). The default is {@link #DEFAULT_INTERVAL}.
     *
     * @param interval zero or more; zero takes a snapshot at every publish while a page watches
     * @return new options, the same but for this
     * @throws IllegalArgumentException if the interval is negative
     */
    public DevtoolsOptions interval(Duration interval) {
        Objects.requireNonNull(interval, "interval");
        if (interval.isNegative()) {
            throw new IllegalArgumentException("a devtools snapshot interval is zero or more; got " + interval);
        }
        return new DevtoolsOptions(port, host, writable, interval, allowedHosts, historyTicks, historyBytes);
    }

    /**
     * How far back the page can go: it keeps the last {@code ticks} ticks it took a snapshot of
     * (at most once per {@link #interval()} while a page watches, and every tick stepped from the
     * page), each with its snapshot and a checkpoint of the world, within {@code bytes} of text
     * together; the oldest go first. The defaults are {@link #DEFAULT_HISTORY_TICKS} ticks and
     * {@link #DEFAULT_HISTORY_BYTES} bytes. Zero ticks keeps none, and then no checkpoint is taken.
     *
     * @param ticks how many ticks to keep, 0 to 100,000
     * @param bytes the budget of their text in bytes (a character counts two), 1 or more; the newest tick is kept whatever its size
     * @return new options, the same but for this
     * @throws IllegalArgumentException if a number is out of range
     */
    public DevtoolsOptions history(int ticks, long bytes) {
        if (ticks < 0 || ticks > 100_000 || bytes < 1) {
            throw new IllegalArgumentException("a devtools history keeps 0 to 100000 ticks within a budget of 1 byte or more; got "
                    + ticks + " ticks and " + bytes + " bytes");
        }
        return new DevtoolsOptions(port, host, writable, interval, allowedHosts, ticks, bytes);
    }

    /**
     * How many ticks the page can go back to.
     *
     * @return the count {@link #history(int, long)} set, {@link #DEFAULT_HISTORY_TICKS} by default
     */
    public int historyTicks() {
        return historyTicks;
    }

    /**
     * The budget of the kept ticks' text.
     *
     * @return the bytes {@link #history(int, long)} set, {@link #DEFAULT_HISTORY_BYTES} by default
     */
    public long historyBytes() {
        return historyBytes;
    }

    /**
     * The port.
     *
     * @return the TCP port, 0 for any free port
     */
    public int port() {
        return port;
    }

    /**
     * The address the page listens on.
     *
     * @return a host name or IP address, {@link #LOOPBACK} unless {@link #bindTo} set another
     */
    public String host() {
        return host;
    }

    /**
     * Whether the page may set states by hand.
     *
     * @return {@code true} only if {@link #writable(boolean)} turned it on
     */
    public boolean isWritable() {
        return writable;
    }

    /**
     * The least time between two snapshots.
     *
     * @return the interval, zero or more
     */
    public Duration interval() {
        return interval;
    }

    @Override
    public String toString() {
        return "DevtoolsOptions(" + host + ":" + port + (writable ? ", writable" : ", read-only") + ", every " + interval.toMillis() + " ms at most"
                + (allowedHosts.isEmpty() ? "" : ", also for " + allowedHosts) + ", " + historyTicks + " ticks kept)";
    }
}

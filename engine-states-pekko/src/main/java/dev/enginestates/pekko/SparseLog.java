package dev.enginestates.pekko;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A warning that may repeat many times a second (a check of who a player is while the game's
 * service is down, a room's game code that throws every step): the log gets the first, then at
 * most one each {@link #EVERY}, saying how many it left out, so it cannot fill a server's disk.
 */
final class SparseLog {
    /** The least time between two logged warnings. */
    static final Duration EVERY = Duration.ofSeconds(10);
    /** The rooms' game code that failed, when the game's listener does not take it. */
    static final SparseLog ROOM_FAILURES = new SparseLog(System.getLogger(Room.class.getName()), System::nanoTime);

    private final System.Logger log;
    private final LongSupplier nanos;
    private final AtomicLong nextNanos;
    private final AtomicLong leftOut = new AtomicLong();

    SparseLog(System.Logger log, LongSupplier nanos) {
        this.log = log;
        this.nanos = nanos;
        this.nextNanos = new AtomicLong(nanos.getAsLong());
    }

    /** Logs the warning unless one was logged less than {@link #EVERY} ago; then it only counts it. */
    void warn(String message, Throwable error) {
        long now = nanos.getAsLong();
        long next = nextNanos.get();
        if (now - next >= 0 && nextNanos.compareAndSet(next, now + EVERY.toNanos())) {
            long skipped = leftOut.getAndSet(0);
            log.log(System.Logger.Level.WARNING, message + (skipped == 0 ? ""
                    : " (" + skipped + " more since the last logged, not logged)"), error);
        } else {
            leftOut.incrementAndGet();
        }
    }
}

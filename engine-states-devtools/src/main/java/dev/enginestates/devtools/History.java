package dev.enginestates.devtools;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The ticks the page can go back to: for each, the snapshot the page showed and the checkpoint
 * of the world then (or why there is none). At most {@code ticks} of them and {@code bytes} of
 * text together; the oldest go first. Added on the world's thread, read on the server's, under
 * this object's lock; the texts are immutable, so a reader hands them out after the lock.
 */
final class History {
    /** One kept tick. */
    record Kept(long tick, double time, String snapshot, String checkpoint, String noCheckpoint, long bytes) {
    }

    private final int ticks;
    private final long bytes;
    private final ArrayDeque<Kept> kept = new ArrayDeque<>();
    private long held;

    History(int ticks, long bytes) {
        this.ticks = ticks;
        this.bytes = bytes;
    }

    /** Whether anything is kept at all (a history of 0 ticks takes no checkpoints). */
    boolean enabled() {
        return ticks > 0;
    }

    /** Keeps a tick, replacing the one kept for the same tick (a state set by hand between two steps). */
    void keep(long tick, double time, String snapshot, String checkpoint, String noCheckpoint) {
        long size = 2L * (snapshot.length() + (checkpoint == null ? 0 : checkpoint.length())); // chars are two bytes
        Kept k = new Kept(tick, time, snapshot, checkpoint, noCheckpoint, size);
        synchronized (this) {
            Kept last = kept.peekLast();
            if (last != null && last.tick() >= tick) {
                // the same tick again, or the clock went back (a restore): what came after it is no longer the past
                while (!kept.isEmpty() && kept.peekLast().tick() >= tick) {
                    held -= kept.pollLast().bytes();
                }
            }
            kept.addLast(k);
            held += size;
            while (kept.size() > ticks || (held > bytes && kept.size() > 1)) {
                held -= kept.pollFirst().bytes();
            }
        }
    }

    synchronized Kept at(long tick) {
        for (Kept k : kept) {
            if (k.tick() == tick) {
                return k;
            }
        }
        return null;
    }

    synchronized List<Kept> all() {
        return new ArrayList<>(kept);
    }

    /** The kept ticks as a phrase for a refusal, such as "ticks 60 to 240 (12 kept)". */
    synchronized String describe() {
        if (kept.isEmpty()) {
            return "no tick is kept yet";
        }
        return "kept ticks are " + kept.peekFirst().tick() + " to " + kept.peekLast().tick() + " (" + kept.size() + " of them)";
    }

    synchronized long heldBytes() {
        return held;
    }

    synchronized int size() {
        return kept.size();
    }
}

package dev.enginestates.records;

/**
 * The arithmetic of a record's random numbers ({@link MachineRecord#nextLong()}): SplitMix64, a
 * state of one long that steps by a fixed odd constant and is scrambled into each draw. One long
 * because a record keeps it (and every checkpoint, frame and snapshot carries it): 8 bytes, one
 * field to copy, and streams that two seeds a bit apart still make unrelated, which is what
 * seeding one stream per entity and machine needs. State 0 means "not seeded yet": a stream
 * steps over it (once in 2^64 draws), so one long says both.
 */
public final class RandomStreams {
    /** The step of the state: 2^64 over the golden ratio, odd, so the state visits every long. */
    static final long STEP = 0x9E3779B97F4A7C15L;

    private RandomStreams() {
    }

    /** A state scrambled into 64 bits that look unrelated to it (SplitMix64's finalizer). */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The state after {@code state}, never 0 (which says "not seeded"). */
    static long next(long state) {
        long s = state + STEP;
        return s == 0 ? STEP : s;
    }

    /**
     * The first state of the stream of one machine on one entity: the same three values give the
     * same stream in every run, on every JVM (strings are hashed here, not by {@code hashCode}).
     *
     * @param seed      the world's seed (a plain machine's own)
     * @param machineId the machine's id
     * @param identity  the entity's key, or another name for it that a run reproduces; {@code ""} for none
     * @return a state, never 0
     */
    public static long seeded(long seed, String machineId, String identity) {
        long h = mix(seed ^ hash(machineId));
        h = mix(h + STEP ^ hash(identity));
        return h == 0 ? STEP : h;
    }

    /**
     * A stream's state mixed with a seed: the stream goes on unrelated to where it was and to
     * another state mixed with the same seed.
     *
     * @param state a stream's state, not 0
     * @param seed  a state from {@link #seeded}
     * @return a state, never 0
     */
    public static long joined(long state, long seed) {
        long h = mix(mix(state) ^ seed);
        return h == 0 ? STEP : h;
    }

    /** FNV-1a over the string's chars: fixed by its text alone. */
    private static long hash(String text) {
        long h = 0xCBF29CE484222325L;
        for (int i = 0; i < text.length(); i++) {
            h = (h ^ text.charAt(i)) * 0x100000001B3L;
        }
        return h;
    }
}

package dev.enginestates.io;

import java.util.ArrayList;
import java.util.List;

/**
 * The problems a restore or a replay finds, at most {@link #MAX}: past that the checks stop. A
 * text of a few megabytes can hold millions of faults (an array of a million numbers where state
 * paths belong), and a line for each, every one repeating its path, would cost far more than the
 * text itself, to tell the reader nothing the first hundred do not.
 */
final class Problems extends ArrayList<String> {
    private static final long serialVersionUID = 1L;
    /** The most problems a refusal lists; the checks stop at the next one. */
    static final int MAX = 100;
    /**
     * How many problems of one kind that a game makes for every entity at once (keys the world lacks, entities
     * without a key) a refusal lists, each on its line; the rest are counted in one line.
     */
    static final int LISTED = 10;

    @Override
    public boolean add(String problem) {
        if (size() == MAX) {
            throw new Full(this);
        }
        return super.add(problem);
    }

    @Override
    public boolean addAll(java.util.Collection<? extends String> more) {
        more.forEach(this::add); // one by one, so the list never holds more than MAX
        return !more.isEmpty();
    }

    /**
     * The refusal for {@code full}'s problems: {@code what} says what cannot be done, and that the
     * checks stopped when they did.
     */
    static CheckpointException refusal(String what, Full full) {
        return new CheckpointException(what + " (the checks stopped at the first " + MAX + " problems)", full.problems);
    }

    /** Thrown by {@link #add} once the list is full; the entry point turns it into a {@link CheckpointException}. */
    static final class Full extends RuntimeException {
        private static final long serialVersionUID = 1L;
        /** The problems found before the checks stopped. */
        final transient List<String> problems;

        Full(List<String> problems) {
            super("more than " + MAX + " problems", null, false, false); // control flow only: no stack trace to fill in
            this.problems = problems;
        }
    }

    /** The line that counts the entities past the first {@link #LISTED} that hold a machine but have no EntityKey. */
    static String moreUnkeyed(int unkeyed) {
        return "… and " + (unkeyed - LISTED) + " more entities hold a machine but have no EntityKey (" + unkeyed
                + " in all); expected the game to spawn each with EntityKey.of(...)";
    }
}

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
}

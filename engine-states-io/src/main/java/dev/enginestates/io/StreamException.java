package dev.enginestates.io;

import dev.enginestates.declare.MachineException;

import java.util.List;

/**
 * A stream frame that cannot be made or applied: on the room, an entity holding a streamed
 * machine without an {@code EntityKey}; on a replica, malformed JSON, another format or
 * version, a frame for another recipient, a frame out of order (a gap or a repeat in the
 * sequence), a frame of an older epoch than the replica follows (a late frame from a room's
 * previous home), an unknown machine, state or field, a record that does not fit its machine. Every
 * problem found is listed, each with where it is ({@code $.entities.guard-7.guard.active[1]})
 * and what was expected. A replica that throws it has changed nothing.
 */
public final class StreamException extends MachineException {
    private static final long serialVersionUID = 1L;
    /** The problems found, in the order found. */
    private final List<String> problems;

    /**
     * The problems found, in the order found.
     *
     * @param what     what could not be done, which starts the message, such as
     *                 {@code "the frame cannot be applied; the replica is unchanged"}
     * @param problems one line per problem, each with where it is and what was expected; copied
     */
    public StreamException(String what, List<String> problems) {
        super("", format(what, problems));
        this.problems = List.copyOf(problems);
    }

    private static String format(String what, List<String> problems) {
        StringBuilder sb = new StringBuilder(what).append(": ").append(problems.size())
                .append(problems.size() == 1 ? " problem" : " problems");
        for (String p : problems) {
            sb.append("\n  - ").append(p);
        }
        return sb.toString();
    }

    /**
     * Each problem on its own.
     *
     * @return the problems, an unmodifiable list in the order found
     */
    public List<String> problems() {
        return problems;
    }
}

package dev.enginestates.io;

import dev.enginestates.declare.MachineException;

import java.util.List;

/**
 * A checkpoint, dump or input log that cannot be written or read: malformed JSON, a wrong
 * format version, an unknown machine or state, a context that does not fit its type, a key
 * that matches no entity. Every problem found is listed, each with where it is
 * ({@code $.entities.guard-7.guard.active[1]}) and what was expected, but for the keys a world
 * lacks: a restore's message says first how many of the checkpoint's entities the world lacks,
 * and lists the first 10 of them. A restore that throws has changed nothing. A restore or a replay stops checking at its 100th problem, and its
 * message says so: past that, a damaged text would cost more to list than to read.
 */
public final class CheckpointException extends MachineException {
    private static final long serialVersionUID = 1L;
    /** The problems found, in the order found. */
    private final List<String> problems;

    /**
     * The problems found, in the order found.
     *
     * @param what     what could not be done, which starts the message, such as
     *                 {@code "the checkpoint cannot be restored"}
     * @param problems one line per problem, each with where it is and what was expected; copied
     */
    public CheckpointException(String what, List<String> problems) {
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

package dev.enginestates.declare;

import java.util.List;

/**
 * A machine declaration (Java DSL or XState JSON) that cannot be compiled. Every problem
 * found is listed at once, each naming the state that has it and what was expected, so one
 * start-up shows all the typos.
 */
public final class InvalidMachineException extends MachineException {
    private static final long serialVersionUID = 1L;
    /** Each problem found, one sentence each. */
    private final List<String> problems;

    /**
     * An invalid machine with the problems found.
     *
     * @param machineId the machine's id
     * @param problems one sentence per problem, naming the state and what was expected; copied. The message
     *                 lists them
     */
    public InvalidMachineException(String machineId, List<String> problems) {
        super(machineId, format(machineId, problems));
        this.problems = List.copyOf(problems);
    }

    private static String format(String machineId, List<String> problems) {
        StringBuilder sb = new StringBuilder();
        sb.append("machine '").append(machineId).append("' is invalid: ")
                .append(problems.size()).append(problems.size() == 1 ? " problem" : " problems");
        for (String p : problems) {
            sb.append("\n  - ").append(p);
        }
        return sb.toString();
    }

    /**
     * Each problem on its own: grouped by the kind of check that found it, each group in document order.
     *
     * @return the problems, one sentence each; unmodifiable
     */
    public List<String> problems() {
        return problems;
    }
}

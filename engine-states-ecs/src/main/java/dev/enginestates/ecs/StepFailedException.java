package dev.enginestates.ecs;

import java.util.List;

/**
 * Thrown by {@link StateWorld#step(double)} after a step in which machines failed, when the world
 * has no failure handler ({@link StateWorld#onFailure}). The step itself completed: every other
 * machine was stepped, no wait was lost, tags match records. The first failure's exception is the
 * cause; the others are suppressed exceptions.
 */
public final class StepFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient List<MachineFailure> failures;
    /** The number of the step that failed. */
    private final long step;

    StepFailedException(long step, double time, List<MachineFailure> failures) {
        super(message(step, time, failures), failures.get(0).cause());
        this.failures = List.copyOf(failures);
        this.step = step;
        for (int i = 1; i < failures.size(); i++) {
            addSuppressed(failures.get(i).cause());
        }
    }

    private static String message(long step, double time, List<MachineFailure> failures) {
        StringBuilder b = new StringBuilder();
        b.append("step ").append(step).append(" (t=").append(time).append(" s): ").append(failures.size())
                .append(failures.size() == 1 ? " machine failed" : " machines failed")
                .append("; the step completed for every other machine");
        int shown = Math.min(20, failures.size());
        for (int i = 0; i < shown; i++) {
            b.append("\n  ").append(failures.get(i).describe());
        }
        if (shown < failures.size()) {
            b.append("\n  ... and ").append(failures.size() - shown).append(" more (see failures())");
        }
        return b.toString();
    }

    /**
     * Every failure of the step, in the order they happened.
     *
     * @return the failures, an unmodifiable list of at least one; empty in an exception that has
     *         been deserialized (the failures are not serialized; the message and the causes are)
     */
    public List<MachineFailure> failures() {
        return failures == null ? List.of() : failures; // a transient field is null after deserialization
    }

    /**
     * The number of the step that failed.
     *
     * @return the step's number, as {@link StateWorld#steps()} reads just after it (the first step is 1)
     */
    public long step() {
        return step;
    }
}

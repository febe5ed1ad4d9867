package dev.enginestates.declare;

/**
 * The base of every error this library throws about a machine: its message names the
 * machine, the state path and what was expected.
 */
public class MachineException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** The id of the machine the error is about. */
    private final String machineId;

    /**
     * An error about the machine with the given id.
     *
     * @param machineId the machine's id, such as {@code "siege"}
     * @param message the whole message: the machine, the state path and what was expected
     */
    public MachineException(String machineId, String message) {
        super(message);
        this.machineId = machineId;
    }

    /**
     * An error about the machine with the given id, caused by another.
     *
     * @param machineId the machine's id, such as {@code "siege"}
     * @param message the whole message: the machine, the state path and what was expected
     * @param cause the exception that caused it
     */
    public MachineException(String machineId, String message, Throwable cause) {
        super(message, cause);
        this.machineId = machineId;
    }

    /**
     * The id of the machine the error is about.
     *
     * @return the id, such as {@code "siege"}
     */
    public String machineId() {
        return machineId;
    }
}

package dev.enginestates.declare;

/**
 * The base of every error this library throws about a machine: its message names the
 * machine, the state path and what was expected.
 */
public class MachineException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String machineId;

    /** An error about the machine with the given id. */
    public MachineException(String machineId, String message) {
        super(message);
        this.machineId = machineId;
    }

    /** An error about the machine with the given id, caused by another. */
    public MachineException(String machineId, String message, Throwable cause) {
        super(message, cause);
        this.machineId = machineId;
    }

    /** The id of the machine the error is about. */
    public String machineId() {
        return machineId;
    }
}

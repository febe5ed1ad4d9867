package dev.enginestates.declare;

/**
 * Eventless ({@code always}) transitions or done events kept firing without the machine
 * settling: a cycle such as {@code a -> b -> a} whose guards never turn false. The machine
 * is left in the configuration reached when the limit was hit, which is a valid one.
 */
public final class EventlessLoopException extends MachineException {
    private static final long serialVersionUID = 1L;

    /**
     * The machine and a description of the cycle.
     *
     * @param machineId the machine's id
     * @param message the whole message, describing the cycle
     */
    public EventlessLoopException(String machineId, String message) {
        super(machineId, message);
    }
}

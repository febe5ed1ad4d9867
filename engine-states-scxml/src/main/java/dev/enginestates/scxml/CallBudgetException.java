package dev.enginestates.scxml;

import dev.enginestates.declare.MachineException;

/**
 * An imported SCXML machine spent its budget for one call into the library (a send, a step, its
 * start): the instructions of its scripts and the work of its document across all its sessions
 * ({@link ScxmlImport#callBudget}). It is thrown from the machine's code, so it reaches the caller
 * as the cause of the engine's {@code UserCodeException} (or a step's failure), and the machine
 * keeps a valid configuration, as after any failure of a game's code; the next call has a fresh
 * budget.
 */
public final class CallBudgetException extends MachineException {
    private static final long serialVersionUID = 1L;

    /**
     * The machine and what it spent.
     *
     * @param machineId the machine's id
     * @param message   the whole message: the machine, the budget and what was expected
     */
    public CallBudgetException(String machineId, String message) {
        super(machineId, message);
    }
}

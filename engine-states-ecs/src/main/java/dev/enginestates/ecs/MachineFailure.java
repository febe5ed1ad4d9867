package dev.enginestates.ecs;

import dev.enginestates.declare.MachineException;

/**
 * One machine's failure during a step: a game's guard, action, {@code when} test or wait-seconds
 * function threw, or its eventless transitions did not settle. Only that machine is affected:
 * its record stays a valid configuration (see {@link dev.enginestates.declare.UserCodeException}), the
 * step goes on with every other machine, and this machine is stepped again from the next step.
 *
 * @param machineId the machine's id
 * @param entity    the entity as messages name it ({@link StateWorld#nameOf}): {@code entity 'guard-7'}, or
 *                  {@code entity 'guard#3'} for one without a key
 * @param statePath the path of the state whose code failed, or the machine's active states
 * @param eventType the event being processed: a wait's end, a {@code when} rule, or a sent event
 * @param cause     what was thrown
 */
public record MachineFailure(String machineId, String entity, String statePath, String eventType, MachineException cause) {

    /**
     * One line: the machine, the entity, the state, the event and what was thrown.
     *
     * @return the failure as one line of text, for logs; also what {@link #toString()} returns
     */
    public String describe() {
        return "machine '" + machineId + "' on " + entity + ", in '" + statePath + "', event '" + eventType + "': "
                + cause.getMessage();
    }

    @Override
    public String toString() {
        return describe();
    }
}

package dev.enginestates;

import java.util.List;

/**
 * An event sent to a machine none of whose states names it: almost always a typo. The
 * message lists the events the machine knows.
 */
public final class UnknownEventException extends MachineException {
    private static final long serialVersionUID = 1L;
    private final String eventType;
    private final List<String> knownEvents;

    /** The machine, the event type it does not know, and the ones it does. */
    public UnknownEventException(String machineId, String eventType, List<String> knownEvents) {
        super(machineId, "machine '" + machineId + "' has no state that takes event '" + eventType
                + "'; the events it knows are " + (knownEvents.isEmpty() ? "(none)" : String.join(", ", knownEvents))
                + dev.enginestates.chart.Names.suggestion(eventType, knownEvents));
        this.eventType = eventType;
        this.knownEvents = List.copyOf(knownEvents);
    }

    /** The event type that was sent. */
    public String eventType() {
        return eventType;
    }

    /** The event types the machine's states name, in document order. */
    public List<String> knownEvents() {
        return knownEvents;
    }
}

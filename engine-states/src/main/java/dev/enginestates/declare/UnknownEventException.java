package dev.enginestates.declare;

import java.util.List;

/**
 * An event sent to a machine none of whose states names it: almost always a typo. The
 * message lists the events the machine knows.
 */
public final class UnknownEventException extends MachineException {
    private static final long serialVersionUID = 1L;
    private final String eventType;
    private final List<String> knownEvents;
    private final String closest;

    /**
     * The machine, the event type it does not know, the ones it does, and the known event
     * closest to the one sent ({@code null} when none is close enough to be a typo).
     */
    public UnknownEventException(String machineId, String eventType, List<String> knownEvents, String closest) {
        super(machineId, "machine '" + machineId + "' has no state that takes event '" + eventType
                + "'; the events it knows are " + (knownEvents.isEmpty() ? "(none)" : String.join(", ", knownEvents))
                + (closest == null ? "" : "; did you mean '" + closest + "'?"));
        this.eventType = eventType;
        this.knownEvents = List.copyOf(knownEvents);
        this.closest = closest;
    }

    /** The event type that was sent. */
    public String eventType() {
        return eventType;
    }

    /** The event types the machine's states name, in document order. */
    public List<String> knownEvents() {
        return knownEvents;
    }

    /** The known event the sent one is most likely a typo of, or {@code null}. */
    public String closest() {
        return closest;
    }
}

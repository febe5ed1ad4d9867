package dev.enginestates.declare;

import java.util.List;

/**
 * An event sent to a machine none of whose states names it: almost always a typo. The
 * message lists the events the machine knows.
 */
public final class UnknownEventException extends MachineException {
    private static final long serialVersionUID = 1L;
    /** The event type that was sent. */
    private final String eventType;
    /** The event types the machine's states name, in document order. */
    private final List<String> knownEvents;
    /** The known event the sent one is most likely a typo of, or {@code null}. */
    private final String closest;

    /**
     * The machine, the event type it does not know, the ones it does, and the known event
     * closest to the one sent ({@code null} when none is close enough to be a typo).
     *
     * @param machineId the machine's id
     * @param eventType the type sent
     * @param knownEvents the event types the machine's states name, in document order; copied
     * @param closest the known type most likely meant, or {@code null}
     */
    public UnknownEventException(String machineId, String eventType, List<String> knownEvents, String closest) {
        super(machineId, "machine '" + machineId + "' has no state that takes event '" + eventType
                + "'; the events it knows are " + (knownEvents.isEmpty() ? "(none)" : String.join(", ", knownEvents))
                + (closest == null ? "" : "; did you mean '" + closest + "'?"));
        this.eventType = eventType;
        this.knownEvents = List.copyOf(knownEvents);
        this.closest = closest;
    }

    /**
     * The event type that was sent.
     *
     * @return the type, as sent
     */
    public String eventType() {
        return eventType;
    }

    /**
     * The event types the machine's states name, in document order.
     *
     * @return the types, unmodifiable; empty for a machine that takes no events
     */
    public List<String> knownEvents() {
        return knownEvents;
    }

    /**
     * The known event the sent one is most likely a typo of, or {@code null}.
     *
     * @return the closest known type, or {@code null} when none is close enough to be a typo
     */
    public String closest() {
        return closest;
    }
}

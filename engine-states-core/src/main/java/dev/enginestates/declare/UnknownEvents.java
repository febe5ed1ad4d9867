package dev.enginestates.declare;

/** What a machine does with an event type that none of its states names. */
public enum UnknownEvents {
    /**
     * Throw {@link dev.enginestates.declare.UnknownEventException}, listing the events the machine
     * knows, and change nothing. The default: such an event is almost always a typo.
     */
    REJECT,
    /**
     * Process it as XState does: no state takes it, but eventless transitions are still
     * checked (their guards see the event). Machines imported from XState JSON use this.
     */
    ACCEPT
}

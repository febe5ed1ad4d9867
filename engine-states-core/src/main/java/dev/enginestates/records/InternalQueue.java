package dev.enginestates.records;

import dev.enginestates.declare.Event;

/**
 * What a record's own code reaches of the interpreter processing it: the internal queue a
 * {@code raise} goes to, and the clock a send to itself is timed on. The algorithm's
 * interpreter implements it; a record's face knows the one processing it (see
 * {@code MachineRecord.queue()}).
 */
public interface InternalQueue {
    /**
     * Queues an internal event for the record being processed.
     *
     * @param r       the record
     * @param event   the event
     * @param eventId its id in the record's chart, or -1 when no descriptor matches it
     */
    void raise(MachineRecord r, Event event, int eventId);

    /**
     * The clock time the record's current macrostep runs at.
     *
     * @return the time, in seconds
     */
    double clock();

    /**
     * Which call into the library (a step, an event from outside, the start) the move under way
     * belongs to, as the face that runs the record numbers them: every move of one call has the same
     * number and the next call another, so code that spends a budget per call knows when to start
     * afresh.
     *
     * @return the call's number
     */
    long call();
}

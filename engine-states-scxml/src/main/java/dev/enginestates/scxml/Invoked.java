package dev.enginestates.scxml;

import dev.enginestates.Machine;
import dev.enginestates.algorithm.Interpreter;
import dev.enginestates.declare.Event;
import dev.enginestates.records.Access;
import dev.enginestates.records.DetachedRecord;
import dev.enginestates.records.InternalQueue;

/**
 * The machine of an invoked SCXML session: its own record and interpreter, run inside its
 * parent's step (the importer routes its sends through the top session's pending sends, so it
 * needs no clock of its own).
 */
final class Invoked extends DetachedRecord {
    private final Interpreter interpreter = new Interpreter();

    Invoked(Machine<Datamodel> machine, Datamodel context) {
        super(Access.chart(machine), context, machine);
    }

    @Override
    protected String what() {
        return "invoked SCXML session of machine '" + chart().machineId + "'";
    }

    @Override
    protected InternalQueue queue() {
        return interpreter;
    }

    /** The session's first macrostep. */
    void start() {
        interpreter.clock(0);
        interpreter.start(this);
    }

    /** One event from the session's external queue, as one macrostep. */
    void deliver(Event event) {
        interpreter.clock(0);
        interpreter.send(this, chart().eventId(event.type()), event);
    }
}

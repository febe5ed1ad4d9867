package dev.enginestates.scxml;

import dev.enginestates.Machine;
import dev.enginestates.algorithm.Interpreter;
import dev.enginestates.declare.DetachedSelf;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.Self;
import dev.enginestates.records.Access;
import dev.enginestates.records.InternalQueue;
import dev.enginestates.records.MachineRecord;

/**
 * The machine of an invoked SCXML session: its own record and interpreter, run inside its
 * parent's step (the importer routes its sends through the top session's pending sends, so it
 * needs no clock of its own).
 */
final class Invoked extends MachineRecord implements Self {
    private final Interpreter interpreter = new Interpreter();
    private final DetachedSelf detached;

    Invoked(Machine<Datamodel> machine, Datamodel context) {
        super(Access.chart(machine), context);
        this.detached = new DetachedSelf("invoked SCXML session of machine '" + machine.id() + "'", machine, this::contextObject);
        self(this);
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

    @Override
    public <E> E entity() {
        return null;
    }

    @Override
    public <W> W world() {
        return null;
    }

    @Override
    public <M> M machine() {
        return detached.machine();
    }

    @Override
    public boolean attached() {
        return false;
    }

    @Override
    public void add(Object component) {
        detached.add(component);
    }

    @Override
    public boolean remove(Class<?> type) {
        return detached.remove(type);
    }

    @Override
    public boolean send(Object entity, String event) {
        return detached.send(entity, event);
    }

    @Override
    public boolean send(Object entity, Event event) {
        return detached.send(entity, event);
    }

    @Override
    public <T> T get(Class<T> type) {
        return detached.get(type);
    }

    @Override
    public boolean has(Class<?> type) {
        return detached.has(type);
    }

    @Override
    public Object handle() {
        return detached.handle();
    }

    @Override
    public String toString() {
        return detached.toString();
    }
}

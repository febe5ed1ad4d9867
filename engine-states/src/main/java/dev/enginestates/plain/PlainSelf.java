package dev.enginestates.plain;

import dev.enginestates.chart.Chart;
import dev.enginestates.declare.DetachedSelf;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.Self;
import dev.enginestates.records.InternalQueue;
import dev.enginestates.records.MachineRecord;

/**
 * A plain machine's record, which is also the {@link Self} its code receives: no entity and no
 * world (as {@link DetachedSelf} says), and the machine's own queue and configuration for
 * {@code raise}, sends to itself and {@code isIn}, which the record implements.
 */
final class PlainSelf extends MachineRecord implements Self {
    private final DetachedSelf detached;
    private final StateMachine<?> machine;

    PlainSelf(Chart chart, Object context, StateMachine<?> machine) {
        super(chart, context);
        this.machine = machine;
        this.detached = new DetachedSelf("machine '" + chart.machineId + "' on a plain object", machine, this::contextObject);
        self(this);
    }

    /** The plain machine's own interpreter. */
    @Override
    protected InternalQueue queue() {
        return machine.interpreter();
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

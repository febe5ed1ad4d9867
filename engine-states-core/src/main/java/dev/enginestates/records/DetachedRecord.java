package dev.enginestates.records;

import dev.enginestates.chart.Chart;
import dev.enginestates.declare.DetachedSelf;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.Self;

/**
 * The record of a machine on no entity (a plain machine, an invoked SCXML session), which is also the
 * {@link Self} its code receives: no entity and no world, the rest answered as {@link DetachedSelf} does;
 * {@code raise}, sends to itself and {@code isIn} come from the record and its {@link #queue()}.
 */
public abstract class DetachedRecord extends MachineRecord implements Self {
    private final Object machine;
    /** Made when the machine's code first asks for what it answers (most plain machines never do). */
    private DetachedSelf detached;

    /**
     * @param chart   the machine's chart
     * @param context the machine's context
     * @param machine what {@link #machine()} answers
     */
    @SuppressWarnings("this-escape") // the record is its own Self: both only keep it, and read it once the machine runs
    protected DetachedRecord(Chart chart, Object context, Object machine) {
        super(chart, context);
        this.machine = machine;
        self(this);
    }

    /** How errors name the machine, such as "machine 'door' on a plain object". */
    protected abstract String what();

    private DetachedSelf detached() {
        DetachedSelf d = detached;
        if (d == null) {
            detached = d = new DetachedSelf(what(), machine, this::contextObject);
        }
        return d;
    }

    @Override
    public final <E> E entity() {
        return null;
    }

    @Override
    public final <W> W world() {
        return null;
    }

    @Override
    @SuppressWarnings("unchecked")
    public final <M> M machine() {
        return (M) machine; // as DetachedSelf answers, without making one
    }

    @Override
    public final boolean attached() {
        return false;
    }

    /** The record itself: its generator's state is one of its fields. */
    @Override
    public final Self.Draws random() {
        return this;
    }

    @Override
    public final void add(Object component) {
        detached().add(component);
    }

    @Override
    public final boolean remove(Class<?> type) {
        return detached().remove(type);
    }

    @Override
    public final boolean send(Object entity, String event) {
        return detached().send(entity, event);
    }

    @Override
    public final boolean send(Object entity, Event event) {
        return detached().send(entity, event);
    }

    @Override
    public final <T> T get(Class<T> type) {
        return detached().get(type);
    }

    @Override
    public final boolean has(Class<?> type) {
        return detached().has(type);
    }

    @Override
    public final Object handle() {
        return detached().handle();
    }

    @Override
    public String toString() {
        return detached().toString();
    }
}

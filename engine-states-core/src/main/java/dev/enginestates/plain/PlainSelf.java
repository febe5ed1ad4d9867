package dev.enginestates.plain;

import dev.enginestates.chart.Chart;
import dev.enginestates.declare.Self;
import dev.enginestates.records.DetachedRecord;
import dev.enginestates.records.InternalQueue;

/**
 * A plain machine's record, which is also the {@link Self} its code receives: no entity and no
 * world (as {@link DetachedRecord} says), and the machine's own queue and configuration for
 * {@code raise}, sends to itself and {@code isIn}, which the record implements.
 */
final class PlainSelf extends DetachedRecord {
    PlainSelf(Chart chart, Object context, StateMachine<?> machine) {
        super(chart, context, machine);
    }

    @Override
    protected String what() {
        return "machine '" + chart().machineId + "' on a plain object";
    }

    /** The plain machine's own queue (its XState-style interpreter). */
    @Override
    protected InternalQueue queue() {
        StateMachine<?> m = machine();
        return m.queue();
    }
}

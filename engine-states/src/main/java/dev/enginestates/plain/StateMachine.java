package dev.enginestates.plain;

import dev.enginestates.Event;
import dev.enginestates.Machine;
import dev.enginestates.UnknownEventException;
import dev.enginestates.algorithm.Interpreter;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.UnknownEvents;
import dev.enginestates.record.MachineRecord;
import dev.enginestates.record.StateValue;

import java.util.List;
import java.util.Objects;

/**
 * One running instance of a {@link Machine} over a plain context object, without an ECS.
 * Created started: the root's and the initial states' entry actions have run.
 *
 * <pre>{@code
 * StateMachine<Siege> siege = new StateMachine<>(SIEGE);
 * siege.send("START");      // true
 * siege.value();            // "fight"
 * }</pre>
 *
 * <p>Not thread-safe: an instance belongs to one thread at a time (its scratch space is its
 * own). Sending allocates nothing once warm.
 *
 * @param <C> the context type
 */
public final class StateMachine<C> {
    private final Machine<C> machine;
    private final Chart chart;
    private final MachineRecord record;
    private final Interpreter interpreter = new Interpreter();

    /** Starts an instance with a fresh context from the machine's factory. */
    public StateMachine(Machine<C> machine) {
        this(machine, machine.newContext());
    }

    /** Starts an instance over the given context. */
    public StateMachine(Machine<C> machine, C context) {
        this.machine = Objects.requireNonNull(machine, "machine");
        this.chart = machine.chart();
        this.record = new MachineRecord(chart, context);
        interpreter.start(record);
    }

    /**
     * Sends an event with no fields.
     *
     * @return whether a state took it (a transition that only runs actions counts)
     * @throws UnknownEventException if no state names the event (unless the machine accepts unknown events); nothing changes
     */
    public boolean send(String type) {
        int id = eventId(type);
        return interpreter.send(record, id, id >= 0 ? chart.eventObjects[id] : Event.of(type));
    }

    /**
     * Sends an event with fields that guards and actions read.
     *
     * @return whether a state took it
     * @throws UnknownEventException if no state names the event (unless the machine accepts unknown events); nothing changes
     */
    public boolean send(Event event) {
        return interpreter.send(record, eventId(event.type()), event);
    }

    private int eventId(String type) {
        Objects.requireNonNull(type, "event type");
        int id = chart.eventId(type);
        if (id < 0 && chart.unknownEvents == UnknownEvents.REJECT) {
            throw new UnknownEventException(chart.machineId, type, chart.knownEvents());
        }
        return id;
    }

    /** The state value as XState writes it: a state's key, or nested maps for compound and parallel states. */
    public Object value() {
        return StateValue.of(record);
    }

    /** Whether the state at a dotted path ({@code "patrol.watch"}) is active. */
    public boolean matches(String path) {
        return StateValue.matches(record, path);
    }

    /** The paths of the active atomic states, in document order. */
    public List<String> leaves() {
        return StateValue.leaves(record);
    }

    /** Whether a top-level final state was reached; a done machine takes no more events. */
    public boolean isDone() {
        return record.isDone();
    }

    /** The context. */
    @SuppressWarnings("unchecked")
    public C context() {
        return (C) record.context();
    }

    /** The machine definition. */
    public Machine<C> machine() {
        return machine;
    }

    /** The record: this instance's snapshot. */
    public MachineRecord record() {
        return record;
    }

    @Override
    public String toString() {
        return machine.id() + ": " + StateValue.describe(record) + (record.isDone() ? " (done)" : "");
    }
}

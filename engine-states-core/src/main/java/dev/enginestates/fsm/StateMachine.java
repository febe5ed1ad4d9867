package dev.enginestates.fsm;

import dev.enginestates.MachineListener;
import dev.enginestates.MachineView;
import dev.enginestates.algorithm.BuilderInterpreter;
import dev.enginestates.algorithm.StyleRuntime;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.StateContextCore;
import dev.enginestates.declare.UserCodeException;
import dev.enginestates.records.Access;
import dev.enginestates.records.MachineRecord;
import dev.enginestates.records.Reads;
import dev.enginestates.records.StateValue;
import dev.enginestates.running.MachineCell;

import java.util.List;
import java.util.Objects;

/**
 * One builder-style machine for one context, ticked by its owner.
 * Not to be confused with {@code dev.enginestates.plain.StateMachine}, which runs the other two
 * styles on a plain object.
 *
 * <pre>{@code
 * StateMachine<DoorContext> door = new StateMachine<>(DOOR);
 * door.initialize(ctx);                 // enters the initial state: its enter hook runs now
 * door.update(ctx, dt);                 // advance then runState
 * door.state();                         // "Opening"
 * }</pre>
 *
 * <p>The machine keeps its own clock and writes it into the context ({@link StateContextCore}):
 * pass the same context to every call (a different one takes its place from then on). Not
 * thread-safe: an instance belongs to one thread at a time; allocation-free once warm.
 *
 * @param <C> the context type
 */
public class StateMachine<C extends StateContextCore> implements MachineView<C> {
    static {
        Access.registerFace(StateMachine.class, face -> ((StateMachine<?>) face).cell.record());
    }

    private final StateMachineDefinition<C> definition;
    private final MachineRecord record;
    /** The record, the builder style's runtime and the listeners. */
    private final MachineCell cell;

    /**
     * A machine over a definition; {@link #initialize} starts it.
     *
     * @param definition the built machine to run; not {@code null}
     */
    @SuppressWarnings("this-escape") // the cell only keeps the face, to hand it to listeners once the machine runs
    public StateMachine(StateMachineDefinition<C> definition) {
        this.definition = Objects.requireNonNull(definition, "definition");
        this.record = new MachineRecord(Access.chart(definition.machine()), null);
        this.cell = new MachineCell(record, this, null);
    }

    /**
     * Enters the initial state: its metadata is written to the context, the builder's
     * {@code onStateEnter} and the state's enter hook run, time in state is 0. Called again, it
     * starts over (no exit hook runs).
     *
     * @param ctx the context to run on, which every later call passes too
     * @throws NullPointerException if the context is {@code null}; nothing changes
     * @throws IllegalArgumentException if the context is not what the handlers take; nothing changes
     * @throws IllegalStateException if called from the machine's own code (a hook or handler); nothing changes
     */
    public void initialize(C ctx) {
        requireContext(ctx, "initialize");
        BuilderInterpreter.requireIdle(record, "initialize"); // before the context is swapped in
        Object before = record.contextObject();
        record.context(ctx);
        try {
            cell.start("initialize");
        } catch (IllegalArgumentException e) {
            record.context(before); // a context the handlers cannot take: the machine keeps the one it had
            throw e;
        }
    }

    /**
     * Records the previous progress, then adds {@code dt} to the time in state (float), both written to the context. A state without a handler does nothing.
     *
     * @param ctx the machine's context; another one takes its place from now on
     * @param dt  the seconds to add, 0 to 1e12
     * @throws NullPointerException if the context is {@code null}; nothing changes
     * @throws IllegalStateException before {@link #initialize}, or if called from the machine's own code; nothing changes
     * @throws IllegalArgumentException if {@code dt} is negative, NaN, infinite or more than 1e12 (the world's
     *                                  {@code StateWorld.MAX_STEP_SECONDS}), or a new context is not what the handlers take; nothing changes
     */
    public void advance(C ctx, float dt) {
        use(ctx, dt, "advance");
        cell.step(dt, StyleRuntime.ADVANCE);
    }

    /**
     * Runs the current state's handler (unless its delay has not elapsed) without advancing time, and moves to the state it returns.
     *
     * @param ctx the machine's context; another one takes its place from now on
     * @param dt  the step's seconds, handed to the handler; 0 to 1e12
     * @throws NullPointerException if the context is {@code null}; nothing changes
     * @throws IllegalStateException before {@link #initialize}, or if called from the machine's own code; nothing changes
     * @throws IllegalArgumentException if {@code dt} is negative, NaN, infinite or more than 1e12 (the world's
     *                                  {@code StateWorld.MAX_STEP_SECONDS}), or a new context is not what the handlers take; nothing changes
     */
    public void runState(C ctx, float dt) {
        use(ctx, dt, "runState");
        cell.step(dt, StyleRuntime.RUN);
    }

    /**
     * {@link #advance} then {@link #runState}, exactly.
     *
     * @param ctx the machine's context; another one takes its place from now on
     * @param dt  the seconds since the last update, 0 to 1e12
     * @throws NullPointerException if the context is {@code null}; nothing changes
     * @throws IllegalStateException before {@link #initialize}, or if called from the machine's own code; nothing changes
     * @throws IllegalArgumentException if {@code dt} is negative, NaN, infinite or more than 1e12 (the world's
     *                                  {@code StateWorld.MAX_STEP_SECONDS}), or a new context is not what the handlers take; nothing changes
     */
    public void update(C ctx, float dt) {
        use(ctx, dt, "update");
        cell.step(dt, StyleRuntime.WHOLE_STEP);
    }

    /**
     * Forces a transition: the current state's exit, the new state's metadata, {@code onStateEnter},
     * its enter hook, time 0. To the current state it re-enters.
     *
     * @param ctx  the machine's context; another one takes its place from now on
     * @param name the state to go to, such as {@code "Opening"}
     * @throws NullPointerException if the context is {@code null}; nothing changes
     * @throws IllegalStateException before {@link #initialize}, or if called from the machine's own code; nothing changes
     * @throws MachineException if the name names no state; nothing changes
     */
    public void transitionTo(C ctx, String name) {
        use(ctx, 0f, "transitionTo");
        cell.force("transitionTo", name);
    }

    /**
     * Adds a listener that hears this machine's state change: after {@link #update}, {@link #runState}
     * (event {@code "update"}), {@link #transitionTo} ({@code "go"}) and {@link #initialize}
     * ({@code "initialize"}). A listener that throws is a {@link UserCodeException}, thrown once the
     * machine has moved. Builder-style machines have no waits and no events, so only
     * {@link MachineListener#stateChanged} is called.
     *
     * @param listener the listener; not {@code null}
     * @return this machine, for chaining
     */
    public StateMachine<C> addListener(MachineListener<? super StateMachine<C>> listener) {
        cell.addListener(listener);
        return this;
    }

    /**
     * Removes a listener added with {@link #addListener} (its first addition).
     *
     * @param listener the same object that was added
     * @return {@code true} if it was there
     */
    public boolean removeListener(MachineListener<?> listener) {
        return cell.removeListener(listener);
    }

    /**
     * The current state's name, or {@code null} before {@link #initialize}.
     *
     * @return the state's name, such as {@code "Opening"}, or {@code null}
     * @deprecated read {@link #state()}, which every face has ({@code ""} before {@link #initialize})
     */
    @Deprecated(forRemoval = true)
    public String current() {
        return record.status() == MachineRecord.ACTIVE ? state() : null;
    }

    /** The state before the last transition, or {@code ""} before the first (as the other faces say it). */
    @Override
    public String previous() {
        return cell.previous();
    }

    /**
     * The machine's own time in the current state (what it writes into the context).
     *
     * @return seconds since the current state was entered, counted in float; 0 before {@link #initialize}
     */
    public float timeInState() {
        return record.timeInState();
    }

    // ---- the read-only view every face shares

    /**
     * Refused: a builder-style machine takes no events (its handlers return the next state), so
     * no event is ever permitted; {@link #permittedEvents()} is empty.
     *
     * @param event an event's type
     * @return never returns
     * @throws MachineException always, saying what to do instead
     */
    @Override
    public boolean can(String event) {
        return cell.can(event, null);
    }

    /**
     * Refused, as {@link #can(String)}.
     *
     * @param event a constant
     * @return never returns
     * @throws MachineException always
     */
    @Override
    public boolean can(Enum<?> event) {
        return cell.can(event);
    }

    /**
     * Refused, as {@link #can(String)}.
     *
     * @param event an event
     * @return never returns
     * @throws MachineException always
     */
    @Override
    public boolean can(dev.enginestates.declare.Event event) {
        return cell.can(event);
    }

    /**
     * None: a builder-style machine takes no events.
     *
     * @return an empty list
     */
    @Override
    public List<String> permittedEvents() {
        return cell.permittedEvents();
    }

    /**
     * Refused: a builder-style machine takes no events, so it names none by an enum.
     *
     * @param <E>    an enum
     * @param events the enum
     * @return never returns
     * @throws MachineException always
     */
    @Override
    public <E extends Enum<E>> java.util.Set<E> permittedEvents(Class<E> events) {
        return cell.permittedEvents(events);
    }

    @Override
    public String machineId() {
        return definition.id();
    }

    /** The current state's name, such as {@code "Opening"}, or {@code ""} before {@link #initialize}. */
    @Override
    public String state() {
        return cell.state();
    }

    @Override
    public String topState() {
        return StateValue.top(record);
    }

    @Override
    public Object value() {
        return StateValue.of(record);
    }

    @Override
    public boolean matches(String path) {
        return StateValue.matches(record, path);
    }

    @Override
    public boolean matches(Enum<?> state) {
        return cell.is(state, "matches");
    }

    @Override
    public boolean is(String name) {
        return cell.is(name);
    }

    @Override
    public boolean is(Enum<?> state) {
        return cell.is(state, "is");
    }

    @Override
    public double timeIn(String name) {
        return cell.timeIn(name);
    }

    @Override
    public double timeIn(Enum<?> state) {
        return cell.timeIn(state);
    }

    @Override
    public <S extends Enum<S>> S leaf(Class<S> states) {
        return Reads.leaf(record, states);
    }

    @Override
    public List<String> leaves() {
        return StateValue.leaves(record);
    }

    /** The context the machine last ran with, or {@code null} before {@link #initialize}. */
    @Override
    @SuppressWarnings("unchecked")
    public C context() {
        return (C) record.contextObject();
    }

    /** Always false: a builder-style machine has no final state. */
    @Override
    public boolean isDone() {
        return false;
    }

    /** {@link #timeInState()}, widened. */
    @Override
    public double time() {
        return record.timeInState();
    }

    /** Always 0: a builder-style machine leaves when its handler says so, not on time. */
    @Override
    public double secondsLeft() {
        return cell.secondsLeft();
    }

    /**
     * The definition this machine runs.
     *
     * @return the definition given to the constructor
     */
    public StateMachineDefinition<C> definition() {
        return definition;
    }

    private void use(C ctx, float dt, String call) {
        requireContext(ctx, call);
        if (record.status() != MachineRecord.ACTIVE) {
            throw new IllegalStateException("machine '" + definition.id() + "': " + call + " before initialize(ctx); initialize it first");
        }
        cell.checkStep(call, dt);
        BuilderInterpreter.requireIdle(record, call); // before a new context is adopted: a refused call changes nothing
        if (ctx != record.contextObject()) {
            BuilderInterpreter.adopt(record, ctx); // a new context: checked, then told where the machine is
        }
    }

    /** A null context is refused the same way by every call (the JDK's convention for a null argument). */
    private void requireContext(C ctx, String call) {
        Objects.requireNonNull(ctx, () -> "machine '" + definition.id() + "': " + call + " needs a context; got null");
    }

    @Override
    public String toString() {
        return "StateMachine(" + definition.id() + " in " + (record.status() == MachineRecord.ACTIVE ? state() : null) + ")";
    }
}

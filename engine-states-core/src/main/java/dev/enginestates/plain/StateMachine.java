package dev.enginestates.plain;

import dev.enginestates.Machine;
import dev.enginestates.MachineListener;
import dev.enginestates.MachineView;
import dev.enginestates.StatesDef;
import dev.enginestates.algorithm.StyleRuntime;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.UnknownEventException;
import dev.enginestates.declare.UserCodeException;
import dev.enginestates.records.Access;
import dev.enginestates.records.InternalQueue;
import dev.enginestates.records.MachineRecord;
import dev.enginestates.records.RandomStreams;
import dev.enginestates.records.Reads;
import dev.enginestates.records.StateValue;
import dev.enginestates.running.MachineCell;

import java.util.List;
import java.util.Objects;

/**
 * One running machine over a plain context object, without an ECS: the owner ticks it
 * wherever it lives. One class for the XState style ({@link Machine}) and polled tables
 * ({@link StatesDef}); the semantics come from the definition (the
 * {@linkplain dev.enginestates.plain package} comment shows both and how each steps).
 *
 * <p>Not thread-safe: an instance belongs to one thread at a time (its scratch space is its
 * own). Stepping and sending allocate nothing once warm.
 *
 * @param <C> the context type
 */
public final class StateMachine<C> implements MachineView<C> {
    static {
        Access.registerFace(StateMachine.class, face -> ((StateMachine<?>) face).cell.record());
    }

    /** The queue of the machine's own raises and sends to itself, for its record's own code. */
    InternalQueue queue() {
        return cell.queue();
    }

    /** Hears the active leaf change: {@code (to, from)}, both leaf paths. */
    @FunctionalInterface
    public interface ChangeListener {
        /**
         * The active leaf changed from {@code from} to {@code to} (equal when a state was entered again).
         *
         * @param to   the active leaf's path now, as {@link StateMachine#state()} says it
         * @param from the leaf's path before the change; several parallel leaves are joined by {@code ", "}
         */
        void changed(String to, String from);
    }

    /** How the running cell calls a change listener. */
    private static final MachineCell.ChangeCall CHANGE = (l, to, from) -> ((ChangeListener) l).changed(to, from);

    private final Machine<C> machine;
    private final Chart chart;
    private final MachineRecord record;
    /** The record, the style's runtime, this machine's own clock and its listeners. */
    private final MachineCell cell;

    /**
     * Starts an XState-style (or polled) machine with a fresh context from its factory.
     * @param machine the machine to run
     * @throws MachineException if the machine has no context factory, or is builder-style
     */
    public StateMachine(Machine<C> machine) {
        this(machine, machine.newContext());
    }

    /**
     * Starts a machine over a context: its initial states are entered now, their code runs, no change is told.
     * @param machine the machine to run
     * @param context the game's object the machine reads and writes
     * @throws MachineException if the machine is builder-style: run it with {@code dev.enginestates.fsm.StateMachine}
     */
    public StateMachine(Machine<C> machine, C context) {
        this(machine, context, true);
    }

    /**
     * Starts a machine over a context as {@link #StateMachine(Machine, Object)} does, its random
     * numbers ({@code self.random()}) seeded from {@code randomSeed} and its id: without a seed,
     * every plain machine of one id draws the same numbers (as every run of the game does), so
     * give each its own to make them differ.
     * @param machine    the machine to run
     * @param context    the game's object the machine reads and writes
     * @param randomSeed any long; the same seed, machine and inputs draw the same numbers
     * @throws MachineException if the machine is builder-style: run it with {@code dev.enginestates.fsm.StateMachine}
     */
    public StateMachine(Machine<C> machine, C context, long randomSeed) {
        this(machine, context, true, RandomStreams.seeded(randomSeed, Objects.requireNonNull(machine, "machine").id(), ""));
    }

    /**
     * Starts a polled table over {@code ctx}: {@code enter(ctx, "")} runs outermost first, no change is told.
     * @param def the table to run
     * @param ctx the game's object the machine reads and writes
     */
    public StateMachine(StatesDef<C> def, C ctx) {
        this(Objects.requireNonNull(def, "definition").machine(), ctx, true);
    }

    private StateMachine(Machine<C> machine, C context, boolean start) {
        this(machine, context, start, 0);
    }

    /** {@code random}: the record's first random state, or 0 for the stream of the machine's id. */
    private StateMachine(Machine<C> machine, C context, boolean start, long random) {
        this.machine = Objects.requireNonNull(machine, "machine");
        this.chart = Access.chart(machine);
        StyleRuntime.of(chart).checkRunsOnPlainObject(chart);
        this.record = new PlainSelf(chart, context, this);
        record.randomState(random); // before the start: the initial state's wait may draw
        this.cell = new MachineCell(record, this, CHANGE);
        if (start) {
            cell.start("start");
        }
    }

    /**
     * For tests: a polled machine put in a state, no code run, clocks at 0 (see {@link #withTime}).
     * @param <C>   the context type
     * @param def   the table to run
     * @param ctx   the game's object the machine reads and writes
     * @param state the state's path ({@code "combat.engage"}), or its name when no other state has it
     * @return the machine, in that state
     * @throws MachineException if the path names no state, or the name is ambiguous
     */
    public static <C> StateMachine<C> startIn(StatesDef<C> def, C ctx, String state) {
        return startIn(Objects.requireNonNull(def, "definition").machine(), ctx, state);
    }

    /**
     * For tests: a machine put in the given states by hand (no code runs; a wait starts from 0, polled clocks at 0).
     * @param <C>     the context type
     * @param machine the XState-style or polled machine to run
     * @param ctx     the game's object the machine reads and writes
     * @param states  paths, or names no other state has: one, or (XState style) one per parallel region
     * @return the machine, in those states
     * @throws MachineException if no state, an unknown or ambiguous one, states not active together, or several for a polled one
     */
    public static <C> StateMachine<C> startIn(Machine<C> machine, C ctx, String... states) {
        StateMachine<C> m = new StateMachine<>(machine, ctx, false);
        m.cell.placeNamed("startIn", states);
        return m;
    }

    /**
     * For tests: a typed machine put in states by constants, as {@link #startIn(Machine, Object, String...)}.
     * @param <C>     the context type
     * @param machine the typed machine to run
     * @param ctx     the game's object the machine reads and writes
     * @param state   the constant of a state to start in
     * @param more    the constants of further states, for parallel regions
     * @return the machine, in those states
     * @throws MachineException if a constant is not of the machine's state enum
     */
    public static <C> StateMachine<C> startIn(Machine<C> machine, C ctx, Enum<?> state, Enum<?>... more) {
        return startIn(machine, ctx, Reads.paths(Access.chart(machine), "startIn", state, more));
    }

    /**
     * For tests: sets how long an active state has been active; an XState-style wait is not moved.
     * @param state   the active state's path or name, or {@code ""} for the polled root's total
     * @param seconds how long it has been active, finite and 0 or more
     * @return this machine, for chaining
     * @throws MachineException if the state is unknown or not active, or the seconds are bad; nothing changes
     */
    public StateMachine<C> withTime(String state, double seconds) {
        cell.setSecondsIn("withTime", state, seconds);
        return this;
    }

    /**
     * Advances the machine by {@code dt} seconds, by its style's rules (see the class comment).
     * @param dt the seconds since the last step, such as {@code 1 / 60.0}; 0 to 1e12 ({@code StateWorld.MAX_STEP_SECONDS})
     * @throws IllegalArgumentException if {@code dt} is negative, NaN, infinite or more than 1e12 (nothing changes)
     * @throws IllegalStateException if called from the machine's own guard, action or handler (nothing changes)
     * @throws UserCodeException if the game's code threw; the machine keeps a valid state
     */
    public void step(double dt) {
        cell.stepWhole("step", dt);
    }

    /**
     * Sends an event with no arguments.
     * @param event the event's type, such as {@code "hit"}
     * @return whether a state took it (polled: a state's {@code on} named it; XState: a transition, even actions only)
     * @throws UnknownEventException if no state names the event (unless the machine accepts unknown events); nothing changes
     */
    public boolean send(String event) {
        return cell.send(event, null);
    }

    /**
     * Sends the event of a constant of the machine's event enum; allocation-free once warm.
     * @param event a constant of the machine's event enum, such as {@code BELL}
     * @return whether a state took it (a transition, even one that only runs actions)
     * @throws MachineException if the constant is not of the machine's event enum; nothing changes
     */
    public boolean send(Enum<?> event) {
        return cell.send(event);
    }

    /**
     * Sends a polled machine's event with arguments, which its handlers receive.
     * @param event the event's type, such as {@code "hit"}
     * @param args  the arguments an {@code on(event, handler)} handler receives, in order
     * @return whether a state took it, as for {@link #send(String)}
     * @throws UnknownEventException if no state names the event (unless the machine accepts unknown events); nothing changes
     * @throws MachineException for an XState-style machine (its events carry fields: {@link #send(Event)}); nothing changes
     */
    public boolean send(String event, Object... args) {
        return cell.send(event, args);
    }

    /**
     * Sends an event with fields; a polled machine's handler receives it as its one argument.
     * @param event the event, such as {@code Event.of("hit", ...)}; not {@code null}
     * @return whether a state took it
     * @throws UnknownEventException if no state names the event (unless the machine accepts unknown events); nothing changes
     */
    public boolean send(Event event) {
        return cell.send(event);
    }

    @Override
    public boolean can(String event) {
        return cell.can(event, null);
    }

    @Override
    public boolean can(Enum<?> event) {
        return cell.can(event);
    }

    /**
     * Whether a polled machine would take its event with arguments now, as {@link #can(String)}:
     * its handlers do not run, so the arguments are only checked as {@link #send(String, Object...)} checks them.
     * @param event the event's type, such as {@code "hit"}
     * @param args  the arguments a send would give the handler
     * @return whether a state would take it now
     * @throws UnknownEventException if no state names the event (unless the machine accepts unknown events); nothing changes
     * @throws MachineException for an XState-style machine given arguments (its events carry fields: {@link #can(Event)})
     */
    public boolean can(String event, Object... args) {
        return cell.can(event, args);
    }

    @Override
    public boolean can(Event event) {
        return cell.can(event);
    }

    @Override
    public List<String> permittedEvents() {
        return cell.permittedEvents();
    }

    @Override
    public <E extends Enum<E>> java.util.Set<E> permittedEvents(Class<E> events) {
        return cell.permittedEvents(events);
    }

    /**
     * Forces a transition (a spawn, a reset): polled, an active state is exited and entered again;
     * XState style, the state is set by hand and no actions run.
     * @param name polled: resolved from the active leaf as a declared target ({@code "$back"} too); XState: a path or unique name
     * @throws MachineException if the name names no state, or (XState style) is ambiguous; nothing changes
     * @throws IllegalStateException if called from the machine's own guard, action or handler; nothing changes
     */
    public void go(String name) {
        cell.go(name);
    }

    /**
     * {@link #go(String)} to the state of a constant of the machine's state enum.
     * @param state a constant of the machine's state enum
     * @throws MachineException if the constant is not of the machine's state enum; nothing changes
     */
    public void go(Enum<?> state) {
        go(chart.path[Reads.stateOf(chart, state, "go")]);
    }

    @Override
    public String state() {
        return cell.state();
    }

    /**
     * Every active state's path, outermost first, without the root.
     * @return a new list, such as {@code ["combat", "combat.engage"]}
     */
    public List<String> branch() {
        return StateValue.activePaths(record);
    }

    /** {@inheritDoc} For an XState-style machine, the leaves before the last call that moved it (a chain of transitions counts as one). */
    @Override
    public String previous() {
        return cell.previous();
    }

    @Override
    public double time() {
        return cell.time();
    }

    @Override
    public double secondsLeft() {
        return cell.secondsLeft();
    }

    /**
     * Seconds stepped since the machine started.
     * @return the polled root's {@code t}; the XState style's own clock
     */
    public double totalTime() {
        return cell.secondsRun();
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

    /**
     * Adds a listener, run in the order added; one that throws is a {@link UserCodeException} once all were told.
     * @param type     {@code "change"}, the one kind of listener
     * @param listener called after each change of the active leaf; not {@code null}
     * @return this machine, for chaining
     * @throws IllegalArgumentException if {@code type} is not {@code "change"}
     */
    public StateMachine<C> on(String type, ChangeListener listener) {
        cell.addChangeListener(type, listener);
        return this;
    }

    /**
     * Removes a listener added with {@link #on}; no effect when it is not there.
     * @param type     {@code "change"}, the one kind of listener
     * @param listener the listener to remove, the same object that was added
     * @return this machine, for chaining
     * @throws IllegalArgumentException if {@code type} is not {@code "change"}
     */
    public StateMachine<C> off(String type, ChangeListener listener) {
        cell.removeChangeListener(type, listener);
        return this;
    }

    /**
     * The context, as {@link #context()} (the polled table's {@code fsm.ctx}).
     * @return the game's object the machine runs on
     */
    public C ctx() {
        return context();
    }

    @Override
    @SuppressWarnings("unchecked")
    public C context() {
        return (C) record.contextObject();
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
        return StateValue.matches(record, Objects.requireNonNull(path, "path")); // one reading for every face
    }

    @Override
    public boolean matches(Enum<?> state) {
        return cell.is(state, "matches");
    }

    @Override
    public List<String> leaves() {
        return StateValue.leaves(record);
    }

    @Override
    public boolean isDone() {
        return record.isDone();
    }

    @Override
    public String machineId() {
        return machine.id();
    }

    /**
     * The machine this instance runs.
     * @return the machine; for a {@link StatesDef}, its {@link StatesDef#machine()}
     */
    public Machine<C> machine() {
        return machine;
    }

    @Override
    public String toString() {
        return machine.id() + ": " + StateValue.describe(record) + (record.isDone() ? " (done)" : "");
    }

    /**
     * Adds a listener of state changes, waits (XState style) and refused events, told after each call
     * that moved the machine, in the order added; one that throws is a {@link UserCodeException} once all were told.
     * @param listener the listener; not {@code null}
     * @return this machine, for chaining
     */
    public StateMachine<C> addListener(MachineListener<? super StateMachine<C>> listener) {
        cell.addListener(listener);
        return this;
    }

    /**
     * Removes a listener added with {@link #addListener} (its first addition).
     * @param listener the same object that was added
     * @return {@code true} if it was there
     */
    public boolean removeListener(MachineListener<?> listener) {
        return cell.removeListener(listener);
    }
}

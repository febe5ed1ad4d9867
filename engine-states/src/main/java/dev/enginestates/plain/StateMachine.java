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
import dev.enginestates.records.Reads;
import dev.enginestates.records.StateValue;
import dev.enginestates.running.MachineCell;

import java.util.List;
import java.util.Objects;

/**
 * One running machine over a plain context object, without an ECS: the owner ticks it
 * wherever it lives. One class for both declaration styles; the semantics come from the
 * definition.
 *
 * <pre>{@code
 * StateMachine<Bot> fsm = new StateMachine<>(GUARD, bot);   // a StatesDef: enters 'patrol' now
 * fsm.on("change", (to, from) -> log(from + ">" + to));
 * fsm.step(1 / 60.0);                                       // guards, after, update
 * fsm.state();                                              // "combat.engage"
 * fsm.send("hit");                                          // true: a state handled it
 *
 * StateMachine<Siege> siege = new StateMachine<>(SIEGE);    // a Machine (XState style)
 * siege.send("START");
 * siege.step(1 / 60.0);                                     // waits and when rules
 * }</pre>
 *
 * <ul>
 * <li>A {@link StatesDef} machine (the {@code 000} document): {@link #step} advances every
 * active state's clock, tests the guards outermost first and {@code after} (up to 8 hops), then
 * runs the updates; events go to the innermost active state first, the root last.</li>
 * <li>A {@link Machine} (XState's config, the {@code 003} document): {@link #step} ends the
 * waits that fall due within the step, each at its own time, then tests the {@code when}
 * rules, a child's before its parent's: the world's time rules, on this machine's own clock.</li>
 * </ul>
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

    /** Starts a machine (XState-style, or polled) with a fresh context from its factory; refused for a builder-style one or without a factory. */
    public StateMachine(Machine<C> machine) {
        this(machine, machine.newContext());
    }

    /**
     * Starts a machine over the given context: its initial states are entered now (their entry
     * actions or {@code enter(ctx, "")} run), and no change is reported.
     *
     * @param machine the machine to run; not {@code null}
     * @param context the game's object the machine reads and writes
     * @throws MachineException if the machine is builder-style: run it with {@code dev.enginestates.fsm.StateMachine}
     */
    public StateMachine(Machine<C> machine, C context) {
        this(machine, context, true);
    }

    /** Starts a polled table over {@code ctx}: the initial branch is entered now, {@code enter(ctx, "")} outermost first, no change told. */
    public StateMachine(StatesDef<C> def, C ctx) {
        this(Objects.requireNonNull(def, "definition").machine(), ctx, true);
    }

    private StateMachine(Machine<C> machine, C context, boolean start) {
        this.machine = Objects.requireNonNull(machine, "machine");
        this.chart = Access.chart(machine);
        StyleRuntime.of(chart).checkRunsOnPlainObject(chart);
        this.record = new PlainSelf(chart, context, this);
        this.cell = new MachineCell(record, this, CHANGE);
        if (start) {
            cell.start("start");
        }
    }

    /**
     * For tests: a polled machine put straight into a state, by path ({@code "combat.engage"}) or
     * a name no other state has (a compound state: its initial leaf), no code run, every clock at
     * 0 (set them with {@link #withTime}). Refused for a path that names no state or an ambiguous name.
     */
    public static <C> StateMachine<C> startIn(StatesDef<C> def, C ctx, String state) {
        return startIn(Objects.requireNonNull(def, "definition").machine(), ctx, state);
    }

    /**
     * For tests: a machine put straight into the given states (as a game sets a state by hand:
     * no actions run, a wait there starts from 0). A polled machine takes one state (its leaf, or
     * a compound state's initial leaf), with every clock at 0.
     *
     * @param states the states' paths, or names no other state has: one state, or (XState style)
     *               one per region of a parallel state (they must be able to be active together)
     * @throws MachineException if no state is given, a path names no state, a name is ambiguous, the states cannot be
     *                          active together, or a polled machine is given more than one; no code of the machine runs
     */
    public static <C> StateMachine<C> startIn(Machine<C> machine, C ctx, String... states) {
        StateMachine<C> m = new StateMachine<>(machine, ctx, false);
        m.cell.placeNamed("startIn", states);
        return m;
    }

    /**
     * For tests: a typed machine put straight into the states of constants of its state enum
     * ({@code more} for parallel regions), as {@link #startIn(Machine, Object, String...)}; a
     * constant of another enum is refused.
     */
    public static <C> StateMachine<C> startIn(Machine<C> machine, C ctx, Enum<?> state, Enum<?>... more) {
        String[] paths = new String[1 + more.length];
        Chart c = Access.chart(machine);
        paths[0] = c.path[Reads.stateOf(c, state, "startIn")];
        for (int i = 0; i < more.length; i++) {
            paths[i + 1] = c.path[Reads.stateOf(c, more[i], "startIn")];
        }
        return startIn(machine, ctx, paths);
    }

    /**
     * For tests: sets how long an active state (path or name; {@code ""}, the polled root's
     * total) has been active, finite and 0 or more; an XState-style wait is not moved. Refused,
     * changing nothing, for a state that is unknown or not active, or bad seconds.
     */
    public StateMachine<C> withTime(String state, double seconds) {
        cell.setSecondsIn("withTime", state, seconds);
        return this;
    }

    // ------------------------------------------------------------------ moving

    /**
     * Advances the machine by {@code dt} seconds, by its style's rules (see the class comment).
     *
     * @param dt the seconds since the last step, such as {@code 1 / 60.0}; 0 to 1e12 (the world's
     *           {@code StateWorld.MAX_STEP_SECONDS}, the most a checkpoint keeps)
     * @throws IllegalArgumentException if {@code dt} is negative, NaN, infinite or more than 1e12 (nothing changes)
     * @throws IllegalStateException if called from the machine's own guard, action or handler (nothing changes)
     * @throws UserCodeException if the game's code threw; the machine keeps a valid state
     */
    public void step(double dt) {
        cell.checkStep("step", dt);
        if (record.processing() != null) {
            throw cell.ownCode("step(" + dt + ")"); // the message is built only when refused: a step allocates nothing
        }
        cell.step(dt, StyleRuntime.WHOLE_STEP);
    }

    /**
     * Sends an event with no arguments; whether a state took it (polled: a state's {@code on}
     * named it; XState style: a transition, even one that only runs actions).
     *
     * @throws UnknownEventException if no state names the event (unless the machine accepts unknown events); nothing changes
     */
    public boolean send(String event) {
        return cell.send(Reads.eventId(chart, event), event, null, null);
    }

    /** Sends the event of a constant of a typed machine's event enum ({@code BELL}), allocation-free once warm; another enum's is refused. */
    public boolean send(Enum<?> event) {
        int id = Reads.eventOf(chart, event, "send");
        return cell.send(id, chart.eventObjects[id].type(), null, chart.eventObjects[id]);
    }

    /**
     * Sends a polled machine's event with the arguments its {@code on(event, handler)} receives, in
     * order; whether a state took it, as {@link #send(String)}.
     *
     * @throws MachineException for an XState-style machine given arguments, whose events carry fields: use
     *                          {@link #send(Event)} (as on an entity); nothing changes
     */
    public boolean send(String event, Object... args) {
        cell.runtime().checkArguments(chart, event, args);
        return cell.send(Reads.eventId(chart, event), event, args, null);
    }

    /** Sends an event with fields ({@code Event.of("hit", ...)}); a polled machine's handler receives it as its one argument. */
    public boolean send(Event event) {
        Objects.requireNonNull(event, "event");
        if (event.constant() != null) {
            Reads.eventOf(chart, event.constant(), "send"); // an event named by a constant of another enum is refused
        }
        return cell.send(Reads.eventId(chart, event.type()), event.type(), null, event);
    }

    /**
     * Forces a transition (a spawn, a reset). Polled: the name resolves from the active leaf like
     * a declared target ({@code "$back"} allowed), an active state is exited and entered again.
     * XState style: the state (a path, or a name no other state has) is set by hand, no actions run.
     *
     * @throws MachineException if the name names no state, or (XState style) is ambiguous; nothing changes
     * @throws IllegalStateException if called from the machine's own guard, action or handler; nothing changes
     */
    public void go(String name) {
        if (record.processing() != null) {
            throw cell.ownCode("go('" + name + "')"); // the message is built only when refused: a step allocates nothing
        }
        cell.go(name);
    }

    /** {@link #go(String)} to the state declared with a constant of the machine's state enum (refused, changing nothing, for another enum's). */
    public void go(Enum<?> state) {
        go(chart.path[Reads.stateOf(chart, state, "go")]);
    }

    // ------------------------------------------------------------------ reading

    @Override
    public String state() {
        return cell.state();
    }

    /** Every active state's path, outermost first (document order), without the root: a new list such as {@code ["combat", "combat.engage"]}. */
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

    /** Seconds stepped since the machine started (the polled root's {@code t}; the XState style's own clock). */
    public double totalTime() {
        return cell.secondsRun();
    }

    /** Whether a state is active, as the leaf or an ancestor, by name ({@code "engage"}) or path ({@code "combat.engage"}); an unknown one is refused. */
    public boolean is(String name) {
        return Reads.activeNamed(record, name, "is") >= 0;
    }

    /** Whether the state of a constant of the machine's state enum is active, as the leaf or an ancestor; allocation-free. */
    public boolean is(Enum<?> state) {
        return record.isActive(Reads.stateOf(chart, state, "is"));
    }

    /** Seconds spent in an active state, by name or path; 0 when it is not active; an unknown one is refused. */
    public double timeIn(String name) {
        int s = Reads.activeNamed(record, name, "timeIn");
        return s < 0 ? 0 : cell.secondsIn(s);
    }

    /** Seconds spent in the state of a constant of the machine's state enum; 0 when it is not active. */
    public double timeIn(Enum<?> state) {
        int s = Reads.stateOf(chart, state, "timeIn");
        return record.isActive(s) ? cell.secondsIn(s) : 0;
    }

    /** The active leaf's constant ({@code WATCH}; of parallel leaves, the first), {@code null} with none; refused for another enum. */
    public <S extends Enum<S>> S leaf(Class<S> states) {
        return Reads.leaf(record, states);
    }

    /**
     * Adds a listener of {@code "change"} (the one type), told after each change of the active
     * leaf, in the order added; one that throws is reported as a {@link UserCodeException} once
     * every other listener was told.
     */
    public StateMachine<C> on(String type, ChangeListener listener) {
        checkType(type);
        cell.addChangeListener(listener);
        return this;
    }

    /** Removes a listener added with {@link #on} (the same object); no effect when it is not there. */
    public StateMachine<C> off(String type, ChangeListener listener) {
        checkType(type);
        cell.removeChangeListener(listener);
        return this;
    }

    private void checkType(String type) {
        if (!"change".equals(type)) {
            throw new IllegalArgumentException("a state machine has one kind of listener, \"change\"; got \"" + type + "\"");
        }
    }

    /** The context, as {@link #context()} (the polled table's {@code fsm.ctx}). */
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

    /** Whether the state declared with a constant of the machine's state enum is active, as {@link #is(Enum)}. */
    public boolean matches(Enum<?> state) {
        return record.isActive(Reads.stateOf(chart, state, "matches"));
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

    /** The machine this instance runs; for a {@link StatesDef}, its {@link StatesDef#machine()}. */
    public Machine<C> machine() {
        return machine;
    }

    @Override
    public String toString() {
        return machine.id() + ": " + StateValue.describe(record) + (record.isDone() ? " (done)" : "");
    }

    /**
     * Adds a listener of this machine: its state changing (with what moved it), its waits starting
     * and ending (XState style), events no state took; told in the order added, after each call
     * that moved the machine. One that throws is reported as a {@link UserCodeException} once the
     * move is whole and every other listener was told.
     */
    public StateMachine<C> addListener(MachineListener<? super StateMachine<C>> listener) {
        cell.addListener(listener);
        return this;
    }

    /** Removes a listener added with {@link #addListener} (its first addition); {@code true} if it was there. */
    public boolean removeListener(MachineListener<?> listener) {
        return cell.removeListener(listener);
    }
}

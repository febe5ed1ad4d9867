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

    /**
     * Starts an XState-style machine with a fresh context from its factory.
     *
     * @param machine the machine to run; a polled one works too when it has a context factory
     * @throws MachineException if the machine has no context factory, or is builder-style
     */
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

    /**
     * Starts a polled machine over {@code ctx}: the initial branch is entered now, {@code enter(ctx, "")} outermost first, no change event.
     *
     * @param def the table to run; not {@code null}
     * @param ctx the game's object the machine reads and writes
     */
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
     * For tests: a polled machine put straight into a state (its leaf, or a compound state's
     * initial leaf) with no code run and every clock at 0; set clocks with {@link #withTime}.
     *
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
     * For tests: a machine put straight into the given states (as a game sets a state by hand:
     * no actions run, a wait there starts from 0). A polled machine takes one state (its leaf, or
     * a compound state's initial leaf), with every clock at 0.
     *
     * @param <C>     the context type
     * @param machine the XState-style or polled machine to run
     * @param ctx     the game's object the machine reads and writes
     * @param states  the states' paths, or names no other state has: one state, or (XState style)
     *                one per region of a parallel state (they must be able to be active together)
     * @return the machine, in those states
     * @throws MachineException if no state is given, a path names no state, a name is ambiguous, the states cannot be
     *                          active together, or a polled machine is given more than one; no code of the machine runs
     */
    public static <C> StateMachine<C> startIn(Machine<C> machine, C ctx, String... states) {
        StateMachine<C> m = new StateMachine<>(machine, ctx, false);
        m.cell.placeNamed("startIn", states);
        return m;
    }

    /**
     * For tests: a typed machine put straight into the states declared with constants of its
     * state enum (no actions run, a wait there starts from 0); see {@link #startIn(Machine, Object, String...)}.
     *
     * @param <C>     the context type
     * @param machine the typed machine to run
     * @param ctx     the game's object the machine reads and writes
     * @param state   the constant of a state to start in
     * @param more    the constants of further states, for parallel regions
     * @return the machine, in those states
     * @throws MachineException if a constant is not of the machine's state enum
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
     * For tests: sets how long an active state has been active ({@code ""} for the root's
     * total in the polled style). An XState-style wait is not moved.
     *
     * @param state   the active state's path or name, or {@code ""}
     * @param seconds how long it has been active, finite and 0 or more
     * @return this machine, for chaining
     * @throws MachineException if the name names no state, the state is not active, or the seconds are negative or not
     *                          finite; nothing changes
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
     * Sends an event with no arguments.
     *
     * @param event the event's type, such as {@code "hit"}
     * @return whether a state took it (in the polled style: a state's {@code on} named it;
     *         in the XState style: a transition, even one that only runs actions)
     * @throws UnknownEventException if no state names the event (unless the machine accepts unknown events); nothing changes
     */
    public boolean send(String event) {
        return cell.send(Reads.eventId(chart, event), event, null, null);
    }

    /**
     * Sends the event named by a constant of a typed machine's event enum. Allocation-free once warm.
     *
     * @param event a constant of the machine's event enum, such as {@code BELL}
     * @return whether a state took it (a transition, even one that only runs actions)
     * @throws MachineException if the constant is not of the machine's event enum; nothing changes
     */
    public boolean send(Enum<?> event) {
        int id = Reads.eventOf(chart, event, "send");
        return cell.send(id, chart.eventObjects[id].type(), null, chart.eventObjects[id]);
    }

    /**
     * Sends a polled machine's event with arguments, which its handlers receive.
     *
     * @param event the event's type, such as {@code "hit"}
     * @param args  the arguments an {@code on(event, handler)} handler receives, in order; none for
     *              an XState-style machine
     * @return whether a state took it, as for {@link #send(String)}
     * @throws UnknownEventException if no state names the event (unless the machine accepts unknown events); nothing changes
     * @throws MachineException for an XState-style machine given arguments, whose events carry fields: use
     *                          {@link #send(Event)} (as on an entity); nothing changes
     */
    public boolean send(String event, Object... args) {
        cell.runtime().checkArguments(chart, event, args);
        return cell.send(Reads.eventId(chart, event), event, args, null);
    }

    /**
     * Sends an event with fields. A polled machine's handler receives the event as its one argument.
     *
     * @param event the event, such as {@code Event.of("hit", ...)}; not {@code null}
     * @return whether a state took it
     * @throws UnknownEventException if no state names the event (unless the machine accepts unknown events); nothing changes
     */
    public boolean send(Event event) {
        Objects.requireNonNull(event, "event");
        if (event.constant() != null) {
            Reads.eventOf(chart, event.constant(), "send"); // an event named by a constant of another enum is refused
        }
        return cell.send(Reads.eventId(chart, event.type()), event.type(), null, event);
    }

    /**
     * Forces a transition (a spawn, a reset). In the polled style the name resolves from the
     * active leaf like a declared target ({@code "$back"} allowed), and an active state is exited
     * and entered again. In the XState style the state is set by hand: no actions run.
     *
     * @param name the state to go to: in the polled style, resolved as a target declared in the
     *             active leaf would be; in the XState style, a path, or a name no other state has
     * @throws MachineException if the name names no state, or (XState style) is ambiguous; nothing changes
     * @throws IllegalStateException if called from the machine's own guard, action or handler; nothing changes
     */
    public void go(String name) {
        if (record.processing() != null) {
            throw cell.ownCode("go('" + name + "')"); // the message is built only when refused: a step allocates nothing
        }
        cell.go(name);
    }

    /**
     * Sets a typed machine's state by hand to the state declared with a constant: no actions run.
     *
     * @param state a constant of the machine's state enum
     * @throws MachineException if the constant is not of the machine's state enum; nothing changes
     */
    public void go(Enum<?> state) {
        go(chart.path[Reads.stateOf(chart, state, "go")]);
    }

    // ------------------------------------------------------------------ reading

    /** The active leaf's path ({@code "combat.engage"}); several leaves of a parallel state are joined by {@code ", "}. */
    public String state() {
        return cell.state();
    }

    /**
     * Every active state's path, outermost first (document order), without the root.
     *
     * @return a new list of paths, such as {@code ["combat", "combat.engage"]}
     */
    public List<String> branch() {
        return StateValue.activePaths(record);
    }

    /**
     * The leaf before the last transition ({@code ""} at the start). For an XState-style
     * machine, the leaves before the last {@code send}, {@code step} or {@code go} that moved it
     * (several transitions chained in one count as one).
     */
    public String previous() {
        return cell.previous();
    }

    /** Seconds in the active leaf. */
    public double time() {
        return cell.time();
    }

    /**
     * Seconds left before the machine leaves on time: an XState-style wait's, or a polled
     * machine's innermost active {@code after}'s; 0 when none counts.
     */
    public double secondsLeft() {
        return cell.secondsLeft();
    }

    /**
     * Seconds since the machine started (the polled root's {@code t}; the XState style's own clock).
     *
     * @return the seconds stepped since the start
     */
    public double totalTime() {
        return cell.secondsRun();
    }

    /**
     * Whether a state is active, as the leaf or an ancestor, by name ({@code "engage"}) or path
     * ({@code "combat.engage"}).
     *
     * @param name a state's name or path
     * @return whether a state with that name or path is active
     * @throws MachineException if no state of the machine has that name or path
     */
    public boolean is(String name) {
        return Reads.activeNamed(record, name, "is") >= 0;
    }

    /**
     * Whether the state declared with a constant of the machine's state enum is active, as the
     * leaf or an ancestor. Allocation-free.
     *
     * @param state a constant of the machine's state enum
     * @return whether that state is active
     * @throws MachineException if the constant is not of the machine's state enum
     */
    public boolean is(Enum<?> state) {
        return record.isActive(Reads.stateOf(chart, state, "is"));
    }

    /**
     * Seconds spent in an active state, by name or path; 0 when it is not active.
     *
     * @param name a state's name or path
     * @return seconds since the state was entered, or 0
     * @throws MachineException if no state of the machine has that name or path
     */
    public double timeIn(String name) {
        int s = Reads.activeNamed(record, name, "timeIn");
        return s < 0 ? 0 : cell.secondsIn(s);
    }

    /**
     * Seconds spent in the state declared with a constant; 0 when it is not active.
     *
     * @param state a constant of the machine's state enum
     * @return seconds since the state was entered, or 0
     * @throws MachineException if the constant is not of the machine's state enum
     */
    public double timeIn(Enum<?> state) {
        int s = Reads.stateOf(chart, state, "timeIn");
        return record.isActive(s) ? cell.secondsIn(s) : 0;
    }

    /**
     * The constant of the active leaf (of several parallel leaves, the first in document order).
     *
     * @param <S>    the game's enum of states
     * @param states the machine's state enum
     * @return the leaf's constant, such as {@code WATCH}; {@code null} when no leaf is active
     * @throws MachineException if the machine's states are not named by {@code states}
     */
    public <S extends Enum<S>> S leaf(Class<S> states) {
        return Reads.leaf(record, states);
    }

    /**
     * Adds a listener; {@code type} must be {@code "change"}. Listeners run in the order added; one
     * that throws is reported as a {@link UserCodeException} once every other listener was told.
     *
     * @param type     {@code "change"}, the one kind of listener
     * @param listener called after each change of the active leaf; not {@code null}
     * @return this machine, for chaining
     * @throws IllegalArgumentException if {@code type} is not {@code "change"}
     */
    public StateMachine<C> on(String type, ChangeListener listener) {
        checkType(type);
        cell.addChangeListener(listener);
        return this;
    }

    /**
     * Removes a listener added with {@link #on}; no effect when it is not there.
     *
     * @param type     {@code "change"}, the one kind of listener
     * @param listener the listener to remove, the same object that was added
     * @return this machine, for chaining
     * @throws IllegalArgumentException if {@code type} is not {@code "change"}
     */
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

    /**
     * The context (the document's {@code fsm.ctx}).
     *
     * @return the game's object the machine runs on, as {@link #context()}
     */
    public C ctx() {
        return context();
    }

    /** The context. */
    @SuppressWarnings("unchecked")
    public C context() {
        return (C) record.contextObject();
    }

    @Override
    public String topState() {
        return StateValue.top(record);
    }

    /** The state value as XState writes it: a state's key, or nested maps for compound and parallel states. */
    public Object value() {
        return StateValue.of(record);
    }

    /**
     * Whether the state at a dotted path ({@code "patrol.watch"}; {@code ""} is the root) is active.
     *
     * @throws MachineException if the path names no state (with the closest path, when one is near)
     */
    public boolean matches(String path) {
        return StateValue.matches(record, Objects.requireNonNull(path, "path")); // one reading for every face
    }

    /**
     * Whether the state declared with a constant of the machine's state enum is active.
     *
     * @param state a constant of the machine's state enum
     * @return whether that state is active, as the leaf or an ancestor
     * @throws MachineException if the constant is not of the machine's state enum
     */
    public boolean matches(Enum<?> state) {
        return record.isActive(Reads.stateOf(chart, state, "matches"));
    }

    /** The paths of the active leaves, in document order. */
    public List<String> leaves() {
        return StateValue.leaves(record);
    }

    /** Whether a top-level final state was reached; a done machine takes no more events. */
    public boolean isDone() {
        return record.isDone();
    }

    @Override
    public String machineId() {
        return machine.id();
    }

    /**
     * The machine definition.
     *
     * @return the machine this instance runs; for a {@link StatesDef}, its {@link StatesDef#machine()}
     */
    public Machine<C> machine() {
        return machine;
    }

    @Override
    public String toString() {
        return machine.id() + ": " + StateValue.describe(record) + (record.isDone() ? " (done)" : "");
    }

    /**
     * Adds a listener that hears this machine: its state changing (with what moved it), its
     * waits starting and ending (XState style), events no state took. Listeners run in the
     * order added, after each call that moved the machine. A listener that throws is reported as a
     * {@link UserCodeException} once the move is whole and every other listener was told.
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
}

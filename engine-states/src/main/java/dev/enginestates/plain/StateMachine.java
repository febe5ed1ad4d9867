package dev.enginestates.plain;

import dev.enginestates.MachineListener;
import dev.enginestates.records.Access;
import dev.enginestates.declare.Event;
import dev.enginestates.Machine;
import dev.enginestates.declare.MachineException;
import dev.enginestates.MachineView;
import dev.enginestates.StatesDef;
import dev.enginestates.declare.UnknownEventException;
import dev.enginestates.declare.UserCodeException;
import dev.enginestates.algorithm.Interpreter;
import dev.enginestates.algorithm.PolledInterpreter;
import dev.enginestates.algorithm.TimeRules;
import dev.enginestates.chart.Chart;
import dev.enginestates.chart.EnumNames;
import dev.enginestates.chart.Names;
import dev.enginestates.declare.StateType;
import dev.enginestates.declare.UnknownEvents;
import dev.enginestates.records.MachineRecord;
import dev.enginestates.records.Reads;
import dev.enginestates.records.StateValue;

import java.util.ArrayList;
import java.util.Arrays;
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
        Access.register(new Access.RecordSide() {
            @Override
            public boolean owns(Object face) {
                return face instanceof StateMachine;
            }

            @Override
            public MachineRecord record(Object face) {
                return ((StateMachine<?>) face).record;
            }
        });
    }

    /** The XState-style interpreter (null for a polled machine), for its record's own code. */
    Interpreter interpreter() {
        return interpreter;
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

    private static final ChangeListener[] NO_LISTENERS = new ChangeListener[0];

    private final Machine<C> machine;
    private final Chart chart;
    private final MachineRecord record;
    private final Interpreter interpreter;
    private final PolledInterpreter polled;
    /** XState style: this machine's own clock, the sum of its steps. */
    private double clock;
    /** Calls into the machine so far (its start, steps, sends), which number the interpreter's moves. */
    private long calls;
    private ChangeListener[] listeners = NO_LISTENERS;
    private MachineListener<? super StateMachine<C>>[] heard = noListeners();
    /** What is moving the machine now, as {@link MachineListener#stateChanged} names it. */
    private String cause = "";
    /** The wait the machine listeners were last told of (XState style): its state, or -1, and start. */
    private int toldWait = -1;
    private double toldWaitStart;
    private int[] before = new int[8];

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
        if (chart.builder != null) {
            throw new MachineException(chart.machineId, "machine '" + chart.machineId + "' is builder-style (StateMachineBuilder);"
                    + " run it with dev.enginestates.fsm.StateMachine: new StateMachine<>(definition).initialize(ctx)");
        }
        this.record = new PlainSelf(chart, context, this);
        if (chart.polled != null) {
            this.polled = new PolledInterpreter();
            this.interpreter = null;
            polled.listener((r, to, from) -> changed(chart.path[to], from < 0 ? "" : chart.path[from]));
            if (start) {
                polled.start(record);
            }
        } else {
            this.polled = null;
            this.interpreter = new Interpreter();
            if (start) {
                interpreter.clock(0);
                interpreter.call(++calls);
                interpreter.start(record);
            }
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
        Chart c = m.chart;
        if (states.length == 0) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "': startIn needs at least one state; expected one of "
                    + m.statePaths());
        }
        if (c.polled != null && states.length > 1) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "' is polled: one branch is active at a time;"
                    + " startIn takes one state, got " + Arrays.toString(states));
        }
        int[] targets = new int[states.length];
        for (int i = 0; i < states.length; i++) {
            targets[i] = m.stateNamed(states[i], "startIn");
        }
        // the same rule as the ECS face's setState: a placement the interpreter could never reach is refused
        for (int i = 0; i < targets.length; i++) {
            for (int j = i + 1; j < targets.length; j++) {
                if (!c.canBeActiveTogether(targets[i], targets[j])) {
                    throw new MachineException(c.machineId, "machine '" + c.machineId + "': states '" + c.path[targets[i]] + "' and '"
                            + c.path[targets[j]] + "' cannot be active together; expected states in different regions of a parallel state");
                }
            }
        }
        if (m.polled != null) {
            m.polled.place(m.record, targets[0]);
        } else {
            m.interpreter.clock(0);
            m.interpreter.place(m.record, targets);
        }
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
        paths[0] = pathOf(machine, state, "startIn");
        for (int i = 0; i < more.length; i++) {
            paths[i + 1] = pathOf(machine, more[i], "startIn");
        }
        return startIn(machine, ctx, paths);
    }

    private static String pathOf(Machine<?> machine, Enum<?> state, String call) {
        Chart c = Access.chart(machine);
        int s = c.enumNames().state(Objects.requireNonNull(state, "state"));
        if (s < 0) {
            throw new MachineException(c.machineId, c.enumNames().stateProblem(c.machineId, state, call));
        }
        return c.path[s];
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
        if (record.processing() != null) {
            throw ownCode("withTime('" + state + "')"); // the message is built only when refused: a step allocates nothing
        }
        int s = Objects.requireNonNull(state, "state").isEmpty() ? 0 : stateNamed(state, "withTime");
        if (!record.isActive(s)) {
            throw new MachineException(chart.machineId, "machine '" + chart.machineId + "': withTime('" + state
                    + "') needs an active state; active: " + branch());
        }
        if (!(seconds >= 0) || Double.isInfinite(seconds)) {
            throw new MachineException(chart.machineId, "machine '" + chart.machineId + "': withTime needs finite seconds, 0 or more; got "
                    + seconds);
        }
        if (polled != null) {
            record.setClock(s, seconds);
        } else {
            record.markEntered(s, clock - seconds);
        }
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
        if (!(dt >= 0) || Double.isInfinite(dt)) {
            throw new IllegalArgumentException("machine '" + chart.machineId + "': step needs a finite number of seconds, 0 or more; got " + dt);
        }
        if (dt > TimeRules.MAX_SECONDS) {
            // the world's bound too: two steps of Double.MAX_VALUE would make the clocks Infinity, then NaN
            throw new IllegalArgumentException("machine '" + chart.machineId + "': step(" + dt + ") is longer than the longest step, "
                    + TimeRules.MAX_SECONDS + " s (StateWorld.MAX_STEP_SECONDS); expected at most that");
        }
        if (record.processing() != null) {
            throw ownCode("step(" + dt + ")"); // the message is built only when refused: a step allocates nothing
        }
        cause = "step";
        if (polled != null) {
            polled.step(record, dt);
            return;
        }
        double start = clock;
        clock += dt;
        interpreter.call(++calls); // every move of this step is one call
        snapshot();
        try {
            int waits = 0;
            double movedAt = start;
            // waits and sends to itself in due-time order, each at its own time; a wait before a send due with it
            while (waits < TimeRules.MAX_WAITS_PER_STEP && record.status() == MachineRecord.ACTIVE) {
                double send = record.nextSendDue();
                if (TimeRules.waitDue(record, clock) && record.waitDue() <= send) {
                    movedAt = Math.max(start, record.waitDue());
                    cause = "states.wait";
                    TimeRules.endWait(interpreter, record);
                } else if (send <= clock + TimeRules.TIME_TOLERANCE) {
                    movedAt = Math.max(start, send);
                    cause = record.sendEvent(0).type();
                    interpreter.clock(send);
                    interpreter.deliverSend(record);
                } else {
                    break;
                }
                waits++;
            }
            if (record.status() == MachineRecord.ACTIVE && !record.isHeld()) {
                int t = TimeRules.firstWhen(record);
                if (t >= 0) {
                    cause = "states.when";
                    interpreter.clock(movedAt);
                    interpreter.take(record, t, chart.whenEvent);
                }
            }
        } finally {
            interpreter.clock(clock);
            reportChange();
        }
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
        if (polled != null) {
            return sendPolled(event, null);
        }
        int id = eventId(event);
        return sendXState(id, id >= 0 && chart.isExact(id) ? chart.eventObjects[id] : Event.of(event));
    }

    /**
     * Sends the event named by a constant of a typed machine's event enum. Allocation-free once warm.
     *
     * @param event a constant of the machine's event enum, such as {@code BELL}
     * @return whether a state took it (a transition, even one that only runs actions)
     * @throws MachineException if the constant is not of the machine's event enum; nothing changes
     */
    public boolean send(Enum<?> event) {
        int id = eventOf(event, "send");
        return sendXState(id, chart.eventObjects[id]);
    }

    private int eventOf(Enum<?> event, String call) {
        int id = chart.enumNames().event(Objects.requireNonNull(event, "event"));
        if (id < 0) {
            throw new MachineException(chart.machineId, chart.enumNames().eventProblem(chart.machineId, event, call));
        }
        return id;
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
        if (polled == null) {
            if (args != null && args.length > 0) {
                throw new MachineException(chart.machineId, "machine '" + chart.machineId + "' is XState-style: its events carry named fields;"
                        + " send(Event.of(\"" + event + "\", ...)) instead of arguments");
            }
            return send(event);
        }
        return sendPolled(event, args);
    }

    /**
     * Sends to a polled machine. What moved the machine ({@link #cause}) is set only once the event is known and
     * the machine is not running its own code: a send it refuses leaves the move under way named by its own event.
     */
    private boolean sendPolled(String event, Object[] args) {
        int id = polledEventId(event);
        if (record.processing() == null) {
            cause = event;
        }
        return refused(polled.send(record, id, event, args), event);
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
            eventOf(event.constant(), "send"); // an event named by a constant of another enum is refused
        }
        if (polled != null) {
            return sendPolled(event.type(), new Object[] {event});
        }
        return sendXState(eventId(event.type()), event);
    }

    private boolean sendXState(int id, Event event) {
        if (record.processing() != null) {
            // from the machine's own code: the interpreter refuses it, before this call takes a snapshot or
            // reports, so the move under way is still told and remembered by the call that began it
            return interpreter.send(record, id, event);
        }
        snapshot();
        cause = event.type();
        boolean took;
        try {
            interpreter.clock(clock);
            interpreter.call(++calls);
            took = interpreter.send(record, id, event);
        } finally {
            reportChange();
        }
        return refused(took, event.type());
    }

    /** Tells the machine listeners of a send no state took; returns {@code took}. */
    private boolean refused(boolean took, String event) {
        if (!took && heard.length > 0) {
            for (MachineListener<? super StateMachine<C>> l : heard) {
                try {
                    l.eventRefused(this, event);
                } catch (Throwable e) {
                    failed(listenerFailed(state(), event, e));
                }
            }
            throwFailed();
        }
        return took;
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
            throw ownCode("go('" + name + "')"); // the message is built only when refused: a step allocates nothing
        }
        if (polled != null) {
            int s = PolledInterpreter.goTarget(record, name);
            if (s < 0) {
                throw new MachineException(chart.machineId, PolledInterpreter.goProblem(record, name));
            }
            if (s > 0) {
                cause = "go";
                polled.go(record, s);
            }
            return;
        }
        int s = stateNamed(name, "go");
        cause = "go";
        snapshot();
        try {
            interpreter.clock(clock);
            interpreter.place(record, new int[] {s});
        } finally {
            reportChange();
        }
    }

    /**
     * Sets a typed machine's state by hand to the state declared with a constant: no actions run.
     *
     * @param state a constant of the machine's state enum
     * @throws MachineException if the constant is not of the machine's state enum; nothing changes
     */
    public void go(Enum<?> state) {
        go(pathOf(machine, state, "go"));
    }

    // ------------------------------------------------------------------ reading

    /** The active leaf's path ({@code "combat.engage"}); several leaves of a parallel state are joined by {@code ", "}. */
    public String state() {
        int leaf = record.leaf();
        if (leaf < 0) {
            return "";
        }
        if (polled != null || !hasParallel()) {
            return chart.path[deepest()];
        }
        return String.join(", ", leaves());
    }

    /**
     * Every active state's path, outermost first (document order), without the root.
     *
     * @return a new list of paths, such as {@code ["combat", "combat.engage"]}
     */
    public List<String> branch() {
        int[] active = activeSorted();
        List<String> out = new ArrayList<>(active.length);
        for (int s : active) {
            if (s > 0) {
                out.add(chart.path[s]);
            }
        }
        return out;
    }

    /**
     * The leaf before the last transition ({@code ""} at the start). For an XState-style
     * machine, the leaves before the last {@code send}, {@code step} or {@code go} that moved it
     * (several transitions chained in one count as one).
     */
    public String previous() {
        if (polled != null) {
            return record.previousLeaf() < 0 ? "" : chart.path[record.previousLeaf()];
        }
        return leavesOf(previousConfig, previousCount);
    }

    /** Seconds in the active leaf. */
    public double time() {
        int leaf = record.leaf();
        return leaf < 0 ? 0 : secondsIn(polled != null ? leaf : deepest());
    }

    /**
     * Seconds left before the machine leaves on time: an XState-style wait's, or a polled
     * machine's innermost active {@code after}'s; 0 when none counts.
     */
    public double secondsLeft() {
        return Reads.secondsLeft(record, clock);
    }

    /**
     * Seconds since the machine started (the polled root's {@code t}; the XState style's own clock).
     *
     * @return the seconds stepped since the start
     */
    public double totalTime() {
        return polled != null ? record.clock(0) : clock;
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
        return activeNamed(name, "is") >= 0;
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
        return record.isActive(stateOf(state, "is"));
    }

    /**
     * Seconds spent in an active state, by name or path; 0 when it is not active.
     *
     * @param name a state's name or path
     * @return seconds since the state was entered, or 0
     * @throws MachineException if no state of the machine has that name or path
     */
    public double timeIn(String name) {
        int s = activeNamed(name, "timeIn");
        return s < 0 ? 0 : secondsIn(s);
    }

    /**
     * Seconds spent in the state declared with a constant; 0 when it is not active.
     *
     * @param state a constant of the machine's state enum
     * @return seconds since the state was entered, or 0
     * @throws MachineException if the constant is not of the machine's state enum
     */
    public double timeIn(Enum<?> state) {
        int s = stateOf(state, "timeIn");
        return record.isActive(s) ? secondsIn(s) : 0;
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
        EnumNames names = chart.enumNames();
        if (names.stateEnum() != states) {
            throw new MachineException(chart.machineId, "machine '" + chart.machineId + "' names its states by " + (names.typed()
                    ? names.stateEnum().getSimpleName() : "strings") + ", not by " + states.getSimpleName() + "; read its leaf with "
                    + (names.typed() ? "leaf(" + names.stateEnum().getSimpleName() + ".class)" : "state()"));
        }
        for (int s = 1; s < chart.size; s++) {
            if (record.isActive(s) && chart.isLeaf(s)) {
                return states.cast(chart.enumNames().constantOf(s));
            }
        }
        return null;
    }

    private int stateOf(Enum<?> state, String call) {
        int s = chart.enumNames().state(Objects.requireNonNull(state, "state"));
        if (s < 0) {
            throw new MachineException(chart.machineId, chart.enumNames().stateProblem(chart.machineId, state, call));
        }
        return s;
    }

    private double secondsIn(int s) {
        return polled != null ? record.clock(s) : clock - record.enteredAt(s);
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
        Objects.requireNonNull(listener, "listener");
        listeners = Arrays.copyOf(listeners, listeners.length + 1);
        listeners[listeners.length - 1] = listener;
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
        for (int i = 0; i < listeners.length; i++) {
            if (listeners[i] == listener) {
                ChangeListener[] next = new ChangeListener[listeners.length - 1];
                System.arraycopy(listeners, 0, next, 0, i);
                System.arraycopy(listeners, i + 1, next, i, listeners.length - i - 1);
                listeners = next;
                break;
            }
        }
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
        return record.isActive(stateOf(state, "matches"));
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

    // ------------------------------------------------------------------ helpers

    private int polledEventId(String type) {
        Objects.requireNonNull(type, "event");
        int id = chart.polled.eventId(type);
        if (id < 0 && chart.unknownEvents == UnknownEvents.REJECT) {
            throw new UnknownEventException(chart.machineId, type, chart.knownEvents(), Names.closest(type, chart.knownEvents()));
        }
        return id;
    }

    private int eventId(String type) {
        Objects.requireNonNull(type, "event type");
        int id = chart.eventId(type);
        if (id < 0 && chart.unknownEvents == UnknownEvents.REJECT) {
            throw new UnknownEventException(chart.machineId, type, chart.knownEvents(), Names.closest(type, chart.knownEvents()));
        }
        return id;
    }

    /** A state by path or, when unique, by name. */
    private int stateNamed(String name, String call) {
        Objects.requireNonNull(name, "state name");
        int s = chart.stateAt(name);
        if (s > 0 && chart.type[s] != StateType.HISTORY) {
            return s;
        }
        int found = -1;
        for (int i = 1; i < chart.size; i++) {
            if (chart.key[i].equals(name) && chart.type[i] != StateType.HISTORY) {
                if (found >= 0) {
                    throw new MachineException(chart.machineId, "machine '" + chart.machineId + "': " + call + "('" + name + "') is ambiguous: '"
                            + chart.path[found] + "' and '" + chart.path[i] + "'; give the path");
                }
                found = i;
            }
        }
        if (found < 0) {
            throw unknownState(name, call);
        }
        return found;
    }

    /** The active state with that name or path, or -1; throws when no state has it. */
    private int activeNamed(String name, String call) {
        int s = Reads.activeNamed(record, Objects.requireNonNull(name, "state name"));
        if (s == Reads.UNKNOWN) {
            throw unknownState(name, call);
        }
        return s;
    }

    private MachineException unknownState(String name, String call) {
        return new MachineException(chart.machineId, "machine '" + chart.machineId + "': " + call + "('" + name
                + "') names no state; expected one of " + statePaths() + StateValue.suggestion(chart, name));
    }

    /** The paths of the states that can be active (history states left out). */
    private List<String> statePaths() {
        List<String> names = new ArrayList<>();
        for (int i = 1; i < chart.size; i++) {
            if (chart.type[i] != StateType.HISTORY) {
                names.add(chart.path[i]);
            }
        }
        return names;
    }

    /** The deepest active state (an XState-style machine without parallel states has one branch). */
    private int deepest() {
        return Math.max(0, Reads.deepest(record));
    }

    private boolean hasParallel() {
        for (int i = 0; i < record.activeCount(); i++) {
            if (chart.type[record.activeAt(i)] == StateType.PARALLEL) {
                return true;
            }
        }
        return false;
    }

    private int[] activeSorted() {
        int[] a = new int[record.activeCount()];
        for (int i = 0; i < a.length; i++) {
            a[i] = record.activeAt(i);
        }
        Arrays.sort(a);
        return a;
    }

    // XState style: a change is seen by comparing the configuration before and after a macrostep
    private int beforeCount;
    private int[] previousConfig = new int[0];
    private int previousCount;

    private long entriesBefore;

    private void snapshot() {
        entriesBefore = record.entries();
        int n = record.activeCount();
        if (before.length < n) {
            before = new int[Math.max(n, before.length * 2)];
        }
        for (int i = 0; i < n; i++) {
            before[i] = record.activeAt(i);
        }
        beforeCount = n;
    }

    private void reportChange() {
        int started = heard.length > 0 ? endedWait() : -1;
        if (record.entries() != entriesBefore) {
            // keep the configuration before the change; previous() names it when asked
            int[] t = previousConfig;
            previousConfig = before;
            previousCount = beforeCount;
            before = t.length >= previousConfig.length ? t : new int[previousConfig.length];
            if (listeners.length > 0 || heard.length > 0) {
                tell(state(), leavesOf(previousConfig, previousCount));
            }
        } // else nothing was entered: no transition (a targetless one only ran actions)
        if (started >= 0) {
            for (MachineListener<? super StateMachine<C>> l : heard) {
                try {
                    l.waitStarted(this, chart.path[started], record.waitSeconds());
                } catch (Throwable e) {
                    failed(listenerFailed(state(), cause, e));
                }
            }
        }
        throwFailed();
    }

    private String leavesOf(int[] config, int n) {
        int[] sorted = Arrays.copyOf(config, n);
        Arrays.sort(sorted);
        StringBuilder sb = new StringBuilder();
        for (int s : sorted) {
            if (chart.isLeaf(s)) {
                sb.append(sb.length() > 0 ? ", " : "").append(chart.path[s]);
            }
        }
        return sb.toString();
    }

    private void changed(String to, String from) {
        tell(to, from);
        throwFailed();
    }

    /** Tells every listener of a change; a listener that throws is kept for {@link #throwFailed} and the others are still told. */
    private void tell(String to, String from) {
        ChangeListener[] ls = listeners;
        for (ChangeListener l : ls) {
            try {
                l.changed(to, from);
            } catch (Throwable e) {
                failed(new UserCodeException(chart.machineId, to, "change", "a change listener", e));
            }
        }
        if (!to.equals(from)) {
            for (MachineListener<? super StateMachine<C>> l : heard) {
                try {
                    l.stateChanged(this, from, to, cause);
                } catch (Throwable e) {
                    failed(listenerFailed(to, cause, e));
                }
            }
        }
    }

    /** The first listener failure of the move being told; later ones are added to it as suppressed. */
    private UserCodeException listenerFailure;

    private void failed(UserCodeException e) {
        if (listenerFailure == null) {
            listenerFailure = e;
        } else {
            listenerFailure.addSuppressed(e);
        }
    }

    /** Throws the listener failures of the move once every listener was told. */
    private void throwFailed() {
        UserCodeException e = listenerFailure;
        if (e != null) {
            listenerFailure = null;
            throw e;
        }
    }

    /**
     * Tells the machine listeners of a wait that ended since they were last told (XState style),
     * before the state change is told; returns the state of a wait that started, told after it, or -1.
     */
    private int endedWait() {
        int wait = record.waitState();
        double start = record.waitStart();
        if (wait == toldWait && (wait < 0 || start == toldWaitStart)) {
            return -1;
        }
        int before = toldWait;
        toldWait = wait;
        toldWaitStart = start;
        if (before >= 0) {
            for (MachineListener<? super StateMachine<C>> l : heard) {
                try {
                    l.waitEnded(this, chart.path[before], "states.wait".equals(cause));
                } catch (Throwable e) {
                    failed(listenerFailed(state(), cause, e));
                }
            }
        }
        return wait;
    }

    /**
     * The refusal of a call that would move or re-time the machine from its own guard, action or handler:
     * the interpreter is part-way through a pass over the record, so the call would run a second
     * pass inside the first (a step inside an action moved the clock under it). Nothing changes.
     */
    private IllegalStateException ownCode(String call) {
        String busy = record.processing();
        return new IllegalStateException("machine '" + chart.machineId + "' is running its own code (processing '" + busy + "') in state '"
                + state() + "' and was asked to " + call + "; a machine's code moves it by a transition: "
                + (chart.polled != null ? "return a state name from the update or handler" : "take a transition (an event raised, or a target)"));
    }

    private UserCodeException listenerFailed(String state, String event, Throwable e) {
        return new UserCodeException(chart.machineId, state, event, "a listener", e);
    }

    @SuppressWarnings("unchecked")
    private static <C> MachineListener<? super StateMachine<C>>[] noListeners() {
        return (MachineListener<? super StateMachine<C>>[]) new MachineListener<?>[0];
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
        Objects.requireNonNull(listener, "listener");
        if (heard.length == 0) {
            toldWait = record.waitState();
            toldWaitStart = record.waitStart();
        }
        heard = Arrays.copyOf(heard, heard.length + 1);
        heard[heard.length - 1] = listener;
        return this;
    }

    /**
     * Removes a listener added with {@link #addListener} (its first addition).
     *
     * @param listener the same object that was added
     * @return {@code true} if it was there
     */
    public boolean removeListener(MachineListener<?> listener) {
        for (int i = 0; i < heard.length; i++) {
            if (heard[i] == listener) {
                MachineListener<? super StateMachine<C>>[] next = Arrays.copyOf(heard, heard.length - 1);
                System.arraycopy(heard, i + 1, next, i, heard.length - i - 1);
                heard = next;
                return true;
            }
        }
        return false;
    }
}

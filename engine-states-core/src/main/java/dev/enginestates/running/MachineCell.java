package dev.enginestates.running;

import dev.enginestates.MachineListener;
import dev.enginestates.algorithm.Scratch;
import dev.enginestates.algorithm.StyleRuntime;
import dev.enginestates.algorithm.TimeRules;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.StateType;
import dev.enginestates.declare.UserCodeException;
import dev.enginestates.records.InternalQueue;
import dev.enginestates.records.MachineRecord;
import dev.enginestates.records.Reads;
import dev.enginestates.records.StateValue;

import java.util.Arrays;
import java.util.Objects;

/**
 * One running machine on a plain object, whatever its style: the record, the style's
 * {@link StyleRuntime}, one {@link Scratch}, the face's own clock (the sum of its steps), the
 * listeners and how their failures are reported. It calls only the runtime contract; the faces
 * ({@code plain.StateMachine}, {@code fsm.StateMachine}) check their arguments and call it.
 *
 * <p>A change is told once: each call into the machine compares the active states before and
 * after its move, and a runtime that tells each transition as it happens (the polled style's)
 * moves that baseline on as it tells, so the comparison finds nothing more to tell. Listeners
 * are told once the record is whole; one that throws is kept, the others are still told, then
 * the first failure is thrown with the later ones suppressed.
 *
 * <p>Not thread-safe: a cell belongs to one thread at a time. Moves allocate nothing once warm.
 */
public final class MachineCell {
    /** How a face calls one of its own change listeners ({@code (to, from)}), whose type is the face's. */
    @FunctionalInterface
    public interface ChangeCall {
        /** Tells {@code listener} the active leaf changed from {@code from} to {@code to}. */
        void changed(Object listener, String to, String from);
    }

    private static final Object[] NO_CHANGE_LISTENERS = {};
    /** No states: what a cell's copies of configurations start as, made to measure when first needed (a step keeps none). */
    private static final int[] NO_STATES = {};
    private static final MachineListener<?>[] NO_LISTENERS = {};

    private final Chart chart;
    private final MachineRecord record;
    private final StyleRuntime runtime;
    private final Scratch scratch = new Scratch();
    /** What listeners are told about: the face. */
    private final Object face;
    private final ChangeCall changeCall;
    /** The face's own clock, the sum of its steps. */
    private double clock;
    /** Calls into the machine so far (its start, steps, sends), which number the interpreter's moves. */
    private long calls;
    private Object[] changeListeners = NO_CHANGE_LISTENERS;
    private MachineListener<?>[] heard = NO_LISTENERS;
    /** What is moving the machine now, as {@link MachineListener#stateChanged} names it. */
    private String cause = "";
    /** The wait the machine listeners were last told of: its state, or -1, and start. */
    private int toldWait = -1;
    private double toldWaitStart;
    /** The active states when the call began (or when a change was last told), and the record's entries then. */
    private int[] before = NO_STATES;
    private int beforeCount;
    /** Whether a step needs no comparison: the runtime polls, the record keeps its previous leaf, nobody listens. */
    private boolean quiet;
    /** Whether the last {@link #snapshot} copied the configuration (someone needs what it was). */
    private boolean keepsBefore;
    private long entriesBefore;
    /** The active states before the last change the comparison found: what {@link #previous()} names where the record keeps no previous leaf. */
    private int[] previousConfig = NO_STATES;
    private int previousCount;
    /** The first listener failure of the move being told; later ones are added to it as suppressed. */
    private UserCodeException listenerFailure;

    /**
     * A cell over a record the face made.
     *
     * @param face       what listeners are told about
     * @param changeCall how the face's change listeners are called; {@code null} when it has none
     */
    public MachineCell(MachineRecord record, Object face, ChangeCall changeCall) {
        this.record = Objects.requireNonNull(record, "record");
        this.chart = record.chart();
        this.runtime = StyleRuntime.of(chart);
        this.face = face;
        this.changeCall = changeCall;
        scratch.listen((r, to, from) -> transitionTold(to, from));
        listenersChanged();
    }

    /** Whether a step may skip the comparison, known again whenever a listener comes or goes. */
    private void listenersChanged() {
        quiet = runtime.polls() && chart.recordsPrevious && heard.length == 0 && changeListeners.length == 0;
    }

    public MachineRecord record() {
        return record;
    }

    public Chart chart() {
        return chart;
    }

    public StyleRuntime runtime() {
        return runtime;
    }

    /** The face's own clock: the seconds stepped since the start. */
    public double clock() {
        return clock;
    }

    /** The queue of the machine's own raises and sends to itself (the XState-style interpreter), or {@code null} before its first move. */
    public InternalQueue queue() {
        return scratch.xstateIfMade();
    }

    // ------------------------------------------------------------------ moves

    /** Starts the record as its style starts one; {@code cause} names the move to listeners. */
    public void start(String cause) {
        begin(cause);
        try {
            runtime.start(scratch.at(clock, ++calls), record);
        } finally {
            reportChange();
        }
    }

    /**
     * Puts the record in the states named by path or unique name, by hand: no code run, nothing
     * told (a test's start). The states must be able to be active together, as the ECS face's
     * setState requires: a placement the interpreter could never reach is refused.
     *
     * @throws MachineException if no state is given, a name names no state or is ambiguous, or the states cannot be
     *                          active together; nothing changes
     */
    public void placeNamed(String call, String[] states) {
        if (states.length == 0) {
            throw new MachineException(chart.machineId, "machine '" + chart.machineId + "': " + call + " needs at least one state;"
                    + " expected one of " + Reads.statePaths(chart));
        }
        runtime.checkPlace(chart, call, states);
        int[] targets = new int[states.length];
        for (int i = 0; i < states.length; i++) {
            targets[i] = Reads.stateNamed(chart, states[i], call);
        }
        for (int i = 0; i < targets.length; i++) {
            for (int j = i + 1; j < targets.length; j++) {
                if (!chart.canBeActiveTogether(targets[i], targets[j])) {
                    throw new MachineException(chart.machineId, "machine '" + chart.machineId + "': states '" + chart.path[targets[i]]
                            + "' and '" + chart.path[targets[j]] + "' cannot be active together; expected states in different regions"
                            + " of a parallel state");
                }
            }
        }
        runtime.place(scratch.at(clock, calls), record, targets);
    }

    /**
     * Moves the machine by {@code dt} seconds in the given phases ({@link StyleRuntime#WHOLE_STEP},
     * or the builder style's halves): a style that polls steps; for one that does not, the face
     * ends the waits and delivers the sends to itself that fall due within the step, each at its
     * own time, then tests the {@code when} rules (the world's time rules, on this cell's clock).
     * The caller has checked {@code dt}.
     */
    public void step(double dt, int phases) {
        if (quiet) {
            // nobody listens and the record keeps its own previous leaf: nothing to compare or tell,
            // so the step is the runtime's alone (the polled and builder styles' per-tick path; kept
            // small so that it inlines into the face)
            if ((phases & StyleRuntime.ADVANCE) != 0) {
                clock += dt;
            }
            if (runtime.stepsIn(phases)) {
                runtime.step(scratch, record, dt, phases); // a polling runtime reads no clock or call number from its scratch
            }
        } else {
            stepTold(dt, phases);
        }
    }

    /** A step whose changes are compared and told (someone listens, or previous() needs the configuration before it). */
    private void stepTold(double dt, int phases) {
        begin(runtime.stepCause());
        try {
            if (runtime.polls()) {
                if ((phases & StyleRuntime.ADVANCE) != 0) {
                    clock += dt;
                }
                if (runtime.stepsIn(phases)) {
                    runtime.step(scratch.at(clock, ++calls), record, dt, phases);
                }
            } else {
                runDue(dt);
            }
        } finally {
            reportChange();
        }
    }

    private void runDue(double dt) {
        double start = clock;
        clock += dt;
        long call = ++calls; // every move of this step is one call
        try {
            int waits = 0;
            double movedAt = start;
            // waits and sends to itself in due-time order, each at its own time; a wait before a send due with it
            while (waits < TimeRules.MAX_WAITS_PER_STEP && record.status() == MachineRecord.ACTIVE) {
                double send = record.nextSendDue();
                if (TimeRules.waitDue(record, clock) && record.waitDue() <= send) {
                    movedAt = Math.max(start, record.waitDue());
                    cause = "states.wait";
                    TimeRules.endWait(scratch.at(record.waitDue(), call).xstate(), record);
                } else if (send <= clock + TimeRules.TIME_TOLERANCE) {
                    movedAt = Math.max(start, send);
                    cause = record.sendEvent(0).type();
                    scratch.at(send, call).xstate().deliverSend(record);
                } else {
                    break;
                }
                waits++;
            }
            if (record.status() == MachineRecord.ACTIVE && !record.isHeld()) {
                int t = TimeRules.firstWhen(record);
                if (t >= 0) {
                    cause = "states.when";
                    scratch.at(movedAt, call).xstate().take(record, t, chart.whenEvent);
                }
            }
        } finally {
            scratch.at(clock, call).xstate(); // the interpreter's clock is the machine's again
        }
    }

    /**
     * A whole step from outside the machine ({@code call}, as the face names it): {@code dt}
     * checked, refused from the machine's own code, then taken.
     *
     * @throws IllegalStateException if called from the machine's own code; nothing changes
     */
    public void stepWhole(String call, double dt) {
        checkStep(call, dt);
        if (record.processing() != null) {
            throw ownCode(call + "(" + dt + ")"); // the message is built only when refused: a step allocates nothing
        }
        step(dt, StyleRuntime.WHOLE_STEP);
    }

    /** Sends an event by its type, with the arguments a handler receives where the style takes them ({@code null}: none). */
    public boolean send(String type, Object[] args) {
        runtime.checkArguments(chart, type, args);
        return send(Reads.eventId(chart, type), type, args, null);
    }

    /** Sends the event of a constant of the machine's event enum (the chart's own event object: nothing allocated). */
    public boolean send(Enum<?> event) {
        int id = Reads.eventOf(chart, event, "send");
        return send(id, chart.eventObjects[id].type(), null, chart.eventObjects[id]);
    }

    /** Sends an event with fields; one named by a constant of another enum is refused. */
    public boolean send(Event event) {
        Objects.requireNonNull(event, "event");
        if (event.constant() != null) {
            Reads.eventOf(chart, event.constant(), "send");
        }
        return send(Reads.eventId(chart, event.type()), event.type(), null, event);
    }

    /**
     * Sends an event; the face has checked it.
     *
     * @param eventId {@link Chart#styleEventId}'s id, -1 for one no state names
     * @param args    the handler's arguments where the style takes them, or {@code null}
     * @param event   the event with its fields, or {@code null} where the face has only a name
     * @return whether a state took it
     */
    public boolean send(int eventId, String type, Object[] args, Event event) {
        if (record.processing() != null) {
            // from the machine's own code: the runtime refuses it before anything changes, and the move under
            // way keeps its own cause and is told by the call that began it
            return refused(runtime.send(scratch, record, eventId, type, args, event), type);
        }
        begin(type);
        boolean took;
        try {
            took = runtime.send(scratch.at(clock, ++calls), record, eventId, type, args, event);
        } finally {
            reportChange();
        }
        return refused(took, type);
    }

    /** Whether a send of the event by its type (with the handler's arguments, or {@code null}) would now be taken; see {@link StyleRuntime#can}. */
    public boolean can(String type, Object[] args) {
        runtime.checkTakesEvents(chart);
        runtime.checkArguments(chart, type, args);
        return can(Reads.eventId(chart, type), type, args, null);
    }

    /** Whether a send of the constant's event would now be taken. */
    public boolean can(Enum<?> event) {
        runtime.checkTakesEvents(chart);
        int id = Reads.eventOf(chart, event, "can");
        return can(id, chart.eventObjects[id].type(), null, chart.eventObjects[id]);
    }

    /** Whether a send of the event with its fields would now be taken; one named by a constant of another enum is refused. */
    public boolean can(Event event) {
        Objects.requireNonNull(event, "event");
        runtime.checkTakesEvents(chart);
        if (event.constant() != null) {
            Reads.eventOf(chart, event.constant(), "can");
        }
        return can(Reads.eventId(chart, event.type()), event.type(), null, event);
    }

    /** {@link StyleRuntime#can} on this cell's record; the face has checked the event. Nothing changes, nothing is told. */
    public boolean can(int eventId, String type, Object[] args, Event event) {
        // from the machine's own code the runtime refuses it, as a send: the scratch keeps the clock of the move under way
        return runtime.can(record.processing() != null ? scratch : scratch.at(clock, calls), record, eventId, type, args, event);
    }

    /** {@link StyleRuntime#permittedEvents(Scratch, MachineRecord)} on this cell's record. */
    public java.util.List<String> permittedEvents() {
        return runtime.permittedEvents(record.processing() != null ? scratch : scratch.at(clock, calls), record);
    }

    /** {@link StyleRuntime#permittedEvents(Scratch, MachineRecord, Class)} on this cell's record. */
    public <E extends Enum<E>> java.util.Set<E> permittedEvents(Class<E> events) {
        return runtime.permittedEvents(record.processing() != null ? scratch : scratch.at(clock, calls), record, events);
    }

    /** A forced move by {@code call} ({@code "transitionTo"}) to the state named {@code name}, told as {@code "go"}. */
    public void force(String call, String name) {
        int s = runtime.forceTarget(record, call, name);
        if (s > 0) {
            begin("go");
            try {
                runtime.force(scratch.at(clock, calls), record, s);
            } finally {
                reportChange();
            }
        }
    }

    /**
     * A plain object's {@code go(name)}: see {@link StyleRuntime#goTarget}.
     *
     * @throws IllegalStateException if called from the machine's own code; nothing changes
     */
    public void go(String name) {
        if (record.processing() != null) {
            throw ownCode("go('" + name + "')"); // the message is built only when refused: a go allocates nothing
        }
        int s = runtime.goTarget(record, name);
        if (s > 0) {
            begin("go");
            try {
                runtime.go(scratch.at(clock, calls), record, s);
            } finally {
                reportChange();
            }
        }
    }

    /**
     * Sets how long an active state, by path or name ({@code ""}: the root), has been active (a
     * test's fixture), as {@code call} ({@code "withTime"}) asked.
     *
     * @throws MachineException if the name names no state, the state is not active, or the seconds are negative or not
     *                          finite; nothing changes
     * @throws IllegalStateException if called from the machine's own code; nothing changes
     */
    public void setSecondsIn(String call, String state, double seconds) {
        if (record.processing() != null) {
            throw ownCode(call + "('" + state + "')");
        }
        int s = Objects.requireNonNull(state, "state").isEmpty() ? 0 : Reads.stateNamed(chart, state, call);
        if (!record.isActive(s)) {
            throw new MachineException(chart.machineId, "machine '" + chart.machineId + "': " + call + "('" + state
                    + "') needs an active state; active: " + StateValue.activePaths(record));
        }
        if (!(seconds >= 0) || Double.isInfinite(seconds)) {
            throw new MachineException(chart.machineId, "machine '" + chart.machineId + "': " + call + " needs finite seconds, 0 or more;"
                    + " got " + seconds);
        }
        runtime.setSecondsIn(record, s, seconds, clock);
    }

    /**
     * Refuses {@code call}'s step of {@code dt} seconds when it is negative, NaN, infinite or
     * longer than the longest step (the world's bound, the most a checkpoint keeps). Nothing changes.
     */
    public void checkStep(String call, double dt) {
        if (!(dt >= 0) || dt > TimeRules.MAX_SECONDS) {
            throw stepRefused(call, dt, Double.toString(dt));
        }
    }

    /** {@link #checkStep(String, double)} for a face that counts in float, whose number the message shows as given. */
    public void checkStep(String call, float dt) {
        if (!(dt >= 0f) || dt > TimeRules.MAX_SECONDS) {
            throw stepRefused(call, dt, Float.toString(dt));
        }
    }

    private IllegalArgumentException stepRefused(String call, double dt, String shown) {
        String where = "machine '" + chart.machineId + "' in '" + state() + "': ";
        if (!(dt >= 0) || Double.isInfinite(dt)) {
            return new IllegalArgumentException(where + call + " needs a finite number of seconds, 0 or more; got " + shown);
        }
        // two steps of Double.MAX_VALUE would make the clocks Infinity, then NaN
        return new IllegalArgumentException(where + call + "(" + shown + ") is longer than the longest step, " + TimeRules.MAX_SECONDS
                + " s (StateWorld.MAX_STEP_SECONDS); expected at most that");
    }

    // ------------------------------------------------------------------ reads

    /** The active leaf's path; several leaves of a parallel state joined by {@code ", "}; {@code ""} before a start. */
    public String state() {
        if (record.leaf() < 0) {
            return "";
        }
        if (!hasParallel()) {
            return chart.path[deepest()];
        }
        return String.join(", ", StateValue.leaves(record));
    }

    /**
     * The leaf before the last transition, where the record keeps it; else the leaves before the
     * last call that moved the machine (several transitions chained in one count as one); {@code ""} before any.
     */
    public String previous() {
        if (chart.recordsPrevious) {
            int p = runtime.previousLeaf(record);
            return p > 0 ? chart.path[p] : "";
        }
        return leavesOf(previousConfig, previousCount);
    }

    /** Seconds in active state {@code s}. */
    public double secondsIn(int s) {
        return runtime.secondsIn(record, s, clock);
    }

    /** Whether a state, by name or path, is active (as the leaf or an ancestor); refused for one the machine lacks. */
    public boolean is(String name) {
        return Reads.activeNamed(record, name, "is") >= 0;
    }

    /** Whether the state of a constant of the machine's state enum is active; {@code call} names the read for a refusal. */
    public boolean is(Enum<?> state, String call) {
        return record.isActive(Reads.stateOf(chart, state, call));
    }

    /** Seconds in an active state by name or path, 0 when it is not active; refused for one the machine lacks. */
    public double timeIn(String name) {
        int s = Reads.activeNamed(record, name, "timeIn");
        return s < 0 ? 0 : secondsIn(s);
    }

    /** Seconds in the state of a constant, 0 when it is not active. */
    public double timeIn(Enum<?> state) {
        int s = Reads.stateOf(chart, state, "timeIn");
        return record.isActive(s) ? secondsIn(s) : 0;
    }

    /** Seconds in the active leaf (the deepest active state); 0 before a start. */
    public double time() {
        return record.leaf() < 0 ? 0 : secondsIn(deepest());
    }

    /** Seconds before the machine leaves on time, 0 when nothing counts. */
    public double secondsLeft() {
        return runtime.secondsLeft(record, clock);
    }

    /** Seconds since the start: the face's clock, or the style's own whole time. */
    public double secondsRun() {
        return runtime.secondsRun(record, clock);
    }

    /**
     * The refusal of a call that would move or re-time the machine from its own code: the
     * runtime is part-way through a pass over the record. Built only when refused, so a check
     * that passes allocates nothing.
     */
    public IllegalStateException ownCode(String call) {
        return new IllegalStateException("machine '" + chart.machineId + "' is running its own code (processing '" + record.processing()
                + "') in state '" + state() + "' and was asked to " + call + "; a machine's code moves it by a transition: "
                + runtime.ownMoveAdvice());
    }

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

    // ------------------------------------------------------------------ listeners

    /** Adds a machine listener; see the faces' {@code addListener}. */
    public void addListener(MachineListener<?> listener) {
        Objects.requireNonNull(listener, "listener");
        if (heard.length == 0) {
            toldWait = record.waitState();
            toldWaitStart = record.waitStart();
        }
        heard = append(heard, listener);
        listenersChanged();
    }

    /** Removes a machine listener's first addition; whether it was there. */
    public boolean removeListener(MachineListener<?> listener) {
        int i = indexOf(heard, listener);
        if (i >= 0) {
            heard = removeAt(heard, i);
            listenersChanged();
        }
        return i >= 0;
    }

    /**
     * Adds one of the face's change listeners, called through the face's {@link ChangeCall}.
     *
     * @throws IllegalArgumentException if {@code type} is not {@code "change"}, the one kind
     */
    public void addChangeListener(String type, Object listener) {
        checkChangeType(type);
        changeListeners = append(changeListeners, Objects.requireNonNull(listener, "listener"));
        listenersChanged();
    }

    /** Removes a change listener's first addition; no effect when it is not there. */
    public void removeChangeListener(String type, Object listener) {
        checkChangeType(type);
        int i = indexOf(changeListeners, listener);
        if (i >= 0) {
            changeListeners = removeAt(changeListeners, i);
            listenersChanged();
        }
    }

    private static void checkChangeType(String type) {
        if (!"change".equals(type)) {
            throw new IllegalArgumentException("a state machine has one kind of listener, \"change\"; got \"" + type + "\"");
        }
    }

    private static <T> T[] append(T[] all, T one) {
        T[] next = Arrays.copyOf(all, all.length + 1);
        next[all.length] = one;
        return next;
    }

    private static int indexOf(Object[] all, Object one) {
        for (int i = 0; i < all.length; i++) {
            if (all[i] == one) {
                return i;
            }
        }
        return -1;
    }

    private static <T> T[] removeAt(T[] all, int i) {
        T[] next = Arrays.copyOf(all, all.length - 1);
        System.arraycopy(all, i + 1, next, i, all.length - i - 1);
        return next;
    }

    // ------------------------------------------------------------------ telling

    /** The start of a call that may move the machine: what moves it, and the active states to compare with. */
    private void begin(String cause) {
        this.cause = cause;
        snapshot();
    }

    private void snapshot() {
        entriesBefore = record.entries();
        // the configuration is copied only for whom it serves: previous() where the record keeps no
        // previous leaf, and listeners told "from"; an update nobody listens to copies nothing
        keepsBefore = !chart.recordsPrevious || changeListeners.length > 0 || heard.length > 0;
        if (!keepsBefore) {
            return;
        }
        int n = record.activeCount();
        if (before.length < n) {
            before = new int[Math.max(n, before.length * 2)];
        }
        for (int i = 0; i < n; i++) {
            before[i] = record.activeAt(i);
        }
        beforeCount = n;
    }

    /** A transition the runtime told as it happened (the polled style's): told now, and the comparison moves on past it. */
    private void transitionTold(int to, int from) {
        if (quiet) {
            return; // nobody to tell, and no comparison to move on: the call that moved keeps none
        }
        tell(chart.path[to], from < 0 ? "" : chart.path[from]);
        snapshot();
        throwFailed();
    }

    /** The end of a call: tells the listeners what changed since {@link #begin} and throws their failures. */
    private void reportChange() {
        int started = heard.length > 0 ? endedWait() : -1;
        if (record.entries() != entriesBefore && keepsBefore) {
            // keep the configuration before the change; previous() names it when asked
            int[] t = previousConfig;
            previousConfig = before;
            previousCount = beforeCount;
            before = t.length >= previousConfig.length ? t : new int[previousConfig.length];
            if (changeListeners.length > 0 || heard.length > 0) {
                tell(state(), leavesOf(previousConfig, previousCount));
            }
        } // else nothing was entered: no transition (a targetless one only ran actions)
        if (started >= 0) {
            for (MachineListener<?> l : heard) {
                try {
                    listener(l).waitStarted(face, chart.path[started], record.waitSeconds());
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

    /** Tells every listener of a change; a listener that throws is kept for {@link #throwFailed} and the others are still told. */
    private void tell(String to, String from) {
        for (Object l : changeListeners) {
            try {
                changeCall.changed(l, to, from);
            } catch (Throwable e) {
                failed(new UserCodeException(chart.machineId, to, "change", "a change listener", e));
            }
        }
        if (heard.length > 0 && !to.equals(from)) {
            for (MachineListener<?> l : heard) {
                try {
                    listener(l).stateChanged(face, from, to, cause);
                } catch (Throwable e) {
                    failed(listenerFailed(to, cause, e));
                }
            }
        }
    }

    /** Tells the machine listeners of a send no state took; returns {@code took}. */
    private boolean refused(boolean took, String event) {
        if (!took && heard.length > 0) {
            for (MachineListener<?> l : heard) {
                try {
                    listener(l).eventRefused(face, event);
                } catch (Throwable e) {
                    failed(listenerFailed(state(), event, e));
                }
            }
            throwFailed();
        }
        return took;
    }

    /**
     * Tells the machine listeners of a wait that ended since they were last told, before the
     * state change is told; returns the state of a wait that started, told after it, or -1.
     */
    private int endedWait() {
        int wait = record.waitState();
        double start = record.waitStart();
        if (wait == toldWait && (wait < 0 || start == toldWaitStart)) {
            return -1;
        }
        int ended = toldWait;
        toldWait = wait;
        toldWaitStart = start;
        if (ended >= 0) {
            for (MachineListener<?> l : heard) {
                try {
                    listener(l).waitEnded(face, chart.path[ended], "states.wait".equals(cause));
                } catch (Throwable e) {
                    failed(listenerFailed(state(), cause, e));
                }
            }
        }
        return wait;
    }

    /** A listener was added for this cell's face, whatever its declared type argument. */
    @SuppressWarnings("unchecked")
    private static MachineListener<Object> listener(MachineListener<?> l) {
        return (MachineListener<Object>) l;
    }

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

    private UserCodeException listenerFailed(String state, String event, Throwable e) {
        return new UserCodeException(chart.machineId, state, event, "a listener", e);
    }
}

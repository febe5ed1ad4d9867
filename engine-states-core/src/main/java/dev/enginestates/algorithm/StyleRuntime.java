package dev.enginestates.algorithm;

import dev.enginestates.chart.Chart;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.MachineException;
import dev.enginestates.records.MachineRecord;

import java.util.List;

/**
 * What a declaration style does with a record: the one contract that the faces (plain object,
 * builder FSM, entity), I/O, devtools and diagrams call, so that none of them tests a style.
 * XState's actor logic is the model: start, send, step over a span of time, force a state, the
 * reads that differ, and the style's own record fields.
 *
 * <p>One stateless instance per style, which the chart picks ({@link #of}); the polled style's
 * is one per chart, holding the code made for that chart's guards ({@link PolledCode}). Scratch space comes from
 * the caller's {@link Scratch}, one per world nesting level or per plain-object machine. Adding a
 * fourth style is one more subclass and one more argument to {@link Chart#byStyle}.
 */
public abstract class StyleRuntime {
    /** {@link #step}'s phases: the builder style's {@code advance} (clocks) and {@code runState} (handlers); a whole step is both. */
    public static final int ADVANCE = 1;
    public static final int RUN = 2;
    public static final int WHOLE_STEP = ADVANCE | RUN;

    StyleRuntime() {
    }

    /** The runtime of a chart's style. */
    public static StyleRuntime of(Chart c) {
        return c.byStyle(XStateRuntime.RUNTIME, PolledRuntime.RUNTIME, BuilderRuntime.RUNTIME).forChart(c);
    }

    /** The runtime that runs {@code c}: this one, or one made for that chart alone and kept with it. */
    StyleRuntime forChart(Chart c) {
        return this;
    }

    /** How a message names a machine of this style: {@code "XState-style"}, {@code "polled"}, {@code "builder-style"}. */
    public abstract String kind();

    // ------------------------------------------------------------------ start

    /** Starts a record on a plain object, as its style starts one: the initial states entered, their code run. */
    public abstract void start(Scratch s, MachineRecord r);

    /**
     * Starts a new record for an entity. The XState style only places the initial configuration
     * (on an entity the initial state's entry actions do not run: what a game wants done at the
     * start goes in the system that adds the record); the other styles start as on a plain object.
     */
    public void startOnEntity(Scratch s, MachineRecord r) {
        start(s, r);
    }

    /** After a record was overwritten from a snapshot (a restore, a replay, a replica): what the style derives from it. No game code runs. */
    public void restored(MachineRecord r) {
    }

    // ------------------------------------------------------------------ events

    /**
     * Refuses events when the style takes none, before anything is read or changed.
     *
     * @throws MachineException naming the machine and what to do instead
     */
    public void checkTakesEvents(Chart c) {
    }

    /** The event object a send of {@code type} carries (the chart's own when exact, so nothing is allocated), or {@code null} where the style has none. */
    public abstract Event event(Chart c, int eventId, String type);

    /**
     * Refuses arguments where the style's events carry none.
     *
     * @throws MachineException naming the machine and what to do instead
     */
    public void checkArguments(Chart c, String type, Object[] args) {
    }

    /**
     * Sends an event.
     *
     * @param eventId {@link Chart#styleEventId}'s id, -1 for one no state names
     * @param args    the handler's arguments where the style takes them
     * @param event   the event with its fields, or {@code null} where the style sent only a name and arguments
     * @return whether a state took the event
     */
    public abstract boolean send(Scratch s, MachineRecord r, int eventId, String type, Object[] args, Event event);

    /**
     * Whether {@link #send} with the same arguments would now return true (a state would take the
     * event), found by evaluating the guards {@code send} would evaluate and nothing else: no
     * action, entry, exit, send or listener runs and the record is left as it was, its random
     * numbers' state included. Refuses what {@code send} refuses (an event from the machine's own
     * code, a style that takes no events), with the same errors.
     *
     * @param eventId {@link Chart#styleEventId}'s id, -1 for one no state names (then false)
     * @throws dev.enginestates.declare.UserCodeException if a guard threw, naming the machine, the state and the event; nothing changes
     */
    public abstract boolean can(Scratch s, MachineRecord r, int eventId, String type, Object[] args, Event event);

    /**
     * The event types the machine names that {@link #can} says a state would take now, in the
     * machine's event order ({@link Chart#knownEvents}). Wildcard descriptors
     * ({@code "*"}, {@code "hit.*"}) are not event types and are not listed; a type named exactly
     * that a wildcard would take is.
     *
     * @return a new list
     * @throws dev.enginestates.declare.UserCodeException if a guard threw; nothing changes
     */
    public final List<String> permittedEvents(Scratch s, MachineRecord r) {
        Chart c = r.chart();
        List<String> types = c.knownEvents();
        List<String> out = new java.util.ArrayList<>();
        for (int id = 0; id < types.size(); id++) {
            String type = types.get(id);
            if (listsEvent(c, id) && can(s, r, id, type, null, event(c, id, type))) {
                out.add(type);
            }
        }
        return out;
    }

    /**
     * The constants of the machine's event enum that {@link #can} says a state would take now.
     *
     * @return a new set
     * @throws MachineException if {@code events} is not the enum the machine names its events by
     * @throws dev.enginestates.declare.UserCodeException if a guard threw; nothing changes
     */
    public final <E extends Enum<E>> java.util.EnumSet<E> permittedEvents(Scratch s, MachineRecord r, Class<E> events) {
        Chart c = r.chart();
        java.util.Objects.requireNonNull(events, "events");
        dev.enginestates.chart.EnumNames names = c.enumNames();
        if (names.eventEnum() != events) {
            checkTakesEvents(c); // a style that takes no events says so first
            Class<?> own = names.eventEnum();
            throw new MachineException(c.machineId, "machine '" + c.machineId + "' names its events by " + (own != null
                    ? own.getSimpleName() + ", not by " + events.getSimpleName() + "; ask permittedEvents(" + own.getSimpleName() + ".class)"
                    : "strings, not by an enum (it was defined without an event enum); ask permittedEvents() for their types"));
        }
        java.util.EnumSet<E> out = java.util.EnumSet.noneOf(events);
        for (E e : events.getEnumConstants()) {
            int id = names.event(e);
            if (id >= 0 && can(s, r, id, c.eventObjects[id].type(), null, c.eventObjects[id])) {
                out.add(e);
            }
        }
        return out;
    }

    /** Whether {@link #permittedEvents} lists the machine's event {@code id}: an event type, not a wildcard descriptor. */
    boolean listsEvent(Chart c, int id) {
        return true;
    }

    // ------------------------------------------------------------------ time

    /**
     * Whether a step visits every record (its guards and handlers are polled every tick). When
     * not, time moves a record only through its due waits and {@code when} rules, which the face
     * schedules, and {@link #step} is not called.
     */
    public abstract boolean polls();

    /** Whether {@link #step} has work in these phases (a split tick's second half runs only the builder style's handlers). */
    public boolean stepsIn(int phases) {
        return polls();
    }

    /**
     * One step of {@code dt} seconds for a record that {@link #polls()}.
     *
     * @param phases {@link #WHOLE_STEP}, or a split tick's {@link #ADVANCE} then {@link #RUN}
     * @return whether the record may have moved (its tags and listeners are to be brought in line)
     */
    public boolean step(Scratch s, MachineRecord r, double dt, int phases) {
        return false;
    }

    /** The cause listeners hear a step's moves told with ({@code "step"}; the builder style's {@code "update"}). */
    public String stepCause() {
        return "step";
    }

    /** What a failure in a step of these phases names as its event ({@code "step"}; the builder style's {@code "advance"} or {@code "runState"}). */
    public String stepFailure(int phases) {
        return "step";
    }

    /** Whether a step's failure may have left the record moved (a hook that threw after its transition), so its tags follow it. */
    public boolean failedStepMayHaveMoved() {
        return false;
    }

    // ------------------------------------------------------------------ forcing a state

    /**
     * The state a forced move by {@code call} ({@code "go"}, {@code "transitionTo"}) to {@code name}
     * goes to, or 0 when there is nothing to do ({@code "$back"} with nothing before it).
     *
     * @throws MachineException if the style does not force states by that call, or the name names no state; nothing changes
     */
    public int forceTarget(MachineRecord r, String call, String name) {
        Chart c = r.chart();
        throw new MachineException(c.machineId, "machine '" + c.machineId + "' is XState-style; " + call + " is the polled and"
                + " builder styles'. Send it an event, or set its state by hand with setState(...)");
    }

    /** Forces the record into {@code state} ({@link #forceTarget}'s), running the style's exit and entry code. */
    public void force(Scratch s, MachineRecord r, int state) {
        throw new IllegalStateException("machine '" + r.chart().machineId + "' is " + kind() + " and takes no forced move");
    }

    /**
     * Refuses a set of states put by hand that the style cannot be in at once.
     *
     * @throws MachineException naming the machine and the paths
     */
    public final void checkPlace(Chart c, String[] paths) {
        checkPlace(c, "setState", paths);
    }

    /**
     * Refuses a set of states put by hand by {@code call} ({@code "setState"}, {@code "startIn"})
     * that the style cannot be in at once.
     *
     * @throws MachineException naming the machine, the call and the paths
     */
    public void checkPlace(Chart c, String call, String[] paths) {
    }

    /** Puts the record in the given states by hand, no code run (a restore, the test kit, devtools). */
    public abstract void place(Scratch s, MachineRecord r, int[] targets);

    /**
     * {@link #place} for a migration ({@link Migrator}): the states in {@code kept} (by state)
     * keep the wait they had, which the migration writes, so no code asks a kept wait's seconds.
     */
    public void placeMigrated(Scratch s, MachineRecord r, int[] targets, boolean[] kept) {
        place(s, r, targets);
    }

    /** Puts a new record in its initial states with no code run, as a test's fixture starts it before it sets the states it wants. */
    public abstract void placeInitial(Scratch s, MachineRecord r);

    /** How the machine's own code moves it, for a message refusing a move by hand while it runs. */
    public abstract String ownMoveAdvice();

    // ------------------------------------------------------------------ reads

    /** The leaf before the last transition, or -1 (none yet, or a style that keeps none). */
    public int previousLeaf(MachineRecord r) {
        return r.chart().recordsPrevious ? r.previousLeaf() : -1; // the record's layout, which the compiler chose, says whether it keeps one
    }

    /** Seconds the record has been in active state {@code s}, on a face whose clock reads {@code clock}. */
    public abstract double secondsIn(MachineRecord r, int s, double clock);

    /** Seconds before the record leaves on time (its counting wait at clock time {@code now}); 0 when nothing counts down. */
    public double secondsLeft(MachineRecord r, double now) {
        return r.waitState() < 0 ? 0 : Math.max(0, r.waitSeconds() - r.waited(now));
    }

    /** The active state's progress, 0 to 1, where the style has durations; else 0. */
    public float progress(MachineRecord r) {
        return 0f;
    }

    /** Whether the active state's progress is inside its window {@code window}; false where the style has none. */
    public boolean inWindow(MachineRecord r, String window) {
        return false;
    }

    /**
     * Sets the seconds in state {@code s} by hand (a test's fixture); {@code path} is how the
     * caller named it, for messages, and -1 stands for {@code ""}: the style's own whole time.
     *
     * @throws MachineException if the style keeps no such time, {@code s} is not a state it can set,
     *                          or the seconds are negative, NaN or infinite; nothing changes
     */
    public abstract void setTime(MachineRecord r, int s, String path, double seconds);

    // ---- tools: devtools, diagrams, the XState export

    /** How a game declares a machine of this style, for messages: {@code "Machine.define"}, {@code "StatesDef"}, {@code "StateMachineBuilder"}. */
    public abstract String declaredWith();

    /**
     * Whether time counts down to a move of the record (its seconds left mean something): a
     * state's wait; the polled style's innermost {@code after} not yet fired in this stay.
     */
    public boolean countsDown(MachineRecord r) {
        return r.waitState() >= 0;
    }

    // ---- plain faces

    /**
     * Refuses a machine that the plain-object {@code StateMachine} does not run: a style with a
     * face of its own (the builder style's).
     *
     * @throws MachineException naming the machine and the face to run it with
     */
    public void checkRunsOnPlainObject(Chart c) {
    }

    /**
     * The state a plain object's {@code go(name)} moves to, or 0 when there is nothing to do:
     * a forced move's target ({@link #forceTarget}); a style that forces no states resolves the
     * name as a state set by hand (a path, or a name no other state has).
     *
     * @throws MachineException if the name names no state, or the style refuses it; nothing changes
     */
    public int goTarget(MachineRecord r, String name) {
        return forceTarget(r, "go", name);
    }

    /** A plain object's {@code go} to {@link #goTarget}'s state: a forced move, or the state set by hand where the style forces none. */
    public void go(Scratch s, MachineRecord r, int state) {
        force(s, r, state);
    }

    /**
     * Sets how long active state {@code s} has been active, as {@link #secondsIn} reads it on a
     * face whose clock reads {@code clock} (a test's fixture); the caller has checked the state
     * is active and the seconds finite, 0 or more. An XState-style wait is not moved.
     */
    public abstract void setSecondsIn(MachineRecord r, int s, double seconds, double clock);

    /** Seconds the record has run, on a face whose clock reads {@code clock}: that clock, or the style's own whole time where it keeps one. */
    public double secondsRun(MachineRecord r, double clock) {
        return clock;
    }

    static void checkSeconds(Chart c, double seconds, String path) {
        if (!(seconds >= 0) || Double.isInfinite(seconds)) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "': seconds in '" + path
                    + "' must be a finite number, 0 or more; got " + seconds);
        }
    }

    // ---- I/O: the style's own record fields, what a logged input means

    /**
     * The style's own fields of a record, in the order checkpoints, input logs and stream frames
     * write them after the fields every style has ({@code status}, {@code active}, {@code history},
     * {@code paused}, {@code wait}, {@code heldSince}) and before the context. Made once.
     */
    public abstract List<RecordField> recordFields();

    /** The style's own fields of a dump, the picture a person reads (its clocks as they read), in order; none by default. */
    public List<RecordField> dumpFields() {
        return List.of();
    }

    /**
     * Whether a send of an event hands the event itself to the style's code, where a send of its
     * bare name hands nothing (the polled style's handlers): a log then says which of the two was
     * sent. Where not, a name is sent as an event of that name with no fields.
     */
    public boolean handsEventToCode() {
        return false;
    }

    /**
     * Why a forced move by {@code call} ({@code "go"}) to {@code name} could be taken from no
     * state of the chart, or {@code null}: an input log's check, made before a replay, which does
     * not follow the active state.
     */
    public String forceNameProblem(Chart c, String call, String name) {
        return "machine '" + c.machineId + "' is " + kind() + "; " + call + " is the polled and builder styles'; expected an"
                + " input of the machine's own style";
    }
}

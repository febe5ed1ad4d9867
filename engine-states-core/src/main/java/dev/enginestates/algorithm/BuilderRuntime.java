package dev.enginestates.algorithm;

import dev.enginestates.chart.Chart;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.Window;
import dev.enginestates.records.MachineRecord;
import java.util.List;
import dev.enginestates.records.StateValue;

import java.util.Arrays;

/** The builder style's runtime: one flat state at a time, handlers returning names, durations, windows, {@code advance}/{@code runState}. */
final class BuilderRuntime extends StyleRuntime {
    static final BuilderRuntime RUNTIME = new BuilderRuntime();

    @Override
    public String kind() {
        return "builder-style";
    }

    @Override
    public void start(Scratch s, MachineRecord r) {
        BuilderInterpreter.start(r);
    }

    @Override
    public void restored(MachineRecord r) {
        BuilderInterpreter.writeContext(r); // the context mirrors the clock and metadata of the record restored into
    }

    @Override
    public void checkTakesEvents(Chart c) {
        throw new MachineException(c.machineId, "machine '" + c.machineId + "' is builder-style: its handlers return the"
                + " next state and it takes no events; set a field of its context for the handler to read, or force a state"
                + " with transitionTo(name)");
    }

    @Override
    public Event event(Chart c, int eventId, String type) {
        return null;
    }

    @Override
    public boolean send(Scratch s, MachineRecord r, int eventId, String type, Object[] args, Event event) {
        checkTakesEvents(r.chart());
        return false;
    }

    @Override
    public boolean can(Scratch s, MachineRecord r, int eventId, String type, Object[] args, Event event) {
        checkTakesEvents(r.chart());
        return false;
    }

    @Override
    boolean listsEvent(Chart c, int id) {
        return false; // it takes no events: none is permitted
    }

    @Override
    public boolean polls() {
        return true;
    }

    @Override
    public boolean step(Scratch s, MachineRecord r, double dt, int phases) {
        float seconds = (float) dt;
        if (phases == WHOLE_STEP) {
            return BuilderInterpreter.update(r, seconds);
        }
        if (phases == ADVANCE) {
            BuilderInterpreter.advance(r, seconds);
            return false;
        }
        return BuilderInterpreter.runState(r, seconds);
    }

    @Override
    public String stepCause() {
        return "update";
    }

    @Override
    public String stepFailure(int phases) {
        return (phases & RUN) != 0 ? "runState" : "advance";
    }

    @Override
    public boolean failedStepMayHaveMoved() {
        return true; // a hook may have thrown after the record moved: its tags follow it
    }

    @Override
    public int forceTarget(MachineRecord r, String call, String name) {
        int s = BuilderInterpreter.stateNamed(r, name);
        if (s < 0) {
            Chart c = r.chart();
            throw new MachineException(c.machineId, BuilderInterpreter.unknownState(r, name, call));
        }
        return s;
    }

    @Override
    public void force(Scratch s, MachineRecord r, int state) {
        BuilderInterpreter.transitionTo(r, state);
    }

    @Override
    public void checkPlace(Chart c, String call, String[] paths) {
        if (paths.length != 1) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "' is builder-style: one state is active at a time;"
                    + " " + call + " takes one name, got " + Arrays.toString(paths));
        }
    }

    @Override
    public void placeInitial(Scratch s, MachineRecord r) {
        BuilderInterpreter.place(r, r.chart().initial[0], 0f, 0f); // checks the context's type; no hook runs
    }

    @Override
    public void place(Scratch s, MachineRecord r, int[] targets) {
        BuilderInterpreter.place(r, targets[0], 0f, 0f);
    }

    @Override
    public String ownMoveAdvice() {
        return "return the state's name from the handler";
    }

    @Override
    public double secondsIn(MachineRecord r, int s, double clock) {
        return s == r.leaf() ? r.timeInState() : 0; // the builder style counts time in the current state only
    }

    @Override
    public float progress(MachineRecord r) {
        return r.status() != MachineRecord.ACTIVE ? 0f : BuilderInterpreter.progress(r);
    }

    @Override
    public boolean inWindow(MachineRecord r, String window) {
        if (r.status() != MachineRecord.ACTIVE) {
            return false;
        }
        Window w = r.chart().builder.windows[r.leaf()].get(window);
        return w != null && w.contains(progress(r));
    }

    // ---- plain faces

    @Override
    public void checkRunsOnPlainObject(Chart c) {
        throw new MachineException(c.machineId, "machine '" + c.machineId + "' is builder-style (StateMachineBuilder);"
                + " run it with dev.enginestates.fsm.StateMachine: new StateMachine<>(definition).initialize(ctx)");
    }

    @Override
    public void setSecondsIn(MachineRecord r, int s, double seconds, double clock) {
        setTime(r, s, r.chart().path[s], seconds);
    }

    @Override
    public void setTime(MachineRecord r, int s, String path, double seconds) {
        s = s < 0 ? r.leaf() : s; // "": the current state's time, the only one the style keeps
        if (s != r.leaf()) {
            Chart c = r.chart();
            throw new MachineException(c.machineId, "machine '" + c.machineId + "' is in " + String.join(", ", StateValue.leaves(r))
                    + ", so '" + path + "' is not its state; expected the current state");
        }
        checkSeconds(r.chart(), seconds, path);
        r.setTimeInState((float) seconds);
        // the progress before is the progress now: a time set by hand crosses no window's edge
        r.setPreviousProgress(BuilderInterpreter.progress(r));
        BuilderInterpreter.writeContext(r);
    }

    // ---- tools: devtools, diagrams, the XState export

    @Override
    public String declaredWith() {
        return "StateMachineBuilder";
    }

    // ---- I/O: the style's own record fields, what a logged input means

    /** The float clock, written as the double it widens to so that it reads back exactly. */
    private static final RecordField TIME_IN_STATE = new RecordField.Number("timeInState", "the seconds in the current state") {
        @Override
        public boolean ofLeaf() {
            return true;
        }

        @Override
        public double read(MachineRecord r) {
            return r.timeInState();
        }

        @Override
        public String write(MachineRecord r, double v) {
            String problem = floatSeconds(v, "the machine's float32 clock");
            if (problem == null) {
                r.setTimeInState((float) v);
            }
            return problem;
        }
    };

    /** The progress at the last step, which a window's edges are found against. */
    private static final RecordField PREVIOUS_PROGRESS = new RecordField.Number("previousProgress", "the progress at the last step") {
        @Override
        public boolean ofLeaf() {
            return true;
        }

        @Override
        public double read(MachineRecord r) {
            return r.previousProgress();
        }

        @Override
        public String write(MachineRecord r, double v) {
            String problem = floatSeconds(v, "the progress");
            if (problem == null) {
                r.setPreviousProgress((float) v);
            }
            return problem;
        }
    };

    private static final RecordField PREVIOUS = RecordField.previous("the state active before the last transition", false);

    private static final List<RecordField> FIELDS = List.of(TIME_IN_STATE, PREVIOUS_PROGRESS, PREVIOUS);

    /** A dump shows the time in the state, its progress and the state before. */
    private static final List<RecordField> DUMPED = List.of(
            RecordField.shown("timeInState", r -> r.timeInState()),
            RecordField.shown("progress", RUNTIME::progress),
            PREVIOUS);

    /** Why {@code v} is not a float of seconds as the record wrote it, or {@code null}. */
    private static String floatSeconds(double v, String what) {
        String problem = RecordField.secondsProblem(v);
        if (problem == null && (double) (float) v != v) {
            return v + " is not a float; expected " + what + " as written";
        }
        return problem;
    }

    @Override
    public List<RecordField> recordFields() {
        return FIELDS;
    }

    @Override
    public List<RecordField> dumpFields() {
        return DUMPED;
    }

    @Override
    public String forceNameProblem(Chart c, String call, String name) {
        if (c.builder.stateNamed(name) >= 0) {
            return null;
        }
        return call + "('" + name + "') names no state of machine '" + c.machineId + "'; expected one of its states' names";
    }
}

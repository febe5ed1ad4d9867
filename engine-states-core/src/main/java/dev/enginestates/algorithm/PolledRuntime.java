package dev.enginestates.algorithm;

import dev.enginestates.chart.Chart;
import dev.enginestates.chart.PolledChart;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.MachineException;
import dev.enginestates.records.MachineRecord;
import java.util.List;
import dev.enginestates.records.StateValue;

import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;

/** The polled style's runtime: guards outermost first every step, {@code after}, updates, {@code go} and {@code $back}. */
final class PolledRuntime extends StyleRuntime {
    /** The style's reads and record fields, which need no chart's code; {@link #forChart} makes the runtime of a chart. */
    static final PolledRuntime RUNTIME = new PolledRuntime(null, null);
    /**
     * How many steps a chart's machines take, all together, on loops before its guards become
     * generated code: making it costs about 0.13 ms a guard, which a chart stepped this often
     * wins back within seconds, and a definition made per machine and soon dropped never pays.
     */
    static final int STEPS_BEFORE_GENERATED_CODE = 10_000;
    private static final System.Logger LOG = System.getLogger("dev.enginestates");

    private final Chart chart;
    /** The chart's polls by state: loops, then generated code once the chart has been stepped enough ({@link PolledCode}). */
    private volatile StatePoll[] polls;
    /** Steps left before the generated code is made; a count lost to a race between threads only delays it. */
    private int stepsBeforeGeneratedCode = STEPS_BEFORE_GENERATED_CODE;

    private PolledRuntime(Chart chart, StatePoll[] polls) {
        this.chart = chart;
        this.polls = polls;
    }

    /** The chart's own runtime, made on first use and kept with the chart. */
    @Override
    StyleRuntime forChart(Chart c) {
        Object kept = c.polled.code();
        if (kept == null) {
            kept = new PolledRuntime(c, PolledCode.looped(c));
            c.polled.code(kept); // a race makes two alike; either runs the chart
        }
        return (PolledRuntime) kept;
    }

    /**
     * Counts a step of one of the chart's machines; the last one it waits for has the generated
     * code made on the JDK's common pool, so that no step waits for it (the machines go on with
     * the loops until it is there, which answer alike).
     */
    private void counted() {
        if (--stepsBeforeGeneratedCode == 0) {
            ForkJoinPool.commonPool().execute(this::generate);
        }
    }

    private void generate() {
        try {
            polls = PolledCode.of(chart); // loops again where classes cannot be made
        } catch (Throwable e) { // the pool would print it: the loops go on, and the game asked for no output
            LOG.log(System.Logger.Level.DEBUG, "machine '" + chart.machineId + "': its guards stay on loops", e);
        }
    }

    /** Makes the chart's generated code now, as enough steps would (the tests'). */
    static void generateNow(Chart c) {
        PolledRuntime r = (PolledRuntime) RUNTIME.forChart(c);
        r.stepsBeforeGeneratedCode = 0;
        r.polls = PolledCode.of(c);
    }

    /** Keeps a chart on loops for good (the tests' comparison with generated code). */
    static void runWithLoops(Chart c) {
        ((PolledRuntime) RUNTIME.forChart(c)).stepsBeforeGeneratedCode = -1;
    }

    /** Whether the chart's runtime runs generated code (false: loops). */
    static boolean runsGeneratedCode(Chart c) {
        return PolledCode.generated(((PolledRuntime) RUNTIME.forChart(c)).polls);
    }

    @Override
    public String kind() {
        return "polled";
    }

    @Override
    public void start(Scratch s, MachineRecord r) {
        s.polled().start(r);
    }

    @Override
    public Event event(Chart c, int eventId, String type) {
        return null;
    }

    @Override
    public boolean send(Scratch s, MachineRecord r, int eventId, String type, Object[] args, Event event) {
        return s.polled().send(r, eventId, type, event != null ? new Object[] {event} : args);
    }

    @Override
    public boolean can(Scratch s, MachineRecord r, int eventId, String type, Object[] args, Event event) {
        return PolledInterpreter.can(r, eventId, type);
    }

    @Override
    public boolean polls() {
        return true;
    }

    @Override
    public boolean stepsIn(int phases) {
        return (phases & ADVANCE) != 0; // a split tick's clocks and guards run in its first half, as a whole step's do
    }

    @Override
    public boolean step(Scratch s, MachineRecord r, double dt, int phases) {
        if (stepsBeforeGeneratedCode > 0) {
            counted();
        }
        return PolledInterpreter.step(s, r, dt, polls);
    }

    @Override
    public boolean failedStepMayHaveMoved() {
        return true;
    }

    @Override
    public int forceTarget(MachineRecord r, String call, String name) {
        // go is the polled style's word; transitionTo, the builder's, forces a state the same way
        Chart c = r.chart();
        int s = PolledInterpreter.goTarget(r, name);
        if (s < 0) {
            throw new MachineException(c.machineId, PolledInterpreter.goProblem(r, name));
        }
        return s;
    }

    @Override
    public void force(Scratch s, MachineRecord r, int state) {
        s.polled().go(r, state);
    }

    @Override
    public void checkPlace(Chart c, String call, String[] paths) {
        if (paths.length > 1) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "' is polled: one branch is active at a time;"
                    + " " + call + " takes one path, got " + Arrays.toString(paths));
        }
    }

    @Override
    public void placeInitial(Scratch s, MachineRecord r) {
        s.polled().place(r, 0); // the root's initial branch, no enter run
    }

    @Override
    public void place(Scratch s, MachineRecord r, int[] targets) {
        s.polled().place(r, targets[0]);
    }

    @Override
    public String ownMoveAdvice() {
        return "return a state name from the update or handler";
    }

    @Override
    public double secondsIn(MachineRecord r, int s, double clock) {
        return r.clock(s);
    }

    // ---- plain faces

    @Override
    public void setSecondsIn(MachineRecord r, int s, double seconds, double clock) {
        r.setClock(s, seconds);
    }

    @Override
    public double secondsRun(MachineRecord r, double clock) {
        return r.clock(0); // the root's clock: every step's seconds, and what a test set with withTime("")
    }

    @Override
    public void setTime(MachineRecord r, int s, String path, double seconds) {
        s = Math.max(0, s); // "": the root's clock, the machine's total time
        if (!r.isActive(s)) {
            Chart c = r.chart();
            throw new MachineException(c.machineId, "machine '" + c.machineId + "' is in " + String.join(", ", StateValue.leaves(r))
                    + ", so '" + path + "' is not active; expected an active state");
        }
        checkSeconds(r.chart(), seconds, path);
        r.setClock(s, seconds);
    }

    // ---- tools: devtools, diagrams, the XState export

    @Override
    public String declaredWith() {
        return "StatesDef";
    }

    @Override
    public boolean countsDown(MachineRecord r) {
        return counting(r) >= 0;
    }

    /** The polled style counts down to its innermost active {@code after} not yet fired in this stay. */
    @Override
    public double secondsLeft(MachineRecord r, double now) {
        int s = counting(r);
        return s < 0 ? 0 : Math.max(0, r.chart().polled.afterSeconds[s] - r.clock(s));
    }

    /** The innermost active state whose {@code after} has not fired in this stay, or -1. */
    private static int counting(MachineRecord r) {
        PolledChart p = r.chart().polled;
        for (int i = r.activeCount() - 1; i >= 0; i--) {
            int s = r.activeAt(i);
            if (!Double.isNaN(p.afterSeconds[s]) && !r.afterFired(s)) { // a spent after counts nothing
                return s;
            }
        }
        return -1;
    }

    // ---- I/O: the style's own record fields, what a logged input means

    /** The root's clock: the machine's total seconds. */
    private static final RecordField TIME = new RecordField.Number("time", "the machine's total seconds") {
        @Override
        public double read(MachineRecord r) {
            return r.clockSum(0);
        }

        @Override
        public String write(MachineRecord r, double v) {
            String problem = secondsProblem(v);
            if (problem == null) {
                r.setClock(0, v);
            }
            return problem;
        }
    };

    /** Every active state's seconds, as the floating sum the clock keeps (its carry is the next field). */
    private static final RecordField CLOCKS = new Clocks("each active state's path to its seconds") {
        @Override
        public double read(MachineRecord r, int s) {
            return r.clockSum(s);
        }

        @Override
        public String write(MachineRecord r, int s, double v) {
            String problem = secondsProblem(v);
            if (problem == null) {
                r.setClock(s, v);
            }
            return problem;
        }
    };

    /** Where rounding dropped something from a clock's sum, the carry kept (the total's keyed ""); read after the clocks. */
    private static final RecordField CARRIES = new RecordField.Times("carries", "active state path (\"\" for the total) to the"
            + " rounding its clock kept", "a rounding carry", false, false) {
        @Override
        public boolean takes(int s) {
            return true;
        }

        @Override
        public boolean everyOne() {
            return false;
        }

        @Override
        public boolean has(MachineRecord r, int s) {
            return r.clockCarry(s) != 0;
        }

        @Override
        public double read(MachineRecord r, int s) {
            return r.clockCarry(s);
        }

        @Override
        public String write(MachineRecord r, int s, double v) {
            if (Math.abs(v) > 1e-6) {
                return v + " is not a rounding carry; expected a tiny number";
            }
            r.setClock(s, r.clockSum(s), v);
            return null;
        }
    };

    /** $back's leaf. */
    private static final RecordField PREVIOUS = RecordField.previous("the leaf active before the last transition", true);

    /** The active states whose after has fired in this stay, which must not fire again after a restore; read after the clocks. */
    private static final RecordField AFTER_FIRED = new RecordField.StateList("afterFired", "the paths of the active states whose"
            + " after has fired", true) {
        @Override
        public boolean has(MachineRecord r, int s) {
            return r.afterFired(s);
        }

        @Override
        public String add(MachineRecord r, int s) {
            Chart c = r.chart();
            double after = c.polled.afterSeconds[s];
            if (!r.isActive(s) || Double.isNaN(after)) {
                return "'" + c.path[s] + "' is not an active state with an after in machine '" + c.machineId + "'";
            }
            if (r.clock(s) < after - TimeRules.TIME_TOLERANCE) {
                return "the after of '" + c.path[s] + "' is " + after + " s but its clock is " + r.clock(s)
                        + " s; an after fires only once its seconds have passed";
            }
            r.markAfterFired(s);
            return null;
        }
    };

    private static final List<RecordField> FIELDS = List.of(TIME, CLOCKS, CARRIES, PREVIOUS, AFTER_FIRED);

    /** A dump shows the clocks as they read (sum and carry), the previous leaf and the after's seconds left. */
    private static final List<RecordField> DUMPED = List.of(
            RecordField.shown("time", r -> r.clock(0)),
            new Clocks("each active state's path to its seconds") {
                @Override
                public double read(MachineRecord r, int s) {
                    return r.clock(s);
                }

                @Override
                public String write(MachineRecord r, int s, double v) {
                    throw new UnsupportedOperationException("a dump's clocks are shown, not read back");
                }
            },
            PREVIOUS,
            // the after counts on the record's own clocks, so the world's clock is not read
            RecordField.shown("left", r -> RUNTIME.secondsLeft(r, 0)));

    /** One clock per active state but the root, whose clock is the total. */
    private abstract static class Clocks extends RecordField.Times {
        Clocks(String meaning) {
            super("clocks", meaning, "a clock", false, false);
        }

        @Override
        public boolean takes(int s) {
            return s > 0;
        }

        @Override
        public boolean everyOne() {
            return true;
        }

        @Override
        public boolean has(MachineRecord r, int s) {
            return s > 0;
        }
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
    public boolean handsEventToCode() {
        return true; // a handler gets the event as its argument, or the arguments sent with a name
    }

    @Override
    public String forceNameProblem(Chart c, String call, String name) {
        for (int s = 0; s < c.size; s++) {
            if (c.polled.resolve(s, name) != -1) {
                return null;
            }
        }
        return call + "('" + name + "') names no state of machine '" + c.machineId + "' from any state; expected a state's name"
                + " or path, or \"$back\"";
    }
}

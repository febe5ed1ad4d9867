package dev.enginestates.algorithm;

import dev.enginestates.chart.Chart;
import dev.enginestates.chart.PolledChart;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.MachineException;
import dev.enginestates.records.MachineRecord;
import dev.enginestates.records.StateValue;

import java.util.Arrays;

/** The polled style's runtime: guards outermost first every step, {@code after}, updates, {@code go} and {@code $back}. */
final class PolledRuntime extends StyleRuntime {
    static final PolledRuntime RUNTIME = new PolledRuntime();

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
    public boolean polls() {
        return true;
    }

    @Override
    public boolean stepsIn(int phases) {
        return (phases & ADVANCE) != 0; // a split tick's clocks and guards run in its first half, as a whole step's do
    }

    @Override
    public boolean step(Scratch s, MachineRecord r, double dt, int phases) {
        return s.polled().step(r, dt);
    }

    @Override
    public boolean failedStepMayHaveMoved() {
        return true;
    }

    @Override
    public int forceTarget(MachineRecord r, String call, String name) {
        // go is the polled document's word; transitionTo, the builder's, forces a state the same way
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
    public void checkPlace(Chart c, String[] paths) {
        if (paths.length > 1) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "' is polled: one branch is active at a time;"
                    + " setState takes one path, got " + Arrays.toString(paths));
        }
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
    public int previousLeaf(MachineRecord r) {
        return r.previousLeaf();
    }

    @Override
    public double secondsIn(MachineRecord r, int s, double clock) {
        return r.clock(s);
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
}

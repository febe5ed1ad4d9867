package dev.enginestates.ecs;

import dev.enginestates.MachineListener;
import dev.enginestates.algorithm.Flight;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * What a world tells JDK Flight Recorder: each step, each machine's share of it, transitions
 * and failures. The events are read by name ({@code dev.enginestates.*}) and are not part of the
 * API. With no recording each check reads one flag; the step and machine events reuse one
 * object each per world, so a recording of them allocates nothing on the step either.
 */
final class WorldFlight {

    @Name("dev.enginestates.Step")
    @Label("World step")
    @Category({"engine-states", "Step"})
    @Description("One fixed step of a world (step, advance or runStates): its number, seconds, and how many records it stepped")
    @StackTrace(false)
    static final class StepEvent extends Event {
        @Label("World")
        @Description("The world's name")
        String world;
        @Label("Call")
        @Description("step, advance or runStates")
        String call;
        @Label("Step number")
        @Description("The world's step count after this step")
        long step;
        @Label("Seconds")
        @Description("The step's dt in seconds")
        double dt;
        @Label("Machine types")
        @Description("How many machine definitions the world runs")
        int machines;
        @Label("Records stepped")
        @Description("Waits ended, when rules tested, polled and builder records run, delayed sends delivered")
        int records;
        @Label("Transitions")
        @Description("Waits ended, when rules taken, polled and builder records that moved")
        int transitions;
        @Label("Failures")
        @Description("Machines whose code threw in this step")
        int failures;
    }

    @Name("dev.enginestates.MachineStep")
    @Label("Machine type's share of a step")
    @Category({"engine-states", "Step"})
    @Description("One machine definition's part of a world step: its records stepped, its transitions and the time it took")
    @StackTrace(false)
    static final class MachineStepEvent extends Event {
        @Label("World")
        String world;
        @Label("Step number")
        long step;
        @Label("Machine")
        @Description("The machine definition's id")
        String machine;
        @Label("Records stepped")
        int records;
        @Label("Transitions")
        int transitions;
    }

    @Name("dev.enginestates.Transition")
    @Label("State change")
    @Category({"engine-states", "Transitions"})
    @Description("A machine's active states changed (what a MachineListener hears). Off by default: a busy room makes"
            + " tens of thousands a second; enable it for a short recording")
    @Enabled(false)
    @StackTrace(false)
    static final class TransitionEvent extends Event {
        @Label("World")
        String world;
        @Label("Machine")
        String machine;
        @Label("Entity")
        String entity;
        @Label("From")
        @Description("The active leaves before, as a listener hears them; empty for a record that just joined")
        String from;
        @Label("To")
        @Description("The active leaves after; empty for a record that left")
        String to;
        @Label("Event")
        @Description("What moved it: the event's type, states.wait, states.when, step, spawn, restore, ...")
        String event;
    }

    @Name("dev.enginestates.Failure")
    @Label("Machine failure")
    @Category({"engine-states", "Failures"})
    @Description("A machine's code threw during a step (what the world's onFailure handler gets): only that machine was affected")
    @StackTrace(false)
    static final class FailureEvent extends Event {
        @Label("World")
        String world;
        @Label("Step number")
        long step;
        @Label("Machine")
        String machine;
        @Label("Entity")
        String entity;
        @Label("State")
        String state;
        @Label("Event")
        String event;
        @Label("Exception")
        @Description("The class of what the game's code threw")
        String exception;
        @Label("Message")
        String message;
    }

    /** Read for their enabled flags only: nothing is written through them. */
    private static final TransitionEvent TRANSITION_PROBE = new TransitionEvent();
    private static final FailureEvent FAILURE_PROBE = new FailureEvent();

    private final StateWorld world;
    /** Reused step after step: the world is stepped by one thread at a time, and a step never runs inside another. */
    private final StepEvent step = new StepEvent();
    private final MachineStepEvent machine = new MachineStepEvent();
    private String name;
    /** Records stepped and transitions taken since the last look, counted always (an add is cheaper than a test). */
    int records;
    int transitions;
    /** The listener writing transition events while a recording wants them, else {@code null}. */
    private MachineListener<StateRecord<?>> writer;

    WorldFlight(StateWorld world) {
        this.world = world;
    }

    private String name() {
        if (name == null) {
            name = world.dominion().getName();
        }
        return name;
    }

    /** Starts a tick: whether a recording wants the step event (then it is timed from now). */
    boolean beginStep() {
        followTransitions();
        if (Flight.OFF || !step.isEnabled()) {
            return false;
        }
        records = 0;
        transitions = 0;
        step.begin();
        return true;
    }

    void endStep(String call, double dt, int machines, int failures) {
        step.end();
        if (step.shouldCommit()) {
            step.world = name();
            step.call = call;
            step.step = world.steps;
            step.dt = dt;
            step.machines = machines;
            step.records = records;
            step.transitions = transitions;
            step.failures = failures;
            step.commit();
        }
    }

    /** Whether a recording wants each machine's share of the step. */
    boolean machinesOn() {
        return !Flight.OFF && machine.isEnabled();
    }

    /** Times one machine's share; the caller notes {@link #records} and {@link #transitions} as they stand now. */
    void beginMachine() {
        machine.begin();
    }

    /**
     * Ends one machine's share. {@code recordsBefore} and {@code transitionsBefore}: the counters
     * at its start.
     */
    void endMachine(String id, int recordsBefore, int transitionsBefore) {
        machine.end();
        if (machine.shouldCommit()) {
            machine.world = name();
            machine.step = world.steps;
            machine.machine = id;
            machine.records = records - recordsBefore;
            machine.transitions = transitions - transitionsBefore;
            machine.commit();
        }
    }

    /** A machine failed in the step. */
    void failed(MachineFailure f) {
        if (Flight.OFF || !FAILURE_PROBE.isEnabled()) {
            return;
        }
        FailureEvent e = new FailureEvent();
        if (e.shouldCommit()) {
            Throwable thrown = f.cause().getCause() != null ? f.cause().getCause() : f.cause();
            e.world = name();
            e.step = world.steps;
            e.machine = f.machineId();
            e.entity = f.entity();
            e.state = f.statePath();
            e.event = f.eventType();
            e.exception = thrown.getClass().getName();
            e.message = thrown.getMessage();
            e.commit();
        }
    }

    /**
     * Listens to every machine while a recording wants transitions, and stops when it no longer
     * does: listening makes each move spell its states out, which only a recording should pay for.
     */
    private void followTransitions() {
        boolean on = !Flight.OFF && TRANSITION_PROBE.isEnabled();
        if (on == (writer != null)) {
            return;
        }
        if (on) {
            writer = new MachineListener<>() {
                @Override
                public void stateChanged(StateRecord<?> r, String from, String to, String event) {
                    TransitionEvent e = new TransitionEvent();
                    if (e.shouldCommit()) {
                        e.world = name();
                        e.machine = r.machineId();
                        e.entity = r.entity() == null ? "no entity" : StateWorld.describe(r.entity());
                        e.from = from;
                        e.to = to;
                        e.event = event;
                        e.commit();
                    }
                }
            };
            world.listeners.add(null, writer);
        } else {
            world.listeners.remove(writer);
            writer = null;
        }
    }
}

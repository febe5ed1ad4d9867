package dev.enginestates.algorithm;

import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.UserCodeException;
import dev.enginestates.chart.BuilderChart;
import dev.enginestates.chart.Chart;
import dev.enginestates.chart.Names;
import dev.enginestates.declare.StateContextCore;
import dev.enginestates.declare.StateHandler;
import dev.enginestates.declare.Window;
import dev.enginestates.records.MachineRecord;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs the builder style's semantics on records: one active state,
 * its time in state counted in float, handlers that return the next state's name.
 *
 * <ul>
 * <li>{@link #advance}: if the state has a handler, records the progress, then adds {@code dt}
 * to the time in state (float32); both are written to the context. A state without a handler
 * does nothing: its time does not advance.</li>
 * <li>{@link #runState}: unless the state's delay has not elapsed, runs the window callbacks
 * whose edge the last advance crossed, then the handler, and moves to the state it returns. A
 * returned {@code null}, the current state's own name or an unknown name stays; an unknown name
 * is logged once per definition.</li>
 * <li>A transition ({@link #transitionTo} forces one; to the current state it re-enters):
 * the old state's exit hook, the new state's metadata written to the context, the builder's
 * {@code onStateEnter}, the new state's enter hook, then time in state (and previous
 * progress) 0.</li>
 * </ul>
 *
 * <p>The record is written before any game code runs (the new state, time 0), so if game code
 * throws, the record holds the new state, the hooks after the one that threw do not run, the
 * context is still given the new state's metadata and time, and a {@link UserCodeException}
 * names the machine, the state and the call. Stateless and allocation-free.
 */
public final class BuilderInterpreter {
    private static final System.Logger LOG = System.getLogger("dev.enginestates");

    private BuilderInterpreter() {
    }

    /**
     * Starts a record: enters the initial state, with its
     * metadata, {@code onStateEnter} and enter hook; no exit runs.
     *
     * @throws IllegalArgumentException if the context is not what the machine's handlers take; nothing changes
     */
    public static void start(MachineRecord r) {
        Chart c = chartOf(r);
        checkContext(c, r.contextObject());
        begin(r, "initialize");
        try {
            r.reset();
            r.status(MachineRecord.ACTIVE);
            r.enter(0);
            enterState(c, r, c.initial[0], -1, "initialize", null);
        } finally {
            r.endProcessing();
        }
    }

    /**
     * Puts a record in a state without running any code (restores, the test kit), with its time
     * in state and previous progress, and writes the context to match.
     */
    public static void place(MachineRecord r, int state, float timeInState, float previousProgress) {
        Chart c = chartOf(r);
        if (state <= 0 || state >= c.size) {
            throw new IllegalArgumentException("machine '" + c.machineId + "' has no state number " + state);
        }
        checkContext(c, r.contextObject());
        r.reset();
        r.status(MachineRecord.ACTIVE);
        r.enter(0);
        r.enter(state);
        r.setTimeInState(timeInState);
        r.setPreviousProgress(previousProgress);
        writeContext(r);
    }

    /**
     * Writes everything the record says into the context: the state's metadata, time in state and
     * previous progress. No hook runs. For restores and hand-set records.
     */
    public static void writeContext(MachineRecord r) {
        Chart c = chartOf(r);
        if (r.status() != MachineRecord.ACTIVE || !(r.contextObject() instanceof StateContextCore)) {
            return;
        }
        StateContextCore ctx = (StateContextCore) r.contextObject();
        int s = r.leaf();
        try {
            writeMetadata(c.builder, ctx, s);
            ctx.setTimeInState(r.timeInState());
            ctx.setPreviousProgress(r.previousProgress());
        } catch (Throwable e) {
            throw new UserCodeException(c.machineId, c.path[s], "restore", "writing the context", e);
        }
    }

    /**
     * Gives a running record another context: checked as a start checks it, then written with
     * the state's metadata and time. No hook runs.
     *
     * @throws IllegalArgumentException if the context is {@code null} or not what the handlers take; nothing changes
     */
    public static void adopt(MachineRecord r, Object ctx) {
        checkContext(chartOf(r), ctx);
        r.context(ctx);
        writeContext(r);
    }

    /**
     * {@link #advance} then {@link #runState}, exactly, the state looked up once.
     *
     * @throws IllegalStateException if called from the machine's own code; nothing changes
     */
    public static boolean update(MachineRecord r, float dt) {
        if (r.status() != MachineRecord.ACTIVE) {
            return false;
        }
        requireIdle(r, "update"); // before the advance: a refused update must not have moved the time
        Chart c = chartOf(r);
        int s = r.leafOfBranch();
        StateHandler<Object> h = c.builder.handler[s];
        if (h == null) {
            return false; // a state without a handler does nothing
        }
        advance(c, r, s, dt);
        return runState(c, r, s, h, dt);
    }

    /**
     * Advances the time in state by {@code dt}, after recording the progress before it.
     *
     * @return whether the time advanced (false for a state without a handler, or a machine not started)
     * @throws IllegalStateException if called from the machine's own code; nothing changes
     */
    public static boolean advance(MachineRecord r, float dt) {
        if (r.status() != MachineRecord.ACTIVE) {
            return false;
        }
        requireIdle(r, "advance");
        Chart c = chartOf(r);
        int s = r.leafOfBranch();
        if (c.builder.handler[s] == null) {
            return false;
        }
        advance(c, r, s, dt);
        return true;
    }

    private static void advance(Chart c, MachineRecord r, int s, float dt) {
        float before = progress(c.builder, s, r.timeInState());
        float time = r.timeInState() + dt;
        r.setPreviousProgress(before);
        r.setTimeInState(time);
        StateContextCore ctx = (StateContextCore) r.contextObject();
        try {
            ctx.setPreviousProgress(before);
            ctx.setTimeInState(time);
        } catch (Throwable e) {
            throw new UserCodeException(c.machineId, c.path[s], "advance", "writing the context", e);
        }
    }

    /**
     * Runs the current state: its window callbacks whose edge the last advance crossed, then its
     * handler, unless its delay has not elapsed; time does not advance.
     *
     * @return whether the machine moved to another state
     */
    public static boolean runState(MachineRecord r, float dt) {
        if (r.status() != MachineRecord.ACTIVE) {
            return false;
        }
        Chart c = chartOf(r);
        int s = r.leafOfBranch();
        StateHandler<Object> h = c.builder.handler[s];
        return h != null && runState(c, r, s, h, dt);
    }

    private static boolean runState(Chart c, MachineRecord r, int s, StateHandler<Object> h, float dt) {
        BuilderChart b = c.builder;
        if (r.timeInState() < b.delay[s]) {
            return false;
        }
        begin(r, "runState");
        try {
            Object ctx = r.contextObject();
            Window[] windows = b.windowOf[s];
            if (windows != null) {
                float before = r.previousProgress();
                float now = progress(b, s, r.timeInState());
                for (int i = 0; i < windows.length; i++) {
                    Window w = windows[i];
                    if (b.windowExitEdge[s][i] ? w.closed(before, now) : w.opened(before, now)) {
                        call(c, s, b.windowCallback[s][i], ctx, "runState", "the '" + w.name() + "' window callback");
                    }
                }
            }
            String name;
            jdk.jfr.Event timer = Flight.timeCode();
            try {
                name = h.update(ctx, dt);
                if (timer != null) {
                    Flight.timed(timer, c.machineId, r.self(), c.path[s], "runState", "handler", null);
                }
            } catch (Throwable e) {
                Flight.threw(timer);
                throw new UserCodeException(c.machineId, c.path[s], "runState", "the handler", e);
            }
            int to = next(c, b, s, name);
            if (to < 0) {
                return false;
            }
            MoveObserver[] observers = InstalledObservers.all;
            if (observers != null) {
                InstalledObservers.moved(observers, r, c.moves().builderMove(s, to), s, to);
            }
            transition(c, r, to, "runState");
            return true;
        } finally {
            r.endProcessing();
        }
    }

    /**
     * Forces a transition; to the current state it re-enters (exit, enter, time reset). Works on a
     * machine not started yet too (no exit runs then).
     */
    public static void transitionTo(MachineRecord r, int state) {
        Chart c = chartOf(r);
        begin(r, "transitionTo");
        try {
            if (r.status() != MachineRecord.ACTIVE) {
                checkContext(c, r.contextObject());
                r.reset();
                r.status(MachineRecord.ACTIVE);
                r.enter(0);
                enterState(c, r, state, -1, "transitionTo", null);
            } else {
                transition(c, r, state, "transitionTo");
            }
        } finally {
            r.endProcessing();
        }
    }

    /** The state a forced transition names, or -1 (see {@link #unknownState}). */
    public static int stateNamed(MachineRecord r, String name) {
        return chartOf(r).builder.stateNamed(name);
    }

    /** The message for a forced transition to a name that names no state. */
    public static String unknownState(MachineRecord r, String name, String call) {
        Chart c = r.chart();
        return "machine '" + c.machineId + "': " + call + "('" + name + "') names no state; expected one of "
                + states(c) + sentenceEnd(Names.suggestion(name, states(c))) + " The machine stays in "
                + (r.status() == MachineRecord.ACTIVE ? "'" + c.path[r.leaf()] + "'" : "no state (not initialized)");
    }

    /** The current state's progress: time over duration, 0 without a duration (float, as the context computes it). */
    public static float progress(MachineRecord r) {
        Chart c = chartOf(r);
        int s = r.leaf();
        return s <= 0 ? 0f : progress(c.builder, s, r.timeInState());
    }

    private static float progress(BuilderChart b, int s, float time) {
        float d = b.duration[s];
        return d > 0f ? time / d : 0f;
    }

    /** The state a handler's return moves to, or -1 to stay. */
    private static int next(Chart c, BuilderChart b, int s, String name) {
        if (name == null) {
            return -1;
        }
        int t = b.stateNamed(name);
        if (t == s) {
            return -1;
        }
        if (t < 0) {
            if (b.firstReport(s, name)) {
                LOG.log(System.Logger.Level.WARNING, "machine ''{0}'': the handler of state ''{1}'' returned ''{2}'', which names"
                        + " no state; expected one of {3}{4} The machine stays in ''{1}''; this is reported once.",
                        c.machineId, c.path[s], name, states(c), sentenceEnd(Names.suggestion(name, states(c))));
            }
            return -1;
        }
        return t;
    }

    private static void transition(Chart c, MachineRecord r, int to, String call) {
        int from = r.leaf();
        r.keepFirst(1);
        enterState(c, r, to, from, call, c.builder.exit[from]);
    }

    /**
     * Enters {@code to}: the record first (the state, time 0, the state before), then the old
     * state's exit hook (if any), the new state's metadata into the context, {@code onStateEnter},
     * its enter hook, and time 0 in the context. The context's metadata and time follow the record
     * even when a hook throws.
     */
    private static void enterState(Chart c, MachineRecord r, int to, int from, String call, Consumer<Object> exit) {
        BuilderChart b = c.builder;
        StateContextCore ctx = (StateContextCore) r.contextObject();
        r.enter(to);
        MoveObserver[] observers = InstalledObservers.all;
        if (observers != null) {
            InstalledObservers.entered(observers, r, to);
        }
        r.previousLeaf(from);
        r.setTimeInState(0f);
        r.setPreviousProgress(0f);
        boolean metadata = false;
        try {
            call(c, from, exit, ctx, call, "the exit hook");
            writeMetadata(c, ctx, to, call);
            metadata = true;
            if (b.onStateEnter != null) {
                try {
                    b.onStateEnter.accept(ctx, c.path[to]);
                } catch (Throwable e) {
                    throw new UserCodeException(c.machineId, c.path[to], call, "the builder's onStateEnter hook", e);
                }
            }
            call(c, to, b.enter[to], ctx, call, "the enter hook");
        } finally {
            if (!metadata) {
                writeMetadata(c, ctx, to, call);
            }
            try {
                ctx.setTimeInState(0f);
                ctx.setPreviousProgress(0f);
            } catch (Throwable e) {
                throw new UserCodeException(c.machineId, c.path[to], call, "writing the context", e);
            }
        }
    }

    private static void writeMetadata(Chart c, StateContextCore ctx, int s, String call) {
        try {
            writeMetadata(c.builder, ctx, s);
        } catch (Throwable e) {
            throw new UserCodeException(c.machineId, c.path[s], call, "writing the context", e);
        }
    }

    private static void writeMetadata(BuilderChart b, StateContextCore ctx, int s) {
        ctx.setStateDuration(b.duration[s]);
        ctx.setCurrentStateTag(b.tag[s]);
        ctx.setActiveWindows(b.windows[s]);
        ctx.setCurrentStateData(b.data[s]);
        ctx.setCurrentStateMotion(b.motion[s]);
    }

    private static void call(Chart c, int s, Consumer<Object> hook, Object ctx, String call, String what) {
        if (hook == null) {
            return;
        }
        try {
            hook.accept(ctx);
        } catch (Throwable e) {
            throw new UserCodeException(c.machineId, c.path[s], call, what, e);
        }
    }

    private static void checkContext(Chart c, Object ctx) {
        if (ctx == null) {
            throw new IllegalArgumentException("machine '" + c.machineId + "' needs a context to run; got null");
        }
        if (!(ctx instanceof StateContextCore)) {
            throw new IllegalArgumentException("machine '" + c.machineId + "' needs a context implementing StateContextCore"
                    + " (extend AIContext, or implement StateContextCore); got a " + ctx.getClass().getName());
        }
        BuilderChart b = c.builder;
        for (int i = 0; i < b.contextTypes.length; i++) {
            if (!b.contextTypes[i].isInstance(ctx)) {
                throw new IllegalArgumentException("machine '" + c.machineId + "': " + b.contextTypeUsers[i] + " takes a "
                        + b.contextTypes[i].getName() + ", but the context is a " + ctx.getClass().getName());
            }
        }
    }

    /** A suggestion ends its sentence with its question mark; without one the sentence ends with a full stop. */
    private static String sentenceEnd(String suggestion) {
        return suggestion.isEmpty() ? "." : suggestion;
    }

    private static List<String> states(Chart c) {
        List<String> out = new ArrayList<>();
        for (int s = 1; s < c.size; s++) {
            out.add(c.path[s]);
        }
        return out;
    }

    /** The record's chart; {@link StyleRuntime#of} sends only builder-style records here. */
    private static Chart chartOf(MachineRecord r) {
        return r.chart();
    }

    private static void begin(MachineRecord r, String call) {
        requireIdle(r, call);
        r.beginProcessing(call);
    }

    /**
     * Refuses a call made from the machine's own code (a hook or handler of this record, running
     * now); a face calls it before it changes anything, the context included.
     *
     * @throws IllegalStateException if the record is busy; nothing changes
     */
    public static void requireIdle(MachineRecord r, String call) {
        if (r.processing() != null) {
            Chart c = r.chart();
            throw new IllegalStateException("machine '" + c.machineId + "' is busy with " + r.processing()
                    + " and was asked to " + call + " from its own code; return the state's name from the handler instead");
        }
    }
}

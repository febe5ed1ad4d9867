package dev.enginestates.algorithm;

import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.UserCodeException;
import dev.enginestates.chart.Chart;
import dev.enginestates.chart.PolledChart;
import dev.enginestates.declare.EnterHook;
import dev.enginestates.declare.ExitHook;
import dev.enginestates.declare.StateEventHandler;
import dev.enginestates.declare.StateUpdate;
import dev.enginestates.records.MachineRecord;

/**
 * Runs the polled style's semantics on records: one active branch,
 * clocks per state, {@code to} guards polled outermost first, {@code after}, {@code update},
 * events innermost first, {@code $back}.
 *
 * <p>What one {@link #step} does, in this order: (1) every active state's clock
 * advances; (2) transitions are tested outermost first, the root's {@code to} guards, then
 * each active state's guards in declaration order and its {@code after}; a taken transition
 * is tested again from the new branch, at most {@link #MAX_HOPS} a step; a guard whose target
 * is active is skipped (it never re-enters); (3) {@code update} runs outermost to innermost,
 * and a returned name transitions there and ends the pass. Only {@code go} and events re-enter:
 * an {@code after} or {@code update} naming an active state moves nothing (the update's pass goes
 * on, as if it had returned nothing). An {@code after} of {@code s} seconds
 * is due once the state's clock is within {@link TimeRules#TIME_TOLERANCE} of {@code s}, as a
 * wait is: twelve steps of 1/60 s leave after 0.2 s, not a thirteenth. It fires once per stay in
 * its state, as XState's delayed transitions do: a target inside the state (or a {@code $back}
 * to a leaf inside it) leaves the state's clock running, and the timer does not fire again until
 * the state is entered anew.
 *
 * <p>A transition writes the new branch first (the states left, the states entered with their
 * clocks at 0, the previous leaf), then runs exits innermost first and entries outermost
 * first. If game code throws, the rest of its callbacks do not run, the record keeps the
 * branch written, and a {@link UserCodeException} names the machine, state and event.
 *
 * <p>Not thread-safe: one per world or plain machine. Allocation-free once warm.
 */
public final class PolledInterpreter {
    /** The most transitions the guards and {@code after} may chain in one step. */
    public static final int MAX_HOPS = 8;
    private static final Object[] NO_ARGS = new Object[0];

    /** Hears each transition once its callbacks have run (or one threw). */
    @FunctionalInterface
    public interface Listener {
        /** The leaf changed from {@code from} (-1 at none) to {@code to} (they are equal on a re-entry). */
        void changed(MachineRecord record, int to, int from);
    }

    private int[] exits = new int[8];
    private int[] entries = new int[8];
    private Listener listener;

    /** Sets who hears transitions ({@code null}: nobody). */
    public void listener(Listener listener) {
        this.listener = listener;
    }

    /** Starts a record: enters the initial branch outermost first with {@code enter(ctx, "")}; no change is reported. */
    public void start(MachineRecord r) {
        Chart c = r.chart();
        ensure(c);
        begin(r, "start");
        try {
            r.reset();
            r.status(MachineRecord.ACTIVE);
            r.enter(0);
            int n = 0;
            MoveObserver[] observers = InstalledObservers.all;
            for (int s = c.initial[0]; s >= 0; s = c.initial[s]) {
                r.enter(s);
                entries[n++] = s;
                if (observers != null) {
                    InstalledObservers.entered(observers, r, s);
                }
            }
            runEntries(c, r, n, "", "start");
        } finally {
            r.endProcessing();
        }
    }

    /**
     * Puts a record in a state without running any code (restores, the test kit): the branch
     * down to {@code state} (into initial children when it is compound), clocks at 0.
     */
    public void place(MachineRecord r, int state) {
        Chart c = r.chart();
        ensure(c);
        r.reset();
        r.status(MachineRecord.ACTIVE);
        int leaf = leafOf(c, state);
        int depth = c.depth[leaf];
        for (int d = 0; d <= depth; d++) {
            int s = leaf;
            while (c.depth[s] > d) {
                s = c.parent[s];
            }
            r.enter(s);
        }
    }

    /**
     * One step of {@code dt} seconds. A step that moves nothing reads only the record, its
     * context and the chart: the scratch's interpreter (and its arrays) is fetched for a move.
     *
     * @param polls the chart's polls, which its runtime keeps ({@link PolledCode})
     * @return whether the machine changed state
     */
    static boolean step(Scratch scratch, MachineRecord r, double dt, StatePoll[] polls) {
        if (r.status() != MachineRecord.ACTIVE) {
            return false;
        }
        Chart c = r.chart();
        begin(r, "step");
        boolean moved = false;
        try {
            r.advanceClocks(dt);
            for (int hop = 0; hop < MAX_HOPS; hop++) {
                MoveObserver[] observers = InstalledObservers.all;
                int t = observers == null ? firstEnabled(polls, r) : firstEnabledObserved(polls, r, observers);
                if (t <= 0) {
                    break;
                }
                scratch.polled().transition(c, c.polled, r, t, "step");
                moved = true;
            }
            if (c.polled.hasUpdates) {
                moved |= scratch.polled().runUpdates(c, c.polled, r, dt);
            }
        } finally {
            r.endProcessing();
        }
        return moved;
    }

    /** The target of the first enabled transition, outermost first, or -1 when none is. */
    private static int firstEnabled(StatePoll[] polls, MachineRecord r) {
        Object ctx = r.contextObject();
        for (int i = 0, n = r.activeCount(); i < n; i++) {
            int s = r.activeAt(i);
            StatePoll poll = polls[s];
            if (poll != null) {
                int t = poll.first(r, ctx, r.activeClock(s));
                if (t > 0) {
                    return t;
                }
            }
        }
        return -1;
    }

    /**
     * {@link #firstEnabled} for a process whose moves are observed: also tells which declared move
     * the target is (an {@code after} that fired, else the first {@code to} guard with that target).
     */
    private static int firstEnabledObserved(StatePoll[] polls, MachineRecord r, MoveObserver[] observers) {
        Object ctx = r.contextObject();
        for (int i = 0, n = r.activeCount(); i < n; i++) {
            int s = r.activeAt(i);
            StatePoll poll = polls[s];
            if (poll != null) {
                boolean firedBefore = r.afterFired(s);
                int t = poll.first(r, ctx, r.activeClock(s));
                if (t > 0) {
                    int move = r.chart().moves().polledStep(s, t, !firedBefore && r.afterFired(s));
                    InstalledObservers.moved(observers, r, move, s, t);
                    return t;
                }
            }
        }
        return -1;
    }

    /** Runs the updates outermost to innermost; a returned name transitions there and ends the pass. */
    private boolean runUpdates(Chart c, PolledChart p, MachineRecord r, double dt) {
        for (int i = 0, n = r.activeCount(); i < n; i++) {
            int s = r.activeAt(i);
            StateUpdate<Object> u = p.update[s];
            if (u == null) {
                continue;
            }
            String name;
            jdk.jfr.Event timer = Flight.timeCode();
            try {
                name = u.update(r.contextObject(), dt, r.clock(s));
                if (timer != null) {
                    Flight.timed(timer, c.machineId, r.self(), c.path[s], "step", "update", null);
                }
            } catch (Throwable e) {
                Flight.threw(timer);
                throw new UserCodeException(c.machineId, c.path[s], "step", "the update", e);
            }
            if (name != null) {
                int t = returned(c, p, r, s, name, null, "step");
                if (t >= 0 && r.isActive(t)) {
                    continue; // only go() and events re-enter: naming an active state stays, and the pass goes on
                }
                if (t >= 0) {
                    MoveObserver[] observers = InstalledObservers.all;
                    if (observers != null) {
                        InstalledObservers.moved(observers, r, -1, s, t);
                    }
                    transition(c, p, r, t, "step");
                    return true;
                }
                return false;
            }
        }
        return false;
    }

    /**
     * Sends an event: the innermost active state that names it handles it, the root last.
     *
     * @param eventId the event's id in {@link PolledChart#eventId}; -1 is handled by nobody
     * @return whether a state handled it
     */
    public boolean send(MachineRecord r, int eventId, String event, Object[] args) {
        if (eventId < 0 || r.status() != MachineRecord.ACTIVE) {
            return false;
        }
        Chart c = r.chart();
        PolledChart p = c.polled;
        ensure(c);
        begin(r, event);
        try {
            for (int i = r.activeCount() - 1; i >= 0; i--) {
                int s = r.activeAt(i);
                byte[] kinds = p.onKind[s];
                if (kinds == null || kinds[eventId] == PolledChart.ON_NONE) {
                    continue;
                }
                int t;
                if (kinds[eventId] == PolledChart.ON_TARGET) {
                    t = p.onTarget[s][eventId] == PolledChart.BACK ? r.previousLeaf() : p.onTarget[s][eventId];
                } else {
                    StateEventHandler<Object> h = p.onHandler[s][eventId];
                    String name;
                    try {
                        name = h.handle(r.contextObject(), args == null ? NO_ARGS : args);
                    } catch (Throwable e) {
                        throw new UserCodeException(c.machineId, c.path[s], event, "the '" + event + "' handler", e);
                    }
                    t = name == null ? -1 : returned(c, p, r, s, name, event, event);
                }
                MoveObserver[] observers = InstalledObservers.all;
                if (observers != null) {
                    InstalledObservers.moved(observers, r, c.moves().polledEvent(s, eventId), s, t);
                }
                if (t > 0) {
                    transition(c, p, r, t, event);
                }
                return true;
            }
            return false;
        } finally {
            r.endProcessing();
        }
    }

    /**
     * Whether {@link #send} would now return true: an active state names the event (the innermost
     * one handles it, whatever its handler returns). No handler runs, so nothing changes; as for
     * {@code send}, an unknown event or a machine that is not running takes nothing, and an event
     * asked from the machine's own code is refused.
     */
    static boolean can(MachineRecord r, int eventId, String event) {
        if (eventId < 0 || r.status() != MachineRecord.ACTIVE) {
            return false;
        }
        if (r.processing() != null) {
            begin(r, event); // refuses it, as send does
        }
        byte[][] onKind = r.chart().polled.onKind;
        for (int i = r.activeCount() - 1; i >= 0; i--) {
            byte[] kinds = onKind[r.activeAt(i)];
            if (kinds != null && kinds[eventId] != PolledChart.ON_NONE) {
                return true;
            }
        }
        return false;
    }

    /** Forces a transition to {@code state}; an active state is exited and entered again. */
    public void go(MachineRecord r, int state) {
        Chart c = r.chart();
        ensure(c);
        begin(r, "go");
        try {
            if (r.status() != MachineRecord.ACTIVE) {
                r.status(MachineRecord.ACTIVE);
                r.enter(0);
            }
            transition(c, c.polled, r, state, "go");
        } finally {
            r.endProcessing();
        }
    }

    /**
     * The state {@code go(name)} moves to: the name resolved from the active leaf as a declared
     * target is ({@code "$back"}: the previous leaf); 0 when {@code "$back"} has nothing before
     * it (nothing to do); -1 when the name names no state ({@link #goProblem} says so).
     */
    public static int goTarget(MachineRecord r, String name) {
        int s = r.chart().polled.resolve(Math.max(0, r.leaf()), name);
        return s == PolledChart.BACK ? Math.max(0, r.previousLeaf()) : s;
    }

    /** The message for a {@code go(name)} whose name names no state. */
    public static String goProblem(MachineRecord r, String name) {
        Chart c = r.chart();
        return "machine '" + c.machineId + "': go('" + name + "') names no state; " + c.polled.expected(Math.max(0, r.leaf()), name);
    }

    /** The state a name an update ({@code handled} null) or the handler of event {@code handled} returned resolves to. */
    private int returned(Chart c, PolledChart p, MachineRecord r, int s, String name, String handled, String event) {
        int t = p.resolve(s, name);
        if (t == -1) {
            // the message is built only here: a handler's send is a hot path and allocates nothing when its name is good
            String what = handled == null ? "the update" : "the '" + handled + "' handler";
            throw new MachineException(c.machineId, "machine '" + c.machineId + "': " + what + " of "
                    + (s == 0 ? "the root" : "state '" + c.path[s] + "'") + " returned '" + name + "' while processing '" + event
                    + "', which names no state; " + p.expected(s, name) + ". The machine stays in '" + c.path[r.leaf()] + "'");
        }
        return t == PolledChart.BACK ? r.previousLeaf() : t;
    }

    /**
     * Exits innermost first up to the deepest active ancestor of {@code target} (its parent when
     * the target itself is active: a re-entry), then enters outermost first down to the target
     * and its initial children.
     */
    private void transition(Chart c, PolledChart p, MachineRecord r, int target, String event) {
        ensure(c);
        int from = r.leaf();
        int leaf = leafOf(c, target);
        int domain = c.parent[target];
        while (!r.isActive(domain)) {
            domain = c.parent[domain];
        }
        int keep = c.depth[domain] + 1;
        int exitCount = 0;
        for (int i = r.activeCount() - 1; i >= keep; i--) {
            exits[exitCount++] = r.activeAt(i);
        }
        int entryCount = 0;
        for (int s = leaf; s != domain; s = c.parent[s]) {
            entries[entryCount++] = s;
        }
        // outermost first
        for (int i = 0, j = entryCount - 1; i < j; i++, j--) {
            int t = entries[i];
            entries[i] = entries[j];
            entries[j] = t;
        }
        r.keepFirst(keep);
        MoveObserver[] observers = InstalledObservers.all;
        for (int i = 0; i < entryCount; i++) {
            r.enter(entries[i]);
            r.setClock(entries[i], 0);
            if (observers != null) {
                InstalledObservers.entered(observers, r, entries[i]);
            }
        }
        r.previousLeaf(from);
        try {
            Object ctx = r.contextObject();
            String to = c.path[leaf];
            for (int i = 0; i < exitCount; i++) {
                ExitHook<Object> x = p.exit[exits[i]];
                if (x != null) {
                    try {
                        x.exit(ctx, to);
                    } catch (Throwable e) {
                        throw new UserCodeException(c.machineId, c.path[exits[i]], event, "the exit", e);
                    }
                }
            }
            runEntries(c, r, entryCount, from < 0 ? "" : c.path[from], event);
        } catch (RuntimeException | Error e) {
            tell(r, leaf, from, e);
            throw e;
        }
        tell(r, leaf, from, null);
    }

    /**
     * Tells the listener of a transition, also when game code threw in it: the game's fault
     * stays the one thrown (it names where the machine broke) and a listener's failure after it
     * rides along as suppressed rather than hiding it.
     */
    private void tell(MachineRecord r, int leaf, int from, Throwable fault) {
        if (listener == null) {
            return;
        }
        try {
            listener.changed(r, leaf, from);
        } catch (RuntimeException | Error e) {
            if (fault == null) {
                throw e;
            }
            fault.addSuppressed(e);
        }
    }

    private void runEntries(Chart c, MachineRecord r, int n, String from, String event) {
        Object ctx = r.contextObject();
        PolledChart p = c.polled;
        for (int i = 0; i < n; i++) {
            EnterHook<Object> e = p.enter[entries[i]];
            if (e != null) {
                try {
                    e.enter(ctx, from);
                } catch (Throwable x) {
                    throw new UserCodeException(c.machineId, c.path[entries[i]], event, "the enter", x);
                }
            }
        }
    }

    private static int leafOf(Chart c, int state) {
        int leaf = state;
        while (c.initial[leaf] >= 0) {
            leaf = c.initial[leaf];
        }
        return leaf;
    }

    private static void begin(MachineRecord r, String event) {
        if (r.processing() != null) {
            Chart c = r.chart();
            throw new IllegalStateException("machine '" + c.machineId + "' is busy with '" + r.processing()
                    + "' and was asked to move again from its own code; return a state name from the update or handler instead");
        }
        r.beginProcessing(event);
    }

    private void ensure(Chart c) {
        if (exits.length < c.size) {
            exits = new int[c.size];
            entries = new int[c.size];
        }
    }
}

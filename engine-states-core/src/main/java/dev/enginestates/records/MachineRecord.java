package dev.enginestates.records;

import dev.enginestates.chart.Chart;
import dev.enginestates.declare.DetachedSelf;
import dev.enginestates.declare.Self;

import java.util.Arrays;

/**
 * The snapshot of one running machine: which states are active (in the order they were
 * entered, as XState keeps them), what each history state remembers, whether the machine is
 * done, and its context object.
 *
 * <p>Sized once for its chart; the algorithm mutates it in place without allocating. A record
 * belongs to one world (one thread) at a time.
 *
 * <p>Not final only so that a face may make its record its machine's {@link Self} too (one object
 * less per machine); its methods are final, so compiled callers do not depend on the class having
 * no subclass (loading one later deoptimises nothing).
 *
 * <p>It is its machine's {@link Self.Draws} too ({@link Self#random()}): the generator's state is one of its fields.
 */
public class MachineRecord implements Self.Draws {
    /** The machine has not been started yet. */
    public static final int NEW = 0;
    /** The machine is running. */
    public static final int ACTIVE = 1;
    /** A top-level final state was reached; the machine takes no more events. */
    public static final int DONE = 2;

    private final Chart chart;
    /**
     * Active states in entry order (the order XState's snapshot keeps them). Made with
     * {@link Chart#configRoom} places, grown to {@link Chart#maxActive} if ever more are needed.
     */
    int[] config;
    int configSize;
    /** Membership of {@link #config}, by state, for a chart of up to 64 states: bit {@code s} (no array to reach). */
    long activeBits;
    /** Membership of {@link #config}, by state, for a chart of more than 64 states, else {@code null}. */
    final boolean[] active;
    private static final int[][] NO_HISTORY = new int[0][];

    /**
     * Per history node: how many states it remembers ({@code [0]}, -1 when nothing yet) and the
     * remembered states in the order they were recorded ({@code [1..]}); {@code null} for other
     * states. Shared and empty for a chart without history states.
     */
    final int[][] history;
    /** {@link #NEW}, {@link #ACTIVE} or {@link #DONE}: a byte, packed with the record's other flags. */
    byte status;
    Object context;
    /** The active state whose wait is counting, or -1. */
    int waitState = -1;
    /** Clock time the wait started counting, moved later by the time it was held. */
    double waitStart;
    /** The wait's length in seconds. */
    double waitSeconds;
    /** Set whenever the wait changes; the face that keeps timers reads and clears it. */
    boolean waitChanged;
    /** The type of the event being processed, or of the last one while the record is at rest. */
    String processing;
    /** Whether the record is processing {@link #processing} now (the type stays when it is at rest). */
    boolean busy;
    /**
     * By time slot ({@link Chart#timeSlot}: an active state's depth in a chart without parallel
     * states, else the state), one array for two styles (a field less per record): the polled
     * style's clock, seconds each active state has been active (the root's: since the start); the
     * XState style's entry times, the clock time each active state was entered at. A slot is read
     * only for an active state: an inactive state's slot may hold the time of the active state at
     * its depth. {@code null} for the builder style. The polled style keeps each clock's carry in
     * the array's second half, from {@link Chart#timeRoom} on: what the clock's floating sum has lost
     * to rounding (a compensated sum), so {@code t} is the sum of the steps as exactly as a double
     * holds it: fifteen steps of 1/60 s make 0.25 s, and {@code t >= 0.25} holds on the fifteenth.
     * One array, so that a step reads and writes no other object for its clocks.
     */
    final double[] times;
    /**
     * What few records need, in an object of its own (eight fields, 40 B, less in every record):
     * made with the record for the polled and builder styles, and for the XState style when it
     * first keeps paused seconds, a send to itself or a hold; {@code null} until then.
     */
    private Seldom seldom;

    /** The fields of {@link #seldom}. */
    private static final class Seldom {
        /** Clock time a hold began, or NaN while the machine is not held (holds are rare: not in every record). */
        double heldSince = Double.NaN;
        /** The random numbers' state ({@link RandomStreams}), 0 until the machine's code first draws. */
        long random;
        /** Polled and builder styles: the leaf active before the last transition, or -1 (none yet). */
        int previous = -1;
        /**
         * Polled style: bit {@code d} set when the active state at depth {@code d} has fired its
         * {@code after} in this stay (a one-shot timer; a transition into its own descendant
         * leaves it active and its clock running). An int fits the object's padding: the
         * compiler refuses an {@code after} deeper than {@link dev.enginestates.chart.PolledChart#MAX_AFTER_DEPTH}.
         */
        int afterFired;
        /** Builder style: seconds in the current state, summed in float as the builder style's clock counts them. */
        float timeInState;
        /** Builder style: the progress before the last advance. */
        float previousProgress;
        /**
         * Per state with a wait (by {@link Chart#waitSlot}): seconds its wait had counted when the state
         * was left early, or NaN. Made when a wait is first left early (or set so): until then, or for a
         * machine whose waits always end, {@code null}, all NaN (a cache line less for each wait).
         */
        double[] paused;
        /** Sends to itself not yet delivered; {@code null} until the machine first sends itself an event. */
        PendingSends sends;

    }
    /** Until a face gives it one: no entity, nothing to read (shared, as it holds nothing of the record). */
    private static final Self NO_SELF = new DetachedSelf("a machine on no face yet", null, () -> null);
    /** Set by the face that runs the record, or made by {@link #newSelf()} when first asked for; {@code null} until then. */
    private Self self;

    /** A record for {@code chart}, not started, holding {@code context}. */
    public MachineRecord(Chart chart, Object context) {
        this.chart = chart;
        this.config = new int[chart.configRoom];
        this.active = chart.size > 64 ? new boolean[chart.size] : null;
        boolean anyHistory = false;
        for (int s = 0; s < chart.size; s++) {
            anyHistory |= chart.parent[s] >= 0 && chart.type[s] == dev.enginestates.declare.StateType.HISTORY;
        }
        // most machines have no history state: they share one empty array
        this.history = anyHistory ? new int[chart.size][] : NO_HISTORY;
        for (int s = 0; anyHistory && s < chart.size; s++) {
            if (chart.parent[s] >= 0 && chart.type[s] == dev.enginestates.declare.StateType.HISTORY) {
                int p = chart.parent[s];
                history[s] = new int[chart.subtreeEnd[p] - p];
                history[s][0] = -1;
            }
        }
        this.times = chart.recordsTimes ? new double[chart.recordsClocks ? 2 * chart.timeRoom : chart.timeRoom] : null;
        this.seldom = chart.recordsPrevious ? new Seldom() : null;
        this.context = context;
    }

    /** The chart this record was made for. */
    public final Chart chart() {
        return chart;
    }

    /** {@link #NEW}, {@link #ACTIVE} or {@link #DONE}. */
    public final int status() {
        return status;
    }

    /** Whether a top-level final state has been reached. */
    public final boolean isDone() {
        return status == DONE;
    }

    /** The context object (the face's {@code context()} gives it typed). */
    public final Object contextObject() {
        return context;
    }

    /** Replaces the context object. */
    public final void context(Object context) {
        this.context = context;
    }

    /**
     * The {@link Self} the machine's actions, guards, {@code when} tests and seconds functions
     * receive: the face's object for this record, or one that has no entity, no world and no
     * face when no face has set one. Kept across {@link #copyFrom}.
     */
    public final Self self() {
        Self s = self;
        if (s == null) {
            self = s = newSelf(); // once per record: the first time its code runs
        }
        return s;
    }

    /**
     * The {@link Self} for a record whose face set none, made the first time the machine's code asks
     * (a record on an entity makes its own, so that a machine whose code never asks keeps no object
     * for it).
     *
     * @return a {@link Self}; here, one with no entity, no world and no face (shared)
     */
    protected Self newSelf() {
        return NO_SELF;
    }

    /** Sets the {@link Self} the machine's code receives; the face that runs the record sets it once. */
    public final void self(Self self) {
        this.self = self == null ? NO_SELF : self;
    }

    /** Whether a state is active. */
    public final boolean isActive(int state) {
        return active == null ? (activeBits >>> state & 1) != 0 : active[state];
    }

    /**
     * The active states as bits ({@code s} for state {@code s}) of a chart of up to 64 states, read
     * in one load by whoever compares whole configurations (the ECS face's tag moves).
     *
     * @throws IllegalStateException for a chart of more than 64 states (read {@link #isActive} there)
     */
    public final long activeBits() {
        if (active != null) {
            throw new IllegalStateException("machine '" + chart.machineId + "' has " + chart.size
                    + " states; its active states are bits only up to 64 states");
        }
        return activeBits;
    }

    private void setActive(int state) {
        if (active == null) {
            activeBits |= 1L << state;
        } else {
            active[state] = true;
        }
    }

    private void clearActive(int state) {
        if (active == null) {
            activeBits &= ~(1L << state);
        } else {
            active[state] = false;
        }
    }

    /**
     * Hides a state from {@link #isActive} and {@link #isIn} while a microstep's actions run:
     * under SCXML's order they see a state entered only from its own entry actions on, and a
     * state left only until its own exit actions have run. Neither this nor {@link #reveal}
     * changes the configuration's order or size.
     *
     * @param state a state the microstep entered, or left whose exit actions have run
     */
    public final void hide(int state) {
        clearActive(state);
    }

    /**
     * Shows a state to {@link #isActive} and {@link #isIn}: one {@link #hide} hid, or one the
     * microstep left whose exit actions have not run yet.
     *
     * @param state the state
     */
    public final void reveal(int state) {
        setActive(state);
    }

    /** How many states are active, the root included. */
    public final int activeCount() {
        return configSize;
    }

    /** The i-th active state in entry order. */
    public final int activeAt(int i) {
        return config[i];
    }

    /** How many states a history node remembers, or -1 when it remembers nothing yet (always, for a state that is no history node of a machine without one). */
    public final int historySize(int historyNode) {
        int[] h = historyNode < history.length ? history[historyNode] : null;
        return h == null ? -1 : h[0];
    }

    /** The i-th state a history node remembers. */
    public final int historyAt(int historyNode, int i) {
        return history[historyNode][1 + i];
    }

    /** The state whose wait is counting, or -1. */
    public final int waitState() {
        return waitState;
    }

    /** The clock time the current wait started counting (later by any time it was held). */
    public final double waitStart() {
        return waitStart;
    }

    /** The current wait's length in seconds (NaN when no wait is counting). */
    public final double waitSeconds() {
        return waitState < 0 ? Double.NaN : waitSeconds;
    }

    /** Seconds the current wait has counted at clock time {@code now}; 0 when no wait counts. */
    public final double waited(double now) {
        if (waitState < 0) {
            return 0;
        }
        return machineTime(now) - waitStart;
    }

    /** The clock time the current wait ends, or +infinity when there is none or it is held. */
    public final double waitDue() {
        return waitState < 0 || isHeld() ? Double.POSITIVE_INFINITY : waitStart + waitSeconds;
    }

    /** Seconds a state's wait had counted when the state was left before it ended, or NaN. */
    public final double paused(int state) {
        int w = chart.waitSlot[state];
        double[] paused = pausedOrNull();
        return w < 0 || paused == null ? Double.NaN : paused[w];
    }

    /** The side object, made on first use (the XState style's first paused seconds or send to itself). */
    private Seldom seldom() {
        Seldom x = seldom;
        if (x == null) {
            seldom = x = new Seldom();
        }
        return x;
    }

    /** The paused seconds by wait, or {@code null} while none were kept. */
    double[] pausedOrNull() {
        Seldom x = seldom;
        return x == null ? null : x.paused;
    }

    /** The pending sends to itself, or {@code null} while it never sent itself an event. */
    PendingSends sendsOrNull() {
        Seldom x = seldom;
        return x == null ? null : x.sends;
    }

    /** The paused seconds by wait, made (all NaN) on first use. */
    double[] pausedArray() {
        Seldom x = seldom();
        if (x.paused == null) {
            x.paused = new double[chart.waitCount];
            Arrays.fill(x.paused, Double.NaN);
        }
        return x.paused;
    }

    /** Whether the machine is held (its wait counts no seconds). */
    public final boolean isHeld() {
        Seldom x = seldom;
        return x != null && !Double.isNaN(x.heldSince);
    }

    /** The clock time the hold began, or NaN. */
    public final double heldSince() {
        Seldom x = seldom;
        return x == null ? Double.NaN : x.heldSince;
    }

    /** The type of the event this record is processing now, or {@code null} at rest. */
    public final String processing() {
        return busy ? processing : null;
    }

    /** Marks the record as processing an event (the algorithm's guard against re-entry). */
    public final void beginProcessing(String eventType) {
        busy = true;
        if (processing != eventType) {
            processing = eventType; // most events repeat their type: no reference store (and no GC write barrier) then
        }
    }

    /** Marks the record as at rest. */
    public final void endProcessing() {
        busy = false;
    }

    /** Whether the wait changed since {@link #clearWaitChanged()}. */
    public final boolean waitChanged() {
        return waitChanged;
    }

    /** Acknowledges a wait change. */
    public final void clearWaitChanged() {
        waitChanged = false;
    }

    /** Polled style: seconds the state has been active (0 when it is not), the root's since the start. */
    public final double clock(int state) {
        if (!chart.recordsClocks || !isActive(state)) {
            return 0;
        }
        int slot = chart.timeSlot[state];
        return times[slot] + times[chart.timeRoom + slot];
    }

    /** Polled style: {@link #clock(int)} of a state known to be active (one of {@link #activeAt}), read without asking. */
    public final double activeClock(int state) {
        int slot = chart.timeSlot[state];
        return times[slot] + times[chart.timeRoom + slot];
    }

    /** Polled style: the floating sum behind {@link #clock(int)}, as a checkpoint keeps it (0 for a state not active). */
    public final double clockSum(int state) {
        return isActive(state) ? times[chart.timeSlot[state]] : 0;
    }

    /** Polled style: the rounding the sum behind {@link #clock(int)} has lost, as a checkpoint keeps it (0 for a state not active). */
    public final double clockCarry(int state) {
        return isActive(state) ? times[chart.timeRoom + chart.timeSlot[state]] : 0;
    }

    /** Polled and builder styles: the leaf active before the last transition, or -1 before the first (always for the XState style). */
    public final int previousLeaf() {
        Seldom x = seldom;
        return x == null ? -1 : x.previous;
    }

    /** Polled style: whether the active {@code state} has fired its {@code after} since it was entered. */
    public final boolean afterFired(int state) {
        Seldom x = seldom;
        int d = chart.depth[state];
        // deeper states have no after (the compiler refuses it), and 1 << d would wrap onto a shallower one's bit
        return x != null && x.afterFired != 0 && d <= dev.enginestates.chart.PolledChart.MAX_AFTER_DEPTH && isActive(state)
                && (x.afterFired & (1 << d)) != 0;
    }

    /** Whether the record has its side object (a hold, paused seconds, sends, or the polled and builder styles' fields), for {@link RecordBytes}. */
    final boolean hasSeldom() {
        return seldom != null;
    }

    /** Polled style: the {@code after} marks by depth, as {@link RecordBytes} copies them whole. */
    final int afterFiredBits() {
        Seldom x = seldom;
        return x == null ? 0 : x.afterFired;
    }

    /** Sets the {@code after} marks by depth whole ({@link RecordBytes}). */
    final void afterFiredBits(int bits) {
        if (seldom != null || bits != 0) {
            seldom().afterFired = bits;
        }
    }

    /** Polled style: notes that the active {@code state} has fired its {@code after} in this stay (restores too). */
    public final void markAfterFired(int state) {
        assert isActive(state) && chart.depth[state] <= dev.enginestates.chart.PolledChart.MAX_AFTER_DEPTH : "after of " + chart.describe(state);
        seldom().afterFired |= 1 << chart.depth[state];
    }

    /**
     * {@link #leaf()} read from the active bits where the chart has at most 64 states: states are
     * numbered parents first, so the deepest of one active branch is the highest active number.
     * The builder style's step reads it, which then needs no load of the configuration's array.
     */
    public final int leafOfBranch() {
        return active != null ? leaf() : 63 - Long.numberOfLeadingZeros(activeBits);
    }

    /** The deepest active state of a machine with one active branch (the polled style), or -1. */
    public final int leaf() {
        return configSize == 0 ? -1 : config[configSize - 1];
    }

    // ---- mutation, used by the algorithm, the faces and restores

    /** XState style: notes the clock time a state was entered at; the state is active (it takes its depth's slot). */
    public final void markEntered(int state, double now) {
        assert isActive(state) : "entry time of a state not active: " + chart.describe(state);
        if (times != null && !chart.recordsClocks) {
            times[chart.timeSlot[state]] = now;
        }
    }

    /**
     * XState style: the clock time an active state was entered at; NaN for a state not active
     * (its slot may hold another state's time) and in the other styles.
     */
    public final double enteredAt(int state) {
        return times == null || chart.recordsClocks || !isActive(state) ? Double.NaN : times[chart.timeSlot[state]];
    }

    /** Polled style: sets an active state's seconds active (restores, the test kit). */
    public final void setClock(int state, double seconds) {
        assert isActive(state) : "clock of a state not active: " + chart.describe(state);
        int slot = chart.timeSlot[state];
        times[slot] = seconds;
        times[chart.timeRoom + slot] = 0;
    }

    /** Polled style: sets an active state's clock sum and carry exactly (restores). */
    public final void setClock(int state, double sum, double lost) {
        assert isActive(state) : "clock of a state not active: " + chart.describe(state);
        int slot = chart.timeSlot[state];
        times[slot] = sum;
        times[chart.timeRoom + slot] = lost;
    }

    /** Polled style: adds {@code dt} to the clock of every active state. */
    public final void advanceClocks(double dt) {
        double[] clocks = times;
        int lost = chart.timeRoom;
        int[] slots = chart.timeSlot;
        for (int i = 0; i < configSize; i++) {
            int s = slots[config[i]];
            // Neumaier's compensated sum: keep what the rounding of each addition dropped
            double sum = clocks[s];
            double t = sum + dt;
            clocks[lost + s] += Math.abs(sum) >= Math.abs(dt) ? (sum - t) + dt : (dt - t) + sum;
            clocks[s] = t;
        }
    }

    /** Polled style: sets the leaf active before the last transition (-1: none). */
    public final void previousLeaf(int leaf) {
        if (seldom != null || leaf >= 0) {
            seldom().previous = leaf;
        }
    }

    /** Starts holding at clock time {@code now}: the wait stops counting. No effect when already held. */
    public final void hold(double now) {
        if (!isHeld()) {
            seldom().heldSince = now; // a record's first hold makes its side object
            waitChanged = true;
        }
    }

    /** Stops holding at clock time {@code now}: the wait counts again from where it stood, and so do the sends to itself. */
    public final void release(double now) {
        Seldom x = seldom;
        if (x != null && !Double.isNaN(x.heldSince)) {
            double held = now - x.heldSince;
            waitStart += held;
            if (x.sends != null) {
                x.sends.shift(held);
            }
            x.heldSince = Double.NaN;
            waitChanged = true;
        }
    }

    /** The counting wait's state was left at clock time {@code now}: keep the seconds it waited in {@link #paused(int)}. */
    public final void leaveWait(double now) {
        if (waitState >= 0) {
            // never below 0: a floating sum of steps may fall a hair short of the wait's start
            pausedArray()[chart.waitSlot[waitState]] = Math.max(0, waited(now));
            waitState = -1;
            waitChanged = true;
        }
    }

    /**
     * A state with a wait was entered at clock time {@code now}: it counts from {@code alreadyWaited}
     * seconds (the paused seconds a history state brought back, else 0). Its paused seconds are used up.
     */
    public final void enterWait(int state, double seconds, double alreadyWaited, double now) {
        double[] paused = pausedOrNull();
        if (paused != null) {
            paused[chart.waitSlot[state]] = Double.NaN;
        }
        waitState = state;
        waitSeconds = seconds;
        waitStart = machineTime(now) - alreadyWaited;
        waitChanged = true;
    }

    /** Stops any wait without keeping its seconds (the machine is done). */
    public final void clearWait() {
        if (waitState >= 0) {
            waitState = -1;
            waitChanged = true;
        }
    }

    /** Sets the counting wait directly (restores): state, start time and seconds; -1 clears it. */
    public final void setWait(int state, double start, double seconds) {
        waitState = state;
        waitStart = start;
        waitSeconds = seconds;
        waitChanged = true;
    }

    /** Sets the clock time a hold began (NaN: not held), as a restore does. */
    public final void setHeldSince(double time) {
        if (seldom != null || !Double.isNaN(time)) {
            seldom().heldSince = time; // "not held" on a record that was never held makes no side object
        }
        waitChanged = true;
    }

    /**
     * Sets a state's paused seconds (NaN clears them).
     *
     * @throws IllegalArgumentException if seconds are given for a state without a wait (it keeps none)
     */
    public final void setPaused(int state, double seconds) {
        int w = chart.waitSlot[state];
        if (w >= 0) {
            if (pausedOrNull() != null || !Double.isNaN(seconds)) {
                pausedArray()[w] = seconds;
            }
        } else if (!Double.isNaN(seconds)) {
            throw new IllegalArgumentException("machine '" + chart.machineId + "': state '" + chart.path[state]
                    + "' has no wait, so it keeps no paused seconds");
        }
    }

    /** Puts the same active states back in an earlier entry order. */
    public final void restoreOrder(int[] order, int n) {
        if (n != configSize) {
            throw new IllegalArgumentException("restoreOrder needs the same " + configSize + " states, got " + n);
        }
        System.arraycopy(order, 0, config, 0, n);
    }

    /** Builder style: seconds in the current state (float, as the builder style counts them). */
    public final float timeInState() {
        Seldom x = seldom;
        return x == null ? 0f : x.timeInState; // 0 for the other styles, as before the side object
    }

    /** Builder style: sets the seconds in the current state. */
    public final void setTimeInState(float seconds) {
        seldom.timeInState = seconds;
    }

    /** Builder style: the progress before the last advance. */
    public final float previousProgress() {
        Seldom x = seldom;
        return x == null ? 0f : x.previousProgress;
    }

    /** Builder style: sets the progress before the last advance. */
    public final void setPreviousProgress(float progress) {
        seldom.previousProgress = progress;
    }

    /**
     * How many times states have been entered, modulo 2^32: a face compares it with the count it saw
     * last to see a step or an event move the machine (equal again only after 2^32 entries in between).
     */
    public final long entries() {
        return entries;
    }

    private int entries;

    /** The record was overwritten as a whole (a rewind): a face comparing its entries sees that it moved. */
    final void overwritten() {
        entries++;
    }

    /** Appends a state to the configuration. */
    public final void enter(int state) {
        entries++;
        if (!isActive(state)) {
            setActive(state);
            if (configSize == config.length) {
                config = Arrays.copyOf(config, chart.maxActive); // wider than the chart's deepest chain: not expected
            }
            config[configSize++] = state;
        }
    }

    /** Keeps the first {@code n} active states in entry order and removes the rest (a polled branch's exit). */
    public final void keepFirst(int n) {
        for (int i = n; i < configSize; i++) {
            clearActive(config[i]);
        }
        configSize = Math.min(configSize, n);
        Seldom x = seldom;
        if (x != null && n < 32) {
            // a branch is one state per depth: the states left take their afters' marks with them
            x.afterFired &= (1 << n) - 1;
        }
    }

    /** Removes every state marked in {@code leaving} from the configuration, keeping the others' order. */
    public final void removeMarked(boolean[] leaving) {
        int w = 0;
        for (int i = 0; i < configSize; i++) {
            int s = config[i];
            if (leaving[s]) {
                clearActive(s);
            } else {
                config[w++] = s;
            }
        }
        configSize = w;
    }

    /** Empties the configuration and stops the wait; history and paused seconds stay. */
    public final void clearConfiguration() {
        for (int i = 0; i < configSize; i++) {
            clearActive(config[i]);
        }
        configSize = 0;
        clearWait();
    }

    /** Empties the configuration and history, and sets the status to {@link #NEW}. */
    public final void reset() {
        clearConfiguration();
        for (int[] h : history) {
            if (h != null) {
                h[0] = -1;
            }
        }
        if (chart.recordsClocks) {
            Arrays.fill(times, 0); // the polled style's clocks and their carries
        }
        Seldom x = seldom;
        if (x != null) {
            if (x.paused != null) {
                Arrays.fill(x.paused, Double.NaN);
            }
            x.previous = -1;
            x.afterFired = 0;
            x.timeInState = 0f;
            x.previousProgress = 0f;
            if (x.sends != null) {
                x.sends.clear();
            }
        }
        waitState = -1;
        waitChanged = true;
        status = NEW;
    }

    /** Starts recording what a history node remembers. */
    public final void clearHistory(int historyNode) {
        history[historyNode][0] = 0;
    }

    /** What a history node remembers now (its count, -1 for nothing yet, then the states), to put back with {@link #historyFrom}. */
    public final int[] historyCopy(int historyNode) {
        return history[historyNode].clone();
    }

    /** Puts back what {@link #historyCopy} took of a history node. */
    public final void historyFrom(int historyNode, int[] copy) {
        System.arraycopy(copy, 0, history[historyNode], 0, copy.length);
    }

    /** Adds a remembered state to a history node. */
    public final void addHistory(int historyNode, int state) {
        int[] h = history[historyNode];
        h[1 + h[0]++] = state;
    }

    /** Sets the status. */
    public final void status(int status) {
        this.status = (byte) status;
    }

    // ---- random numbers: the generator's state is the record's, so whatever carries the record carries it

    /**
     * The state of the record's random numbers, as a checkpoint, a frame or a snapshot keeps it:
     * 0 while the machine's code has drawn none (its stream is seeded on the first draw).
     *
     * @return the state, 0 for "not seeded yet"
     */
    public final long randomState() {
        Seldom x = seldom;
        return x == null ? 0 : x.random;
    }

    /**
     * Sets the state of the record's random numbers (a restore, a replica, a plain machine given a seed).
     *
     * @param state a state {@link #randomState()} gave, or 0 to seed again on the next draw
     */
    public final void randomState(long state) {
        if (seldom != null || state != 0) {
            seldom().random = state; // "not seeded" on a record that never drew makes no side object
        }
    }

    /** The next 64 random bits of the record's stream, seeded now by {@link #randomSeed()} if it never drew. */
    @Override
    public final long nextLong() {
        Seldom x = seldom(); // a record's first draw makes its side object (polled and builder records have one)
        long s = x.random;
        if (s == 0) {
            s = randomSeed();
        }
        s = RandomStreams.next(s);
        x.random = s;
        return RandomStreams.mix(s);
    }

    /**
     * The first state of the record's stream, asked on its first draw: the face that runs the record
     * knows its world's seed and entity. Here, a stream of the machine's id alone.
     *
     * @return a state from {@link RandomStreams#seeded}, not 0
     */
    protected long randomSeed() {
        return RandomStreams.seeded(0, chart.machineId, "");
    }

    /** Copies another record of the same chart into this one (configuration, history, status, context). */
    public final void copyFrom(MachineRecord other) {
        if (other.chart != chart) {
            throw new IllegalArgumentException("records of different machines: '" + other.chart.machineId
                    + "' into '" + chart.machineId + "'");
        }
        if (other.configSize > config.length) {
            config = new int[other.config.length];
        }
        System.arraycopy(other.config, 0, config, 0, other.configSize);
        configSize = other.configSize;
        activeBits = other.activeBits;
        if (active != null) {
            System.arraycopy(other.active, 0, active, 0, active.length);
        }
        for (int h = 0; h < history.length; h++) {
            if (history[h] != null) {
                System.arraycopy(other.history[h], 0, history[h], 0, 1 + Math.max(0, other.history[h][0]));
            }
        }
        status = other.status;
        context = other.context;
        double[] otherPaused = other.pausedOrNull();
        if (otherPaused != null) {
            System.arraycopy(otherPaused, 0, pausedArray(), 0, otherPaused.length);
        } else if (pausedOrNull() != null) {
            Arrays.fill(pausedOrNull(), Double.NaN);
        }
        waitState = other.waitState;
        waitStart = other.waitStart;
        waitSeconds = other.waitSeconds;
        if (seldom != null || other.isHeld()) {
            seldom().heldSince = other.heldSince();
        }
        if (times != null) {
            System.arraycopy(other.times, 0, times, 0, times.length);
        }
        previousLeaf(other.previousLeaf());
        if (seldom != null || (other.seldom != null && other.seldom.afterFired != 0)) {
            seldom().afterFired = other.seldom == null ? 0 : other.seldom.afterFired;
        }
        PendingSends otherSends = other.sendsOrNull();
        if (otherSends != null && otherSends.count > 0) {
            sendsArray().copyFrom(otherSends);
        } else if (sendsOrNull() != null) {
            sendsOrNull().clear();
        }
        randomState(other.randomState());
        if (seldom != null && other.seldom != null) {
            seldom.timeInState = other.seldom.timeInState;
            seldom.previousProgress = other.seldom.previousProgress;
        }
        waitChanged = true;
    }


    // ---- the machine's own code: raise, sends to itself, In

    PendingSends sendsArray() {
        Seldom x = seldom();
        if (x.sends == null) {
            x.sends = new PendingSends();
        }
        return x.sends;
    }

    /**
     * The interpreter processing this record now, which the face that runs the record knows (a
     * plain machine's own, the world's current one): asked only when the machine's code raises or
     * sends itself an event, so the record keeps no field for it. {@code null} here: a record on
     * no face has no interpreter.
     *
     * @return the interpreter processing the record, or {@code null}
     */
    protected InternalQueue queue() {
        return null;
    }

    /** The interpreter processing this record now; refuses code that runs outside its machine's step. */
    private InternalQueue processingQueue(String verb, String name) {
        InternalQueue engine = busy ? queue() : null;
        if (engine == null || !chart.hasInternalQueue) {
            // the message is made only here: a raise or a send allocates nothing of its own
            String what = verb + " '" + name + "'" + (verb.equals("send") ? " to itself" : "");
            throw new IllegalStateException("machine '" + chart.machineId + "' cannot " + what + (busy ? ": only an XState-style"
                    + " machine has an internal queue" : " now: expected a call from its own actions while it processes an event"));
        }
        return engine;
    }

    /**
     * Which call into the library the record's move under way belongs to (see {@link InternalQueue#call()}).
     *
     * @return the call's number, or -1 when the record is at rest or no face runs it
     */
    public final long call() {
        InternalQueue q = busy ? queue() : null;
        return q == null ? -1 : q.call();
    }

    /** The event id of a type the machine's code raises or sends itself; refuses a type no descriptor matches. */
    private int knownEventId(String type) {
        int id = chart.eventId(type);
        if (id < 0 && chart.unknownEvents == dev.enginestates.declare.UnknownEvents.REJECT) {
            java.util.List<String> known = chart.knownEvents();
            throw new dev.enginestates.declare.UnknownEventException(chart.machineId, type, known,
                    dev.enginestates.chart.Names.closest(type, known));
        }
        return id;
    }

    /**
     * Raises an event on the internal queue of the interpreter processing this record (its
     * code's {@code Self.raise}).
     *
     * @param event the event
     * @throws IllegalStateException if the record is processing no event now
     * @throws dev.enginestates.declare.UnknownEventException if no descriptor matches its type and the machine rejects unknown events
     */
    public final void raise(dev.enginestates.declare.Event event) {
        java.util.Objects.requireNonNull(event, "event");
        InternalQueue q = processingQueue("raise", event.type());
        q.raise(this, event, knownEventId(event.type()));
    }

    /**
     * Raises an event of that type, the chart's own event object when a state names it exactly.
     *
     * @param type the event type
     */
    public final void raise(String type) {
        java.util.Objects.requireNonNull(type, "type");
        InternalQueue q = processingQueue("raise", type);
        int id = knownEventId(type);
        q.raise(this, id >= 0 && chart.isExact(id) ? chart.eventObjects[id] : dev.enginestates.declare.Event.of(type), id);
    }

    /**
     * Queues a send to itself, due {@code delaySeconds} after the current macrostep's clock time
     * (after the hold's start while held: a held machine's clock stands still).
     *
     * @param event        the event
     * @param delaySeconds seconds, finite and 0 or more
     * @param id           its id for {@link #cancel}, or {@code null}
     */
    public final void sendSelf(dev.enginestates.declare.Event event, double delaySeconds, String id) {
        java.util.Objects.requireNonNull(event, "event");
        InternalQueue q = processingQueue("send", event.type());
        if (!(delaySeconds >= 0) || Double.isInfinite(delaySeconds)) {
            throw new IllegalArgumentException("machine '" + chart.machineId + "': sendSelf('" + event.type() + "') needs a finite delay,"
                    + " 0 or more seconds; got " + delaySeconds);
        }
        int eid = knownEventId(event.type());
        double base = machineTime(q.clock());
        sendsArray().add(event, eid, base + delaySeconds, id);
        waitChanged = true;
    }

    /**
     * Cancels every pending send to itself with that id.
     *
     * @param id the id; not {@code null}
     */
    public final void cancel(String id) {
        java.util.Objects.requireNonNull(id, "id");
        processingQueue("cancel", id);
        PendingSends sends = sendsOrNull();
        if (sends != null && sends.cancel(id) > 0) {
            waitChanged = true;
        }
    }

    /**
     * Whether the named state is active.
     *
     * @param state a path from the root or {@code "#id"}
     * @return whether it is active
     * @throws IllegalArgumentException if it names no state
     */
    public final boolean isIn(String state) {
        int s = chart.stateNamed(java.util.Objects.requireNonNull(state, "state"));
        if (s < 0) {
            String closest = dev.enginestates.chart.Names.closest(state, chart.stateNames());
            throw new IllegalArgumentException("machine '" + chart.machineId + "' has no state '" + state + "'; expected a path from"
                    + " the root or '#id'" + (closest == null ? "" : "; did you mean '" + closest + "'?"));
        }
        return isActive(s);
    }

    /** How many sends to itself are pending. */
    public final int sendCount() {
        PendingSends sends = sendsOrNull();
        return sends == null ? 0 : sends.count;
    }

    /** The i-th pending send's due time, in delivery order. */
    public final double sendDue(int i) {
        return seldom.sends.due(i);
    }

    /** The i-th pending send's event. */
    public final dev.enginestates.declare.Event sendEvent(int i) {
        return seldom.sends.event(i);
    }

    /** The i-th pending send's event id in the chart (-1: none matches). */
    public final int sendEventId(int i) {
        return seldom.sends.eventId(i);
    }

    /** The i-th pending send's id, or {@code null}. */
    public final String sendId(int i) {
        return seldom.sends.id(i);
    }

    /** Removes the i-th pending send (delivered). */
    public final void removeSend(int i) {
        seldom.sends.removeAt(i);
        waitChanged = true;
    }

    /** The clock time the first pending send falls due (held or not), or +infinity when none is pending. */
    public final double firstSendDue() {
        PendingSends sends = sendsOrNull();
        return sends == null || sends.count == 0 ? Double.POSITIVE_INFINITY : sends.due(0);
    }

    /** The clock time the next send falls due, or +infinity when none is pending or the machine is held. */
    public final double nextSendDue() {
        PendingSends sends = sendsOrNull();
        return sends == null || sends.count == 0 || isHeld() ? Double.POSITIVE_INFINITY : sends.due(0);
    }

    /** The clock time the machine's clock stands at: {@code now}, or the hold's start while held. */
    public final double machineTime(double now) {
        Seldom x = seldom;
        return x == null || Double.isNaN(x.heldSince) ? now : x.heldSince;
    }

    /** Drops every pending send (a despawned machine, a restore). */
    public final void clearSends() {
        PendingSends sends = sendsOrNull();
        if (sends != null && sends.count > 0) {
            sends.clear();
            waitChanged = true;
        }
    }

    /** Appends a pending send as a restore reads it (in delivery order), the event's id looked up. */
    public final void restoreSend(dev.enginestates.declare.Event event, double due, String id) {
        sendsArray().add(event, chart.eventId(event.type()), due, id);
        waitChanged = true;
    }

    /**
     * XState style: moves every entry time by {@code dt} seconds, as a wait's start moves when the
     * record changes clocks (joins a world, leaves it, or the world's clock is set under it), so
     * {@code timeIn} keeps counting from the state's own entry. No effect in the other styles.
     *
     * @param dt seconds to add
     */
    public final void shiftEntryTimes(double dt) {
        if (times != null && !chart.recordsClocks) {
            for (int i = 0; i < times.length; i++) {
                times[i] += dt;
            }
        }
    }

    /** Moves every pending send's due time by {@code dt} (a record moving to another clock). */
    public final void shiftSends(double dt) {
        PendingSends sends = sendsOrNull();
        if (sends != null) {
            sends.shift(dt);
        }
    }
}

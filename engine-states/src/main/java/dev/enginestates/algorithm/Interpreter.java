package dev.enginestates.algorithm;

import dev.enginestates.Event;
import dev.enginestates.EventlessLoopException;
import dev.enginestates.UserCodeException;
import dev.enginestates.chart.Chart;
import dev.enginestates.chart.ChartCompiler;
import dev.enginestates.declare.Self;
import dev.enginestates.declare.SelfAction;
import dev.enginestates.declare.SelfGuard;
import dev.enginestates.declare.StateType;
import dev.enginestates.records.Completion;
import dev.enginestates.records.MachineRecord;

/**
 * Runs XState v5's statechart algorithm on records: start, send an event, take a given
 * transition (a wait's or a {@code when} rule's), each followed by eventless transitions and
 * done events until the machine settles (one "macrostep").
 *
 * <p>It follows what XState 5.33.3 does, including details that SCXML leaves open: the
 * configuration keeps the order states were entered in, and that order decides which region
 * of a parallel state is asked first and which eventless transition wins a conflict. A
 * microstep writes the new configuration first and then runs its actions: exits (innermost
 * first), the transitions' actions, entries (outermost first).
 *
 * <p>Not thread-safe: one interpreter per world (or plain-object machine). It keeps scratch
 * arrays sized for the largest chart it has seen and allocates nothing once warm.
 */
public final class Interpreter {
    /** Microsteps one event may cause before the machine is declared stuck in an eventless cycle. */
    public static final int MAX_MICROSTEPS = 10_000;
    private static final int NO_DOMAIN_LIMIT = Chart.ABOVE_ROOT;

    // transitions chosen for the current microstep, then filtered
    private int[] selected = new int[8];
    private int selectedCount;
    private int[] filtered = new int[8];
    private int[] filteredDomain = new int[8];
    private int filteredCount;
    private int[] candidateDomain = new int[8];
    private boolean[] dropFlag = new boolean[8];
    // exit and entry sets
    private boolean[] exitMark = new boolean[8];
    private int[] exitList = new int[8];
    private int exitCount;
    private boolean[] enterMark = new boolean[8];
    private int[] enterList = new int[8];
    private int enterCount;
    private boolean[] completed = new boolean[8];
    private int[] effective = new int[8];
    private int effectiveCount;
    private int[] doneOrder = new int[8];
    // internal queue of done events (state numbers)
    private int[] queue = new int[8];
    private int queueHead;
    private int queueTail;
    // actions of the current microstep
    @SuppressWarnings("unchecked")
    private SelfAction<Object>[] actions = (SelfAction<Object>[]) new SelfAction<?>[16];
    private int[] actionOwner = new int[16];
    private byte[] actionKind = new byte[16];
    private int[] actionTransition = new int[16];
    private int actionCount;
    private static final byte EXIT = 0;
    private static final byte TRANSITION = 1;
    private static final byte ENTRY = 2;
    // the last transitions taken, for the eventless-cycle message
    private final int[] recent = new int[16];
    private int recentCount;

    private Chart sizedFor;
    /** Clock time entries and exits happen at, for waits (the faces' fixed-step clock). */
    private double now;
    private boolean[] viaHistory = new boolean[8];
    // a state with a wait entered by the current microstep; its seconds are read after the actions
    private int pendingWait = -1;
    private boolean pendingWaitFromHistory;
    // the completed configuration that selection reads, as XState reads its state value
    private int[] view = new int[8];
    private int[] previousOrder = new int[8];
    private boolean[] viewMark = new boolean[8];
    private int viewSize;

    /** Sets the clock time that the next macrosteps' waits start and pause at. */
    public void clock(double now) {
        this.now = now;
    }

    /** The clock time in use. */
    public double clock() {
        return now;
    }

    /**
     * Starts a record: enters the root and its initial states (root's entry actions first),
     * then settles eventless transitions and done events. Any previous configuration and
     * history are discarded.
     */
    public void start(MachineRecord r) {
        begin(r, r.chart().initEvent);
        try {
            startNow(r);
        } finally {
            end(r);
        }
    }

    private void startNow(MachineRecord r) {
        Chart c = r.chart();
        ensure(c);
        r.reset();
        r.status(MachineRecord.ACTIVE);
        queueHead = queueTail = 0;
        actionCount = 0;
        enterCount = 0;
        addEnter(0);
        addDescendants(c, r, 0);
        enterAll(c, r);
        runActionsThenWait(c, r, c.initEvent);
        settle(c, r, c.initEvent, 0);
    }

    /**
     * Sends an event: selects the transitions of the active states (deepest first, every
     * region of a parallel state), takes them, then settles. An event id of -1 (an event no
     * state names) takes no transition but still settles, as XState does.
     *
     * @return whether a state took the event (a targetless transition counts)
     */
    public boolean send(MachineRecord r, int eventId, Event event) {
        begin(r, event);
        try {
            return sendNow(r, eventId, event);
        } finally {
            end(r);
        }
    }

    private boolean sendNow(MachineRecord r, int eventId, Event event) {
        Chart c = r.chart();
        ensure(c);
        if (r.status() != MachineRecord.ACTIVE) {
            return false;
        }
        queueHead = queueTail = 0;
        recentCount = 0;
        selectedCount = 0;
        if (eventId >= 0) {
            select(c, r, 0, eventId, event);
        }
        boolean handled = selectedCount > 0;
        if (handled) {
            microstep(c, r, event);
        }
        settle(c, r, event, 1);
        return handled;
    }

    /**
     * Takes one given transition (a wait's or a {@code when} rule's) as a microstep, then
     * settles. The caller has checked that its source is active.
     */
    public void take(MachineRecord r, int transition, Event event) {
        begin(r, event);
        try {
            takeNow(r, transition, event);
        } finally {
            end(r);
        }
    }

    private void takeNow(MachineRecord r, int transition, Event event) {
        Chart c = r.chart();
        ensure(c);
        if (r.status() != MachineRecord.ACTIVE) {
            return;
        }
        queueHead = queueTail = 0;
        recentCount = 0;
        selectedCount = 0;
        selected[selectedCount++] = transition;
        microstep(c, r, event);
        settle(c, r, event, 1);
    }

    /**
     * Puts a record directly into the configuration of the given states (each with its
     * ancestors and default descendants, as entering them would), as a game sets a state by
     * hand: no actions run, history is kept, a wait in the new configuration starts from zero.
     * The caller has checked that the states can be active together.
     */
    public void place(MachineRecord r, int[] targets) {
        begin(r, r.chart().initEvent);
        try {
            placeNow(r, targets);
        } finally {
            end(r);
        }
    }

    private void placeNow(MachineRecord r, int[] targets) {
        Chart c = r.chart();
        ensure(c);
        r.clearConfiguration();
        r.status(MachineRecord.ACTIVE);
        queueHead = queueTail = 0;
        actionCount = 0;
        enterCount = 0;
        addEnter(0);
        for (int s : targets) {
            if (c.type[s] != StateType.HISTORY) {
                addEnter(s);
            }
            addDescendants(c, r, s);
        }
        for (int s : targets) {
            for (int a = c.parent[s]; a >= 0; a = c.parent[a]) {
                addAncestor(c, r, a, NO_DOMAIN_LIMIT);
            }
        }
        enterAll(c, r);
        for (int i = 0; i < actionCount; i++) {
            actions[i] = null;
        }
        actionCount = 0;
        queueHead = queueTail = 0;
        startPendingWait(c, r, c.initEvent);
    }

    private boolean running;

    private void begin(MachineRecord r, Event event) {
        String busy = r.processing();
        if (busy != null) {
            Chart c = r.chart();
            throw new dev.enginestates.MachineException(c.machineId, "machine '" + c.machineId + "' got event '" + event.type()
                    + "' from its own guard or action while processing '" + busy + "'; a machine takes one event at a time:"
                    + " expected the event to come from outside (or use a transition's actions and targets instead)");
        }
        if (running) {
            throw new IllegalStateException("this interpreter is already processing an event; a nested send needs an interpreter of its own");
        }
        running = true;
        r.beginProcessing(event.type());
    }

    private void end(MachineRecord r) {
        running = false;
        r.endProcessing();
    }

    // ------------------------------------------------------------------ macrostep

    private void settle(Chart c, MachineRecord r, Event event, int steps) {
        boolean selectEventless = true;
        while (r.status() == MachineRecord.ACTIVE) {
            selectedCount = 0;
            if (selectEventless && c.hasEventless) {
                selectEventless(c, r, event);
            }
            boolean eventless = selectedCount > 0;
            if (!eventless) {
                if (queueHead == queueTail) {
                    break;
                }
                int p = queue[queueHead++];
                event = c.doneEvents[p];
                selectDone(c, r, p, event);
            }
            if (++steps > MAX_MICROSTEPS) {
                queueHead = queueTail = 0;
                throw loop(c, r, event);
            }
            boolean changed = microstep(c, r, event);
            selectEventless = !eventless || changed;
        }
        queueHead = queueTail = 0;
    }

    // ------------------------------------------------------------------ selection

    /**
     * XState's transitionNode over the state value: the deepest states are asked first, every
     * region of a parallel state is asked, and a state is asked only when nothing below it took
     * the event. The value is read from the completed configuration ({@link Completion}).
     */
    private void select(Chart c, MachineRecord r, int node, int eventId, Event event) {
        viewSize = Completion.complete(r, view, viewMark);
        selectIn(c, r, node, eventId, -1, event);
    }

    private void selectIn(Chart c, MachineRecord r, int node, int eventId, int doneState, Event event) {
        int before = selectedCount;
        int first = -1;
        int count = 0;
        for (int i = 0; i < viewSize; i++) {
            if (c.parent[view[i]] == node) {
                first = first < 0 ? view[i] : first;
                count++;
            }
        }
        if (c.type[node] == StateType.COMPOUND && first >= 0 && c.isLeaf(first)) {
            candidate(c, r, first, eventId, doneState, event);
        } else if (count == 1) {
            selectIn(c, r, first, eventId, doneState, event);
        } else {
            for (int i = 0; i < viewSize; i++) {
                if (c.parent[view[i]] == node) {
                    selectIn(c, r, view[i], eventId, doneState, event);
                }
            }
        }
        if (selectedCount == before) {
            candidate(c, r, node, eventId, doneState, event);
        }
    }

    /** The state's first enabled transition for the event (or for its own done event), if any. */
    private void candidate(Chart c, MachineRecord r, int node, int eventId, int doneState, Event event) {
        int[] candidates;
        if (eventId >= 0) {
            int[][] table = c.on[node];
            candidates = table == null ? null : table[eventId];
        } else {
            candidates = node == doneState ? c.onDone[node] : null;
        }
        int t = firstEnabled(c, r, candidates, event);
        if (t >= 0) {
            push(t);
        }
    }

    /** A done event is chosen like any event: only its own state names it, and only if the walk reaches it. */
    private void selectDone(Chart c, MachineRecord r, int state, Event event) {
        if (c.onDone[state] == null) {
            return;
        }
        viewSize = Completion.complete(r, view, viewMark);
        selectIn(c, r, 0, -1, state, event);
    }

    private void selectEventless(Chart c, MachineRecord r, Event event) {
        int n = r.activeCount();
        for (int i = 0; i < n; i++) {
            int leaf = r.activeAt(i);
            if (!c.isLeaf(leaf)) {
                continue;
            }
            for (int s = leaf; s >= 0; s = c.parent[s]) {
                int[] list = c.always[s];
                if (list == null) {
                    continue;
                }
                int t = firstEnabled(c, r, list, event);
                if (t >= 0) {
                    if (!contains(selected, selectedCount, t)) {
                        push(t);
                    }
                    break;
                }
            }
        }
    }

    private int firstEnabled(Chart c, MachineRecord r, int[] candidates, Event event) {
        if (candidates == null) {
            return -1;
        }
        for (int t : candidates) {
            SelfGuard<Object> g = c.tGuard[t];
            if (g == null) {
                return t;
            }
            boolean ok;
            try {
                ok = g.test(r.context(), event, r.self());
            } catch (RuntimeException | Error e) {
                queueHead = queueTail = 0;
                throw new UserCodeException(c.machineId, c.path[c.tSource[t]], event.type(),
                        "the guard of its '" + c.tLabel[t] + "' transition", e);
            }
            if (ok) {
                return t;
            }
        }
        return -1;
    }

    private void push(int t) {
        // at most one transition per active state is ever selected; ensure() sized for that
        selected[selectedCount++] = t;
    }

    // ------------------------------------------------------------------ microstep

    /**
     * Takes the selected transitions (after removing conflicts): exits, history, entries,
     * done events, then runs the actions. Returns whether the configuration or a history
     * changed, which XState uses to decide whether to look for eventless transitions again.
     */
    private boolean microstep(Chart c, MachineRecord r, Event event) {
        if (selectedCount == 0) {
            return false;
        }
        for (int i = 0; i < selectedCount; i++) {
            candidateDomain[i] = domain(c, r, selected[i]);
        }
        removeConflicts(c, r);
        for (int i = 0; i < filteredCount; i++) {
            remember(filtered[i]);
        }
        actionCount = 0;

        // exit set, in reverse document order
        exitCount = 0;
        int n = r.activeCount();
        for (int i = 0; i < n; i++) {
            int s = r.activeAt(i);
            for (int j = 0; j < filteredCount; j++) {
                if (inExitSet(c, filtered[j], filteredDomain[j], s)) {
                    exitMark[s] = true;
                    exitList[exitCount++] = s;
                    break;
                }
            }
        }
        sortDescending(exitList, exitCount);

        // history is recorded from the configuration before anything leaves it
        boolean historyChanged = false;
        for (int i = 0; i < exitCount; i++) {
            int s = exitList[i];
            for (int h : c.historyChildren[s]) {
                historyChanged = true;
                r.clearHistory(h);
                boolean deep = c.deepHistory[h];
                for (int k = 0; k < n; k++) {
                    int x = r.activeAt(k);
                    if (deep ? (c.isLeaf(x) && c.isDescendant(x, s)) : c.parent[x] == s) {
                        r.addHistory(h, x);
                    }
                }
            }
            for (SelfAction<Object> a : c.exit[s]) {
                addAction(a, s, EXIT, -1);
            }
            if (s == r.waitState()) {
                r.leaveWait(now);
            }
        }
        for (int i = 0; i < n; i++) {
            previousOrder[i] = r.activeAt(i);
        }
        r.removeMarked(exitMark);

        for (int j = 0; j < filteredCount; j++) {
            int t = filtered[j];
            for (SelfAction<Object> a : c.tActions[t]) {
                addAction(a, c.tSource[t], TRANSITION, t);
            }
        }

        // entry set, computed with the history just recorded
        enterCount = 0;
        for (int j = 0; j < filteredCount; j++) {
            int t = filtered[j];
            int d = historyChanged && c.tDomain[t] == Chart.DYNAMIC_DOMAIN ? domain(c, r, t) : filteredDomain[j];
            addEntrySet(c, r, t, d);
        }
        for (int i = 0; i < exitCount; i++) {
            exitMark[exitList[i]] = false;
        }
        enterAll(c, r);
        boolean sameSet = r.activeCount() == n;
        for (int i = 0; i < n && sameSet; i++) {
            sameSet = r.isActive(previousOrder[i]);
        }
        if (sameSet && !historyChanged) {
            // XState keeps the previous snapshot when nothing changed, and so its order of states
            r.restoreOrder(previousOrder, n);
        }
        boolean changed = historyChanged || !sameSet;
        runActionsThenWait(c, r, event);
        return changed;
    }

    /** Enters the states of {@link #enterList} in document order, queueing done events; runs nothing. */
    private void enterAll(Chart c, MachineRecord r) {
        sortAscending(enterList, enterCount);
        int completedFrom = 0;
        int waitEntered = -1;
        boolean waitFromHistory = false;
        for (int i = 0; i < enterCount; i++) {
            int s = enterList[i];
            enterMark[s] = false;
            if (c.waitTransition[s] >= 0) {
                waitEntered = s;
                waitFromHistory = viaHistory[s];
            }
            viaHistory[s] = false;
            r.enter(s);
            r.markEntered(s, now);
            for (SelfAction<Object> a : c.entry[s]) {
                addAction(a, s, ENTRY, -1);
            }
            if (c.type[s] != StateType.FINAL) {
                continue;
            }
            int p = c.parent[s];
            int marker = c.type[p] == StateType.PARALLEL ? p : c.parent[p];
            if (c.type[p] == StateType.COMPOUND) {
                enqueue(p);
            }
            while (marker >= 0 && c.type[marker] == StateType.PARALLEL && !completed[marker] && isInFinalState(c, r, marker)) {
                completed[marker] = true;
                doneOrder[completedFrom++] = marker;
                enqueue(marker);
                marker = c.parent[marker];
            }
            if (marker < 0) {
                r.status(MachineRecord.DONE);
            }
        }
        for (int i = 0; i < completedFrom; i++) {
            completed[doneOrder[i]] = false;
        }
        pendingWait = -1;
        if (waitEntered >= 0 && r.status() != MachineRecord.DONE) {
            // the wait counts from now; its seconds are read once the actions have run
            pendingWait = waitEntered;
            pendingWaitFromHistory = waitFromHistory;
            r.enterWait(waitEntered, Double.POSITIVE_INFINITY, resumedSeconds(r, waitEntered, waitFromHistory), now);
        }
        if (r.status() == MachineRecord.DONE) {
            r.clearWait();
            // the machine is done: every state still active exits, innermost last-entered first
            int n = r.activeCount();
            for (int i = 0; i < n; i++) {
                exitList[i] = r.activeAt(i);
            }
            sortDescending(exitList, n);
            // XState sorts its node list in place to exit them, so a done machine's configuration
            // stays in reverse document order (which decides the value of a compound state that
            // its parallel regions left with two active children)
            r.restoreOrder(exitList, n);
            for (int i = 0; i < n; i++) {
                for (SelfAction<Object> a : c.exit[exitList[i]]) {
                    addAction(a, exitList[i], EXIT, -1);
                }
            }
        }
    }

    private static double resumedSeconds(MachineRecord r, int s, boolean fromHistory) {
        return fromHistory && !Double.isNaN(r.paused(s)) ? r.paused(s) : 0;
    }

    /**
     * Runs the microstep's actions, then reads the seconds of a wait it entered: a wait
     * counts from zero, or from its paused seconds when a history state brought it back (the
     * {@code 003} document), and seconds from a function are read from the context as the
     * transition's and the entry actions left it (as XState resolves an {@code after} delay).
     * If an action throws, the seconds are still read, so the record keeps a valid wait.
     */
    private void runActionsThenWait(Chart c, MachineRecord r, Event event) {
        try {
            runActions(c, r, event);
        } catch (RuntimeException | Error e) {
            try {
                startPendingWait(c, r, event);
            } catch (RuntimeException also) {
                e.addSuppressed(also);
            }
            throw e;
        }
        startPendingWait(c, r, event);
    }

    private void startPendingWait(Chart c, MachineRecord r, Event event) {
        int s = pendingWait;
        if (s < 0) {
            return;
        }
        pendingWait = -1;
        if (r.waitState() != s) {
            return;
        }
        double seconds = c.waitSeconds[s];
        if (c.waitSecondsOf[s] != null) {
            // a function that throws or gives no usable number is the machine's error: its state
            // stays active with no wait counting (the wait will not end until the state is left)
            try {
                seconds = c.waitSecondsOf[s].of(r.context(), event, r.self());
            } catch (RuntimeException | Error e) {
                queueHead = queueTail = 0;
                r.clearWait();
                throw new UserCodeException(c.machineId, c.path[s], "(entry)", "the seconds function of the wait", e);
            }
            if (!(seconds >= 0) || Double.isInfinite(seconds)) {
                queueHead = queueTail = 0;
                r.clearWait();
                throw new UserCodeException(c.machineId, c.path[s], "(entry)", "the seconds function of the wait",
                        new IllegalArgumentException("it returned " + seconds + "; expected a finite number of seconds, 0 or more"));
            }
        }
        r.setWait(s, r.waitStart(), seconds);
    }

    private boolean isInFinalState(Chart c, MachineRecord r, int s) {
        StateType type = c.type[s];
        if (type == StateType.COMPOUND) {
            for (int child : c.regularChildren[s]) {
                if (c.type[child] == StateType.FINAL && r.isActive(child)) {
                    return true;
                }
            }
            return false;
        }
        if (type == StateType.PARALLEL) {
            for (int child : c.regularChildren[s]) {
                if (!isInFinalState(c, r, child)) {
                    return false;
                }
            }
            return true;
        }
        return type == StateType.FINAL;
    }

    private boolean inExitSet(Chart c, int t, int domain, int s) {
        if (c.tTargets[t].length == 0) {
            return false;
        }
        return (c.tReenter[t] && c.tSource[t] == domain && s == domain) || c.isDescendant(s, domain);
    }

    /** XState's removeConflictingTransitions: of two transitions whose exit sets overlap, the earlier wins unless the later is nested in its source. */
    private void removeConflicts(Chart c, MachineRecord r) {
        filteredCount = 0;
        for (int i = 0; i < selectedCount; i++) {
            int t1 = selected[i];
            int d1 = candidateDomain[i];
            boolean preempted = false;
            boolean anyDrop = false;
            for (int j = 0; j < filteredCount; j++) {
                dropFlag[j] = false;
            }
            for (int j = 0; j < filteredCount; j++) {
                int t2 = filtered[j];
                if (exitSetsIntersect(c, r, t1, d1, t2, filteredDomain[j])) {
                    if (c.isDescendant(c.tSource[t1], c.tSource[t2])) {
                        dropFlag[j] = true;
                        anyDrop = true;
                    } else {
                        preempted = true;
                        break;
                    }
                }
            }
            if (!preempted) {
                if (anyDrop) {
                    int w = 0;
                    for (int j = 0; j < filteredCount; j++) {
                        if (!dropFlag[j]) {
                            filtered[w] = filtered[j];
                            filteredDomain[w] = filteredDomain[j];
                            w++;
                        }
                    }
                    filteredCount = w;
                }
                filtered[filteredCount] = t1;
                filteredDomain[filteredCount] = d1;
                filteredCount++;
            }
        }
    }

    private boolean exitSetsIntersect(Chart c, MachineRecord r, int t1, int d1, int t2, int d2) {
        int n = r.activeCount();
        for (int i = 0; i < n; i++) {
            int s = r.activeAt(i);
            if (inExitSet(c, t1, d1, s) && inExitSet(c, t2, d2, s)) {
                return true;
            }
        }
        return false;
    }

    /** The transition's domain: precompiled, or computed from the current history when a target is a history state. */
    private int domain(Chart c, MachineRecord r, int t) {
        int d = c.tDomain[t];
        if (d != Chart.DYNAMIC_DOMAIN) {
            return d;
        }
        effectiveTargets(c, r, t);
        return ChartCompiler.domainOf(c.parent, c.subtreeEnd, c.tSource[t], effective, effectiveCount, c.tReenter[t]);
    }

    /** XState's getEffectiveTargetStates: history targets replaced by what they remember or their default. */
    private void effectiveTargets(Chart c, MachineRecord r, int t) {
        effectiveCount = 0;
        for (int x : c.tTargets[t]) {
            addEffective(c, r, x);
        }
    }

    private void addEffective(Chart c, MachineRecord r, int x) {
        if (c.type[x] != StateType.HISTORY) {
            if (!contains(effective, effectiveCount, x)) {
                effective[effectiveCount++] = x;
            }
            return;
        }
        int remembered = r.historySize(x);
        if (remembered >= 0) {
            for (int i = 0; i < remembered; i++) {
                int s = r.historyAt(x, i);
                if (!contains(effective, effectiveCount, s)) {
                    effective[effectiveCount++] = s;
                }
            }
            return;
        }
        int[] defaults = c.historyDefault[x];
        if (defaults != null) {
            for (int s : defaults) {
                addEffective(c, r, s);
            }
        } else {
            int p = c.parent[x];
            addEffective(c, r, c.type[p] == StateType.PARALLEL ? p : c.initial[p]);
        }
    }

    // ------------------------------------------------------------------ entry set (XState's computeEntrySet)

    private void addEntrySet(Chart c, MachineRecord r, int t, int domain) {
        int source = c.tSource[t];
        boolean reenter = c.tReenter[t];
        for (int s : c.tTargets[t]) {
            if (c.type[s] != StateType.HISTORY && (source != s || source != domain || reenter)) {
                addEnter(s);
            }
            addDescendants(c, r, s);
        }
        effectiveTargets(c, r, t);
        int reentrancyDomain = (source == 0 && reenter) ? NO_DOMAIN_LIMIT : domain;
        for (int i = 0; i < effectiveCount; i++) {
            int s = effective[i];
            if (s != domain) {
                for (int a = c.parent[s]; a >= 0 && a != domain; a = c.parent[a]) {
                    addAncestor(c, r, a, reentrancyDomain);
                }
            }
            if (domain >= 0 && c.type[domain] == StateType.PARALLEL) {
                addAncestor(c, r, domain, reentrancyDomain);
            }
        }
    }

    private void addAncestor(Chart c, MachineRecord r, int a, int reentrancyDomain) {
        if (c.isDescendant(a, reentrancyDomain)) {
            addEnter(a);
        }
        if (c.type[a] == StateType.PARALLEL) {
            for (int child : c.regularChildren[a]) {
                if (!hasEnterDescendant(c, child)) {
                    addEnter(child);
                    addDescendants(c, r, child);
                }
            }
        }
    }

    private void addDescendants(Chart c, MachineRecord r, int s) {
        StateType type = c.type[s];
        if (type == StateType.HISTORY) {
            int p = c.parent[s];
            int remembered = r.historySize(s);
            if (remembered >= 0) {
                for (int i = 0; i < remembered; i++) {
                    int x = r.historyAt(s, i);
                    addEnter(x);
                    viaHistory[x] = true;
                    addDescendants(c, r, x);
                }
                for (int i = 0; i < remembered; i++) {
                    addProperAncestors(c, r, r.historyAt(s, i), p);
                }
            } else {
                int[] defaults = c.historyDefault[s];
                if (defaults != null) {
                    for (int x : defaults) {
                        addEnter(x);
                        addDescendants(c, r, x);
                    }
                    for (int x : defaults) {
                        addProperAncestors(c, r, x, p);
                    }
                } else {
                    int x = c.type[p] == StateType.PARALLEL ? p : c.initial[p];
                    addEnter(x);
                    addDescendants(c, r, x);
                    addProperAncestors(c, r, x, p);
                }
            }
        } else if (type == StateType.COMPOUND) {
            int init = c.initial[s];
            addEnter(init);
            addDescendants(c, r, init);
        } else if (type == StateType.PARALLEL) {
            for (int child : c.regularChildren[s]) {
                if (!hasEnterDescendant(c, child)) {
                    addEnter(child);
                    addDescendants(c, r, child);
                }
            }
        }
    }

    private void addProperAncestors(Chart c, MachineRecord r, int s, int upTo) {
        if (s == upTo) {
            return;
        }
        for (int a = c.parent[s]; a >= 0 && a != upTo; a = c.parent[a]) {
            addAncestor(c, r, a, NO_DOMAIN_LIMIT);
        }
    }

    private boolean hasEnterDescendant(Chart c, int s) {
        int end = c.subtreeEnd[s];
        for (int x = s + 1; x < end; x++) {
            if (enterMark[x]) {
                return true;
            }
        }
        return false;
    }

    private void addEnter(int s) {
        if (!enterMark[s]) {
            enterMark[s] = true;
            enterList[enterCount++] = s;
        }
    }

    // ------------------------------------------------------------------ actions

    private void addAction(SelfAction<Object> a, int owner, byte kind, int transition) {
        if (actionCount == actions.length) {
            int n = actions.length * 2;
            actions = java.util.Arrays.copyOf(actions, n);
            actionOwner = java.util.Arrays.copyOf(actionOwner, n);
            actionKind = java.util.Arrays.copyOf(actionKind, n);
            actionTransition = java.util.Arrays.copyOf(actionTransition, n);
        }
        actions[actionCount] = a;
        actionOwner[actionCount] = owner;
        actionKind[actionCount] = kind;
        actionTransition[actionCount] = transition;
        actionCount++;
    }

    private void runActions(Chart c, MachineRecord r, Event event) {
        int count = actionCount;
        actionCount = 0;
        Object context = r.context();
        Self self = r.self();
        for (int i = 0; i < count; i++) {
            SelfAction<Object> a = actions[i];
            actions[i] = null;
            try {
                a.run(context, event, self);
            } catch (RuntimeException | Error e) {
                for (int k = i + 1; k < count; k++) {
                    actions[k] = null;
                }
                queueHead = queueTail = 0;
                String what = actionKind[i] == EXIT ? "an exit action"
                        : actionKind[i] == ENTRY ? "an entry action"
                        : "an action of its '" + c.tLabel[actionTransition[i]] + "' transition";
                throw new UserCodeException(c.machineId, c.path[actionOwner[i]], event.type(), what, e);
            }
        }
    }

    // ------------------------------------------------------------------ queue, loop detection, scratch

    private void enqueue(int state) {
        if (queueTail == queue.length) {
            if (queueHead > 0) {
                System.arraycopy(queue, queueHead, queue, 0, queueTail - queueHead);
                queueTail -= queueHead;
                queueHead = 0;
            } else {
                queue = grow(queue);
            }
        }
        queue[queueTail++] = state;
    }

    private void remember(int t) {
        recent[recentCount % recent.length] = t;
        recentCount++;
    }

    private EventlessLoopException loop(Chart c, MachineRecord r, Event event) {
        StringBuilder sb = new StringBuilder();
        sb.append("machine '").append(c.machineId).append("': eventless transitions or done events kept firing after event '")
                .append(event.type()).append("' (").append(MAX_MICROSTEPS)
                .append(" microsteps without settling); the last transitions taken:");
        int shown = Math.min(recentCount, recent.length);
        int listed = 0;
        int[] seen = new int[shown];
        for (int i = recentCount - shown; i < recentCount; i++) {
            int t = recent[i % recent.length];
            if (contains(seen, listed, t)) {
                continue;
            }
            seen[listed++] = t;
            sb.append("\n  ").append(c.describe(c.tSource[t])).append(" (").append(c.tLabel[t]).append(") -> ");
            int[] targets = c.tTargets[t];
            if (targets.length == 0) {
                sb.append("(no target)");
            }
            for (int k = 0; k < targets.length; k++) {
                sb.append(k == 0 ? "" : ", ").append(c.describe(targets[k]));
            }
        }
        sb.append("\nexpected a guard in that cycle to turn false; the machine is left in a valid configuration");
        return new EventlessLoopException(c.machineId, sb.toString());
    }

    private void ensure(Chart c) {
        if (c == sizedFor) {
            return;
        }
        int states = c.size + 1;
        int transitions = c.size + 1;
        if (exitMark.length < states) {
            exitMark = new boolean[states];
            enterMark = new boolean[states];
            completed = new boolean[states];
            exitList = new int[states];
            enterList = new int[states];
            viaHistory = new boolean[states];
            view = new int[states];
            previousOrder = new int[states];
            viewMark = new boolean[states];
            effective = new int[states];
            doneOrder = new int[states];
        }
        if (selected.length < transitions) {
            selected = new int[transitions];
            filtered = new int[transitions];
            filteredDomain = new int[transitions];
            candidateDomain = new int[transitions];
            dropFlag = new boolean[transitions];
        }
        sizedFor = c;
    }

    private static int[] grow(int[] a) {
        return java.util.Arrays.copyOf(a, a.length * 2);
    }

    private static boolean contains(int[] a, int n, int x) {
        for (int i = 0; i < n; i++) {
            if (a[i] == x) {
                return true;
            }
        }
        return false;
    }

    private static void sortAscending(int[] a, int n) {
        for (int i = 1; i < n; i++) {
            int x = a[i];
            int j = i - 1;
            while (j >= 0 && a[j] > x) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = x;
        }
    }

    private static void sortDescending(int[] a, int n) {
        for (int i = 1; i < n; i++) {
            int x = a[i];
            int j = i - 1;
            while (j >= 0 && a[j] < x) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = x;
        }
    }
}

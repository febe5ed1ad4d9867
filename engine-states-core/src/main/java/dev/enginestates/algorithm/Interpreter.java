package dev.enginestates.algorithm;

import dev.enginestates.declare.Event;
import dev.enginestates.declare.EventlessLoopException;
import dev.enginestates.declare.UserCodeException;
import dev.enginestates.chart.Chart;
import dev.enginestates.chart.ChartCompiler;
import dev.enginestates.declare.Self;
import dev.enginestates.declare.SelfAction;
import dev.enginestates.declare.SelfGuard;
import dev.enginestates.declare.Semantics;
import dev.enginestates.declare.StateType;
import dev.enginestates.records.Completion;
import dev.enginestates.records.InternalQueue;
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
 * <p>The methods carry the names of the steps they implement in the W3C SCXML algorithm
 * (Appendix D) and in XState's {@code stateUtils}, so a reader who knows either finds each step:
 *
 * <pre>
 * SCXML / XState                          here
 * interpret (initial transition)          interpret, for {@link #start}
 * macrostep (an external event)           macrostep, for {@link #send}; macrostepWith, for {@link #take} (a wait's or a when rule's transition)
 * mainEventLoop, until stable             completeMacrostep (eventless transitions, then one internal event: done or raised)
 * mainEventLoop's external queue          drainSends, deliverSend (sends to itself: no delay after the macrostep, delayed ones when due)
 * selectTransitions / transitionNode      selectTransitions, transitionNode, selectNodeTransition (XState's StateNode.next)
 * selectTransitions (internal event)      selectDoneTransitions
 * selectEventlessTransitions              selectEventlessTransitions
 * conditionMatch / evaluateGuard          conditionMatch (firstEnabledTransition: the first enabled wins)
 * removeConflictingTransitions            removeConflictingTransitions (exitSetsIntersect: hasIntersection)
 * microstep                               microstep
 *   computeExitSet                          computeExitSet (isInExitSet)
 *   exitStates (history recorded first)     exitStates
 *   executeTransitionContent                executeTransitionContent
 *   computeEntrySet                         computeEntrySet
 *     addDescendantStatesToEnter              addDescendantStatesToEnter
 *     addAncestorStatesToEnter                addAncestorStatesToEnter, addAncestorStateToEnter (one ancestor)
 *     addProperAncestorStatesToEnter          addProperAncestorStatesToEnter
 *   enterStates (done events raised)        enterStates (a done event queued after the entry actions before it: enqueue)
 * exitInterpreter (top-level final)       exitInterpreter
 * getTransitionDomain / findLCCA          getTransitionDomain ({@link ChartCompiler#getTransitionDomain} and its findLCCA)
 * getEffectiveTargetStates                getEffectiveTargetStates
 * isInFinalState                          isInFinalState
 * </pre>
 *
 * <p>As in XState, exitStates, executeTransitionContent and enterStates queue their actions and
 * the microstep runs them once the new configuration is written ({@code runActions}). Waits are
 * this engine's own: a wait entered by a microstep starts counting in enterStates and reads its
 * seconds after the actions ({@code runActionsThenWait}, {@code startPendingWait}).
 * {@link #place} sets a configuration by hand and is no step of the algorithm. A microstep of one
 * transition the chart found plain ({@code Chart.tPlain}: no code, no history, no done event)
 * reduces to its exit and entry sets ({@code plainMicrostep}); {@link #takePlain} is
 * macrostepWith for such a transition, which has nothing to settle after it.
 *
 * <p>Not thread-safe: one interpreter per world (or plain-object machine). It keeps scratch
 * arrays sized for the largest chart it has seen and allocates nothing once warm.
 */
public final class Interpreter implements InternalQueue {
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
    // the internal queue: done events (their state's number) and raised events (RAISED, with their event and id)
    private static final int RAISED = -1;
    private int[] queue = new int[8];
    private int[] queueEventId = new int[8];
    private Event[] queueEvent = new Event[8];
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
    /** Not an action: the owner's done event joins the internal queue here, after the entry actions before it (XState's and SCXML's order). */
    private static final byte DONE = 3;
    /**
     * Not an action: under {@link Semantics#SCXML} the owner, entered in this microstep, is hidden
     * from {@code isIn} until here, just before its own entry actions (SCXML 3.13 enterStates adds
     * each state to the configuration just before its onentry; under XSTATE all are there before any action).
     */
    private static final byte ENTER = 4;
    /**
     * Not an action: under {@link Semantics#SCXML} the owner, exited in this microstep, is still
     * seen by {@code isIn} until here, just after its own exit actions (SCXML 3.13 exitStates
     * removes each state just after its onexit; under XSTATE all are gone before any action).
     */
    private static final byte LEFT = 5;
    /** How many {@link #ENTER} and {@link #LEFT} marks the queued actions hold. */
    private int configMarks;
    /** The last transitions taken in a macrostep, for the eventless-loop error; a power of two long, indexed by mask. */
    private final int[] recent = new int[RECENT];
    private static final int RECENT = 16;
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

    /** The number of the call into the library that the face runs now (see {@link InternalQueue#call()}). */
    private long call;

    /** Sets the number of the call into the library that the next moves belong to. */
    public void call(long number) {
        this.call = number;
    }

    @Override
    public long call() {
        return call;
    }

    /** Sets the clock time that the next macrosteps' waits start and pause at. */
    public void clock(double now) {
        this.now = now;
    }

    /** The clock time in use (the current macrostep's). */
    @Override
    public double clock() {
        return now;
    }

    /**
     * Starts a record: enters the root and its initial states (root's entry actions first),
     * then settles eventless transitions and done events. Any previous configuration and
     * history are discarded.
     */
    public void start(MachineRecord r) {
        beginEvent(r, r.chart().initEvent);
        try {
            interpret(r);
        } finally {
            endEvent(r);
        }
    }

    /**
     * SCXML's {@code interpret}: the initial transition's microstep (the root and its initial
     * states entered, their entry actions run), then the rest of the first macrostep.
     */
    private void interpret(MachineRecord r) {
        Chart c = r.chart();
        ensureScratch(c);
        r.reset();
        r.status(MachineRecord.ACTIVE);
        clearQueue();
        actionCount = 0;
        configMarks = 0;
        enterCount = 0;
        addStateToEnter(0);
        addDescendantStatesToEnter(c, r, 0);
        enterStates(c, r);
        runActionsThenWait(c, r, c.initEvent);
        completeMacrostep(c, r, c.initEvent, 0);
        drainSends(r);
    }

    /**
     * Sends an event: selects the transitions of the active states (deepest first, every
     * region of a parallel state), takes them, then settles. An event id of -1 (an event no
     * state names) takes no transition but still settles, as XState does.
     *
     * @return whether a state took the event (a targetless transition counts)
     */
    public boolean send(MachineRecord r, int eventId, Event event) {
        beginEvent(r, event);
        try {
            boolean took = macrostep(r, eventId, event);
            drainSends(r);
            return took;
        } finally {
            endEvent(r);
        }
    }

    /**
     * Whether {@link #send} of the event would now return true: the transitions it would select
     * are selected (guards evaluated, deepest states first, every region) and none is taken. No
     * action, entry or exit runs, nothing is settled, and the record is left as it was: an event
     * a guard raises is dropped, and the random numbers' state is put back after guards that drew.
     * Refused, as a send is, when the record is processing an event (the machine's own code asks).
     *
     * @param eventId the event's id, -1 for one no state names (then false)
     */
    public boolean can(MachineRecord r, int eventId, Event event) {
        beginEvent(r, event);
        long random = r.randomState();
        try {
            if (eventId < 0 || r.status() != MachineRecord.ACTIVE) {
                return false;
            }
            Chart c = r.chart();
            ensureScratch(c);
            selectedCount = 0;
            selectTransitions(c, r, eventId, event);
            return selectedCount > 0;
        } finally {
            selectedCount = 0;
            clearQueue();
            r.randomState(random);
            endEvent(r);
        }
    }

    /**
     * Delivers the record's first pending send to itself (the face found it due and set the
     * clock to its due time) as an external event's macrostep, then any sends with no delay
     * that came of it.
     *
     * @return whether a state took the event
     */
    public boolean deliverSend(MachineRecord r) {
        Event event = r.sendEvent(0);
        beginEvent(r, event);
        try {
            int id = r.sendEventId(0);
            r.removeSend(0);
            boolean took = macrostep(r, id, event);
            drainSends(r);
            return took;
        } finally {
            endEvent(r);
        }
    }

    /**
     * SCXML's external queue for sends to itself: once a macrostep is complete, the sends due by
     * the machine's clock (those with no delay) are processed, each as an external event's
     * macrostep, in order, before anything from outside reaches the machine.
     */
    private void drainSends(MachineRecord r) {
        int delivered = 0;
        while (r.status() == MachineRecord.ACTIVE && r.firstSendDue() <= r.machineTime(now)) {
            Event e = r.sendEvent(0);
            int id = r.sendEventId(0);
            r.removeSend(0);
            if (++delivered > MAX_MICROSTEPS) {
                Chart c = r.chart();
                throw new EventlessLoopException(c.machineId, "machine '" + c.machineId + "' processed " + MAX_MICROSTEPS + " sends to itself in a row"
                        + " without its clock moving (sent with no delay, or falling due together), the last '" + e.type() + "'; expected"
                        + " a delay or a guard that ends the cycle; the machine is left in a valid configuration");
            }
            r.beginProcessing(e.type());
            macrostep(r, id, e);
        }
    }

    /** Queues a raised event on the internal queue, for the record this interpreter is processing. */
    @Override
    public void raise(MachineRecord r, Event event, int eventId) {
        enqueue(RAISED, eventId, event);
    }


    /**
     * XState's {@code macrostep} for an external event: select its transitions, take them as
     * one microstep, then complete the macrostep. Returns whether a transition was selected.
     */
    private boolean macrostep(MachineRecord r, int eventId, Event event) {
        Chart c = r.chart();
        ensureScratch(c);
        if (r.status() != MachineRecord.ACTIVE) {
            return false;
        }
        clearQueue();
        recentCount = 0;
        selectedCount = 0;
        if (eventId >= 0) {
            selectTransitions(c, r, eventId, event);
        }
        boolean handled = selectedCount > 0;
        if (handled) {
            microstep(c, r, event);
        }
        completeMacrostep(c, r, event, 1);
        return handled;
    }

    /**
     * Takes one given transition (a wait's or a {@code when} rule's) as a microstep, then
     * settles. The caller has checked that its source is active.
     */
    public void take(MachineRecord r, int transition, Event event) {
        beginEvent(r, event);
        try {
            macrostepWith(r, transition, event);
            drainSends(r);
        } finally {
            endEvent(r);
        }
    }

    /**
     * Takes a plain transition ({@link Chart#tPlain}) as {@link #take} would, without what a
     * macrostep does around its microstep: no code runs, nothing is queued and nothing follows (the
     * chart has no eventless transitions and no final state is entered), so only
     * {@link #plainMicrostep} is left. Returns false, having changed nothing, when the general path
     * must take it: the transition is not plain, the record or this interpreter is busy, the
     * machine is not running, it has sends to itself due now, or a state it would exit has exit
     * actions or a history ({@link #plainMicrostep}).
     */
    public boolean takePlain(MachineRecord r, int transition) {
        Chart c = r.chart();
        if (!c.tPlain[transition] || running || r.processing() != null || r.status() != MachineRecord.ACTIVE
                || r.firstSendDue() <= r.machineTime(now)) {
            return false;
        }
        ensureScratch(c);
        return plainMicrostep(c, r, transition, InstalledObservers.all) != NOT_PLAIN_HERE;
    }

    /** A macrostep whose first microstep takes the given transition instead of selecting one. */
    private void macrostepWith(MachineRecord r, int transition, Event event) {
        Chart c = r.chart();
        ensureScratch(c);
        if (r.status() != MachineRecord.ACTIVE) {
            return;
        }
        clearQueue();
        recentCount = 0;
        selectedCount = 0;
        selected[selectedCount++] = transition;
        microstep(c, r, event);
        completeMacrostep(c, r, event, 1);
    }

    /**
     * Puts a record directly into the configuration of the given states (each with its
     * ancestors and default descendants, as entering them would), as a game sets a state by
     * hand: no actions run, history is kept, a wait in the new configuration starts from zero.
     * The caller has checked that the states can be active together.
     */
    public void place(MachineRecord r, int[] targets) {
        place(r, targets, null);
    }

    /**
     * {@link #place(MachineRecord, int[])} for a migration: a wait of a state in {@code kept} (by
     * state; {@code null}: none) is not started, its seconds not asked of the machine's code: the
     * migration gives it the wait it had.
     */
    public void place(MachineRecord r, int[] targets, boolean[] kept) {
        beginEvent(r, r.chart().initEvent);
        try {
            placeConfiguration(r, targets, kept);
        } finally {
            endEvent(r);
        }
    }

    /**
     * Not a step of the algorithm: the entry set of the given states is computed and entered as
     * {@link #enterStates} does, and the actions that queued are dropped.
     */
    private void placeConfiguration(MachineRecord r, int[] targets, boolean[] kept) {
        Chart c = r.chart();
        ensureScratch(c);
        r.clearConfiguration();
        r.status(MachineRecord.ACTIVE);
        clearQueue();
        actionCount = 0;
        enterCount = 0;
        addStateToEnter(0);
        for (int s : targets) {
            if (c.type[s] != StateType.HISTORY) {
                addStateToEnter(s);
            }
            addDescendantStatesToEnter(c, r, s);
        }
        for (int s : targets) {
            addAncestorStatesToEnter(c, r, s, Chart.ABOVE_ROOT, NO_DOMAIN_LIMIT); // every proper ancestor
        }
        enterStates(c, r);
        for (int i = 0; i < actionCount; i++) {
            actions[i] = null;
        }
        actionCount = 0;
        configMarks = 0;
        clearQueue();
        if (kept != null && pendingWait >= 0 && kept[pendingWait]) {
            pendingWait = -1; // its wait is the one it had, which the migration writes
            r.clearWait();
            return;
        }
        startPendingWait(c, r, c.initEvent);
    }

    private boolean running;

    /** Refuses an event sent to a record from its own code, or to a busy interpreter; marks the record busy. */
    private void beginEvent(MachineRecord r, Event event) {
        String busy = r.processing();
        if (busy != null) {
            Chart c = r.chart();
            throw new dev.enginestates.declare.MachineException(c.machineId, "machine '" + c.machineId + "' got event '" + event.type()
                    + "' from its own guard or action while processing '" + busy + "'; a machine takes one event at a time:"
                    + " expected the event to come from outside (or use a transition's actions and targets instead)");
        }
        if (running) {
            throw new IllegalStateException("this interpreter is already processing an event; a nested send needs an interpreter of its own");
        }
        running = true;
        r.beginProcessing(event.type());
    }

    /** Marks the record and this interpreter free again. */
    private void endEvent(MachineRecord r) {
        running = false;
        r.endProcessing();
    }

    // ------------------------------------------------------------------ macrostep

    /**
     * The rest of a macrostep, as SCXML's {@code mainEventLoop} and XState's {@code macrostep}
     * run it after a microstep: eventless transitions first ({@link #selectEventlessTransitions}),
     * looked for again only after a microstep that changed something; when there are none, the
     * next done event of the internal queue ({@link #selectDoneTransitions}); until neither
     * selects anything (the machine is stable) or the machine is done.
     */
    private void completeMacrostep(Chart c, MachineRecord r, Event event, int steps) {
        boolean selectEventless = true;
        while (r.status() == MachineRecord.ACTIVE) {
            selectedCount = 0;
            if (selectEventless && c.hasEventless) {
                selectEventlessTransitions(c, r, event);
            }
            boolean eventless = selectedCount > 0;
            if (!eventless) {
                if (queueHead == queueTail) {
                    break;
                }
                int p = queue[queueHead];
                if (p == RAISED) {
                    // SCXML's internal event (XState's raise): selected as any event is
                    event = queueEvent[queueHead];
                    int id = queueEventId[queueHead];
                    queueEvent[queueHead++] = null;
                    if (id >= 0) {
                        selectTransitions(c, r, id, event);
                    }
                } else {
                    queueHead++;
                    event = c.doneEvents[p];
                    selectDoneTransitions(c, r, p, event);
                }
            }
            if (++steps > MAX_MICROSTEPS) {
                clearQueue();
                throw eventlessLoop(c, r, event);
            }
            boolean changed = microstep(c, r, event);
            selectEventless = !eventless || changed;
        }
        clearQueue();
    }

    // ------------------------------------------------------------------ selection

    /**
     * SCXML's {@code selectTransitions}, done as XState does it, by {@link #transitionNode} over
     * the state value, read from the completed configuration ({@link Completion}).
     */
    private void selectTransitions(Chart c, MachineRecord r, int eventId, Event event) {
        viewSize = Completion.complete(r, view, viewMark);
        transitionNode(c, r, 0, eventId, -1, event);
    }

    /**
     * XState's {@code transitionNode}: the deepest states are asked first, every region of a
     * parallel state is asked, and a state is asked only when nothing below it took the event.
     * The three branches are XState's {@code transitionAtomicNode} (a compound state whose
     * active child is a leaf), {@code transitionCompoundNode} (one active child) and
     * {@code transitionParallelNode} (several); each falls back to the node's own transitions.
     */
    private void transitionNode(Chart c, MachineRecord r, int node, int eventId, int doneState, Event event) {
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
            selectNodeTransition(c, r, first, eventId, doneState, event);
        } else if (count == 1) {
            transitionNode(c, r, first, eventId, doneState, event);
        } else {
            for (int i = 0; i < viewSize; i++) {
                if (c.parent[view[i]] == node) {
                    transitionNode(c, r, view[i], eventId, doneState, event);
                }
            }
        }
        if (selectedCount == before) {
            selectNodeTransition(c, r, node, eventId, doneState, event);
        }
    }

    /**
     * XState's {@code StateNode.next}: the state's first enabled transition for the event (or
     * for its own done event), if any, is selected.
     */
    private void selectNodeTransition(Chart c, MachineRecord r, int node, int eventId, int doneState, Event event) {
        int t = node == doneState ? firstEnabledTransition(c, r, c.onDone[node], event) : -1;
        if (t < 0 && eventId >= 0) {
            int[][] table = c.on[node];
            t = firstEnabledTransition(c, r, table == null ? null : table[eventId], event);
        }
        if (t >= 0) {
            addEnabledTransition(t);
        }
    }

    /**
     * SCXML's {@code selectTransitions} for an internal done event: chosen like any event, only
     * its own state names it, and only if the walk reaches it.
     */
    private void selectDoneTransitions(Chart c, MachineRecord r, int state, Event event) {
        // a descriptor may match the done event too ('*', 'xstate.done.*'): then it is selected as any event, after onDone
        int id = c.doneEventsMatch ? c.eventId(event.type()) : -1;
        if (c.onDone[state] == null && id < 0) {
            return;
        }
        viewSize = Completion.complete(r, view, viewMark);
        transitionNode(c, r, 0, id, state, event);
    }

    /**
     * SCXML's and XState's {@code selectEventlessTransitions}: for each active leaf, the first
     * enabled eventless transition of it or its nearest ancestor that has one.
     */
    private void selectEventlessTransitions(Chart c, MachineRecord r, Event event) {
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
                int t = firstEnabledTransition(c, r, list, event);
                if (t >= 0) {
                    if (!contains(selected, selectedCount, t)) {
                        addEnabledTransition(t);
                    }
                    break;
                }
            }
        }
    }

    /** The first of the candidates whose guard holds (the first enabled wins), or -1. */
    private int firstEnabledTransition(Chart c, MachineRecord r, int[] candidates, Event event) {
        if (candidates == null) {
            return -1;
        }
        for (int t : candidates) {
            if (conditionMatch(c, r, t, event)) {
                return t;
            }
        }
        return -1;
    }

    /** SCXML's {@code conditionMatch} (XState's {@code evaluateGuard}): whether the transition's guard holds; no guard holds. */
    private boolean conditionMatch(Chart c, MachineRecord r, int t, Event event) {
        int in = c.tInState[t];
        if (in >= 0) {
            return r.isActive(in); // SCXML's In(), XState's stateIn
        }
        SelfGuard<Object> g = c.tGuard[t];
        if (g == null) {
            return true;
        }
        jdk.jfr.Event timer = Flight.timeCode();
        try {
            boolean holds = g.test(r.contextObject(), event, r.self());
            if (timer != null) {
                Flight.timed(timer, c.machineId, r.self(), c.path[c.tSource[t]], event.type(), "guard of transition", c.tLabel[t]);
            }
            return holds;
        } catch (Throwable e) {
            Flight.threw(timer);
            clearQueue();
            throw new UserCodeException(c.machineId, c.path[c.tSource[t]], event.type(),
                    "the guard of its '" + c.tLabel[t] + "' transition", e);
        }
    }

    /** Adds a transition to the enabled set of this microstep. */
    private void addEnabledTransition(int t) {
        // at most one transition per active state is ever selected; ensureScratch() sized for that
        selected[selectedCount++] = t;
    }

    // ------------------------------------------------------------------ microstep

    /**
     * SCXML's and XState's {@code microstep}: takes the selected transitions (after
     * {@link #removeConflictingTransitions}) as one step: {@link #computeExitSet},
     * {@link #exitStates} (history recorded first), {@link #executeTransitionContent},
     * {@link #computeEntrySet}, {@link #enterStates} (done events raised), then runs the actions
     * those steps queued, in that order. Returns whether the configuration or a history changed,
     * which XState uses to decide whether to look for eventless transitions again.
     */
    private boolean microstep(Chart c, MachineRecord r, Event event) {
        if (selectedCount == 0) {
            return false;
        }
        if (selectedCount == 1 && c.tPlain[selected[0]]) {
            int moved = plainMicrostep(c, r, selected[0], InstalledObservers.all);
            if (moved != NOT_PLAIN_HERE) {
                rememberTaken(selected[0]);
                return moved == 1;
            }
        }
        if (selectedCount == 1 && c.tEntry[selected[0]] != null) {
            // one transition, nothing to conflict with, and its domain is static (no history target)
            filtered[0] = selected[0];
            filteredDomain[0] = c.tDomain[selected[0]];
            filteredCount = 1;
        } else {
            for (int i = 0; i < selectedCount; i++) {
                candidateDomain[i] = getTransitionDomain(c, r, selected[i]);
            }
            removeConflictingTransitions(c, r);
        }
        MoveObserver[] observers = InstalledObservers.all;
        for (int i = 0; i < filteredCount; i++) {
            rememberTaken(filtered[i]);
            if (observers != null) {
                InstalledObservers.moved(observers, r, filtered[i], c.tSource[filtered[i]], -1);
            }
        }
        actionCount = 0;
        configMarks = 0;
        int n = r.activeCount(); // the configuration before the step, kept in previousOrder by exitStates
        computeExitSet(c, r);
        boolean historyChanged = exitStates(c, r, n);
        executeTransitionContent(c);
        computeEntrySet(c, r, historyChanged);
        for (int i = 0; i < exitCount; i++) {
            exitMark[exitList[i]] = false;
        }
        enterStates(c, r);
        boolean sameSet = r.activeCount() == n;
        for (int i = 0; i < n && sameSet; i++) {
            sameSet = r.isActive(previousOrder[i]);
        }
        if (sameSet && !historyChanged) {
            // XState keeps the previous snapshot when nothing changed, and so its order of states
            r.restoreOrder(previousOrder, n);
        }
        boolean changed = historyChanged || !sameSet || (c.semantics == Semantics.SCXML && actionCount > configMarks);
        runActionsThenWait(c, r, event);
        return changed;
    }

    /** {@link #plainMicrostep}'s answer when the transition is not plain in this configuration: nothing changed. */
    private static final int NOT_PLAIN_HERE = -1;

    /**
     * The microstep of one plain transition ({@link Chart#tPlain}), which has nothing to queue: its
     * exit set (the active states its domain contains, as {@link #computeExitSet} finds them)
     * leaves, a wait among it pausing; its entry set (the chart's) enters; and a wait entered starts
     * with its constant seconds. With no actions, history or done events, the order of exits and
     * entries shows nowhere, so neither set is sorted. Returns 1 when the configuration changed, 0
     * when it did not (as {@link #microstep} tells), or {@link #NOT_PLAIN_HERE}, having changed
     * nothing, when a state in the exit set has exit actions or a history: the chart rules such
     * states out for configurations of its own shape, but XState's dynamic domains can leave others
     * (a parallel state's regions active without it, see {@code records.Configurations}), where the
     * exit set reaches further (never, in a chart where no state has either: {@link Chart#leavesQuietly}).
     */
    private int plainMicrostep(Chart c, MachineRecord r, int transition, MoveObserver[] observers) {
        int domain = c.tDomain[transition];
        if (!c.leavesQuietly && !exitsQuietly(c, r, transition, domain)) {
            return NOT_PLAIN_HERE;
        }
        if (observers != null) { // the move before the entries it causes, as the general path tells them
            InstalledObservers.moved(observers, r, transition, c.tSource[transition], -1);
        }
        int n = r.activeCount();
        int leaving = 0;
        for (int i = 0; i < n; i++) {
            int s = r.activeAt(i);
            previousOrder[i] = s;
            if (isInExitSet(c, transition, domain, s)) {
                exitMark[s] = true;
                exitList[leaving++] = s;
                if (s == r.waitState()) {
                    r.leaveWait(now);
                }
            }
        }
        r.removeMarked(exitMark);
        for (int i = 0; i < leaving; i++) {
            exitMark[exitList[i]] = false;
        }
        int wait = -1;
        for (int s : c.tEntry[transition]) {
            if (c.waitTransition[s] >= 0) {
                wait = s;
            }
            r.enter(s);
            r.markEntered(s, now);
            if (observers != null) {
                InstalledObservers.entered(observers, r, s);
            }
        }
        boolean sameSet = r.activeCount() == n;
        for (int i = 0; i < n && sameSet; i++) {
            sameSet = r.isActive(previousOrder[i]);
        }
        if (sameSet) {
            r.restoreOrder(previousOrder, n); // XState keeps the previous snapshot, and its order, when nothing changed
        }
        if (wait >= 0) {
            r.enterWait(wait, Double.POSITIVE_INFINITY, 0, now);
            r.setWait(wait, r.waitStart(), c.waitSeconds[wait]);
        }
        return sameSet ? 0 : 1;
    }

    /** Whether no state in the transition's exit set, in this configuration, has exit actions or a history. */
    private static boolean exitsQuietly(Chart c, MachineRecord r, int transition, int domain) {
        for (int i = 0, n = r.activeCount(); i < n; i++) {
            int s = r.activeAt(i);
            if (isInExitSet(c, transition, domain, s) && (c.exit[s].length > 0 || c.historyChildren[s].length > 0)) {
                return false;
            }
        }
        return true;
    }

    /**
     * SCXML's and XState's {@code computeExitSet} for the enabled transitions: the active states
     * each one's domain contains ({@link #isInExitSet}), in {@link #exitList} in reverse document
     * order (innermost first, regions last to first) and marked in {@link #exitMark}.
     */
    private void computeExitSet(Chart c, MachineRecord r) {
        exitCount = 0;
        int n = r.activeCount();
        for (int i = 0; i < n; i++) {
            int s = r.activeAt(i);
            for (int j = 0; j < filteredCount; j++) {
                if (isInExitSet(c, filtered[j], filteredDomain[j], s)) {
                    exitMark[s] = true;
                    exitList[exitCount++] = s;
                    break;
                }
            }
        }
        sortDescending(exitList, exitCount);
    }

    /**
     * SCXML's and XState's {@code exitStates}: each history state of a state in the exit set
     * records what is active before anything leaves, then each state exits in exit order (its
     * exit actions queued, a wait of its paused), and the configuration drops them. The
     * configuration before, {@code n} states, is kept in {@link #previousOrder}. Returns whether
     * a history was recorded.
     */
    private boolean exitStates(Chart c, MachineRecord r, int n) {
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
            if (c.semantics == Semantics.SCXML) {
                addAction(null, s, LEFT, -1);
                configMarks++;
            }
            if (s == r.waitState()) {
                r.leaveWait(now);
            }
        }
        for (int i = 0; i < n; i++) {
            previousOrder[i] = r.activeAt(i);
        }
        r.removeMarked(exitMark);
        return historyChanged;
    }

    /** SCXML's {@code executeTransitionContent}: the enabled transitions' actions are queued, in document order of the transitions. */
    private void executeTransitionContent(Chart c) {
        for (int j = 0; j < filteredCount; j++) {
            int t = filtered[j];
            for (SelfAction<Object> a : c.tActions[t]) {
                addAction(a, c.tSource[t], TRANSITION, t);
            }
        }
    }

    /**
     * SCXML's and XState's {@code computeEntrySet} for the enabled transitions, in
     * {@link #enterList}: each target with its descendants ({@link #addDescendantStatesToEnter}),
     * then each effective target's ancestors below the domain
     * ({@link #addAncestorStatesToEnter}). A domain that depends on a history state is computed
     * again when {@link #exitStates} just recorded one. A lone transition without history targets
     * takes the entry set the chart computed for it ({@link Chart#tEntry}), which is the same.
     */
    private void computeEntrySet(Chart c, MachineRecord r, boolean historyChanged) {
        enterCount = 0;
        int[] precomputed = filteredCount == 1 ? c.tEntry[filtered[0]] : null;
        if (precomputed != null) {
            // a lone transition without history targets: its entry set is the chart's (Chart.tEntry), in document order
            System.arraycopy(precomputed, 0, enterList, 0, precomputed.length);
            enterCount = precomputed.length;
            return;
        }
        computeEntrySetInGeneral(c, r, historyChanged);
    }

    /** {@link #computeEntrySet} for any enabled transitions, history targets included. */
    private void computeEntrySetInGeneral(Chart c, MachineRecord r, boolean historyChanged) {
        for (int j = 0; j < filteredCount; j++) {
            int t = filtered[j];
            int domain = historyChanged && c.tDomain[t] == Chart.DYNAMIC_DOMAIN ? getTransitionDomain(c, r, t) : filteredDomain[j];
            int source = c.tSource[t];
            boolean reenter = c.tReenter[t];
            for (int s : c.tTargets[t]) {
                if (c.type[s] != StateType.HISTORY && (source != s || source != domain || reenter)) {
                    addStateToEnter(s);
                }
                addDescendantStatesToEnter(c, r, s);
            }
            getEffectiveTargetStates(c, r, t);
            int reentrancyDomain = (source == 0 && reenter) ? NO_DOMAIN_LIMIT : domain;
            for (int i = 0; i < effectiveCount; i++) {
                int s = effective[i];
                if (s != domain) {
                    addAncestorStatesToEnter(c, r, s, domain, reentrancyDomain);
                }
                if (domain >= 0 && c.type[domain] == StateType.PARALLEL) {
                    addAncestorStateToEnter(c, r, domain, reentrancyDomain);
                }
            }
        }
    }

    /**
     * SCXML's and XState's {@code enterStates}, once the entry set is in {@link #enterList}: the
     * states are entered in document order (outermost first, regions first to last), their
     * entry actions queued; entering a final state raises its parent's done event, and the done
     * events of parallel ancestors all of whose regions are now final; a top-level final state
     * ends the machine ({@link #exitInterpreter}). A wait entered starts counting now; its
     * seconds are read once the actions have run. Runs nothing.
     */
    private void enterStates(Chart c, MachineRecord r) {
        sortAscending(enterList, enterCount);
        boolean scxmlOrder = c.semantics == Semantics.SCXML;
        int completedFrom = 0;
        int waitEntered = -1;
        boolean waitFromHistory = false;
        MoveObserver[] observers = InstalledObservers.all;
        for (int i = 0; i < enterCount; i++) {
            int s = enterList[i];
            enterMark[s] = false;
            if (c.waitTransition[s] >= 0) {
                waitEntered = s;
                waitFromHistory = viaHistory[s];
            }
            viaHistory[s] = false;
            if (scxmlOrder && !r.isActive(s)) {
                addAction(null, s, ENTER, -1);
                configMarks++;
            }
            r.enter(s);
            r.markEntered(s, now);
            if (observers != null) {
                InstalledObservers.entered(observers, r, s);
            }
            for (SelfAction<Object> a : c.entry[s]) {
                addAction(a, s, ENTRY, -1);
            }
            if (c.type[s] != StateType.FINAL) {
                continue;
            }
            int p = c.parent[s];
            int marker = c.type[p] == StateType.PARALLEL ? p : c.parent[p];
            if (c.type[p] == StateType.COMPOUND) {
                addAction(null, p, DONE, -1);
            }
            while (marker >= 0 && c.type[marker] == StateType.PARALLEL && !completed[marker] && isInFinalState(c, r, marker)) {
                completed[marker] = true;
                doneOrder[completedFrom++] = marker;
                addAction(null, marker, DONE, -1);
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
            exitInterpreter(c, r);
        }
    }

    /**
     * SCXML's {@code exitInterpreter}: the machine is done, so every state still active exits,
     * innermost first (exit actions queued). The configuration stays, as XState's done snapshot
     * keeps its value.
     */
    private void exitInterpreter(Chart c, MachineRecord r) {
        r.clearWait();
        r.clearSends(); // SCXML: a done session's delayed events are cancelled
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

    // ------------------------------------------------------------------ waits (this engine's own)

    /** The seconds a wait entered now has already counted: its paused seconds when a history state brought it back, else 0. */
    private static double resumedSeconds(MachineRecord r, int s, boolean fromHistory) {
        return fromHistory && !Double.isNaN(r.paused(s)) ? r.paused(s) : 0;
    }

    /**
     * Runs the microstep's actions, then reads the seconds of a wait it entered: a wait
     * counts from zero, or from its paused seconds when a history state brought it back, and
     * seconds from a function are read from the context as the
     * transition's and the entry actions left it (as XState resolves an {@code after} delay).
     * If an action throws, the seconds are still read, so the record keeps a valid wait.
     */
    private void runActionsThenWait(Chart c, MachineRecord r, Event event) {
        try {
            runActions(c, r, event);
        } catch (Throwable e) {
            try {
                startPendingWait(c, r, event);
            } catch (RuntimeException also) {
                e.addSuppressed(also);
            }
            throw e;
        }
        startPendingWait(c, r, event);
    }

    /** Reads the seconds of the wait the last microstep entered (a constant, or its seconds function's result). */
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
            jdk.jfr.Event timer = Flight.timeCode();
            try {
                seconds = c.waitSecondsOf[s].of(r.contextObject(), event, r.self());
                if (timer != null) {
                    Flight.timed(timer, c.machineId, r.self(), c.path[s], event.type(), "wait seconds", null);
                }
            } catch (Throwable e) {
                Flight.threw(timer);
                clearQueue();
                r.clearWait();
                throw new UserCodeException(c.machineId, c.path[s], "(entry)", "the seconds function of the wait", e);
            }
            if (!(seconds >= 0) || Double.isInfinite(seconds)) {
                clearQueue();
                r.clearWait();
                throw new UserCodeException(c.machineId, c.path[s], "(entry)", "the seconds function of the wait",
                        new IllegalArgumentException("it returned " + seconds + "; expected a finite number of seconds, 0 or more"));
            }
        }
        r.setWait(s, r.waitStart(), seconds);
    }

    // ------------------------------------------------------------------ done states, exit sets, conflicts, domains, targets

    /**
     * SCXML's and XState's {@code isInFinalState}: a compound state whose active child is final,
     * a parallel state all of whose regions are in a final state, or a final state.
     */
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

    /**
     * Whether active state {@code s} is in the exit set of transition {@code t} with that domain,
     * as XState's {@code computeExitSet} decides it: a targetless transition exits nothing; else
     * every state below the domain, and the domain itself when the transition re-enters its source.
     */
    private static boolean isInExitSet(Chart c, int t, int domain, int s) {
        if (c.tTargets[t].length == 0) {
            return false;
        }
        return (c.tReenter[t] && c.tSource[t] == domain && s == domain) || c.isDescendant(s, domain);
    }

    /**
     * SCXML's and XState's {@code removeConflictingTransitions}: of two selected transitions
     * whose exit sets intersect, the earlier wins unless the later's source is nested in the
     * earlier's (then the later replaces it). Leaves the enabled transitions, with their domains,
     * in {@link #filtered}.
     */
    private void removeConflictingTransitions(Chart c, MachineRecord r) {
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

    /** XState's {@code hasIntersection(computeExitSet([t1]), computeExitSet([t2]))}, over the active states. */
    private boolean exitSetsIntersect(Chart c, MachineRecord r, int t1, int d1, int t2, int d2) {
        int n = r.activeCount();
        for (int i = 0; i < n; i++) {
            int s = r.activeAt(i);
            if (isInExitSet(c, t1, d1, s) && isInExitSet(c, t2, d2, s)) {
                return true;
            }
        }
        return false;
    }

    /**
     * SCXML's and XState's {@code getTransitionDomain}: precompiled, or, when a target is a
     * history state, computed now from what it remembers ({@link ChartCompiler#getTransitionDomain},
     * whose {@code findLCCA} is SCXML's).
     */
    private int getTransitionDomain(Chart c, MachineRecord r, int t) {
        int d = c.tDomain[t];
        if (d != Chart.DYNAMIC_DOMAIN) {
            return d;
        }
        getEffectiveTargetStates(c, r, t);
        return ChartCompiler.getTransitionDomain(c.parent, c.subtreeEnd, c.tSource[t], effective, effectiveCount, c.tReenter[t]);
    }

    /** SCXML's and XState's {@code getEffectiveTargetStates}, in {@link #effective}: history targets replaced by what they remember or their default. */
    private void getEffectiveTargetStates(Chart c, MachineRecord r, int t) {
        effectiveCount = 0;
        for (int x : c.tTargets[t]) {
            addEffectiveTargetState(c, r, x);
        }
    }

    /** Adds one target to the effective targets, a history state by what it stands for. */
    private void addEffectiveTargetState(Chart c, MachineRecord r, int x) {
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
                addEffectiveTargetState(c, r, s);
            }
        } else {
            int p = c.parent[x];
            addEffectiveTargetState(c, r, c.type[p] == StateType.PARALLEL ? p : c.initial[p]);
        }
    }

    // ------------------------------------------------------------------ entry set (computeEntrySet's helpers)

    /**
     * XState's {@code addAncestorStatesToEnter} over {@code getProperAncestors(s, upTo)}: each
     * proper ancestor of {@code s} below {@code upTo} ({@link Chart#ABOVE_ROOT} for all of them),
     * innermost first, by {@link #addAncestorStateToEnter}.
     */
    private void addAncestorStatesToEnter(Chart c, MachineRecord r, int s, int upTo, int reentrancyDomain) {
        for (int a = c.parent[s]; a >= 0 && a != upTo; a = c.parent[a]) {
            addAncestorStateToEnter(c, r, a, reentrancyDomain);
        }
    }

    /**
     * The body of XState's {@code addAncestorStatesToEnter} for one ancestor: it is entered if it
     * lies inside the reentrancy domain, and a parallel ancestor also enters, with their
     * descendants, its regions that have nothing to enter yet.
     */
    private void addAncestorStateToEnter(Chart c, MachineRecord r, int a, int reentrancyDomain) {
        if (c.isDescendant(a, reentrancyDomain)) {
            addStateToEnter(a);
        }
        if (c.type[a] == StateType.PARALLEL) {
            for (int child : c.regularChildren[a]) {
                if (!hasDescendantToEnter(c, child)) {
                    addStateToEnter(child);
                    addDescendantStatesToEnter(c, r, child);
                }
            }
        }
    }

    /**
     * SCXML's and XState's {@code addDescendantStatesToEnter}: a history state enters what it
     * remembers (or its default, or its parent's initial state) with their ancestors up to its
     * parent; a compound state its initial child; a parallel state each region that has nothing
     * to enter yet; each with its own descendants.
     */
    private void addDescendantStatesToEnter(Chart c, MachineRecord r, int s) {
        StateType type = c.type[s];
        if (type == StateType.HISTORY) {
            int p = c.parent[s];
            int remembered = r.historySize(s);
            if (remembered >= 0) {
                for (int i = 0; i < remembered; i++) {
                    int x = r.historyAt(s, i);
                    addStateToEnter(x);
                    viaHistory[x] = true;
                    addDescendantStatesToEnter(c, r, x);
                }
                for (int i = 0; i < remembered; i++) {
                    addProperAncestorStatesToEnter(c, r, r.historyAt(s, i), p);
                }
            } else {
                int[] defaults = c.historyDefault[s];
                if (defaults != null) {
                    for (int x : defaults) {
                        addStateToEnter(x);
                        addDescendantStatesToEnter(c, r, x);
                    }
                    for (int x : defaults) {
                        addProperAncestorStatesToEnter(c, r, x, p);
                    }
                } else {
                    int x = c.type[p] == StateType.PARALLEL ? p : c.initial[p];
                    if (c.type[x] == StateType.HISTORY) {
                        addDescendantStatesToEnter(c, r, x); // the parent's initial is another history state
                    } else {
                        addStateToEnter(x);
                        addDescendantStatesToEnter(c, r, x);
                        addProperAncestorStatesToEnter(c, r, x, p);
                    }
                }
            }
        } else if (type == StateType.COMPOUND) {
            int init = c.initial[s];
            if (c.type[init] != StateType.HISTORY) {
                addStateToEnter(init); // an initial history state enters what it stands for instead (SCXML's <initial> to a history)
            }
            addDescendantStatesToEnter(c, r, init);
        } else if (type == StateType.PARALLEL) {
            for (int child : c.regularChildren[s]) {
                if (!hasDescendantToEnter(c, child)) {
                    addStateToEnter(child);
                    addDescendantStatesToEnter(c, r, child);
                }
            }
        }
    }

    /** XState's {@code addProperAncestorStatesToEnter}: the proper ancestors of {@code s} below {@code upTo}, with no reentrancy limit. */
    private void addProperAncestorStatesToEnter(Chart c, MachineRecord r, int s, int upTo) {
        if (s != upTo) {
            addAncestorStatesToEnter(c, r, s, upTo, NO_DOMAIN_LIMIT);
        }
    }

    /** Whether the entry set already holds a strict descendant of {@code s} (XState's {@code isDescendant} test over statesToEnter). */
    private boolean hasDescendantToEnter(Chart c, int s) {
        int end = c.subtreeEnd[s];
        for (int x = s + 1; x < end; x++) {
            if (enterMark[x]) {
                return true;
            }
        }
        return false;
    }

    /** Adds a state to the entry set, once. */
    private void addStateToEnter(int s) {
        if (!enterMark[s]) {
            enterMark[s] = true;
            enterList[enterCount++] = s;
        }
    }

    /**
     * For tests: the general computeEntrySet's result for transition {@code t} taken alone
     * from the record's configuration, in document order (what {@link Chart#tEntry} must equal).
     */
    int[] entrySetInGeneral(MachineRecord r, int t) {
        Chart c = r.chart();
        ensureScratch(c);
        filtered[0] = t;
        filteredDomain[0] = getTransitionDomain(c, r, t);
        filteredCount = 1;
        computeEntrySetInGeneral(c, r, false);
        int[] out = java.util.Arrays.copyOf(enterList, enterCount);
        for (int s : out) {
            enterMark[s] = false;
            viaHistory[s] = false;
        }
        enterCount = 0;
        java.util.Arrays.sort(out);
        return out;
    }

    // ------------------------------------------------------------------ actions

    /** Queues an action of this microstep, with what declared it (for the message if it throws). */
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

    /**
     * SCXML's {@code executeContent} for the queued actions, in order: exits, the transitions'
     * actions, entries; each receives the context, the event and the record's {@code self}.
     */
    private void runActions(Chart c, MachineRecord r, Event event) {
        int count = actionCount;
        actionCount = 0;
        if (configMarks > 0) {
            // the configuration before the microstep: the states entered hidden, then the states left
            // shown (a state left and entered again was active before)
            configMarks = 0;
            for (int i = 0; i < count; i++) {
                if (actionKind[i] == ENTER) {
                    r.hide(actionOwner[i]);
                }
            }
            for (int i = 0; i < count; i++) {
                if (actionKind[i] == LEFT) {
                    r.reveal(actionOwner[i]);
                }
            }
        }
        Object context = r.contextObject();
        Self self = null; // asked for at the first action: a record on an entity makes its Self on first use
        for (int i = 0; i < count; i++) {
            SelfAction<Object> a = actions[i];
            if (actionKind[i] == DONE) {
                enqueue(actionOwner[i], -1, null);
                continue;
            }
            if (actionKind[i] == ENTER) {
                r.reveal(actionOwner[i]);
                continue;
            }
            if (actionKind[i] == LEFT) {
                r.hide(actionOwner[i]);
                continue;
            }
            actions[i] = null;
            if (self == null) {
                self = r.self();
            }
            jdk.jfr.Event timer = Flight.timeCode();
            try {
                a.run(context, event, self);
                if (timer != null) {
                    Flight.timed(timer, c.machineId, self, c.path[actionOwner[i]], event.type(), actionKind[i] == EXIT ? "exit action"
                            : actionKind[i] == ENTRY ? "entry action" : "action of transition", actionKind[i] == EXIT
                            || actionKind[i] == ENTRY ? null : c.tLabel[actionTransition[i]]);
                }
            } catch (Throwable e) {
                Flight.threw(timer);
                for (int k = i + 1; k < count; k++) {
                    if (actionKind[k] == ENTER) {
                        r.reveal(actionOwner[k]); // the configuration stays as the microstep left it
                    } else if (actionKind[k] == LEFT) {
                        r.hide(actionOwner[k]);
                    }
                    actions[k] = null;
                }
                clearQueue();
                String what = actionKind[i] == EXIT ? "an exit action"
                        : actionKind[i] == ENTRY ? "an entry action"
                        : "an action of its '" + c.tLabel[actionTransition[i]] + "' transition";
                throw new UserCodeException(c.machineId, c.path[actionOwner[i]], event.type(), what, e);
            }
        }
    }

    // ------------------------------------------------------------------ queue, loop detection, scratch

    /**
     * SCXML's {@code internalQueue.enqueue}: a done event (the number of the state that is done)
     * or a raised event ({@link #RAISED}, with its id and event).
     */
    private void enqueue(int state, int eventId, Event event) {
        if (queueTail == queue.length) {
            if (queueHead > 0) {
                int n = queueTail - queueHead;
                System.arraycopy(queue, queueHead, queue, 0, n);
                System.arraycopy(queueEventId, queueHead, queueEventId, 0, n);
                System.arraycopy(queueEvent, queueHead, queueEvent, 0, n);
                java.util.Arrays.fill(queueEvent, n, queueTail, null);
                queueTail = n;
                queueHead = 0;
            } else {
                queue = grow(queue);
                queueEventId = grow(queueEventId);
                queueEvent = java.util.Arrays.copyOf(queueEvent, queueEvent.length * 2);
            }
        }
        queue[queueTail] = state;
        queueEventId[queueTail] = eventId;
        queueEvent[queueTail++] = event;
    }

    /** Empties the internal queue, letting go of the raised events in it. */
    private void clearQueue() {
        for (int i = queueHead; i < queueTail; i++) {
            queueEvent[i] = null;
        }
        queueHead = queueTail = 0;
    }

    /** Remembers a transition taken, for the eventless-cycle message. */
    private void rememberTaken(int t) {
        recent[recentCount & (RECENT - 1)] = t; // a mask, not a division, on every transition
        recentCount++;
    }

    /** The error for a macrostep that never settles, naming the last transitions taken. */
    private EventlessLoopException eventlessLoop(Chart c, MachineRecord r, Event event) {
        StringBuilder sb = new StringBuilder();
        sb.append("machine '").append(c.machineId).append("': eventless transitions or done events kept firing after event '")
                .append(event.type()).append("' (").append(MAX_MICROSTEPS)
                .append(" microsteps without settling); the last transitions taken:");
        int shown = Math.min(recentCount, recent.length);
        int listed = 0;
        int[] seen = new int[shown];
        for (int i = recentCount - shown; i < recentCount; i++) {
            int t = recent[i & (RECENT - 1)];
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

    /** Sizes the scratch arrays for the chart (once per chart; never shrinks). */
    private void ensureScratch(Chart c) {
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

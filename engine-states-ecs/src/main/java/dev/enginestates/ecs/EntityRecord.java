package dev.enginestates.ecs;

import dev.enginestates.records.Access;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.MachineException;
import dev.enginestates.algorithm.Scratch;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.Self;
import dev.enginestates.declare.Window;
import dev.enginestates.records.InternalQueue;
import dev.enginestates.records.MachineRecord;
import dev.enginestates.records.RandomStreams;
import dev.enginestates.records.Reads;
import dev.enginestates.records.StateValue;

import java.util.ArrayList;
import java.util.List;

/**
 * The one object a machine instance is on its entity, to keep memory per machine small: the snapshot
 * the algorithm runs ({@link MachineRecord}) and the {@link StateRecord} the game reads, with the
 * record's place in its world. Each machine's component class is a hidden copy of
 * {@link RecordTemplate}, a subclass of this one; the machine's {@link Self} is a small object
 * made the first time its code asks for it.
 *
 * @param <C> the context type
 */
abstract non-sealed class EntityRecord<C> extends MachineRecord implements StateRecord<C> {
    static {
        Access.registerFace(EntityRecord.class, face -> (EntityRecord<?>) face);
    }

    final States<C> states;
    StateWorld world;
    Entity entity;
    /** The record's machine in its world, while it is in one. */
    Binding binding;
    /** The record's place in its machine's {@link Binding}. */
    int slot = -1;
    boolean whenActive;
    /** A state set by hand whose tags move at the start of the next step. */
    boolean tagsPending;
    /** In its world's list of held records; and found held by the reading of the holds under way. */
    boolean inHeldList;
    boolean heldMarked;
    /** True while the record's wait times count from 0 on a clock of its own (not yet in a world). */
    boolean localClock = true;
    /**
     * The number of the Dominion chunk (one composition's) the entity was in when the world last found
     * this record on it, or -1. A number, not the chunk: a reference written into an old record at every
     * tagged move costs a G1 card to refine (see patch 0018).
     */
    int foundIn = -1;
    /**
     * What few records need, off the record (to save memory per machine: a reference in place of a
     * reference and a long): made when listeners first hear of the record, or when it joins a world
     * mid-step or fails in one; {@code null} until then.
     */
    private Aside aside;

    /** The fields of {@link #aside}. */
    private static final class Aside {
        /** What the world's listeners were last told of this record: made while some listen (see {@link Listeners}), else {@code null}. */
        Listeners.Told told;
        /** The step this machine is not stepped in, as it joined its world or failed in it; -1: none. */
        long quietStep = -1;
        /** Its children, and its link as a child ({@link Children}); {@code null} for a record in neither. */
        Children.Family family;
    }

    @Override
    public final Entity child(String id) {
        EntityRecord<?> c = Children.child(this, id);
        return c == null ? null : c.entity;
    }

    @Override
    public final List<String> children() {
        return Children.ids(this);
    }

    @Override
    public final Entity parent() {
        EntityRecord<?> p = Children.parent(this);
        return p == null ? null : p.entity;
    }

    @Override
    public final StateRecord<?> childRecord(String id) {
        return Children.child(this, id);
    }

    @Override
    public final StateRecord<?> parentRecord() {
        return Children.parent(this);
    }

    @Override
    public final String childId() {
        return Children.parent(this) == null ? null : family().asChild.id;
    }

    /** The record's children and parent link, or {@code null} when it has neither. */
    final Children.Family family() {
        Aside a = aside;
        return a == null ? null : a.family;
    }

    /** Hands the record's family to another record (a swap's newer one); this one then has none. */
    final Children.Family takeFamily() {
        Aside a = aside;
        Children.Family f = a == null ? null : a.family;
        if (a != null) {
            a.family = null;
        }
        return f;
    }

    /** Sets the record's family (a swap's: the older record's). */
    final void family(Children.Family f) {
        Aside a = aside == null ? aside = new Aside() : aside;
        a.family = f;
    }

    /** The record's family, made now if it has none. */
    final Children.Family familyOrNew() {
        Aside a = aside == null ? aside = new Aside() : aside;
        return a.family == null ? a.family = new Children.Family() : a.family;
    }

    /** What the world's listeners were last told of this record, or {@code null} (never told of). */
    Listeners.Told told() {
        Aside a = aside;
        return a == null ? null : a.told;
    }

    /** Forgets what the listeners were told of this record, so its leaving is not told (its machine goes on in another record). */
    void forgetTold() {
        if (aside != null) {
            aside.told = null;
        }
    }

    /** What the world's listeners were last told of this record, made now if it was never told of. */
    Listeners.Told toldOrNew() {
        Aside a = aside == null ? aside = new Aside() : aside;
        return a.told == null ? a.told = new Listeners.Told() : a.told;
    }

    /** Whether the record sits out step {@code steps} (it joined its world or failed in it). */
    boolean quietIn(long steps) {
        Aside a = aside;
        return a != null && a.quietStep == steps;
    }

    /** Sets the step the record sits out; -1: none (then no side object is made for it). */
    void quietStep(long step) {
        Aside a = aside;
        if (a == null) {
            if (step < 0) {
                return;
            }
            aside = a = new Aside();
        }
        a.quietStep = step;
    }

    /** The engine's record behind a {@link StateRecord} (sealed: every one is an {@code EntityRecord}). */
    static <C> EntityRecord<C> of(StateRecord<C> record) {
        return (EntityRecord<C>) record;
    }

    EntityRecord(States<C> states, C context) {
        super(states.chart(), context);
        this.states = states;
    }

    /** The record's machine code's {@link Self}: made on first use (a machine whose code never asks keeps none). */
    @Override
    protected final Self newSelf() {
        return new EntitySelf(this);
    }

    /**
     * The first state of the record's stream, on its first draw: in a world, from the world's seed,
     * the machine's id and the entity's key; in no world (the initial state's wait, which
     * {@code trait()} computes), from the machine's id alone, until it joins one ({@link #joinStream}).
     */
    @Override
    protected final long randomSeed() {
        StateWorld w = world;
        return w == null ? RandomStreams.seeded(0, states.id(), "") : seedIn(w);
    }

    /**
     * The record joins world {@code w} from a clock of its own (made by {@code trait()}, or detached
     * before): if it has drawn, its stream goes on from its state mixed with this world's seed for
     * its entity, so that records that drew alike off any world (every record of a machine does)
     * draw apart from here, and a record attached again does not draw its old numbers again.
     */
    final void joinStream(StateWorld w) {
        long s = randomState();
        if (s != 0) {
            randomState(RandomStreams.joined(s, seedIn(w)));
        }
    }

    /**
     * The seed of this record's stream in {@code w}: the world's seed, the machine's id and the entity's
     * key; an entity without a key is named by the order in which the world's unkeyed records
     * seeded, which a run of the same game repeats (such entities are in no checkpoint, log or frame).
     */
    private long seedIn(StateWorld w) {
        String key = StateWorld.keyOf(entity);
        return RandomStreams.seeded(w.randomSeed(), states.id(), key != null ? key : "#" + ++w.unkeyedDraws);
    }

    /** The world's interpreter of the move under way: the one processing this record when its code raises or sends. */
    @Override
    protected final InternalQueue queue() {
        StateWorld w = world;
        return w == null ? null : w.interpreters.current();
    }

    @Override
    public final States<C> states() {
        return states;
    }

    @Override
    public final String machineId() {
        return states.id();
    }

    @Override
    public final String topState() {
        return StateValue.top(this);
    }

    @Override
    public final Object value() {
        return StateValue.of(this);
    }

    @Override
    public final boolean matches(String path) {
        return StateValue.matches(this, path);
    }

    @Override
    public final boolean matches(Enum<?> state) {
        return isActive(states.stateOf(state, "matches"));
    }

    @Override
    public final boolean is(Enum<?> state) {
        return isActive(states.stateOf(state, "is"));
    }

    @Override
    public final <S extends Enum<S>> S leaf(Class<S> states) {
        Chart c = chart();
        if (c.enumNames().stateEnum() != states) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "' names its states by "
                    + (c.enumNames().typed() ? c.enumNames().stateEnum().getSimpleName() : "strings") + ", not by "
                    + states.getSimpleName() + "; read its leaf with " + (c.enumNames().typed()
                    ? "leaf(" + c.enumNames().stateEnum().getSimpleName() + ".class)" : "state()"));
        }
        for (int s = 1; s < c.size; s++) {
            if (isActive(s) && c.isLeaf(s)) {
                return states.cast(c.enumNames().constantOf(s));
            }
        }
        return null;
    }

    @Override
    public final List<String> leaves() {
        return StateValue.leaves(this);
    }

    @Override
    @SuppressWarnings("unchecked")
    public final C context() {
        return (C) contextObject();
    }

    @Override
    public final String state() {
        return String.join(", ", StateValue.leaves(this));
    }

    @Override
    public final String previous() {
        int p = states.runtime().previousLeaf(this);
        return p < 0 ? "" : chart().path[p];
    }

    @Override
    public final boolean is(String name) {
        return activeNamed(name) >= 0;
    }

    @Override
    public final double time() {
        int leaf = Reads.deepest(this);
        return leaf < 0 ? 0 : secondsIn(leaf);
    }

    @Override
    public final double timeIn(String name) {
        int s = activeNamed(name);
        return s < 0 ? 0 : secondsIn(s);
    }

    @Override
    public final double timeIn(Enum<?> state) {
        int s = states.stateOf(state, "timeIn");
        return isActive(s) ? secondsIn(s) : 0;
    }

    private double secondsIn(int s) {
        return states.runtime().secondsIn(this, s, clock());
    }

    @Override
    public final float progress() {
        return states.runtime().progress(this);
    }

    @Override
    public final boolean inWindow(String window) {
        return states.runtime().inWindow(this, window);
    }

    private int activeNamed(String name) {
        int s = Reads.activeNamed(this, name);
        if (s == Reads.UNKNOWN) {
            Chart c = states.chart();
            throw new MachineException(c.machineId, "machine '" + c.machineId + "' has no state named '" + name
                    + "'; expected one of " + statePaths(c) + StateValue.suggestion(c, name));
        }
        return s;
    }

    @Override
    public final StateRecord<C> setTime(String path, double seconds) {
        checkWorldThread(); // before anything is written: a refused call changes nothing
        states.runtime().setTime(this, path.isEmpty() ? -1 : stateIndex(path), path, seconds);
        edited();
        return this;
    }

    @Override
    public final boolean isWaiting() {
        return waitState() >= 0;
    }

    @Override
    public final String waitingIn() {
        return waitState() < 0 ? null : states.chart().path[waitState()];
    }

    @Override
    public final double waited() {
        return Math.max(0, waited(clock()));
    }

    @Override
    public final List<String> remembered(String historyPath) {
        Chart c = states.chart();
        int h = stateIndex(historyPath);
        if (c.type[h] != dev.enginestates.declare.StateType.HISTORY) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "': '" + historyPath
                    + "' is not a history state; expected one of " + historyPaths(c));
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < historySize(h); i++) {
            out.add(c.path[historyAt(h, i)]);
        }
        return out;
    }

    @Override
    public final double secondsLeft() {
        return states.runtime().secondsLeft(this, clock());
    }

    @Override
    public final double paused(String path) {
        return paused(stateIndex(path));
    }

    @Override
    public final boolean can(String event) {
        return states.can(this, event, null);
    }

    @Override
    public final boolean can(Enum<?> event) {
        return states.can(this, event);
    }

    @Override
    public final boolean can(dev.enginestates.declare.Event event) {
        return states.can(this, event);
    }

    @Override
    public final List<String> permittedEvents() {
        return states.worldOf(this, "permittedEvents").permittedEvents(this);
    }

    @Override
    public final <E extends Enum<E>> java.util.Set<E> permittedEvents(Class<E> events) {
        return states.worldOf(this, "permittedEvents").permittedEvents(this, events);
    }

    @Override
    public final Entity entity() {
        return entity;
    }

    @Override
    public final StateWorld world() {
        return world;
    }

    @Override
    public final StateRecord<C> setState(Enum<?> state, Enum<?>... more) {
        return setState(Reads.paths(states.chart(), "setState", state, more));
    }

    @Override
    public final StateRecord<C> setState(String... paths) {
        checkWorldThread(); // before anything is written: a refused call changes nothing
        Chart c = states.chart();
        String busy = processing();
        if (busy != null) {
            // the interpreter is part-way through this machine's pass: a configuration written under
            // it would be overwritten, or would have the wrong states' code run on it
            String key = entity == null ? null : StateWorld.keyOf(entity);
            throw new IllegalStateException("machine '" + c.machineId + "'" + (key == null ? "" : " on entity '" + key + "'")
                    + " is running its own code (processing '" + busy + "') and was asked to setState"
                    + java.util.Arrays.toString(paths) + " by hand; a machine's code moves it by a transition: "
                    + states.runtime().ownMoveAdvice());
        }
        if (paths.length == 0) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "': setState needs at least one state path; expected one of "
                    + statePaths(c));
        }
        int[] targets = new int[paths.length];
        for (int i = 0; i < paths.length; i++) {
            targets[i] = stateIndex(paths[i]);
            if (c.type[targets[i]] == dev.enginestates.declare.StateType.HISTORY) {
                throw new MachineException(c.machineId, "machine '" + c.machineId + "': '" + paths[i]
                        + "' is a history state, which is never active; expected a state: " + statePaths(c));
            }
        }
        states.runtime().checkPlace(c, paths);
        // a state named twice is one state: the pairs are checked among distinct ones (first[k]: where the k-th was first named),
        // so a replayed log repeating one path a million times costs a million steps, not half a million million
        int[] first = new int[targets.length];
        int n = 0;
        boolean[] seen = new boolean[c.size];
        for (int i = 0; i < targets.length; i++) {
            if (!seen[targets[i]]) {
                seen[targets[i]] = true;
                first[n++] = i;
            }
        }
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                int i = first[a];
                int j = first[b];
                if (!c.canBeActiveTogether(targets[i], targets[j])) {
                    throw new MachineException(c.machineId, "machine '" + c.machineId + "': states '" + paths[i] + "' and '" + paths[j]
                            + "' cannot be active together; expected states in different regions of a parallel state");
                }
            }
        }
        if (n < targets.length) {
            int[] once = new int[n];
            for (int k = 0; k < n; k++) {
                once[k] = targets[first[k]];
            }
            targets = once; // entering a state twice is entering it once; the log still records the paths as given
        }
        if (world != null) {
            world.place(this, targets, paths.clone());
        } else {
            states.runtime().place(new Scratch(), this, targets); // a record on no entity yet: a rare call, its own scratch
            clearWaitChanged();
        }
        return this;
    }

    /**
     * Overwrites this record with a snapshot whose times are on its world's clock (a restore
     * or a replay). On a spawned record, call {@link StateWorld#restored} afterwards so its
     * tags, timer and rules follow.
     *
     * @throws IllegalArgumentException if the snapshot is of another machine
     */
    final void restoreFrom(MachineRecord snapshot) {
        copyFrom(snapshot);
        clearWaitChanged();
        localClock = false;
    }

    @Override
    public final StateRecord<C> setWaited(double seconds) {
        checkWorldThread(); // before anything is written: a refused call changes nothing
        Chart c = states.chart();
        if (waitState() < 0) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "' is in " + StateValue.describe(this)
                    + ", where no wait counts; expected a state with a wait (set one with setState first)");
        }
        checkSeconds(c, seconds, "waited seconds");
        double now = world == null ? 0 : world.time();
        double start = (isHeld() ? heldSince() : now) - seconds;
        setWait(waitState(), start, waitSeconds());
        edited();
        return this;
    }

    @Override
    public final StateRecord<C> setHistory(Enum<?> history, Enum<?>... remembered) {
        String h = states.chart().path[states.stateOf(history, "setHistory")];
        if (remembered.length == 0) {
            return setHistory(h);
        }
        return setHistory(h, Reads.paths(states.chart(), "setHistory", remembered[0],
                java.util.Arrays.copyOfRange(remembered, 1, remembered.length)));
    }

    @Override
    public final StateRecord<C> setHistory(String historyPath, String... remembered) {
        checkWorldThread(); // before anything is written: a refused call changes nothing
        Chart c = states.chart();
        int h = stateIndex(historyPath);
        if (c.type[h] != dev.enginestates.declare.StateType.HISTORY) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "': '" + historyPath
                    + "' is not a history state; expected one of " + historyPaths(c));
        }
        int[] states = new int[remembered.length];
        for (int i = 0; i < remembered.length; i++) {
            states[i] = stateIndex(remembered[i]);
            if (!c.isDescendant(states[i], c.parent[h]) || c.type[states[i]] == dev.enginestates.declare.StateType.HISTORY) {
                throw new MachineException(c.machineId, "machine '" + c.machineId + "': history '" + historyPath + "' cannot remember '"
                        + remembered[i] + "'; expected a state inside '" + c.describe(c.parent[h]) + "'");
            }
        }
        if (remembered.length == 0) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "': history '" + historyPath
                    + "' needs at least one state to remember");
        }
        boolean[] seen = new boolean[c.size];
        for (int i = 0; i < states.length; i++) {
            if (seen[states[i]]) {
                throw new MachineException(c.machineId, "machine '" + c.machineId + "': history '" + historyPath + "' is given '"
                        + remembered[i] + "' twice; expected each state once");
            }
            seen[states[i]] = true;
        }
        // what a restore would refuse, a hand can't write either: the record's next checkpoint must restore
        int[] before = historyCopy(h);
        clearHistory(h);
        for (int s : states) {
            addHistory(h, s);
        }
        String problem = dev.enginestates.records.Configurations.historyProblem(this, h);
        if (problem != null) {
            historyFrom(h, before);
            throw new MachineException(c.machineId, "machine '" + c.machineId + "' on " + StateWorld.describe(entity) + ": history '"
                    + historyPath + "' " + problem + "; nothing was changed");
        }
        edited();
        return this;
    }

    @Override
    public final StateRecord<C> setPaused(Enum<?> state, double seconds) {
        return setPaused(states.chart().path[states.stateOf(state, "setPaused")], seconds);
    }

    @Override
    public final StateRecord<C> setPaused(String path, double seconds) {
        checkWorldThread(); // before anything is written: a refused call changes nothing
        Chart c = states.chart();
        int s = stateIndex(path);
        if (c.waitTransition[s] < 0) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "': state '" + path + "' has no wait to pause");
        }
        if (!Double.isNaN(seconds)) {
            checkSeconds(c, seconds, "paused seconds");
        }
        setPaused(s, seconds);
        edited();
        return this;
    }

    private void checkWorldThread() {
        StateWorld w = world;
        if (w != null) {
            w.checkThread();
        }
    }

    private void edited() {
        if (world != null) {
            world.edited(this);
        } else {
            clearWaitChanged();
        }
    }

    private static void checkSeconds(Chart c, double seconds, String what) {
        if (!(seconds >= 0) || Double.isInfinite(seconds)) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "': " + what + " must be a finite number, 0 or more; got "
                    + seconds);
        }
    }

    private static String historyPaths(Chart c) {
        List<String> out = new ArrayList<>();
        for (int s = 1; s < c.size; s++) {
            if (c.type[s] == dev.enginestates.declare.StateType.HISTORY) {
                out.add(c.path[s]);
            }
        }
        return out.isEmpty() ? "(none)" : String.join(", ", out);
    }

    final int stateIndex(String path) {
        Chart c = states.chart();
        int s = path == null ? -1 : c.stateAt(path);
        if (s <= 0) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "' has no state '" + path + "'; expected one of "
                    + statePaths(c) + StateValue.suggestion(c, path));
        }
        return s;
    }

    private static String statePaths(Chart c) {
        List<String> out = new ArrayList<>();
        for (int s = 1; s < c.size; s++) {
            out.add(c.path[s]);
        }
        return String.join(", ", out);
    }

    private double clock() {
        return world == null ? 0 : world.time();
    }

    @Override
    public String toString() {
        String v = StateValue.describe(this);
        String wait = isWaiting() ? String.format(" (%s: %.3f s waited, %.3f s left%s)", waitingIn(), waited(), secondsLeft(),
                isHeld() ? ", held" : "") : "";
        return machineId() + ": " + v + wait + (isDone() ? " (done)" : "");
    }
}

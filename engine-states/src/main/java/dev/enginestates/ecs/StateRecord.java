package dev.enginestates.ecs;

import dev.enginestates.records.Access;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.MachineException;
import dev.enginestates.MachineView;
import dev.enginestates.algorithm.BuilderInterpreter;
import dev.enginestates.algorithm.Interpreter;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.Window;
import dev.enginestates.records.MachineRecord;
import dev.enginestates.records.Reads;
import dev.enginestates.records.StateValue;

import java.util.ArrayList;
import java.util.List;

/**
 * A machine's record as a component: the snapshot of one machine on one entity (its state,
 * its wait, its history, its context). The single source of truth; the entity's tags follow
 * it. Each machine has its own subclass (so Dominion tells machines apart); get one with
 * {@link States#trait()} and read it with {@link States#read}.
 *
 * <p>Belongs to one world, and so to one thread, at a time.
 *
 * @param <C> the context type
 */
public abstract class StateRecord<C> implements MachineView<C> {
    static {
        Access.register(new Access.RecordSide() {
            @Override
            public boolean owns(Object face) {
                return face instanceof StateRecord;
            }

            @Override
            public MachineRecord record(Object face) {
                return ((StateRecord<?>) face).record;
            }
        });
    }

    States<C> states;
    MachineRecord record;
    StateWorld world;
    Entity entity;
    /** The record's machine in its world, while it is in one. */
    Binding binding;
    /** The record's place in its machine's {@link Binding}. */
    int slot = -1;
    boolean whenActive;
    /** A state set by hand whose tags move at the start of the next step (the {@code 003} document). */
    boolean tagsPending;
    /** In its world's list of held records; and found held by the reading of the holds under way. */
    boolean inHeldList;
    boolean heldMarked;
    /** True while the record's wait times count from 0 on a clock of its own (not yet in a world). */
    boolean localClock = true;
    /** The entity's composition when the world last found this record on it, or {@code null}. */
    Object foundIn;
    /** What the world's listeners were last told of this record: made while some listen (see {@link Listeners}), else {@code null}. */
    Listeners.Told told;
    /** The step this machine is not stepped in, as it joined its world or failed in it; -1: none. */
    long quietStep = -1;

    StateRecord() {
    }

    final void init(States<C> states, C context) {
        this.states = states;
        this.record = new EntitySelf(this, states.chart(), context); // the record is its own Self
    }

    /**
     * The machine this record belongs to.
     *
     * @return the machine's ECS binding, whose {@code trait()} made this record
     */
    public final States<C> states() {
        return states;
    }

    /**
     * The machine's id.
     *
     * @return the id the machine was declared with, such as {@code "guard"}
     */
    public final String machineId() {
        return states.id();
    }

    @Override
    public final String topState() {
        return StateValue.top(record);
    }

    /**
     * The state value as XState writes it: a key, or nested maps for compound and parallel states.
     *
     * @return a {@code String} (such as {@code "answer"}) or an unmodifiable {@code Map<String, Object>}
     *         of nested values (such as {@code {patrol=watch}}); made anew on each call
     */
    public final Object value() {
        return StateValue.of(record);
    }

    /**
     * Whether the state at a dotted path ({@code "patrol.watch"}; {@code ""} is the root) is
     * active, as XState's {@code matches}.
     *
     * @param path the state's dotted path from the root
     * @return {@code true} if the state is active (itself or, for a compound state, through a descendant)
     * @throws MachineException if the path names no state of the machine (with the closest path, when one is near)
     */
    public final boolean matches(String path) {
        return StateValue.matches(record, path);
    }

    /**
     * Whether the state declared with a constant of the machine's state enum is active (the
     * state or one of its descendants). Allocation-free.
     *
     * @param state a constant of the machine's state enum; not {@code null}
     * @return {@code true} if the state is active
     * @throws MachineException if the constant is not of the machine's state enum
     */
    public final boolean matches(Enum<?> state) {
        return record.isActive(states.stateOf(state, "matches"));
    }

    /**
     * Whether the state declared with a constant of the machine's state enum is active, as the
     * leaf or an ancestor: {@code GUARD.read(guard).is(WATCH)}. Allocation-free.
     *
     * @param state a constant of the machine's state enum; not {@code null}
     * @return {@code true} if the state is active; the same answer as {@link #matches(Enum)}
     * @throws MachineException if the constant is not of the machine's state enum
     */
    public final boolean is(Enum<?> state) {
        return record.isActive(states.stateOf(state, "is"));
    }

    /**
     * The constant of the active leaf ({@code WATCH}; of the leaves of a parallel state, the
     * first in document order), for a {@code switch} over the game's own enum.
     *
     * @param <S>    the game's enum of states
     * @param states the enum the machine was declared with, such as {@code GuardState.class}
     * @return the active leaf's constant, or {@code null} when no leaf is active
     * @throws MachineException if the machine's states are not named by {@code states}
     */
    public final <S extends Enum<S>> S leaf(Class<S> states) {
        Chart c = record.chart();
        if (c.enumNames().stateEnum() != states) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "' names its states by "
                    + (c.enumNames().typed() ? c.enumNames().stateEnum().getSimpleName() : "strings") + ", not by "
                    + states.getSimpleName() + "; read its leaf with " + (c.enumNames().typed()
                    ? "leaf(" + c.enumNames().stateEnum().getSimpleName() + ".class)" : "state()"));
        }
        for (int s = 1; s < c.size; s++) {
            if (record.isActive(s) && c.isLeaf(s)) {
                return states.cast(c.enumNames().constantOf(s));
            }
        }
        return null;
    }

    /**
     * The paths of the active atomic states, in document order.
     *
     * @return a list of dotted paths, such as {@code ["patrol.watch"]}; one per active region of a parallel state
     */
    public final List<String> leaves() {
        return StateValue.leaves(record);
    }

    /**
     * The context.
     *
     * @return the machine's context object itself (not a copy), which its actions change
     */
    @SuppressWarnings("unchecked")
    public final C context() {
        return (C) record.context();
    }

    /**
     * The active leaf's path ({@code "combat.engage"}, the {@code 000} document's
     * {@code fsm.state}); the leaves of a parallel state are joined by {@code ", "}.
     *
     * @return the leaf's dotted path, or the leaves' paths joined by {@code ", "}
     */
    public final String state() {
        return String.join(", ", StateValue.leaves(record));
    }

    /**
     * A polled or builder-style machine's leaf before its last transition ({@code ""} before the first); {@code ""} for the XState style.
     *
     * @return the previous leaf's dotted path, or {@code ""}
     */
    public final String previous() {
        int p = record.chart().polled == null && record.chart().builder == null ? -1 : record.previous();
        return p < 0 ? "" : record.chart().path[p];
    }

    /**
     * Whether a state is active, as the leaf or an ancestor, by name ({@code "engage"}) or path
     * ({@code "combat.engage"}).
     *
     * @param name a state's name or dotted path
     * @return {@code true} if that state is active
     * @throws MachineException if no state of the machine has that name or path
     */
    public final boolean is(String name) {
        return activeNamed(name) >= 0;
    }

    /**
     * Seconds in the active leaf (a polled machine's clock; for other styles, since it was entered on the world's clock).
     *
     * @return seconds, 0 or more; 0 when no leaf is active
     */
    public final double time() {
        int leaf = Reads.deepest(record);
        return leaf < 0 ? 0 : secondsIn(leaf);
    }

    /**
     * Seconds spent in an active state, by name or path; 0 when it is not active.
     * A builder-style machine counts the current state's time only (0 for any other).
     *
     * @param name a state's name or dotted path
     * @return seconds since the state was entered, or 0
     * @throws MachineException if no state of the machine has that name or path
     */
    public final double timeIn(String name) {
        int s = activeNamed(name);
        return s < 0 ? 0 : secondsIn(s);
    }

    /**
     * Seconds spent in the state declared with a constant, 0 when it is not active.
     *
     * @param state a constant of the machine's state enum; not {@code null}
     * @return seconds since the state was entered, or 0
     * @throws MachineException if the constant is not of the machine's state enum
     */
    public final double timeIn(Enum<?> state) {
        int s = states.stateOf(state, "timeIn");
        return record.isActive(s) ? secondsIn(s) : 0;
    }

    private double secondsIn(int s) {
        Chart c = record.chart();
        if (c.builder != null) {
            return s == record.leaf() ? record.timeInState() : 0; // the 002 style counts time in the current state only
        }
        return c.polled != null ? record.clock(s) : Math.max(0, clock() - record.enteredAt(s));
    }

    /**
     * A builder-style machine's progress in its state: time in state over the state's duration
     * (1 once it has passed), 0 without a duration; 0 for other styles.
     *
     * @return the progress, from 0 to 1
     */
    public final float progress() {
        return record.chart().builder == null || record.status() != MachineRecord.ACTIVE ? 0f
                : BuilderInterpreter.progress(record);
    }

    /**
     * Whether a builder-style machine's current state has the window and its progress lies in
     * it (what {@code ctx.inWindow(name)} says); false for other styles.
     *
     * @param window the window's name, as the state declared it
     * @return {@code true} if the current state has that window and its progress is inside it;
     *         {@code false} for a name the state does not declare
     */
    public final boolean inWindow(String window) {
        Chart c = record.chart();
        if (c.builder == null || record.status() != MachineRecord.ACTIVE) {
            return false;
        }
        Window w = c.builder.windows[record.leaf()].get(window);
        return w != null && w.contains(progress());
    }

    private int activeNamed(String name) {
        int s = Reads.activeNamed(record, name);
        if (s == Reads.UNKNOWN) {
            Chart c = states.chart();
            throw new MachineException(c.machineId, "machine '" + c.machineId + "' has no state named '" + name
                    + "'; expected one of " + statePaths(c) + StateValue.suggestion(c, name));
        }
        return s;
    }

    /**
     * Sets by hand how long an active state of a polled machine has been active ({@code ""}
     * for the root's total), as a test arranges "five seconds into the search". On a
     * builder-style machine it sets the current state's time in state ({@code ""} or the state's
     * name); its progress follows, crossing no window's edge.
     *
     * @param path    the active state's dotted path, or {@code ""}
     * @param seconds the seconds, finite and 0 or more
     * @return this record
     * @throws MachineException if the machine is XState-style (use {@link #setWaited}), the state is not active (for a
     *                          builder-style machine, not the current state), or the seconds are negative or not finite;
     *                          nothing changes
     */
    public final StateRecord<C> setTime(String path, double seconds) {
        Chart c = states.chart();
        if (c.builder != null) {
            int s = path.isEmpty() ? record.leaf() : stateIndex(path);
            if (s != record.leaf()) {
                throw new MachineException(c.machineId, "machine '" + c.machineId + "' is in " + state() + ", so '" + path
                        + "' is not its state; expected the current state");
            }
            checkSeconds(c, seconds, "seconds in '" + path + "'");
            record.setTimeInState((float) seconds);
            // the progress before is the progress now: a time set by hand crosses no window's edge
            record.setPreviousProgress(BuilderInterpreter.progress(record));
            BuilderInterpreter.writeContext(record);
            edited();
            return this;
        }
        if (c.polled == null) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "' is XState-style; its time is its wait's: use setWaited");
        }
        int s = path.isEmpty() ? 0 : stateIndex(path);
        if (!record.isActive(s)) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "' is in " + state() + ", so '" + path
                    + "' is not active; expected an active state");
        }
        checkSeconds(c, seconds, "seconds in '" + path + "'");
        record.setClock(s, seconds);
        edited();
        return this;
    }

    /**
     * Whether a state with a wait is active (its wait may be held).
     *
     * @return {@code true} if a wait counts, or would count but for a hold
     */
    public final boolean isWaiting() {
        return record.waitState() >= 0;
    }

    /**
     * The path of the state whose wait counts, or {@code null}.
     *
     * @return the waiting state's dotted path, or {@code null} when no wait counts
     */
    public final String waitingIn() {
        return record.waitState() < 0 ? null : states.chart().path[record.waitState()];
    }

    /**
     * Seconds the current wait has counted; 0 when no wait counts (never below 0, whatever the rounding of the clock).
     *
     * @return seconds, 0 or more
     */
    public final double waited() {
        return Math.max(0, record.waited(clock()));
    }

    /**
     * What a history state remembers: the paths of the states its parent was left in, or an
     * empty list while it remembers nothing.
     *
     * @param historyPath the history state's dotted path
     * @return a new list of dotted paths
     * @throws MachineException if the path is not a history state
     */
    public final List<String> remembered(String historyPath) {
        Chart c = states.chart();
        int h = stateIndex(historyPath);
        if (c.type[h] != dev.enginestates.declare.StateType.HISTORY) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "': '" + historyPath
                    + "' is not a history state; expected one of " + historyPaths(c));
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < record.historySize(h); i++) {
            out.add(c.path[record.historyAt(h, i)]);
        }
        return out;
    }

    /**
     * Seconds the current wait has left (a polled machine: the innermost active {@code after}'s); 0 when none counts.
     *
     * @return seconds, 0 or more
     */
    public final double secondsLeft() {
        return Reads.secondsLeft(record, clock());
    }

    /**
     * Seconds a state's wait had counted when it was left before it ended (kept for a history state to resume), or NaN.
     *
     * @param path the state's dotted path
     * @return the seconds, or NaN when none are kept
     * @throws MachineException if the path names no state
     */
    public final double paused(String path) {
        return record.paused(stateIndex(path));
    }

    /**
     * Whether a top-level final state was reached.
     *
     * @return {@code true} once the machine is done
     */
    public final boolean isDone() {
        return record.isDone();
    }

    /**
     * Whether the machine is held (a paused marker, or one of its {@code heldBy} components, is on its entity).
     *
     * @return {@code true} while held: its waits count no seconds and the step does not move it (events still do)
     */
    public final boolean isHeld() {
        return record.isHeld();
    }

    /**
     * The entity that holds this record, or {@code null} before it is spawned.
     *
     * @return the entity the record was last spawned or attached on (which may since have been despawned), or {@code null}
     */
    public final Entity entity() {
        return entity;
    }

    /**
     * The world this record was spawned into, or {@code null}.
     *
     * @return the world, or {@code null} before the spawn and after a detach or despawn
     */
    public final StateWorld world() {
        return world;
    }

    /** The underlying snapshot; I/O and the test kit reach it through {@link Access#record}. */
    final MachineRecord record() {
        return record;
    }

    /**
     * Sets the state by hand to the states declared with constants of the machine's state
     * enum ({@code setState(REST)}; several for the regions of a parallel state); see
     * {@link #setState(String...)}.
     *
     * @param state a constant of the machine's state enum
     * @param more  further constants, for the other regions of a parallel state
     * @return this record
     * @throws MachineException if a constant is not of the machine's state enum, or the states cannot be active together;
     *                          nothing changes
     */
    public final StateRecord<C> setState(Enum<?> state, Enum<?>... more) {
        return setState(paths("setState", state, more));
    }

    /** The paths of the states the constants declare, for the calls that take paths. */
    private String[] paths(String call, Enum<?> first, Enum<?>[] more) {
        String[] out = new String[1 + more.length];
        out[0] = states.chart().path[states.stateOf(first, call)];
        for (int i = 0; i < more.length; i++) {
            out[i + 1] = states.chart().path[states.stateOf(more[i], call)];
        }
        return out;
    }

    /**
     * Sets the state by hand, as a tool or a test does: the record moves at once to the given
     * states (each with its ancestors and default descendants; several paths for the regions
     * of a parallel state). No actions run, history is kept, a wait starts from zero. On a
     * spawned record the tags move at the start of the next step, before any system reads
     * them; before the spawn the entity is spawned with them.
     *
     * @param paths the states' dotted paths, at least one; a polled or builder-style machine takes exactly one
     * @return this record
     * @throws MachineException if a path names no state, or the states cannot be active together; nothing changes
     */
    public final StateRecord<C> setState(String... paths) {
        Chart c = states.chart();
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
        if (c.polled != null && targets.length > 1) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "' is polled: one branch is active at a time;"
                    + " setState takes one path, got " + java.util.Arrays.toString(paths));
        }
        if (c.builder != null && targets.length != 1) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "' is builder-style: one state is active at a time;"
                    + " setState takes one name, got " + java.util.Arrays.toString(paths));
        }
        for (int i = 0; i < targets.length; i++) {
            for (int j = i + 1; j < targets.length; j++) {
                if (!c.canBeActiveTogether(targets[i], targets[j])) {
                    throw new MachineException(c.machineId, "machine '" + c.machineId + "': states '" + paths[i] + "' and '" + paths[j]
                            + "' cannot be active together; expected states in different regions of a parallel state");
                }
            }
        }
        if (world != null) {
            world.place(this, targets, paths.clone());
        } else if (c.polled != null) {
            new dev.enginestates.algorithm.PolledInterpreter().place(record, targets[0]);
            record.clearWaitChanged();
        } else if (c.builder != null) {
            BuilderInterpreter.place(record, targets[0], 0f, 0f);
        } else {
            Interpreter interpreter = new Interpreter();
            interpreter.place(record, targets);
            record.clearWaitChanged();
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
        record.copyFrom(snapshot);
        record.clearWaitChanged();
        localClock = false;
    }

    /**
     * Sets by hand how many seconds the current wait has counted, as a test arranges a guard
     * "three seconds into his watch". More than the wait's seconds ends it at the next step.
     *
     * @param seconds the seconds, finite and 0 or more
     * @return this record
     * @throws MachineException if no wait is counting, or the seconds are negative or not finite; nothing changes
     */
    public final StateRecord<C> setWaited(double seconds) {
        Chart c = states.chart();
        if (record.waitState() < 0) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "' is in " + StateValue.describe(record)
                    + ", where no wait counts; expected a state with a wait (set one with setState first)");
        }
        checkSeconds(c, seconds, "waited seconds");
        double now = world == null ? 0 : world.time();
        double start = (record.isHeld() ? record.heldSince() : now) - seconds;
        record.setWait(record.waitState(), start, record.waitSeconds());
        edited();
        return this;
    }

    /**
     * Sets by hand what a history state remembers, as if its parent had been left in those
     * states (a deep history's atomic states, or a shallow history's child), named by constants
     * of the machine's state enum.
     *
     * @param history    the constant of the history state
     * @param remembered the constants of the states to remember, at least one
     * @return this record
     * @throws MachineException if a constant is not of the machine's state enum, the history constant is not a history state,
     *                          or a remembered state is not inside its parent; nothing changes
     */
    public final StateRecord<C> setHistory(Enum<?> history, Enum<?>... remembered) {
        String h = states.chart().path[states.stateOf(history, "setHistory")];
        if (remembered.length == 0) {
            return setHistory(h);
        }
        return setHistory(h, paths("setHistory", remembered[0], java.util.Arrays.copyOfRange(remembered, 1, remembered.length)));
    }

    /**
     * Sets by hand what a history state remembers, as if its parent had been left in those
     * states (a deep history's atomic states, or a shallow history's child).
     *
     * @param historyPath the history state's dotted path
     * @param remembered  the dotted paths of the states to remember, at least one
     * @return this record
     * @throws MachineException if the path is not a history state, or a remembered state is not inside its parent; nothing changes
     */
    public final StateRecord<C> setHistory(String historyPath, String... remembered) {
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
        record.clearHistory(h);
        for (int s : states) {
            record.addHistory(h, s);
        }
        edited();
        return this;
    }

    /**
     * Sets by hand the seconds a state's wait had counted when it was left, which a history
     * state resumes (NaN clears them); the state is named by a constant of the machine's state enum.
     *
     * @param state   a constant of the machine's state enum
     * @param seconds the seconds, finite and 0 or more, or NaN to clear them
     * @return this record
     * @throws MachineException if the constant is not of the machine's state enum, the state has no wait, or the seconds
     *                          are negative or infinite; nothing changes
     */
    public final StateRecord<C> setPaused(Enum<?> state, double seconds) {
        return setPaused(states.chart().path[states.stateOf(state, "setPaused")], seconds);
    }

    /**
     * Sets by hand the seconds a state's wait had counted when it was left, which a history
     * state resumes (NaN clears them).
     *
     * @param path    the state's dotted path
     * @param seconds the seconds, finite and 0 or more, or NaN to clear them
     * @return this record
     * @throws MachineException if the state has no wait or the seconds are negative or infinite; nothing changes
     */
    public final StateRecord<C> setPaused(String path, double seconds) {
        Chart c = states.chart();
        int s = stateIndex(path);
        if (c.waitTransition[s] < 0) {
            throw new MachineException(c.machineId, "machine '" + c.machineId + "': state '" + path + "' has no wait to pause");
        }
        if (!Double.isNaN(seconds)) {
            checkSeconds(c, seconds, "paused seconds");
        }
        record.setPaused(s, seconds);
        edited();
        return this;
    }

    private void edited() {
        if (world != null) {
            world.edited(this);
        } else {
            record.clearWaitChanged();
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
        String v = StateValue.describe(record);
        String wait = isWaiting() ? String.format(" (%s: %.3f s waited, %.3f s left%s)", waitingIn(), waited(), secondsLeft(),
                isHeld() ? ", held" : "") : "";
        return machineId() + ": " + v + wait + (isDone() ? " (done)" : "");
    }
}

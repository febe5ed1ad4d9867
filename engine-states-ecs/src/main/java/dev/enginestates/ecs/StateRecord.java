package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.MachineView;
import dev.enginestates.declare.MachineException;

import java.util.List;

/**
 * A machine's record as a component: the snapshot of one machine on one entity (its state,
 * its wait, its history, its context). The single source of truth; the entity's tags follow
 * it. Each machine has its own record class (so Dominion tells machines apart); get a record with
 * {@link States#trait()} and read one with {@link States#read}.
 *
 * <p>Sealed: the engine's own class is the only implementation, one object per machine instance
 * (face and snapshot together).
 *
 * <p>Belongs to one world, and so to one thread, at a time.
 *
 * @param <C> the context type
 */
public sealed interface StateRecord<C> extends MachineView<C> permits EntityRecord {
    /**
     * The machine this record belongs to.
     *
     * @return the machine's ECS binding, whose {@code trait()} made this record
     */
    States<C> states();

    /**
     * The machine's id.
     *
     * @return the id the machine was declared with, such as {@code "guard"}
     */
    String machineId();

    /**
     * The state value as XState writes it: a key, or nested maps for compound and parallel states.
     *
     * @return a {@code String} (such as {@code "answer"}) or an unmodifiable {@code Map<String, Object>}
     *         of nested values (such as {@code {patrol=watch}}); made anew on each call
     */
    Object value();

    /**
     * Whether the state at a dotted path ({@code "patrol.watch"}; {@code ""} is the root) is
     * active, as XState's {@code matches}.
     *
     * @param path the state's dotted path from the root
     * @return {@code true} if the state is active (itself or, for a compound state, through a descendant)
     * @throws MachineException if the path names no state of the machine (with the closest path, when one is near)
     */
    boolean matches(String path);

    /**
     * The paths of the active atomic states, in document order.
     *
     * @return a list of dotted paths, such as {@code ["patrol.watch"]}; one per active region of a parallel state
     */
    List<String> leaves();

    /**
     * The context.
     *
     * @return the machine's context object itself (not a copy), which its actions change
     */
    C context();

    /**
     * The active leaf's path ({@code "combat.engage"}); the leaves of a parallel state are joined by {@code ", "}.
     *
     * @return the leaf's dotted path, or the leaves' paths joined by {@code ", "}
     */
    String state();

    /**
     * A polled or builder-style machine's leaf before its last transition ({@code ""} before the first); {@code ""} for the XState style.
     *
     * @return the previous leaf's dotted path, or {@code ""}
     */
    String previous();

    /**
     * Seconds in the active leaf (a polled machine's clock; for other styles, since it was entered on the world's clock).
     *
     * @return seconds, 0 or more; 0 when no leaf is active
     */
    double time();

    /**
     * A builder-style machine's progress in its state: time in state over the state's duration
     * (unclamped: 1 when the duration has passed, more after it), 0 without a duration; 0 for other styles.
     *
     * @return the progress, 0 or more
     */
    float progress();

    /**
     * Whether a builder-style machine's current state has the window and its progress lies in
     * it (what {@code ctx.inWindow(name)} says); false for other styles.
     *
     * @param window the window's name, as the state declared it
     * @return {@code true} if the current state has that window and its progress is inside it;
     *         {@code false} for a name the state does not declare
     */
    boolean inWindow(String window);

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
    StateRecord<C> setTime(String path, double seconds);

    /**
     * Whether a state with a wait is active (its wait may be held).
     *
     * @return {@code true} if a wait counts, or would count but for a hold
     */
    boolean isWaiting();

    /**
     * The path of the state whose wait counts, or {@code null}.
     *
     * @return the waiting state's dotted path, or {@code null} when no wait counts
     */
    String waitingIn();

    /**
     * Seconds the current wait has counted; 0 when no wait counts (never below 0, whatever the rounding of the clock).
     *
     * @return seconds, 0 or more
     */
    double waited();

    /**
     * What a history state remembers: the paths of the states its parent was left in, or an
     * empty list while it remembers nothing.
     *
     * @param historyPath the history state's dotted path
     * @return a new list of dotted paths
     * @throws MachineException if the path is not a history state
     */
    List<String> remembered(String historyPath);

    /**
     * Seconds the current wait has left (a polled machine: the innermost active {@code after}'s); 0 when none counts.
     *
     * @return seconds, 0 or more
     */
    double secondsLeft();

    /**
     * Seconds a state's wait had counted when it was left before it ended (kept for a history state to resume), or NaN.
     *
     * @param path the state's dotted path
     * @return the seconds, or NaN when none are kept
     * @throws MachineException if the path names no state
     */
    double paused(String path);

    /**
     * Whether a top-level final state was reached.
     *
     * @return {@code true} once the machine is done
     */
    boolean isDone();

    /**
     * Whether the machine is held (a paused marker, or one of its {@code heldBy} components, is on its entity).
     *
     * @return {@code true} while held: its waits count no seconds and the step does not move it (events still do)
     */
    boolean isHeld();

    /**
     * The entity that holds this record, or {@code null} before it is spawned.
     *
     * @return the entity the record was last spawned or attached on (which may since have been despawned), or {@code null}
     */
    Entity entity();

    /**
     * The world this record was spawned into, or {@code null}.
     *
     * @return the world, or {@code null} before the spawn and after a detach or despawn
     */
    StateWorld world();

    /**
     * The entity of a child machine this one runs now, invoked by an active state or spawned.
     *
     * @param id the child's id
     * @return the child's entity (this record's own for a child invoked {@code onSameEntity()}), or
     *         {@code null} when no child of that id runs
     */
    Entity child(String id);

    /**
     * The ids of the children this machine runs now, in the order they started.
     *
     * @return a new list, empty when it runs none
     */
    List<String> children();

    /**
     * The entity of the machine that invoked or spawned this one.
     *
     * @return the parent's entity, or {@code null} when this machine is nobody's child
     */
    Entity parent();

    /**
     * The record of a child machine this one runs now.
     *
     * @param id the child's id
     * @return the child's record, or {@code null} when no child of that id runs
     */
    StateRecord<?> childRecord(String id);

    /**
     * The record of the machine that invoked or spawned this one.
     *
     * @return the parent's record, or {@code null} when this machine is nobody's child
     */
    StateRecord<?> parentRecord();

    /**
     * This machine's id among its parent's children.
     *
     * @return the id the parent invoked or spawned it by, or {@code null} when it is nobody's child
     */
    String childId();

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
    StateRecord<C> setState(Enum<?> state, Enum<?>... more);

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
    StateRecord<C> setState(String... paths);

    /**
     * Sets by hand how many seconds the current wait has counted, as a test arranges a guard
     * "three seconds into his watch". More than the wait's seconds ends it at the next step.
     *
     * @param seconds the seconds, finite and 0 or more
     * @return this record
     * @throws MachineException if no wait is counting, or the seconds are negative or not finite; nothing changes
     */
    StateRecord<C> setWaited(double seconds);

    /**
     * Sets by hand what a history state remembers, as if its parent had been left in those
     * states (a deep history's atomic states, or a shallow history's child), named by constants
     * of the machine's state enum.
     *
     * @param history    the constant of the history state
     * @param remembered the constants of the states to remember, at least one
     * @return this record
     * @throws MachineException if a constant is not of the machine's state enum, the history constant is not a history state,
     *                          or the states are not ones the history can remember (see {@link #setHistory(String, String...)});
     *                          nothing changes
     */
    StateRecord<C> setHistory(Enum<?> history, Enum<?>... remembered);

    /**
     * Sets by hand what a history state remembers, as if its parent had been left in those
     * states (a deep history's atomic states, or a shallow history's child).
     *
     * @param historyPath the history state's dotted path
     * @param remembered  the dotted paths of the states to remember, at least one
     * @return this record
     * @throws MachineException if the path is not a history state, a remembered state is not inside its parent or is given
     *                          twice, or the states are not ones the history can remember (two leaves of one compound
     *                          state, where no transition of several regions reaches); nothing changes
     */
    StateRecord<C> setHistory(String historyPath, String... remembered);

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
    StateRecord<C> setPaused(Enum<?> state, double seconds);

    /**
     * Sets by hand the seconds a state's wait had counted when it was left, which a history
     * state resumes (NaN clears them).
     *
     * @param path    the state's dotted path
     * @param seconds the seconds, finite and 0 or more, or NaN to clear them
     * @return this record
     * @throws MachineException if the state has no wait or the seconds are negative or infinite; nothing changes
     */
    StateRecord<C> setPaused(String path, double seconds);
}

package dev.enginestates;

import java.util.Objects;

/**
 * Hears what a running machine does, as it stands after each move: its state changed, a wait
 * started or ended, an event found no state to take it. Every method has an empty default, so
 * a listener overrides what it needs. The same listener type serves every face: on entities
 * {@code V} is the {@code StateRecord} (which names its entity and world), on a plain object it is
 * the {@code StateMachine}.
 *
 * <p>A listener runs on the thread that moves the machine, once the record is consistent. It
 * may read the world, but it is told about a move, not part of it: a listener that throws is
 * reported like the machine's own code (a {@link dev.enginestates.declare.UserCodeException},
 * handed to the world's failure handler during a step), and never leaves a record half-moved.
 * When no listener is added, nothing is computed for them.
 *
 * @param <V> the face the listener is told about
 */
public interface MachineListener<V> {
    /**
     * The machine's active states changed.
     *
     * @param machine the machine, after the move
     * @param from    the active leaves before, as {@link MachineView#state()} says them ({@code "patrol.watch"},
     *                parallel leaves joined by {@code ", "}); {@code ""} when the record had just joined a world
     * @param to      the active leaves now; {@code ""} when the record has left its world
     * @param event   what moved it: the event's type for a send; {@code "states.wait"} when a wait ran out;
     *                {@code "states.when"} for a {@code when} rule; {@code "step"} for a polled machine's guards
     *                and {@code after}; {@code "update"} for a builder-style handler; {@code "go"} for a
     *                forced state; {@code "set"} for a state set by hand; {@code "restore"} for a record
     *                overwritten by a restore or a replica; {@code "spawn"} and {@code "despawn"} for a record
     *                that joined or left a world
     */
    default void stateChanged(V machine, String from, String to, String event) {
    }

    /**
     * A wait started counting (a state declared with {@code waitFor} was entered, or a chained wait began).
     *
     * @param machine the machine, after the move
     * @param state   the waiting state's dotted path
     * @param seconds the wait's length in seconds
     */
    default void waitStarted(V machine, String state, double seconds) {
    }

    /**
     * A wait stopped counting.
     *
     * @param machine the machine, after the move
     * @param state   the state whose wait it was
     * @param elapsed {@code true} when the wait ran out; {@code false} when the machine left the state first
     */
    default void waitEnded(V machine, String state, boolean elapsed) {
    }

    /**
     * An event was sent and no state took it (none names it, or every guard refused); the machine did not move.
     *
     * @param machine the machine
     * @param event   the event's type
     */
    default void eventRefused(V machine, String event) {
    }

    /**
     * A listener that hears only changes of the top state: the root's active child, as
     * {@link MachineView#topState()} names it ({@code "patrol"} while the guard is anywhere in
     * {@code patrol}); a parallel top state keeps its name while its regions move.
     *
     * @param <V>     the face
     * @param changed called with the machine, the top state before and the top state now
     *                ({@code ""} when the record joined or left a world)
     * @return a listener to add to a world or a machine
     */
    static <V> MachineListener<V> onTopState(TopStateChange<V> changed) {
        Objects.requireNonNull(changed, "changed");
        return new MachineListener<V>() {
            @Override
            public void stateChanged(V machine, String from, String to, String event) {
                String before = top(from);
                String now = top(to);
                if (!before.equals(now)) {
                    changed.changed(machine, before, now);
                }
            }
        };
    }

    /** The top state of a {@link MachineView#state()} string: its first path's first segment. */
    private static String top(String leaves) {
        int end = leaves.length();
        for (int i = 0; i < leaves.length(); i++) {
            char ch = leaves.charAt(i);
            if (ch == '.' || ch == ',') {
                end = i;
                break;
            }
        }
        return leaves.substring(0, end);
    }

    /**
     * Hears a machine's top state change.
     *
     * @param <V> the face
     */
    @FunctionalInterface
    interface TopStateChange<V> {
        /**
         * The top state changed.
         *
         * @param machine the machine, after the move
         * @param from    the top state before, {@code ""} when the record had just joined a world
         * @param to      the top state now, {@code ""} when the record has left its world
         */
        void changed(V machine, String from, String to);
    }
}

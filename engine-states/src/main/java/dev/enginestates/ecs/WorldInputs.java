package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.Event;

/**
 * Hears a world's inputs, as an input log records them: spawns, despawns, attachments and
 * detachments of machines, events sent from outside the step, states set by hand, records
 * written by a restore, clock changes, steps. What a machine's own code does during a step or
 * inside a send (spawns, sends to other machines) is a consequence of the inputs, which a replay
 * runs again, and is not heard. Called after each input has been applied.
 */
public interface WorldInputs {
    /** An entity was spawned holding these machine records (other components are the game's). */
    default void spawned(Entity entity, StateRecord<?>[] records) {
    }

    /** A machine record was attached to an existing entity (the world's own included). */
    default void attached(Entity entity, StateRecord<?> record) {
    }

    /** A machine was detached from an entity. */
    default void detached(Entity entity, States<?> machine) {
    }

    /** An entity is being despawned (called just before it is deleted, so it can still be read). */
    default void despawned(Entity entity) {
    }

    /** An event was sent to a machine from outside the step. */
    default void sent(StateRecord<?> record, Event event) {
    }

    /** A polled machine's event with arguments was sent from outside the step. */
    default void sent(StateRecord<?> record, String event, Object[] args) {
    }

    /** A polled machine was sent to a state with {@code go} from outside the step. */
    default void went(StateRecord<?> record, String name) {
    }

    /** A state was set by hand. */
    default void stateSet(StateRecord<?> record, String[] paths) {
    }

    /** A record was written by hand: its wait, history or paused seconds, or the whole record by a restore. */
    default void edited(StateRecord<?> record) {
    }

    /**
     * At the start of a step, a hold component ({@link MachinePaused} or one of a machine's
     * {@code heldBy} types) was found on an entity holding machines where the last step did not
     * find it ({@code on}), or is no longer found ({@code !on}). The first step after
     * {@link StateWorld#listen} reports every hold it finds.
     */
    default void holdChanged(Entity entity, Class<?> component, boolean on) {
    }

    /** The world's clock was set (a restore does this before writing records). */
    default void clockSet(double time, long steps) {
    }

    /** The world was stepped. */
    default void stepped(double dt) {
    }

    /** The first half of a split tick: {@link StateWorld#advance}. */
    default void advanced(double dt) {
    }

    /** The second half of a split tick: {@link StateWorld#runStates}. */
    default void ranStates() {
    }
}

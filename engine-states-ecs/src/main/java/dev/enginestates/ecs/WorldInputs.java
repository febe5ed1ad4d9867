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
    /**
     * An entity was spawned holding these machine records (other components are the game's).
     *
     * @param entity  the new entity
     * @param records the machine records it was spawned with, in the order given; empty if none
     */
    default void spawned(Entity entity, StateRecord<?>[] records) {
    }

    /**
     * A machine record was attached to an existing entity (the world's own included).
     *
     * @param entity the entity
     * @param record the record, now in the world and on that entity
     */
    default void attached(Entity entity, StateRecord<?> record) {
    }

    /**
     * A machine was detached from an entity.
     *
     * @param entity  the entity
     * @param machine the machine whose record was taken off
     */
    default void detached(Entity entity, States<?> machine) {
    }

    /**
     * An entity is being despawned (called just before it is deleted, so it can still be read).
     *
     * @param entity the entity, with its components (its {@link EntityKey} included) still on it
     */
    default void despawned(Entity entity) {
    }

    /**
     * An event was sent to a machine from outside the step: any event to an XState-style machine,
     * or an {@link Event} sent whole to a polled one.
     *
     * @param record the record of the machine the event was sent to
     * @param event  the event, with its fields
     */
    default void sent(StateRecord<?> record, Event event) {
    }

    /**
     * A polled machine's event with arguments was sent from outside the step.
     *
     * @param record the record of the machine the event was sent to
     * @param event  the event's name
     * @param args   the handler's arguments; empty (never {@code null}) when it was sent without any
     */
    default void sent(StateRecord<?> record, String event, Object[] args) {
    }

    /**
     * A polled machine was sent to a state with {@code go} from outside the step (or a
     * builder-style machine with {@code transitionTo}).
     *
     * @param record the record of the machine that was moved
     * @param name   the state's name as the game gave it ({@code "$back"} included)
     */
    default void went(StateRecord<?> record, String name) {
    }

    /**
     * A state was set by hand.
     *
     * @param record the record that was set
     * @param paths  the states' dotted paths, as {@link StateRecord#setState(String...)} took them
     */
    default void stateSet(StateRecord<?> record, String[] paths) {
    }

    /**
     * A record was written by hand: its wait, history or paused seconds, or the whole record by a restore.
     *
     * @param record the record, as it is after the change
     */
    default void edited(StateRecord<?> record) {
    }

    /**
     * At the start of a step, a hold component ({@link MachinePaused} or one of a machine's
     * {@code heldBy} types) was found on an entity holding machines where the last step did not
     * find it ({@code on}), or is no longer found ({@code !on}). The first step after
     * {@link StateWorld#recordInputs} reports every hold it finds.
     *
     * @param entity    the entity holding machines
     * @param component the hold component's class
     * @param on        {@code true} if it was found, {@code false} if it is gone
     */
    default void holdChanged(Entity entity, Class<?> component, boolean on) {
    }

    /**
     * The world's clock was set (a restore does this before writing records).
     *
     * @param time  the clock's new seconds
     * @param steps the new step count
     */
    default void clockSet(double time, long steps) {
    }

    /**
     * The world was stepped.
     *
     * @param dt the step's seconds
     */
    default void stepped(double dt) {
    }

    /**
     * The first half of a split tick: {@link StateWorld#advance}.
     *
     * @param dt the tick's seconds
     */
    default void advanced(double dt) {
    }

    /** The second half of a split tick: {@link StateWorld#runStates}. */
    default void ranStates() {
    }

    /**
     * Every record of a machine moved to another definition of it ({@link StateWorld#swap}).
     *
     * @param from    the definition the records had
     * @param to      the definition they have now
     * @param mapping the mapping given to the swap, or {@code null} when {@code to}'s declared migrations were used
     */
    default void swapped(States<?> from, States<?> to, dev.enginestates.declare.Migration mapping) {
    }

}

package dev.enginestates.testing;

import dev.enginestates.records.Access;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.MachineException;
import dev.enginestates.algorithm.BuilderInterpreter;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.records.MachineRecord;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * A machine a test has put in a state with {@link WorldFixture#startIn}: the rest of its
 * record, arranged by hand. Each call changes the record at once (through
 * {@link StateRecord#setWaited}, {@link StateRecord#setHistory}, {@link StateRecord#setPaused}),
 * so the calls may come in any order after the state is set:
 *
 * <pre>{@code
 * // a guard, three seconds into his watch, answering the bell
 * world.startIn(guard, GUARD, "answer")
 *      .remembering("patrol.resumed", "patrol.watch")
 *      .paused("patrol.watch", 3);
 * }</pre>
 *
 * @param <C> the machine's context type
 */
public final class Start<C> {
    private final StateWorld world;
    private final StateRecord<C> record;

    Start(StateWorld world, StateRecord<C> record) {
        this.world = world;
        this.record = record;
    }

    /**
     * Sets how many seconds the current wait has already counted, as "three seconds into his
     * watch". More than the wait's seconds ends the wait at the next step.
     *
     * @param seconds the seconds already waited, 0 or more
     * @return this start, for chaining
     * @throws MachineException if no wait counts in the state, or the seconds are negative or not finite
     */
    public Start<C> waited(double seconds) {
        record.setWaited(seconds);
        return this;
    }

    /**
     * Sets the seconds the current wait has left (its seconds less those already waited).
     *
     * @param seconds the seconds left, from 0 to the wait's own seconds
     * @return this start, for chaining
     * @throws MachineException if no wait counts in the state, or the seconds are more than the wait's own or negative
     */
    public Start<C> secondsLeft(double seconds) {
        if (!record.isWaiting()) {
            record.setWaited(0); // throws the library's message: no wait counts here
        }
        double total = Access.record(record).waitSeconds();
        if (!(seconds >= 0) || seconds > total) {
            throw new MachineException(record.machineId(), "machine '" + record.machineId() + "': the wait of '" + record.waitingIn()
                    + "' is " + total + " s, so " + seconds + " s cannot be left; expected 0 to " + total);
        }
        record.setWaited(total - seconds);
        return this;
    }

    /**
     * Sets what a history state remembers, as if its parent had been left in those states.
     *
     * @param historyPath the history state's dotted path, such as {@code "patrol.resumed"}
     * @param states the dotted paths of the states it remembers, such as {@code "patrol.watch"}
     * @return this start, for chaining
     * @throws MachineException if the path is not a history state or a state is not inside its parent
     */
    public Start<C> remembering(String historyPath, String... states) {
        record.setHistory(historyPath, states);
        return this;
    }

    /**
     * Sets what the history state declared with a constant remembers, as if its parent had
     * been left in the states declared with {@code states}.
     *
     * @param history the constant that declares the history state
     * @param states the constants of the states it remembers
     * @return this start, for chaining
     * @throws MachineException if a constant is not of the machine's state enum, or names no history state or a state outside its parent
     */
    public Start<C> remembering(Enum<?> history, Enum<?>... states) {
        record.setHistory(history, states);
        return this;
    }

    /**
     * Sets the seconds the wait of the state declared with a constant had counted when it was
     * left, which a history state resumes.
     *
     * @param state the constant that declares the state with the wait
     * @param seconds the seconds its wait had counted, 0 or more
     * @return this start, for chaining
     * @throws MachineException if the constant is not of the machine's state enum, the state has no wait, or the seconds are
     *                          negative or infinite
     */
    public Start<C> paused(Enum<?> state, double seconds) {
        record.setPaused(state, seconds);
        return this;
    }

    /**
     * Sets the seconds a state's wait had counted when it was left, which a history state
     * resumes.
     *
     * @param statePath the dotted path of the state with the wait, such as {@code "patrol.watch"}
     * @param seconds the seconds its wait had counted, 0 or more
     * @return this start, for chaining
     * @throws MachineException if the state has no wait, or the seconds are negative or infinite
     */
    public Start<C> paused(String statePath, double seconds) {
        record.setPaused(statePath, seconds);
        return this;
    }

    /**
     * Sets how long an active state of a polled machine has been active ({@code ""} for the
     * machine's total), as "five seconds into the search": guards read it as {@code t}, and an
     * {@code after} counts from it. For a builder-style machine, the state must be the current
     * one: see {@link #timeInState}.
     *
     * @param statePath the active state's path, or {@code ""} for the machine's total
     * @param seconds how long it has been active, 0 or more
     * @return this start, for chaining
     * @throws MachineException if the machine is XState-style, the state is not active (for a builder-style machine: not the
     *                          current state), or the seconds are negative or not finite
     */
    public Start<C> timeIn(String statePath, double seconds) {
        record.setTime(statePath, seconds);
        MachineRecord r = Access.record(record);
        if (BuilderView.is(r)) {
            // no window edge pending: the next advance crosses edges from here, as BuilderStart does
            r.setPreviousProgress(BuilderInterpreter.progress(r));
            world.restored(record); // writes the context and tells an input log
        }
        return this;
    }

    /**
     * Sets how long a builder-style machine has been in its current
     * state, as "0.2 s into the attack": its time in state, in float as the machine counts it,
     * and the context's time and progress to match. No window edge is pending: a window the time
     * lies inside reads {@code inWindow} but not {@code windowEntered}, and the next advance
     * crosses edges from here.
     *
     * @param seconds the seconds in the current state, 0 or more
     * @return this start, for chaining
     * @throws MachineException if the machine is not builder-style, or the seconds are negative or not finite
     */
    public Start<C> timeInState(double seconds) {
        BuilderView.require(Access.record(record), "timeInState");
        return timeIn("", seconds);
    }

    /**
     * Changes the context, as a system writes it (no transition is taken).
     *
     * @param change the change, given the record's context
     * @return this start, for chaining
     */
    public Start<C> context(Consumer<? super C> change) {
        Objects.requireNonNull(change, "change").accept(record.context());
        return this;
    }

    /**
     * The record arranged.
     *
     * @return the machine's record, live: it changes as the world steps
     */
    public StateRecord<C> record() {
        return record;
    }

    /**
     * The entity that holds the record.
     *
     * @return the entity, such as the one {@link WorldFixture#spawnIn} spawned
     */
    public Entity entity() {
        return record.entity();
    }

    @Override
    public String toString() {
        return "Start(" + record + " on " + EntityDump.name(world, record.entity()) + ")";
    }
}

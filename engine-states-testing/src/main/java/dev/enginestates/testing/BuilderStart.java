package dev.enginestates.testing;

import dev.enginestates.records.Access;
import dev.enginestates.declare.MachineException;
import dev.enginestates.algorithm.BuilderInterpreter;
import dev.enginestates.chart.Names;
import dev.enginestates.declare.StateContextCore;
import dev.enginestates.fsm.StateMachine;
import dev.enginestates.fsm.StateMachineDefinition;
import dev.enginestates.records.MachineRecord;

import java.util.Objects;

/**
 * Starts a builder-style machine (a {@code dev.enginestates.fsm.StateMachine},
 * not the plain {@code dev.enginestates.plain.StateMachine}) in any state, some seconds into
 * it, as a test arranges "0.2 s into the attack" without playing the ticks that lead there:
 *
 * <pre>{@code
 * StateMachine<Fighter> fsm = BuilderStart.startIn(COMBO, fighter, "Attack", 0.2f);
 * assertThat(fsm).hasState("Attack").hasProgress(0.2 / 0.55).isInWindow("damage");
 * fsm.update(fighter, 1f / 60);        // runs on from there
 * }</pre>
 *
 * <p>No game code runs: neither the initial state's hooks ({@code initialize} is not called) nor
 * the state's own enter hook or the builder's {@code onStateEnter}. The context is written as
 * the machine would have written it: the state's duration, tag, windows, data and motion, the
 * time in state, and a previous progress equal to the current progress, so no window edge is
 * pending: a window the start lies inside reads {@code inWindow} but not {@code windowEntered},
 * and the next {@code advance} crosses edges from here. There is no previous state.
 *
 * <p>On an entity, {@link WorldFixture#spawnIn} and {@link Start#timeInState} do the same.
 */
public final class BuilderStart {
    private BuilderStart() {
    }

    /**
     * A new machine over {@code definition}, in {@code state} at time 0, over {@code ctx}.
     *
     * @param <C> the machine's context type
     * @param definition the machine's definition
     * @param ctx the context the machine runs over, not {@code null}
     * @param state the state's name, as declared ({@code "Attack"})
     * @return the new machine, in the state
     * @throws MachineException if the name names no state
     * @throws NullPointerException if the context is {@code null}, as the machine's own calls refuse it
     * @throws IllegalArgumentException if the context is not what the machine's handlers take
     */
    public static <C extends StateContextCore> StateMachine<C> startIn(StateMachineDefinition<C> definition, C ctx, String state) {
        return startIn(definition, ctx, state, 0f);
    }

    /**
     * A new machine over {@code definition}, {@code secondsInState} into {@code state}, over {@code ctx}.
     *
     * @param <C> the machine's context type
     * @param definition the machine's definition
     * @param ctx the context the machine runs over, not {@code null}
     * @param state the state's name, as declared ({@code "Attack"})
     * @param secondsInState the seconds already spent in the state, 0 or more
     * @return the new machine, in the state
     * @throws MachineException if the name names no state
     * @throws NullPointerException if the context is {@code null}, as the machine's own calls refuse it
     * @throws IllegalArgumentException if the seconds are negative or not finite, or the context is not what the machine's
     *                                  handlers take
     */
    public static <C extends StateContextCore> StateMachine<C> startIn(StateMachineDefinition<C> definition, C ctx, String state,
            float secondsInState) {
        return startIn(new StateMachine<>(Objects.requireNonNull(definition, "definition")), ctx, state, secondsInState);
    }

    /**
     * Puts an existing machine (an {@code AIStateMachine}, or one already running: it is
     * restarted without an exit hook) in {@code state}, {@code secondsInState} into it, over
     * {@code ctx}; from then on pass {@code ctx} to its calls.
     *
     * @param <C> the machine's context type
     * @param <M> the machine's class, such as an {@code AIStateMachine}
     * @param machine the machine to restart
     * @param ctx the context the machine runs over from now on, not {@code null}
     * @param state the state's name, as declared ({@code "Attack"})
     * @param secondsInState the seconds already spent in the state, 0 or more
     * @return the same machine
     * @throws MachineException if the name names no state; nothing changes
     * @throws NullPointerException if the context is {@code null}, as the machine's own calls refuse it; nothing changes
     * @throws IllegalArgumentException if the seconds are negative or not finite, or the context is not what the machine's
     *                                  handlers take; nothing changes
     * @throws IllegalStateException if called from the machine's own code while it handles a call
     */
    public static <C extends StateContextCore, M extends StateMachine<C>> M startIn(M machine, C ctx, String state,
            float secondsInState) {
        Objects.requireNonNull(machine, "machine");
        MachineRecord r = Access.record(machine);
        String id = machine.definition().id();
        if (r.processing() != null) {
            throw new IllegalStateException("machine '" + id + "' is busy with " + r.processing() + "; startIn arranges a machine"
                    + " from a test, not from the machine's own code");
        }
        if (ctx == null) { // as fsm.StateMachine's own calls refuse a null context
            throw new NullPointerException("machine '" + id + "': startIn needs a context; got null");
        }
        int s = BuilderInterpreter.stateNamed(r, state);
        if (s < 0) {
            throw new MachineException(id, "machine '" + id + "': startIn('" + state + "') names no state; expected one of "
                    + machine.definition().states() + Names.suggestion(state, machine.definition().states()));
        }
        if (!(secondsInState >= 0f) || Float.isInfinite(secondsInState)) {
            throw new IllegalArgumentException("machine '" + id + "': startIn('" + state + "', " + secondsInState
                    + ") needs a finite number of seconds in the state, 0 or more");
        }
        MachineRecord scratch = new MachineRecord(r.chart(), ctx);
        BuilderInterpreter.place(scratch, s, 0f, 0f); // checks the context's type and writes the state's metadata into it
        scratch.setTimeInState(secondsInState);
        scratch.setPreviousProgress(BuilderInterpreter.progress(scratch));
        BuilderInterpreter.writeContext(scratch); // the time and progress; the machine's record is untouched until here
        r.copyFrom(scratch);
        return machine;
    }
}

package dev.enginestates.io;

import dev.enginestates.Machine;
import dev.enginestates.StatesDef;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.StateMachineDefinition;

import java.util.Objects;

/** The ECS bindings of definitions of each style, for the I/O entry points that take them: those {@code States.of} gives. */
final class Bindings {
    private Bindings() {
    }

    static States<?>[] of(Machine<?>[] machines) {
        States<?>[] out = new States<?>[Objects.requireNonNull(machines, "machines").length];
        for (int i = 0; i < out.length; i++) {
            out[i] = States.of(machines[i]);
        }
        return out;
    }

    static States<?>[] of(StatesDef<?>[] definitions) {
        States<?>[] out = new States<?>[Objects.requireNonNull(definitions, "definitions").length];
        for (int i = 0; i < out.length; i++) {
            out[i] = States.of(definitions[i]);
        }
        return out;
    }

    static States<?>[] of(StateMachineDefinition<?>[] definitions) {
        States<?>[] out = new States<?>[Objects.requireNonNull(definitions, "definitions").length];
        for (int i = 0; i < out.length; i++) {
            out[i] = States.of(definitions[i]);
        }
        return out;
    }
}

package dev.enginestates.fsm;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A builder machine's step finds its state from the record's active bits where the chart has at
 * most 64 states, and from its configuration above that: a machine walks through all its states,
 * each handler naming the next, the same on both sides of that line.
 */
class BuilderStateNumbersTest {
    static final class Ctx extends AIContext {
        int entered;
    }

    private static StateMachineDefinition<Ctx> ring(int states) {
        StateMachineBuilder<Ctx> b = new StateMachineBuilder<>("ring-" + states, Ctx::new);
        for (int i = 0; i < states; i++) {
            String next = "S" + ((i + 1) % states);
            StateMachineBuilder<Ctx>.StateConfig s = b.configureState("S" + i);
            if (i == 0) {
                s.asInitial();
            }
            s.handler((c, dt) -> next).enter(c -> c.entered++);
        }
        return b.build();
    }

    @Test
    void every_state_of_a_machine_up_to_and_past_64_states_is_found_where_the_step_looks_for_it() {
        for (int states : new int[] {2, 62, 63, 64, 65, 70, 130}) {
            StateMachineDefinition<Ctx> def = ring(states);
            Ctx ctx = new Ctx();
            StateMachine<Ctx> m = new StateMachine<>(def);
            m.initialize(ctx);
            for (int i = 1; i <= 2 * states; i++) {
                m.update(ctx, 1 / 60f);
                assertEquals("S" + (i % states), m.state(), "ring of " + states + " states, update " + i);
            }
            assertEquals(2 * states + 1, ctx.entered, "ring of " + states + " states: every update moved once");
        }
    }
}

package dev.enginestates;

import dev.enginestates.plain.StateMachine;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 17: XState looks for eventless transitions again only after a microstep that changed
 * the configuration or a history (or, in XState, the context through {@code assign}); a machine
 * that declares {@code eventlessAfterActions()} (the SCXML import) looks again after every
 * microstep that ran an action, as SCXML does.
 */
class EventlessAfterActionsTest {
    /** A counter that a targetless eventless transition counts up to 3, and a state that leaves at 3. */
    private static Machine<int[]> counter(boolean afterActions) {
        return Machine.define("counter", () -> new int[1], m -> {
            if (afterActions) {
                m.eventlessAfterActions();
            }
            m.state("idle", s -> s.on("GO", "counting"))
             .state("counting", s -> s
                 .always(t -> t.guard((n, e) -> n[0] == 3).target("done"))
                 .always(t -> t.guard((n, e) -> n[0] < 3).action((n, e) -> n[0]++)))
             .state("done");
        });
    }

    @Test
    void byDefaultAnActionAloneDoesNotLookForEventlessTransitionsAgain() {
        StateMachine<int[]> m = new StateMachine<>(counter(false));
        m.send("GO");
        assertEquals(1, m.context()[0], "XState's rule: the targetless step changed no configuration");
        assertEquals("counting", m.state());
    }

    @Test
    void eventlessAfterActionsLooksAgainAfterEveryMicrostepThatRanAnAction() {
        StateMachine<int[]> m = new StateMachine<>(counter(true));
        m.send("GO");
        assertEquals(3, m.context()[0]);
        assertEquals("done", m.state(), "SCXML's rule: the counting went on within the macrostep");
    }
}

package dev.enginestates.plain;

import dev.enginestates.Machine;
import dev.enginestates.declare.UserCodeException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A plain machine's own code (an action, a guard) moves it by transitions only: a {@code step},
 * {@code go} or {@code withTime} on its own machine from inside that code is refused clearly and
 * changes nothing (no clock moved under the running pass).
 */
class PlainOwnCodeTest {
    public static final class Ctx {
        StateMachine<Ctx> self;
        String call = "";
    }

    static final Machine<Ctx> M = Machine.define("own-code", Ctx::new, m -> m
            .initial("idle")
            .state("idle", s -> s.on("GO", t -> t.target("busy").action((c, e) -> {
                switch (c.call) {
                    case "step" -> c.self.step(1);
                    case "go" -> c.self.go("done");
                    case "withTime" -> c.self.withTime("idle", 5);
                    default -> { }
                }
            })))
            .state("busy", s -> s.waitFor(2, "done"))
            .state("done", s -> { }));

    @Test
    void aStepGoOrWithTimeFromTheMachinesOwnActionIsRefusedAndChangesNothing() {
        for (String call : new String[] {"step", "go", "withTime"}) {
            Ctx c = new Ctx();
            StateMachine<Ctx> fsm = new StateMachine<>(M, c);
            c.self = fsm;
            c.call = call;
            UserCodeException e = assertThrows(UserCodeException.class, () -> fsm.send("GO"), call);
            IllegalStateException cause = assertInstanceOf(IllegalStateException.class, e.getCause(), call);
            assertTrue(cause.getMessage().startsWith("machine 'own-code' is running its own code (processing 'GO')"), cause.getMessage());
            assertTrue(cause.getMessage().contains("asked to " + call), cause.getMessage());
            // the action ran once its transition's configuration was written; the refused call moved nothing
            assertEquals("busy", fsm.state(), call);
            assertEquals(0, fsm.totalTime(), call);
            assertEquals(2, fsm.secondsLeft(), 1e-9, call + ": the wait starts whole");
            fsm.step(2);
            assertEquals("done", fsm.state(), call + ": the machine keeps working");
        }
    }
}

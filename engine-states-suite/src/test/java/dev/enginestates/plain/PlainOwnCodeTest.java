package dev.enginestates.plain;

import dev.enginestates.Machine;
import dev.enginestates.MachineListener;
import dev.enginestates.StatesDef;
import dev.enginestates.declare.UserCodeException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

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
        String refused;
    }

    static final Machine<Ctx> M = Machine.define("own-code", Ctx::new, m -> m
            .initial("idle")
            .state("idle", s -> s.on("GO", t -> t.target("busy").action((c, e) -> {
                switch (c.call) {
                    case "step" -> c.self.step(1);
                    case "go" -> c.self.go("done");
                    case "withTime" -> c.self.withTime("idle", 5);
                    case "send" -> c.self.send("GO");
                    case "send, caught" -> {
                        try {
                            c.self.send("GO");
                        } catch (RuntimeException refused) {
                            c.refused = refused.getMessage();
                        }
                    }
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

    @Test
    void aSendRefusedFromTheMachinesOwnActionLeavesTheMoveUnderWayToldAndRemembered() {
        for (String call : new String[] {"send", "send, caught"}) {
            Ctx c = new Ctx();
            StateMachine<Ctx> fsm = new StateMachine<>(M, c);
            c.self = fsm;
            c.call = call;
            List<String> heard = new ArrayList<>();
            fsm.on("change", (to, from) -> heard.add(from + ">" + to));
            if (call.equals("send")) {
                UserCodeException e = assertThrows(UserCodeException.class, () -> fsm.send("GO"));
                assertTrue(e.getCause().getMessage().contains("from its own guard or action while processing 'GO'"), e.getMessage());
            } else {
                assertTrue(fsm.send("GO"));
                assertTrue(c.refused.contains("from its own guard or action while processing 'GO'"), c.refused);
            }
            assertEquals("busy", fsm.state(), call);
            assertEquals("idle", fsm.previous(), call + ": the move from idle is the last move");
            assertEquals(List.of("idle>busy"), heard, call + ": the listener heard the move the refused send was made in");
        }
    }

    public static final class Bot {
        StateMachine<Bot> self;
        String refused;
    }

    static final StatesDef<Bot> BOT = StatesDef.<Bot>define("own-code-bot", d -> d
            .state("a", s -> s.on("hit", (b, args) -> {
                try {
                    b.self.send("poke");
                } catch (RuntimeException refused) {
                    b.refused = refused.getMessage();
                }
                return "b";
            }))
            .state("b", s -> s.on("poke", (b, args) -> "a")));

    @Test
    void aPolledMachinesMoveIsNamedByItsOwnEventWhenItsHandlerSentARefusedEvent() {
        Bot bot = new Bot();
        StateMachine<Bot> fsm = new StateMachine<>(BOT, bot);
        bot.self = fsm;
        List<String> heard = new ArrayList<>();
        fsm.addListener(new MachineListener<StateMachine<Bot>>() {
            @Override
            public void stateChanged(StateMachine<Bot> machine, String from, String to, String event) {
                heard.add(from + ">" + to + " " + event);
            }
        });
        assertTrue(fsm.send("hit"));
        assertTrue(bot.refused.contains("busy with 'hit'"), bot.refused);
        assertEquals(List.of("a>b hit"), heard, "the move is hit's, not the refused poke's");
    }
}

package dev.enginestates.plain;

import dev.enginestates.MachineListener;
import dev.enginestates.StatesDef;
import dev.enginestates.declare.UserCodeException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.enginestates.plain.PlainXStateStepTest.GUARD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue "The room's outside", part 1, on a plain object: the same {@link MachineListener} hears
 * one machine (state changes with what moved it, waits, refused events), and the top state
 * reads as on an entity.
 */
class PlainListenersTest {
    static final class Log implements MachineListener<StateMachine<?>> {
        final List<String> lines = new ArrayList<>();

        @Override
        public void stateChanged(StateMachine<?> machine, String from, String to, String event) {
            lines.add("changed " + from + ">" + to + " " + event);
        }

        @Override
        public void waitStarted(StateMachine<?> machine, String state, double seconds) {
            lines.add("wait " + state + " " + seconds);
        }

        @Override
        public void waitEnded(StateMachine<?> machine, String state, boolean elapsed) {
            lines.add("ended " + state + (elapsed ? " elapsed" : " left"));
        }

        @Override
        public void eventRefused(StateMachine<?> machine, String event) {
            lines.add("refused " + event);
        }
    }

    @Test
    void anXStateStyleMachineIsHeardMovingWaitingAndRefusing() {
        StateMachine<PlainXStateStepTest.Guard> m = new StateMachine<>(GUARD, new PlainXStateStepTest.Guard());
        Log log = new Log();
        m.addListener(log);
        m.step(4);
        assertFalse(m.send("RESUME"));
        m.send("BELL");
        m.step(3);
        assertEquals(List.of(
                "ended patrol.watch elapsed", "changed patrol.watch>patrol.rest states.wait", "wait patrol.rest 10.0",
                "refused RESUME",
                "ended patrol.rest left", "changed patrol.rest>answer BELL", "wait answer 3.0",
                "ended answer elapsed", "changed answer>patrol.watch states.wait", "wait patrol.watch 4.0"), log.lines);
        assertEquals("patrol", m.topState());
    }

    @Test
    void aPolledMachineIsHeardWithItsStepAndItsEvents() {
        StatesDef<int[]> def = StatesDef.define("plain-listened", () -> new int[1], d -> d
                .initial("idle")
                .on("poke", (c, args) -> "busy")
                .state("idle", s -> s.to("busy", (c, t) -> c[0] > 0))
                .state("busy", s -> s.after(1, "idle")));
        int[] flag = {0};
        StateMachine<int[]> m = new StateMachine<>(def, flag);
        Log log = new Log();
        m.addListener(log);
        flag[0] = 1;
        m.step(0.1);
        flag[0] = 0;
        m.step(1);
        m.send("poke");
        assertEquals(List.of("changed idle>busy step", "changed busy>idle step", "changed idle>busy poke"), log.lines);
        assertTrue(m.removeListener(log));
        m.step(1);
        assertEquals(3, log.lines.size(), "a removed listener hears nothing");
    }

    @Test
    void aListenerThatThrowsIsAUserCodeExceptionAfterTheMove() {
        StateMachine<PlainXStateStepTest.Guard> m = new StateMachine<>(GUARD, new PlainXStateStepTest.Guard());
        m.addListener(MachineListener.onTopState((StateMachine<PlainXStateStepTest.Guard> sm, String from, String to) -> {
            throw new IllegalStateException("the HUD crashed");
        }));
        UserCodeException x = assertThrows(UserCodeException.class, () -> m.send("BELL"));
        assertTrue(x.getMessage().contains("a listener"), x.getMessage());
        assertEquals("answer", m.state(), "the move was whole before it was told");
    }
}

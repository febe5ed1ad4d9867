package dev.enginestates.plain;

import dev.enginestates.MachineListener;
import dev.enginestates.declare.UserCodeException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.enginestates.plain.PlainXStateStepTest.GUARD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A listener that throws is reported once the move is whole and every other listener told (as
 * on a world): one listener's failure never leaves the others with a stale state.
 */
class PlainListenerFailureTest {
    @Test
    void aThrowingListenerLeavesEveryOtherListenerToldThenThrows() {
        StateMachine<PlainXStateStepTest.Guard> m = new StateMachine<>(GUARD, new PlainXStateStepTest.Guard());
        List<String> heard = new ArrayList<>();
        m.on("change", (to, from) -> {
            throw new IllegalStateException("the first HUD crashed");
        });
        m.on("change", (to, from) -> heard.add("change " + from + ">" + to));
        m.addListener(new MachineListener<StateMachine<PlainXStateStepTest.Guard>>() {
            @Override
            public void stateChanged(StateMachine<PlainXStateStepTest.Guard> machine, String from, String to, String event) {
                heard.add("state " + from + ">" + to + " " + event);
            }

            @Override
            public void waitStarted(StateMachine<PlainXStateStepTest.Guard> machine, String state, double seconds) {
                heard.add("wait " + state + " " + seconds);
            }
        });
        m.addListener(MachineListener.onTopState((StateMachine<PlainXStateStepTest.Guard> sm, String from, String to) -> {
            throw new IllegalStateException("the second HUD crashed");
        }));
        UserCodeException x = assertThrows(UserCodeException.class, () -> m.send("BELL"));
        assertTrue(x.getMessage().contains("the first HUD crashed"), x.getMessage());
        assertEquals(1, x.getSuppressed().length, "the second failure rides along");
        assertTrue(x.getSuppressed()[0].getMessage().contains("the second HUD crashed"), x.getSuppressed()[0].getMessage());
        assertEquals("answer", m.state());
        assertEquals(List.of("change patrol.watch>answer", "state patrol.watch>answer BELL", "wait answer 3.0"), heard,
                "every other listener heard the move");
    }
}

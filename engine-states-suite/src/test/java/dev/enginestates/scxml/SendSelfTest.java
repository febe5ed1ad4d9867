package dev.enginestates.scxml;

import dev.enginestates.Machine;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.MachineBuilder;
import dev.enginestates.declare.SelfAction;
import dev.enginestates.declare.UserCodeException;
import dev.enginestates.plain.StateMachine;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sends to itself on a plain machine: SCXML's {@code <send>} with no target (the external queue,
 * with {@code delay} and {@code id}) and {@code <cancel>}, XState's delayed {@code raise} and
 * {@code cancel}, timed on the machine's own {@code step(dt)} clock.
 */
class SendSelfTest {
    static StateMachine<List<String>> start(Consumer<MachineBuilder<List<String>>> body) {
        return new StateMachine<>(Machine.define("s", ArrayList::new, body));
    }

    static SelfAction<List<String>> send(String type, double delay, String id) {
        return (l, e, self) -> self.sendSelf(Event.of(type), delay, id);
    }

    @Test
    void noDelay_isProcessedAfterTheMacrostep_beforeTheSendReturns() {
        StateMachine<List<String>> sm = start(m -> m
                .state("a", s -> s.on("GO", t -> t.target("b").action(send("NEXT", 0, null))))
                .state("b", s -> s.entry((l, e) -> l.add("en_b")).always(t -> t.target("c").guard((l, e) -> false)).on("NEXT", "c"))
                .state("c", s -> s.entry((l, e) -> l.add("en_c " + e.type()))));
        assertTrue(sm.send("GO"));
        assertEquals("c", sm.state());
        assertEquals(List.of("en_b", "en_c NEXT"), sm.context());
    }

    @Test
    void aDelay_countsOnThePlainMachinesStepClock() {
        StateMachine<List<String>> sm = start(m -> m
                .state("a", s -> s.on("GO", t -> t.action(send("RING", 1.0, null))).on("RING", "b"))
                .state("b"));
        sm.send("GO");
        sm.step(0.5);
        assertEquals("a", sm.state());
        sm.step(0.25);
        assertEquals("a", sm.state());
        sm.step(0.25);
        assertEquals("b", sm.state());
    }

    @Test
    void aSendDueWithinALongStep_isDeliveredAtItsOwnTime_soAWaitItStartsCountsFromThen() {
        StateMachine<List<String>> sm = start(m -> m
                .state("a", s -> s.entry(send("RING", 1.0, null)).on("RING", "b"))
                .state("b", s -> s.waitFor(0.5, "c"))
                .state("c"));
        sm.step(1.4);
        assertEquals("b", sm.state());
        sm.step(0.1);
        assertEquals("c", sm.state(), "the wait started at 1.0, when the send fell due, and ended at 1.5");
    }

    @Test
    void cancel_removesEveryPendingSendWithThatId() {
        StateMachine<List<String>> sm = start(m -> m
                .state("a", s -> s.entry(send("RING", 1.0, "bell")).entry(send("RING", 2.0, "bell")).entry(send("TICK", 1.5, "tick"))
                        .on("STOP", t -> t.action((l, e, self) -> self.cancel("bell")))
                        .on("RING", t -> t.action((l, e) -> l.add("ring")))
                        .on("TICK", t -> t.action((l, e) -> l.add("tick")))));
        sm.send("STOP");
        sm.step(3);
        assertEquals(List.of("tick"), sm.context());
    }

    @Test
    void sendsDueAtTheSameTime_areDeliveredInTheOrderSent_andEarlierTimesFirst() {
        StateMachine<List<String>> sm = start(m -> m
                .state("a", s -> s.entry(send("B", 2, null)).entry(send("A1", 1, null)).entry(send("A2", 1, null))
                        .on("*", t -> t.action((l, e) -> l.add(e.type())))));
        sm.step(5);
        assertEquals(List.of("A1", "A2", "B"), sm.context());
    }

    @Test
    void aWaitDueWithASend_endsFirst() {
        StateMachine<List<String>> sm = start(m -> m
                .state("a", s -> s.entry(send("PING", 1, null)).waitFor(1, "b").on("PING", t -> t.action((l, e) -> l.add("ping in a"))))
                .state("b", s -> s.on("PING", t -> t.action((l, e) -> l.add("ping in b")))));
        sm.step(1);
        assertEquals(List.of("ping in b"), sm.context());
    }

    @Test
    void aDoneMachine_dropsItsPendingSends() {
        StateMachine<List<String>> sm = start(m -> m
                .state("a", s -> s.entry(send("LATE", 1, null)).on("END", "end").on("LATE", "a"))
                .finalState("end"));
        sm.send("END");
        sm.step(2);
        assertTrue(sm.isDone());
    }

    @Test
    void aNegativeOrNaNDelay_isRefused() {
        StateMachine<List<String>> sm = start(m -> m
                .state("a", s -> s.on("GO", t -> t.action(send("GO", -1, null)))));
        UserCodeException e = assertThrows(UserCodeException.class, () -> sm.send("GO"));
        assertInstanceOf(IllegalArgumentException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains("machine 's'"), e.getCause().getMessage());
    }

    @Test
    void sendsToItselfWithNoDelayForever_failWithAClearError() {
        StateMachine<List<String>> sm = start(m -> m
                .state("a", s -> s.on("GO", t -> t.action(send("GO", 0, null)))));
        RuntimeException e = assertThrows(RuntimeException.class, () -> sm.send("GO"));
        assertTrue(e.getMessage().contains("sends to itself in a row"), e.getMessage());
    }
}

package dev.enginestates.scxml;

import dev.enginestates.Machine;
import dev.enginestates.declare.Action;
import dev.enginestates.declare.MachineBuilder;
import dev.enginestates.declare.Self;
import dev.enginestates.declare.SelfAction;
import dev.enginestates.declare.UnknownEventException;
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
 * raise: SCXML's internal queue (W3C SCXML Appendix D, {@code mainEventLoop}: eventless
 * transitions first, then one internal event per microstep) as XState v5's {@code raise} runs it.
 */
class InternalQueueTest {
    static StateMachine<List<String>> start(Consumer<MachineBuilder<List<String>>> body) {
        return new StateMachine<>(Machine.define("q", ArrayList::new, body));
    }

    static Action<List<String>> log(String s) {
        return (l, e) -> l.add(s);
    }

    static SelfAction<List<String>> raise(String type) {
        return (l, e, self) -> self.raise(type);
    }

    @Test
    void raisedInExitTransitionAndEntryActions_areProcessedAfterTheMicrostep_inTheOrderRaised() {
        StateMachine<List<String>> sm = start(m -> m
                .state("a", s -> s.exit(raise("X1")).on("GO", t -> t.target("b").action(raise("X2")).action(log("t"))))
                .state("b", s -> s.entry(raise("X3")).entry(log("en_b"))
                        .on("X1", t -> t.action(log("x1")))
                        .on("X2", t -> t.action(log("x2")))
                        .on("X3", t -> t.action(log("x3")))));
        sm.send("GO");
        assertEquals(List.of("t", "en_b", "x1", "x2", "x3"), sm.context());
    }

    @Test
    void raisedEvents_comeBeforeAnExternalEvent_evenOneSentToItselfFirst() {
        // SCXML: the internal queue empties before the external queue is read (W3C test 144's point)
        StateMachine<List<String>> sm = start(m -> m
                .state("a", s -> s.on("GO", t -> t.target("b").action((l, e, self) -> {
                    self.sendSelf(dev.enginestates.declare.Event.of("EXT"), 0, null);
                    self.raise("INT");
                })))
                .state("b", s -> s.on("INT", t -> t.action(log("int"))).on("EXT", t -> t.action(log("ext")))));
        sm.send("GO");
        assertEquals(List.of("int", "ext"), sm.context());
    }

    @Test
    void eventlessTransitions_settleBeforeTheNextInternalEvent() {
        // mainEventLoop: selectEventlessTransitions first; an internal event only when none is enabled
        StateMachine<List<String>> sm = start(m -> m
                .state("a", s -> s.on("GO", t -> t.target("b").action(raise("X"))))
                .state("b", s -> s.always("c").on("X", t -> t.action(log("x in b"))))
                .state("c", s -> s.entry(log("en_c")).on("X", t -> t.action(log("x in c")))));
        sm.send("GO");
        assertEquals(List.of("en_c", "x in c"), sm.context());
    }

    @Test
    void eachInternalEvent_isItsOwnMicrostep_andEventlessTransitionsAreLookedForAgainAfterIt() {
        StateMachine<List<String>> sm = start(m -> m
                .state("a", s -> s.on("GO", t -> t.target("b").action(raise("ONE")).action(raise("TWO"))))
                .state("b", s -> s.on("ONE", "c").on("TWO", t -> t.action(log("two in b"))))
                .state("c", s -> s.always(t -> t.target("d").guard((l, e) -> e.type().equals("ONE")))
                        .on("TWO", t -> t.action(log("two in c"))))
                .state("d", s -> s.on("TWO", t -> t.action(log("two in d")))));
        sm.send("GO");
        assertEquals(List.of("two in d"), sm.context(), "the eventless transition after ONE sees ONE and goes first");
    }

    @Test
    void anInternalEventNoTransitionTakes_isDropped() {
        StateMachine<List<String>> sm = start(m -> m
                .state("a", s -> s.on("GO", t -> t.target("b").action(raise("LATER"))))
                .state("b", s -> s.on("BACK", "a"))
                .on("LATER", t -> t.guard((l, e) -> false)));
        sm.send("GO");
        assertEquals("b", sm.state());
        assertTrue(sm.send("BACK"));
    }

    @Test
    void aDoneEvent_followsTheEntryActionsRaisedBeforeIt() {
        // XState's enterStates resolves a final state's entry actions, then queues the parent's done event (SCXML too)
        StateMachine<List<String>> sm = start(m -> m
                .state("p", p -> p.initial("a")
                        .state("a", s -> s.on("GO", "f"))
                        .finalState("f", s -> s.entry(raise("X")))
                        .on("X", t -> t.action(log("x")))
                        .onDone(t -> t.target("after").action(log("done"))))
                .state("after"));
        sm.send("GO");
        assertEquals(List.of("x", "done"), sm.context());
        assertEquals("after", sm.state());
    }

    @Test
    void theDeclarativeRaiseAction_raisesItsEvent() {
        StateMachine<List<String>> sm = start(m -> m
                .state("a", s -> s.on("GO", t -> t.target("b").action(Action.raise("NEXT"))))
                .state("b", s -> s.on("NEXT", "c"))
                .state("c"));
        sm.send("GO");
        assertEquals("c", sm.state());
    }

    @Test
    void raisingATypeNoDescriptorMatches_isTheUnknownEventError_atRaiseTime() {
        StateMachine<List<String>> sm = start(m -> m
                .state("a", s -> s.on("GO", t -> t.target("b").action(raise("NOPE"))))
                .state("b"));
        UserCodeException e = assertThrows(UserCodeException.class, () -> sm.send("GO"));
        UnknownEventException u = assertInstanceOf(UnknownEventException.class, e.getCause());
        assertEquals("NOPE", u.eventType());
        assertEquals("b", sm.state(), "the machine keeps a valid configuration");
    }

    @Test
    void raiseOutsideItsMachinesStep_isRefused() {
        Self[] kept = new Self[1];
        StateMachine<List<String>> sm = start(m -> m
                .state("a", s -> s.on("GO", t -> t.action((l, e, self) -> kept[0] = self))));
        sm.send("GO");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> kept[0].raise("GO"));
        assertTrue(e.getMessage().contains("machine 'q'"), e.getMessage());
    }
}

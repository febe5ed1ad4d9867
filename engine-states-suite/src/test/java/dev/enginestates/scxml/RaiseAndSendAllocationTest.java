package dev.enginestates.scxml;

import dev.enginestates.Allocations;
import dev.enginestates.Machine;
import dev.enginestates.declare.Action;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.Guard;
import dev.enginestates.plain.StateMachine;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DESIGN.md, layer 4, "no allocation once warm", for the issue-17 features: a raise of a type the
 * machine names allocates nothing (it is queued in the interpreter's scratch arrays), nor does a
 * send to itself of an event made once (it is kept in the record's pending sends), a wildcard
 * match or a stateIn guard.
 */
class RaiseAndSendAllocationTest {
    static final class Counter {
        int n;
    }

    static final Event TICK = Event.of("TICK");

    static final Machine<Counter> M = Machine.define("alloc17", Counter::new, m -> m
            .state("a", s -> s
                    .on("GO", t -> t.target("b").action(Action.raise("NEXT")).action((c, e, self) -> self.raise("NEXT2")))
                    .on("NEXT", t -> t.action((c, e) -> c.n++)))
            .state("b", s -> s
                    .on("NEXT", t -> t.action((c, e) -> c.n++))
                    .on("NEXT2", t -> t.action((c, e, self) -> {
                        self.sendSelf(TICK, 0, null);
                        self.sendSelf(TICK, 0.25, "t");
                        self.cancel("t");
                        self.sendSelf(TICK, 0.5, null);
                    }))
                    .on("TICK", t -> t.action((c, e) -> c.n++))
                    .on("ui.*", t -> t.target("a").guard(Guard.stateIn("#alloc17.b")))));

    @Test
    void raisingAndSendingToItself_allocateNothingOnceWarm() {
        StateMachine<Counter> sm = new StateMachine<>(M);
        Event click = Event.of("ui.click");
        Runnable work = () -> {
            for (int i = 0; i < 1_000; i++) {
                sm.send("GO");
                sm.step(0.5);
                sm.send(click);
            }
        };
        long bytes = Allocations.warmThenMeasure(work);
        assertTrue(bytes < Allocations.MEASUREMENT_MARGIN, "1,000 rounds of raise, send to itself, cancel, a delayed send and a"
                + " wildcard with stateIn allocated " + bytes + " B; expected none once warm");
        assertTrue(sm.context().n > 0);
    }
}

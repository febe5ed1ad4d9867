package dev.enginestates.algorithm;

import dev.enginestates.declare.Event;
import dev.enginestates.Machine;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.plain.StateMachine;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DESIGN.md, layer 4: "No allocation once warm". Counts the bytes this thread allocates while
 * sending thousands of events to warmed-up machines, with {@code com.sun.management.ThreadMXBean}.
 * Not a timing test: bytes are exact, so the assertion is strict.
 */
class SendAllocationTest {
    static final class Counter {
        int n;
    }

    private static final Machine<Counter> FLAT = Machine.define("flat", Counter::new, m -> m
            .initial("off")
            .state("off", s -> s.on("TOGGLE", "on").exit((c, e) -> c.n++))
            .state("on", s -> s.on("TOGGLE", "off").entry((c, e) -> c.n++)));

    /** The 3-level guard of the benchmarks: leaf-to-sibling moves and a deep history restore. */
    private static final Machine<Counter> GUARD = Machine.define("guard", Counter::new, m -> m
            .initial("patrol")
            .state("patrol", p -> p
                    .initial("walking")
                    .state("walking", w -> w
                            .initial("north")
                            .state("north", s -> s.on("TURN", "south"))
                            .state("south", s -> s.on("TURN", "north")))
                    .state("looking")
                    .history("resume", HistoryDepth.DEEP)
                    .on("ALARM", "alert"))
            .state("alert", a -> a
                    .initial("search")
                    .state("search", s -> s.on("SPOT", "chase"))
                    .state("chase")
                    .on("CALM", "patrol.resume")));

    private static final Machine<Counter> PARALLEL = Machine.define("regions", Counter::new, m -> m
            .parallel()
            .state("a", r -> r.initial("a1")
                    .state("a1", s -> s.on("GO", "a2"))
                    .state("a2", s -> s.on("GO", t -> t.target("a1").guard((c, e) -> e.isTrue("ok")))))
            .state("b", r -> r.initial("b1")
                    .state("b1", s -> s.on("GO", "b2"))
                    .state("b2", s -> s.always(t -> t.target("b3").guard((c, e) -> c.n >= 0)))
                    .state("b3", s -> s.on("GO", "b1")))
            .state("c", r -> r.initial("c1")
                    .state("c1", s -> s.on("GO", t -> t.action((c, e) -> c.n++)))));

    @Test
    void sendingAllocatesNothingOnceWarm_flatHierarchicalHistoryParallel() {
        StateMachine<Counter> flat = new StateMachine<>(FLAT);
        StateMachine<Counter> guard = new StateMachine<>(GUARD);
        StateMachine<Counter> regions = new StateMachine<>(PARALLEL);
        Event ok = Event.of("GO", Map.of("ok", true));
        Runnable work = () -> {
            for (int i = 0; i < 1_000; i++) {
                flat.send("TOGGLE");
                guard.send("TURN");
                guard.send("ALARM");
                guard.send("SPOT");
                guard.send("CALM");
                regions.send("GO");
                regions.send(ok);
            }
        };
        // warmed twenty times (the JIT, and the interpreters' scratch arrays reach their size), then the fewest of five runs
        long allocated = dev.enginestates.Allocations.warmThenMeasure(work);
        assertTrue(guard.matches("patrol.walking"), "deep history brought the guard back: " + guard);
        assertEquals(0, allocated, "bytes allocated by 7,000 sends once warm (fewest of 5 runs)");
    }
}

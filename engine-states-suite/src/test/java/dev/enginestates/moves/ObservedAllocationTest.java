package dev.enginestates.moves;

import dev.enginestates.Allocations;
import dev.enginestates.Machine;
import dev.enginestates.StatesDef;
import dev.enginestates.algorithm.MoveObserver;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.AIContext;
import dev.enginestates.fsm.StateMachineBuilder;
import dev.enginestates.fsm.StateMachineDefinition;
import dev.enginestates.plain.StateMachine;
import dev.enginestates.records.MachineRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With an observer installed that allocates nothing itself, the step and the send still allocate
 * nothing once warm, in every style: telling a move reads the installed array and calls each
 * observer, nothing more. Counted as {@code SendAllocationTest} and {@code StepAllocationTest}
 * count, with this thread's allocated bytes; the observer's counts prove it was told.
 */
class ObservedAllocationTest {
    /** Counts what it is told, into fields: allocates nothing. */
    static final class Counting implements MoveObserver {
        long moves;
        long entries;

        @Override
        public void moved(MachineRecord r, int move, int from, int to) {
            moves++;
        }

        @Override
        public void entered(MachineRecord r, int state) {
            entries++;
        }
    }

    static final class Counter {
        int n;
    }

    private final Counting observer = new Counting();

    @BeforeEach
    void install() {
        MoveObserver.install(observer);
    }

    @AfterEach
    void uninstall() {
        MoveObserver.uninstall(observer);
    }

    private static final Machine<Counter> FLAT = Machine.define("observedFlat", Counter::new, m -> m
            .initial("off")
            .state("off", s -> s.on("TOGGLE", "on").exit((c, e) -> c.n++))
            .state("on", s -> s.on("TOGGLE", "off").entry((c, e) -> c.n++)));

    /** Transitions without code: the algorithm's plain shortcut takes them. */
    private static final Machine<Counter> PLAIN = Machine.define("observedPlain", Counter::new, m -> m
            .initial("a")
            .state("a", s -> s.on("NEXT", "b"))
            .state("b", s -> s.on("NEXT", "a")));

    private static final Machine<Counter> GUARD = Machine.define("observedGuard", Counter::new, m -> m
            .initial("patrol")
            .state("patrol", p -> p
                    .initial("walking")
                    .state("walking", w -> w
                            .initial("north")
                            .state("north", s -> s.on("TURN", "south"))
                            .state("south", s -> s.on("TURN", "north")))
                    .history("resume", HistoryDepth.DEEP)
                    .on("ALARM", "alert"))
            .state("alert", a -> a
                    .initial("search")
                    .state("search", s -> s.on("SPOT", "chase"))
                    .state("chase")
                    .on("CALM", "patrol.resume")));

    private static final Machine<Counter> REGIONS = Machine.define("observedRegions", Counter::new, m -> m
            .parallel()
            .state("a", r -> r.initial("a1")
                    .state("a1", s -> s.on("GO", "a2"))
                    .state("a2", s -> s.on("GO", t -> t.target("a1").guard((c, e) -> e.isTrue("ok")))))
            .state("b", r -> r.initial("b1")
                    .state("b1", s -> s.on("GO", "b2"))
                    .state("b2", s -> s.always(t -> t.target("b3").guard((c, e) -> c.n >= 0)))
                    .state("b3", s -> s.on("GO", "b1"))));

    @Test
    void sendingToXStateMachinesAllocatesNothingOnceWarmWithAnObserverInstalled() {
        StateMachine<Counter> flat = new StateMachine<>(FLAT);
        StateMachine<Counter> plain = new StateMachine<>(PLAIN);
        StateMachine<Counter> guard = new StateMachine<>(GUARD);
        StateMachine<Counter> regions = new StateMachine<>(REGIONS);
        Event ok = Event.of("GO", Map.of("ok", true));
        Runnable work = () -> {
            for (int i = 0; i < 1_000; i++) {
                flat.send("TOGGLE");
                plain.send("NEXT");
                guard.send("TURN");
                guard.send("ALARM");
                guard.send("SPOT");
                guard.send("CALM");
                regions.send("GO");
                regions.send(ok);
            }
        };
        long allocated = Allocations.warmThenMeasure(work);
        assertTrue(observer.moves > 8_000 && observer.entries > 8_000, "the observer was told: " + observer.moves + " moves");
        assertEquals(0, allocated, "bytes allocated by 8,000 observed sends once warm (fewest of 5 runs)");
    }

    static final class Bot {
        boolean go;
        int moves;
    }

    /** A guard, an after, an update returning a name and event targets: the polled moves the observer is told of. */
    private static final StatesDef<Bot> POLLED = StatesDef.define("observedPolled", d -> d
            .tags(false)
            .state("on", s -> s.after(1, "off").on("FLIP", "off").exit((c, to) -> c.moves++))
            .state("off", s -> s.to("on", (c, t) -> t >= 1).on("FLIP", "on"))
            .state("far", s -> s.update((c, dt, t) -> "on")));

    /** An event handler's machine: its send once built the text naming the handler each time, which it now builds only to report a bad name. */
    private static final StatesDef<Bot> HANDLED = StatesDef.define("observedHandled", d -> d
            .state("on", s -> s.on("FLIP", (c, args) -> "off"))
            .state("off", s -> s.on("FLIP", (c, args) -> "on")));

    @Test
    void steppingAndSendingPolledMachinesAllocatesNothingOnceWarmWithAnObserverInstalled() {
        List<StateMachine<Bot>> machines = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            machines.add(new StateMachine<>(POLLED, new Bot()));
        }
        long bytes = Allocations.warmThenMeasure(() -> {
            for (int step = 0; step < 300; step++) {
                for (int i = 0; i < machines.size(); i++) {
                    StateMachine<Bot> m = machines.get(i);
                    m.step(1 / 60.0);
                    if (step % 50 == 0) {
                        m.send("FLIP");
                    }
                    if (step % 75 == 0) {
                        m.go("far"); // its update moves back: a move no declaration names
                    }
                }
            }
        });
        assertTrue(machines.get(0).ctx().moves > 5, "the machines moved");
        assertTrue(bytes <= Allocations.MEASUREMENT_MARGIN, "observed polled steps and sends allocated " + bytes + " B");
    }

    @Test
    void aPolledHandlersSendAllocatesNothingObservedOrNot() {
        StateMachine<Bot> m = new StateMachine<>(HANDLED, new Bot());
        Runnable sends = () -> {
            for (int i = 0; i < 1_000; i++) {
                m.send("FLIP");
            }
        };
        long observed = Allocations.warmThenMeasure(sends);
        long moves = observer.moves;
        MoveObserver.uninstall(observer);
        long unobserved = Allocations.warmThenMeasure(sends);
        assertTrue(moves >= 1_000, "the observer was told the handler's moves");
        assertTrue(observed <= Allocations.MEASUREMENT_MARGIN && unobserved <= Allocations.MEASUREMENT_MARGIN,
                "1,000 handled sends allocate " + observed + " B observed, " + unobserved + " B not; expected nothing once warm");
    }

    static final class Npc extends AIContext {
        int ticks;
    }

    private static StateMachineDefinition<Npc> builder() {
        StateMachineBuilder<Npc> b = new StateMachineBuilder<>("observedBuilder");
        b.configureState("A").asInitial().transitionsTo("B").handler((c, dt) -> ++c.ticks % 3 == 0 ? "B" : null);
        b.configureState("B").handler((c, dt) -> ++c.ticks % 3 == 0 ? "A" : null); // undeclared: told as -1
        return b.build();
    }

    @Test
    void updatingBuilderMachinesAllocatesNoMoreWithAnObserverInstalled() {
        StateMachineDefinition<Npc> def = builder();
        List<dev.enginestates.fsm.StateMachine<Npc>> machines = new ArrayList<>();
        List<Npc> contexts = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            Npc c = new Npc();
            dev.enginestates.fsm.StateMachine<Npc> m = new dev.enginestates.fsm.StateMachine<>(def);
            m.initialize(c);
            machines.add(m);
            contexts.add(c);
        }
        Runnable updates = () -> {
            for (int step = 0; step < 300; step++) {
                for (int i = 0; i < machines.size(); i++) {
                    machines.get(i).update(contexts.get(i), 1 / 60f);
                }
            }
        };
        Runnable unobserved = () -> {
            MoveObserver.uninstall(observer);
            try {
                updates.run();
            } finally {
                MoveObserver.install(observer);
            }
        };
        long before = observer.moves;
        // measured against the same updates unobserved, back to back: a builder move's own bytes, which
        // some JIT states leave (72 B a move, observed or not), are not the observer's
        long bytes = Allocations.beyond(unobserved, updates);
        assertTrue(observer.moves - before > 10_000, "the observer was told the moves");
        assertTrue(bytes <= Allocations.MEASUREMENT_MARGIN, "observed builder updates allocated " + bytes + " B beyond unobserved ones");
    }

    static final class Ctx {
        int moves;
    }

    private static final States<Ctx> CYCLE = States.define("observedCycle", Ctx::new, m -> m
            .tags(false)
            .initial("on")
            .state("on", s -> s.waitFor(1, t -> t.target("off").action((c, e) -> c.moves++)))
            .state("off", s -> s.waitFor(1, t -> t.target("on").action((c, e) -> c.moves++))));

    private static final States<Ctx> IDLE = States.define("observedIdle", Ctx::new, m -> m
            .initial("a")
            .state("a", s -> s.on("NEXT", "b"))
            .state("b"));

    @Test
    void worldStepsWithMovingMachinesAllocateNothingWithAnObserverInstalled() {
        try (StateWorld one = StateWorld.create(); StateWorld world = StateWorld.create()) {
            one.spawn(IDLE.trait());
            for (int i = 0; i < 1_000; i++) {
                world.spawn(CYCLE.trait());
            }
            long before = observer.moves;
            long bytes = Allocations.beyond(Allocations.steps(one), Allocations.steps(world));
            assertTrue(observer.moves - before > 100_000, "the observer was told the moves: " + (observer.moves - before));
            assertTrue(bytes <= Allocations.MEASUREMENT_MARGIN,
                    "observed steps with thousands of transitions allocate nothing: " + bytes + " B beyond a world of one idle machine");
        }
    }
}

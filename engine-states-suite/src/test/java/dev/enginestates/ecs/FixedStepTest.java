package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.dominion.ecs.api.Scheduler;
import dev.enginestates.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fixed step: {@link StateWorld#step(double)} at 1/60 s, how waits count it, and where
 * {@code when} rules sit in it. Quotes are from the {@code 003} document ("States").
 */
class FixedStepTest {
    static final double DT = 1.0 / 60;
    static final double EPS = 1e-9;

    /** A context that records the world step of each transition action, and counts what tests look at. */
    static final class Ctx {
        StateWorld world;
        final List<Long> moves = new ArrayList<>();
        final List<String> log = new ArrayList<>();
        int entries;
        int exits;
        double countdown = 2;
        int secondsCalls;
        boolean go;
        boolean inner2Holds;
        boolean inner3Holds;
        boolean outerHolds;
        int parentCalls;
        int leftCalls;
        int rightCalls;
        int armedCalls;
        boolean fire;

        Ctx() {
        }

        Ctx(StateWorld world) {
            this.world = world;
        }

        void moved() {
            moves.add(world.steps());
        }
    }

    /** An order-recording context whose log is shared by every machine in a test. */
    static final class OrderCtx {
        final String name;
        final List<String> log;

        OrderCtx(String name, List<String> log) {
            this.name = name;
            this.log = log;
        }

        OrderCtx() {
            this("", new ArrayList<>());
        }
    }

    static final States<Ctx> FOUR = States.define("fixed-four", Ctx::new, m -> m
            .initial("watch")
            .state("watch", s -> s.waitFor(4, t -> t.target("rest").action((c, e) -> c.moved())))
            .state("rest"));

    // Declared in this order: ORDER_FIRST is stepped before ORDER_SECOND whatever the spawn order.
    static final States<OrderCtx> ORDER_FIRST = orderMachine("fixed-order-first");
    static final States<OrderCtx> ORDER_SECOND = orderMachine("fixed-order-second");

    static States<OrderCtx> orderMachine(String id) {
        return States.define(id, OrderCtx::new, m -> m
                .initial("run")
                .state("run", r -> r.parallel()
                        .state("timer", t -> t.initial("tick")
                                .state("tick", s -> s.waitFor(DT, x -> x.target("tock").action((c, e) -> c.log.add(c.name + " wait"))))
                                .state("tock", s -> s.waitFor(DT, x -> x.target("tick").action((c, e) -> c.log.add(c.name + " wait")))))
                        .state("rules", t -> t.initial("watching")
                                .state("watching", s -> s.when(c -> {
                                    c.log.add(c.name + " when");
                                    return false;
                                }, "other"))
                                .state("other"))));
    }

    static final States<Ctx> WAIT_THEN_WHEN = States.define("fixed-wait-then-when", Ctx::new, m -> m
            .initial("a")
            .state("a", s -> s.waitFor(1, t -> t.target("b").action((c, e) -> c.log.add("wait a->b"))))
            .state("b", s -> s.when(c -> {
                c.log.add("when b");
                return true;
            }, t -> t.target("c").action((c, e) -> c.moved())))
            .state("c"));

    static final States<Ctx> WHEN_ORDER = States.define("fixed-when-order", Ctx::new, m -> m
            .initial("outer")
            .state("outer", o -> o
                    .initial("inner")
                    .when(c -> {
                        c.log.add("outer");
                        return c.outerHolds;
                    }, "parentTarget")
                    .state("inner", s -> s
                            .when(c -> {
                                c.log.add("inner1");
                                return false;
                            }, "never")
                            .when(c -> {
                                c.log.add("inner2");
                                return c.inner2Holds;
                            }, "childTarget")
                            .when(c -> {
                                c.log.add("inner3");
                                return c.inner3Holds;
                            }, "third"))
                    .state("never")
                    .state("childTarget")
                    .state("third"))
            .state("parentTarget"));

    static final States<Ctx> ARMED = States.define("fixed-armed", Ctx::new, m -> m
            .initial("idle")
            .state("idle", s -> s.on("GO", "armed"))
            .state("armed", s -> s.when(c -> {
                c.armedCalls++;
                return c.fire;
            }, "fired"))
            .state("fired", s -> s.on("BACK", "idle")));

    static final States<Ctx> PARALLEL_WHEN = States.define("fixed-parallel-when", Ctx::new, m -> m
            .initial("both")
            .state("both", b -> b.parallel()
                    .when(c -> {
                        c.parentCalls++;
                        return false;
                    }, "out")
                    .state("left", l -> l.initial("l1")
                            .state("l1", s -> s.when(c -> {
                                c.leftCalls++;
                                return false;
                            }, "l2"))
                            .state("l2"))
                    .state("right", r -> r.initial("r1")
                            .state("r1", s -> s.when(c -> {
                                c.rightCalls++;
                                return false;
                            }, "r2"))
                            .state("r2")))
            .state("out"));

    static final States<Ctx> PARALLEL_PRIORITY = States.define("fixed-parallel-priority", Ctx::new, m -> m
            .initial("both")
            .state("both", b -> b.parallel()
                    .when(c -> {
                        c.log.add("both");
                        return true;
                    }, "out")
                    .state("left", l -> l.initial("l1").state("l1").state("l2"))
                    .state("right", r -> r.initial("r1")
                            .state("r1", s -> s.when(c -> {
                                c.log.add("right.r1");
                                return true;
                            }, "r2"))
                            .state("r2")))
            .state("out"));

    static final States<Ctx> COUNTDOWN = States.define("fixed-countdown", Ctx::new, m -> m
            .initial("idle")
            .state("idle", s -> s.on("GO", "countdown"))
            .state("countdown", s -> s.waitFor(c -> {
                c.secondsCalls++;
                return c.countdown;
            }, t -> t.target("playing").action((c, e) -> c.moved())))
            .state("playing", s -> s.on("AGAIN", "countdown")));

    static final States<Ctx> WHEN_WAIT = States.define("fixed-when-wait", Ctx::new, m -> m
            .initial("idle")
            .state("idle", s -> s.when(c -> c.go, "waiting"))
            .state("waiting", s -> s.waitFor(1, t -> t.target("done").action((c, e) -> c.moved())))
            .state("done"));

    static final States<Ctx> SEND_WAIT = States.define("fixed-send-wait", Ctx::new, m -> m
            .initial("idle")
            .state("idle", s -> s.on("GO", "waiting"))
            .state("waiting", s -> s.waitFor(1, t -> t.target("done").action((c, e) -> c.moved())))
            .state("done"));

    /** The 003 document's guard, with two more ways back into the patrol. */
    static final States<Ctx> GUARD = States.define("fixed-guard", Ctx::new, Fixtures.<Ctx>guard()
            .answer(s -> s.on("WATCH", "patrol.watch").on("REST", "patrol.rest")));

    // Not Fixtures.guard(): its history is shallow (for the test that a shallow history bringing
    // back the watch resumes its wait) and its rest has no wait.
    static final States<Ctx> SHALLOW_GUARD = States.define("fixed-shallow-guard", Ctx::new, m -> m
            .initial("patrol")
            .state("patrol", p -> p
                    .initial("watch")
                    .state("watch", s -> s.waitFor(4, "rest"))
                    .state("rest")
                    .history("resumed")
                    .on("BELL", "answer"))
            .state("answer", s -> s.on("RESUME", "patrol.resumed")));

    static final States<Ctx> BURST = States.define("fixed-burst", Ctx::new, m -> m
            .initial("s0")
            .state("s0", s -> s.waitFor(0.004, t -> t.target("s1").action((c, e) -> c.moved())))
            .state("s1", s -> s.waitFor(0.004, t -> t.target("s2").action((c, e) -> c.moved())))
            .state("s2", s -> s.waitFor(0.004, t -> t.target("s3").action((c, e) -> c.moved())))
            .state("s3"));

    static final States<Ctx> ZERO = States.define("fixed-zero", Ctx::new, m -> m
            .initial("idle")
            .state("idle", s -> s.on("GO", "zero").when(c -> c.go, "zero"))
            .state("zero", s -> s.waitFor(0, t -> t.target("after").action((c, e) -> c.moved())))
            .state("after"));

    static final States<Ctx> CHAIN_15 = States.define("fixed-chain-1.5", Ctx::new, m -> m
            .initial("a")
            .state("a", s -> s.waitFor(1.5, t -> t.target("b").action((c, e) -> c.moved())))
            .state("b", s -> s.waitFor(1.5, t -> t.target("a").action((c, e) -> c.moved()))));

    static final States<Ctx> CHAIN_101 = States.define("fixed-chain-1.01", Ctx::new, m -> m
            .initial("a")
            .state("a", s -> s.waitFor(1.01, t -> t.target("b").action((c, e) -> c.moved())))
            .state("b", s -> s.waitFor(1.01, t -> t.target("a").action((c, e) -> c.moved()))));

    static final States<Ctx> REENTER = States.define("fixed-reenter", Ctx::new, m -> m
            .initial("watch")
            .state("watch", s -> s
                    .entry((c, e) -> c.entries++)
                    .exit((c, e) -> c.exits++)
                    .waitFor(2, t -> t.target("watch").reenter().action((c, e) -> c.moved()))));

    static void steps(StateWorld world, int n) {
        for (int i = 0; i < n; i++) {
            world.step(DT);
        }
    }

    // ------------------------------------------------------------------ exact step counts

    @Test
    void aFourSecondWaitAtSixtyHertzEndsOnStep240NotOn239Or241() {
        // 003: "A state with wait holds for its seconds and then goes to then ... The fixed step counts the seconds"
        try (StateWorld world = StateWorld.create()) {
            Ctx ctx = new Ctx(world);
            Entity e = world.spawn(FOUR.trait(ctx));
            for (int i = 1; i <= 239; i++) {
                world.step(DT);
                assertTrue(FOUR.read(e).matches("watch"), "still watching after step " + i);
            }
            assertTrue(e.has(FOUR.is("watch")));
            assertEquals(DT, FOUR.read(e).secondsLeft(), EPS);
            assertTrue(ctx.moves.isEmpty());
            world.step(DT);
            assertTrue(FOUR.read(e).matches("rest"));
            assertTrue(e.has(FOUR.is("rest")));
            assertFalse(e.has(FOUR.is("watch")));
            assertEquals(List.of(240L), ctx.moves);
            steps(world, 10);
            assertEquals(List.of(240L), ctx.moves, "the wait ended once");
        }
    }

    @Test
    void aFourSecondWaitAtTenthOfASecondStepsEndsOnStep40() {
        // 0.1 summed 40 times falls a hair short of 4.0; the wait must still end on step 40, not 41
        try (StateWorld world = StateWorld.create()) {
            Ctx ctx = new Ctx(world);
            Entity e = world.spawn(FOUR.trait(ctx));
            for (int i = 0; i < 39; i++) {
                world.step(0.1);
            }
            assertTrue(FOUR.read(e).matches("watch"));
            world.step(0.1);
            assertEquals(List.of(40L), ctx.moves);
        }
    }

    // ------------------------------------------------------------------ order inside the step

    @Test
    void eachMachineInDeclarationOrderRunsItsWaitsBeforeItsWhenRules() {
        // 003: "Each step, after the waits, the machine runs the tests ..." and
        // "The step runs the machines in the order they were declared."
        try (StateWorld world = StateWorld.create()) {
            List<String> log = new ArrayList<>();
            // spawned second-declared first, to show that declaration order, not spawn order, decides
            Entity one = world.spawn(ORDER_SECOND.trait(new OrderCtx("S1", log)), ORDER_FIRST.trait(new OrderCtx("F1", log)));
            world.spawn(ORDER_SECOND.trait(new OrderCtx("S2", log)));
            world.spawn(ORDER_FIRST.trait(new OrderCtx("F2", log)));
            assertTrue(one.has(ORDER_FIRST.is("run.timer.tick")));
            for (int step = 1; step <= 12; step++) {
                log.clear();
                world.step(DT);
                assertEquals(8, log.size(), "step " + step + ": " + log);
                List<String> shape = new ArrayList<>();
                for (String entry : log) {
                    shape.add(entry.charAt(0) + entry.substring(entry.indexOf(' ')));
                }
                assertEquals(List.of("F wait", "F wait", "F when", "F when", "S wait", "S wait", "S when", "S when"), shape,
                        "step " + step + ": " + log);
                assertEquals(List.of("F1", "F2"), List.of(log.get(0).split(" ")[0], log.get(1).split(" ")[0]).stream().sorted().toList());
                assertEquals(List.of("S1", "S2"), List.of(log.get(4).split(" ")[0], log.get(5).split(" ")[0]).stream().sorted().toList());
            }
            assertEquals(List.of(ORDER_FIRST, ORDER_SECOND),
                    world.machines().stream().filter(s -> s == ORDER_FIRST || s == ORDER_SECOND).toList());
        }
    }

    @Test
    void aWhenRuleOfAStateAWaitEnteredInTheSameStepIsTestedAfterTheWait() {
        // 003: "The step runs every machine's wait after the engine's rules ... Each step, after the waits, the
        // machine runs the tests of the state an entity is in"
        try (StateWorld world = StateWorld.create()) {
            Ctx ctx = new Ctx(world);
            Entity e = world.spawn(WAIT_THEN_WHEN.trait(ctx));
            steps(world, 59);
            assertTrue(WAIT_THEN_WHEN.read(e).matches("a"));
            assertTrue(ctx.log.isEmpty());
            world.step(DT);
            assertEquals(List.of("wait a->b", "when b"), ctx.log);
            assertTrue(WAIT_THEN_WHEN.read(e).matches("c"));
            assertTrue(e.has(WAIT_THEN_WHEN.is("c")));
            assertEquals(List.of(60L), ctx.moves);
        }
    }

    @Test
    void whenRulesOfAChildAreTestedBeforeItsParentsAndTheFirstThatHoldsMoves() {
        // 003: "the machine runs the tests of the state an entity is in, a child state's before its parent's,
        // and moves to the target of the first that holds"
        try (StateWorld world = StateWorld.create()) {
            Ctx ctx = new Ctx(world);
            ctx.inner2Holds = true;
            ctx.inner3Holds = true;
            ctx.outerHolds = true;
            Entity e = world.spawn(WHEN_ORDER.trait(ctx));
            world.step(DT);
            assertEquals(List.of("inner1", "inner2"), ctx.log, "later rules and the parent's are not tested once one holds");
            assertTrue(WHEN_ORDER.read(e).matches("outer.childTarget"), WHEN_ORDER.read(e).toString());

            Ctx ctx2 = new Ctx(world);
            ctx2.outerHolds = true;
            Entity f = world.spawn(WHEN_ORDER.trait(ctx2));
            world.step(DT);
            assertEquals(List.of("inner1", "inner2", "inner3", "outer"), ctx2.log);
            assertTrue(WHEN_ORDER.read(f).matches("parentTarget"), WHEN_ORDER.read(f).toString());
            assertTrue(f.has(WHEN_ORDER.is("parentTarget")));
        }
    }

    @Test
    void whenRulesAreTestedOnlyWhileTheirStateIsActiveOncePerStep() {
        try (StateWorld world = StateWorld.create()) {
            Ctx ctx = new Ctx(world);
            Entity e = world.spawn(ARMED.trait(ctx));
            steps(world, 10);
            assertEquals(0, ctx.armedCalls, "armed is not active");
            assertTrue(ARMED.send(e, "GO"));
            assertEquals(0, ctx.armedCalls, "a send does not test when rules");
            steps(world, 5);
            assertEquals(5, ctx.armedCalls);
            ctx.fire = true;
            world.step(DT);
            assertEquals(6, ctx.armedCalls);
            assertTrue(ARMED.read(e).matches("fired"));
            steps(world, 10);
            assertEquals(6, ctx.armedCalls, "armed was left");
            ARMED.send(e, "BACK");
            ctx.fire = false;
            steps(world, 3);
            assertEquals(6, ctx.armedCalls);
        }
    }

    @Test
    void aParallelStatesWhenTestRunsOncePerStepWhateverTheNumberOfItsRegions() {
        // 003: "Each step ... the machine runs the tests of the state an entity is in, a child state's before its
        // parent's": each active state's tests, once. A parallel state is the parent of both regions' leaves.
        try (StateWorld world = StateWorld.create()) {
            Ctx ctx = new Ctx(world);
            Entity e = world.spawn(PARALLEL_WHEN.trait(ctx));
            steps(world, 10);
            assertTrue(PARALLEL_WHEN.read(e).matches("both"));
            assertEquals(10, ctx.leftCalls);
            assertEquals(10, ctx.rightCalls);
            assertEquals(10, ctx.parentCalls, "the parallel state's test ran more than once a step");
        }
    }

    @Test
    void aChildsWhenRuleInTheSecondRegionOfAParallelStateWinsOverTheParallelStatesOwn() {
        // 003: "the machine runs the tests of the state an entity is in, a child state's before its parent's,
        // and moves to the target of the first that holds": right.r1 is a child of both.
        try (StateWorld world = StateWorld.create()) {
            Ctx ctx = new Ctx(world);
            Entity e = world.spawn(PARALLEL_PRIORITY.trait(ctx));
            world.step(DT);
            assertEquals("right.r1", ctx.log.get(0), "the child's test runs before its parent's: " + ctx.log);
            assertTrue(PARALLEL_PRIORITY.read(e).matches("both.right.r2"), PARALLEL_PRIORITY.read(e).toString());
        }
    }

    // ------------------------------------------------------------------ wait seconds and when a wait starts

    @Test
    void waitSecondsFromAFunctionOfTheContextAreEvaluatedOnEntry() {
        // 003: "seconds may be a function of the context, as the round's countdown is"
        try (StateWorld world = StateWorld.create()) {
            Ctx ctx = new Ctx(world);
            ctx.countdown = 2;
            Entity e = world.spawn(COUNTDOWN.trait(ctx));
            steps(world, 3);
            assertEquals(0, ctx.secondsCalls);
            assertTrue(COUNTDOWN.send(e, "GO"));
            assertEquals(1, ctx.secondsCalls);
            assertEquals(2.0, COUNTDOWN.read(e).secondsLeft(), 0.0);
            ctx.countdown = 10; // read on entry only: this wait keeps its 2 seconds
            steps(world, 119);
            assertTrue(COUNTDOWN.read(e).matches("countdown"));
            assertEquals(DT, COUNTDOWN.read(e).secondsLeft(), EPS);
            world.step(DT);
            assertEquals(List.of(123L), ctx.moves);
            assertEquals(1, ctx.secondsCalls, "the function runs once per entry, not per step");

            ctx.countdown = 0.5;
            assertTrue(COUNTDOWN.send(e, "AGAIN"));
            assertEquals(0.5, COUNTDOWN.read(e).secondsLeft(), 0.0);
            steps(world, 30);
            assertEquals(List.of(123L, 153L), ctx.moves);
            assertEquals(2, ctx.secondsCalls);
        }
    }

    @Test
    void aWaitEnteredByAWhenInAStepCountsThatStepsSeconds() {
        // 003: "A wait that when enters counts that step's seconds, as a wait a system's send enters earlier in the step does."
        try (StateWorld world = StateWorld.create()) {
            Ctx byWhen = new Ctx(world);
            Ctx bySend = new Ctx(world);
            Entity w = world.spawn(WHEN_WAIT.trait(byWhen));
            Entity s = world.spawn(SEND_WAIT.trait(bySend));
            steps(world, 5);
            assertTrue(WHEN_WAIT.read(w).matches("idle"));
            byWhen.go = true;
            assertTrue(SEND_WAIT.send(s, "GO")); // a system's send before step 6
            world.step(DT); // step 6: the when enters its wait, which counts this step as the sent one does
            assertTrue(WHEN_WAIT.read(w).matches("waiting"));
            assertEquals(DT, WHEN_WAIT.read(w).waited(), 1e-12);
            assertEquals(1 - DT, WHEN_WAIT.read(w).secondsLeft(), 1e-12);
            assertEquals(SEND_WAIT.read(s).waited(), WHEN_WAIT.read(w).waited(), 1e-12);
            steps(world, 58);
            assertTrue(WHEN_WAIT.read(w).matches("waiting"));
            assertTrue(SEND_WAIT.read(s).matches("waiting"));
            world.step(DT);
            assertEquals(List.of(65L), byWhen.moves, "1 s = 60 steps, counting step 6 itself");
            assertEquals(List.of(65L), bySend.moves);
        }
    }

    @Test
    void aWaitEnteredByASendBetweenStepsCountsTheNextStepsSeconds() {
        try (StateWorld world = StateWorld.create()) {
            Ctx ctx = new Ctx(world);
            Entity e = world.spawn(SEND_WAIT.trait(ctx));
            steps(world, 7);
            assertTrue(SEND_WAIT.send(e, "GO"));
            assertEquals(0.0, SEND_WAIT.read(e).waited(), 0.0);
            assertEquals(1.0, SEND_WAIT.read(e).secondsLeft(), 0.0);
            world.step(DT);
            assertEquals(DT, SEND_WAIT.read(e).waited(), 1e-12);
            steps(world, 58);
            assertTrue(SEND_WAIT.read(e).matches("waiting"));
            world.step(DT);
            assertEquals(List.of(67L), ctx.moves, "sent after step 7, 60 steps of 1/60 s end it on step 67");
        }
    }

    // ------------------------------------------------------------------ paused seconds and history

    @Test
    void aStateLeftBeforeItsWaitEndsKeepsItsSecondsAndADeepHistoryResumesTheWait() {
        // 003: "A state left before its wait ends keeps the seconds it waited, and a history state that brings
        // the state back resumes the wait from there." / "A guard three seconds into his watch hears the bell.
        // RESUME brings him back to the watch with one second left"
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait(new Ctx(world)));
            StateRecord<Ctx> r = GUARD.read(g);
            assertTrue(Double.isNaN(r.paused("patrol.watch")));
            steps(world, 180);
            assertTrue(GUARD.send(g, "BELL"));
            assertTrue(r.matches("answer"));
            assertFalse(r.isWaiting());
            assertEquals(0.0, r.secondsLeft(), 0.0);
            double kept = r.paused("patrol.watch");
            assertEquals(3.0, kept, EPS);
            assertTrue(Double.isNaN(r.paused("patrol.rest")));
            steps(world, 100);
            assertEquals(Double.doubleToRawLongBits(kept), Double.doubleToRawLongBits(r.paused("patrol.watch")),
                    "paused seconds do not count while the state is not active");
            assertTrue(GUARD.send(g, "RESUME"));
            assertTrue(r.matches("patrol.watch"));
            assertEquals(1.0, r.secondsLeft(), EPS);
            assertEquals(3.0, r.waited(), EPS);
            assertTrue(Double.isNaN(r.paused("patrol.watch")), "the paused seconds are used up");
            steps(world, 59);
            assertTrue(r.matches("patrol.watch"));
            world.step(DT);
            assertTrue(r.matches("patrol.rest"));
            assertTrue(g.has(GUARD.is("patrol.rest")));
            assertEquals(10.0, r.secondsLeft(), EPS);
        }
    }

    @Test
    void aWaitingStateEnteredAnyOtherWayThanByHistoryStartsFromZero() {
        // 003: "Entered any other way ... the wait starts from zero." / "RESTART starts the patrol over."
        try (StateWorld world = StateWorld.create()) {
            Entity restart = world.spawn(GUARD.trait(new Ctx(world)));
            Entity direct = world.spawn(GUARD.trait(new Ctx(world)));
            steps(world, 180);
            GUARD.send(restart, "BELL");
            GUARD.send(direct, "BELL");
            assertEquals(3.0, GUARD.read(restart).paused("patrol.watch"), EPS);
            steps(world, 30);
            assertTrue(GUARD.send(restart, "RESTART"));
            assertTrue(GUARD.send(direct, "WATCH"));
            for (Entity e : List.of(restart, direct)) {
                StateRecord<Ctx> r = GUARD.read(e);
                assertTrue(r.matches("patrol.watch"));
                assertEquals(4.0, r.secondsLeft(), 0.0);
                assertEquals(0.0, r.waited(), 0.0);
                assertTrue(Double.isNaN(r.paused("patrol.watch")), "entering the state forgets its paused seconds");
            }
            steps(world, 239);
            assertTrue(GUARD.read(restart).matches("patrol.watch"));
            assertTrue(GUARD.read(direct).matches("patrol.watch"));
            world.step(DT);
            assertTrue(GUARD.read(restart).matches("patrol.rest"));
            assertTrue(GUARD.read(direct).matches("patrol.rest"));
        }
    }

    @Test
    void aStateNotBroughtBackByTheHistoryStartsItsWaitFromZeroEvenWithPausedSecondsKept() {
        // 003: "Entered any other way, or brought back by a history state that names another of its states,
        // the wait starts from zero."
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait(new Ctx(world)));
            StateRecord<Ctx> r = GUARD.read(g);
            steps(world, 180);
            GUARD.send(g, "BELL"); // watch keeps 3 s
            assertTrue(GUARD.send(g, "REST")); // rest entered directly, from zero
            assertEquals(10.0, r.secondsLeft(), 0.0);
            steps(world, 60);
            GUARD.send(g, "BELL"); // rest keeps 1 s, the history names rest
            assertEquals(1.0, r.paused("patrol.rest"), EPS);
            assertEquals(3.0, r.paused("patrol.watch"), EPS);
            assertTrue(GUARD.send(g, "RESUME"));
            assertTrue(r.matches("patrol.rest"));
            assertEquals(9.0, r.secondsLeft(), EPS);
            steps(world, 539);
            assertTrue(r.matches("patrol.rest"));
            world.step(DT);
            assertTrue(r.matches("patrol.watch"));
            assertEquals(4.0, r.secondsLeft(), EPS, "watch was entered by rest's wait, not by the history: it starts from zero");
        }
    }

    @Test
    void aShallowHistoryThatBringsBackAWaitingStateResumesItsWait() {
        // 003: "a history state that brings the state back resumes the wait from there"
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(SHALLOW_GUARD.trait(new Ctx(world)));
            StateRecord<Ctx> r = SHALLOW_GUARD.read(g);
            steps(world, 90);
            SHALLOW_GUARD.send(g, "BELL");
            steps(world, 20);
            SHALLOW_GUARD.send(g, "RESUME");
            assertTrue(r.matches("patrol.watch"));
            assertEquals(2.5, r.secondsLeft(), EPS);
            steps(world, 149);
            assertTrue(r.matches("patrol.watch"));
            world.step(DT);
            assertTrue(r.matches("patrol.rest"));
        }
    }

    // ------------------------------------------------------------------ a wait that is due as it is entered

    @Test
    void aLongStepTakesEveryWaitThatFallsDueWithinItChainedOnesIncluded() {
        // StateWorld: "a long step takes every wait due within it, in time order": three 4 ms waits in one 16.7 ms step
        try (StateWorld world = StateWorld.create()) {
            Ctx ctx = new Ctx(world);
            Entity e = world.spawn(BURST.trait(ctx));
            world.step(DT);
            StateRecord<Ctx> r = BURST.read(e);
            assertTrue(r.matches("s3"), r.toString());
            assertEquals(List.of(1L, 1L, 1L), ctx.moves, "the three waits ended in step 1");
            assertTrue(e.has(BURST.is("s3")));
            assertFalse(e.has(BURST.is("s1")));
            assertFalse(e.has(BURST.is("s2")));
        }
    }

    @Test
    void aZeroSecondWaitEndsAtTheNextStepWhetherASendOrAWhenEnteredIt() {
        try (StateWorld world = StateWorld.create()) {
            Ctx bySendCtx = new Ctx(world);
            Ctx byWhenCtx = new Ctx(world);
            Entity bySend = world.spawn(ZERO.trait(bySendCtx));
            Entity byWhen = world.spawn(ZERO.trait(byWhenCtx));
            steps(world, 2);
            assertTrue(ZERO.send(bySend, "GO"));
            assertTrue(ZERO.read(bySend).matches("zero"), "no step has run yet");
            byWhenCtx.go = true;
            world.step(DT); // step 3: bySend's wait ends; byWhen's when enters its wait after the waits ran
            assertTrue(ZERO.read(bySend).matches("after"));
            assertEquals(List.of(3L), bySendCtx.moves);
            assertTrue(ZERO.read(byWhen).matches("zero"));
            assertEquals(0.0, ZERO.read(byWhen).secondsLeft(), 0.0);
            world.step(DT);
            assertTrue(ZERO.read(byWhen).matches("after"));
            assertEquals(List.of(4L), byWhenCtx.moves);
        }
    }

    @Test
    void chainedWaitsOfOneAndAHalfSecondsAlternateOnSteps90_180_270() {
        try (StateWorld world = StateWorld.create()) {
            Ctx ctx = new Ctx(world);
            Entity e = world.spawn(CHAIN_15.trait(ctx));
            steps(world, 1800);
            List<Long> expected = new ArrayList<>();
            for (long k = 1; k <= 20; k++) {
                expected.add(90 * k);
            }
            assertEquals(expected, ctx.moves);
            assertTrue(CHAIN_15.read(e).matches("a"));
        }
    }

    @Test
    void chainedWaitsStartAtTheDueTimeNotAtTheEndOfTheStepSoTheyKeepExactTime() {
        // StateWorld: "the state it leads to starts its own wait at that due time, not at the end of the step".
        // 1.01 s waits end at 1.01, 2.02, 3.03 s ...: step ceil(60.6 k). Counting from the end of each step would
        // give 61, 122, 183 ... and drift a step further every few waits.
        try (StateWorld world = StateWorld.create()) {
            Ctx ctx = new Ctx(world);
            world.spawn(CHAIN_101.trait(ctx));
            int n = 6000;
            steps(world, n);
            List<Long> expected = new ArrayList<>();
            for (long k = 1; (606 * k + 9) / 10 <= n; k++) {
                expected.add((606 * k + 9) / 10);
            }
            assertEquals(expected.size(), ctx.moves.size());
            assertEquals(expected, ctx.moves);
            assertEquals(182L, ctx.moves.get(2));
            assertEquals(303L, ctx.moves.get(4), "5 x 1.01 s = 5.05 s is exactly step 303");
        }
    }

    @Test
    void aWaitWithReenterRestartsTheStateWithItsEntryActions() {
        // 003: "then: { target: "watch", reenter: true } on the watch state starts it over, entry actions and all."
        try (StateWorld world = StateWorld.create()) {
            Ctx ctx = new Ctx(world);
            Entity e = world.spawn(REENTER.trait(ctx));
            assertEquals(0, ctx.entries, "a machine's initial entry actions do not run at the spawn");
            steps(world, 119);
            assertEquals(0, ctx.entries);
            world.step(DT);
            assertEquals(1, ctx.exits);
            assertEquals(1, ctx.entries);
            StateRecord<Ctx> r = REENTER.read(e);
            assertTrue(r.matches("watch"));
            assertEquals(2.0, r.secondsLeft(), EPS, "the wait starts over");
            assertTrue(Double.isNaN(r.paused("watch")), "a wait that ran out keeps no paused seconds");
            steps(world, 120);
            assertEquals(2, ctx.entries);
            assertEquals(2, ctx.exits);
            assertEquals(List.of(120L, 240L), ctx.moves);
            assertTrue(e.has(REENTER.is("watch")));
        }
    }

    // ------------------------------------------------------------------ the step's own arguments and the scheduler

    @Test
    void stepRejectsNegativeNaNAndInfiniteSecondsAndChangesNothing() {
        try (StateWorld world = StateWorld.create()) {
            Ctx ctx = new Ctx(world);
            Entity e = world.spawn(FOUR.trait(ctx));
            steps(world, 3);
            double time = world.time();
            double left = FOUR.read(e).secondsLeft();
            for (double bad : new double[] {-DT, -1e-300, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
                IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> world.step(bad));
                assertTrue(ex.getMessage().contains(String.valueOf(bad)), ex.getMessage());
            }
            assertEquals(time, world.time(), 0.0);
            assertEquals(3, world.steps());
            assertEquals(left, FOUR.read(e).secondsLeft(), 0.0);
            world.step(0); // zero is allowed: a step that counts no seconds
            assertEquals(4, world.steps());
            assertEquals(left, FOUR.read(e).secondsLeft(), 0.0);
        }
    }

    @Test
    void theSchedulerSystemStepsTheWorldByTheSchedulersDeltaTime() {
        try (StateWorld world = StateWorld.create()) {
            Ctx ctx = new Ctx(world);
            Entity e = world.spawn(FOUR.trait(ctx));
            Scheduler scheduler = world.dominion().createScheduler();
            double[] seen = new double[1];
            int[] ticks = new int[1];
            try {
                scheduler.schedule(world.system(scheduler));
                scheduler.schedule(() -> {
                    seen[0] += scheduler.deltaTime();
                    ticks[0]++;
                });
                for (int i = 0; i < 5; i++) {
                    scheduler.tick();
                }
                assertEquals(5, ticks[0]);
                assertEquals(5, world.steps());
                assertTrue(world.time() > 0);
                assertEquals(seen[0], world.time(), 0.0, "the world's time is the sum of the scheduler's delta times");

                // a fixed delta: 16,666,667 ns a tick ends the 4 s wait on tick 240
                double before = world.time();
                for (int i = 0; i < 5; i++) {
                    scheduler.tick(16_666_667L);
                }
                assertEquals(seen[0], world.time(), 0.0);
                assertEquals(before + 5 * 0.016666667, world.time(), 1e-12);
            } finally {
                scheduler.shutDown();
            }
            if (world.time() < 3) { // the first tick's delta is measured by the clock: normally microseconds
                assertTrue(FOUR.read(e).matches("watch"));
                assertEquals(4.0 - world.time(), FOUR.read(e).secondsLeft(), 1e-12);
            }
        }
    }

    @Test
    void aFourSecondWaitEndsOnTheTwoHundredFortiethFixedRateSchedulerTick() {
        try (StateWorld world = StateWorld.create()) {
            Ctx ctx = new Ctx(world);
            Entity e = world.spawn(FOUR.trait(ctx));
            Scheduler scheduler = world.dominion().createScheduler();
            try {
                scheduler.schedule(world.system(scheduler));
                for (int i = 0; i < 239; i++) {
                    scheduler.tick(16_666_667L);
                }
                assertTrue(FOUR.read(e).matches("watch"));
                scheduler.tick(16_666_667L);
            } finally {
                scheduler.shutDown();
            }
            assertTrue(FOUR.read(e).matches("rest"));
            assertEquals(List.of(240L), ctx.moves);
        }
    }
}

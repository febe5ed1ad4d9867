package dev.enginestates.algorithm;

import dev.enginestates.StatesDef;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.StatesBuilder;
import dev.enginestates.declare.UserCodeException;
import dev.enginestates.plain.StateMachine;
import dev.enginestates.records.Access;
import dev.enginestates.records.MachineRecord;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rules the polled style's generated code ({@link PolledCode}) must keep as the loops do, each
 * checked on both: a chart whose polls are generated classes, and one (compiled on its own) given
 * {@link PolledCode#looped} before its first start.
 */
class PolledCodeTest {
    static final double DT = 1 / 60.0;

    /** The two ways a chart's polls are made. */
    enum Version { GENERATED, LOOPED }

    /** Compiles the definition anew, gives its chart the version's polls and starts it. */
    static <C> StateMachine<C> start(Supplier<StatesDef<C>> define, C ctx, Version v) {
        StatesDef<C> def = define.get();
        Chart c = Access.chart(def.machine());
        assertEquals(null, c.polled.code(), "a fresh definition has a chart of its own");
        if (v == Version.LOOPED) {
            PolledRuntime.runWithLoops(c);
        } else {
            PolledRuntime.generateNow(c);
        }
        StateMachine<C> m = new StateMachine<>(def, ctx);
        assertEquals(v == Version.GENERATED, PolledRuntime.runsGeneratedCode(c), () -> v + " polls");
        return m;
    }

    // ------------------------------------------------------------------ a guard that throws

    static final class Game {
        boolean broken;
        final RuntimeException fault = new IllegalArgumentException("no ammo");
        final List<String> calls = new ArrayList<>();
    }

    static StatesDef<Game> throwing() {
        return StatesDef.<Game>define("turret", d -> d
                .initial("armed")
                .state("armed", a -> a
                        .initial("aim")
                        .state("aim", s -> s
                                .to("armed.fire", (g, t) -> false)
                                .to("jammed", (g, t) -> {
                                    if (g.broken) {
                                        throw g.fault;
                                    }
                                    return false;
                                })
                                .exit((g, to) -> g.calls.add("exit aim")))
                        .state("fire"))
                .state("jammed", s -> s.enter((g, from) -> g.calls.add("enter jammed"))));
    }

    @Test
    void aGuardThatThrowsInGeneratedCodeNamesTheMachineStateCallAndGuardAsTheLoopsDo() {
        List<String> messages = new ArrayList<>();
        for (Version v : Version.values()) {
            Game g = new Game();
            StateMachine<Game> m = start(PolledCodeTest::throwing, g, v);
            m.step(DT);
            List<String> branch = m.branch();
            String previous = m.previous();
            g.broken = true;
            UserCodeException e = assertThrows(UserCodeException.class, () -> m.step(DT), v::name);
            assertSame(g.fault, e.getCause(), "the game's exception is the cause");
            String message = e.getMessage();
            for (String part : List.of("machine 'turret'", "state 'armed.aim'", "'step'", "the to 'jammed' guard")) {
                assertTrue(message.contains(part), () -> v + ": the message names " + part + ": " + message);
            }
            messages.add(message);
            assertEquals("armed.aim", m.state(), "nothing moved");
            assertEquals(branch, m.branch());
            assertEquals(previous, m.previous());
            assertEquals(List.of(), g.calls, "no exit or enter ran");
            assertEquals(2 * DT, m.time(), 1e-12, "the clocks advanced before the guards, as in any step");
            g.broken = false;
            m.step(DT);
            assertEquals("armed.aim", m.state(), "the machine goes on from where it was");
        }
        assertEquals(messages.get(0), messages.get(1), "generated and looped polls say the same");
    }

    @Test
    void aRootGuardThatThrowsIsNamedAsTheMachinesRootsInBothVersions() {
        List<String> messages = new ArrayList<>();
        for (Version v : Version.values()) {
            Game g = new Game();
            StateMachine<Game> m = start(() -> StatesDef.<Game>define("root-guard", d -> d
                    .to("b", (x, t) -> {
                        throw x.fault;
                    })
                    .state("a")
                    .state("b")), g, v);
            UserCodeException e = assertThrows(UserCodeException.class, () -> m.step(DT), v::name);
            assertSame(g.fault, e.getCause());
            assertTrue(e.getMessage().contains("the to 'b' guard of the machine's root"), e::getMessage);
            assertEquals("a", m.state());
            messages.add(e.getMessage());
        }
        assertEquals(messages.get(0), messages.get(1));
    }

    // ------------------------------------------------------------------ guards never called

    /** Counts each guard's calls; {@code toX} lets p's guard for p.x hold. */
    static final class Counts {
        int self;
        int ancestor;
        int rootToP;
        int toX;
        int toY;
        boolean letX;
    }

    static StatesDef<Counts> counting() {
        return StatesDef.<Counts>define("counting", d -> d
                .initial("p")
                .to("p", (c, t) -> ++c.rootToP < 0) // p stays active throughout: never called
                .state("p", p -> p
                        .initial("x")
                        .to("p.x", (c, t) -> {
                            c.toX++;
                            return c.letX;
                        })
                        .to("p.y", (c, t) -> ++c.toY < 0)
                        .state("x", x -> x
                                .to("p.x", (c, t) -> ++c.self < 0)
                                .to("p", (c, t) -> ++c.ancestor < 0))
                        .state("y", y -> y
                                .to("p.y", (c, t) -> ++c.self < 0)
                                .to("p", (c, t) -> ++c.ancestor < 0))));
    }

    @Test
    void guardsNamingTheirOwnStateOrAnAncestorAreNeverCalledAndOneNamingAnActiveDescendantWaitsUntilItIsLeft() {
        for (Version v : Version.values()) {
            Counts c = new Counts();
            StateMachine<Counts> m = start(PolledCodeTest::counting, c, v);
            for (int i = 0; i < 5; i++) {
                m.step(DT);
            }
            assertEquals("p.x", m.state(), v::name);
            assertEquals(0, c.self, v + ": a guard naming its own state is never called");
            assertEquals(0, c.ancestor, v + ": a guard naming an ancestor is never called");
            assertEquals(0, c.rootToP, v + ": the root's guard naming p, active, is skipped");
            assertEquals(0, c.toX, v + ": p's guard naming p.x, active, is skipped");
            assertEquals(5, c.toY, v + ": p's guard naming p.y, not active, is tested each step");

            m.go("p.y");
            m.step(DT);
            assertEquals("p.y", m.state(), v::name);
            assertEquals(1, c.toX, v + ": once p.x is left, p's guard naming it is tested again");
            assertEquals(5, c.toY, v + ": and the one naming p.y, now active, is skipped");
            c.letX = true;
            m.step(DT);
            assertEquals("p.x", m.state(), v + ": it holds and moves there");
            assertEquals(2, c.toX, v::name);
            m.step(DT);
            assertEquals(2, c.toX, v + ": skipped again while p.x is active");
            assertEquals(0, c.self + c.ancestor + c.rootToP, v::name);
        }
    }

    @Test
    void aStateWhoseGuardsAllNameItselfOrAncestorsHasNoGeneratedPoll() {
        StatesDef<Counts> def = counting();
        Chart c = Access.chart(def.machine());
        PolledRuntime.generateNow(c);
        StatePoll[] polls = PolledCode.of(c);
        assertTrue(PolledRuntime.runsGeneratedCode(c));
        assertEquals(null, polls[index(c, "p.x")], "p.x tests nothing: its guards name itself and p");
        assertTrue(PolledCode.looped(c)[index(c, "p.x")] != null, "the loop version has one, which skips both");
    }

    // ------------------------------------------------------------------ too many links

    static final class Want {
        int state;
    }

    /**
     * Forty flat states {@code s0..s39}, {@code links} guards spread over them in order, at most
     * {@link PolledCode#MAX_CHAIN} a state (state i names the next ones, wrapping), each holding
     * when the context wants its target; with {@code after}, s39 (which has no guard) leaves for s0
     * after 0.5 s, one link more.
     */
    static StatesDef<Want> flat(int links, boolean after) {
        int n = 40;
        int per = PolledCode.MAX_CHAIN;
        assertTrue(links <= (n - 1) * per, "s39 keeps no guards");
        return StatesDef.<Want>define("flat-" + links + (after ? "-after" : ""), d -> {
            for (int i = 0; i < n; i++) {
                int me = i;
                d.state("s" + i, s -> {
                    for (int g = me * per; g < Math.min(links, (me + 1) * per); g++) {
                        int t = (me + g % per + 1) % n;
                        s.to("s" + t, (w, time) -> w.state == t);
                    }
                    if (after && me == n - 1) {
                        s.after(0.5, "s0");
                    }
                });
            }
        });
    }

    @Test
    void aChartRunsOnLoopsUntilItsMachinesHaveTakenEnoughStepsThenOnGeneratedCode() {
        StatesDef<Want> def = flat(3, false); // s0 names s1, s2 and s3
        Chart c = Access.chart(def.machine());
        Want[] wants = new Want[4];
        List<StateMachine<Want>> machines = new ArrayList<>();
        for (int i = 0; i < wants.length; i++) {
            wants[i] = new Want();
            wants[i].state = -1;
            machines.add(new StateMachine<>(def, wants[i]));
        }
        int steps = 0;
        for (; steps < PolledRuntime.STEPS_BEFORE_GENERATED_CODE - 1; steps++) {
            machines.get(steps % machines.size()).step(DT); // the count is the chart's, over all its machines
        }
        assertFalse(PolledRuntime.runsGeneratedCode(c), "one step short of " + PolledRuntime.STEPS_BEFORE_GENERATED_CODE + ": loops");
        machines.get(steps % machines.size()).step(DT);
        // made on the common pool: the machines go on with the loops until it is there
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            while (!PolledRuntime.runsGeneratedCode(c)) {
                Thread.sleep(1);
            }
        }, "the last step counted has the generated code made");
        for (int i = 0; i < wants.length; i++) {
            wants[i].state = 1 + i % 3;
            machines.get(i).step(DT);
            assertEquals("s" + (1 + i % 3), machines.get(i).state(), "machine " + i + " moves on the generated code");
        }
    }

    @Test
    void aDefinitionMadePerMachineAndSteppedLittleNeverMakesGeneratedCode() {
        for (int i = 0; i < 50; i++) {
            StatesDef<Want> def = flat(3, false);
            Want w = new Want();
            w.state = -1;
            StateMachine<Want> m = new StateMachine<>(def, w);
            for (int k = 0; k < 60; k++) {
                m.step(DT);
            }
            assertFalse(PolledRuntime.runsGeneratedCode(Access.chart(def.machine())), "a second of steps pays for no classes");
        }
    }

    @Test
    void aStateOfMoreThanMaxChainGuardsRunsOnALoopWhileTheOthersAreGenerated() {
        int many = PolledCode.MAX_CHAIN + 1;
        StatesDef<Want> def = StatesDef.<Want>define("long-chain", d -> {
            d.state("a", s -> {
                for (int g = 0; g < many; g++) {
                    int t = g;
                    s.to("t" + t, (w, time) -> w.state == t);
                }
            });
            for (int g = 0; g < many; g++) {
                d.state("t" + g, s -> s.to("a", (w, time) -> w.state == -1));
            }
        });
        Chart c = Access.chart(def.machine());
        Want w = new Want();
        w.state = -2;
        StateMachine<Want> m = new StateMachine<>(def, w);
        StatePoll[] polls = PolledCode.of(c); // made as the chart's runtime made its own
        assertTrue(polls[index(c, "a")] instanceof PolledCode.Looped, "a state of " + many + " guards is a loop");
        assertFalse(polls[index(c, "t0")] instanceof PolledCode.Looped, "a state of one guard is generated");
        m.step(DT);
        assertEquals("a", m.state());
        w.state = many - 1;
        m.step(DT);
        assertEquals("t" + (many - 1), m.state(), "the last of " + many + " guards is tested");
        w.state = -1;
        m.step(DT);
        assertEquals("a", m.state());
    }

    @Test
    void aChartOfMoreThanMaxLinksGuardsAndAftersRunsOnLoopsAndStillMovesRight() {
        StatesDef<Want> atMost = flat(PolledCode.MAX_LINKS, false);
        Chart at = Access.chart(atMost.machine());
        PolledRuntime.generateNow(at);
        assertTrue(PolledRuntime.runsGeneratedCode(at), "exactly " + PolledCode.MAX_LINKS + " links are generated");

        Want w = new Want();
        StatesDef<Want> over = flat(PolledCode.MAX_LINKS, true);
        Chart c = Access.chart(over.machine());
        PolledRuntime.generateNow(c);
        StateMachine<Want> m = new StateMachine<>(over, w);
        assertFalse(PolledRuntime.runsGeneratedCode(c), "one link more falls back to loops");
        assertTrue(Arrays.stream(PolledCode.of(c)).filter(Objects::nonNull).allMatch(p -> p instanceof PolledCode.Looped));

        assertEquals("s0", m.state());
        for (int target : new int[] {7, 30, 7, 39}) { // each state names the next MAX_CHAIN states
            w.state = target;
            m.step(DT);
            assertEquals("s" + target, m.state());
        }
        w.state = -1; // no guard holds, or s0's would take it back to s39
        m.step(0.25);
        assertEquals("s39", m.state());
        m.step(0.25);
        assertEquals("s0", m.state(), "s39's after took it to s0 at 0.5 s");
        w.state = 0;
        m.step(DT);
        assertEquals("s0", m.state(), "a guard naming the active state is skipped");
    }

    // ------------------------------------------------------------------ afters naming active states

    static final class Log {
        final List<String> calls = new ArrayList<>();
        boolean toK;
    }

    /**
     * p.x's after names p (an ancestor); p.y's after is {@code $back}; c's after names c.k, its
     * own active child, and c.k's guard later moves to c.j inside c.
     */
    static StatesDef<Log> afters() {
        return StatesDef.<Log>define("afters", d -> d
                .initial("p")
                .state("p", p -> p
                        .state("x", x -> x.after(1, "p").enter((l, from) -> l.calls.add("enter x")))
                        .state("y", y -> y.after(1, StatesBuilder.BACK).enter((l, from) -> l.calls.add("enter y"))))
                .state("c", c -> c
                        .initial("k")
                        .after(1, "c.k")
                        .state("k", k -> k.to("c.j", (l, t) -> l.toK).exit((l, to) -> l.calls.add("exit k")))
                        .state("j", j -> j.enter((l, from) -> l.calls.add("enter j")))));
    }

    @Test
    void anAfterNamingAnActiveStateIsSpentOnceAndNothingMovesInBothVersions() {
        for (Version v : Version.values()) {
            Log log = new Log();
            StateMachine<Log> m = start(PolledCodeTest::afters, log, v);
            MachineRecord r = Access.record(m);
            Chart ch = r.chart();
            int x = index(ch, "p.x");
            int y = index(ch, "p.y");
            int c = index(ch, "c");

            // an ancestor: spent at 1 s, nothing moves, and it stays spent
            m.step(0.5);
            assertFalse(r.afterFired(x), v::name);
            m.step(0.5);
            assertTrue(r.afterFired(x), v + ": x's after is spent at its 1 s");
            assertEquals("p.x", m.state(), v::name);
            m.step(2);
            assertEquals("p.x", m.state(), v::name);
            assertEquals(List.of("enter x"), log.calls, v + ": nothing was exited or entered");
            assertEquals(3, m.time(), 1e-9, v + ": x's clock ran on");

            // $back to the leaf itself: go twice, so the previous leaf is y
            m.go("p.y");
            m.go("p.y");
            assertEquals("p.y", m.previous(), v::name);
            log.calls.clear();
            m.step(1);
            assertTrue(r.afterFired(y), v + ": y's after is spent");
            m.step(1);
            assertEquals("p.y", m.state(), v::name);
            assertEquals(List.of(), log.calls, v + ": $back named the active leaf; nothing moved");

            // its own active child: spent, and it stays spent once that child is left inside c
            m.go("c");
            log.calls.clear();
            m.step(1);
            assertTrue(r.afterFired(c), v + ": c's after names c.k, active: spent");
            assertEquals("c.k", m.state(), v::name);
            log.toK = true;
            m.step(DT);
            assertEquals("c.j", m.state(), v::name);
            m.step(2);
            assertEquals("c.j", m.state(), v + ": c's after, spent, does not fire now that c.k is not active");
            assertEquals(List.of("exit k", "enter j"), log.calls, v::name);
        }
    }

    @Test
    void anAfterToBackWithNoPreviousLeafIsSpentAndNothingMovesInBothVersions() {
        for (Version v : Version.values()) {
            Log log = new Log();
            StateMachine<Log> m = start(() -> StatesDef.<Log>define("back-at-start", d -> d
                    .state("a", a -> a.after(0, StatesBuilder.BACK).enter((l, from) -> l.calls.add("enter a")))
                    .state("b")), log, v);
            MachineRecord r = Access.record(m);
            m.step(DT);
            assertTrue(r.afterFired(index(r.chart(), "a")), v + ": spent");
            m.step(DT);
            assertEquals("a", m.state(), v + ": nothing before a to go back to");
            assertEquals(List.of("enter a"), log.calls, v::name);
        }
    }

    static int index(Chart c, String path) {
        for (int s = 0; s < c.size; s++) {
            if (c.path[s].equals(path)) {
                return s;
            }
        }
        throw new AssertionError("no state " + path);
    }
}

package dev.enginestates.testing;

import dev.enginestates.StatesDef;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.Named;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.AIContext;
import dev.enginestates.fsm.StateMachineBuilder;
import dev.enginestates.fsm.StateMachineDefinition;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;

import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Generated paths: shortest sequences of events, waits and the game's context changes to every
 * state and transition, for each style, with what cannot be reached reported and why.
 */
class MachinePathsTest {
    @RegisterExtension
    static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);

    public static final class Vault {
        public boolean alarm;
        public int opened;
    }

    /** A vault: the code must be right (a field of the event), the alarm is the context's, the lockdown ends by waiting. */
    static final States<Vault> VAULT = States.define("vault", Vault::new, m -> m
            .initial("locked")
            .state("locked", s -> s
                    .on("CODE", t -> t.target("open").guard(Named.guard("rightCode", (v, e) -> e.number("code") == 1234)))
                    .when(Named.condition("alarmRaised", v -> v.alarm), "lockdown"))
            .state("open", s -> s
                    .entry((v, e) -> v.opened++)
                    .on("CLOSE", "locked"))
            .state("lockdown", s -> s.waitFor(30, "locked").entry((v, e) -> v.alarm = false))
            .state("sealed", s -> s.on("CLOSE", "locked")));

    @Test
    void aGuardThatReadsAnEventFieldIsReportedUntilTheGameGivesAnEventThatPassesIt() {
        List<Unreached> bare = MachinePaths.of(VAULT).given("the alarm goes off", v -> v.alarm = true).unreached();
        Unreached code = bare.stream().filter(u -> u.what().equals("locked \u2013CODE [rightCode]\u2192 open")).findFirst().orElseThrow();
        assertEquals("'locked' was reached, but its guard 'rightCode' threw for the CODE events tried (event 'CODE': field 'code' is"
                + " missing, expected a number); give the generator an event with the fields it reads (event(Event.of(...).with(...)))"
                + " or a context change (given(name, change))", code.reason());
        assertTrue(bare.stream().anyMatch(u -> u.what().equals("open") && u.reason().contains("CODE [rightCode]")), bare.toString());

        MachinePaths<Vault> paths = MachinePaths.of(VAULT).event(Event.of("CODE").with("code", 1234))
                .given("the alarm goes off", v -> v.alarm = true);
        assertEquals("locked \u2013CODE {code=1234}\u2192 open", paths.toStates().get("open").name());
    }

    @Test
    void aStateReachedOnlyByWaitingHasAPathThatWaitsExactlyItsSeconds() {
        MachinePaths<Vault> paths = MachinePaths.of(VAULT).event(Event.of("CODE").with("code", 1234))
                .given("the alarm goes off", v -> v.alarm = true);
        // the when rule moves within the step that follows the change, and the 30 s count from that step's start
        assertEquals("locked \u2013[the alarm goes off]\u2192 lockdown \u2013(29.983 s)\u2192 locked",
                paths.toTransitions().get("lockdown \u2013wait 30 s\u2192 locked").name());
    }

    @Test
    void aStateNoTransitionLeadsIntoIsReportedWithThatReason() {
        List<Unreached> unreached = MachinePaths.of(VAULT).event(Event.of("CODE").with("code", 1234))
                .given("the alarm goes off", v -> v.alarm = true).unreached();
        assertEquals(List.of(new Unreached("sealed", "no transition leads into it and no path moved there"),
                new Unreached("sealed \u2013CLOSE\u2192 locked", "its source 'sealed' is never reached")), unreached);
    }

    @Test
    void aWaitLongerThanTheHorizonIsReportedAsSuch() {
        List<Unreached> unreached = MachinePaths.of(VAULT).horizon(10).given("the alarm goes off", v -> v.alarm = true).unreached();
        Unreached wait = unreached.stream().filter(u -> u.what().startsWith("lockdown \u2013wait")).findFirst().orElseThrow();
        assertEquals("'lockdown' did not move by itself within the horizon of 10 s; horizon(seconds) looks further", wait.reason());
    }

    @Test
    void theCoveringPathsTogetherReachEveryReachableStateAndTransition() {
        MachinePaths<Vault> paths = MachinePaths.of(VAULT).event(Event.of("CODE").with("code", 1234))
                .given("the alarm goes off", v -> v.alarm = true);
        List<MachinePath> covering = paths.covering();
        List<String> reached = covering.stream().flatMap(p -> p.reaches().stream()).toList();
        for (String s : paths.toStates().keySet()) {
            assertTrue(reached.contains("state " + s), s + " in " + reached);
        }
        for (String t : paths.toTransitions().keySet()) {
            assertTrue(reached.contains("transition " + t), t + " in " + reached);
        }
        for (MachinePath a : covering) {
            for (MachinePath b : covering) {
                assertTrue(a == b || !a.startsWith(b), "'" + b + "' is a prefix of '" + a + "' and should have been merged");
            }
        }
    }

    @Test
    void generatedTestsRunTheInvariantForEveryActiveStateAndNameTheStateThatBrokeIt() throws Throwable {
        MachinePaths<Vault> paths = MachinePaths.of(VAULT).event(Event.of("CODE").with("code", 1234))
                .given("the alarm goes off", v -> v.alarm = true);
        List<DynamicTest> tests = paths.tests(world, (state, vault) -> {
            if (state.equals("open")) {
                assertTrue(vault.context().opened == 0, "no vault is ever opened");
            }
        }).toList();
        DynamicTest opening = tests.stream().filter(t -> t.getDisplayName().contains("CODE")).findFirst().orElseThrow();
        AssertionError e = assertThrows(AssertionError.class, opening.getExecutable()::execute);
        assertTrue(e.getMessage().startsWith("machine 'vault' in 'open' after input 1 of"), e.getMessage());
        assertTrue(e.getMessage().contains("no vault is ever opened") && e.getMessage().contains("path: locked \u2013CODE"), e.getMessage());
        for (DynamicTest t : paths.tests(world).toList()) {
            t.getExecutable().execute();
        }
    }

    public static final class Coin {
        public final Random random = new Random();
    }

    @Test
    void aMachineThatLeavesItsPathFailsItsTestSayingWhere() throws Throwable {
        States<Coin> coin = States.define("coin", Coin::new, m -> m
                .initial("up")
                .state("up", s -> s.on("FLIP", t -> t.target("down").guard((c, e) -> c.random.nextBoolean())))
                .state("down", s -> s.on("FLIP", "up")));
        MachinePaths<Coin> paths = MachinePaths.of(coin);
        for (int tries = 0; tries < 30 && !paths.toStates().containsKey("down"); tries++) {
            paths = MachinePaths.of(coin); // the search itself may have flipped tails every time
        }
        assertTrue(paths.toStates().containsKey("down"), "the search never flipped heads in 30 searches");
        List<DynamicTest> tests = paths.tests(world).toList();
        int left = 0;
        for (int round = 0; round < 20 && left == 0; round++) {
            for (DynamicTest t : tests) {
                Executable run = t.getExecutable();
                try {
                    run.execute();
                } catch (AssertionError e) {
                    assertTrue(e.getMessage().startsWith("machine 'coin' left its path after input"), e.getMessage());
                    left++;
                }
            }
        }
        assertTrue(left > 0, "a coin flipped by an unseeded random number came down the same way 20 times running");
    }

    public static final class Gate {
        public boolean open;
    }

    /** Polled: a guard on the context, an after reached only by waiting, an event, and $back. */
    static final States<Gate> GATE = States.of(StatesDef.define("gate", Gate::new, d -> d
            .state("shut", s -> s.to("opening", (g, t) -> g.open).on("KNOCK", "answering"))
            .state("opening", s -> s.after(2, "wide"))
            .state("wide", s -> s.after(5, "shut"))
            .state("answering", s -> s.after(1, "$back"))));

    @Test
    void aPolledMachinesGuardsAftersEventsAndBackAreAllTaken() {
        MachinePaths<Gate> paths = MachinePaths.of(GATE).given("the gate is opened", g -> g.open = true);
        assertEquals(List.of(), paths.unreached());
        Map<String, MachinePath> moves = paths.toTransitions();
        assertEquals("shut \u2013[the gate is opened]\u2192 opening \u2013(2 s)\u2192 wide", moves.get("opening \u2013after 2 s\u2192 wide").name());
        assertEquals("shut \u2013KNOCK\u2192 answering \u2013(1 s)\u2192 shut", moves.get("answering \u2013after 1 s\u2192 $back").name());
    }

    public static final class Match extends AIContext {
        public boolean goal;
    }

    static final StateMachineDefinition<Match> MATCH = new StateMachineBuilder<Match>("match", Match::new)
            .configureState("countdown").asInitial().transitionsTo("playing")
            .handler((m, dt) -> m.timeInState() >= 3f ? "playing" : null)
            .configureState("playing").transitionsTo("goal")
            .handler((m, dt) -> m.goal ? "goal" : null)
            .configureState("goal").transitionsTo("countdown")
            .handler((m, dt) -> {
                m.goal = false;
                return m.timeInState() >= 1.5f ? "countdown" : null;
            })
            .build();

    @Test
    void aBuilderMachinesDeclaredTransitionsAreTakenByWaitsAndTheGivenChanges() {
        MachinePaths<Match> paths = MachinePaths.of(MATCH).given("a goal is scored", m -> m.goal = true);
        assertEquals(List.of(), paths.unreached());
        // the builder style keeps time in state as a float: 180 steps of 1/60 s add up to just under 3, so the handler sees 3 one step later
        assertEquals("countdown \u2013(3.017 s)\u2192 playing \u2013[a goal is scored]\u2192 goal \u2013(1.517 s)\u2192 countdown",
                paths.toTransitions().get("goal \u2013handler\u2192 countdown").name());
    }

    @Test
    void aBuilderHandlerThatNeverReturnsItsDeclaredStateIsReportedWithThatReason() {
        List<Unreached> unreached = MachinePaths.of(MATCH).unreached();
        assertTrue(unreached.contains(new Unreached("playing \u2013handler\u2192 goal",
                "'playing' was reached but its handler never returned 'goal' within 60 s with the changes given; give a context change"
                        + " (given(name, change)) that makes it")), unreached.toString());
    }

    public static final class Counter {
        public int n;
    }

    @Test
    void aMachineWhoseContextCountsForeverStillEndsItsSearch() {
        States<Counter> counter = States.define("counter", Counter::new, m -> m
                .initial("a")
                .state("a", s -> s.on("TICK", t -> t.target("b").action((c, e) -> c.n++)))
                .state("b", s -> s.on("TICK", t -> t.target("a").action((c, e) -> c.n++))));
        assertEquals(2, MachinePaths.of(counter).toTransitions().size());
    }

    @Test
    void theSearchStopsAtMaxStatesAndSaysSo() {
        List<Unreached> unreached = MachinePaths.of(VAULT).maxStates(1).given("the alarm goes off", v -> v.alarm = true).unreached();
        assertTrue(unreached.stream().anyMatch(u -> u.reason().contains("the search stopped after 1 states")), unreached.toString());
    }

    @Test
    void badSettingsAreRefusedNamingTheMachine() {
        MachinePaths<Vault> paths = MachinePaths.of(VAULT);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> paths.horizon(-1)).getMessage().startsWith("machine 'vault'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> paths.given(" ", v -> { })).getMessage().startsWith("machine 'vault'"));
        paths.given("x", v -> { });
        assertThrows(IllegalArgumentException.class, () -> paths.given("x", v -> { }));
        paths.unreached();
        assertThrows(IllegalStateException.class, () -> paths.given("y", v -> { }));
        WorldFixture thirty = WorldFixture.fixedStep(1.0 / 30);
        assertThrows(IllegalArgumentException.class, () -> paths.tests(thirty));
    }

    @Test
    void anInputThatThrowsIsNotFollowedAndIsReported() {
        States<Vault> fragile = States.define("fragile", Vault::new, m -> m
                .initial("a")
                .state("a", s -> s.on("BREAK", t -> t.target("b").action((v, e) -> {
                    throw new IllegalStateException("glass");
                })).on("GO", "c"))
                .state("b")
                .state("c", s -> s.on("BACK", "a")));
        MachinePaths<Vault> paths = MachinePaths.of(fragile);
        assertTrue(paths.toStates().containsKey("c"));
        assertTrue(paths.unreached().stream().anyMatch(u -> u.what().equals("(the search)") && u.reason().contains("glass")),
                paths.unreached().toString());
    }

    @Test
    void aMachineThatDespawnsItsOwnEntityIsReportedAndTheSearchGoesOn() {
        States<Vault> mortal = States.define("mortal", Vault::new, m -> m
                .initial("alive")
                .state("alive", s -> s
                        .on("DIE", t -> t.target("gone").action((v, e, self) -> self.<dev.enginestates.ecs.StateWorld>world()
                                .despawn(self.<dev.dominion.ecs.api.Entity>entity())))
                        .on("REST", "resting"))
                .state("resting", s -> s.waitFor(2, "alive"))
                .state("gone"));
        MachinePaths<Vault> paths = MachinePaths.of(mortal);
        assertEquals("alive \u2013REST\u2192 resting \u2013(2 s)\u2192 alive", paths.toTransitions().get("resting \u2013wait 2 s\u2192 alive").name());
        assertTrue(paths.unreached().stream().anyMatch(u -> u.what().equals("(the search)") && u.reason().contains("event DIE threw")),
                paths.unreached().toString());
    }

    @Test
    void pathsFoundOnSeveralThreadsAtOnceAreEachTheSameAsAlone() throws Exception {
        String alone = MachinePaths.of(GATE).given("the gate is opened", g -> g.open = true).toTransitions().toString();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            List<java.util.concurrent.Future<String>> runs = new java.util.ArrayList<>();
            for (int i = 0; i < 8; i++) {
                runs.add(pool.submit(() -> MachinePaths.of(GATE).given("the gate is opened", g -> g.open = true).toTransitions().toString()));
            }
            for (java.util.concurrent.Future<String> f : runs) {
                assertEquals(alone, f.get(60, java.util.concurrent.TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
    }
}

package dev.enginestates;

import dev.enginestates.declare.Event;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.UnknownEventException;
import dev.enginestates.declare.Action;
import dev.enginestates.declare.Guard;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.declare.MachineBuilder;
import dev.enginestates.declare.StateBuilder;
import dev.enginestates.declare.UnknownEvents;
import dev.enginestates.plain.StateMachine;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The statechart rules of DESIGN.md ("Semantics that tests must pin down") and of
 * conformance/FORMAT.md ("Semantics observed in XState 5.33.3", rules 1-34), one test per
 * rule, through the plain face. The context is a list that every action appends its name to:
 * entry actions log {@code en_<path>}, exit actions {@code ex_<path>}, transition actions
 * {@code t...}.
 */
class StatechartSemanticsTest {

    // ------------------------------------------------------------------ helpers

    private static Machine<List<String>> define(Consumer<MachineBuilder<List<String>>> body) {
        return Machine.define("m", ArrayList::new, body);
    }

    private static StateMachine<List<String>> start(Consumer<MachineBuilder<List<String>>> body) {
        return new StateMachine<>(define(body));
    }

    private static Action<List<String>> log(String name) {
        return (log, e) -> log.add(name);
    }

    private static final Guard<List<String>> NO = (log, e) -> false;
    private static final Guard<List<String>> YES = (log, e) -> true;

    /** A state that logs {@code en_<path>} and {@code ex_<path>}. */
    private static Consumer<StateBuilder<List<String>>> logged(String path) {
        return logged(path, s -> { });
    }

    /** A state that logs {@code en_<path>} and {@code ex_<path>}, declared further by {@code more}. */
    private static Consumer<StateBuilder<List<String>>> logged(String path, Consumer<StateBuilder<List<String>>> more) {
        return s -> {
            s.entry(log("en_" + path)).exit(log("ex_" + path));
            more.accept(s);
        };
    }

    /** The actions logged since the last drain, then clears the log. */
    private static List<String> drain(StateMachine<List<String>> sm) {
        List<String> out = List.copyOf(sm.context());
        sm.context().clear();
        return out;
    }

    // ------------------------------------------------------------------ steps and ordering

    @Test
    void start_runsRootEntryFirst_thenInitialStatesFromTheRootDown() {
        // FORMAT.md rule 1: the root's own entry actions first, then the initial states, recursively.
        StateMachine<List<String>> sm = start(m -> m
                .entry(log("en_root")).exit(log("ex_root"))
                .state("a", logged("a", a -> a
                        .state("a1", logged("a.a1", a1 -> a1
                                .initial("y")
                                .state("x", logged("a.a1.x"))
                                .state("y", logged("a.a1.y"))))
                        .state("a2", logged("a.a2"))))
                .state("b", logged("b")));
        assertEquals(List.of("en_root", "en_a", "en_a.a1", "en_a.a1.y"), drain(sm));
        assertEquals(Map.of("a", Map.of("a1", "y")), sm.value());
        assertFalse(sm.isDone());
    }

    @Test
    void actionOrder_exitsInnermostFirst_thenTransitionActions_thenEntriesOutermostFirst() {
        // FORMAT.md rule 2; DESIGN.md "Action order: exits (innermost first), then transition
        // actions, then entries (outermost first)".
        StateMachine<List<String>> sm = start(m -> m
                .state("a", logged("a", a -> a
                        .state("a1", logged("a.a1", a1 -> a1
                                .state("x", logged("a.a1.x", x -> x
                                        .on("GO", t -> t.target("#m.b").actions(log("t1"), log("t2")))))))))
                .state("b", logged("b", b -> b
                        .state("b1", logged("b.b1", b1 -> b1.state("y", logged("b.b1.y")))))));
        drain(sm);
        assertTrue(sm.send("GO"));
        assertEquals(List.of("ex_a.a1.x", "ex_a.a1", "ex_a", "t1", "t2", "en_b", "en_b.b1", "en_b.b1.y"), drain(sm));
        assertEquals(Map.of("b", Map.of("b1", "y")), sm.value());
    }

    @Test
    void parallelState_entersRegionsInDocumentOrder_andExitsThemInReverse() {
        // FORMAT.md rule 3 (and 8): entering a parallel state enters region 1 and its initial
        // descendants fully, then region 2...; leaving it exits the last region first, children
        // before parents, and the parallel state last.
        StateMachine<List<String>> sm = start(m -> m
                .state("idle", logged("idle", s -> s.on("GO", "p")))
                .state("p", logged("p", p -> p.parallel()
                        .on("LEAVE", "idle")
                        .state("r1", logged("p.r1", r -> r
                                .state("x", logged("p.r1.x", x -> x.state("x1", logged("p.r1.x.x1"))))))
                        .state("r2", logged("p.r2", r -> r.state("y", logged("p.r2.y"))))
                        .state("r3", logged("p.r3", r -> r.state("z", logged("p.r3.z")))))));
        drain(sm);
        sm.send("GO");
        assertEquals(List.of("ex_idle", "en_p", "en_p.r1", "en_p.r1.x", "en_p.r1.x.x1",
                "en_p.r2", "en_p.r2.y", "en_p.r3", "en_p.r3.z"), drain(sm));
        assertEquals(Map.of("p", Map.of("r1", Map.of("x", "x1"), "r2", "y", "r3", "z")), sm.value());
        sm.send("LEAVE");
        assertEquals(List.of("ex_p.r3.z", "ex_p.r3", "ex_p.r2.y", "ex_p.r2",
                "ex_p.r1.x.x1", "ex_p.r1.x", "ex_p.r1", "ex_p", "en_idle"), drain(sm));
        assertEquals("idle", sm.value());
    }

    @Test
    void eventsRunToCompletion_everythingAStepCausesIsInThatStep() {
        // FORMAT.md rule 4: after the event's transition, eventless transitions and done events
        // are processed in the same macrostep, before send returns.
        StateMachine<List<String>> sm = start(m -> m
                .state("a", logged("a", a -> a.on("GO", "b")))
                .state("b", logged("b", b -> b
                        .onDone("c")
                        .state("b1", logged("b.b1", b1 -> b1.always("fin")))
                        .finalState("fin", logged("b.fin"))))
                .state("c", logged("c")));
        drain(sm);
        assertTrue(sm.send("GO"));
        assertEquals(List.of("ex_a", "en_b", "en_b.b1", "ex_b.b1", "en_b.fin", "ex_b.fin", "ex_b", "en_c"), drain(sm));
        assertEquals("c", sm.value());
    }

    // ------------------------------------------------------------------ choosing transitions

    @Test
    void deepestActiveStateIsAskedFirst_thenItsAncestors() {
        // FORMAT.md rule 5: the deepest active state is asked first; if none of its transitions
        // for the event is enabled, its parent is asked, and so on up to the root.
        Machine<List<String>> machine = define(m -> m
                .on("R", ".c")
                .state("a", a -> a
                        .on("E", "c")
                        .on("F", "c")
                        .state("a1", a1 -> a1
                                .on("E", "#m.b")
                                .state("x", x -> x.on("E", "y"))
                                .state("y")))
                .state("b")
                .state("c"));
        StateMachine<List<String>> sm = new StateMachine<>(machine);
        assertTrue(sm.send("E"));
        assertEquals(Map.of("a", Map.of("a1", "y")), sm.value(), "x answers E before a1 and a");
        assertTrue(sm.send("E"));
        assertEquals("b", sm.value(), "y names no E, so its parent a1 answers");

        StateMachine<List<String>> sm2 = new StateMachine<>(machine);
        assertTrue(sm2.send("F"));
        assertEquals("c", sm2.value(), "only a names F");

        StateMachine<List<String>> sm3 = new StateMachine<>(machine);
        assertTrue(sm3.send("R"));
        assertEquals("c", sm3.value(), "the root's own on is asked last");
    }

    @Test
    void guardedList_firstEnabledCandidateWins_laterGuardsAreNotAsked() {
        // FORMAT.md rule 6; DESIGN.md "guarded transition lists (first enabled wins)".
        StateMachine<List<String>> sm = start(m -> m
                .state("a", a -> a
                        .on("E", t -> t.guard(NO).target("b").action(log("t_b")))
                        .on("E", t -> t.guard(YES).target("c").action(log("t_c")))
                        .on("E", t -> t.guard((log, e) -> log.add("asked_d")).target("d").action(log("t_d"))))
                .state("b")
                .state("c")
                .state("d"));
        assertTrue(sm.send("E"));
        assertEquals("c", sm.value());
        assertEquals(List.of("t_c"), drain(sm));
    }

    @Test
    void guardedList_allCandidatesRefuse_searchContinuesInTheAncestors() {
        // FORMAT.md rule 6: if none is enabled, the search continues in the ancestors (5).
        StateMachine<List<String>> sm = start(m -> m
                .state("a", a -> a
                        .on("E", t -> t.target("b").action(log("t_parent")))
                        .state("a1", a1 -> a1
                                .on("E", t -> t.guard(NO).target("a2").action(log("t_1")))
                                .on("E", t -> t.guard(NO).target("a2").action(log("t_2"))))
                        .state("a2"))
                .state("b"));
        assertTrue(sm.send("E"));
        assertEquals("b", sm.value());
        assertEquals(List.of("t_parent"), drain(sm));
    }

    @Test
    void parallelRegions_eachTakeTheEvent_andTheParallelStateIsAskedOnlyWhenNoRegionTakesIt() {
        // FORMAT.md rule 7: every region chooses its own transition; if any region has one, the
        // parallel state and its ancestors are not asked. Rule 8: all exits (reverse document
        // order), then the actions in region order, then all entries (document order).
        StateMachine<List<String>> sm = start(m -> m
                .state("p", p -> p.parallel()
                        .on("E", t -> t.target("out").action(log("t_p")))
                        .state("r1", r -> r
                                .state("a", logged("p.r1.a", a -> a.on("E", t -> t.target("b").action(log("t1")))))
                                .state("b", logged("p.r1.b")))
                        .state("r2", r -> r
                                .state("c", logged("p.r2.c", c -> c.on("E", t -> t.target("d").action(log("t2")))))
                                .state("d", logged("p.r2.d")))
                        .state("r3", r -> r.state("e", logged("p.r3.e"))))
                .state("out", logged("out")));
        drain(sm);
        assertTrue(sm.send("E"));
        assertEquals(List.of("ex_p.r2.c", "ex_p.r1.a", "t1", "t2", "en_p.r1.b", "en_p.r2.d"), drain(sm));
        assertEquals(Map.of("p", Map.of("r1", "b", "r2", "d", "r3", "e")), sm.value());
        // now no region takes E: the parallel state itself is asked
        assertTrue(sm.send("E"));
        assertEquals(List.of("ex_p.r3.e", "ex_p.r2.d", "ex_p.r1.b", "t_p", "en_out"), drain(sm));
        assertEquals("out", sm.value());
    }

    @Test
    void parallelRegions_conflict_theRegionEarlierInDocumentOrderWins_whenItLeavesTheParallelState() {
        // FORMAT.md rule 8: of two conflicting transitions the one from the earlier region wins.
        StateMachine<List<String>> sm = start(m -> m
                .state("p", logged("p", p -> p.parallel()
                        .state("r1", logged("p.r1", r -> r
                                .state("a", logged("p.r1.a", a -> a.on("E", t -> t.target("#m.out").action(log("t1")))))))
                        .state("r2", logged("p.r2", r -> r
                                .state("c", logged("p.r2.c", c -> c.on("E", t -> t.target("d").action(log("t2")))))
                                .state("d", logged("p.r2.d"))))))
                .state("out", logged("out")));
        drain(sm);
        assertTrue(sm.send("E"));
        assertEquals(List.of("ex_p.r2.c", "ex_p.r2", "ex_p.r1.a", "ex_p.r1", "ex_p", "t1", "en_out"), drain(sm));
        assertEquals("out", sm.value());
    }

    @Test
    void parallelRegions_conflict_theRegionEarlierInDocumentOrderWins_whenTheLaterLeavesTheParallelState() {
        // FORMAT.md rule 8: the later region's transition (which would leave p) is dropped.
        StateMachine<List<String>> sm = start(m -> m
                .state("p", logged("p", p -> p.parallel()
                        .state("r1", logged("p.r1", r -> r
                                .state("a", logged("p.r1.a", a -> a.on("E", t -> t.target("b").action(log("t1")))))
                                .state("b", logged("p.r1.b"))))
                        .state("r2", logged("p.r2", r -> r
                                .state("c", logged("p.r2.c", c -> c.on("E", t -> t.target("#m.out").action(log("t2")))))))))
                .state("out", logged("out")));
        drain(sm);
        assertTrue(sm.send("E"));
        assertEquals(List.of("ex_p.r1.a", "t1", "en_p.r1.b"), drain(sm));
        assertEquals(Map.of("p", Map.of("r1", "b", "r2", "c")), sm.value());
    }

    @Test
    void unhandledEvent_changesNothing_andSendReturnsFalse() {
        // FORMAT.md rule 9; 003: "A state that names no such event, or whose guards all refuse
        // it, leaves the machine as it was, and send returns false."
        StateMachine<List<String>> sm = start(m -> m
                .state("a", logged("a", a -> a.on("E", t -> t.guard(NO).target("b").action(log("t")))))
                .state("b", logged("b", b -> b.on("F", "a"))));
        drain(sm);
        assertFalse(sm.send("F"), "no active state names F");
        assertEquals("a", sm.value());
        assertEquals(List.of(), drain(sm));
        assertFalse(sm.send("E"), "the only candidate's guard refuses E");
        assertEquals("a", sm.value());
        assertEquals(List.of(), drain(sm));
    }

    // ------------------------------------------------------------------ kinds of transitions

    @Test
    void targetlessTransition_onlyActs_countsAsHandled_andBlocksTheAncestors() {
        // FORMAT.md rule 10; 003: "send returns whether a state took the event, including a
        // transition that runs an action and moves nowhere."
        StateMachine<List<String>> sm = start(m -> m
                .state("a", logged("a", a -> a
                        .on("E", t -> t.target("b").action(log("t_parent")))
                        .state("a1", logged("a.a1", a1 -> a1.on("E", t -> t.action(log("t_only")))))))
                .state("b", logged("b")));
        drain(sm);
        assertTrue(sm.send("E"));
        assertEquals(List.of("t_only"), drain(sm));
        assertEquals(Map.of("a", "a1"), sm.value());
    }

    @Test
    void selfTransition_atomic_withoutReenter_onlyRunsItsActions() {
        // FORMAT.md rule 11, without reenter.
        StateMachine<List<String>> sm = start(m -> m
                .state("a", logged("a", a -> a.on("E", t -> t.target("a").action(log("t"))))));
        drain(sm);
        assertTrue(sm.send("E"));
        assertEquals(List.of("t"), drain(sm));
        assertEquals("a", sm.value());
    }

    @Test
    void selfTransition_atomic_withReenter_exitsAndEntersTheState() {
        // FORMAT.md rule 11, with reenter: true.
        StateMachine<List<String>> sm = start(m -> m
                .state("a", logged("a", a -> a.on("E", t -> t.target("a").reenter().action(log("t")))))
                .state("b", logged("b")));
        drain(sm);
        assertTrue(sm.send("E"));
        assertEquals(List.of("ex_a", "t", "en_a"), drain(sm));
        assertEquals("a", sm.value());
    }

    private static Consumer<MachineBuilder<List<String>>> compoundSelf(boolean reenter) {
        return m -> m.state("a", logged("a", a -> a
                .on("E", t -> t.target("a").reenter(reenter).action(log("t")))
                .state("a1", logged("a.a1", a1 -> a1.on("N", "a2")))
                .state("a2", logged("a.a2"))));
    }

    @Test
    void selfTransition_compound_withoutReenter_exitsDescendants_andEntersItsInitialState() {
        // FORMAT.md rule 12, without reenter: the state itself is neither exited nor entered.
        StateMachine<List<String>> sm = start(compoundSelf(false));
        sm.send("N");
        drain(sm);
        assertTrue(sm.send("E"));
        assertEquals(List.of("ex_a.a2", "t", "en_a.a1"), drain(sm));
        assertEquals(Map.of("a", "a1"), sm.value());
    }

    @Test
    void selfTransition_compound_withReenter_exitsAndEntersTheStateToo() {
        // FORMAT.md rule 12, with reenter: true.
        StateMachine<List<String>> sm = start(compoundSelf(true));
        sm.send("N");
        drain(sm);
        assertTrue(sm.send("E"));
        assertEquals(List.of("ex_a.a2", "ex_a", "t", "en_a", "en_a.a1"), drain(sm));
        assertEquals(Map.of("a", "a1"), sm.value());
    }

    private static Consumer<MachineBuilder<List<String>>> toDescendant(boolean reenter) {
        return m -> m.state("a", logged("a", a -> a
                .on("E", t -> t.target(".a2").reenter(reenter).action(log("t")))
                .state("a1", logged("a.a1"))
                .state("a2", logged("a.a2"))));
    }

    @Test
    void transitionToADescendant_withoutReenter_keepsTheSource() {
        // FORMAT.md rule 13, without reenter: only the source's active descendants are exited.
        StateMachine<List<String>> sm = start(toDescendant(false));
        drain(sm);
        assertTrue(sm.send("E"));
        assertEquals(List.of("ex_a.a1", "t", "en_a.a2"), drain(sm));
        assertEquals(Map.of("a", "a2"), sm.value());
    }

    @Test
    void transitionToADescendant_withReenter_exitsAndEntersTheSource() {
        // FORMAT.md rule 13, with reenter: true.
        StateMachine<List<String>> sm = start(toDescendant(true));
        drain(sm);
        assertTrue(sm.send("E"));
        assertEquals(List.of("ex_a.a1", "ex_a", "t", "en_a", "en_a.a2"), drain(sm));
        assertEquals(Map.of("a", "a2"), sm.value());
    }

    @Test
    void transitionToAnAncestor_exitsAndReentersIt_withOrWithoutReenter() {
        // FORMAT.md rule 14: that ancestor is exited and entered again, then its initial state.
        for (boolean reenter : new boolean[] {false, true}) {
            StateMachine<List<String>> sm = start(m -> m
                    .state("a", logged("a", a -> a
                            .state("a1", logged("a.a1", a1 -> a1
                                    .state("x", logged("a.a1.x", x -> x.on("N", "y")))
                                    .state("y", logged("a.a1.y", y -> y
                                            .on("UP", t -> t.target("#m.a").reenter(reenter).action(log("t"))))))))));
            sm.send("N");
            drain(sm);
            assertTrue(sm.send("UP"));
            assertEquals(List.of("ex_a.a1.y", "ex_a.a1", "ex_a", "t", "en_a", "en_a.a1", "en_a.a1.x"), drain(sm),
                    "reenter " + reenter);
            assertEquals(Map.of("a", Map.of("a1", "x")), sm.value());
        }
    }

    @Test
    void transitionAcrossRegions_exitsAndReentersEveryRegion_butNotTheParallelState() {
        // FORMAT.md rule 15: the regions not targeted restart at their initial states.
        StateMachine<List<String>> sm = start(m -> m
                .state("p", logged("p", p -> p.parallel()
                        .state("r1", logged("p.r1", r -> r
                                .state("a", logged("p.r1.a", a -> a.on("N", "b")))
                                .state("b", logged("p.r1.b", b -> b
                                        .on("X", t -> t.target("#m.p.r2.d").action(log("t")))))))
                        .state("r2", logged("p.r2", r -> r
                                .state("c", logged("p.r2.c"))
                                .state("d", logged("p.r2.d")))))));
        sm.send("N");
        assertEquals(Map.of("p", Map.of("r1", "b", "r2", "c")), sm.value());
        drain(sm);
        assertTrue(sm.send("X"));
        assertEquals(List.of("ex_p.r2.c", "ex_p.r2", "ex_p.r1.b", "ex_p.r1", "t",
                "en_p.r1", "en_p.r1.a", "en_p.r2", "en_p.r2.d"), drain(sm));
        assertEquals(Map.of("p", Map.of("r1", "a", "r2", "d")), sm.value());
    }

    @Test
    void multipleTargets_enterEveryTarget_andUntargetedRegionsStartAtTheirInitialStates() {
        // FORMAT.md rule 16: target [x, y] in different regions of one parallel state.
        StateMachine<List<String>> sm = start(m -> m
                .state("idle", logged("idle", i -> i.on("GO", t -> t.target("p.r1.b", "p.r2.d"))))
                .state("p", logged("p", p -> p.parallel()
                        .state("r1", logged("p.r1", r -> r.state("a", logged("p.r1.a")).state("b", logged("p.r1.b"))))
                        .state("r2", logged("p.r2", r -> r.state("c", logged("p.r2.c")).state("d", logged("p.r2.d"))))
                        .state("r3", logged("p.r3", r -> r.state("e", logged("p.r3.e")).state("f", logged("p.r3.f")))))));
        drain(sm);
        assertTrue(sm.send("GO"));
        assertEquals(List.of("ex_idle", "en_p", "en_p.r1", "en_p.r1.b", "en_p.r2", "en_p.r2.d", "en_p.r3", "en_p.r3.e"),
                drain(sm));
        assertEquals(Map.of("p", Map.of("r1", "b", "r2", "d", "r3", "e")), sm.value());
    }

    // ------------------------------------------------------------------ eventless transitions

    @Test
    void alwaysChain_runsInTheSameSend() {
        // FORMAT.md rule 17: a chain a -> b -> c all shows up in one step's actions.
        StateMachine<List<String>> sm = start(m -> m
                .state("a", logged("a", a -> a.on("GO", "b")))
                .state("b", logged("b", b -> b.always("c")))
                .state("c", logged("c", c -> c.always(t -> t.target("d").action(log("t_cd")))))
                .state("d", logged("d")));
        drain(sm);
        assertTrue(sm.send("GO"));
        assertEquals(List.of("ex_a", "en_b", "ex_b", "en_c", "ex_c", "t_cd", "en_d"), drain(sm));
        assertEquals("d", sm.value());
    }

    @Test
    void always_runsDuringTheStart() {
        // FORMAT.md rule 18.
        StateMachine<List<String>> sm = start(m -> m
                .state("a", logged("a", a -> a.always("b")))
                .state("b", logged("b", b -> b.always(t -> t.guard(NO).target("c"))))
                .state("c", logged("c")));
        assertEquals(List.of("en_a", "ex_a", "en_b"), drain(sm));
        assertEquals("b", sm.value());
    }

    private static Consumer<MachineBuilder<List<String>>> alwaysVersusDone(Guard<List<String>> alwaysGuard) {
        return m -> m
                .state("a", logged("a", a -> a
                        .always(t -> t.guard(alwaysGuard).target("other").action(log("t_always")))
                        .onDone(t -> t.target("done").action(log("t_done")))
                        .state("a1", logged("a.a1", a1 -> a1.on("FIN", t -> t.target("afin").action(log("t_fin")))))
                        .finalState("afin", logged("a.afin"))))
                .state("done", logged("done"))
                .state("other", logged("other"));
    }

    @Test
    void always_takesPriorityOverAPendingDoneEvent() {
        // FORMAT.md rule 19: eventless transitions take priority over pending internal done events.
        StateMachine<List<String>> sm = start(alwaysVersusDone((log, e) -> log.contains("t_fin")));
        drain(sm);
        assertTrue(sm.send("FIN"));
        assertEquals(List.of("ex_a.a1", "t_fin", "en_a.afin", "ex_a.afin", "ex_a", "t_always", "en_other"), drain(sm));
        assertEquals("other", sm.value());

        // control: with the always disabled, the same event reaches onDone
        StateMachine<List<String>> control = start(alwaysVersusDone(NO));
        drain(control);
        control.send("FIN");
        assertEquals(List.of("ex_a.a1", "t_fin", "en_a.afin", "ex_a.afin", "ex_a", "t_done", "en_done"), drain(control));
        assertEquals("done", control.value());
    }

    @Test
    void alwaysGuard_seesTheEventBeingProcessed_evenOneNoStateTakes() {
        // FORMAT.md rule 20: re-checked after every event, even one no state handles; the guard
        // sees the event being processed (evFlag fires on any event with ok: true).
        StateMachine<List<String>> sm = start(m -> m
                .state("a", logged("a", a -> a.always(t -> t.guard((log, e) -> e.isTrue("ok")).target("b"))))
                .state("b", logged("b"))
                .state("z", z -> z.on("PING", "a")));
        drain(sm);
        assertFalse(sm.send(Event.of("PING", Map.of("ok", false))));
        assertEquals("a", sm.value());
        assertEquals(List.of(), drain(sm));
        // no state took PING (send says false), but the eventless transition saw ok: true and moved
        assertFalse(sm.send(Event.of("PING", Map.of("ok", true))));
        assertEquals(List.of("ex_a", "en_b"), drain(sm));
        assertEquals("b", sm.value());
    }

    // ------------------------------------------------------------------ history

    private static Consumer<MachineBuilder<List<String>>> historyMachine(HistoryDepth depth) {
        return m -> m
                .state("a", logged("a", a -> a
                        .on("OUT", "b")
                        .state("a1", logged("a.a1", a1 -> a1
                                .on("NEXT", "a2")
                                .state("x", logged("a.a1.x", x -> x.on("N", "y")))
                                .state("y", logged("a.a1.y"))))
                        .state("a2", logged("a.a2"))
                        .history("h", depth)))
                .state("b", logged("b", b -> b.on("BACK", "a.h").on("IN", "a")));
    }

    @Test
    void shallowHistory_restoresTheRememberedChild_whichEntersItsOwnInitialState() {
        // FORMAT.md rules 22 and 24.
        StateMachine<List<String>> sm = start(historyMachine(HistoryDepth.SHALLOW));
        sm.send("N");
        assertEquals(Map.of("a", Map.of("a1", "y")), sm.value());
        sm.send("OUT");
        drain(sm);
        assertTrue(sm.send("BACK"));
        assertEquals(List.of("ex_b", "en_a", "en_a.a1", "en_a.a1.x"), drain(sm));
        assertEquals(Map.of("a", Map.of("a1", "x")), sm.value());

        sm.send("NEXT");
        sm.send("OUT");
        sm.send("BACK");
        assertEquals(Map.of("a", "a2"), sm.value());
    }

    @Test
    void deepHistory_restoresTheRememberedAtomicStates_andEveryStateBetween() {
        // FORMAT.md rule 25.
        StateMachine<List<String>> sm = start(historyMachine(HistoryDepth.DEEP));
        sm.send("N");
        sm.send("OUT");
        drain(sm);
        assertTrue(sm.send("BACK"));
        assertEquals(List.of("ex_b", "en_a", "en_a.a1", "en_a.a1.y"), drain(sm));
        assertEquals(Map.of("a", Map.of("a1", "y")), sm.value());
    }

    @Test
    void history_isRecordedWheneverTheParentIsExited_howeverItWasEntered() {
        // FORMAT.md rule 22: entered plainly (IN) rather than through the history, then left.
        StateMachine<List<String>> sm = start(historyMachine(HistoryDepth.DEEP));
        sm.send("OUT");
        sm.send("IN");
        sm.send("N");
        sm.send("OUT");
        sm.send("BACK");
        assertEquals(Map.of("a", Map.of("a1", "y")), sm.value());
    }

    private static Consumer<MachineBuilder<List<String>>> historyFromOutside(String defaultTarget) {
        return m -> m
                .initial("b")
                .state("a", a -> a
                        .history("h", h -> {
                            if (defaultTarget != null) {
                                h.defaultTarget(defaultTarget);
                            }
                        })
                        .state("a1")
                        .state("a2", a2 -> a2.state("a21").state("a22")))
                .state("b", b -> b.on("BACK", "a.h"));
    }

    @Test
    void history_withNothingRemembered_entersItsDefaultTarget() {
        // FORMAT.md rule 23: that target is entered (plus the states needed to reach it).
        StateMachine<List<String>> sm = start(historyFromOutside("a2.a22"));
        assertEquals("b", sm.value());
        assertTrue(sm.send("BACK"));
        assertEquals(Map.of("a", Map.of("a2", "a22")), sm.value());
    }

    @Test
    void history_withNothingRememberedAndNoDefault_entersTheParentsInitialState() {
        // FORMAT.md rule 23: without a target it behaves like entering the parent.
        StateMachine<List<String>> sm = start(historyFromOutside(null));
        assertTrue(sm.send("BACK"));
        assertEquals(Map.of("a", "a1"), sm.value());
    }

    @Test
    void history_ofAParentStillActive_usesWhatAnEarlierExitRemembered_orTheDefault() {
        // FORMAT.md rule 26.
        StateMachine<List<String>> sm = start(m -> m
                .state("a", logged("a", a -> a
                        .on("H", ".h")
                        .on("OUT", "b")
                        .history("h", HistoryDepth.SHALLOW, "a3")
                        .state("a1", logged("a.a1"))
                        .state("a2", logged("a.a2"))
                        .state("a3", logged("a.a3", a3 -> a3.on("N", "a2")))))
                .state("b", logged("b", b -> b.on("IN", "a"))));
        sm.send("H");
        assertEquals(Map.of("a", "a3"), sm.value(), "nothing remembered yet: the default");
        sm.send("N");
        sm.send("OUT");            // remembers a2
        sm.send("IN");             // a.a1, through the initial state
        drain(sm);
        assertTrue(sm.send("H"));
        assertEquals(Map.of("a", "a2"), sm.value(), "what the earlier exit remembered, not the default");
        assertEquals(List.of("ex_a.a1", "en_a.a2"), drain(sm), "a itself stays");
    }

    private static Consumer<MachineBuilder<List<String>>> parallelHistory() {
        return m -> m
                .initial("out")
                .state("out", o -> o
                        .on("GO", "p")
                        .on("BACK_S", "p.hs")
                        .on("BACK_D", "p.hd")
                        .on("BACK_T", "p.ht"))
                .state("p", p -> p.parallel()
                        .on("OUT", "out")
                        .state("r1", r -> r.state("a", a -> a.on("E1", "b")).state("b"))
                        .state("r2", r -> r.state("c", c -> c.on("E2", "d")).state("d"))
                        .history("hs", HistoryDepth.SHALLOW)
                        .history("hd", HistoryDepth.DEEP)
                        .history("ht", HistoryDepth.SHALLOW, "r2.d"));
    }

    @Test
    void historyInParallel_nothingRemembered_withoutDefault_entersTheParallelStateNormally() {
        // FORMAT.md rule 27.
        StateMachine<List<String>> sm = start(parallelHistory());
        assertTrue(sm.send("BACK_D"));
        assertEquals(Map.of("p", Map.of("r1", "a", "r2", "c")), sm.value());
    }

    @Test
    void historyInParallel_nothingRemembered_withDefault_entersItPlusTheOtherRegionsInitialStates() {
        // FORMAT.md rule 27.
        StateMachine<List<String>> sm = start(parallelHistory());
        assertTrue(sm.send("BACK_T"));
        assertEquals(Map.of("p", Map.of("r1", "a", "r2", "d")), sm.value());
    }

    @Test
    void historyInParallel_shallowRestartsTheRegions_deepRestoresEveryRegion() {
        // FORMAT.md rule 27: shallow history restores the regions at their initial states; deep
        // history restores every region's atomic states.
        StateMachine<List<String>> sm = start(parallelHistory());
        sm.send("GO");
        sm.send("E1");
        sm.send("E2");
        assertEquals(Map.of("p", Map.of("r1", "b", "r2", "d")), sm.value());
        sm.send("OUT");
        sm.send("BACK_S");
        assertEquals(Map.of("p", Map.of("r1", "a", "r2", "c")), sm.value());
        sm.send("E1");
        sm.send("E2");
        sm.send("OUT");
        sm.send("BACK_D");
        assertEquals(Map.of("p", Map.of("r1", "b", "r2", "d")), sm.value());
    }

    // ------------------------------------------------------------------ final states and onDone

    @Test
    void finalState_queuesADoneEvent_andOnDoneRunsAsAnOrdinaryTransition() {
        // FORMAT.md rule 28: exit actions (the final state first), the onDone actions, entries.
        StateMachine<List<String>> sm = start(m -> m
                .state("a", logged("a", a -> a
                        .onDone(t -> t.target("b").action(log("t_done")))
                        .state("a1", logged("a.a1", a1 -> a1.on("FIN", "afin")))
                        .finalState("afin", logged("a.afin"))))
                .state("b", logged("b")));
        drain(sm);
        assertTrue(sm.send("FIN"));
        assertEquals(List.of("ex_a.a1", "en_a.afin", "ex_a.afin", "ex_a", "t_done", "en_b"), drain(sm));
        assertEquals("b", sm.value());
    }

    @Test
    void parallelState_isDoneWhenEveryRegionIsFinal_regionsDoneEventsFirst() {
        // FORMAT.md rule 29.
        StateMachine<List<String>> sm = start(m -> m
                .state("p", logged("p", p -> p.parallel()
                        .onDone(t -> t.target("after").action(log("t_p_done")))
                        .state("r1", logged("p.r1", r -> r
                                .onDone(t -> t.action(log("t_r1_done")))
                                .state("x", logged("p.r1.x", x -> x.on("F1", "f1")))
                                .finalState("f1", logged("p.r1.f1"))))
                        .state("r2", logged("p.r2", r -> r
                                .onDone(t -> t.action(log("t_r2_done")))
                                .state("y", logged("p.r2.y", y -> y.on("F2", "f2")))
                                .finalState("f2", logged("p.r2.f2"))))))
                .state("after", logged("after")));
        drain(sm);
        assertTrue(sm.send("F1"));
        assertEquals(List.of("ex_p.r1.x", "en_p.r1.f1", "t_r1_done"), drain(sm));
        assertEquals(Map.of("p", Map.of("r1", "f1", "r2", "y")), sm.value(), "one region final: p not done");
        assertTrue(sm.send("F2"));
        assertEquals(List.of("ex_p.r2.y", "en_p.r2.f2", "t_r2_done",
                "ex_p.r2.f2", "ex_p.r2", "ex_p.r1.f1", "ex_p.r1", "ex_p", "t_p_done", "en_after"), drain(sm));
        assertEquals("after", sm.value());
    }

    @Test
    void nestedFinalState_withoutOnDone_staysActive_andAncestorsStillHandleEvents() {
        // FORMAT.md rule 30.
        StateMachine<List<String>> sm = start(m -> m
                .state("a", a -> a
                        .on("X", "b")
                        .state("a1", a1 -> a1.on("FIN", "afin"))
                        .finalState("afin"))
                .state("b"));
        assertTrue(sm.send("FIN"));
        assertEquals(Map.of("a", "afin"), sm.value());
        assertFalse(sm.isDone());
        assertTrue(sm.send("X"));
        assertEquals("b", sm.value());
    }

    @Test
    void topLevelFinalState_makesTheMachineDone_andExitsEverything_rootOnDoneNeverRuns() {
        // FORMAT.md rule 31: every still-active state is exited, the final state and the root
        // included, right after the final state's entry actions; the root's onDone never runs.
        StateMachine<List<String>> sm = start(m -> m
                .entry(log("en_root")).exit(log("ex_root"))
                .onDone(t -> t.action(log("t_root_done")))
                .state("a", logged("a", a -> a
                        .state("a1", logged("a.a1", a1 -> a1.on("END", t -> t.target("#m.fin").action(log("t_end")))))))
                .finalState("fin", logged("fin")));
        drain(sm);
        assertTrue(sm.send("END"));
        assertEquals(List.of("ex_a.a1", "ex_a", "t_end", "en_fin", "ex_fin", "ex_root"), drain(sm));
        assertTrue(sm.isDone());
        assertEquals("fin", sm.value());
    }

    @Test
    void topLevelDone_ofAParallelRoot_skipsTheRegionsPendingOnDone() {
        // FORMAT.md rule 31: for a parallel root, every region reaching a final state makes the
        // machine done; the regions' onDone still pending do not run.
        StateMachine<List<String>> sm = start(m -> m.parallel()
                .exit(log("ex_root"))
                .state("r1", logged("r1", r -> r
                        .onDone(t -> t.action(log("t_r1_done")))
                        .state("x", logged("r1.x", x -> x.on("F1", "f1")))
                        .finalState("f1", logged("r1.f1"))))
                .state("r2", logged("r2", r -> r
                        .onDone(t -> t.action(log("t_r2_done")))
                        .state("y", logged("r2.y", y -> y.on("F2", "f2")))
                        .finalState("f2", logged("r2.f2")))));
        drain(sm);
        sm.send("F1");
        assertEquals(List.of("ex_r1.x", "en_r1.f1", "t_r1_done"), drain(sm));
        assertFalse(sm.isDone());
        sm.send("F2");
        assertEquals(List.of("ex_r2.y", "en_r2.f2", "ex_r2.f2", "ex_r2", "ex_r1.f1", "ex_r1", "ex_root"), drain(sm));
        assertTrue(sm.isDone());
        assertEquals(Map.of("r1", "f1", "r2", "f2"), sm.value());
    }

    @Test
    void doneMachine_ignoresFurtherEvents() {
        // FORMAT.md rule 31: events sent after that change nothing; 003: "a done machine takes
        // no more events" (StateMachine.isDone).
        StateMachine<List<String>> sm = start(m -> m
                .on("ANY", t -> t.action(log("t_any")))
                .state("a", logged("a", a -> a.on("END", "fin")))
                .finalState("fin", logged("fin")));
        sm.send("END");
        assertTrue(sm.isDone());
        drain(sm);
        assertFalse(sm.send("ANY"));
        assertFalse(sm.send("END"));
        assertEquals(List.of(), drain(sm));
        assertEquals("fin", sm.value());
        assertTrue(sm.isDone());
    }

    // ------------------------------------------------------------------ state value

    @Test
    void value_ofAnAtomicTopLevelState_isItsKey() {
        // FORMAT.md rule 32: the root is not named.
        StateMachine<List<String>> sm = start(m -> m.state("waiting", w -> w.on("START", "fight")).state("fight"));
        assertEquals("waiting", sm.value());
        sm.send("START");
        assertEquals("fight", sm.value());
    }

    @Test
    void value_ofCompoundStates_isNestedMaps() {
        // FORMAT.md rule 32: {"<active child key>": <child value>}.
        StateMachine<List<String>> sm = start(m -> m
                .state("a", a -> a.state("b", b -> b.state("c")))
                .state("z"));
        assertEquals(Map.of("a", Map.of("b", "c")), sm.value());
    }

    @Test
    void value_ofAParallelRoot_hasOneEntryPerRegion_andAnAtomicRegionReadsAsAnEmptyMap() {
        // FORMAT.md rule 32 (a parallel root has value {"r0": ..., "r1": ...}); XState writes an
        // atomic region as {} (StateValue's Javadoc).
        StateMachine<List<String>> sm = start(m -> m.parallel()
                .state("r0", r -> r.state("x", x -> x.on("GO", "y")).state("y"))
                .state("r1")
                .state("r2", r -> r.state("p", p -> p.state("q"))));
        assertEquals(Map.of("r0", "x", "r1", Map.of(), "r2", Map.of("p", "q")), sm.value());
        sm.send("GO");
        assertEquals(Map.of("r0", "y", "r1", Map.of(), "r2", Map.of("p", "q")), sm.value());
    }

    @Test
    void value_neverShowsHistoryStates_andShowsFinalStatesLikeAtomicOnes() {
        // FORMAT.md rule 33.
        StateMachine<List<String>> sm = start(m -> m
                .state("a", a -> a
                        .history("h", HistoryDepth.DEEP)
                        .state("a1", a1 -> a1.on("FIN", "afin"))
                        .finalState("afin"))
                .state("b", b -> b.on("BACK", "a.h")));
        assertEquals(Map.of("a", "a1"), sm.value());
        sm.send("FIN");
        assertEquals(Map.of("a", "afin"), sm.value());
    }

    @Test
    void matches_isTrueForEveryActiveStateOnThePath_andFalseOtherwise() {
        // DESIGN.md: "read: ... matches(path)"; 003: Siege.read(world).matches("breather").
        StateMachine<List<String>> sm = start(m -> m
                .state("patrol", p -> p
                        .on("BELL", "answer")
                        .state("watch", w -> w.state("near").state("far"))
                        .state("rest"))
                .state("answer"));
        assertTrue(sm.matches("patrol"));
        assertTrue(sm.matches("patrol.watch"));
        assertTrue(sm.matches("patrol.watch.near"));
        assertFalse(sm.matches("patrol.watch.far"));
        assertFalse(sm.matches("patrol.rest"));
        assertFalse(sm.matches("answer"));
        // issue 12: a path that names no state is an error, never a quiet false
        assertTrue(assertThrows(MachineException.class, () -> sm.matches("no.such.state")).getMessage()
                .contains("has no state 'no.such.state' to match"));
        assertTrue(assertThrows(MachineException.class, () -> sm.matches("watch"), "paths are written from the root")
                .getMessage().endsWith("did you mean 'patrol.watch'?"));
        sm.send("BELL");
        assertTrue(sm.matches("answer"));
        assertFalse(sm.matches("patrol"));
        assertEquals(List.of("answer"), sm.leaves());
    }

    // ------------------------------------------------------------------ guards, contexts, events

    /** A context with a field guards read, and a log. */
    static final class Unit {
        int hp = 10;
        final List<String> log = new ArrayList<>();
    }

    private static Machine<Unit> unitMachine() {
        return Machine.define("unit", Unit::new, m -> m
                .state("alive", a -> a
                        .on("HIT", t -> t.guard((u, e) -> u.hp - e.number("damage") <= 0).target("dead"))
                        .on("HIT", t -> t.action((u, e) -> u.hp -= (int) e.number("damage")))
                        .on("HEAL", t -> t.guard((u, e) -> u.hp < 10).action((u, e) -> u.hp = 10)))
                .state("dead", d -> d.entry((u, e) -> u.log.add("died of " + e.get("damage")))));
    }

    @Test
    void guards_readContextFields_andEventFields() {
        // DESIGN.md: "an event may carry fields that guards read"; 003: Siege.send(world,
        // { type: "WAVE_HELD", wave: 3 }), which a guard reads from event.
        StateMachine<Unit> sm = new StateMachine<>(unitMachine());
        assertFalse(sm.send("HEAL"), "hp is full: the context field refuses");
        assertTrue(sm.send(Event.of("HIT", Map.of("damage", 4))));
        assertEquals(6, sm.context().hp);
        assertEquals("alive", sm.value());
        assertTrue(sm.send(Event.of("HIT", Map.of("damage", 6))));
        assertEquals("dead", sm.value());
        assertEquals(List.of("died of 6"), sm.context().log);
    }

    @Test
    void eachInstance_getsAFreshContextFromTheFactory() {
        // Machine's Javadoc: "the context factory makes a fresh context for each" instance.
        Machine<Unit> machine = unitMachine();
        StateMachine<Unit> one = new StateMachine<>(machine);
        StateMachine<Unit> two = new StateMachine<>(machine);
        assertNotSame(one.context(), two.context());
        one.send(Event.of("HIT", Map.of("damage", 3)));
        assertEquals(7, one.context().hp);
        assertEquals(10, two.context().hp);
        assertEquals("alive", two.value());

        Unit mine = new Unit();
        StateMachine<Unit> three = new StateMachine<>(machine, mine);
        assertSame(mine, three.context());
    }

    // ------------------------------------------------------------------ unknown events

    @Test
    void sendingAnEventNoStateNames_throwsListingTheKnownEvents_andChangesNothing() {
        // DESIGN.md: "Sending an event that no state of the machine names is an error that lists
        // the events the machine knows"; "Bad input gets a clear error and changes nothing".
        StateMachine<List<String>> sm = start(m -> m
                .state("waiting", logged("waiting", w -> w
                        .on("START", "fight")
                        .always(t -> t.guard((log, e) -> e.isTrue("ok")).target("fight"))))
                .state("fight", logged("fight", f -> f.on("WAVE_HELD", "breather").on("ALL_DOWN", "over")))
                .state("breather", b -> b.waitFor(12, "fight"))
                .state("over"));
        drain(sm);
        UnknownEventException e = assertThrows(UnknownEventException.class, () -> sm.send("HALT"));
        assertEquals("m", e.machineId());
        assertEquals("HALT", e.eventType());
        assertEquals(List.of("START", "WAVE_HELD", "ALL_DOWN"), e.knownEvents());
        assertTrue(e.getMessage().contains("'m'") && e.getMessage().contains("'HALT'")
                && e.getMessage().contains("START, WAVE_HELD, ALL_DOWN"), e::getMessage);
        assertThrows(UnknownEventException.class, () -> sm.send(Event.of("HALT", Map.of("ok", true))));
        assertEquals("waiting", sm.value());
        assertEquals(List.of(), sm.context(), "no action ran, the always was not checked");
        assertTrue(sm.send("START"), "still usable");
        assertEquals("fight", sm.value());
    }

    @Test
    void unknownEvents_accept_processesItXStatesWay_eventlessTransitionsStillChecked() {
        // UnknownEvents.ACCEPT: no state takes it, but eventless transitions are still checked
        // and their guards see the event (FORMAT.md rule 20).
        StateMachine<List<String>> sm = start(m -> m
                .unknownEvents(UnknownEvents.ACCEPT)
                .state("waiting", logged("waiting", w -> w
                        .on("START", "fight")
                        .always(t -> t.guard((log, e) -> e.isTrue("ok")).target("fight"))))
                .state("fight", logged("fight")));
        drain(sm);
        assertFalse(sm.send("HALT"));
        assertEquals("waiting", sm.value());
        assertEquals(List.of(), drain(sm));
        assertFalse(sm.send(Event.of("HALT", Map.of("ok", true))), "no state took HALT");
        assertEquals(List.of("ex_waiting", "en_fight"), drain(sm));
        assertEquals("fight", sm.value());
    }
}

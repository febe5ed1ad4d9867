package dev.enginestates.algorithm;

import dev.enginestates.Machine;
import dev.enginestates.declare.Event;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.declare.MachineBuilder;
import dev.enginestates.declare.Semantics;
import dev.enginestates.plain.StateMachine;
import dev.enginestates.records.Access;
import dev.enginestates.records.MachineRecord;
import dev.enginestates.records.RecordDifference;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which transitions the chart marks plain ({@code Chart.tPlain}), so that the interpreter takes
 * them without the general microstep: those that run no code and change only the configuration.
 * Each thing that makes a transition more than that is pinned here on its own, and so is what a
 * plain wait does to a running machine.
 */
class PlainTransitionsTest {
    /** A two-state cycle on waits, the light that {@code Cycle1sBench} runs a thousand of, with one change. */
    private static Chart cycle(Consumer<MachineBuilder<List<String>>> change) {
        return Access.chart(Machine.<List<String>>define("cycle", ArrayList::new, m -> {
            m.initial("off")
                    .state("off", s -> s.waitFor(1, "on"))
                    .state("on", s -> s.waitFor(1, "off"));
            change.accept(m);
        }));
    }

    private static boolean waitOfOffIsPlain(Chart c) {
        return c.tPlain[c.waitTransition[c.stateAt("off")]];
    }

    @Test
    void aWaitBetweenTwoStatesWithoutCodeIsPlain() {
        Chart c = cycle(m -> { });
        assertTrue(waitOfOffIsPlain(c));
        assertTrue(c.tPlain[c.waitTransition[c.stateAt("on")]]);
    }

    @Test
    void anActionOnTheTransitionMakesItNotPlain() {
        Chart c = Access.chart(Machine.<List<String>>define("cycle", ArrayList::new, m -> m
                .initial("off")
                .state("off", s -> s.waitFor(1, t -> t.target("on").action((log, e) -> log.add("t"))))
                .state("on", s -> s.waitFor(1, "off"))));
        assertFalse(waitOfOffIsPlain(c));
        assertTrue(c.tPlain[c.waitTransition[c.stateAt("on")]], "the other wait stays plain");
    }

    @Test
    void anExitActionOfTheStateLeftMakesItNotPlain() {
        Chart c = Access.chart(Machine.<List<String>>define("cycle", ArrayList::new, m -> m
                .initial("off")
                .state("off", s -> s.waitFor(1, "on").exit((log, e) -> log.add("x")))
                .state("on", s -> s.waitFor(1, "off"))));
        assertFalse(waitOfOffIsPlain(c));
        assertTrue(c.tPlain[c.waitTransition[c.stateAt("on")]], "entering a state with an exit action is still plain");
    }

    @Test
    void anEntryActionOfTheStateEnteredMakesItNotPlain() {
        Chart c = Access.chart(Machine.<List<String>>define("cycle", ArrayList::new, m -> m
                .initial("off")
                .state("off", s -> s.waitFor(1, "on"))
                .state("on", s -> s.waitFor(1, "off").entry((log, e) -> log.add("n")))));
        assertFalse(waitOfOffIsPlain(c));
    }

    @Test
    void enteringAFinalStateIsNotPlainForItsDoneEvent() {
        Chart c = Access.chart(Machine.<List<String>>define("once", ArrayList::new, m -> m
                .initial("off")
                .state("off", s -> s.waitFor(1, "over"))
                .finalState("over")));
        assertFalse(waitOfOffIsPlain(c));
    }

    @Test
    void aWaitEnteredWhoseSecondsComeFromAFunctionIsNotPlain() {
        Chart c = Access.chart(Machine.<List<String>>define("cycle", ArrayList::new, m -> m
                .initial("off")
                .state("off", s -> s.waitFor(1, "on"))
                .state("on", s -> s.waitFor((log, e, self) -> 2.0, t -> t.target("off")))));
        assertFalse(waitOfOffIsPlain(c));
    }

    @Test
    void leavingAStateWithAHistoryIsNotPlain() {
        Chart c = Access.chart(Machine.<List<String>>define("guard", ArrayList::new, m -> m
                .initial("patrol")
                .state("patrol", p -> p
                        .initial("north")
                        .state("north", s -> s.waitFor(1, "south"))
                        .state("south", s -> s.waitFor(1, "#guard.alert"))
                        .history("resume", HistoryDepth.SHALLOW))
                .state("alert", a -> a.waitFor(1, "patrol.resume"))));
        assertTrue(c.tPlain[c.waitTransition[c.stateAt("patrol.north")]], "a move inside patrol records no history");
        assertFalse(c.tPlain[c.waitTransition[c.stateAt("patrol.south")]], "leaving patrol records its history");
        assertFalse(c.tPlain[c.waitTransition[c.stateAt("alert")]], "a history target has no static entry set");
    }

    @Test
    void aChartWithEventlessTransitionsHasNoPlainOnes() {
        Chart c = cycle(m -> m.always(t -> t.target(".off").guard((log, e) -> false)));
        assertFalse(waitOfOffIsPlain(c));
    }

    @Test
    void scxmlSemanticsHaveNoPlainTransitions() {
        Chart c = cycle(m -> m.semantics(Semantics.SCXML));
        assertFalse(waitOfOffIsPlain(c));
    }

    @Test
    void aTargetlessTransitionIsNotPlain() {
        Chart c = Access.chart(Machine.<List<String>>define("t", ArrayList::new, m -> m
                .initial("a")
                .state("a", s -> s.on("GO", t -> { }))));
        int a = c.stateAt("a");
        assertFalse(c.tPlain[c.on[a][c.eventId("GO")][0]]);
    }

    @Test
    void aPlainWaitKeepsExactTimesAndLeavesTheNextWaitCounting() {
        StateMachine<List<String>> light = new StateMachine<>(Machine.<List<String>>define("light", ArrayList::new, m -> m
                .initial("off")
                .state("off", s -> s.waitFor(0.25, "on"))
                .state("on", s -> s.waitFor(0.5, "off"))));
        MachineRecord r = Access.record(light);
        assertTrue(r.chart().tPlain[r.chart().waitTransition[r.chart().stateAt("off")]]);
        light.step(1.0); // off → on at 0.25 s, → off at 0.75 s, → on at 1.0 s: chained waits at their own due times
        assertEquals("on", light.state());
        assertEquals(0.0, light.timeIn("on"), 1e-9, "entered at 1.0 s exactly");
        assertEquals(0.5, light.secondsLeft(), 1e-9, "its wait counts from its entry");
        light.step(0.6); // → off at 1.5 s
        assertEquals("off", light.state());
        assertEquals(0.1, light.timeIn("off"), 1e-9, "entered at the wait's due time, not at the step's end");
    }

    @Test
    void aWaitEndingWithASendDueTakesTheGeneralPathWhichDeliversTheSendAfterIt() {
        StateMachine<List<String>> m = new StateMachine<>(Machine.<List<String>>define("pinger", ArrayList::new, d -> d
                .initial("start")
                .state("start", s -> s.on("GO", t -> t.target("off").action((log, e, self) -> self.sendSelf(Event.of("PING"), 1.0, null))))
                .state("off", s -> s.waitFor(1, "on"))
                .state("on", s -> s.on("PING", "pinged"))
                .state("pinged")));
        m.send("GO");
        MachineRecord r = Access.record(m);
        Chart c = r.chart();
        int t = c.waitTransition[c.stateAt("off")];
        assertTrue(c.tPlain[t]);
        Interpreter in = new Interpreter();
        in.clock(1.0);
        assertFalse(in.takePlain(r, t), "a send due with the wait: the general macrostep delivers it after the move");
        assertEquals("off", m.state());
        m.step(1.0); // the wait before the send due with it (the 003 document's order), so PING finds 'on'
        assertEquals("pinged", m.state());
    }

    /**
     * A configuration outside the chart's shape: H in region r1 targets the history of its own
     * parallel state x, which remembers nothing, so XState's dynamic domain leaves x and enters its
     * regions again without it ({@code [C, C.x.r1, C.x.r2]}). The chart marks i's GO (and i2's wait)
     * plain, since r1 cannot be active with i in a configuration of the chart's shape; here it is,
     * and the exit set reaches r1 and its exit action. The interpreter sees that and takes the
     * general microstep (found by a review; both tests failed before the run-time check).
     */
    private static Machine<List<String>> regionsWithoutTheirParallelState(boolean waitInI) {
        return Machine.<List<String>>define("odd", ArrayList::new, m -> m
                .state("C", c -> c
                        .state("i", i -> {
                            i.on("GO", "j").on("IN", "x");
                            if (waitInI) {
                                i.state("i1", i1 -> i1.on("GO", "i2")).state("i2", i2 -> i2.waitFor(1, t -> t.target("#J")));
                            }
                        })
                        .state("j", j -> j.id("J"))
                        .state("x", x -> x
                                .parallel()
                                .state("r1", r1 -> r1.exit((log, e) -> log.add("ex_r1")).on("H", "h"))
                                .state("r2")
                                .history("h", HistoryDepth.SHALLOW))));
    }

    /** The same machine run twice, the first with its chart's plain marks cleared: the same record and context after each input. */
    private static void sameBothWays(boolean waitInI, String... events) {
        Machine<List<String>> generalMachine = regionsWithoutTheirParallelState(waitInI);
        java.util.Arrays.fill(Access.chart(generalMachine).tPlain, false);
        StateMachine<List<String>> general = new StateMachine<>(generalMachine);
        StateMachine<List<String>> fast = new StateMachine<>(regionsWithoutTheirParallelState(waitInI));
        for (String e : events) {
            if (e.equals("1.5 s")) {
                general.step(1.5);
                fast.step(1.5);
            } else {
                general.send(e);
                fast.send(e);
            }
            assertEquals(null, RecordDifference.of(Access.record(general), Access.record(fast)), "after " + e);
            assertEquals(general.ctx(), fast.ctx(), "after " + e);
        }
        assertEquals(List.of("ex_r1", "ex_r1"), fast.ctx(), "r1 left twice: on H, and on the last move");
    }

    @Test
    void anEventOutOfRegionsLeftWithoutTheirParallelStateRunsTheirExitActions() {
        Chart c = Access.chart(regionsWithoutTheirParallelState(false));
        assertTrue(c.tPlain[c.on[c.stateAt("C.i")][c.eventId("GO")][0]], "GO is plain for the chart's own shapes");
        sameBothWays(false, "IN", "H", "GO");
    }

    @Test
    void aWaitEndingOutOfRegionsLeftWithoutTheirParallelStateRunsTheirExitActions() {
        Chart c = Access.chart(regionsWithoutTheirParallelState(true));
        assertTrue(c.tPlain[c.waitTransition[c.stateAt("C.i.i2")]], "the wait is plain for the chart's own shapes");
        sameBothWays(true, "IN", "H", "GO", "1.5 s");
    }

    @Test
    void aBusyRecordIsRefusedAndLeftAlone() {
        StateMachine<List<String>> light = new StateMachine<>(Machine.<List<String>>define("light", ArrayList::new, m -> m
                .initial("off")
                .state("off", s -> s.waitFor(1, "on"))
                .state("on", s -> s.waitFor(1, "off"))));
        MachineRecord r = Access.record(light);
        Chart c = r.chart();
        int t = c.waitTransition[c.stateAt("off")];
        r.beginProcessing("GO");
        Interpreter in = new Interpreter();
        assertFalse(in.takePlain(r, t), "a record processing an event takes the general path, which refuses it by name");
        r.endProcessing();
        assertEquals("off", light.state());
        assertTrue(in.takePlain(r, t));
        assertEquals("on", light.state());
    }
}

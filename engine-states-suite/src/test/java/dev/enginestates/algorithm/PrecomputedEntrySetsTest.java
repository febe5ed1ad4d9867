package dev.enginestates.algorithm;

import dev.enginestates.Machine;
import dev.enginestates.RandomStatecharts;
import dev.enginestates.chart.Chart;
import dev.enginestates.plain.StateMachine;
import dev.enginestates.records.Access;
import dev.enginestates.records.MachineRecord;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rule behind the microstep's fast path: the entry set a chart precomputes for a transition
 * taken alone ({@code Chart.tEntry}) is exactly what the general computeEntrySet gives, on random
 * machines (parallel states, deep and shallow history, re-entering and targetless transitions);
 * and only a transition whose entry set reads a history state goes without one.
 */
class PrecomputedEntrySetsTest {
    @Test
    void aPrecomputedEntrySetIsTheGeneralOneAndOnlyHistoryGoesWithout() {
        int runs = Integer.getInteger("property.runs", RandomMachinesPropertyTest.DEFAULT_RUNS);
        int checked = 0;
        for (int seed = 1; seed <= runs; seed++) {
            checked += check(RandomMachinesPropertyTest.randomMachine(new SplittableRandom(seed), seed), "random " + seed);
            checked += check(RandomStatecharts.statechart(seed), "statechart " + seed);
        }
        assertTrue(checked > runs, "most transitions have a precomputed entry set: " + checked);
    }

    @Test
    void aTransitionBetweenSiblingLeavesEntersItsTargetOnly() {
        Machine<Object> m = Machine.define("lamp", Object::new, d -> d
                .initial("on")
                .state("on", s -> s.on("FLIP", "off"))
                .state("off", s -> s.on("FLIP", "on")));
        Chart c = Access.chart(m);
        int on = c.stateAt("on");
        int off = c.stateAt("off");
        assertArrayEquals(new int[] {off}, c.tEntry[c.on[on][c.eventId("FLIP")][0]]);
        assertArrayEquals(new int[] {on}, c.tEntry[c.on[off][c.eventId("FLIP")][0]]);
    }

    private static int check(Machine<List<String>> machine, String where) {
        StateMachine<List<String>> running = new StateMachine<>(machine);
        MachineRecord r = Access.record(running);
        Chart c = r.chart();
        Interpreter interpreter = new Interpreter();
        int checked = 0;
        for (int t = 0; t < c.transitionCount; t++) {
            int[] precomputed = c.tEntry[t];
            if (precomputed == null) {
                assertTrue(readsHistory(c, t), where + ": transition " + t + " (" + c.tLabel[t] + " of "
                        + c.describe(c.tSource[t]) + ") has no precomputed entry set but reads no history");
                continue;
            }
            assertNotNull(precomputed);
            assertArrayEquals(interpreter.entrySetInGeneral(r, t), precomputed, where + ": transition " + t + " ("
                    + c.tLabel[t] + " of " + c.describe(c.tSource[t]) + " to " + Arrays.toString(c.tTargets[t]) + ")");
            checked++;
        }
        return checked;
    }

    /** Whether a history state is a target or a default descendant of one (entered from the targets by initial states and regions). */
    private static boolean readsHistory(Chart c, int t) {
        if (c.tDomain[t] == Chart.DYNAMIC_DOMAIN) {
            return true;
        }
        for (int x : c.tTargets[t]) {
            if (defaultsReachHistory(c, x)) {
                return true;
            }
        }
        return false;
    }

    private static boolean defaultsReachHistory(Chart c, int s) {
        switch (c.type[s]) {
            case HISTORY:
                return true;
            case COMPOUND:
                return defaultsReachHistory(c, c.initial[s]);
            case PARALLEL:
                for (int child : c.regularChildren[s]) {
                    if (defaultsReachHistory(c, child)) {
                        return true;
                    }
                }
                return false;
            default:
                return false;
        }
    }
}

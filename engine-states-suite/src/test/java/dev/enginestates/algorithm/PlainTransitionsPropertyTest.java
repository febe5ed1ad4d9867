package dev.enginestates.algorithm;

import dev.enginestates.Machine;
import dev.enginestates.RandomStatecharts;
import dev.enginestates.chart.Chart;
import dev.enginestates.plain.StateMachine;
import dev.enginestates.records.Access;
import dev.enginestates.records.MachineRecord;
import dev.enginestates.records.RecordDifference;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rule behind the interpreter's fast path for plain transitions ({@code Chart.tPlain}): a
 * plain transition, taken by an event, a wait, or {@link Interpreter#takePlain}, leaves the record
 * exactly as the general microstep does (configuration and its order, entry times, the wait and
 * the paused ones, histories, the context), and refusing one changes nothing. Random machines of
 * nested compound and parallel states, waits, re-entering transitions, and now and then what makes
 * a transition not plain (actions, history, final states, seconds functions, eventless transitions),
 * each run twice from one start by random events, steps and transitions: once with every
 * transition taken the general way (its chart's plain marks cleared), once as the chart says.
 */
class PlainTransitionsPropertyTest {

    @Test
    void aPlainTransitionLeavesTheRecordAsTheGeneralMicrostepDoes() {
        int runs = Integer.getInteger("property.runs", RandomMachinesPropertyTest.DEFAULT_RUNS);
        int plainTaken = 0;
        int refused = 0;
        for (int seed = 1; seed <= runs; seed++) {
            // one machine twice: the first's chart has no plain transitions, so it takes them all the general way
            Machine<List<String>> generalMachine = RandomStatecharts.mostlyPlain(seed);
            Arrays.fill(Access.chart(generalMachine).tPlain, false);
            Machine<List<String>> fastMachine = RandomStatecharts.mostlyPlain(seed);
            String start = outcome(() -> new StateMachine<>(generalMachine));
            assertEquals(start, outcome(() -> new StateMachine<>(fastMachine)), "machine " + seed + " starts");
            if (start != null) {
                continue; // its done transitions loop from the start, either way
            }
            StateMachine<List<String>> general = new StateMachine<>(generalMachine);
            StateMachine<List<String>> fast = new StateMachine<>(fastMachine);
            MachineRecord a = Access.record(general);
            MachineRecord b = Access.record(fast);
            Chart c = b.chart();
            Interpreter inA = new Interpreter();
            Interpreter inB = new Interpreter();
            SplittableRandom r = new SplittableRandom(-seed);
            double now = 0;
            for (int round = 0; round < 60; round++) {
                String where = "machine " + seed + ", round " + round;
                int pick = r.nextInt(4);
                if (pick == 0) {
                    String event = RandomStatecharts.PLAIN_EVENTS[r.nextInt(RandomStatecharts.PLAIN_EVENTS.length)];
                    assertEquals(outcome(() -> general.send(event)), outcome(() -> fast.send(event)), where);
                } else if (pick == 1) {
                    double dt = new double[] {1 / 60.0, 0.1, 0.5, 2}[r.nextInt(4)];
                    assertEquals(outcome(() -> general.step(dt)), outcome(() -> fast.step(dt)), where);
                    now += dt;
                } else {
                    // a transition taken directly, as a wait's or a when rule's is
                    int t = activeTransition(c, b, r);
                    if (t < 0) {
                        continue;
                    }
                    now += 0.25;
                    inA.clock(now);
                    inB.clock(now);
                    String expected = outcome(() -> inA.take(a, t, c.waitEvent));
                    if (!c.tPlain[t]) {
                        assertFalse(inB.takePlain(b, t), where + ": took " + c.tLabel[t] + ", which is not plain");
                        refused++;
                        assertEquals(expected, outcome(() -> inB.take(b, t, c.waitEvent)), where);
                    } else if (r.nextBoolean()) {
                        assertTrue(inB.takePlain(b, t), where + ": a plain transition at rest was refused: " + c.tLabel[t]);
                        assertNull(expected, where);
                        plainTaken++;
                    } else {
                        assertEquals(expected, outcome(() -> inB.take(b, t, c.waitEvent)), where); // the plain microstep inside a macrostep
                        plainTaken++;
                    }
                }
                assertNull(RecordDifference.of(a, b), where + ": " + general.branch() + " / " + fast.branch());
                assertEquals(general.ctx(), fast.ctx(), where + ": the contexts differ");
            }
        }
        assertTrue(plainTaken > runs * 8, "the machines have plain transitions to take: " + plainTaken);
        assertTrue(refused > runs, "and transitions that are not plain: " + refused);
    }

    @Test
    void refusingATransitionChangesNothing() {
        for (int seed = 1; seed <= 100; seed++) {
            long machine = seed;
            if (outcome(() -> new StateMachine<>(RandomStatecharts.mostlyPlain(machine))) != null) {
                continue; // its done transitions loop from the start
            }
            StateMachine<List<String>> once = new StateMachine<>(RandomStatecharts.mostlyPlain(seed));
            StateMachine<List<String>> twice = new StateMachine<>(RandomStatecharts.mostlyPlain(seed));
            MachineRecord a = Access.record(once);
            MachineRecord b = Access.record(twice);
            Chart c = b.chart();
            Interpreter in = new Interpreter();
            for (int t = 0; t < c.transitionCount; t++) {
                if (!c.tPlain[t] && b.isActive(c.tSource[t])) {
                    assertFalse(in.takePlain(b, t), "machine " + seed + ": " + c.tLabel[t] + " is not plain");
                    assertNull(RecordDifference.of(a, b), "machine " + seed + ": refusing " + c.tLabel[t] + " changed the record");
                }
            }
        }
    }

    /** What running {@code input} ended in: null, or the kind and message of what it threw (a done transition's loop, say). */
    private static String outcome(Runnable input) {
        try {
            input.run();
            return null;
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    /** A random transition whose source is active, or -1 when the machine is done. */
    private static int activeTransition(Chart c, MachineRecord r, SplittableRandom random) {
        if (r.status() != MachineRecord.ACTIVE || c.transitionCount == 0) {
            return -1;
        }
        for (int tries = 0; tries < 20; tries++) {
            int t = random.nextInt(c.transitionCount);
            if (r.isActive(c.tSource[t]) && c.tTargets[t].length > 0) {
                return t;
            }
        }
        return -1;
    }
}

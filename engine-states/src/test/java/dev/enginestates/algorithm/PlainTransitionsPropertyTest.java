package dev.enginestates.algorithm;

import dev.enginestates.Machine;
import dev.enginestates.RecordDifference;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.declare.NodeBuilder;
import dev.enginestates.declare.UnknownEvents;
import dev.enginestates.plain.StateMachine;
import dev.enginestates.records.Access;
import dev.enginestates.records.MachineRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
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
    static final String[] EVENTS = {"E0", "E1", "E2", "E3"};

    @Test
    void aPlainTransitionLeavesTheRecordAsTheGeneralMicrostepDoes() {
        int runs = Integer.getInteger("property.runs", RandomMachinesPropertyTest.DEFAULT_RUNS);
        int plainTaken = 0;
        int refused = 0;
        for (int seed = 1; seed <= runs; seed++) {
            // one machine twice: the first's chart has no plain transitions, so it takes them all the general way
            Machine<List<String>> generalMachine = mostlyPlain(new SplittableRandom(seed), seed);
            Arrays.fill(Access.chart(generalMachine).tPlain, false);
            Machine<List<String>> fastMachine = mostlyPlain(new SplittableRandom(seed), seed);
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
                    String event = EVENTS[r.nextInt(EVENTS.length)];
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
            StateMachine<List<String>> once = new StateMachine<>(mostlyPlain(new SplittableRandom(seed), seed));
            StateMachine<List<String>> twice = new StateMachine<>(mostlyPlain(new SplittableRandom(seed), seed));
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

    /** A machine whose transitions are mostly plain: few actions; some history, finals and done transitions, seconds functions, eventless transitions. */
    static Machine<List<String>> mostlyPlain(SplittableRandom r, int seed) {
        List<String> ids = new ArrayList<>();
        boolean eventless = r.nextInt(10) == 0;
        return Machine.define("plain" + seed, ArrayList::new, m -> {
            m.unknownEvents(UnknownEvents.ACCEPT);
            fill(m, r, 0, "root", ids, false, false, eventless);
        });
    }

    private static <B extends NodeBuilder<List<String>, B>> void fill(NodeBuilder<List<String>, B> node, SplittableRandom r,
            int depth, String path, List<String> ids, boolean parallel, boolean inRegion, boolean eventless) {
        int children = 2 + r.nextInt(3);
        for (int i = 0; i < children; i++) {
            String key = "c" + i;
            String childPath = path + "." + key;
            String id = "S" + ids.size();
            ids.add(id);
            if (!parallel && i == children - 1 && r.nextInt(depth > 0 ? 4 : 8) == 0) {
                node.finalState(key, f -> f.id(id)); // at the top, the machine's end
                continue;
            }
            boolean compound = depth < 3 && r.nextInt(depth == 0 ? 2 : 3) == 0;
            boolean isParallel = compound && r.nextInt(4) == 0;
            node.state(key, s -> {
                s.id(id);
                if (r.nextInt(8) == 0) {
                    s.entry((log, e) -> log.add("en_" + childPath));
                }
                if (r.nextInt(8) == 0) {
                    s.exit((log, e) -> log.add("ex_" + childPath));
                }
                if (compound) {
                    if (isParallel) {
                        s.parallel();
                    }
                    fill(s, r, depth + 1, childPath, ids, isParallel, inRegion || isParallel, eventless);
                    if (r.nextInt(4) == 0) {
                        s.history("h", r.nextBoolean() ? HistoryDepth.DEEP : HistoryDepth.SHALLOW);
                    }
                    if (r.nextInt(2) == 0) {
                        String target = "#S" + r.nextInt(ids.size());
                        s.onDone(t -> t.target(target)); // taken by the done event a final child raises
                    }
                } else if (!inRegion && r.nextInt(2) == 0) {
                    // a machine counts one wait at a time: none in parallel regions, so no two can be active together
                    String target = r.nextInt(4) == 0 ? "#" + id : "#S" + r.nextInt(ids.size());
                    boolean reenter = target.equals("#" + id);
                    if (r.nextInt(8) == 0) {
                        s.waitFor((log, e, self) -> 0.25 * (1 + log.size() % 3), t -> t.target(target).reenter(reenter));
                    } else {
                        double seconds = new double[] {0, 0.1, 0.25, 1 / 60.0, 1}[r.nextInt(5)];
                        s.waitFor(seconds, t -> t.target(target).reenter(reenter));
                    }
                }
                if (eventless && !compound && r.nextInt(4) == 0) {
                    // fires on entry until the log's length is 2 modulo 3: at most twice in a row
                    String target = "#S" + r.nextInt(ids.size());
                    s.always(t -> t.target(target).guard((log, e) -> log.size() % 3 != 2).action((log, e) -> log.add("always_" + childPath)));
                }
                for (int k = r.nextInt(3); k > 0; k--) {
                    String label = "t_" + childPath + "_" + k;
                    String event = EVENTS[r.nextInt(EVENTS.length)];
                    int kind = r.nextInt(10);
                    s.on(event, t -> {
                        if (kind < 7) {
                            t.target("#S" + r.nextInt(ids.size()));
                        } else if (kind == 7) {
                            t.target("#" + id).reenter();
                        } else if (kind == 8 && ids.size() > 1) {
                            t.target("#S" + r.nextInt(ids.size())).reenter();
                        }
                        if (r.nextInt(6) == 0) {
                            t.action((log, e) -> log.add(label));
                        }
                    });
                }
            });
        }
    }
}

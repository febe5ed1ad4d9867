package dev.enginestates.algorithm;

import dev.enginestates.records.Access;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.EventlessLoopException;
import dev.enginestates.Machine;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.declare.NodeBuilder;
import dev.enginestates.declare.StateType;
import dev.enginestates.declare.UnknownEvents;
import dev.enginestates.plain.StateMachine;
import dev.enginestates.records.MachineRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Property tests over random machines and random event sequences, where the rules interact:
 * after every event the configuration is a legal one (DESIGN.md: "leaves the record in a valid
 * configuration"), and two instances fed the same events end with the same records and the
 * same actions (DESIGN.md: "the step is deterministic"). The recorded XState traces judge the
 * exact results; these tests judge the invariants on many more machines.
 *
 * <p>Runs {@value #DEFAULT_RUNS} machines by default; {@code -Dproperty.runs=N} runs more.
 */
class RandomMachinesPropertyTest {
    static final int DEFAULT_RUNS = 500;

    @Test
    void everyEventLeavesALegalConfigurationAndTheSameInputsGiveTheSameRecords() {
        int runs = Integer.getInteger("property.runs", DEFAULT_RUNS);
        for (int seed = 1; seed <= runs; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            Machine<List<String>> machine = randomMachine(random, seed);
            StateMachine<List<String>> a = new StateMachine<>(machine);
            StateMachine<List<String>> b = new StateMachine<>(machine);
            assertLegal(a, seed, -1);
            for (int step = 0; step < 40 && !a.isDone(); step++) {
                Event event = randomEvent(random);
                boolean loopA = send(a, event);
                boolean loopB = send(b, event);
                assertEquals(loopA, loopB, "seed " + seed + " step " + step + ": both stuck or neither");
                assertLegal(a, seed, step);
                assertEquals(a.value(), b.value(), "seed " + seed + " step " + step + ": same value");
                assertEquals(a.context(), b.context(), "seed " + seed + " step " + step + ": same actions");
                assertSameRecord(Access.record(a), Access.record(b), seed, step);
            }
        }
    }

    private static boolean send(StateMachine<List<String>> m, Event e) {
        try {
            m.send(e);
            return false;
        } catch (EventlessLoopException stuck) {
            return true; // a random onDone may lead back into an eventless chain; the record must still be legal
        }
    }

    private static Event randomEvent(SplittableRandom r) {
        String type = "E" + r.nextInt(6);
        int ok = r.nextInt(3);
        return ok == 0 ? Event.of(type) : Event.of(type, Map.of("ok", ok == 1));
    }

    static void assertLegal(StateMachine<?> m, int seed, int step) {
        MachineRecord r = Access.record(m);
        Chart c = r.chart();
        String where = "seed " + seed + " step " + step + " " + m + ": ";
        assertTrue(r.isActive(0), where + "the root is active");
        for (int i = 0; i < r.activeCount(); i++) {
            int s = r.activeAt(i);
            assertTrue(c.type[s] != StateType.HISTORY, where + "a history state is never active");
            if (s > 0) {
                assertTrue(r.isActive(c.parent[s]), where + c.path[s] + "'s parent is active");
            }
            int activeChildren = 0;
            for (int child : c.regularChildren[s]) {
                activeChildren += r.isActive(child) ? 1 : 0;
            }
            if (c.type[s] == StateType.COMPOUND) {
                assertEquals(1, activeChildren, where + c.describe(s) + " has exactly one active child");
            } else if (c.type[s] == StateType.PARALLEL) {
                assertEquals(c.regularChildren[s].length, activeChildren, where + c.describe(s) + " has every region active");
            }
        }
    }

    private static void assertSameRecord(MachineRecord a, MachineRecord b, int seed, int step) {
        assertEquals(a.activeCount(), b.activeCount());
        for (int i = 0; i < a.activeCount(); i++) {
            assertEquals(a.activeAt(i), b.activeAt(i), "seed " + seed + " step " + step + ": same entry order");
        }
        for (int s = 0; s < a.chart().size; s++) {
            assertEquals(a.historySize(s), b.historySize(s));
            for (int i = 0; i < Math.max(0, a.historySize(s)); i++) {
                assertEquals(a.historyAt(s, i), b.historyAt(s, i));
            }
        }
        assertEquals(a.status(), b.status());
    }

    // ------------------------------------------------------------------ random machines

    /** A random tree: every state gets an id "S<n>" so any transition can target any state. */
    static Machine<List<String>> randomMachine(SplittableRandom r, int seed) {
        List<String> ids = new ArrayList<>();
        List<int[]> ranges = new ArrayList<>();
        return Machine.define("rand" + seed, ArrayList::new, m -> {
            m.unknownEvents(UnknownEvents.ACCEPT);
            if (r.nextInt(6) == 0) {
                m.parallel();
            }
            fill(m, r, 0, "root", ids, ranges, m.definition().type() == StateType.PARALLEL);
            m.on("E5", t -> t.target(".c0").action((log, e) -> log.add("t_root")));
        });
    }

    private static <B extends NodeBuilder<List<String>, B>> void fill(NodeBuilder<List<String>, B> node,
            SplittableRandom r, int depth, String path, List<String> ids, List<int[]> ranges, boolean parallel) {
        int children = 2 + r.nextInt(3);
        for (int i = 0; i < children; i++) {
            String key = "c" + i;
            String childPath = path + "." + key;
            String id = "S" + ids.size();
            ids.add(id);
            boolean last = i == children - 1;
            if (!parallel && last && depth > 0 && r.nextInt(3) == 0) {
                node.finalState(key, f -> f.id(id).entry((log, e) -> log.add("en_" + childPath)));
                continue;
            }
            boolean compound = depth < 3 && r.nextInt(depth == 0 ? 2 : 4) == 0;
            boolean isParallel = compound && r.nextInt(4) == 0;
            node.state(key, s -> {
                s.id(id).entry((log, e) -> log.add("en_" + childPath)).exit((log, e) -> log.add("ex_" + childPath));
                if (compound) {
                    if (isParallel) {
                        s.parallel();
                    }
                    fill(s, r, depth + 1, childPath, ids, ranges, isParallel);
                    if (r.nextInt(3) == 0) {
                        s.history("h", r.nextBoolean() ? HistoryDepth.DEEP : HistoryDepth.SHALLOW);
                    }
                    if (r.nextInt(3) == 0) {
                        s.onDone(t -> t.target("#S" + r.nextInt(Math.max(1, ids.size()))).action((log, e) -> log.add("done_" + childPath)));
                    }
                }
                int transitions = r.nextInt(4);
                for (int k = 0; k < transitions; k++) {
                    String event = "E" + r.nextInt(6);
                    int kind = r.nextInt(10);
                    String label = "t_" + childPath + "_" + k;
                    s.on(event, t -> {
                        t.action((log, e) -> log.add(label));
                        if (kind < 7) {
                            // a target among the states declared so far (earlier in document order or ancestors)
                            t.target("#S" + r.nextInt(ids.size()));
                        } else if (kind == 7) {
                            t.target("#" + id).reenter();
                        }
                        if (r.nextInt(3) == 0) {
                            boolean flag = r.nextBoolean();
                            t.guard((log, e) -> flag ? e.isTrue("ok") : !e.isTrue("ok"));
                        }
                    });
                }
            });
        }
    }

    @Test
    void theGeneratorMakesMachinesWithEveryKindOfState() {
        int[] kinds = new int[StateType.values().length];
        for (int seed = 1; seed <= 100; seed++) {
            Chart c = Access.chart(randomMachine(new SplittableRandom(seed), seed));
            for (int s = 1; s < c.size; s++) {
                kinds[c.type[s].ordinal()]++;
            }
        }
        for (StateType t : StateType.values()) {
            if (kinds[t.ordinal()] == 0) {
                fail("100 random machines have no " + t + " state");
            }
        }
    }
}

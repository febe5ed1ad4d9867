package dev.enginestates.records;

import dev.enginestates.Figures;
import dev.enginestates.Machine;
import dev.enginestates.RandomStatecharts;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.StateType;
import dev.enginestates.plain.StateMachine;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A restore accepts every configuration the engine reaches ({@link Configurations#problem} is
 * null after every input), though it accepts the shapes of transitions taken together in several
 * regions only where such transitions reach ({@link Chart#multiRegionReach}). Random machines
 * with parallel states, histories with and without defaults, {@code when} rules, waits, eventless
 * and done transitions ({@link RandomStatecharts}, half of them with transitions that mostly stay
 * inside their parallel state), each fed random events and steps of time.
 */
class EveryReachedConfigurationRestoresPropertyTest {
    /** Machines with parallel states by default; {@code -Dproperty.runs=N} runs more. */
    static final int DEFAULT_RUNS = 4000;
    static final int INPUTS = 40;
    static final double[] STEPS = {1 / 60.0, 0.05, 0.25, 1.0, 3.0};

    @Test
    void everyConfigurationTheEngineReachesRestores() {
        int runs = Integer.getInteger("property.runs", DEFAULT_RUNS);
        long[] counts = assertTimeoutPreemptively(Duration.ofMinutes(5), () -> run(runs));
        Figures.printf("%d machines with parallel states, %d inputs, %d configurations of other shapes than the chart's"
                + " (%d in machines whose multi-region part is not the whole machine), %d with a region narrower than the"
                + " machine, %d runs ended by the machine%n", counts[0], counts[1], counts[2], counts[3], counts[4], counts[5]);
        assertTrue(counts[2] > 0, "the machines reach configurations of other shapes than their chart's: " + counts[2]);
        assertTrue(counts[3] > 0, "some of them in machines whose multi-region part is narrower than the machine: " + counts[3]);
    }

    /** machines, inputs, odd configurations, odd ones in machines with a narrower region, machines with one, runs ended early. */
    private static long[] run(int runs) {
        long[] counts = new long[6];
        for (long n = 2; counts[0] < runs; n++) {
            long seed = n / 2;
            // half of them with transitions that mostly stay inside their parallel state: a part of the machine is multi-region
            Machine<List<String>> machine = n % 2 == 0 ? RandomStatecharts.statechart(seed) : RandomStatecharts.nearbyStatechart(seed);
            StateMachine<List<String>> sm;
            try {
                sm = new StateMachine<>(machine);
            } catch (MachineException e) {
                continue; // a start that loops or finishes at once: nothing to restore
            }
            MachineRecord r = Access.record(sm);
            Chart c = r.chart();
            if (!hasParallel(c)) {
                continue;
            }
            counts[0]++;
            boolean narrower = !c.multiRegionReach[0];
            counts[4] += narrower ? 1 : 0;
            SplittableRandom random = new SplittableRandom(n * 31 + 7);
            check(r, c, "the start");
            for (int i = 0; i < INPUTS && !sm.isDone(); i++) {
                String input;
                try {
                    if (random.nextInt(3) == 0) {
                        double dt = STEPS[random.nextInt(STEPS.length)];
                        input = "step(" + dt + ")";
                        sm.step(dt);
                    } else {
                        String type = RandomStatecharts.EVENTS[random.nextInt(RandomStatecharts.EVENTS.length)];
                        boolean ok = random.nextBoolean();
                        input = "send(" + type + (ok ? ", ok" : "") + ")";
                        sm.send(Event.of(type, Map.of("ok", ok)));
                    }
                } catch (MachineException e) {
                    counts[5]++; // an event the machine rejects, or an eventless loop it stops: the run ends there
                    break;
                }
                counts[1]++;
                check(r, c, "input " + i + ", " + input);
                if (odd(c, r)) {
                    counts[2]++;
                    counts[3] += narrower ? 1 : 0;
                }
            }
        }
        return counts;
    }

    private static void check(MachineRecord r, Chart c, String where) {
        assertNull(Configurations.problem(r), () -> c.machineId + " after " + where + ": " + StateValue.describe(r));
    }

    private static boolean hasParallel(Chart c) {
        for (int s = 0; s < c.size; s++) {
            if (c.type[s] == StateType.PARALLEL) {
                return true;
            }
        }
        return false;
    }

    /** Whether the configuration has another shape than the chart's: a state under an inactive parent, a compound without exactly one child, a missing region. */
    private static boolean odd(Chart c, MachineRecord r) {
        for (int i = 0; i < r.activeCount(); i++) {
            int s = r.activeAt(i);
            if (s > 0 && !r.isActive(c.parent[s])) {
                return true;
            }
            int children = 0;
            for (int child : c.regularChildren[s]) {
                children += r.isActive(child) ? 1 : 0;
            }
            boolean compound = c.type[s] == StateType.COMPOUND || (s == 0 && c.type[0] != StateType.PARALLEL);
            if (compound ? children != 1 && !(s == 0 && r.isDone()) : c.type[s] == StateType.PARALLEL && children != c.regularChildren[s].length) {
                return true;
            }
        }
        return false;
    }
}

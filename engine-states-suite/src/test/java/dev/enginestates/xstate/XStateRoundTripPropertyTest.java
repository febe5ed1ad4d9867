package dev.enginestates.xstate;

import dev.enginestates.Machine;
import dev.enginestates.RandomStatecharts;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.StateType;
import dev.enginestates.plain.StateMachine;
import dev.enginestates.records.Access;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 13, part 4: an XState-style machine exports as XState v5 JSON "that XStateImport reads
 * back to an equal chart", over random machines with every kind of state, transition, wait,
 * {@code when} rule and named or unnamed code ({@link RandomStatecharts}). Equal means
 * {@link ChartEquality}: the same states, events, transitions in the same priority order and
 * the same code under the same names. The imported machine also behaves as the original under
 * the same events and steps, and exporting it again writes the same JSON, byte for byte.
 *
 * <p>Runs {@value #DEFAULT_RUNS} machines by default; {@code -Dproperty.runs=N} runs more.
 */
class XStateRoundTripPropertyTest {
    static final int DEFAULT_RUNS = 400;

    @Test
    void importOfExport_compilesToAnEqualChart_behavesTheSame_andExportsTheSameJson() {
        int runs = Integer.getInteger("property.runs", DEFAULT_RUNS);
        for (int seed = 1; seed <= runs; seed++) {
            Machine<List<String>> original = RandomStatecharts.statechart(seed);
            Chart chart = Access.chart(original);
            XStateExport<List<String>> export = XStateExport.of(original);
            String where = "seed " + seed + "\n" + export.json();
            Machine<List<String>> back = XStateImport.<List<String>>withContext(ArrayList::new)
                    .unknownEvents(chart.unknownEvents)
                    .implementations(export)
                    .parse(export.json());
            ChartEquality.assertSameChart(chart, Access.chart(back), export, where);
            assertEquals(export.json(), XStateExport.toJson(back), where + ": exporting the import again writes the same JSON");
            assertSameBehaviour(original, back, seed, where);
        }
    }

    /** The same events and steps, the same values, logs and waits after each. */
    private static void assertSameBehaviour(Machine<List<String>> a, Machine<List<String>> b, int seed, String where) {
        SplittableRandom r = new SplittableRandom(seed * 7919L);
        StateMachine<List<String>> x = start(a);
        StateMachine<List<String>> y = start(b);
        if (x == null || y == null) {
            assertEquals(x == null, y == null, where + ": both start, or neither");
            return;
        }
        for (int i = 0; i < 30; i++) {
            String what;
            Class<?> failedX;
            Class<?> failedY;
            if (r.nextInt(3) == 0) {
                double dt = new double[] {1 / 60.0, 0.1, 0.5, 3}[r.nextInt(4)];
                what = "step " + dt;
                failedX = attempt(() -> x.step(dt));
                failedY = attempt(() -> y.step(dt));
            } else {
                Event e = Event.of(RandomStatecharts.EVENTS[r.nextInt(6)], Map.of("ok", r.nextBoolean()));
                what = "send " + e;
                failedX = attempt(() -> x.send(e));
                failedY = attempt(() -> y.send(e));
            }
            String at = where + "\nafter " + i + ": " + what;
            assertEquals(failedX, failedY, at + ": the same failure, or none");
            assertEquals(x.value(), y.value(), at);
            assertEquals(x.context(), y.context(), at + ": the same actions ran");
            assertEquals(x.secondsLeft(), y.secondsLeft(), at);
            assertEquals(x.isDone(), y.isDone(), at);
        }
    }

    private static StateMachine<List<String>> start(Machine<List<String>> m) {
        try {
            return new StateMachine<>(m);
        } catch (RuntimeException e) {
            return null; // an eventless chain at start: the same for both
        }
    }

    private static Class<?> attempt(Runnable r) {
        try {
            r.run();
            return null;
        } catch (RuntimeException e) {
            return e.getClass();
        }
    }

    @Test
    void theGeneratorMakesEveryKindOfStateAndTransition() {
        int[] kinds = new int[StateType.values().length];
        int waits = 0;
        int computed = 0;
        int whens = 0;
        int multi = 0;
        int targetless = 0;
        int reenter = 0;
        int always = 0;
        int done = 0;
        int defaults = 0;
        int ids = 0;
        for (int seed = 1; seed <= 200; seed++) {
            Chart c = Access.chart(RandomStatecharts.statechart(seed));
            for (int s = 1; s < c.size; s++) {
                kinds[c.type[s].ordinal()]++;
                waits += c.waitTransition[s] >= 0 ? 1 : 0;
                computed += c.waitSecondsOf[s] != null ? 1 : 0;
                whens += c.when[s] != null ? 1 : 0;
                always += c.always[s] != null ? 1 : 0;
                done += c.onDone[s] != null ? 1 : 0;
                defaults += c.historyDefault[s] != null ? 1 : 0;
                ids += c.stateId[s].contains(".") ? 0 : 1;
            }
            for (int t = 0; t < c.transitionCount; t++) {
                multi += c.tTargets[t].length > 1 ? 1 : 0;
                targetless += c.tTargets[t].length == 0 ? 1 : 0;
                reenter += c.tReenter[t] ? 1 : 0;
            }
        }
        for (StateType t : StateType.values()) {
            if (kinds[t.ordinal()] == 0) {
                fail("200 random machines have no " + t + " state");
            }
        }
        int[] counts = {waits, computed, whens, multi, targetless, reenter, always, done, defaults, ids};
        String[] names = {"waits", "computed waits", "when rules", "multi-target", "targetless", "reenter", "always", "onDone",
            "history defaults", "explicit ids"};
        for (int i = 0; i < counts.length; i++) {
            assertTrue(counts[i] > 0, "200 random machines have no " + names[i]);
        }
    }
}

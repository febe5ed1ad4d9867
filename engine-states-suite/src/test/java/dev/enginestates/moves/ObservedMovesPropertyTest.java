package dev.enginestates.moves;

import dev.enginestates.Machine;
import dev.enginestates.RandomStatecharts;
import dev.enginestates.algorithm.MoveObserver;
import dev.enginestates.chart.Chart;
import dev.enginestates.chart.Moves;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.StateType;
import dev.enginestates.plain.StateMachine;
import dev.enginestates.records.Access;
import dev.enginestates.records.Completion;
import dev.enginestates.records.MachineRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On random XState-style charts fed random events and steps, what an observer hears is what the
 * chart's moves (the diagram's edges) allow for the configurations before and after: every move is
 * one of the chart's, leaving a state that was active before the input (as XState reads the
 * configuration to choose transitions) or entered earlier in it;
 * an event's first move is one of that event's edges (or an {@code always}, tested after each
 * event), a step's a wait or a {@code when} rule (or an {@code always}); every state entered lies
 * on the way to a target told before it or below one; every target is entered or was already
 * active; every state active after and not before was told entered; and the configuration
 * changes only when a move was told.
 *
 * <p>Runs {@value #DEFAULT_RUNS} machines by default; {@code -Dproperty.runs=N} runs more.
 */
class ObservedMovesPropertyTest {
    static final int DEFAULT_RUNS = 300;
    private static final int INPUTS = 40;
    private static final double[] STEPS = {0.1, 0.5, 1, 3, 12};

    /** What one record was told during one input, in order: a move as its number, an entry as -1 - state. */
    static final class Told implements MoveObserver {
        MachineRecord record;
        final List<Integer> heard = new ArrayList<>();

        @Override
        public void moved(MachineRecord r, int move, int from, int to) {
            if (r == record) {
                heard.add(move);
                assertTrue(move >= 0, "an XState-style move always has a number; from " + from);
                assertEquals(r.chart().moves().source[move], from, "a move is told from its own source");
            }
        }

        @Override
        public void entered(MachineRecord r, int state) {
            if (r == record) {
                heard.add(-1 - state);
            }
        }
    }

    @Test
    void everyMoveToldIsAnEdgeFromAStateActiveBeforeAndTheConfigurationChangesOnlyWithMovesTold() {
        int runs = Integer.getInteger("property.runs", DEFAULT_RUNS);
        Told told = new Told();
        long[] counts = new long[3]; // moves told, inputs with two moves or more, inputs that moved nothing
        MoveObserver.install(told);
        try {
            int machines = 0;
            for (long n = 2; machines < runs; n++) {
                long seed = n / 2;
                Machine<List<String>> machine = n % 2 == 0 ? RandomStatecharts.statechart(seed) : RandomStatecharts.nearbyStatechart(seed);
                told.record = null;
                StateMachine<List<String>> sm;
                try {
                    sm = new StateMachine<>(machine);
                } catch (MachineException e) {
                    continue; // a start that loops or finishes at once
                }
                machines++;
                MachineRecord r = Access.record(sm);
                told.record = r;
                Chart c = r.chart();
                SplittableRandom random = new SplittableRandom(n * 31 + 7);
                for (int i = 0; i < INPUTS && !sm.isDone(); i++) {
                    BitSet before = active(r);
                    BitSet read = asRead(r);
                    told.heard.clear();
                    String input;
                    String event = null;
                    try {
                        if (random.nextInt(3) == 0) {
                            double dt = STEPS[random.nextInt(STEPS.length)];
                            input = "step(" + dt + ")";
                            sm.step(dt);
                        } else {
                            event = RandomStatecharts.EVENTS[random.nextInt(RandomStatecharts.EVENTS.length)];
                            boolean ok = random.nextBoolean();
                            input = "send(" + event + (ok ? ", ok" : "") + ")";
                            sm.send(Event.of(event, Map.of("ok", ok)));
                        }
                    } catch (MachineException e) {
                        break; // an event the machine rejects, or an eventless loop it stops: the run ends there
                    }
                    check(c, before, read, active(r), told.heard, event, c.machineId + " input " + i + " " + input + " heard " + told.heard);
                    long moves = told.heard.stream().filter(h -> h >= 0).count();
                    counts[0] += moves;
                    counts[1] += moves >= 2 ? 1 : 0;
                    counts[2] += moves == 0 ? 1 : 0;
                }
            }
        } finally {
            MoveObserver.uninstall(told);
        }
        assertTrue(counts[0] > 1_000 && counts[1] > 100 && counts[2] > 100,
                "the machines moved, several times in one input, and not at all: " + java.util.Arrays.toString(counts));
    }

    /**
     * @param before the active states before the input
     * @param read   the configuration the algorithm chose transitions in before the input: the active
     *               states completed as XState completes them ({@link Completion}), which differs after
     *               some moves in several regions
     */
    private static void check(Chart c, BitSet before, BitSet read, BitSet after, List<Integer> heard, String event, String where) {
        Moves moves = c.moves();
        BitSet entered = new BitSet();
        List<int[]> reached = new ArrayList<>(); // {target (a history's parent for a history), its move's domain} of the moves told so far
        boolean first = true;
        for (int h : heard) {
            if (h < 0) {
                int s = -1 - h;
                entered.set(s);
                assertTrue(explained(c, s, reached, entered),
                        where + ": " + c.describe(s) + " is entered on the way to a target told before it, or below one");
                continue;
            }
            int domain = domain(c, h);
            for (int t : moves.targets[h]) {
                reached.add(new int[]{c.type[t] == StateType.HISTORY ? c.parent[t] : t, domain});
            }
            assertTrue(h < moves.count, where + ": move " + h + " is one of the chart's " + moves.count);
            int source = moves.source[h];
            assertTrue(read.get(source) || entered.get(source),
                    where + ": " + moves.describe(c, h) + " leaves a state active before the input or entered in it");
            if (first) {
                // an always whose guard reads the input's event may be the first, and only, move (XState tests them after each event)
                assertTrue(read.get(source), where + ": the first move leaves a state active before: " + moves.describe(c, h));
                if (event != null) {
                    assertTrue(moves.kind[h] == Moves.Kind.EVENT && event.equals(moves.event[h]) || moves.kind[h] == Moves.Kind.EVENTLESS,
                            where + ": an event's first move is one of its edges, or an always: " + moves.describe(c, h));
                } else {
                    assertTrue(moves.kind[h] == Moves.Kind.WAIT || moves.kind[h] == Moves.Kind.WHEN || moves.kind[h] == Moves.Kind.EVENTLESS,
                            where + ": a step's first move is a wait, a when rule or an always: " + moves.describe(c, h));
                }
                first = false;
            }
        }
        for (int h : heard) {
            if (h >= 0) {
                for (int t : moves.targets[h]) {
                    assertTrue(c.type[t] == StateType.HISTORY || entered.get(t) || read.get(t),
                            where + ": " + moves.describe(c, h) + " reaches " + c.describe(t) + ", entered or already active");
                }
            }
        }
        BitSet arrived = (BitSet) after.clone();
        arrived.andNot(before);
        arrived.andNot(entered);
        assertTrue(arrived.isEmpty(), where + ": every state active after and not before was told entered, not " + arrived);
        if (heard.stream().noneMatch(h -> h >= 0)) {
            assertTrue(heard.isEmpty(), where + ": no move, no entry");
            assertEquals(before, after, where + ": no move told, no change");
        }
    }

    /**
     * Whether entering {@code s} follows from the targets told: it is one of them or an ancestor of
     * one (entered on the way down), or lies below one (its initial states; a history's parent
     * stands for the history, whose restored states lie below it), or below one of those ancestors
     * that was entered or is a parallel state inside the move's domain (a parallel state's other regions).
     */
    private static boolean explained(Chart c, int s, List<int[]> reached, BitSet entered) {
        for (int[] td : reached) {
            int t = td[0];
            int domain = td[1];
            if (s == t || c.isDescendant(t, s) || c.isDescendant(s, t)) {
                return true;
            }
            for (int a = t; a >= 0 && (a == domain || c.isDescendant(a, domain)); a = c.parent[a]) {
                if ((entered.get(a) || c.type[a] == StateType.PARALLEL) && c.isDescendant(s, a)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * XState's transition domain: the source itself for a move into it that does not re-enter,
     * else the nearest proper ancestor of the source containing every target.
     */
    private static int domain(Chart c, int t) {
        int source = c.tSource[t];
        int[] targets = c.tTargets[t];
        boolean inside = !c.tReenter[t];
        for (int target : targets) {
            inside &= target == source || c.isDescendant(target, source);
        }
        if (inside) {
            return source;
        }
        for (int a = c.parent[source]; a >= 0; a = c.parent[a]) {
            boolean all = true;
            for (int target : targets) {
                all &= c.isDescendant(target, a);
            }
            if (all) {
                return a;
            }
        }
        return 0;
    }

    private static BitSet asRead(MachineRecord r) {
        int size = r.chart().size;
        int[] view = new int[size];
        int n = Completion.complete(r, view, new boolean[size]);
        BitSet b = new BitSet();
        for (int i = 0; i < n; i++) {
            b.set(view[i]);
        }
        return b;
    }

    private static BitSet active(MachineRecord r) {
        BitSet b = new BitSet();
        for (int i = 0; i < r.activeCount(); i++) {
            b.set(r.activeAt(i));
        }
        return b;
    }
}

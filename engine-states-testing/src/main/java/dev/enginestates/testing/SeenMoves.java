package dev.enginestates.testing;

import dev.enginestates.algorithm.MoveObserver;
import dev.enginestates.chart.Chart;
import dev.enginestates.records.MachineRecord;

import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the machines of the process did while a coverage recording ran: by chart, the moves taken,
 * the states entered and the moves no declaration names. The path generator's own exploration is
 * not counted ({@link #exploring}), so generating paths in a test does not cover anything by itself.
 */
final class SeenMoves implements MoveObserver {
    /** Set on a thread while the path generator explores a machine: its moves are not the tests'. */
    static final ThreadLocal<Boolean> EXPLORING = ThreadLocal.withInitial(() -> Boolean.FALSE);

    /** One chart's record; guarded by itself. */
    static final class OfChart {
        final Chart chart;
        final BitSet taken = new BitSet();
        final int[] takenCount;
        final BitSet entered = new BitSet();
        /** Moves no declaration names, as {@code "from → to"}, with how often they were seen. */
        final Map<String, Integer> undeclared = new LinkedHashMap<>();

        OfChart(Chart chart) {
            this.chart = chart;
            this.takenCount = new int[chart.moves().count];
        }
    }

    private final Map<Chart, OfChart> charts = new ConcurrentHashMap<>();

    @Override
    public void moved(MachineRecord r, int move, int from, int to) {
        if (EXPLORING.get()) {
            return;
        }
        OfChart o = of(r.chart());
        synchronized (o) {
            if (move >= 0) {
                o.taken.set(move);
                o.takenCount[move]++;
            } else if (to >= 0) {
                o.undeclared.merge(o.chart.describe(from) + " \u2192 " + o.chart.describe(to), 1, Integer::sum);
            }
        }
    }

    @Override
    public void entered(MachineRecord r, int state) {
        if (EXPLORING.get() || state == 0) {
            return;
        }
        OfChart o = of(r.chart());
        synchronized (o) {
            o.entered.set(state);
        }
    }

    OfChart of(Chart c) {
        return charts.computeIfAbsent(c, OfChart::new);
    }

    /** The charts seen, in no particular order. */
    Iterable<OfChart> all() {
        return charts.values();
    }

    /** Whether the chart moved or entered a state while recording. */
    boolean saw(Chart c) {
        return charts.containsKey(c);
    }
}

package dev.enginestates.moves;

import dev.enginestates.algorithm.MoveObserver;
import dev.enginestates.chart.Chart;
import dev.enginestates.chart.Moves;
import dev.enginestates.records.MachineRecord;

import java.util.ArrayList;
import java.util.List;

/**
 * An observer that writes down what one chart's machines are told, as readable lines:
 * {@code "move idle –GO→ busy"} for a declared move (with what disagrees with the move's own
 * source or target appended, and the state a handler chose), {@code "undeclared a → b"} for a move no declaration names, and
 * {@code "enter busy"}. Installed on creation, uninstalled on close; other charts' moves (other
 * tests' machines) are ignored.
 */
final class Heard implements MoveObserver, AutoCloseable {
    final Chart chart;
    final List<String> lines = new ArrayList<>();
    /** The move numbers heard, -1 included, in order. */
    final List<Integer> numbers = new ArrayList<>();

    Heard(Chart chart) {
        this.chart = chart;
        MoveObserver.install(this);
    }

    @Override
    public void moved(MachineRecord r, int move, int from, int to) {
        if (r.chart() != chart) {
            return;
        }
        numbers.add(move);
        if (move < 0) {
            lines.add("undeclared " + chart.describe(from) + " \u2192 " + (to < 0 ? "?" : chart.describe(to)));
            return;
        }
        Moves m = chart.moves();
        StringBuilder sb = new StringBuilder("move ").append(m.describe(chart, move));
        if (from != m.source[move]) {
            sb.append(" (told from ").append(chart.describe(from)).append(')');
        }
        if (to >= 0 && m.targets[move].length == 0) {
            sb.append(" (chose ").append(chart.describe(to)).append(')');
        } else if (to >= 0 && m.targets[move].length == 1 && m.targets[move][0] != to) {
            sb.append(" (told to ").append(chart.describe(to)).append(')');
        }
        lines.add(sb.toString());
    }

    @Override
    public void entered(MachineRecord r, int state) {
        if (r.chart() == chart) {
            lines.add("enter " + chart.describe(state));
        }
    }

    /** What was heard since the last call, and forgets it. */
    List<String> take() {
        List<String> out = List.copyOf(lines);
        lines.clear();
        numbers.clear();
        return out;
    }

    @Override
    public void close() {
        MoveObserver.uninstall(this);
    }
}

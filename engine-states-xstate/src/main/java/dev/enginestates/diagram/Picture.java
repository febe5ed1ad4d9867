package dev.enginestates.diagram;

import dev.enginestates.chart.BuilderChart;
import dev.enginestates.chart.Chart;
import dev.enginestates.chart.Moves;
import dev.enginestates.chart.Invocation;
import dev.enginestates.chart.Names;
import dev.enginestates.chart.PolledChart;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.Named;
import dev.enginestates.declare.SelfAction;
import dev.enginestates.declare.StateType;
import dev.enginestates.declare.Window;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * What a diagram shows of a compiled chart, whatever its style: the states (the chart's tree),
 * the edges with their labels, a few lines of text per state, and which states are active.
 * The Mermaid and DOT writers draw the same picture.
 */
final class Picture {
    /** An edge's target meaning the polled style's {@code $back}. */
    static final int BACK = -2;

    enum Kind { TRANSITION, HISTORY_DEFAULT }

    /** An edge, and the move it draws ({@link Moves}'s number; -1 for a history state's default). */
    record Edge(int from, int to, String label, Kind kind, int move) {
    }

    final Chart chart;
    final boolean[] active;
    final List<List<String>> notes = new ArrayList<>();
    /** By state, the child machines it invokes, as {@code "invoke wave: wave"} (the child's id, then its machine's). */
    final List<List<String>> invokes = new ArrayList<>();
    final List<Edge> edges = new ArrayList<>();
    boolean back;
    /** By move, whether a coverage report marks it untaken; {@code null} on a diagram that marks none. */
    java.util.BitSet untaken;
    /** By state, whether a coverage report marks it never entered; {@code null} on a diagram that marks none. */
    boolean[] unentered;
    private final Drawing drawing;

    private Picture(Chart chart, Collection<String> activePaths, Drawing drawing) {
        this.chart = chart;
        this.drawing = drawing;
        this.active = new boolean[chart.size];
        for (int s = 0; s < chart.size; s++) {
            notes.add(new ArrayList<>());
            invokes.add(new ArrayList<>());
        }
        for (String p : activePaths) {
            int s = p == null ? -1 : chart.stateAt(p);
            if (s < 0) {
                List<String> all = new ArrayList<>(Arrays.asList(chart.path).subList(1, chart.size));
                throw new MachineException(chart.machineId, "machine '" + chart.machineId + "' has no state '" + p
                        + "' to highlight; expected a dotted path from the root such as '" + chart.path[chart.size - 1] + "'"
                        + Names.suggestion(p, all));
            }
            for (int a = s; a > 0; a = chart.parent[a]) {
                active[a] = true;
            }
        }
    }

    /** How a style's chart is drawn: where its edges and notes come from, what the header calls it and warns of. */
    private enum Drawing {
        STATECHART("XState-style", null) {
            @Override
            void draw(Picture p) {
                p.statechart();
            }
        },
        POLLED_TABLE("polled (StatesDef)", null) {
            @Override
            void draw(Picture p) {
                p.polled();
            }
        },
        BUILDER_STATES("builder (StateMachineBuilder)",
                "each state's handler returns the next state's name at run time: no transition can be drawn") {
            @Override
            void draw(Picture p) {
                p.builder();
            }
        };

        final String name;
        final String caveat;

        Drawing(String name, String caveat) {
            this.name = name;
            this.caveat = caveat;
        }

        abstract void draw(Picture p);
    }

    static Picture of(Chart chart, Collection<String> activePaths) {
        Drawing drawing = chart.byStyle(Drawing.STATECHART, Drawing.POLLED_TABLE, Drawing.BUILDER_STATES);
        Picture p = new Picture(chart, activePaths, drawing);
        drawing.draw(p);
        p.invocations();
        return p;
    }

    /** Marks the moves never taken and the states never entered, as a coverage report draws them. */
    Picture marked(java.util.BitSet untakenMoves, Collection<String> unenteredStates) {
        Moves moves = chart.moves();
        if (untakenMoves.length() > moves.count) {
            throw new MachineException(chart.machineId, "machine '" + chart.machineId + "' has no move " + (untakenMoves.length() - 1)
                    + " to mark as untaken; expected the numbers 0 to " + (moves.count - 1) + " its chart's moves() gives its "
                    + moves.count + " moves");
        }
        untaken = (java.util.BitSet) untakenMoves.clone();
        unentered = new boolean[chart.size];
        for (String path : unenteredStates) {
            int s = path == null ? -1 : chart.stateAt(path);
            if (s <= 0) {
                List<String> all = new ArrayList<>(Arrays.asList(chart.path).subList(1, chart.size));
                throw new MachineException(chart.machineId, "machine '" + chart.machineId + "' has no state '" + path
                        + "' to mark as never entered; expected a dotted path from the root such as '" + chart.path[chart.size - 1] + "'"
                        + Names.suggestion(path, all));
            }
            unentered[s] = true;
        }
        for (int m = untaken.nextSetBit(0); m >= 0; m = untaken.nextSetBit(m + 1)) {
            if (moves.kind[m] == Moves.Kind.EVENT_HANDLER) { // drawn as a note on its state, not an edge: the note says it
                List<String> lines = notes.get(moves.source[m]);
                lines.set(lines.indexOf(handlerNote(moves, m)), handlerNote(moves, m) + " (untaken)");
            }
        }
        return this;
    }

    /** What a state's note says of its {@code on} handler, which has no edge. */
    private static String handlerNote(Moves moves, int m) {
        return "on " + moves.event[m] + " / handler";
    }

    /** Whether the edge draws a move a coverage report marks untaken. */
    boolean isUntaken(Edge e) {
        return untaken != null && e.move() >= 0 && untaken.get(e.move());
    }

    /** What the header calls the machine's style: {@code "XState-style"}, {@code "polled (StatesDef)"}, {@code "builder (StateMachineBuilder)"}. */
    String styleName() {
        return drawing.name;
    }

    /** A line the header adds about what the diagram cannot show, or {@code null}. */
    String caveat() {
        if (drawing == Drawing.BUILDER_STATES && chart.moves().count > 0) {
            return "the transitions drawn are those the handlers are declared to return (transitionsTo); a handler may return others";
        }
        return drawing.caveat;
    }

    /** The lines written on a state: its notes, then the children it invokes. */
    List<String> lines(int s) {
        if (invokes.get(s).isEmpty()) {
            return notes.get(s);
        }
        List<String> all = new ArrayList<>(notes.get(s));
        all.addAll(invokes.get(s));
        return all;
    }

    boolean isCluster(int s) {
        return s == 0 || chart.type[s] == StateType.COMPOUND || chart.type[s] == StateType.PARALLEL;
    }

    /** The key a state is drawn with ({@code H} or {@code H*} for a history state); the machine's id for the root. */
    String title(int s) {
        if (s == 0) {
            return chart.machineId;
        }
        if (chart.type[s] == StateType.HISTORY) {
            return chart.deepHistory[s] ? "H*" : "H";
        }
        return chart.key[s];
    }

    /** The state whose box holds an edge: the nearest state holding both ends, outside either; -1 for the top. */
    int scope(Edge e) {
        if (e.to == BACK) {
            return -1;
        }
        int a = e.from;
        while (a >= 0 && !(a == e.to || chart.isDescendant(e.to, a))) {
            a = chart.parent[a];
        }
        if (a == e.from || a == e.to) {
            a = a >= 0 ? chart.parent[a] : -1;
        }
        return a;
    }

    /** The children each state invokes; their done events are transitions like any other, drawn by the style. */
    private void invocations() {
        if (chart.invokes == null) {
            return;
        }
        for (int s = 0; s < chart.size; s++) {
            for (Invocation i : chart.invokes[s]) {
                invokes.get(s).add("invoke " + i.id + ": " + i.machine.id() + (i.sameEntity ? " (same entity)" : ""));
            }
        }
    }

    // ------------------------------------------------------------------ XState style

    private void statechart() {
        Chart c = chart;
        for (int s = 0; s < c.size; s++) {
            named(s, "entry", c.entry[s]);
            named(s, "exit", c.exit[s]);
            if (c.historyDefault[s] != null) {
                edges.add(new Edge(s, c.historyDefault[s][0], "default", Kind.HISTORY_DEFAULT, -1));
            }
        }
        moveEdges();
    }

    /** One edge per target of each move the chart declares ({@link Moves}), a targetless one drawn on its source. */
    private void moveEdges() {
        Moves m = chart.moves();
        for (int i = 0; i < m.count; i++) {
            if (m.kind[i] == Moves.Kind.EVENT_HANDLER) {
                notes.get(m.source[i]).add(handlerNote(m, i));
                continue;
            }
            if (m.toBack[i]) {
                edge(m.source[i], PolledChart.BACK, m.label[i], i);
            } else if (m.targets[i].length == 0) {
                edges.add(new Edge(m.source[i], m.source[i], m.label[i] + " (targetless)", Kind.TRANSITION, i));
            }
            for (int target : m.targets[i]) {
                edge(m.source[i], target, m.label[i], i);
            }
        }
    }

    private void named(int s, String what, SelfAction<Object>[] actions) {
        List<String> names = new ArrayList<>();
        for (SelfAction<Object> a : actions) {
            String n = Named.nameOf(a);
            if (n != null) {
                names.add(n);
            }
        }
        if (!names.isEmpty()) {
            notes.get(s).add(what + " / " + String.join(", ", names));
        }
    }

    // ------------------------------------------------------------------ polled style

    private void polled() {
        PolledChart p = chart.polled;
        moveEdges();
        for (int s = 0; s < chart.size; s++) {
            if (p.update[s] != null) {
                notes.get(s).add("update");
            }
        }
    }

    private void edge(int from, int to, String label, int move) {
        if (to == PolledChart.BACK) {
            back = true;
            to = BACK;
        }
        edges.add(new Edge(from, to, label, Kind.TRANSITION, move));
    }

    // ------------------------------------------------------------------ builder style

    private void builder() {
        BuilderChart b = chart.builder;
        moveEdges();
        for (int s = 1; s < chart.size; s++) {
            List<String> lines = notes.get(s);
            if (b.duration[s] > 0) {
                lines.add("duration " + seconds(b.duration[s]) + " s");
            }
            if (b.delay[s] > 0) {
                lines.add("delay " + seconds(b.delay[s]) + " s");
            }
            if (!b.tag[s].isEmpty()) {
                lines.add("tag " + b.tag[s]);
            }
            for (Window w : b.windows[s].values()) {
                lines.add("window " + w.name() + " " + seconds(w.from()) + "-" + seconds(w.to()));
            }
            if (b.handler[s] == null) {
                lines.add("no handler");
            }
        }
    }

    /** Seconds as a game writes them: {@code 12}, {@code 0.35}; a float's own digits, not a double's. */
    static String seconds(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d);
        }
        return Double.toString(d);
    }

    static String seconds(float f) {
        if (f == Math.rint(f) && Math.abs(f) < 1e7f) {
            return Long.toString((long) f);
        }
        return Float.toString(f);
    }
}

package dev.enginestates.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.enginestates.chart.Chart;
import dev.enginestates.chart.Moves;
import dev.enginestates.declare.StateType;
import dev.enginestates.diagram.Diagrams;
import dev.enginestates.ecs.States;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which states a test class or run entered and which transitions it took, machine by machine, as
 * {@link TransitionCoverage} recorded them: a table, a JSON report, and Mermaid and DOT diagrams
 * with the untaken transitions dashed and the states never entered shaded.
 */
public final class CoverageReport {
    /**
     * One machine's coverage.
     *
     * @param machine     the machine's id
     * @param states      its states' dotted paths (history states aside), in document order
     * @param entered     those entered
     * @param transitions its transitions as reports name them ({@code "patrol –BELL→ answer"}), numbered as diagrams mark them
     * @param taken       how often each was taken, by its number
     * @param undeclared  moves no declaration names (a builder handler returning a state it was not declared to return, a
     *                    polled update or handler's choice), with how often each was seen
     */
    public record MachineCoverage(String machine, List<String> states, List<String> entered, List<String> transitions, int[] taken,
                                  Map<String, Integer> undeclared) {
        /**
         * The transitions never taken, as reports name them.
         *
         * @return the untaken transitions
         */
        public List<String> untaken() {
            List<String> out = new ArrayList<>();
            for (int m = 0; m < transitions.size(); m++) {
                if (taken[m] == 0) {
                    out.add(transitions.get(m));
                }
            }
            return out;
        }

        /**
         * The states never entered.
         *
         * @return the states never entered
         */
        public List<String> unentered() {
            List<String> out = new ArrayList<>(states);
            out.removeAll(entered);
            return out;
        }

        /**
         * The share of transitions taken, 0 to 1; the share of states entered for a machine that declares no transition.
         *
         * @return the share taken
         */
        public double transitionRatio() {
            if (transitions.isEmpty()) {
                return stateRatio();
            }
            return (double) (transitions.size() - untaken().size()) / transitions.size();
        }

        /**
         * The share of states entered, 0 to 1.
         *
         * @return the share entered
         */
        public double stateRatio() {
            return states.isEmpty() ? 1 : (double) entered.size() / states.size();
        }

        BitSet untakenBits() {
            BitSet b = new BitSet();
            for (int m = 0; m < taken.length; m++) {
                b.set(m, taken[m] == 0);
            }
            return b;
        }
    }

    private final String title;
    private final List<MachineCoverage> machines;
    private final Map<String, States<?>> drawable;

    CoverageReport(String title, List<MachineCoverage> machines, Map<String, States<?>> drawable) {
        this.title = title;
        this.machines = List.copyOf(machines);
        this.drawable = drawable;
    }

    /** One machine's coverage from what a recording saw. */
    static MachineCoverage of(SeenMoves.OfChart seen) {
        Chart c = seen.chart;
        Moves moves = c.moves();
        List<String> states = new ArrayList<>();
        List<String> entered = new ArrayList<>();
        for (int s = 1; s < c.size; s++) {
            if (c.type[s] != StateType.HISTORY) {
                states.add(c.path[s]);
                if (seen.entered.get(s)) {
                    entered.add(c.path[s]);
                }
            }
        }
        List<String> transitions = new ArrayList<>();
        for (int m = 0; m < moves.count; m++) {
            transitions.add(moves.describe(c, m));
        }
        synchronized (seen) {
            return new MachineCoverage(c.machineId, states, entered, transitions, seen.takenCount.clone(), new LinkedHashMap<>(seen.undeclared));
        }
    }

    /**
     * Every machine's coverage, in the order they were named (or first seen).
     *
     * @return the machines
     */
    public List<MachineCoverage> machines() {
        return machines;
    }

    /**
     * One machine's coverage.
     *
     * @param machineId the machine's id
     * @return its coverage
     * @throws IllegalArgumentException if the report holds no such machine
     */
    public MachineCoverage machine(String machineId) {
        for (MachineCoverage m : machines) {
            if (m.machine().equals(machineId)) {
                return m;
            }
        }
        throw new IllegalArgumentException("the coverage report (" + title + ") has no machine '" + machineId + "'; it has "
                + machines.stream().map(MachineCoverage::machine).toList());
    }

    /**
     * The report as a table: a line per machine, then the untaken transitions and states never entered.
     *
     * @return the table, one line per machine and one per untaken transition
     */
    public String table() {
        StringBuilder sb = new StringBuilder("engine-states transition coverage: ").append(title).append('\n');
        int width = 7;
        for (MachineCoverage m : machines) {
            width = Math.max(width, m.machine().length());
        }
        sb.append(String.format("  %-" + width + "s  %-16s  %s", "machine", "states entered", "transitions taken")).append('\n');
        for (MachineCoverage m : machines) {
            int t = m.transitions().size();
            sb.append(String.format("  %-" + width + "s  %-16s  %s", m.machine(),
                    m.entered().size() + "/" + m.states().size() + " " + percent(m.stateRatio()),
                    t == 0 ? "(none declared)" : (t - m.untaken().size()) + "/" + t + " " + percent(m.transitionRatio()))).append('\n');
        }
        for (MachineCoverage m : machines) {
            for (String u : m.untaken()) {
                sb.append("  ").append(m.machine()).append(": untaken ").append(u).append('\n');
            }
            for (String u : m.unentered()) {
                sb.append("  ").append(m.machine()).append(": never entered ").append(u).append('\n');
            }
            m.undeclared().forEach((move, n) -> sb.append("  ").append(m.machine()).append(": undeclared move ").append(move)
                    .append(" (").append(n).append("x)\n"));
        }
        return sb.toString();
    }

    static String percent(double ratio) {
        return Math.round(ratio * 1000) / 10.0 + "%";
    }

    /**
     * The report as JSON: for each machine its states (entered or not) and transitions (with how often each was taken).
     *
     * @return the JSON text
     */
    public String json() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (MachineCoverage m : machines) {
            Map<String, Object> j = new LinkedHashMap<>();
            j.put("machine", m.machine());
            j.put("stateRatio", m.stateRatio());
            j.put("transitionRatio", m.transitionRatio());
            List<Map<String, Object>> states = new ArrayList<>();
            for (String s : m.states()) {
                states.add(Map.of("path", s, "entered", m.entered().contains(s)));
            }
            j.put("states", states);
            List<Map<String, Object>> transitions = new ArrayList<>();
            for (int i = 0; i < m.transitions().size(); i++) {
                Map<String, Object> t = new LinkedHashMap<>();
                t.put("number", i);
                t.put("transition", m.transitions().get(i));
                t.put("taken", m.taken()[i]);
                transitions.add(t);
            }
            j.put("transitions", transitions);
            j.put("undeclaredMoves", m.undeclared());
            out.add(j);
        }
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(Map.of("report", title, "machines", out));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes {@code coverage.json}, and for each machine named to the extension
     * {@code <machine>.coverage.mmd} (Mermaid) and {@code <machine>.coverage.dot} (Graphviz), into a folder.
     *
     * @param folder the folder, made if missing
     * @return the files written
     * @throws UncheckedIOException if a file cannot be written
     */
    public List<Path> writeTo(Path folder) {
        List<Path> written = new ArrayList<>();
        try {
            Files.createDirectories(folder);
            written.add(Files.writeString(folder.resolve("coverage.json"), json(), StandardCharsets.UTF_8));
            for (MachineCoverage m : machines) {
                States<?> states = drawable.get(m.machine());
                if (states == null) {
                    continue;
                }
                String file = m.machine().replaceAll("[^A-Za-z0-9._-]", "_");
                written.add(Files.writeString(folder.resolve(file + ".coverage.mmd"),
                        Diagrams.coverageMermaid(states, m.untakenBits(), m.unentered()), StandardCharsets.UTF_8));
                written.add(Files.writeString(folder.resolve(file + ".coverage.dot"),
                        Diagrams.coverageDot(states, m.untakenBits(), m.unentered()), StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the coverage report into " + folder.toAbsolutePath() + ": " + e.getMessage(), e);
        }
        return written;
    }

    @Override
    public String toString() {
        return table();
    }
}

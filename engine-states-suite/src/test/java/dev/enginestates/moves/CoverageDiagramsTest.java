package dev.enginestates.moves;

import dev.enginestates.RandomStatecharts;
import dev.enginestates.chart.Chart;
import dev.enginestates.chart.Moves;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.StateType;
import dev.enginestates.diagram.Diagrams;
import dev.enginestates.ecs.States;
import dev.enginestates.records.Access;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code Diagrams.coverageMermaid/coverageDot} mark exactly the moves given as untaken and the
 * states given as never entered, and nothing else: without marks they are the plain diagram,
 * byte for byte.
 */
class CoverageDiagramsTest {
    private static final String UNTAKEN_DOT_STYLE = "style=dashed, color=\"#c62828\", fontcolor=\"#c62828\"";
    private static final String UNENTERED_DOT_FILL = "fillcolor=\"#ffebee\"";
    private static final int SEEDS = 60;

    /** A machine of each style per seed, the fixtures of the observer test too. */
    private static List<States<?>> machines() {
        List<States<?>> all = new ArrayList<>();
        all.add(States.of(MoveObserverTest.TOUR));
        all.add(States.of(MoveObserverTest.POLLED));
        all.add(States.of(MoveObserverTest.builder()));
        for (long seed = 1; seed <= SEEDS; seed++) {
            all.add(States.of(RandomStatecharts.statechart(seed)));
            all.add(States.of(RandomStatecharts.polled(seed)));
            all.add(States.of(RandomStatecharts.builder(seed)));
        }
        return all;
    }

    private static Chart chart(States<?> states) {
        return Access.chart(states.machine());
    }

    @Test
    void aCoverageDiagramWithoutMarksIsByteIdenticalToThePlainDiagram_everyStyle() {
        for (States<?> s : machines()) {
            assertEquals(Diagrams.mermaid(s), Diagrams.coverageMermaid(s, new BitSet(), List.of()), s.id());
            assertEquals(Diagrams.dot(s), Diagrams.coverageDot(s, new BitSet(), List.of()), s.id());
        }
    }

    @Test
    void theTourMarksItsUntakenEventAndItsUnenteredStates() {
        States<?> tour = States.of(MoveObserverTest.TOUR);
        Chart c = chart(tour);
        int go = moveNamed(c, "idle \u2013GO\u2192 busy");
        BitSet untaken = new BitSet();
        untaken.set(go);
        String mermaid = Diagrams.coverageMermaid(tour, untaken, List.of("busy", "away"));
        assertTrue(mermaid.contains("    idle --> busy : GO (untaken)\n"), mermaid);
        assertEquals(1, occurrences(mermaid, "(untaken)"), mermaid);
        assertTrue(mermaid.endsWith("    classDef unentered fill:#ffebee,stroke:#c62828,stroke-dasharray:4 2\n"
                + "    class busy,away unentered\n"), mermaid);
        String dot = Diagrams.coverageDot(tour, untaken, List.of("busy", "away"));
        assertTrue(dot.contains("    \"idle\" -> \"busy\" [label=\" GO (untaken) \", " + UNTAKEN_DOT_STYLE + "];\n"), dot);
        assertEquals(1, occurrences(dot, "(untaken)"), dot);
        assertTrue(dot.contains("\"busy\" [label=\"busy\", style=\"rounded,dashed,filled\", " + UNENTERED_DOT_FILL + ", color=\"#c62828\"];"), dot);
        assertEquals(2, occurrences(dot, UNENTERED_DOT_FILL), dot);
    }

    @Test
    void anUnenteredCompoundOrParallelStateIsMarkedInDotToo() {
        States<?> tour = States.of(MoveObserverTest.TOUR);
        String dot = Diagrams.coverageDot(tour, new BitSet(), List.of("work", "regions"));
        assertEquals(2, occurrences(dot, UNENTERED_DOT_FILL), "work and regions are drawn as clusters, and marked:\n" + dot);
    }

    @Test
    void anUntakenPolledOnHandlerIsMarkedOnItsStatesNote() {
        States<?> polled = States.of(MoveObserverTest.POLLED);
        Chart c = chart(polled);
        BitSet untaken = new BitSet();
        untaken.set(moveNamed(c, "a \u2013H / handler\u2192 (its handler's choice)"));
        String mermaid = Diagrams.coverageMermaid(polled, untaken, List.of());
        assertTrue(mermaid.contains("a : on H / handler (untaken)"), mermaid);
        String dot = Diagrams.coverageDot(polled, untaken, List.of());
        assertTrue(dot.contains("on H / handler (untaken)"), dot);
        assertEquals(1, occurrences(mermaid, "(untaken)"));
        assertEquals(1, occurrences(dot, "(untaken)"));
    }

    @Test
    void aCoverageDiagramMarksExactlyTheUntakenMovesAndUnenteredStatesAndChangesNothingElse_everyStyle() {
        SplittableRandom random = new SplittableRandom(7);
        for (States<?> s : machines()) {
            Chart c = chart(s);
            Moves m = c.moves();
            BitSet untaken = new BitSet();
            int marks = 0;
            int edges = 0;
            int clusterNotes = 0;
            for (int i = 0; i < m.count; i++) {
                if (random.nextBoolean()) {
                    untaken.set(i);
                    boolean note = m.kind[i] == Moves.Kind.EVENT_HANDLER;
                    int drawn = note || m.targets[i].length == 0 ? 1 : m.targets[i].length;
                    marks += drawn;
                    edges += note ? 0 : drawn;
                    clusterNotes += note && isCluster(c, m.source[i]) ? 1 : 0;
                }
            }
            List<String> unentered = new ArrayList<>();
            for (int st = 1; st < c.size; st++) {
                if (c.type[st] != StateType.HISTORY && random.nextInt(3) == 0) {
                    unentered.add(c.path[st]);
                }
            }
            String where = s.id() + " untaken " + untaken + " unentered " + unentered;
            String mermaid = Diagrams.coverageMermaid(s, untaken, unentered);
            String dot = Diagrams.coverageDot(s, untaken, unentered);
            // Mermaid draws no lines on a compound state's box, where a polled handler's note would go
            assertEquals(marks - clusterNotes, occurrences(mermaid, " (untaken)"), where + "\n" + mermaid);
            assertEquals(marks, occurrences(dot, " (untaken)"), where + "\n" + dot);
            assertEquals(edges, occurrences(dot, UNTAKEN_DOT_STYLE), where + "\n" + dot);
            assertEquals(unentered.size(), occurrences(dot, UNENTERED_DOT_FILL), where + "\n" + dot);
            String classLine = mermaid.lines().filter(l -> l.endsWith(" unentered") && l.startsWith("    class ")).findFirst().orElse("");
            assertEquals(unentered.size(), classLine.isEmpty() ? 0 : classLine.split(",").length, where + "\n" + mermaid);
            String unmarked = String.join("\n", mermaid.replace(" (untaken)", "").lines()
                    .filter(l -> !l.contains(" unentered")).toList()) + "\n";
            assertEquals(Diagrams.mermaid(s), unmarked, "the marks are all that differ: " + where);
        }
    }

    @Test
    void anUnenteredPathNamingNoStateIsRefusedWithADidYouMean() {
        States<?> tour = States.of(MoveObserverTest.TOUR);
        MachineException e = assertThrows(MachineException.class, () -> Diagrams.coverageMermaid(tour, new BitSet(), List.of("bsy")));
        assertTrue(e.getMessage().contains("moveTour") && e.getMessage().contains("'bsy'") && e.getMessage().contains("did you mean 'busy'"),
                e.getMessage());
        assertThrows(MachineException.class, () -> Diagrams.coverageDot(tour, new BitSet(), List.of("nowhere")));
    }

    @Test
    void anUntakenMoveNumberTheChartDoesNotHaveIsRefused() {
        States<?> tour = States.of(MoveObserverTest.TOUR);
        BitSet beyond = new BitSet();
        beyond.set(chart(tour).moves().count);
        MachineException e = assertThrows(MachineException.class, () -> Diagrams.coverageDot(tour, beyond, List.of()));
        assertTrue(e.getMessage().contains("moveTour") && e.getMessage().contains(String.valueOf(chart(tour).moves().count)), e.getMessage());
        assertFalse(e.getMessage().isBlank());
    }

    private static boolean isCluster(Chart c, int s) {
        return s == 0 || c.type[s] == StateType.COMPOUND || c.type[s] == StateType.PARALLEL;
    }

    static int moveNamed(Chart c, String described) {
        Moves m = c.moves();
        for (int i = 0; i < m.count; i++) {
            if (m.describe(c, i).equals(described)) {
                return i;
            }
        }
        throw new AssertionError("no move " + described + " in " + c.machineId);
    }

    private static int occurrences(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + part.length())) {
            n++;
        }
        return n;
    }

}

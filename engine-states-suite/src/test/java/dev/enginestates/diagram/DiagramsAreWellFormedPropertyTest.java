package dev.enginestates.diagram;

import dev.enginestates.Machine;
import dev.enginestates.RandomStatecharts;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.declare.Named;
import dev.enginestates.declare.StateType;
import dev.enginestates.records.Access;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 13, part 4: "Output must be valid": for random machines of all three declaration styles
 * ({@link RandomStatecharts}), with and without highlighted states, the Mermaid text has balanced
 * blocks, declares every state exactly once, declares every edge's ends, and keeps ids and
 * labels to what Mermaid's grammar reads; the DOT text likewise, with every state a node or a
 * cluster and every {@code lhead}/{@code ltail} naming a cluster ({@link DiagramChecks}). A
 * machine whose names hold every character the grammars treat specially comes out escaped.
 *
 * <p>Runs {@value #DEFAULT_RUNS} seeds of each style by default; {@code -Dproperty.runs=N} runs more.
 */
class DiagramsAreWellFormedPropertyTest {
    static final int DEFAULT_RUNS = 300;

    @Test
    void everyStateAndEdgeIsDrawnOnce_inWellFormedMermaidAndDot_forRandomMachinesOfEveryStyle() {
        int runs = Integer.getInteger("property.runs", DEFAULT_RUNS);
        for (int seed = 1; seed <= runs; seed++) {
            check(RandomStatecharts.statechart(seed), seed);
            check(RandomStatecharts.polled(seed).machine(), seed);
            check(RandomStatecharts.builder(seed).machine(), seed);
        }
    }

    @Test
    void namesWithCharactersTheGrammarsTreatSpecially_areEscaped() {
        Machine<List<String>> odd = oddNames();
        check(odd, 0);
        String mermaid = Diagrams.mermaid(odd);
        assertTrue(mermaid.contains("state \"default\" as s_default\n"), mermaid);
        assertTrue(mermaid.contains("state \"end\" as s_end_\n"), mermaid);
        assertTrue(mermaid.contains("state \"x_start\" as x_start_\n"), mermaid);
        assertTrue(mermaid.contains("state \"a b\" as root_a_b\n"), mermaid);
        assertTrue(mermaid.contains("state \"a_b\" as root_a_b_2\n"), "two names that read alike get two ids:\n" + mermaid);
        assertTrue(mermaid.contains("s_default --> s_end_ : GO\u2236 now, \uFF031 \uFF05\uFF05 (x)\n"), mermaid);
        assertTrue(mermaid.contains("s_end_ --> x_start_ : when x \u2039 y 'q'\n"), mermaid);
        assertTrue(mermaid.contains("s_default --> s_root : direction_LR\n"), mermaid);
        assertTrue(mermaid.contains("state \"odd 'machine' {1}\" as odd__machine___1_\n"), mermaid);
        String dot = Diagrams.dot(odd);
        assertTrue(dot.startsWith("digraph \"odd \\\"machine\\\" {1}\" {\n"), dot);
        assertTrue(dot.contains("\"root.a\\\\b\" [label=\"a\\\\b\"];"), dot);
        assertTrue(dot.contains("\"root.c:d\" [label=\"c:d\"];"), dot);
    }

    /**
     * Control characters in names (an imported JSON's "a\u0000" is one): Graphviz ended the DOT
     * string at U+0000 (a syntax error), wrote U+001B into SVG, which XML refuses, and the dropped
     * '\r' drew 'a' and 'a\r' as one node. Each is drawn as its Unicode picture.
     */
    @Test
    void controlCharactersInNames_areDrawnAsTheirPictures_andEachStateKeepsItsOwnNode() {
        String dot = Diagrams.dot(controlNames());
        for (char ch : dot.toCharArray()) {
            assertTrue(ch >= 0x20 || ch == '\n', "no control character but line breaks, found U+" + Integer.toHexString(ch) + " in:\n" + dot);
        }
        DiagramChecks.Dot d = DiagramChecks.dot(dot, 4 + 2, dot); // the four states, the root's initial dot and anchor
        assertTrue(d.nodes.containsKey("a") && d.nodes.containsKey("a\u240d"), d.nodes.keySet().toString());
        assertTrue(dot.contains("label=\"b\u2400\"") && dot.contains("label=\"c\u241b\u2409\""), dot);
    }

    static Machine<List<String>> controlNames() {
        return Machine.define("ctl", ArrayList::new, m -> m
                .initial("a")
                .state("a", s -> s.on("GO", "a\r"))
                .state("a\r", s -> s.on("GO", "b\u0000"))
                .state("b\u0000", s -> s.on("GO", "c\u001b\t"))
                .state("c\u001b\t"));
    }

    /**
     * Mermaid reads its whole text before its grammar does: "%%{...}%%" anywhere is a directive,
     * taken as configuration and cut out (an unclosed "%%{x" cuts everything after it), "#name;"
     * is an entity, and a title's "<b>" is HTML. A state or machine named so lost its name or the
     * rest of the diagram; titles and the header comment now write those characters as the edge
     * labels already did.
     */
    @Test
    void mermaidTitles_carryNoDirectiveEntityOrHtml_soTheNameShowsAndTheRestOfTheDiagramStays() {
        Machine<List<String>> m = Machine.define("m%%{x", ArrayList::new, d -> d
                .initial("%%{init: {}}%%")
                .state("%%{init: {}}%%", s -> s.on("GO", "a#quot;"))
                .state("a#quot;", s -> s.on("GO", "<b>bold</b>"))
                .state("<b>bold</b>"));
        String mermaid = Diagrams.mermaid(m);
        DiagramChecks.Mermaid read = DiagramChecks.mermaid(mermaid, 4, mermaid);
        assertEquals(3, read.edges.size(), mermaid);
        for (String line : mermaid.split("\n")) {
            String body = line.strip().startsWith("%% ") ? line.strip().substring(3) : line;
            assertFalse(body.contains("%%") || body.contains("<") || body.contains(">") && !body.contains("-->")
                    || body.matches(".*#\\w+;.*"), "line <" + line + "> in:\n" + mermaid);
        }
        assertTrue(mermaid.contains("%% machine 'm\uFF05\uFF05{x', XState-style\n"), mermaid);
        assertTrue(read.titles.containsValue("\uFF05\uFF05{init: {}}\uFF05\uFF05"), read.titles.toString());
        assertTrue(read.titles.containsValue("a\uFF03quot;"), read.titles.toString());
        assertTrue(read.titles.containsValue("\u2039b\u203Abold\u2039/b\u203A"), read.titles.toString());
    }

    /** Every character the two grammars read specially, in keys, events, names and the machine's id. */
    static Machine<List<String>> oddNames() {
        return Machine.define("odd \"machine\" {1}", ArrayList::new, m -> m
                .initial("default")
                .state("default", s -> s.on("GO: now; #1 %% {x}", "end").on("direction LR", "root"))
                .state("end", s -> s.on("BACK", "default").when(Named.condition("x < y\n\"q\"", log -> false), "x_start"))
                .state("root", s -> s
                        .initial("a b")
                        .state("a b", a -> a.waitFor(1.5, "c:d").entry(Named.action("say \"hi\"; then: go", (log, e) -> { })))
                        .state("a_b")
                        .state("c:d", c -> c.on("Ü", "a b"))
                        .state("a\\b")
                        .history("h", HistoryDepth.DEEP))
                .state("x_start", s -> s.on("GO: now; #1 %% {x}", "#odd \"machine\" {1}"))
                .state("1st")
                .finalState("done;"));
    }

    static void check(Machine<?> machine, int seed) {
        Chart c = Access.chart(machine);
        List<String> active = new ArrayList<>();
        for (int s = c.size - 1; s > 0 && seed % 2 == 0 && active.isEmpty(); s--) {
            if (c.type[s] != StateType.HISTORY) {
                active.add(c.path[s]);
            }
        }
        Picture p = Picture.of(c, active);
        String where = "machine " + c.machineId + " (seed " + seed + ")";
        int clusters = 0;
        int starts = 0;
        int finals = 0;
        int activeStates = 0;
        for (int s = 0; s < c.size; s++) {
            clusters += p.isCluster(s) ? 1 : 0;
            starts += p.isCluster(s) && c.initial[s] >= 0 ? 1 : 0;
            finals += c.type[s] == StateType.FINAL ? 1 : 0;
            activeStates += p.active[s] ? 1 : 0;
        }
        int back = p.back ? 1 : 0;

        String mermaidText = Diagrams.mermaid(machine, active);
        DiagramChecks.Mermaid mermaid = DiagramChecks.mermaid(mermaidText, c.size + back, where + "\n" + mermaidText);
        assertEquals(p.edges.size() + starts + finals, mermaid.edges.size(), where + ": every edge, initial and final arrow");
        assertEquals(clusters, mermaid.blocks.size(), where + ": a block per compound or parallel state, and the machine's");
        for (int s = 0; s < c.size; s++) {
            assertTrue(mermaid.titles.containsValue(MermaidWriter.label(p.title(s))), where + ": " + c.describe(s) + " is drawn");
        }
        assertEquals(activeStates, mermaid.classes.getOrDefault("active", List.of()).size(), where + ": the active states");

        String dotText = Diagrams.dot(machine, active);
        DiagramChecks.Dot dot = DiagramChecks.dot(dotText, c.size - clusters + clusters + starts + back, where + "\n" + dotText);
        assertEquals(clusters, dot.clusters.size(), where + ": a cluster per compound or parallel state, and the machine's");
        for (int s = 0; s < c.size; s++) {
            assertTrue(p.isCluster(s) ? dot.clusters.contains(s == 0 ? "cluster #root" : "cluster " + c.path[s])
                    : dot.nodes.containsKey(c.path[s]), where + ": " + c.describe(s) + " is drawn");
        }
        assertEquals(p.edges.size() + starts, dot.edges.size(), where + ": every edge and initial arrow");
    }
}

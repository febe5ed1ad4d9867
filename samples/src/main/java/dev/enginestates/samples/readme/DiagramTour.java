package dev.enginestates.samples.readme;

import dev.enginestates.Machine;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.declare.Named;
import dev.enginestates.diagram.Diagrams;
import dev.enginestates.xstate.XStateExport;
import dev.enginestates.xstate.XStateImport;

import java.util.List;

/**
 * The README's "Diagrams and XState export" code, compiled: {@code ReadmeCodeTest} checks the
 * block line for line, and {@code DiagramReadmeTest} checks that the README's diagram and JSON
 * are what this code prints.
 */
public final class DiagramTour {
    private DiagramTour() {
    }

    /** The guard's context. */
    public static final class Guard { public int bells; }

    /** The guard of the tour, its entry action named. */
    public static final Machine<Guard> GUARD = Machine.define("guard", Guard::new, m -> m
        .initial("patrol")
        .state("patrol", p -> p
            .initial("watch")
            .state("watch", s -> s.waitFor(4, "rest"))
            .state("rest", s -> s.waitFor(10, "watch"))
            .history("resumed", HistoryDepth.DEEP)
            .on("BELL", "answer"))
        .state("answer", s -> s
            .entry(Named.action("countBell", (guard, e) -> guard.bells++))   // named as XState names it
            .on("RESUME", "patrol.resumed")
            .on("RESTART", "patrol")));

    /**
     * What the README's block makes.
     *
     * @param mermaid the guard's Mermaid diagram
     * @param dot     its DOT digraph, the watch highlighted
     * @param json    its XState JSON
     * @param back    the guard imported from that JSON
     */
    public record Drawn(String mermaid, String dot, String json, Machine<Guard> back) { }

    /**
     * Runs the README's block.
     *
     * @return the diagrams, the JSON and the machine read back from it
     */
    public static Drawn draw() {
        String mermaid = Diagrams.mermaid(GUARD);                       // Mermaid's stateDiagram-v2, drawn below
        String dot = Diagrams.dot(GUARD, List.of("patrol.watch"));       // Graphviz DOT, the watch highlighted
        XStateExport<Guard> export = XStateExport.of(GUARD);
        String json = export.json();                                     // XState v5's config, on the XState page
        Machine<Guard> back = XStateImport.withContext(Guard::new)      // the same chart again, through the same names
            .implementations(export)
            .parse(json);
        return new Drawn(mermaid, dot, json, back);
    }
}

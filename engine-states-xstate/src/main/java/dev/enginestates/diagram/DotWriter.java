package dev.enginestates.diagram;

import dev.enginestates.chart.Chart;
import dev.enginestates.declare.StateType;

/**
 * Draws a {@link Picture} as a Graphviz DOT digraph: compound and parallel states (and the
 * machine itself) are clusters, a parallel state's regions dashed clusters inside it. A state
 * is named by its path and a pseudo-node by a name starting with {@code #}, which no path can.
 * An edge to or from a cluster runs to the cluster's border ({@code compound=true} with
 * {@code lhead}/{@code ltail}) from an invisible point inside it; an edge from a cluster to a
 * state inside it (the machine's own transitions, say) starts at that point.
 */
final class DotWriter {
    private static final String INDENT = "    ";
    private static final String UNTAKEN_EDGE = "style=dashed, color=\"#c62828\", fontcolor=\"#c62828\"";
    private static final String UNENTERED_NODE = "style=\"rounded,dashed,filled\", fillcolor=\"#ffebee\", color=\"#c62828\"";
    private static final String ACTIVE_NODE = "style=\"rounded,filled\", fillcolor=\"#ffe082\", penwidth=2";

    private final Picture p;
    private final Chart c;
    private final StringBuilder out = new StringBuilder();

    private DotWriter(Picture p) {
        this.p = p;
        this.c = p.chart;
    }

    static String write(Picture p) {
        return new DotWriter(p).draw();
    }

    private String draw() {
        out.append("digraph ").append(quote(c.machineId)).append(" {\n");
        out.append(INDENT).append("// machine ").append(quote(c.machineId)).append(", ").append(p.styleName()).append('\n');
        if (p.caveat() != null) {
            out.append(INDENT).append("// ").append(p.caveat()).append('\n');
        }
        out.append(INDENT).append("compound=true;\n");
        // the older ranking fails ("trouble in init_rank") on some edges between clusters; the newer does not
        out.append(INDENT).append("newrank=true;\n");
        out.append(INDENT).append("rankdir=LR;\n");
        out.append(INDENT).append("node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=11];\n");
        out.append(INDENT).append("edge [fontname=\"Helvetica\", fontsize=9];\n");
        declare(0, 1, false);
        if (p.back) {
            out.append(INDENT).append(quote("#back")).append(" [shape=circle, style=dashed, label=\"$back\"];\n");
        }
        for (int s = 0; s < c.size; s++) {
            if (p.isCluster(s) && c.initial[s] >= 0) {
                edge(start(s), c.initial[s], s, "");
            }
        }
        for (Picture.Edge e : p.edges) {
            StringBuilder attrs = new StringBuilder();
            if (!e.label().isEmpty()) {
                attrs.append("label=").append(quote(" " + e.label() + (p.isUntaken(e) ? " (untaken)" : "") + " "));
            }
            if (p.isUntaken(e)) {
                attrs.append(attrs.length() > 0 ? ", " : "").append(UNTAKEN_EDGE);
            }
            if (e.kind() == Picture.Kind.HISTORY_DEFAULT) {
                attrs.append(attrs.length() > 0 ? ", " : "").append("style=dashed");
            }
            int from = e.from();
            String tail = p.isCluster(from) ? anchor(from) : id(from);
            if (p.isCluster(from) && e.to() != from && (e.to() == Picture.BACK || !c.isDescendant(e.to(), from))) {
                attrs.append(attrs.length() > 0 ? ", " : "").append("ltail=").append(quote(cluster(from)));
            }
            edge(tail, e.to(), e.to() == from ? null : from, attrs.toString());
        }
        out.append("}\n");
        return out.toString();
    }

    /** An edge from {@code tail} to state {@code to}, clipped at {@code to}'s border when it is a cluster {@code from} is outside. */
    private void edge(String tail, int to, Integer from, String attrs) {
        String head;
        StringBuilder a = new StringBuilder(attrs);
        if (to == Picture.BACK) {
            head = "#back";
        } else if (p.isCluster(to)) {
            head = anchor(to);
            if (from != null && !c.isDescendant(from, to)) {
                a.append(a.length() > 0 ? ", " : "").append("lhead=").append(quote(cluster(to)));
            }
        } else {
            head = id(to);
        }
        out.append(INDENT).append(quote(tail)).append(" -> ").append(quote(head));
        if (a.length() > 0) {
            out.append(" [").append(a).append(']');
        }
        out.append(";\n");
    }

    private void declare(int s, int depth, boolean region) {
        if (!p.isCluster(s)) {
            pad(depth).append(quote(id(s))).append(" [").append(nodeAttributes(s)).append("];\n");
            return;
        }
        pad(depth).append("subgraph ").append(quote(cluster(s))).append(" {\n");
        StringBuilder title = new StringBuilder(p.title(s));
        if (c.type[s] == StateType.PARALLEL) {
            title.append(" (parallel)");
        }
        for (String note : p.lines(s)) {
            title.append('\n').append(note);
        }
        pad(depth + 1).append("label=").append(quote(title.toString())).append(";\n");
        String style = region ? "dashed" : "rounded";
        if (p.active[s]) {
            pad(depth + 1).append("style=\"").append(style).append(",filled\";\n");
            pad(depth + 1).append("fillcolor=\"#fff8e1\";\n");
            pad(depth + 1).append("penwidth=2;\n");
        } else if (p.unentered != null && p.unentered[s]) {
            // a compound or parallel state is a cluster, not a node: shaded as an unentered node is
            pad(depth + 1).append("style=\"").append(region ? "dashed" : "rounded,dashed").append(",filled\";\n");
            pad(depth + 1).append("fillcolor=\"#ffebee\";\n");
            pad(depth + 1).append("color=\"#c62828\";\n");
        } else {
            pad(depth + 1).append("style=").append(style).append(";\n");
        }
        if (c.initial[s] >= 0) {
            pad(depth + 1).append(quote(start(s))).append(" [shape=point, width=0.12, label=\"\"];\n");
        }
        pad(depth + 1).append(quote(anchor(s))).append(" [shape=point, style=invis, width=0.01, label=\"\"];\n");
        boolean parallel = c.type[s] == StateType.PARALLEL;
        for (int child : c.children[s]) {
            declare(child, depth + 1, parallel && c.type[child] != StateType.HISTORY);
        }
        pad(depth).append("}\n");
    }

    private String nodeAttributes(int s) {
        StringBuilder a = new StringBuilder();
        if (c.type[s] == StateType.HISTORY) {
            return a.append("shape=circle, style=dashed, label=").append(quote(p.title(s))).toString();
        }
        StringBuilder label = new StringBuilder(p.title(s));
        for (String note : p.lines(s)) {
            label.append('\n').append(note);
        }
        a.append("label=").append(quote(label.toString()));
        if (c.type[s] == StateType.FINAL) {
            a.append(", peripheries=2");
        }
        if (p.active[s]) {
            a.append(", ").append(ACTIVE_NODE);
        } else if (p.unentered != null && p.unentered[s]) {
            a.append(", ").append(UNENTERED_NODE);
        }
        return a.toString();
    }

    private String id(int s) {
        return c.path[s];
    }

    /** The invisible point inside a cluster that its edges leave from and arrive at, clipped at its border. */
    private String anchor(int s) {
        return "#anchor:" + c.path[s];
    }

    /** A compound state's initial dot. */
    private String start(int s) {
        return "#init:" + c.path[s];
    }

    private String cluster(int s) {
        return s == 0 ? "cluster #root" : "cluster " + c.path[s];
    }

    private StringBuilder pad(int depth) {
        for (int i = 0; i < depth; i++) {
            out.append(INDENT);
        }
        return out;
    }

    /**
     * A DOT string: quotes and backslashes escaped, a line break as {@code \n}, any other control
     * character as its Unicode picture ({@code U+0000} as {@code U+2400}): Graphviz ends a string at
     * {@code U+0000} and writes the rest into SVG, where XML allows none of them, and a dropped one
     * would give two states one node.
     */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"': sb.append("\\\""); break;
                case '\\': sb.append("\\\\"); break;
                case '\n': sb.append("\\n"); break;
                default: sb.append(ch < 0x20 ? (char) (0x2400 + ch) : ch);
            }
        }
        return sb.append('"').toString();
    }
}

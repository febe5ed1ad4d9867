package dev.enginestates.diagram;

import dev.enginestates.chart.Chart;
import dev.enginestates.declare.StateType;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Draws a {@link Picture} as Mermaid's {@code stateDiagram-v2}. The machine is one composite
 * state named after it, so the machine's own transitions have a box to leave from. Every state
 * is declared inside its parent's block before any edge names it (Mermaid keeps a state where
 * it first meets it), and each edge is written in the block of the nearest state holding both
 * its ends. A composite state takes no description in Mermaid, so its notes show only in DOT.
 */
final class MermaidWriter {
    private static final String INDENT = "    ";
    private static final Set<String> RESERVED = Set.of("root", "state", "note", "class", "classdef", "direction", "scale",
            "end", "as", "hide", "click", "style", "acctitle", "accdescr", "statediagram", "linkstyle");
    private static final Pattern DIRECTION = Pattern.compile("(?i)direction(\\s+)(tb|bt|rl|lr)");

    private final Picture p;
    private final Chart c;
    private final String[] id;
    private final String backId;
    /** By state, the ids of the nodes that show, in a composite state's block, the children it invokes. */
    private final String[][] invokeIds;
    private final StringBuilder out = new StringBuilder();
    private final List<List<Picture.Edge>> byScope = new ArrayList<>();
    private final List<Picture.Edge> topEdges = new ArrayList<>();

    private MermaidWriter(Picture p) {
        this.p = p;
        this.c = p.chart;
        Set<String> used = new HashSet<>();
        id = new String[c.size];
        id[0] = unique(safeId(c.machineId), used);
        for (int s = 1; s < c.size; s++) {
            id[s] = unique(safeId(c.path[s]), used);
        }
        backId = unique("back", used);
        invokeIds = new String[c.size][];
        for (int s = 0; s < c.size; s++) {
            int n = p.isCluster(s) ? p.invokes.get(s).size() : 0;
            invokeIds[s] = new String[n];
            for (int i = 0; i < n; i++) {
                invokeIds[s][i] = unique(safeId((s == 0 ? c.machineId : c.path[s]) + "_invoke"), used);
            }
        }
        for (int s = 0; s < c.size; s++) {
            byScope.add(new ArrayList<>());
        }
        for (Picture.Edge e : p.edges) {
            int scope = p.scope(e);
            (scope < 0 ? topEdges : byScope.get(scope)).add(e);
        }
    }

    static String write(Picture p) {
        return new MermaidWriter(p).draw();
    }

    private String draw() {
        out.append("stateDiagram-v2\n");
        out.append(INDENT).append("%% machine ").append(comment(c.machineId)).append(", ").append(p.styleName()).append('\n');
        if (p.caveat() != null) {
            out.append(INDENT).append("%% ").append(p.caveat()).append('\n');
        }
        declare(0, 1);
        if (p.back) {
            out.append(INDENT).append("state \"$back\" as ").append(backId).append('\n');
        }
        for (Picture.Edge e : topEdges) {
            edge(e, 1);
        }
        List<String> history = new ArrayList<>();
        List<String> active = new ArrayList<>();
        for (int s = 1; s < c.size; s++) {
            if (c.type[s] == StateType.HISTORY) {
                history.add(id[s]);
            }
            if (p.active[s]) {
                active.add(id[s]);
            }
        }
        if (p.back) {
            history.add(backId);
        }
        List<String> invoked = new ArrayList<>();
        for (String[] ids : invokeIds) {
            invoked.addAll(List.of(ids));
        }
        if (!invoked.isEmpty()) {
            out.append(INDENT).append("classDef invoke fill:#f4f6fb,stroke:#5c6b8a,stroke-dasharray:4 2\n");
            out.append(INDENT).append("class ").append(String.join(",", invoked)).append(" invoke\n");
        }
        if (!history.isEmpty()) {
            out.append(INDENT).append("classDef history fill:#ffffff,stroke:#666666,stroke-dasharray:3 3\n");
            out.append(INDENT).append("class ").append(String.join(",", history)).append(" history\n");
        }
        List<String> unentered = new ArrayList<>();
        for (int s = 1; p.unentered != null && s < c.size; s++) {
            if (p.unentered[s]) {
                unentered.add(id[s]);
            }
        }
        if (!unentered.isEmpty()) {
            out.append(INDENT).append("classDef unentered fill:#ffebee,stroke:#c62828,stroke-dasharray:4 2\n");
            out.append(INDENT).append("class ").append(String.join(",", unentered)).append(" unentered\n");
        }
        if (!active.isEmpty()) {
            out.append(INDENT).append("classDef active fill:#ffe082,stroke:#f57f17,stroke-width:2px\n");
            out.append(INDENT).append("class ").append(String.join(",", active)).append(" active\n");
        }
        return out.toString();
    }

    private void declare(int s, int depth) {
        String title = label(p.title(s));
        // a bare id followed by a description line loses its title in Mermaid: the line replaces it
        List<String> lines = p.lines(s);
        if (!title.equals(id[s]) || !p.isCluster(s) && !lines.isEmpty()) {
            line(depth).append("state \"").append(title).append("\" as ").append(id[s]).append('\n');
        } else if (!p.isCluster(s)) {
            line(depth).append(id[s]).append('\n');
        }
        if (!p.isCluster(s)) {
            for (String note : lines) {
                String text = text(note);
                if (!text.isEmpty()) {
                    line(depth).append(id[s]).append(" : ").append(text).append('\n');
                }
            }
            return;
        }
        line(depth).append("state ").append(id[s]).append(" {\n");
        boolean parallel = c.type[s] == StateType.PARALLEL;
        int[] regular = c.regularChildren[s];
        for (int i = 0; i < regular.length; i++) {
            if (parallel && i > 0) {
                line(depth + 1).append("--\n");
            }
            declare(regular[i], depth + 1);
        }
        for (int h : c.historyChildren[s]) {
            declare(h, depth + 1);
        }
        // a composite state takes no description, so the children it invokes are dashed nodes in its block
        for (int i = 0; i < invokeIds[s].length; i++) {
            line(depth + 1).append("state \"").append(label(text(p.invokes.get(s).get(i)))).append("\" as ")
                    .append(invokeIds[s][i]).append('\n');
        }
        if (c.initial[s] >= 0) {
            line(depth + 1).append("[*] --> ").append(id[c.initial[s]]).append('\n');
        }
        for (int child : regular) {
            if (c.type[child] == StateType.FINAL) {
                line(depth + 1).append(id[child]).append(" --> [*]\n");
            }
        }
        for (Picture.Edge e : byScope.get(s)) {
            edge(e, depth + 1);
        }
        line(depth).append("}\n");
    }

    private void edge(Picture.Edge e, int depth) {
        String to = e.to() == Picture.BACK ? backId : id[e.to()];
        StringBuilder sb = line(depth).append(id[e.from()]).append(" --> ").append(to);
        String text = text(p.isUntaken(e) ? e.label() + " (untaken)" : e.label());
        if (!text.isEmpty()) {
            sb.append(" : ").append(text);
        }
        sb.append('\n');
    }

    private StringBuilder line(int depth) {
        for (int i = 0; i < depth; i++) {
            out.append(INDENT);
        }
        return out;
    }

    // ------------------------------------------------------------------ what Mermaid's grammar allows

    /** An id of word characters that no keyword of the grammar and no start or end node of a block can take. */
    static String safeId(String name) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char ch = name.charAt(i);
            sb.append(ch < 128 && (Character.isLetterOrDigit(ch) || ch == '_') ? ch : '_');
        }
        String s = sb.length() == 0 ? "s" : sb.toString();
        String lower = s.toLowerCase(Locale.ROOT);
        if (Character.isDigit(s.charAt(0)) || lower.startsWith("default") || RESERVED.contains(lower)) {
            s = "s_" + s;
        }
        // Mermaid names a block's [*] nodes <block id>_start and _end
        lower = s.toLowerCase(Locale.ROOT);
        if (lower.endsWith("_start") || lower.endsWith("_end")) {
            s = s + "_";
        }
        return s;
    }

    private static String unique(String base, Set<String> used) {
        String s = base;
        for (int k = 2; !used.add(s); k++) {
            s = base + "_" + k;
        }
        return s;
    }

    /**
     * A state's title inside {@code "..."}: no quote, no line break, and none of what Mermaid reads
     * in its whole text before its grammar does, quotes or not: {@code %%} (a directive, cut out with
     * the rest of the text when unclosed), {@code #name;} (an entity) and {@code <tag>} (HTML).
     */
    static String label(String s) {
        return s.replace('"', '\'').replace('\n', ' ').replace('\r', ' ')
                .replace('%', '\uFF05').replace('#', '\uFF03').replace('<', '\u2039').replace('>', '\u203A');
    }

    /** Text after {@code :} (an edge's label, a state's line): Mermaid ends it at {@code :} or {@code ;}. */
    static String text(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case ':': sb.append('\u2236'); break;
                case ';': sb.append(','); break;
                case '#': sb.append('\uFF03'); break;
                case '%': sb.append('\uFF05'); break;
                case '{': sb.append('('); break;
                case '}': sb.append(')'); break;
                case '<': sb.append('\u2039'); break;
                case '>': sb.append('\u203A'); break;
                case '"': sb.append('\''); break;
                case '\n': case '\r': case '\t': sb.append(' '); break;
                default: sb.append(ch);
            }
        }
        return DIRECTION.matcher(sb.toString().strip()).replaceAll("direction_$2");
    }

    /** The machine's id in a comment, which Mermaid still reads for directives: no {@code %}, no line break. */
    private static String comment(String s) {
        return "'" + s.replace('\n', ' ').replace('\r', ' ').replace('%', '\uFF05') + "'";
    }
}

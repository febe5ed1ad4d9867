package dev.enginestates.diagram;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What makes a diagram's text valid, read line by line as the writers write it: braces
 * balanced, every state declared exactly once, every edge's ends declared, ids and labels in
 * the characters each grammar allows. Each method returns what it read, for more assertions.
 */
final class DiagramChecks {
    private static final Pattern M_LABELLED = Pattern.compile("state \"([^\"]*)\" as (\\S+)");
    private static final Pattern M_BLOCK = Pattern.compile("state (\\S+) \\{");
    private static final Pattern M_EDGE = Pattern.compile("(\\S+) --> (\\S+)(?: : (.*))?");
    private static final Pattern M_DESCRIPTION = Pattern.compile("(\\S+) : (.*)");
    private static final Pattern M_CLASS = Pattern.compile("class (\\S+) (\\w+)");
    private static final Pattern M_ID = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Set<String> M_RESERVED = Set.of("root", "state", "note", "class", "classdef", "direction", "scale",
            "end", "as", "hide", "click", "style", "acctitle", "accdescr", "statediagram", "linkstyle");

    private static final String Q = "\"((?:[^\"\\\\]|\\\\.)*)\"";
    private static final Pattern D_GRAPH = Pattern.compile("digraph " + Q + " \\{");
    private static final Pattern D_SUBGRAPH = Pattern.compile("subgraph " + Q + " \\{");
    private static final Pattern D_NODE = Pattern.compile(Q + " \\[(.*)\\];");
    private static final Pattern D_EDGE = Pattern.compile(Q + " -> " + Q + "(?: \\[(.*)\\])?;");
    private static final Pattern D_ATTRIBUTE = Pattern.compile("[a-z]+=(?:" + Q + "|[A-Za-z0-9.]+);");
    private static final Pattern D_DEFAULTS = Pattern.compile("(?:node|edge) \\[.*\\];");
    private static final Pattern D_CLUSTER_REF = Pattern.compile("l(?:tail|head)=" + Q);

    private DiagramChecks() {
    }

    /** What a Mermaid text declares. */
    static final class Mermaid {
        final Map<String, String> titles = new HashMap<>();
        final Set<String> blocks = new HashSet<>();
        final List<String[]> edges = new ArrayList<>();
        final Map<String, List<String>> descriptions = new HashMap<>();
        final Map<String, List<String>> classes = new HashMap<>();
    }

    static Mermaid mermaid(String text, int states, String where) {
        String[] lines = text.split("\n", -1);
        assertEquals("stateDiagram-v2", lines[0], where + ": the header");
        assertEquals("", lines[lines.length - 1], where + ": ends with a line break");
        Mermaid m = new Mermaid();
        Map<String, Integer> declared = new HashMap<>();
        int depth = 0;
        boolean inParallelBlock = false;
        for (int i = 1; i < lines.length - 1; i++) {
            String line = lines[i].strip();
            String at = where + ", line " + (i + 1) + " <" + lines[i] + ">";
            assertFalse(line.isEmpty(), at + ": no blank lines");
            Matcher x;
            if (line.startsWith("%%")) {
                assertFalse(line.startsWith("%%{"), at + ": a comment, not a directive");
            } else if (line.equals("}")) {
                depth--;
                assertTrue(depth >= 0, at + ": a brace closes an open block");
            } else if (line.equals("--")) {
                assertTrue(depth > 0, at + ": regions are separated inside a block");
                inParallelBlock = true;
            } else if ((x = M_LABELLED.matcher(line)).matches()) {
                declared.merge(x.group(2), 1, Integer::sum);
                m.titles.put(x.group(2), x.group(1));
            } else if ((x = M_BLOCK.matcher(line)).matches()) {
                assertTrue(m.blocks.add(x.group(1)), at + ": one block per state");
                if (!m.titles.containsKey(x.group(1))) {
                    declared.merge(x.group(1), 1, Integer::sum);
                    m.titles.put(x.group(1), x.group(1));
                }
                depth++;
            } else if ((x = M_EDGE.matcher(line)).matches()) {
                m.edges.add(new String[] {x.group(1), x.group(2), x.group(3)});
                if (x.group(3) != null) {
                    text(x.group(3), at);
                }
            } else if ((x = M_CLASS.matcher(line)).matches()) {
                for (String id : x.group(1).split(",")) {
                    m.classes.computeIfAbsent(x.group(2), k -> new ArrayList<>()).add(id);
                }
            } else if (line.startsWith("classDef ")) {
                assertTrue(line.matches("classDef \\w+ [^;]+"), at);
            } else if ((x = M_DESCRIPTION.matcher(line)).matches()) {
                text(x.group(2), at);
                m.descriptions.computeIfAbsent(x.group(1), k -> new ArrayList<>()).add(x.group(2));
            } else if (M_ID.matcher(line).matches()) {
                declared.merge(line, 1, Integer::sum);
                m.titles.put(line, line);
            } else {
                fail(at + ": not a line of stateDiagram-v2 as written here");
            }
        }
        assertEquals(0, depth, where + ": every block is closed");
        for (Map.Entry<String, Integer> e : declared.entrySet()) {
            assertEquals(1, e.getValue(), where + ": state " + e.getKey() + " is declared once");
            id(e.getKey(), where);
        }
        assertEquals(states, declared.size(), where + ": every state is declared: " + declared.keySet());
        for (String[] e : m.edges) {
            for (int k = 0; k < 2; k++) {
                assertTrue(e[k].equals("[*]") || declared.containsKey(e[k]), where + ": edge " + e[0] + " --> " + e[1]
                        + " names a declared state");
            }
        }
        for (String id : m.descriptions.keySet()) {
            assertTrue(declared.containsKey(id), where + ": a description of a declared state: " + id);
            assertFalse(m.blocks.contains(id), where + ": Mermaid takes no description on a composite state: " + id);
            assertTrue(!m.titles.get(id).equals(id) || text.contains("state \"" + id + "\" as " + id),
                    where + ": a described state is declared with its title, else the description replaces it: " + id);
        }
        for (List<String> ids : m.classes.values()) {
            for (String id : ids) {
                assertTrue(declared.containsKey(id), where + ": a class on a declared state: " + id);
            }
        }
        assertFalse(inParallelBlock && !text.contains("{"), where);
        return m;
    }

    /** An id Mermaid's lexer reads as one: word characters, no keyword, not a block's start or end node. */
    private static void id(String id, String where) {
        assertTrue(M_ID.matcher(id).matches(), where + ": id <" + id + "> is made of word characters");
        String lower = id.toLowerCase(Locale.ROOT);
        assertFalse(lower.startsWith("default") || M_RESERVED.contains(lower), where + ": id <" + id + "> is no keyword");
        assertFalse(lower.endsWith("_start") || lower.endsWith("_end"), where + ": id <" + id + "> is no block's [*] node");
    }

    /** Text after a colon: Mermaid ends it at a colon, a semicolon or a line break. */
    private static void text(String t, String where) {
        assertFalse(t.isBlank(), where + ": text is not blank");
        for (char ch : new char[] {':', ';', '#', '%', '{', '}', '"', '<', '>', '\t'}) {
            assertTrue(t.indexOf(ch) < 0, where + ": text <" + t + "> has no '" + ch + "'");
        }
        assertFalse(t.toLowerCase(Locale.ROOT).matches(".*direction\\s+(tb|bt|rl|lr).*"), where + ": text <" + t + "> sets no direction");
    }

    /** What a DOT text declares. */
    static final class Dot {
        final Map<String, String> nodes = new HashMap<>();
        final Set<String> clusters = new HashSet<>();
        final List<String[]> edges = new ArrayList<>();
        final Map<String, String> clusterLabels = new HashMap<>();
    }

    static Dot dot(String text, int nodes, String where) {
        String[] lines = text.split("\n", -1);
        assertTrue(D_GRAPH.matcher(lines[0]).matches(), where + ": the header: " + lines[0]);
        assertEquals("}", lines[lines.length - 2], where + ": the graph is closed");
        assertEquals("", lines[lines.length - 1], where + ": ends with a line break");
        Dot d = new Dot();
        List<String> open = new ArrayList<>();
        for (int i = 1; i < lines.length - 2; i++) {
            String line = lines[i].strip();
            String at = where + ", line " + (i + 1) + " <" + lines[i] + ">";
            Matcher x;
            if (line.startsWith("//")) {
                continue;
            } else if (line.equals("}")) {
                assertFalse(open.isEmpty(), at + ": a brace closes an open subgraph");
                open.remove(open.size() - 1);
            } else if ((x = D_SUBGRAPH.matcher(line)).matches()) {
                assertTrue(x.group(1).startsWith("cluster "), at + ": a subgraph is a cluster");
                assertTrue(d.clusters.add(x.group(1)), at + ": one subgraph per cluster");
                open.add(x.group(1));
            } else if ((x = D_EDGE.matcher(line)).matches()) {
                d.edges.add(new String[] {unquote(x.group(1)), unquote(x.group(2)), x.group(3) == null ? "" : x.group(3)});
            } else if ((x = D_NODE.matcher(line)).matches()) {
                assertFalse(d.nodes.containsKey(unquote(x.group(1))), at + ": node " + x.group(1) + " is declared once");
                d.nodes.put(unquote(x.group(1)), x.group(2));
            } else if ((x = D_ATTRIBUTE.matcher(line)).matches()) {
                if (line.startsWith("label=") && !open.isEmpty()) {
                    d.clusterLabels.put(open.get(open.size() - 1), unquote(x.group(1)));
                }
            } else if (!D_DEFAULTS.matcher(line).matches()) {
                fail(at + ": not a line of DOT as written here");
            }
        }
        assertTrue(open.isEmpty(), where + ": every subgraph is closed: " + open);
        assertEquals(nodes, d.nodes.size(), where + ": every node is declared: " + d.nodes.keySet());
        for (String[] e : d.edges) {
            assertTrue(d.nodes.containsKey(e[0]) && d.nodes.containsKey(e[1]), where + ": edge " + e[0] + " -> " + e[1]
                    + " joins declared nodes");
            Matcher ref = D_CLUSTER_REF.matcher(e[2]);
            while (ref.find()) {
                assertTrue(d.clusters.contains(unquote(ref.group(1))), where + ": " + ref.group() + " names a cluster");
            }
        }
        return d;
    }

    static String unquote(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '\\' && i + 1 < s.length()) {
                char next = s.charAt(++i);
                sb.append(next == 'n' ? '\n' : next);
            } else {
                sb.append(ch);
            }
        }
        return sb.toString();
    }
}

package dev.enginestates.scxml;

import dev.enginestates.Machine;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.StateType;
import dev.enginestates.records.Configurations;
import dev.enginestates.records.MachineRecord;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The sessions an SCXML session invoked, as the JSON values of its datamodel's checkpoint (its
 * {@code invoked} field), and read back. Each child is written whole: which {@code <invoke>} made it
 * (its index in the document), its invoke id, whether it still runs, the document it loaded when it
 * started ({@code srcexpr}, {@code <content expr>}), the ids of its sends waiting among the top
 * session's, its {@code namelist}/{@code <param>} values, its record's states and history by path,
 * and its own datamodel (which holds its own children in turn). The invokes about to start are
 * written by index. Reading back is strict and bounded as running is: no deeper than the invoke
 * depth, no more live sessions than the machine runs at once, no more children per session than
 * its document has {@code <invoke>}s.
 */
final class SavedSessions {
    private static final Set<String> FIELDS = Set.of("invokeCount", "sessionCount", "starting", "children");
    private static final Set<String> CHILD = Set.of("invoke", "invokeid", "alive", "done", "loadedSrc", "loadedContent", "keys",
            "delayedKeys", "initial", "states", "history", "datamodel");
    private static final Set<String> OPTIONAL = Set.of("loadedSrc", "loadedContent");

    private SavedSessions() {
    }

    /** The session's invoked children and invokes about to start, as JSON values. */
    static Map<String, Object> save(Session s) {
        Document doc = s.doc;
        List<Object> starting = new ArrayList<>();
        for (Invoke inv : s.toStart) {
            starting.add(doc.invokes.indexOf(inv));
        }
        List<Object> children = new ArrayList<>();
        for (Session c : s.children) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("invoke", doc.invokes.indexOf(c.invoke));
            out.put("invokeid", c.invokeid);
            out.put("alive", c.alive);
            out.put("done", c.host.isDone());
            if (c.loadedSrc != null) {
                out.put("loadedSrc", c.loadedSrc);
            }
            if (c.loadedContent != null) {
                out.put("loadedContent", c.loadedContent);
            }
            out.put("keys", new ArrayList<Object>(c.keys.stream().sorted().toList()));
            out.put("delayedKeys", new ArrayList<Object>(c.delayedKeys.stream().sorted().toList()));
            Map<String, Object> initial = new LinkedHashMap<>();
            c.initial.forEach((k, v) -> {
                String bad = Datamodel.notJson(v, "the <param> or namelist value '" + k + "' of the session invoked as '"
                        + c.invokeid + "'");
                if (bad != null) {
                    throw new IllegalStateException("machine '" + s.top().doc.name + "': " + bad);
                }
                initial.put(k, v);
            });
            out.put("initial", initial);
            MachineRecord r = c.host;
            Chart chart = r.chart();
            List<Object> states = new ArrayList<>();
            for (int i = 0; i < r.activeCount(); i++) {
                if (r.activeAt(i) > 0) {
                    states.add(chart.path[r.activeAt(i)]);
                }
            }
            out.put("states", states);
            Map<String, Object> history = new LinkedHashMap<>();
            for (int h = 1; h < chart.size; h++) {
                if (chart.type[h] == StateType.HISTORY && r.historySize(h) >= 0) {
                    List<Object> remembered = new ArrayList<>();
                    for (int i = 0; i < r.historySize(h); i++) {
                        remembered.add(chart.path[r.historyAt(h, i)]);
                    }
                    history.put(chart.path[h], remembered);
                }
            }
            out.put("history", history);
            out.put("datamodel", c.dm.save());
            children.add(out);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("invokeCount", s.invokes);
        out.put("sessionCount", s.spawned);
        out.put("starting", starting);
        out.put("children", children);
        return out;
    }

    /** What {@link #read} made, put into the session by {@link #into} once the rest of its datamodel was read. */
    record Read(long invokeCount, long sessionCount, List<Invoke> starting, List<Session> children) {
        void into(Session s) {
            s.invokes = invokeCount;
            s.spawned = sessionCount;
            s.toStart.clear();
            s.toStart.addAll(starting);
            s.children.clear();
            s.children.addAll(children);
        }
    }

    /** Nothing invoked: what a datamodel saved without the field reads as. */
    static final Read NONE = new Read(0, 0, List.of(), List.of());

    /**
     * Reads what {@link #save} gave for {@code parent}, making its children (their datamodels read back in turn);
     * {@code parent} itself is not changed.
     *
     * @param parentId the session id {@code parent} is restored with: its children's ids are numbered under it
     * @throws IllegalArgumentException naming the field (under {@code invoked}) and what was expected
     */
    static Read read(Session parent, String parentId, Object saved) {
        Document doc = parent.doc;
        String machine = "machine '" + doc.name + "'";
        if (!(saved instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException("invoked: expected the sessions " + machine + " invoked, an object; found "
                    + kind(saved));
        }
        for (Object k : m.keySet()) {
            if (!FIELDS.contains(k)) {
                throw new IllegalArgumentException("invoked." + k + ": not a field of the invoked sessions; expected "
                        + FIELDS.stream().sorted().toList());
            }
        }
        for (String k : FIELDS) {
            if (!m.containsKey(k)) {
                throw new IllegalArgumentException("invoked." + k + ": missing; expected every field of the invoked sessions");
            }
        }
        Object count = m.get("invokeCount");
        if (!(count instanceof Long || count instanceof Integer) || ((Number) count).longValue() < 0) {
            throw new IllegalArgumentException("invoked.invokeCount: expected the count behind generated invoke ids, a whole"
                    + " number 0 or more; found " + kind(count));
        }
        Object started = m.get("sessionCount");
        if (!(started instanceof Long || started instanceof Integer) || ((Number) started).longValue() < 0) {
            throw new IllegalArgumentException("invoked.sessionCount: expected the count of sessions it started, a whole"
                    + " number 0 or more; found " + kind(started));
        }
        int most = doc.invokes.size();
        if (!(m.get("starting") instanceof List<?> starting) || starting.size() > most) {
            throw new IllegalArgumentException("invoked.starting: expected the invokes about to start, an array of at most "
                    + most + " (the <invoke>s of " + machine + "); found " + kind(m.get("starting")));
        }
        List<Invoke> toStart = new ArrayList<>();
        for (int i = 0; i < starting.size(); i++) {
            toStart.add(invoke(doc, starting.get(i), "invoked.starting[" + i + "]"));
        }
        if (!(m.get("children") instanceof List<?> children) || children.size() > most) {
            throw new IllegalArgumentException("invoked.children: expected the sessions it started, an array of at most "
                    + most + " (the <invoke>s of " + machine + "); found " + kind(m.get("children")));
        }
        List<Session> out = new ArrayList<>();
        Set<String> ids = new java.util.HashSet<>();
        for (int i = 0; i < children.size(); i++) {
            String at = "invoked.children[" + i + "]";
            Session c = child(parent, children.get(i), at);
            // numbered under the parent, once each: what is sent to a session by its id reaches that one only
            String n = c.id.startsWith(parentId + ".") ? c.id.substring(parentId.length() + 1) : "";
            if (!n.matches("[1-9][0-9]{0,17}") || Long.parseLong(n) > ((Number) started).longValue() || !ids.add(c.id)) {
                throw new IllegalArgumentException(at + ".datamodel.sessionid: expected '" + parentId + ".' and the number of"
                        + " the session among the " + started + " it started, once each; found \"" + c.id + "\"");
            }
            out.add(c);
        }
        return new Read(((Number) count).longValue(), ((Number) started).longValue(), toStart, out);
    }

    private static Invoke invoke(Document doc, Object index, String at) {
        if (!(index instanceof Integer || index instanceof Long) || ((Number) index).longValue() < 0
                || ((Number) index).longValue() >= doc.invokes.size()) {
            throw new IllegalArgumentException(at + ": expected the index of one of the " + doc.invokes.size()
                    + " <invoke>s of machine '" + doc.name + "', in document order; found " + kind(index));
        }
        return doc.invokes.get(((Number) index).intValue());
    }

    private static Session child(Session parent, Object saved, String at) {
        if (!(saved instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException(at + ": expected an invoked session, an object; found " + kind(saved));
        }
        for (Object k : m.keySet()) {
            if (!CHILD.contains(k)) {
                throw new IllegalArgumentException(at + "." + k + ": not a field of an invoked session; expected "
                        + CHILD.stream().sorted().toList());
            }
        }
        for (String k : CHILD) {
            if (!OPTIONAL.contains(k) && !m.containsKey(k)) {
                throw new IllegalArgumentException(at + "." + k + ": missing; expected every field of an invoked session");
            }
        }
        Invoke inv = invoke(parent.doc, m.get("invoke"), at + ".invoke");
        if (!(m.get("invokeid") instanceof String invokeid) || invokeid.isEmpty()) {
            throw new IllegalArgumentException(at + ".invokeid: expected the session's invoke id, a non-empty string; found "
                    + kind(m.get("invokeid")));
        }
        if (!(m.get("alive") instanceof Boolean alive)) {
            throw new IllegalArgumentException(at + ".alive: expected true or false; found " + kind(m.get("alive")));
        }
        Bounds bounds = parent.bounds;
        if (parent.depth + 1 >= bounds.maxDepth) {
            throw new IllegalArgumentException(at + ": a session " + (parent.depth + 2) + " levels deep, and machine '"
                    + parent.top().doc.name + "' runs at most " + bounds.maxDepth + " (ScxmlImport.invokeDepth)");
        }
        if (alive && ++bounds.restoring > bounds.maxSessions) {
            throw new IllegalArgumentException(at + ": more than " + bounds.maxSessions + " sessions running at once, its own"
                    + " included, and machine '" + parent.top().doc.name + "' runs at most " + bounds.maxSessions
                    + " (ScxmlImport.sessions)");
        }
        String loadedSrc = text(m, "loadedSrc", at, inv.srcexpr() != null, "the document its srcexpr loaded");
        String loadedContent = text(m, "loadedContent", at, inv.contentExpr() != null, "the document its <content expr> gave");
        Map<String, Object> initial = new LinkedHashMap<>();
        if (!(m.get("initial") instanceof Map<?, ?> given)) {
            throw new IllegalArgumentException(at + ".initial: expected its namelist and <param> values, an object; found "
                    + kind(m.get("initial")));
        }
        for (Map.Entry<?, ?> e : given.entrySet()) {
            String bad = Datamodel.notJson(e.getValue(), at + ".initial." + e.getKey());
            if (bad != null) {
                throw new IllegalArgumentException(bad);
            }
            initial.put((String) e.getKey(), e.getValue());
        }
        Machine<Datamodel> machine;
        try {
            machine = inv.machine(parent, loadedSrc, loadedContent);
        } catch (DatamodelException e) {
            throw new IllegalArgumentException(at + ": " + e.getMessage(), e);
        }
        Session c = inv.session(parent, machine, invokeid, initial, invokeid); // its id is its datamodel's, read below
        c.loadedSrc = loadedSrc;
        c.loadedContent = loadedContent;
        c.keys.addAll(strings(m, "keys", at));
        c.delayedKeys.addAll(strings(m, "delayedKeys", at));
        if (!c.keys.containsAll(c.delayedKeys)) {
            throw new IllegalArgumentException(at + ".delayedKeys: expected ids among its keys; found " + c.delayedKeys);
        }
        record(c.host, m, at);
        try {
            c.dm.restore(m.get("datamodel"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(at + ".datamodel." + e.getMessage(), e);
        }
        if (!alive) {
            c.alive = false;
            c.halted = true;
        }
        return c;
    }

    /** The record's status, states in entry order and history, checked to be a configuration its machine can hold. */
    private static void record(MachineRecord r, Map<?, ?> m, String at) {
        Chart chart = r.chart();
        String machine = "machine '" + chart.machineId + "'";
        if (!(m.get("done") instanceof Boolean done)) {
            throw new IllegalArgumentException(at + ".done: expected true or false; found " + kind(m.get("done")));
        }
        if (!(m.get("states") instanceof List<?> states) || states.isEmpty() || states.size() >= chart.size) {
            throw new IllegalArgumentException(at + ".states: expected the session's active states by path, in the order they"
                    + " were entered (a done session keeps its last ones), an array of 1 to " + (chart.size - 1) + "; found "
                    + kind(m.get("states")));
        }
        r.enter(0);
        for (int i = 0; i < states.size(); i++) {
            int s = state(chart, states.get(i), at + ".states[" + i + "]");
            if (r.isActive(s)) {
                throw new IllegalArgumentException(at + ".states[" + i + "]: '" + chart.path[s] + "' is given twice");
            }
            r.enter(s);
        }
        r.status(done ? MachineRecord.DONE : MachineRecord.ACTIVE);
        if (!(m.get("history") instanceof Map<?, ?> history)) {
            throw new IllegalArgumentException(at + ".history: expected what its history states remember, an object from path"
                    + " to paths; found " + kind(m.get("history")));
        }
        for (Map.Entry<?, ?> e : history.entrySet()) {
            int h = state(chart, e.getKey(), at + ".history");
            if (chart.type[h] != StateType.HISTORY || !(e.getValue() instanceof List<?> remembered)
                    || remembered.size() >= chart.size) {
                throw new IllegalArgumentException(at + ".history." + e.getKey() + ": expected a history state of " + machine
                        + " and the states it remembers, an array of paths");
            }
            r.clearHistory(h);
            for (int i = 0; i < remembered.size(); i++) {
                r.addHistory(h, state(chart, remembered.get(i), at + ".history." + e.getKey() + "[" + i + "]"));
            }
            String bad = Configurations.historyProblem(r, h);
            if (bad != null) {
                throw new IllegalArgumentException(at + ".history." + e.getKey() + ": " + bad);
            }
        }
        String bad = Configurations.problem(r);
        if (bad != null) {
            throw new IllegalArgumentException(at + ".states: " + bad);
        }
    }

    private static int state(Chart chart, Object path, String at) {
        int s = path instanceof String p ? chart.stateAt(p) : -1;
        if (s <= 0) {
            throw new IllegalArgumentException(at + ": expected a state path of machine '" + chart.machineId + "'; found "
                    + kind(path));
        }
        return s;
    }

    private static String text(Map<?, ?> m, String field, String at, boolean allowed, String what) {
        Object v = m.get(field);
        if (v == null && !m.containsKey(field)) {
            return null;
        }
        if (!allowed || !(v instanceof String s)) {
            throw new IllegalArgumentException(at + "." + field + ": expected " + what + ", a string, and only for an"
                    + " <invoke> that loads one; found " + kind(v));
        }
        return s;
    }

    private static List<String> strings(Map<?, ?> m, String field, String at) {
        if (!(m.get(field) instanceof List<?> l)) {
            throw new IllegalArgumentException(at + "." + field + ": expected the ids of its pending sends, an array of"
                    + " strings; found " + kind(m.get(field)));
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < l.size(); i++) {
            if (!(l.get(i) instanceof String s) || !s.startsWith("$")) {
                throw new IllegalArgumentException(at + "." + field + "[" + i + "]: expected the id of a pending send of the"
                        + " session, starting with '$'; found " + kind(l.get(i)));
            }
            out.add(s);
        }
        return out;
    }

    private static String kind(Object v) {
        return Datamodel.kind(v);
    }
}

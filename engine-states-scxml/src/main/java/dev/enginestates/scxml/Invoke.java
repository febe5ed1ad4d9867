package dev.enginestates.scxml;

import dev.enginestates.Machine;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * One {@code <invoke>}, compiled once per document (SCXML 6.4): what its state's entry schedules
 * and what starts the child session once the macrostep that entered the state is over.
 *
 * @param stateId     the invoking state's SCXML id
 * @param statePath   its engine path
 * @param line        the element's line, for error.execution
 * @param column      its column
 * @param type        the {@code type} attribute, or null
 * @param typeexpr    the {@code typeexpr} attribute, or null
 * @param machine     the child compiled at import (inline {@code <content>} or a static {@code src}), or null
 * @param srcexpr     the {@code srcexpr} attribute, or null
 * @param contentExpr the {@code <content expr>}, or null
 * @param id          the {@code id} attribute, or null
 * @param idlocation  the {@code idlocation} attribute, or null
 * @param namelist    the {@code namelist} names
 * @param params      the {@code <param>}s
 * @param autoforward whether every external event is forwarded to the child
 * @param finalizer   the {@code <finalize>} block, run on each event from the child before it is processed
 */
record Invoke(String stateId, String statePath, int line, int column, String type, String typeexpr,
              Machine<Datamodel> machine, String srcexpr, String contentExpr, String id, String idlocation,
              String[] namelist, Exec.Param[] params, boolean autoforward, Exec[] finalizer) {
    /** The types SCXML 6.4 names for an SCXML child (the trailing '/' is optional in practice). */
    static final Set<String> SCXML_TYPES = Set.of("http://www.w3.org/TR/scxml/", "http://www.w3.org/TR/scxml", "scxml");

    /**
     * Makes the child session from the parent's datamodel as it is now (SCXML 6.4.1: type, source,
     * id, namelist and params evaluated at start); it has not run yet. An evaluation error ends the
     * start with no child, as SCXML says.
     */
    Session create(Session parent) {
        Bounds bounds = parent.bounds;
        if (parent.depth + 1 >= bounds.maxDepth) {
            throw new DatamodelException("<invoke> in state '" + stateId + "' would start a session " + (parent.depth + 2)
                    + " levels deep, and machine '" + parent.top().doc.name + "' runs at most " + bounds.maxDepth
                    + " (ScxmlImport.invokeDepth); the sessions invoking it: " + chain(parent)
                    + ". Expected a chain of invokes that ends (does a document invoke itself?)", null);
        }
        if (bounds.sessions >= bounds.maxSessions) {
            throw new DatamodelException("<invoke> in state '" + stateId + "' would make machine '" + parent.top().doc.name
                    + "' run " + (bounds.sessions + 1) + " sessions at once, and it runs at most " + bounds.maxSessions
                    + ", its own included (ScxmlImport.sessions); expected fewer invokes running together"
                    + " (does a document invoke copies of itself?)", null);
        }
        Datamodel dm = parent.dm;
        String t = type != null ? type : typeexpr != null ? String.valueOf(dm.toJava(dm.evaluate(typeexpr))) : null;
        if (t != null && !SCXML_TYPES.contains(t)) {
            throw new DatamodelException("<invoke> type '" + t + "' is not supported: only SCXML sessions ("
                    + "http://www.w3.org/TR/scxml/)", null);
        }
        Machine<Datamodel> m = machine;
        String loadedSrc = null;
        String loadedContent = null;
        if (m == null && srcexpr != null) {
            loadedSrc = String.valueOf(dm.toJava(dm.evaluate(srcexpr)));
            m = parent.doc.load(loadedSrc, bounds);
        } else if (m == null && contentExpr != null) {
            // compiling a document costs about its length, and an expression may make a long one: spent before it is read
            loadedContent = String.valueOf(dm.toJava(dm.evaluate(contentExpr)));
            m = parent.doc.compile(loadedContent, null, bounds);
        }
        if (m == null) {
            throw new DatamodelException("<invoke> has nothing to run: expected src, srcexpr or <content>", null);
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (String n : namelist) {
            values.put(n, dm.toJava(dm.evaluate(n)));
        }
        for (Exec.Param p : params) {
            values.put(p.name(), dm.toJava(dm.evaluate(p.expr() != null ? p.expr() : p.location())));
        }
        // SCXML 6.4.1: without an id, "stateid.platformid"
        String invokeid = id != null ? id : stateId + "." + parent.id + "." + (++parent.invokes);
        if (idlocation != null) {
            dm.assign(idlocation, invokeid);
        }
        // numbered under its parent, not from the JVM's count: a world restored from a checkpoint names its next
        // children as the world that never stopped does
        Session child = session(parent, m, invokeid, values, parent.id + "." + (++parent.spawned));
        child.dm.start(child.id, child.doc.scxmlName, "#_scxml_" + child.id, child::isIn);
        child.loadedSrc = loadedSrc;
        child.loadedContent = loadedContent;
        bounds.sessions++; // until it ends or is cancelled (Session.kill)
        return child;
    }

    /**
     * A child session of {@code parent} running {@code m}, not started (a restore then puts back what it was);
     * counted by the caller.
     */
    Session session(Session parent, Machine<Datamodel> m, String invokeid, Map<String, Object> values, String sessionId) {
        Datamodel childDm = m.newContext();
        Session child = childDm.session;
        child.id = sessionId;
        child.bounds = parent.bounds;
        child.depth = parent.depth + 1;
        child.parent = parent;
        child.invokeid = invokeid;
        child.invoke = this;
        child.initial = values;
        child.host = new Invoked(m, childDm);
        return child;
    }

    /**
     * The machine of a child restored from a checkpoint: this invoke's own, or the document its {@code srcexpr} or
     * {@code <content expr>} loaded when the child started, loaded again.
     */
    Machine<Datamodel> machine(Session parent, String loadedSrc, String loadedContent) {
        if (loadedSrc != null) {
            return parent.doc.load(loadedSrc, parent.bounds);
        }
        if (loadedContent != null) {
            return parent.doc.compile(loadedContent, null, parent.bounds);
        }
        if (machine == null) {
            throw new DatamodelException("<invoke> in state '" + stateId + "' loads its document when it starts (srcexpr or"
                    + " <content expr>), and the checkpoint gives no document it loaded", null);
        }
        return machine;
    }

    /** The documents of the sessions from the top one down to {@code s}, for the depth error. */
    private static String chain(Session s) {
        StringBuilder sb = new StringBuilder();
        for (Session at = s; at != null; at = at.parent) {
            String d = "'" + at.doc.name + "'" + (at.doc.base != null ? " (" + at.doc.base + ")" : "");
            sb.insert(0, sb.length() == 0 ? d : d + " > ");
        }
        return sb.toString();
    }
}

package dev.enginestates.scxml;

import dev.enginestates.declare.Event;
import dev.enginestates.declare.Self;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/** One imported machine instance's own state beside its variables: the datamodel's {@code session}. */
final class Session {
    /** Keys of the fields the importer puts on the events it makes. */
    static final String TYPE = "scxml.type";
    static final String SENDID = "scxml.sendid";
    static final String ORIGIN = "scxml.origin";
    static final String ORIGINTYPE = "scxml.origintype";
    static final String DATA = "scxml.data";
    static final String SCXML_PROCESSOR = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor";
    private static final AtomicLong SESSIONS = new AtomicLong();

    final Document doc;
    final String id = "s" + SESSIONS.incrementAndGet();
    final Set<String> lateBound = new HashSet<>();
    final Map<String, Object> doneData = new HashMap<>();
    long sends;
    /** The machine's Self while its code runs: the In() predicate and the queue operations need it. */
    Self self;
    private Event bound;
    private boolean started;

    Session(Document doc) {
        this.doc = doc;
    }

    /** Before a piece of the machine's code runs: remembers Self and binds {@code _event} (once per event). */
    void enter(Datamodel dm, Event event, Self self) {
        this.self = self;
        if (event != bound) {
            bound = event;
            dm.bindEvent(scxmlEvent(dm, event));
        }
        if (!started) {
            // the root's first entry action on a plain machine; on an entity, whose initial entry actions
            // do not run (the 003 document), the instance's first code
            started = true;
            doc.init.accept(dm);
        }
    }

    private ScxmlEvent scxmlEvent(Datamodel dm, Event e) {
        String type = e.type();
        if (type.equals("xstate.init")) {
            return null;
        }
        Map<String, Object> f = e.fields();
        if (f.containsKey(TYPE)) {
            return new ScxmlEvent(type, (String) f.get(TYPE), (String) f.get(SENDID), (String) f.get(ORIGIN),
                    (String) f.get(ORIGINTYPE), null, f.get(DATA));
        }
        if (type.startsWith("xstate.done.state.")) {
            String state = ScxmlImport.stateId(type.substring("xstate.done.state.".length()));
            return new ScxmlEvent("done.state." + state, "platform", null, null, null, null, doneData.get(state));
        }
        return new ScxmlEvent(type, "external", null, null, null, null, f.isEmpty() ? null : f);
    }

    boolean isIn(String scxmlId) {
        String path = doc.paths.get(scxmlId);
        if (path == null) {
            return false;
        }
        return self.isIn(path);
    }

    static Event event(String name, String type, String sendid, String origin, Object data) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put(TYPE, type);
        if (sendid != null) {
            fields.put(SENDID, sendid);
        }
        if (origin != null) {
            fields.put(ORIGIN, origin);
            fields.put(ORIGINTYPE, SCXML_PROCESSOR);
        }
        if (data != null) {
            fields.put(DATA, data);
        }
        return Event.of(name, fields);
    }

    void raise(String name, String type, Object data) {
        self.raise(event(name, type, null, null, data));
    }

    /** SCXML's error.communication (a send whose target cannot be reached), on the internal queue. */
    void communicationError(String sendid, String reason) {
        doc.logger.log(System.Logger.Level.DEBUG, () -> "machine '" + doc.name + "': error.communication: " + reason);
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("reason", reason);
        self.raise(event("error.communication", "platform", sendid, null, data));
    }

    /** SCXML's error.execution, on the internal queue. */
    void error(DatamodelException e) {
        doc.logger.log(System.Logger.Level.DEBUG, () -> "machine '" + doc.name + "': error.execution: " + e.getMessage());
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("tagname", e.tagname());
        data.put("line", e.line());
        data.put("column", e.column());
        data.put("reason", e.getMessage());
        self.raise(event("error.execution", "platform", e.sendid(), null, data));
    }
}

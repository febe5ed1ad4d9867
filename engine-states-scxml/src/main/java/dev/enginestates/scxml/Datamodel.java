package dev.enginestates.scxml;

import dev.enginestates.declare.SavedContext;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * An SCXML datamodel: what evaluates the document's conditions, expressions, locations and
 * scripts. An imported machine's context is one datamodel instance, made fresh for each
 * instance of the machine by the factory given to {@link ScxmlImport#datamodel}; read its
 * variables from Java with {@link #evaluate}.
 *
 * <p>Two are built in: {@link NullDatamodel} (SCXML's {@code null} datamodel: conditions are
 * {@code In('state')} only) and {@link EcmaScriptDatamodel} (ECMAScript on Rhino, which
 * engine-states-scxml brings). Another language plugs in by extending this class. Every method that evaluates
 * the document's text reports a failure as a {@link DatamodelException}, which the machine turns
 * into SCXML's {@code error.execution} event. A datamodel belongs to one machine, which runs on
 * one thread at a time.
 *
 * <p>Checkpoints, dumps and streams hold a datamodel through {@link SavedContext}: its session
 * (id, whether the data is initialized, the late-bound states, {@code <donedata>}, the count
 * behind generated send ids) and its variables as JSON values, with the sessions it invoked, each
 * whole, when it has some. A variable that holds anything else (a function, a host object) makes the
 * checkpoint refuse, naming it.
 */
public abstract class Datamodel implements SavedContext {
    /**
     * No value (ECMAScript's {@code undefined}), distinct from {@code null}: what {@link #declare}
     * and {@link #assign} get for a {@code <data>} or {@code <assign>} without a value, and what
     * {@link #variables} gives and {@link #restoreVariables} takes for a variable without one. In a
     * checkpoint only a variable itself may be undefined, not a part of its value.
     */
    public static final Object UNDEFINED = new Object() {
        @Override
        public String toString() {
            return "undefined";
        }
    };
    private static final Set<String> SAVED = Set.of("sessionid", "started", "sendidCount", "lateBound", "doneData", "variables",
            "undefined");
    /** Written only once the session has invoked sessions (or has invokes about to start). */
    private static final String INVOKED = "invoked";
    /** Written only for a world's child machine: its id among its parent's children, which its events to the parent carry. */
    private static final String INVOKEID = "invokeid";

    /** The importer's per-instance state (the machine's own, beside the variables). */
    Session session;

    /** For subclasses. */
    protected Datamodel() {
    }

    /**
     * Binds the system variables before any other call, and again, with the session id saved, when a
     * checkpoint is restored into this datamodel: {@code _sessionid}, {@code _name},
     * {@code _ioprocessors} (with {@code ioProcessorLocation} as the SCXML processor's location) and the
     * {@code In()} predicate.
     *
     * @param sessionId           the instance's session id, unique in the JVM
     * @param name                the document's {@code name} attribute, or {@code null}
     * @param ioProcessorLocation {@code "#_scxml_" + sessionId}
     * @param in                  whether the state with this SCXML id is active now
     */
    protected abstract void start(String sessionId, String name, String ioProcessorLocation, Predicate<String> in);

    /**
     * Creates the variable of a {@code <data>} element (or sets it, when it exists).
     *
     * @param id    the variable's name
     * @param value its value: one this datamodel made (or a Java value), or {@link #UNDEFINED} for none
     * @throws DatamodelException if this datamodel has no variables (the null datamodel)
     */
    public abstract void declare(String id, Object value);

    /**
     * Whether a variable exists ({@code <foreach>} declares its item and index when not).
     *
     * @param id the variable's name
     * @return {@code true} if it was declared or assigned before
     */
    public abstract boolean isDeclared(String id);

    /**
     * Evaluates a value expression ({@code expr}, {@code eventexpr}, a {@code <param>}'s location...).
     *
     * @param expression the expression's text
     * @return its value, in this datamodel's own representation
     * @throws DatamodelException if it does not parse or fails
     */
    public abstract Object evaluate(String expression);

    /**
     * Evaluates a transition's or an {@code <if>}'s condition.
     *
     * @param condition the condition's text
     * @return its truth value
     * @throws DatamodelException if it does not parse, fails or gives no boolean where one is required
     */
    public abstract boolean test(String condition);

    /**
     * Stores a value at a location ({@code <assign>}, {@code idlocation}, {@code <foreach>}'s item and index).
     *
     * @param location the location's text: a declared variable or a part of one
     * @param value    the value to store, in this datamodel's representation, or {@link #UNDEFINED}
     * @throws DatamodelException if the location is not a valid, declared location or is a system variable
     */
    public abstract void assign(String location, Object value);

    /**
     * Runs a {@code <script>}'s text.
     *
     * @param script the script
     * @throws DatamodelException if it does not parse or fails
     */
    public abstract void run(String script);

    /**
     * The value of inline content: a {@code <data>}'s, an {@code <assign>}'s or a {@code <content>}'s text.
     *
     * @param text the content's text (child elements serialized as XML)
     * @return the value: parsed when this datamodel reads such text as a value (JSON for ECMAScript), else the text
     */
    public abstract Object content(String text);

    /**
     * The items of a {@code <foreach>}'s array, copied, so that the loop's body may change the array.
     *
     * @param arrayExpression the {@code array} attribute
     * @return a shallow copy of the items, in order
     * @throws DatamodelException if it does not evaluate to an iterable collection
     */
    public abstract List<Object> items(String arrayExpression);

    /**
     * Binds {@code _event} to the event being processed.
     *
     * @param event the event, or {@code null} before the first one (the machine's start)
     */
    protected abstract void bindEvent(ScxmlEvent event);

    /**
     * A value of this datamodel as a Java value (for an event's fields and for Java code reading the datamodel).
     *
     * @param value a value this datamodel made
     * @return {@code null}, a {@code String}, {@code Double}, {@code Boolean}, {@code List} or {@code Map}, or the value itself
     */
    public Object toJava(Object value) {
        return value;
    }

    /**
     * Every variable the document or its scripts made (the system variables left out), in the
     * order they were made, for a checkpoint.
     *
     * @return each variable's value as a JSON value (see {@link SavedContext}), or {@link #UNDEFINED}
     * @throws DatamodelException if a variable holds something else (a function, a host object, an
     *                            undefined part, a number that is not finite); the message names the
     *                            variable, the part and what was expected
     */
    protected abstract Map<String, Object> variables();

    /**
     * Declares the variables of a checkpoint, into this datamodel fresh from its factory and
     * started; the values were checked to be JSON values.
     *
     * @param variables what {@link #variables} gave, read back
     * @throws DatamodelException if this datamodel has no variables and some are given
     */
    protected abstract void restoreVariables(Map<String, Object> variables);

    /**
     * The session and the variables as JSON values: {@code sessionid}, {@code started},
     * {@code sendidCount} (the send ids made for {@code idlocation} so far), {@code lateBound}, {@code doneData}, {@code variables} (the defined ones) and
     * {@code undefined} (the names of those without a value).
     *
     * While it has invoked sessions (or invokes about to start), also {@code invoked}: each child session whole, its
     * own datamodel included.
     *
     * @throws IllegalStateException naming the machine and the variable, if a variable holds what is not a JSON value
     */
    @Override
    public final Object save() {
        requireSession();
        Map<String, Object> vars;
        try {
            vars = variables();
        } catch (DatamodelException e) {
            throw new IllegalStateException("machine '" + session.doc.name + "': " + e.getMessage(), e);
        }
        Map<String, Object> defined = new LinkedHashMap<>();
        List<Object> undefined = new ArrayList<>();
        vars.forEach((k, v) -> {
            if (v == UNDEFINED) {
                undefined.add(k);
            } else {
                String bad = notJson(v, "variable '" + k + "'");
                if (bad != null) {
                    throw new IllegalStateException("machine '" + session.doc.name + "': " + bad);
                }
                defined.put(k, v);
            }
        });
        Map<String, Object> doneData = new LinkedHashMap<>();
        session.doneData.forEach((k, v) -> {
            String bad = notJson(v, "the <donedata> of '" + k + "'");
            if (bad != null) {
                throw new IllegalStateException("machine '" + session.doc.name + "': " + bad);
            }
            doneData.put(k, v);
        });
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("sessionid", session.id);
        out.put("started", session.started);
        out.put("sendidCount", session.sends);
        out.put("lateBound", new ArrayList<Object>(session.lateBound.stream().sorted().toList()));
        out.put("doneData", doneData);
        out.put("variables", defined);
        out.put("undefined", undefined);
        if (session.invoking() || session.spawned > 0) {
            out.put(INVOKED, SavedSessions.save(session));
        }
        if (session.asChild != null) {
            out.put(INVOKEID, session.asChild);
        }
        return out;
    }

    /**
     * Reads back what {@link #save} gave, into this datamodel fresh from the machine's factory.
     *
     * @throws IllegalArgumentException naming the field and what was expected; nothing is set then
     */
    @Override
    public final void restore(Object saved) {
        requireSession();
        if (!(saved instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException("expected the datamodel's session and variables, an object; found " + kind(saved));
        }
        for (Object k : m.keySet()) {
            if (!SAVED.contains(k) && !INVOKED.equals(k) && !INVOKEID.equals(k)) {
                throw new IllegalArgumentException(k + ": not a field of a saved datamodel; expected " + SAVED.stream().sorted().toList()
                        + ", while it invokes, " + INVOKED + ", and for a child machine, " + INVOKEID);
            }
        }
        for (String k : SAVED) {
            if (!m.containsKey(k)) {
                throw new IllegalArgumentException(k + ": missing; expected every field of a saved datamodel");
            }
        }
        if (!(m.get("sessionid") instanceof String id) || id.isEmpty()) {
            throw new IllegalArgumentException("sessionid: expected the session's id, a non-empty string; found " + kind(m.get("sessionid")));
        }
        if (!(m.get("started") instanceof Boolean started)) {
            throw new IllegalArgumentException("started: expected true or false; found " + kind(m.get("started")));
        }
        Object sendsValue = m.get("sendidCount");
        if (!(sendsValue instanceof Long || sendsValue instanceof Integer) || ((Number) sendsValue).longValue() < 0) {
            throw new IllegalArgumentException("sendidCount: expected the count of generated send ids, a whole number 0 or more; found "
                    + kind(sendsValue));
        }
        List<String> lateBound = new ArrayList<>();
        if (!(m.get("lateBound") instanceof List<?> late)) {
            throw new IllegalArgumentException("lateBound: expected the ids of the states whose data is bound, an array; found "
                    + kind(m.get("lateBound")));
        }
        for (int i = 0; i < late.size(); i++) {
            if (!(late.get(i) instanceof String s) || !session.doc.paths.containsKey(s)) {
                throw new IllegalArgumentException("lateBound[" + i + "]: expected a state id of machine '" + session.doc.name
                        + "'; found " + kind(late.get(i)));
            }
            lateBound.add(s);
        }
        if (!(m.get("doneData") instanceof Map<?, ?> done)) {
            throw new IllegalArgumentException("doneData: expected an object from state id to its <donedata>; found " + kind(m.get("doneData")));
        }
        for (Map.Entry<?, ?> e : done.entrySet()) {
            // "" is the document's own: a top-level final's <donedata>, which an invoked session's done event carries
            if (!"".equals(e.getKey()) && !session.doc.paths.containsKey(e.getKey())) {
                throw new IllegalArgumentException("doneData." + e.getKey() + ": not a state id of machine '" + session.doc.name + "'");
            }
            String bad = notJson(e.getValue(), "doneData." + e.getKey());
            if (bad != null) {
                throw new IllegalArgumentException(bad);
            }
        }
        if (!(m.get("variables") instanceof Map<?, ?> vars)) {
            throw new IllegalArgumentException("variables: expected an object from variable name to value; found " + kind(m.get("variables")));
        }
        Map<String, Object> restored = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : vars.entrySet()) {
            String bad = notJson(e.getValue(), "variables." + e.getKey());
            if (bad != null) {
                throw new IllegalArgumentException(bad);
            }
            restored.put((String) e.getKey(), e.getValue());
        }
        if (!(m.get("undefined") instanceof List<?> undefined)) {
            throw new IllegalArgumentException("undefined: expected the names of the variables without a value, an array; found "
                    + kind(m.get("undefined")));
        }
        for (int i = 0; i < undefined.size(); i++) {
            if (!(undefined.get(i) instanceof String s) || s.isEmpty() || restored.containsKey(s)) {
                throw new IllegalArgumentException("undefined[" + i + "]: expected a variable's name, given once and not among the"
                        + " variables with a value; found " + kind(undefined.get(i)));
            }
            restored.put(s, UNDEFINED);
        }
        if (!started && !restored.isEmpty()) {
            throw new IllegalArgumentException("variables: the datamodel was not started, so it has no variables; found "
                    + restored.keySet());
        }
        Object asChild = m.get(INVOKEID);
        if (asChild != null && (!(asChild instanceof String a) || a.isEmpty() || !session.doc.childMachines)) {
            throw new IllegalArgumentException(INVOKEID + ": expected the id of a child machine (a non-empty string), only in a"
                    + " machine imported with ScxmlImport.childMachines; found " + kind(asChild));
        }
        SavedSessions.Read invoked = SavedSessions.NONE;
        if (m.containsKey(INVOKED)) {
            if (session.parent == null) {
                session.bounds.restoring = 1; // its own: the children read below count from here
            }
            invoked = SavedSessions.read(session, id, m.get(INVOKED));
        }
        try {
            session.restore(id, started, ((Number) sendsValue).longValue(), lateBound, done);
            start(session.id, session.doc.scxmlName, "#_scxml_" + session.id, session::isIn);
            restoreVariables(restored);
        } catch (DatamodelException e) {
            throw new IllegalArgumentException("variables: " + e.getMessage(), e);
        }
        invoked.into(session);
        session.asChild = (String) asChild;
        if (session.parent == null) {
            session.bounds.sessions = m.containsKey(INVOKED) ? session.bounds.restoring : 1;
        }
    }

    private void requireSession() {
        if (session == null) {
            throw new IllegalStateException("this " + getClass().getSimpleName() + " is not an imported machine's context (made by"
                    + " its factory), so it has no session to save or restore");
        }
    }

    /** Why a value is not a JSON value (with where in it), or {@code null} when it is one. */
    static String notJson(Object v, String at) {
        if (v == null || v instanceof String || v instanceof Boolean || v instanceof Integer || v instanceof Long) {
            return null;
        }
        if (v instanceof Double d) {
            return Double.isFinite(d) ? null : at + " is " + d + "; expected a finite number";
        }
        if (v instanceof List<?> l) {
            for (int i = 0; i < l.size(); i++) {
                String bad = notJson(l.get(i), at + "[" + i + "]");
                if (bad != null) {
                    return bad;
                }
            }
            return null;
        }
        if (v instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!(e.getKey() instanceof String)) {
                    return at + " has the key " + e.getKey() + "; expected string keys";
                }
                String bad = notJson(e.getValue(), at + "." + e.getKey());
                if (bad != null) {
                    return bad;
                }
            }
            return null;
        }
        return at + " holds " + kind(v) + "; a checkpoint holds JSON values only: numbers, strings, booleans, null, arrays and plain objects";
    }

    static String kind(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof String s) {
            return "the string \"" + s + "\"";
        }
        if (v instanceof Number || v instanceof Boolean) {
            return String.valueOf(v);
        }
        if (v instanceof Collection) {
            return "an array";
        }
        if (v instanceof Map) {
            return "an object";
        }
        return "a " + v.getClass().getName();
    }
}

package dev.enginestates.scxml;

import java.util.List;
import java.util.function.Predicate;

/**
 * An SCXML datamodel: what evaluates the document's conditions, expressions, locations and
 * scripts. An imported machine's context is one datamodel instance, made fresh for each
 * instance of the machine by the factory given to {@link ScxmlImport#datamodel}; read its
 * variables from Java with {@link #evaluate}.
 *
 * <p>Two are built in: {@link NullDatamodel} (SCXML's {@code null} datamodel: conditions are
 * {@code In('state')} only) and {@link EcmaScriptDatamodel} (ECMAScript on Rhino, an optional
 * dependency). Another language plugs in by extending this class. Every method that evaluates
 * the document's text reports a failure as a {@link DatamodelException}, which the machine turns
 * into SCXML's {@code error.execution} event. A datamodel belongs to one machine, which runs on
 * one thread at a time.
 */
public abstract class Datamodel {
    /** The importer's per-instance state (the machine's own, beside the variables). */
    Session session;

    /** For subclasses. */
    protected Datamodel() {
    }

    /**
     * Binds the system variables, once, before any other call: {@code _sessionid}, {@code _name},
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
     * @param value its value: one this datamodel made, or {@code null} for undefined
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
     * @param value    the value to store, in this datamodel's representation
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
}

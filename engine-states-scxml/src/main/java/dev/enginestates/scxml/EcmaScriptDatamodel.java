package dev.enginestates.scxml;

import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * SCXML's ECMAScript datamodel on Mozilla Rhino ({@code org.mozilla:rhino}, 1.9.2 the version
 * tested), which engine-states-scxml brings and whose module it reads. Each machine instance has
 * its own global scope over one shared, sealed set of the standard objects; scripts run
 * interpreted, compiled once per text and document.
 *
 * <p>A document may be untrusted: its scripts see ECMAScript's safe standard objects only, with no
 * way to Java (no {@code java}, {@code Packages}, {@code getClass} or {@code JavaAdapter}, and a class
 * shutter that refuses every class); each evaluation (a condition, an expression, a script) may run
 * {@link #DEFAULT_INSTRUCTION_BUDGET} interpreted instructions unless the constructor is given another
 * budget, and calls 1,000 functions deep. A script stopped by either (an endless loop, a runaway
 * recursion) fails like any other: the machine raises {@code error.execution} and goes on. In an
 * imported machine, the instructions of every evaluation of one call (a send, a step, the start) also
 * count against that call's budget ({@code ScxmlImport.callBudget}), which no evaluation may overrun.
 *
 * <p>Variables are the document's {@code <data>}; {@code _event}, {@code _sessionid},
 * {@code _name} and {@code _ioprocessors} are read-only ({@code <assign>} to them is an error);
 * {@code In('id')} tests a state. Inline content that is JSON is parsed, other content is a
 * string.
 *
 * <p>A checkpoint holds every variable whose value is JSON: numbers, strings, booleans,
 * {@code null}, arrays and plain objects, nested, and {@code undefined} for a variable itself. A
 * variable holding a function, a {@code Date}, a Java object, an object that contains itself or
 * a number that is not finite makes the checkpoint refuse, naming it. An object comes back with
 * its keys in sorted order (a checkpoint sorts keys), and objects that two variables shared come
 * back as two copies.
 */
public final class EcmaScriptDatamodel extends Datamodel {
    /**
     * The instructions one evaluation may run by default: a few milliseconds of interpreted
     * ECMAScript (an endless loop was stopped after 2 to 30 ms on a shared 2-core machine), far
     * beyond what a guard or an action should need, and short enough that a document's endless
     * loop costs a frame or two, not the game.
     */
    public static final long DEFAULT_INSTRUCTION_BUDGET = 1_000_000;

    private final RhinoScope scope;

    /**
     * Makes one with the {@linkplain #DEFAULT_INSTRUCTION_BUDGET default budget}; the importer makes
     * one per machine instance.
     *
     * @throws IllegalStateException if Rhino is not there (a build that excludes engine-states-scxml's dependency)
     */
    public EcmaScriptDatamodel() {
        this(DEFAULT_INSTRUCTION_BUDGET);
    }

    /**
     * Makes one whose evaluations each stop after {@code instructionBudget} interpreted instructions
     * (counted in steps of 1,000), for {@code ScxmlImport.create().datamodel("ecmascript", () -> new
     * EcmaScriptDatamodel(budget))}.
     *
     * @param instructionBudget the instructions one condition, expression or script may run; positive
     * @throws IllegalArgumentException if the budget is not positive
     * @throws IllegalStateException    if Rhino is not there (a build that excludes engine-states-scxml's dependency)
     */
    public EcmaScriptDatamodel(long instructionBudget) {
        if (instructionBudget <= 0) {
            throw new IllegalArgumentException("the instruction budget must be positive, not " + instructionBudget);
        }
        if (!available()) {
            throw new IllegalStateException("the ECMAScript datamodel needs Rhino, which engine-states-scxml depends on, but"
                    + " org.mozilla.javascript.Context was not found: the build excludes org.mozilla:rhino; keep it");
        }
        scope = new RhinoScope(instructionBudget);
    }

    /**
     * Whether Rhino can be loaded here.
     *
     * @return {@code true} when {@code org.mozilla.javascript.Context} is visible to the library
     */
    public static boolean available() {
        try {
            Class.forName("org.mozilla.javascript.Context", false, EcmaScriptDatamodel.class.getClassLoader());
            Module me = EcmaScriptDatamodel.class.getModule();
            if (me.isNamed()) {
                Module rhino = Class.forName("org.mozilla.javascript.Context", false,
                        EcmaScriptDatamodel.class.getClassLoader()).getModule();
                return me.canRead(rhino);
            }
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    @Override
    protected void start(String sessionId, String name, String ioProcessorLocation, Predicate<String> in) {
        if (session != null) {
            scope.belongTo(session);
            scope.share((RhinoScope.Compiled) session.doc.caches.computeIfAbsent(RhinoScope.Compiled.class,
                    k -> new RhinoScope.Compiled()));
        }
        scope.start(sessionId, name, ioProcessorLocation, in);
    }

    @Override
    public void declare(String id, Object value) {
        scope.declare(id, value);
    }

    @Override
    public boolean isDeclared(String id) {
        return scope.isDeclared(id);
    }

    @Override
    public Object evaluate(String expression) {
        return scope.evaluate(expression);
    }

    @Override
    public boolean test(String condition) {
        return scope.test(condition);
    }

    @Override
    public void assign(String location, Object value) {
        scope.assign(location, value);
    }

    @Override
    public void run(String script) {
        scope.run(script);
    }

    @Override
    public Object content(String text) {
        return scope.content(text);
    }

    @Override
    public List<Object> items(String arrayExpression) {
        return scope.items(arrayExpression);
    }

    @Override
    protected void bindEvent(ScxmlEvent event) {
        scope.bindEvent(event);
    }

    @Override
    protected Map<String, Object> variables() {
        return scope.variables();
    }

    @Override
    protected void restoreVariables(Map<String, Object> variables) {
        scope.restore(variables);
    }

    @Override
    public Object toJava(Object value) {
        return scope.toJava(value);
    }
}

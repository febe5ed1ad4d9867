package dev.enginestates.scxml;

import org.mozilla.javascript.ClassShutter;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.ContextFactory;
import org.mozilla.javascript.LambdaFunction;
import org.mozilla.javascript.NativeArray;
import org.mozilla.javascript.NativeJavaObject;
import org.mozilla.javascript.NativeObject;
import org.mozilla.javascript.RhinoException;
import org.mozilla.javascript.Script;
import org.mozilla.javascript.Scriptable;
import org.mozilla.javascript.ScriptableObject;
import org.mozilla.javascript.Undefined;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The ECMAScript datamodel's Rhino side, in its own class so that the library loads Rhino only when it is used.
 * Documents may come from anyone: scripts see the safe standard objects only (no LiveConnect: no {@code java},
 * {@code Packages}, {@code getClass}, {@code JavaAdapter}), a class shutter refuses every Java class to whatever
 * path is left, and each evaluation runs under an instruction budget and an interpreter depth limit.
 */
final class RhinoScope {
    /**
     * How often (in interpreted instructions) Rhino reports to the budgets; their granularity. An evaluation that
     * ends between two reports runs fewer unseen, which the call's budget covers by charging each piece of the
     * document's work as many ({@link Bounds#OPERATION}).
     */
    static final int OBSERVE_EVERY = 1_000;
    /** JS-to-JS call depth: the interpreter keeps its frames on the heap, so without a limit a recursion fills it. */
    static final int MAX_DEPTH = 1_000;
    /** Texts compiled per document and kind at most; beyond, texts (say, expressions a game builds) compile each time. */
    static final int CACHE_LIMIT = 4_096;
    private static final ContextFactory FACTORY = new Factory();
    private static final ScriptableObject SHARED;
    private static final Set<String> SYSTEM = Set.of("_event", "_sessionid", "_name", "_ioprocessors", "_x");
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*");
    private static final String VALUE = "__scxmlValue";
    private static final String JSON_PARSE = "JSON.parse(" + VALUE + ")";

    static {
        Context cx = enterShared();
        try {
            SHARED = cx.initSafeStandardObjects(null, false);
            SHARED.delete("Continuation"); // captures interpreter frames; nothing a document needs
            RhinoBuiltIns.charge(SHARED);
            SHARED.sealObject();
        } finally {
            Context.exit();
        }
    }

    private static final String JSON_ONLY = "a checkpoint holds JSON values only: numbers, strings, booleans, null, arrays and plain objects";

    private final ScriptableObject scope;
    private final long budget;
    private Compiled compiled = new Compiled();
    private Object event = Undefined.instance;
    private boolean started;
    private String sessionId;
    private Object name = Undefined.instance;
    private Object processors = Undefined.instance;
    private Predicate<String> in = id -> false;
    /** The imported machine's session this scope belongs to, whose bounds its work is spent from; null for a datamodel made alone. */
    private Session session;

    /** The scripts of one document, compiled once and shared by its instances (freed with the document). */
    static final class Compiled {
        final Map<String, Script> expressions = new ConcurrentHashMap<>();
        final Map<String, Script> scripts = new ConcurrentHashMap<>();
        final Map<String, Script> locations = new ConcurrentHashMap<>();
    }

    /** Rhino's context with the evaluation's instruction count, and the bounds of the call it runs in (or null). */
    private static final class Budgeted extends Context {
        long budget;
        long used;
        Bounds call;

        Budgeted(ContextFactory f) {
            super(f);
        }
    }

    /** Thrown by the instruction observer: an Error, so that neither a script's catch nor its finally runs on. */
    private static final class OverBudget extends Error {
        private static final long serialVersionUID = 1L;
        /** The bounds whose call budget was spent, or null when the evaluation's own budget was. */
        final transient Bounds call;

        OverBudget(Bounds call) {
            super("over budget", null, false, false);
            this.call = call;
        }
    }

    private static final class Factory extends ContextFactory {
        private static final ClassShutter NO_CLASS = name -> false;

        @Override
        protected Context makeContext() {
            Budgeted cx = new Budgeted(this);
            cx.setInterpretedMode(true); // the instruction observer and the depth limit need the interpreter
            cx.setLanguageVersion(Context.VERSION_ES6);
            cx.setInstructionObserverThreshold(OBSERVE_EVERY);
            cx.setMaximumInterpreterStackDepth(MAX_DEPTH);
            cx.setClassShutter(NO_CLASS);
            return cx;
        }

        @Override
        protected void observeInstructionCount(Context cx, int instructions) {
            spend(cx, instructions);
        }
    }

    /**
     * Spends instructions from the evaluation's budget and the call's: what the observer reports, and what a built-in
     * method will walk before it runs ({@link RhinoBuiltIns}).
     */
    static void spend(Context cx, double instructions) {
        if (cx instanceof Budgeted b) {
            // a built-in's cost may be far beyond a long (a length times a count): clamped, it is still over any budget
            long n = instructions >= Long.MAX_VALUE / 4 ? Long.MAX_VALUE / 4 : (long) instructions;
            b.used = Math.min(b.used + n, Long.MAX_VALUE / 2);
            if (b.used > b.budget) {
                throw new OverBudget(null);
            }
            if (b.call != null && !b.call.tryToSpend(n)) {
                throw new OverBudget(b.call);
            }
        }
    }

    RhinoScope(long budget) {
        this.budget = budget;
        Context cx = enter();
        try {
            scope = (ScriptableObject) cx.newObject(SHARED);
            scope.setPrototype(SHARED);
            scope.setParentScope(null);
            scope.defineProperty("_event", () -> event, v -> { }, ScriptableObject.READONLY | ScriptableObject.PERMANENT);
        } finally {
            Context.exit();
        }
    }

    /** Enters Rhino for one evaluation: a fresh context gets this scope's budget (a nested entry keeps the outer's). */
    private Context enter() {
        Context cx = enterShared();
        if (cx instanceof Budgeted b && b.budget == 0) {
            b.budget = budget;
            b.call = session == null ? null : session.bounds;
        }
        return cx;
    }

    private static Context enterShared() {
        return FACTORY.enterContext();
    }

    /** Shares the compiled texts with the document's other instances. */
    void share(Compiled texts) {
        compiled = texts;
    }

    /** The imported machine's session this scope belongs to: its evaluations and copies are spent from its call's budget. */
    void belongTo(Session owner) {
        session = owner;
    }

    /** One value copied between Java and the scope (an event's data, a value read out): the call spends {@link Bounds#VALUE}. */
    private void copied() {
        if (session != null) {
            session.bounds.spend(Bounds.VALUE);
        }
    }

    private static DatamodelException error(String what, RuntimeException e) {
        return new DatamodelException(what + ": " + (e instanceof RhinoException r ? r.details() : e.toString()), e);
    }

    /**
     * A script stopped by the budget, or by a recursion through Java frames (native callbacks) that exhausted the stack.
     * A call whose budget is spent is not the script's error: its {@link CallBudgetException} is thrown.
     */
    private DatamodelException stopped(String what, Error e) {
        if (e instanceof OverBudget o && o.call != null) {
            throw o.call.exhausted();
        }
        return new DatamodelException(what + ": " + (e instanceof OverBudget
                ? "it ran over its budget of " + budget + " instructions (EcmaScriptDatamodel's instructionBudget)"
                : "it recursed too deep (the thread's stack is exhausted)"), null);
    }

    private static Script compile(Context cx, Map<String, Script> cache, String key, String source) {
        Script s = cache.get(key);
        if (s == null) {
            s = cx.compileString(source, "scxml", 1, null);
            if (cache.size() < CACHE_LIMIT) {
                cache.put(key, s);
            }
        }
        return s;
    }

    /**
     * Binds the system variables; called again when a checkpoint is restored (with the saved session id),
     * so they read fields rather than being set once.
     */
    void start(String sessionId, String name, String location, Predicate<String> in) {
        Context cx = enter();
        try {
            this.sessionId = sessionId;
            this.name = name == null ? Undefined.instance : name;
            this.in = in;
            Scriptable processors = cx.newObject(scope);
            Scriptable scxml = cx.newObject(scope);
            scxml.put("location", scxml, location);
            processors.put(Session.SCXML_PROCESSOR, processors, scxml);
            processors.put("scxml", processors, scxml);
            this.processors = processors;
            if (started) {
                return;
            }
            started = true;
            int ro = ScriptableObject.READONLY | ScriptableObject.PERMANENT;
            scope.defineProperty("_sessionid", () -> this.sessionId, v -> { }, ro);
            scope.defineProperty("_name", () -> this.name, v -> { }, ro);
            scope.defineProperty("_ioprocessors", () -> this.processors, v -> { }, ro);
            scope.defineProperty("In", new LambdaFunction(scope, "In", 1,
                    (c, s, self, args) -> args.length > 0 && this.in.test(Context.toString(args[0]))), ro);
        } finally {
            Context.exit();
        }
    }

    /** Every variable but the system ones, in the scope's order, as JSON values ({@link Datamodel#UNDEFINED} for undefined). */
    Map<String, Object> variables() {
        Context cx = enter();
        try {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Object id : scope.getAllIds()) {
                if (!(id instanceof String name) || SYSTEM.contains(name) || name.equals("In") || name.equals(VALUE)) {
                    continue;
                }
                Object v = scope.get(name, scope);
                out.put(name, v == Undefined.instance ? Datamodel.UNDEFINED
                        : json(v, "variable '" + name + "'", new IdentityHashMap<>()));
            }
            return out;
        } catch (OverBudget | StackOverflowError e) {
            // a getter or a proxy trap is the document's code: it runs under the budget here too
            throw stopped("reading the variables was stopped", e);
        } finally {
            Context.exit();
        }
    }

    /** A JS value as a JSON value, refusing what JSON cannot hold exactly; {@code at} names the part for the error. */
    private static Object json(Object v, String at, IdentityHashMap<Object, Boolean> path) {
        if (v == null || v instanceof Boolean) {
            return v;
        }
        if (v instanceof CharSequence c) {
            return c.toString();
        }
        if (v instanceof Number n) {
            double d = n.doubleValue();
            if (!Double.isFinite(d)) {
                throw refused(at + " is " + d + "; expected a finite number");
            }
            return d;
        }
        if (v == Undefined.instance || v == Scriptable.NOT_FOUND) {
            throw refused(at + " is undefined; only a variable itself may be undefined, a part of its value must be JSON (null, say)");
        }
        if (v instanceof org.mozilla.javascript.Callable) {
            throw refused(at + " holds a function; " + JSON_ONLY);
        }
        if (v instanceof NativeJavaObject j) {
            throw refused(at + " holds the Java object " + j.unwrap().getClass().getName() + "; " + JSON_ONLY);
        }
        if (v instanceof Opaque o) {
            throw refused(at + " holds the Java object " + o.value.getClass().getName() + "; " + JSON_ONLY);
        }
        if (!(v instanceof NativeArray) && !(v instanceof NativeObject)) {
            String what = v instanceof Scriptable s ? "a " + s.getClassName() + " object" : "a " + v.getClass().getName();
            throw refused(at + " holds " + what + "; " + JSON_ONLY);
        }
        if (path.put(v, Boolean.TRUE) != null) {
            throw refused(at + " refers to an object that contains it; " + JSON_ONLY + " (a tree)");
        }
        try {
            if (v instanceof NativeArray a) {
                if (a.getLength() > MAX_ITEMS) {
                    throw refused(at + " is an array of " + a.getLength() + " items; a checkpoint holds " + MAX_ITEMS + " at most");
                }
                List<Object> out = new ArrayList<>();
                for (int i = 0; i < a.getLength(); i++) {
                    out.add(json(a.get(i, a), at + "[" + i + "]", path));
                }
                return out;
            }
            NativeObject o = (NativeObject) v;
            Map<String, Object> out = new LinkedHashMap<>();
            for (Object id : o.getIds()) {
                Object x = id instanceof Integer i ? o.get(i, o) : o.get(String.valueOf(id), o);
                out.put(String.valueOf(id), json(x, at + "." + id, path));
            }
            return out;
        } finally {
            path.remove(v);
        }
    }

    private static DatamodelException refused(String what) {
        return new DatamodelException(what, null);
    }

        void declare(String id, Object value) {
        Context cx = enter();
        try {
            scope.put(id, scope, toJs(cx, value));
        } finally {
            Context.exit();
        }
    }

    /** A checkpoint's variables, checked JSON values; a null is JSON's null, {@link Datamodel#UNDEFINED} undefined. */
    void restore(Map<String, Object> variables) {
        Context cx = enter();
        try {
            variables.forEach((id, v) -> scope.put(id, scope, toJs(cx, v)));
        } finally {
            Context.exit();
        }
    }

    boolean isDeclared(String id) {
        return ScriptableObject.hasProperty(scope, id) && !ScriptableObject.hasProperty(SHARED, id);
    }

    /** An expression as a parenthesized one (an object literal is not a block), without a trailing ';'. */
    private static String expression(String text) {
        String t = text.strip();
        while (t.endsWith(";")) {
            t = t.substring(0, t.length() - 1).strip();
        }
        return "(" + t + "\n)";
    }

    /** An expression's script: cached under its own text, so that a warm evaluation allocates no key. */
    private Script expressionScript(Context cx, String text) {
        Script s = compiled.expressions.get(text);
        return s != null ? s : compile(cx, compiled.expressions, text, expression(text));
    }

    Object evaluate(String expression) {
        Context cx = enter();
        try {
            return expressionScript(cx, expression).exec(cx, scope, scope);
        } catch (RuntimeException e) {
            throw error("the expression '" + expression + "' failed", e);
        } catch (OverBudget | StackOverflowError e) {
            throw stopped("the expression '" + expression + "' was stopped", e);
        } finally {
            Context.exit();
        }
    }

    boolean test(String condition) {
        Context cx = enter();
        try {
            return Context.toBoolean(expressionScript(cx, condition).exec(cx, scope, scope));
        } catch (RuntimeException e) {
            throw error("the condition '" + condition + "' failed", e);
        } catch (OverBudget | StackOverflowError e) {
            throw stopped("the condition '" + condition + "' was stopped", e);
        } finally {
            Context.exit();
        }
    }

    void assign(String location, Object value) {
        String loc = location.trim();
        int end = 0;
        while (end < loc.length() && (Character.isJavaIdentifierPart(loc.charAt(end)))) {
            end++;
        }
        String base = loc.substring(0, end);
        if (SYSTEM.contains(base)) {
            throw new DatamodelException("'" + location + "' is a system variable, which cannot be assigned", null);
        }
        if (base.isEmpty() || !ScriptableObject.hasProperty(scope, base) || ScriptableObject.hasProperty(SHARED, base)) {
            throw new DatamodelException("'" + location + "' is not a declared location", null);
        }
        Context cx = enter();
        try {
            Object js = toJs(cx, value);
            if (IDENTIFIER.matcher(loc).matches()) {
                scope.put(loc, scope, js);
                return;
            }
            scope.put(VALUE, scope, js);
            try {
                compile(cx, compiled.locations, loc, "(" + loc + ") = " + VALUE).exec(cx, scope, scope);
            } finally {
                scope.delete(VALUE);
            }
        } catch (DatamodelException | CallBudgetException e) {
            throw e;
        } catch (RuntimeException e) {
            throw error("the location '" + location + "' cannot be assigned", e);
        } catch (OverBudget | StackOverflowError e) {
            throw stopped("the assignment to '" + location + "' was stopped", e);
        } finally {
            Context.exit();
        }
    }

    void run(String script) {
        Context cx = enter();
        try {
            compile(cx, compiled.scripts, script, script).exec(cx, scope, scope);
        } catch (RuntimeException e) {
            throw error("the script failed", e);
        } catch (OverBudget | StackOverflowError e) {
            throw stopped("the script was stopped", e);
        } finally {
            Context.exit();
        }
    }

    Object content(String text) {
        Context cx = enter();
        try {
            scope.put(VALUE, scope, text.trim());
            return compile(cx, compiled.expressions, JSON_PARSE, JSON_PARSE).exec(cx, scope, scope);
        } catch (OverBudget e) {
            if (e.call != null) {
                throw e.call.exhausted();
            }
            return text.trim().isEmpty() ? text : normalize(text);
        } catch (RuntimeException | StackOverflowError e) {
            return text.trim().isEmpty() ? text : normalize(text);
        } finally {
            scope.delete(VALUE);
            Context.exit();
        }
    }

    private static String normalize(String text) {
        return text.trim().replaceAll("\\s+", " ");
    }

    List<Object> items(String arrayExpression) {
        Object v = evaluate(arrayExpression);
        if (!(v instanceof NativeArray a)) {
            throw new DatamodelException("<foreach> array '" + arrayExpression + "' is not an array", null);
        }
        if (a.getLength() > MAX_ITEMS) {
            // setting an array's length is one instruction; copying 4 billion holes is not
            throw new DatamodelException("<foreach> array '" + arrayExpression + "' has " + a.getLength() + " items; at most "
                    + MAX_ITEMS + " are iterated", null);
        }
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < a.getLength(); i++) {
            out.add(a.get(i, a));
        }
        return out;
    }

    void bindEvent(ScxmlEvent e) {
        if (e == null) {
            event = Undefined.instance;
            return;
        }
        Context cx = enter();
        try {
            Scriptable o = cx.newObject(scope);
            o.put("name", o, e.name());
            o.put("type", o, e.type());
            o.put("sendid", o, e.sendid() == null ? Undefined.instance : e.sendid());
            o.put("origin", o, e.origin() == null ? Undefined.instance : e.origin());
            o.put("origintype", o, e.origintype() == null ? Undefined.instance : e.origintype());
            o.put("invokeid", o, e.invokeid() == null ? Undefined.instance : e.invokeid());
            o.put("data", o, e.data() == null ? Undefined.instance : toJs(cx, e.data()));
            event = o;
        } finally {
            Context.exit();
        }
    }

    /** A Java value (an event's fields from Java, a map of params) as a JS value; JS values (undefined included) stay. */
    private Object toJs(Context cx, Object v) {
        copied();
        if (v == null) {
            return null; // JS null (Rhino's evaluate gives Java null for it)
        }
        if (v == Datamodel.UNDEFINED) {
            return Undefined.instance;
        }
        if (v instanceof Scriptable || v instanceof String || v instanceof Boolean || v instanceof Double || v == Undefined.instance
                || v instanceof java.math.BigInteger || v instanceof org.mozilla.javascript.Symbol) {
            return v;
        }
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        if (v instanceof CharSequence s) {
            return s.toString();
        }
        if (v instanceof Map<?, ?> m) {
            Scriptable o = cx.newObject(scope);
            m.forEach((k, x) -> o.put(String.valueOf(k), o, toJs(cx, x)));
            return o;
        }
        if (v instanceof List<?> l) {
            Object[] items = new Object[l.size()];
            for (int i = 0; i < items.length; i++) {
                items[i] = toJs(cx, l.get(i));
            }
            return cx.newArray(scope, items);
        }
        if (v instanceof Character c) {
            return c.toString();
        }
        return new Opaque(v, scope); // Rhino's own wrapper would give the script the object's methods and class
    }

    /** A Java value a script may hold, compare and print, but not reach into; it goes back to Java unchanged. */
    private static final class Opaque extends ScriptableObject {
        private static final long serialVersionUID = 1L;
        final transient Object value;

        Opaque(Object value, Scriptable scope) {
            super(scope, ScriptableObject.getObjectPrototype(scope));
            this.value = value;
        }

        @Override
        public String getClassName() {
            return "JavaValue";
        }

        @Override
        public Object getDefaultValue(Class<?> hint) {
            return String.valueOf(value);
        }
    }

    /**
     * A JS value as a Java one. Reading an object may run the document's code (a getter, a proxy's trap), so it runs
     * under the budget too; a cyclic or very deep value is an error, not a stack overflow.
     */
    Object toJava(Object v) {
        enter();
        try {
            return javaValue(v, 0);
        } catch (DatamodelException | CallBudgetException e) {
            throw e;
        } catch (RuntimeException e) {
            throw error("the value cannot be read", e);
        } catch (OverBudget | StackOverflowError e) {
            throw stopped("reading the value was stopped", e);
        } finally {
            Context.exit();
        }
    }

    /** The items a {@code <foreach>} iterates at most. */
    static final int MAX_ITEMS = 100_000;

    /** How deep a value read into Java may nest (a cyclic object would nest without end). */
    static final int MAX_VALUE_DEPTH = 100;

    private Object javaValue(Object v, int depth) {
        if (v == null || v == Undefined.instance) {
            return null;
        }
        copied();
        if (depth > MAX_VALUE_DEPTH) {
            throw new DatamodelException("the value nests deeper than " + MAX_VALUE_DEPTH + " levels (is it cyclic?)", null);
        }
        if (v instanceof Opaque o) {
            return o.value;
        }
        if (v instanceof NativeArray a) {
            List<Object> out = new ArrayList<>();
            for (int i = 0; i < a.getLength(); i++) {
                out.add(javaValue(a.get(i, a), depth + 1));
            }
            return out;
        }
        if (v instanceof Scriptable s && !(v instanceof org.mozilla.javascript.Function)) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Object id : s.getIds()) {
                Object x = id instanceof Integer i ? s.get(i, s) : s.get(String.valueOf(id), s);
                out.put(String.valueOf(id), javaValue(x, depth + 1));
            }
            return out;
        }
        if (v instanceof CharSequence c) {
            // a string doubled 30 times is a few objects until it is copied out: then a gigabyte, one per character
            if (session != null) {
                session.bounds.spend(c.length());
            }
            return c.toString();
        }
        if (v instanceof Number n && !(v instanceof Double)) {
            return n.doubleValue(); // JS numbers are doubles; Rhino keeps some as Integer
        }
        return v;
    }
}

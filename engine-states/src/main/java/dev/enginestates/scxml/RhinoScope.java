package dev.enginestates.scxml;

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

/** The ECMAScript datamodel's Rhino side, in its own class so that the library loads Rhino only when it is used. */
final class RhinoScope {
    private static final ContextFactory FACTORY = new ContextFactory();
    private static final ScriptableObject SHARED;
    private static final Map<String, Script> COMPILED = new ConcurrentHashMap<>();
    private static final Set<String> SYSTEM = Set.of("_event", "_sessionid", "_name", "_ioprocessors", "_x");
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*");
    private static final String VALUE = "__scxmlValue";

    static {
        Context cx = enter();
        try {
            SHARED = cx.initStandardObjects(null, true);
            SHARED.sealObject();
        } finally {
            Context.exit();
        }
    }

    private static final String JSON_ONLY = "a checkpoint holds JSON values only: numbers, strings, booleans, null, arrays and plain objects";

    private final ScriptableObject scope;
    private Object event = Undefined.instance;
    private boolean started;
    private String sessionId;
    private Object name = Undefined.instance;
    private Object processors = Undefined.instance;
    private Predicate<String> in = id -> false;

    RhinoScope() {
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

    private static Context enter() {
        Context cx = FACTORY.enterContext();
        cx.setInterpretedMode(true);
        cx.setLanguageVersion(Context.VERSION_ES6);
        return cx;
    }

    private static DatamodelException error(String what, RuntimeException e) {
        return new DatamodelException(what + ": " + (e instanceof RhinoException r ? r.details() : e.toString()), e);
    }

    private Script compile(Context cx, String source) {
        Script s = COMPILED.get(source);
        if (s == null) {
            s = cx.compileString(source, "scxml", 1, null);
            COMPILED.put(source, s);
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
        if (!(v instanceof NativeArray) && !(v instanceof NativeObject)) {
            String what = v instanceof Scriptable s ? "a " + s.getClassName() + " object" : "a " + v.getClass().getName();
            throw refused(at + " holds " + what + "; " + JSON_ONLY);
        }
        if (path.put(v, Boolean.TRUE) != null) {
            throw refused(at + " refers to an object that contains it; " + JSON_ONLY + " (a tree)");
        }
        try {
            if (v instanceof NativeArray a) {
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

    Object evaluate(String expression) {
        Context cx = enter();
        try {
            return compile(cx, expression(expression)).exec(cx, scope, scope);
        } catch (RuntimeException e) {
            throw error("the expression '" + expression + "' failed", e);
        } finally {
            Context.exit();
        }
    }

    boolean test(String condition) {
        Context cx = enter();
        try {
            return Context.toBoolean(compile(cx, expression(condition)).exec(cx, scope, scope));
        } catch (RuntimeException e) {
            throw error("the condition '" + condition + "' failed", e);
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
                compile(cx, "(" + loc + ") = " + VALUE).exec(cx, scope, scope);
            } finally {
                scope.delete(VALUE);
            }
        } catch (DatamodelException e) {
            throw e;
        } catch (RuntimeException e) {
            throw error("the location '" + location + "' cannot be assigned", e);
        } finally {
            Context.exit();
        }
    }

    void run(String script) {
        Context cx = enter();
        try {
            compile(cx, script).exec(cx, scope, scope);
        } catch (RuntimeException e) {
            throw error("the script failed", e);
        } finally {
            Context.exit();
        }
    }

    Object content(String text) {
        Context cx = enter();
        try {
            scope.put(VALUE, scope, text.trim());
            return compile(cx, "JSON.parse(" + VALUE + ")").exec(cx, scope, scope);
        } catch (RuntimeException e) {
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

    /** A Java value (an event's fields from Java, a map of params) as a JS value; JS values stay. */
    private Object toJs(Context cx, Object v) {
        if (v == null) {
            return null; // JS null (Rhino's evaluate gives Java null for it)
        }
        if (v == Datamodel.UNDEFINED) {
            return Undefined.instance;
        }
        if (v instanceof Scriptable || v instanceof String || v instanceof Boolean || v instanceof Double) {
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
        return Context.javaToJS(v, scope, cx);
    }

    static Object toJava(Object v) {
        enter();
        try {
            return javaValue(v);
        } finally {
            Context.exit();
        }
    }

    private static Object javaValue(Object v) {
        if (v == null || v == Undefined.instance) {
            return null;
        }
        if (v instanceof NativeArray a) {
            List<Object> out = new ArrayList<>();
            for (int i = 0; i < a.getLength(); i++) {
                out.add(javaValue(a.get(i, a)));
            }
            return out;
        }
        if (v instanceof Scriptable s && !(v instanceof org.mozilla.javascript.Function)) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Object id : s.getIds()) {
                Object x = id instanceof Integer i ? s.get(i, s) : s.get(String.valueOf(id), s);
                out.put(String.valueOf(id), javaValue(x));
            }
            return out;
        }
        if (v instanceof CharSequence c) {
            return c.toString();
        }
        if (v instanceof Number n && !(v instanceof Double)) {
            return n.doubleValue(); // JS numbers are doubles; Rhino keeps some as Integer
        }
        return v;
    }
}

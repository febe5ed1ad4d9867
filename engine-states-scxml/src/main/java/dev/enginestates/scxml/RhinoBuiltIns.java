package dev.enginestates.scxml;

import org.mozilla.javascript.Callable;
import org.mozilla.javascript.Context;
import org.mozilla.javascript.Function;
import org.mozilla.javascript.LambdaFunction;
import org.mozilla.javascript.NativeArray;
import org.mozilla.javascript.ScriptRuntime;
import org.mozilla.javascript.Scriptable;
import org.mozilla.javascript.ScriptableObject;
import org.mozilla.javascript.Undefined;

/**
 * Rhino's built-in methods that walk a whole array or string, or make one of a length they are given, run in Java as
 * one interpreted instruction, which the instruction observer never sees: {@code a.length = 4e9; a.indexOf(1)} walked
 * four billion holes, {@code new Array(1e7).fill(0)} took 12 s and {@code 'x'.repeat(1e8)} made 100 MB. Each is
 * replaced, in the shared standard objects, by one that first spends one instruction for each item or character it
 * will walk or make, from the evaluation's budget and the call's ({@link RhinoScope#spend}), then runs the original.
 */
final class RhinoBuiltIns {
    /** How much a call of a built-in will walk or make, in items or characters. */
    @FunctionalInterface
    private interface Cost {
        double of(Scriptable thisObj, Object[] args);
    }

    /** Array methods that may visit every index up to the length (holes included) or move every item. */
    private static final String[] ARRAY_WALKS = {"fill", "join", "toString", "toLocaleString", "indexOf", "lastIndexOf",
        "includes", "reverse", "sort", "slice", "splice", "copyWithin", "forEach", "map", "filter", "some", "every",
        "reduce", "reduceRight", "find", "findIndex", "findLast", "findLastIndex", "flat", "flatMap", "unshift", "shift",
        "toReversed", "toSorted", "toSpliced", "with"};
    /**
     * String methods that may read or copy the whole string (and so flatten one built by concatenation); those that read
     * one place of a flat string ({@code charAt}, {@code slice}...) are left as they are.
     */
    private static final String[] STRING_WALKS = {"indexOf", "lastIndexOf", "includes", "split", "replace", "replaceAll",
        "match", "matchAll", "search", "toLowerCase", "toUpperCase", "toLocaleLowerCase", "toLocaleUpperCase", "trim",
        "trimStart", "trimEnd", "normalize", "localeCompare", "concat"};

    private RhinoBuiltIns() {
    }

    /** Replaces the built-ins of the shared standard objects, before they are sealed. */
    static void charge(ScriptableObject shared) {
        Scriptable arrayProto = ScriptableObject.getArrayPrototype(shared);
        for (String name : ARRAY_WALKS) {
            replace(shared, arrayProto, name, (self, args) -> length(self));
        }
        replace(shared, arrayProto, "concat", (self, args) -> {
            double n = length(self);
            for (Object a : args) {
                n += a instanceof Scriptable s ? length(s) : 1;
            }
            return n;
        });
        Scriptable array = (Scriptable) ScriptableObject.getProperty(shared, "Array");
        replace(shared, array, "from", (self, args) -> args.length > 0 && args[0] instanceof Scriptable s ? length(s)
                : args.length > 0 && args[0] instanceof CharSequence c ? c.length() : 0);
        Scriptable stringProto = ScriptableObject.getClassPrototype(shared, "String");
        for (String name : STRING_WALKS) {
            replace(shared, stringProto, name, (self, args) -> length(self));
        }
        replace(shared, stringProto, "repeat", (self, args) -> length(self) * number(args, 0));
        replace(shared, stringProto, "padStart", (self, args) -> number(args, 0));
        replace(shared, stringProto, "padEnd", (self, args) -> number(args, 0));
        Scriptable json = (Scriptable) ScriptableObject.getProperty(shared, "JSON");
        Object stringify = ScriptableObject.getProperty(json, "stringify");
        if (stringify instanceof Function original) {
            json.put("stringify", json, new LambdaFunction(shared, "stringify", 3, (cx, scope, thisObj, args) ->
                    original.call(cx, scope, thisObj, countingReplacer(shared, args))));
        }
    }

    /**
     * JSON.stringify's arguments with a replacer that spends one instruction for each value it writes (and runs the
     * document's replacer function, if given): an array that holds itself twice, 30 times over, is 2^30 values.
     * A replacer array (a list of keys) is kept as it is, with its cost counted for each key.
     */
    private static Object[] countingReplacer(Scriptable shared, Object[] args) {
        Object value = args.length > 0 ? args[0] : Undefined.instance;
        Object given = args.length > 1 ? args[1] : Undefined.instance;
        Object space = args.length > 2 ? args[2] : Undefined.instance;
        if (given instanceof NativeArray) {
            RhinoScope.spend(Context.getCurrentContext(), ((NativeArray) given).getLength());
            return new Object[] {value, given, space};
        }
        Callable user = given instanceof Callable c ? c : null;
        Callable counting = new LambdaFunction(shared, "replacer", 2, (cx, scope, thisObj, a) -> {
            Object v = a.length > 1 ? a[1] : Undefined.instance;
            RhinoScope.spend(cx, 1 + (v instanceof CharSequence c ? c.length() : 0));
            return user != null ? user.call(cx, scope, thisObj, a) : v;
        });
        return new Object[] {value, counting, space};
    }

    private static void replace(Scriptable shared, Scriptable holder, String name, Cost cost) {
        if (!(ScriptableObject.getProperty(holder, name) instanceof Function original)) {
            return; // not in this version of Rhino
        }
        int arity = ScriptRuntime.toInt32(ScriptableObject.getProperty(original, "length"));
        holder.put(name, holder, new LambdaFunction(shared, name, arity, (cx, scope, thisObj, args) -> {
            RhinoScope.spend(cx, cost.of(thisObj, args));
            return original.call(cx, scope, thisObj, args);
        }));
    }

    /** An object's {@code length}, as the built-ins read it (0 when it has none). */
    private static double length(Scriptable s) {
        if (s == null) {
            return 0;
        }
        Object n = ScriptableObject.getProperty(s, "length");
        return n == Scriptable.NOT_FOUND ? 0 : ScriptRuntime.toLength(new Object[] {n}, 0);
    }

    private static double number(Object[] args, int i) {
        double d = args.length > i ? ScriptRuntime.toNumber(args[i]) : 0;
        return Double.isNaN(d) ? 0 : d;
    }
}

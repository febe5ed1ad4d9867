package dev.enginestates;

import dev.dominion.ecs.api.Entity;
import org.openjdk.jol.vm.VM;
import org.openjdk.jol.vm.VirtualMachine;

import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.IdentityHashMap;

/** Bytes one object graph owns, walked beside a second one of the same kind: what the two share is left out. */
public final class Footprints {
    private Footprints() {
    }

    /**
     * The heap {@code a} reaches that {@code b} does not reach at the same place: two machines (or
     * records) of one definition walked side by side, so the chart and the definition they share
     * count nothing, and Dominion's entity is not theirs. JDK objects are counted, not opened.
     */
    public static long owned(Object a, Object b) throws Exception {
        return walk(quietVm(), a, b, new IdentityHashMap<>());
    }

    private static long walk(VirtualMachine vm, Object a, Object b, IdentityHashMap<Object, Boolean> seen) throws Exception {
        if (a == null || a == b || a instanceof Class || a instanceof Enum || a instanceof Entity || seen.containsKey(a)) {
            return 0; // shared with the other record, or Dominion's entity (not the record's)
        }
        seen.put(a, true);
        Class<?> c = a.getClass();
        long n = c.isHidden() ? sizeOfHidden(vm, c) : vm.sizeOf(a);
        if (c.isArray()) {
            if (!c.getComponentType().isPrimitive()) {
                Object[] xa = (Object[]) a;
                Object[] xb = b instanceof Object[] ob && ob.length == xa.length ? ob : null;
                for (int i = 0; i < xa.length; i++) {
                    n += walk(vm, xa[i], xb == null ? null : xb[i], seen);
                }
            }
            return n;
        }
        if (c.getName().startsWith("java.")) {
            return n; // counted, not opened
        }
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) {
                    continue;
                }
                f.setAccessible(true);
                Object vb = b != null && b.getClass() == c ? f.get(b) : null;
                n += walk(vm, f.get(a), vb, seen);
            }
        }
        return n;
    }

    /**
     * The size of an instance of a hidden class (a lambda's, the library's generated code), whose
     * field offsets the JDK does not give: the header and the fields, to the object alignment.
     */
    private static long sizeOfHidden(VirtualMachine vm, Class<?> c) {
        long n = vm.objectHeaderSize();
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    n += vm.sizeOfField(f.getType().getName());
                }
            }
        }
        int align = vm.objectAlignment();
        return (n + align - 1) / align * align;
    }

    /** JOL's VM, made without its start-up warnings on standard output (nothing prints unless asked). */
    static VirtualMachine quietVm() {
        PrintStream out = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        try {
            return VM.current();
        } finally {
            System.setOut(out);
        }
    }
}

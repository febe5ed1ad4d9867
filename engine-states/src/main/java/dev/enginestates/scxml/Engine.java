package dev.enginestates.scxml;

import dev.enginestates.MachineView;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.Self;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * The engine's queue operations an imported machine's code uses (issue 17's contract: raise,
 * sends to self, cancel, In). Looked up once: while the engine half of issue 17 is not merged,
 * a document that needs them fails at run time, and the core documents still run.
 */
final class Engine {
    private static final Method RAISE = find("raise", Event.class);
    private static final Method SEND_SELF = find("sendSelf", Event.class, double.class, String.class);
    private static final Method CANCEL = find("cancel", String.class);
    private static final Method IS_IN = find("isIn", String.class);

    /** Whether the engine matches descriptors by prefix ({@code foo.*}): it came with raise. */
    static final boolean DESCRIPTORS = RAISE != null;

    private Engine() {
    }

    private static Method find(String name, Class<?>... types) {
        try {
            return Self.class.getMethod(name, types);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    private static Object call(Method m, String what, Self self, Object... args) {
        if (m == null) {
            throw new UnsupportedOperationException("this engine has no " + what);
        }
        try {
            return m.invoke(self, args);
        } catch (InvocationTargetException e) {
            Throwable t = e.getCause();
            if (t instanceof RuntimeException r) {
                throw r;
            }
            if (t instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(t);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    static void raise(Self self, Event event) {
        call(RAISE, "raise", self, event);
    }

    static void sendSelf(Self self, Event event, double delaySeconds, String id) {
        call(SEND_SELF, "sendSelf", self, event, delaySeconds, id);
    }

    static void cancel(Self self, String id) {
        call(CANCEL, "cancel", self, id);
    }

    /** Whether the state (an engine path) is active. */
    static boolean isIn(Self self, String path) {
        if (IS_IN != null) {
            return (Boolean) call(IS_IN, "isIn", self, path);
        }
        Object face = self.machine();
        return face instanceof MachineView<?> v && v.matches(path);
    }
}

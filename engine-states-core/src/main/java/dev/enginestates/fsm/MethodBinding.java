package dev.enginestates.fsm;

import dev.enginestates.declare.StateHandler;
import java.lang.invoke.CallSite;
import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.function.Consumer;

/**
 * Binds annotated methods to the functional types the chart calls, once, at build time: a
 * generated lambda where the class is open to this library (a direct call, as fast as a
 * hand-written lambda), else a method handle. No reflection happens per call.
 */
final class MethodBinding {
    private static final MethodType HANDLER_ERASED = MethodType.methodType(String.class, Object.class, float.class);
    private static final MethodType HOOK_ERASED = MethodType.methodType(void.class, Object.class);

    private MethodBinding() {
    }

    /** A {@code String m(Ctx, float)} method as a handler. */
    @SuppressWarnings("unchecked")
    static StateHandler<Object> handler(Method m, Object target) throws ReflectiveOperationException {
        MethodType exact = MethodType.methodType(String.class, m.getParameterTypes()[0], float.class);
        Object bound = generated(m, target, StateHandler.class, "update", HANDLER_ERASED, exact);
        if (bound != null) {
            return (StateHandler<Object>) bound;
        }
        MethodHandle mh = handle(m, target).asType(HANDLER_ERASED);
        return (ctx, dt) -> {
            try {
                return (String) mh.invokeExact(ctx, dt);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException(t); // a checked exception thrown sneakily by the method
            }
        };
    }

    /** A {@code void m(Ctx)} method as a hook. */
    @SuppressWarnings("unchecked")
    static Consumer<Object> hook(Method m, Object target) throws ReflectiveOperationException {
        MethodType exact = MethodType.methodType(void.class, m.getParameterTypes()[0]);
        Object bound = generated(m, target, Consumer.class, "accept", HOOK_ERASED, exact);
        if (bound != null) {
            return (Consumer<Object>) bound;
        }
        MethodHandle mh = handle(m, target).asType(HOOK_ERASED);
        return ctx -> {
            try {
                mh.invokeExact(ctx);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        };
    }

    /** A new instance of a behavior class through its no-argument constructor. */
    static Object instantiate(Class<?> type) throws ReflectiveOperationException {
        try {
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(type, MethodHandles.lookup());
            return lookup.findConstructor(type, MethodType.methodType(void.class)).invoke();
        } catch (IllegalAccessException e) {
            var constructor = type.getDeclaredConstructor();
            constructor.setAccessible(true);
            return constructor.newInstance();
        } catch (ReflectiveOperationException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new java.lang.reflect.InvocationTargetException(t);
        }
    }

    /** A lambda generated in the method's class, or {@code null} when this library may not define one there. */
    private static Object generated(Method m, Object target, Class<?> type, String name, MethodType erased, MethodType exact) {
        boolean isStatic = Modifier.isStatic(m.getModifiers());
        try {
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(m.getDeclaringClass(), MethodHandles.lookup());
            MethodHandle impl = lookup.unreflect(m);
            MethodType factory = isStatic ? MethodType.methodType(type) : MethodType.methodType(type, m.getDeclaringClass());
            CallSite site = LambdaMetafactory.metafactory(lookup, name, factory, erased, impl, exact);
            return isStatic ? site.getTarget().invoke() : site.getTarget().invoke(target);
        } catch (Throwable e) {
            return null; // no full access to the class (another module): fall back to a method handle
        }
    }

    private static MethodHandle handle(Method m, Object target) throws IllegalAccessException {
        m.setAccessible(true);
        MethodHandle mh = MethodHandles.lookup().unreflect(m);
        return Modifier.isStatic(m.getModifiers()) ? mh : mh.bindTo(target);
    }
}

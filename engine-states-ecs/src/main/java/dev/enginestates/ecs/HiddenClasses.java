package dev.enginestates.ecs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Makes a new, distinct class from the bytes of a small template class compiled into this
 * package ({@link MethodHandles.Lookup#defineHiddenClass}): Dominion indexes components by
 * class, so every machine and every state needs a class of its own, and no bytecode library
 * is needed to get one.
 */
final class HiddenClasses {
    private HiddenClasses() {
    }

    /** A constructor, taking {@code parameters}, of a fresh hidden class defined from {@code template}'s bytes. */
    static MethodHandle newClassConstructor(Class<?> template, byte[] bytes, Class<?>... parameters) {
        try {
            MethodHandles.Lookup hidden = MethodHandles.lookup().defineHiddenClass(bytes, true);
            return hidden.findConstructor(hidden.lookupClass(), MethodType.methodType(void.class, parameters));
        } catch (IllegalAccessException | NoSuchMethodException e) {
            throw new IllegalStateException("cannot define a component class from " + template.getName(), e);
        }
    }

    /** The class file bytes of a template class of this package. */
    static byte[] bytesOf(Class<?> template) {
        String resource = template.getSimpleName() + ".class";
        try (InputStream in = template.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("class file " + resource + " not found beside " + template.getName());
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Invokes a no-argument constructor handle from {@link #newClassConstructor}. */
    static Object instantiate(MethodHandle constructor) {
        try {
            return constructor.invoke();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Invokes a two-argument constructor handle from {@link #newClassConstructor}. */
    static Object instantiate(MethodHandle constructor, Object first, Object second) {
        try {
            return constructor.invoke(first, second);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}

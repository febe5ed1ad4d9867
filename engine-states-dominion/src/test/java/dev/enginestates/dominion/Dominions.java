package dev.enginestates.dominion;

import dev.dominion.ecs.api.Composition;
import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.dominion.ecs.api.Results;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

/** What the regression tests share: a Dominion of the engine under test, component classes made at run time, counts. */
final class Dominions {
    private Dominions() {
    }

    record A(int v) {
    }

    record B(int v) {
    }

    record C(int v) {
    }

    record D(int v) {
    }

    record E(int v) {
    }

    record F(int v) {
    }

    record G(int v) {
    }

    /** A Dominion of the engine under test that try-with-resources closes (Dominion itself is not AutoCloseable). */
    interface Closing extends Dominion, AutoCloseable {
        @Override
        void close();

        /** The Dominion itself, for what the proxy cannot stand in for. */
        EntityRepository real();
    }

    /** A Dominion of {@code 2^chunkBit} entities a chunk: set through Dominion's own system property, read once at creation. */
    static Dominion createWithChunkBit(String name, int chunkBit) {
        String property = "dominion." + name + ".chunk-bit";
        System.setProperty(property, Integer.toString(chunkBit));
        try {
            return new EntityRepository.Factory().create(name);
        } finally {
            System.clearProperty(property);
        }
    }

    static Closing create(String name) {
        Dominion real = new EntityRepository.Factory().create(name);
        Closing closing = (Closing) Proxy.newProxyInstance(Closing.class.getClassLoader(), new Class<?>[]{Closing.class},
                (proxy, method, args) -> {
                    if (method.getDeclaringClass() == Closing.class) {
                        if (method.getName().equals("real")) {
                            return real;
                        }
                        real.close();
                        return null;
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        return closing;
    }

    private static final MethodHandle PREPARED_MOVE = preparedMoveHandle();

    private static MethodHandle preparedMoveHandle() {
        try {
            return MethodHandles.publicLookup().findVirtual(EntityRepository.class, "modifyEntity",
                    MethodType.methodType(boolean.class, Composition.Modifier.class, Entity.class, Object[].class));
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    /**
     * {@code EntityRepository.modifyEntity(prepared, entity, added)} (patch 0013), called through a method
     * handle: upstream has no such method, so {@code -Pupstream} still compiles the tests, and those
     * that move this way fail there.
     */
    static boolean preparedMove(Dominion d, Composition.Modifier prepared, Entity entity, Object... added) {
        if (PREPARED_MOVE == null) {
            throw new AssertionError("no EntityRepository.modifyEntity(Composition.Modifier, Entity, Object[]) in this engine");
        }
        try {
            return (boolean) PREPARED_MOVE.invokeExact((EntityRepository) d, prepared, entity, added);
        } catch (RuntimeException | Error t) {
            throw t;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static final MethodHandle CHUNK_NUMBER = chunkNumberHandle();

    private static MethodHandle chunkNumberHandle() {
        try {
            return MethodHandles.publicLookup().findVirtual(IntEntity.class, "chunkNumber", MethodType.methodType(int.class));
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    /** {@code IntEntity.chunkNumber()} (patch 0019), through a method handle so that {@code -Pupstream} compiles. */
    static int chunkNumber(Entity entity) {
        if (CHUNK_NUMBER == null) {
            throw new AssertionError("no IntEntity.chunkNumber() in this engine");
        }
        try {
            return (int) CHUNK_NUMBER.invokeExact((IntEntity) entity);
        } catch (RuntimeException | Error t) {
            throw t;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    static int count(Results<?> results) {
        int n = 0;
        for (Object ignored : results) {
            n++;
        }
        return n;
    }

    static List<Entity> entities(Results<? extends Results.With1<?>> results) {
        List<Entity> found = new ArrayList<>();
        for (Results.With1<?> r : results) {
            found.add(r.entity());
        }
        return found;
    }

    /** A component class of its own for every call: a hidden class defined from {@link Marker}'s bytes. */
    static Class<?> newComponentClass() {
        try {
            return MethodHandles.lookup().defineHiddenClass(MARKER_BYTES, true).lookupClass();
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    static Object instanceOf(Class<?> type) {
        try {
            return type.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final byte[] MARKER_BYTES = markerBytes();

    private static byte[] markerBytes() {
        try (InputStream in = Marker.class.getResourceAsStream("Dominions$Marker.class")) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The template of the run-time component classes. */
    public static final class Marker {
        public Marker() {
        }
    }
}

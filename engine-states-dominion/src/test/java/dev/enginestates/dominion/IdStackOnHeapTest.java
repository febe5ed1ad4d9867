package dev.enginestates.dominion;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.dominion.collections.IntStack;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Patch 0011: the stack of reusable ids is an {@code int[]} on the heap, and no class of the engine
 * touches {@code sun.misc.Unsafe}, whose memory-access methods JDK 24 and later warn about on
 * standard error (upstream's {@code IntStack} called {@code allocateMemory} for every composition).
 * The stack keeps upstream's contract: last in, first out, {@code nullInt} when empty, growth
 * past the first capacity, a size, a close.
 */
class IdStackOnHeapTest {

    private static final String UNSAFE = "sun/misc/Unsafe";
    private static final int EMPTY = -7;
    /** What a pool of the smallest chunks (2^8 ids) asks for: upstream's capacity is in bytes, 8 per id of a chunk. */
    private static final int FIRST_CAPACITY = 256 << 3;

    @Test
    void noClassOfTheEngineReferencesSunMiscUnsafe() throws IOException {
        Path classes = codeSource();
        List<String> scanned = new ArrayList<>();
        List<String> offenders = new ArrayList<>();
        try (FileSystem jar = Files.isDirectory(classes) ? null
                : FileSystems.newFileSystem(URI.create("jar:" + classes.toUri()), Map.of())) {
            Path root = jar == null ? classes : jar.getPath("/");
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(f -> f.toString().endsWith(".class")).forEach(f -> {
                    String name = root.relativize(f).toString().replace('\\', '/');
                    scanned.add(name);
                    if (references(f, UNSAFE)) {
                        offenders.add(name);
                    }
                });
            }
        }
        assertTrue(scanned.contains("dev/enginestates/dominion/collections/IntStack.class"),
                "the scan read the engine's classes: " + scanned.size() + " in " + classes);
        assertTrue(offenders.isEmpty(), "classes of the engine naming " + UNSAFE + ": " + offenders);
    }

    /** Run in the child JVM: Dominions whose deleted entities' ids go through the stack, and are taken back. */
    public static void main(String[] args) {
        try (Dominions.Closing dominion = Dominions.create("ids")) {
            List<Entity> entities = new ArrayList<>();
            for (int i = 0; i < 200_000; i++) {
                entities.add(dominion.createEntity(new Dominions.A(i)));
            }
            for (int i = 0; i < entities.size(); i += 2) {
                dominion.deleteEntity(entities.get(i));
            }
            for (int i = 0; i < 100_000; i++) {
                dominion.createEntity(new Dominions.B(i));
                dominion.createEntity(new Dominions.A(-i));
            }
            System.err.print(Dominions.count(dominion.findEntitiesWith(Dominions.A.class)) == 200_000 ? "" : "lost entities");
        }
    }

    @Test
    void aDominionChurningIdsLoadsNoUnsafeAndPrintsNothing() throws Exception {
        Path log = Files.createTempFile("class-load", ".log");
        try {
            List<String> command = new ArrayList<>();
            command.add(ProcessHandle.current().info().command().orElse("java"));
            command.add("-Xlog:class+load=info:file=" + log);
            if (Runtime.version().feature() >= 23) {
                // JDK 23 and later: any memory access through sun.misc.Unsafe throws instead of warning
                command.add("--sun-misc-unsafe-memory-access=deny");
            }
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add(IdStackOnHeapTest.class.getName());
            Process p = new ProcessBuilder(command).start();
            p.getOutputStream().close();
            byte[] stdout = p.getInputStream().readAllBytes();
            byte[] stderr = p.getErrorStream().readAllBytes();
            assertTrue(p.waitFor(120, TimeUnit.SECONDS));
            String err = new String(stderr, StandardCharsets.UTF_8);
            assertEquals(0, p.exitValue(), err);
            assertEquals("", new String(stdout, StandardCharsets.UTF_8), "nothing on standard output");
            assertEquals("", err, "nothing on standard error");
            List<String> loaded = Files.readAllLines(log);
            // since patch 0015 a tenant keeps its reusable ids itself, in a plain array under its lock
            assertTrue(loaded.stream().anyMatch(l -> l.contains(" dev.enginestates.dominion.collections.IntStack ")
                            || l.contains(" dev.enginestates.dominion.collections.ChunkedPool$Tenant ")),
                    "the id stack was loaded and used");
            assertTrue(loaded.stream().noneMatch(l -> l.contains(" sun.misc.Unsafe ")),
                    "sun.misc.Unsafe loaded: " + loaded.stream().filter(l -> l.contains("Unsafe")).toList());
        } finally {
            Files.deleteIfExists(log);
        }
    }

    @Test
    void lastInFirstOutThenEmpty() {
        IntStack stack = new IntStack(EMPTY, 64);
        assertEquals(0, stack.size());
        assertEquals(EMPTY, stack.pop());
        for (int i = 0; i < 10; i++) {
            assertTrue(stack.push(i * 3));
        }
        assertEquals(10, stack.size());
        for (int i = 9; i >= 0; i--) {
            assertEquals(i * 3, stack.pop());
        }
        assertEquals(0, stack.size());
        assertEquals(EMPTY, stack.pop());
        assertEquals(0, stack.size(), "popping an empty stack leaves it empty");
    }

    @Test
    void growsPastItsFirstCapacityKeepingEveryId() {
        IntStack stack = new IntStack(EMPTY, FIRST_CAPACITY);
        for (int i = 0; i < 100_000; i++) {
            stack.push(i);
        }
        assertEquals(100_000, stack.size());
        for (int i = 99_999; i >= 50_000; i--) {
            assertEquals(i, stack.pop());
        }
        for (int i = 0; i < 1_000; i++) {
            stack.push(-i - 100);
        }
        for (int i = 999; i >= 0; i--) {
            assertEquals(-i - 100, stack.pop());
        }
        for (int i = 49_999; i >= 0; i--) {
            assertEquals(i, stack.pop());
        }
        assertEquals(EMPTY, stack.pop());
    }

    /** Upstream freed the memory and kept the size, so a later pop read freed memory. */
    @Test
    void closingEmptiesTheStack() {
        IntStack stack = new IntStack(EMPTY, 64);
        stack.push(1);
        stack.push(2);
        stack.close();
        assertEquals(0, stack.size());
        assertEquals(EMPTY, stack.pop());
    }

    /** Upstream wrote a pushed id outside the lock, so a growth on another thread could copy the block before the write landed. */
    @Test
    void concurrentPushesLoseNoIdWhileTheArrayGrows() throws InterruptedException {
        for (int round = 0; round < 20; round++) {
            IntStack stack = new IntStack(EMPTY, FIRST_CAPACITY);
            int threads = 4;
            int each = 20_000;
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> pushers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int base = t * each;
                Thread thread = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    for (int i = 0; i < each; i++) {
                        stack.push(base + i);
                    }
                });
                thread.start();
                pushers.add(thread);
            }
            start.countDown();
            for (Thread thread : pushers) {
                thread.join();
            }
            assertEquals(threads * each, stack.size());
            Set<Integer> popped = new HashSet<>();
            for (int i = 0; i < threads * each; i++) {
                popped.add(stack.pop());
            }
            assertEquals(threads * each, popped.size(), "round " + round + ": every id pushed is popped once");
            assertEquals(EMPTY, stack.pop());
        }
    }

    private static Path codeSource() {
        try {
            return Path.of(IntStack.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether a class file's constant pool names {@code internalName} (as a class or inside a descriptor). */
    private static boolean references(Path classFile, String internalName) {
        try {
            String text = new String(Files.readAllBytes(classFile), StandardCharsets.ISO_8859_1);
            return text.contains(internalName);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package dev.enginestates.dominion;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Patches 0008 and 0009: a chunk holds one slot per item in each component's array, and a
 * Dominion's table of chunks grows with use. Upstream gave each of a composition's k arrays k
 * times the chunk's capacity (a chunk of 16 components took 4 MiB instead of 256 KiB with the
 * default 4,096-slot chunks), and allocated a table of 2^19 chunk references (2 MiB) per Dominion.
 */
class ChunkMemoryTest {

    record C0(int v) { }
    record C1(int v) { }
    record C2(int v) { }
    record C3(int v) { }
    record C4(int v) { }
    record C5(int v) { }
    record C6(int v) { }
    record C7(int v) { }
    record C8(int v) { }
    record C9(int v) { }
    record C10(int v) { }
    record C11(int v) { }
    record C12(int v) { }
    record C13(int v) { }
    record C14(int v) { }
    record C15(int v) { }

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static long allocatedSoFar() {
        return THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    @Test
    void aNewDominionTakesLittleMemoryBeforeItHoldsAnything() {
        Dominions.create("warm-up").close(); // class loading
        long before = allocatedSoFar();
        Dominions.Closing d = Dominions.create("small");
        long allocated = allocatedSoFar() - before;
        d.close();
        // its root composition's first chunk (4,096 item slots) and bookkeeping; upstream adds 2 MiB of chunk table
        assertTrue(allocated < 256 * 1024, "bytes allocated by a new, empty Dominion: " + allocated);
    }

    @Test
    void aChunkOfSixteenComponentsTakesSixteenArraysOfTheChunksCapacity() {
        try (Dominions.Closing d = Dominions.create("chunk-memory")) {
            Object[] warm = {new C0(0), new C1(0)};
            d.createEntity(warm); // class loading and the first composition's own costs
            long before = allocatedSoFar();
            d.createEntity(new C0(1), new C1(1), new C2(1), new C3(1), new C4(1), new C5(1), new C6(1), new C7(1),
                    new C8(1), new C9(1), new C10(1), new C11(1), new C12(1), new C13(1), new C14(1), new C15(1));
            long allocated = allocatedSoFar() - before;
            // 17 arrays of 4,096 references (the items' and 16 components'): about 280 KiB with
            // compressed references, 560 KiB without; upstream allocates more than 4 MiB
            assertTrue(allocated < 1 << 20, "bytes allocated by a new 16-component composition's first chunk: " + allocated);
        }
    }
}

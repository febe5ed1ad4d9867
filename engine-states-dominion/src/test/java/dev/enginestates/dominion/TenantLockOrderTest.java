package dev.enginestates.dominion;

import dev.dominion.ecs.api.Composition;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.dominion.Dominions.A;
import dev.enginestates.dominion.Dominions.B;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Patch 0014: a move locks the tenants of both compositions in one order for every thread.
 * Upstream locked the entity's composition first, so one thread moving entities from A to B and
 * another from B to A deadlocked. The test watches for a deadlock (the JVM's own detection) while
 * the threads run, instead of waiting for a time.
 */
class TenantLockOrderTest {

    @Test
    void movesInOppositeDirectionsOnTwoThreadsDoNotDeadlock() throws InterruptedException {
        try (Dominions.Closing d = Dominions.create("lock-order")) {
            int n = 500;
            Entity[] inA = new Entity[n];
            Entity[] inB = new Entity[n];
            for (int i = 0; i < n; i++) {
                inA[i] = d.createEntity(new A(i));
                inB[i] = d.createEntity(new B(i));
            }
            Composition.ByAdding1AndRemoving<B> toB = d.composition().byAdding1AndRemoving(B.class, A.class);
            Composition.ByAdding1AndRemoving<A> toA = d.composition().byAdding1AndRemoving(A.class, B.class);
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            Thread forth = new Thread(() -> run(failures, () -> {
                for (int round = 0; round < 200; round++) {
                    for (int i = 0; i < n; i++) {
                        d.modifyEntity(round % 2 == 0 ? toB.withValue(inA[i], new B(i)) : toA.withValue(inA[i], new A(i)));
                    }
                }
            }));
            Thread back = new Thread(() -> run(failures, () -> {
                for (int round = 0; round < 200; round++) {
                    for (int i = 0; i < n; i++) {
                        d.modifyEntity(round % 2 == 0 ? toA.withValue(inB[i], new A(i)) : toB.withValue(inB[i], new B(i)));
                    }
                }
            }));
            forth.setDaemon(true); // on upstream they stay blocked; the test fails and the JVM may still exit
            back.setDaemon(true);
            forth.start();
            back.start();
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long[] deadlocked = null;
            while ((forth.isAlive() || back.isAlive()) && deadlocked == null) {
                deadlocked = threads.findMonitorDeadlockedThreads();
                forth.join(10);
            }
            assertNull(deadlocked, "the two moving threads deadlocked");
            assertTrue(failures.isEmpty(), () -> "a thread failed: " + failures.peek());
            assertEquals(n, Dominions.count(d.findEntitiesWith(A.class)), "the entities of A are back in A");
            assertEquals(n, Dominions.count(d.findEntitiesWith(B.class)), "the entities of B are back in B");
            for (int i = 0; i < n; i++) {
                assertEquals(new A(i), inA[i].get(A.class));
                assertEquals(new B(i), inB[i].get(B.class));
            }
        }
    }

    private static void run(ConcurrentLinkedQueue<Throwable> failures, Runnable work) {
        try {
            work.run();
        } catch (Throwable t) {
            failures.add(t);
        }
    }
}

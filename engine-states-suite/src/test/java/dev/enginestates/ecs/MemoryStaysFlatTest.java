package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A world's memory follows what lives in it, not what has come and gone: record slots are
 * reused, and a machine definition nobody refers to any more is collected with its classes.
 */
class MemoryStaysFlatTest {
    static final double DT = 1.0 / 60;

    public static final class Unit {
    }

    static final States<Unit> MOB = States.define("memory-mob", Unit::new, m -> m
            .initial("a")
            .state("a", s -> s.waitFor(0.5, "b"))
            .state("b", s -> s.waitFor(0.5, "a")));

    private static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    @Test
    void aMillionSpawnDespawnCyclesLeaveTheWorldsSlotsAndMemoryWhereTheyStarted() {
        SplittableRandom random = new SplittableRandom(7);
        try (StateWorld world = StateWorld.create("churned")) {
            List<Entity> live = new ArrayList<>();
            for (int i = 0; i < 10_000; i++) {
                live.add(world.spawn(MOB.trait()));
            }
            for (int i = 0; i < 60; i++) {
                world.step(DT);
            }
            int slotsBefore = world.recordSlots(MOB);
            long heapBefore = usedHeapAfterGc();
            for (int cycle = 0; cycle < 1_000_000; cycle++) {
                int at = random.nextInt(live.size());
                world.despawn(live.get(at));
                live.set(at, world.spawn(MOB.trait()));
                if (cycle % 1_000 == 999) {
                    world.step(DT);
                }
            }
            world.step(DT);
            assertEquals(10_000, world.records(MOB).size());
            int slotsAfter = world.recordSlots(MOB);
            assertTrue(slotsAfter <= 2 * slotsBefore + 16, "record slots " + slotsBefore + " before, " + slotsAfter + " after");
            long heapAfter = usedHeapAfterGc();
            assertTrue(heapAfter - heapBefore < 8 << 20, "heap used after 1,000,000 cycles grew by " + (heapAfter - heapBefore) + " B");
            assertEquals(10_000, world.query(MOB.is("a")).count() + world.query(MOB.is("b")).count());
        }
    }

    /** A definition made, used in a world and dropped, leaving only weak references behind. */
    private static WeakReference<States<Unit>> useAndDropADefinition(int n) {
        States<Unit> m = States.define("memory-temporary-" + n, Unit::new, b -> b
                .initial("x")
                .state("x", s -> s.waitFor(DT, "y"))
                .state("y"));
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(m.trait());
            world.step(DT);
            assertTrue(e.has(m.is("y")));
        }
        return new WeakReference<>(m);
    }

    @Test
    void aMachineDefinitionNobodyRefersToIsCollected() {
        List<WeakReference<States<Unit>>> refs = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            refs.add(useAndDropADefinition(i));
        }
        for (int attempt = 0; attempt < 20 && refs.stream().anyMatch(r -> r.get() != null); attempt++) {
            System.gc();
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (WeakReference<States<Unit>> r : refs) {
            assertNull(r.get(), "a definition that nothing refers to any more is collected");
        }
    }
}

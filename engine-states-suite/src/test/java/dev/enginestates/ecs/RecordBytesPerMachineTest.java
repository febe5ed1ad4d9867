package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Footprints;
import dev.enginestates.Machine;
import dev.enginestates.io.Saves;
import dev.enginestates.records.MachineRecord;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 14, memory per machine: what one spawned machine's record owns, object by object (JOL
 * sizes, as {@code bench/MemoryPerMachine} walks it), beyond the entity and the objects every
 * record of the machine shares (world, chart, binding, Dominion's chunk). The bounds are what the
 * one-object record reaches on a 64-bit JVM with compressed references, once its entry times are
 * kept by depth and its hold's start in the side object (issue 14, "The last bytes"): 176 B, under
 * issue 14's 200 B target.
 */
class RecordBytesPerMachineTest {
    /**
     * The flat 3-state machine without context, tags(false): the record (face and snapshot) 120 + config {@code int[2]} 24
     * + entry times by depth {@code double[2]} 32 (they were 128 + 24 + {@code double[4]} 48 = 200 before).
     */
    static final long FLAT_UNTAGGED_MAX = 176;
    /** The same with tags: the same, as the tag bits are kept by the machine's {@link TagMoves}, not by the record. */
    static final long FLAT_TAGGED_MAX = 176;
    /** The record object itself by JOL: 128 B with {@code heldSince} in it, 120 B with it in the side object. */
    static final long RECORD_OBJECT_MAX = 120;

    static Machine<Object> flat3(boolean tags) {
        return Machine.define(tags ? "bytes-flat3" : "bytes-flat3-untagged", () -> null, m -> m
                .tags(tags)
                .initial("idle")
                .state("idle", s -> s.on("GO", "walk"))
                .state("walk", s -> s.on("GO", "run"))
                .state("run", s -> s.on("GO", "idle")));
    }

    static final States<Object> FLAT = States.of(flat3(true));
    static final States<Object> FLAT_UNTAGGED = States.of(flat3(false));

    @Test
    void aFlatThreeStateMachineWithoutTagsOwnsAtMost176Bytes() throws Exception {
        long owned = owned(FLAT_UNTAGGED);
        assertTrue(owned <= FLAT_UNTAGGED_MAX, "a flat 3-state machine's record owns " + owned + " B; expected at most "
                + FLAT_UNTAGGED_MAX + " B");
    }

    @Test
    void aFlatThreeStateMachineWithTagsOwnsAtMost176Bytes() throws Exception {
        long owned = owned(FLAT);
        assertTrue(owned <= FLAT_TAGGED_MAX, "a flat 3-state machine's record (tags) owns " + owned + " B; expected at most "
                + FLAT_TAGGED_MAX + " B");
    }

    @Test
    void theRecordObjectIs120BytesWithItsHoldInTheSideObjectAndItsTimesAreOnePerDepth() {
        long size = org.openjdk.jol.info.ClassLayout.parseClass(EntityRecord.class).instanceSize();
        assertTrue(size <= RECORD_OBJECT_MAX, "the record object is " + size + " B; expected at most " + RECORD_OBJECT_MAX
                + " B:\n" + org.openjdk.jol.info.ClassLayout.parseClass(EntityRecord.class).toPrintable());
        try (StateWorld world = StateWorld.create()) {
            EntityRecord<Object> r = EntityRecord.of(FLAT_UNTAGGED.read(world.spawn(FLAT_UNTAGGED.trait())));
            assertEquals(2, FLAT_UNTAGGED.chart().timeRoom, "root and leaf: two depths, two times for four states");
            assertEquals(-1, r.waitState());
        }
    }

    @Test
    void aMachineNeverHeldMakesNoSideObjectAndAHoldCopiedKeepsItsExactWait() throws Exception {
        Field seldom = MachineRecord.class.getDeclaredField("seldom");
        seldom.setAccessible(true);
        States<Object> waiting = States.of(Machine.define("bytes-waiting", () -> null, m -> m
                .initial("a")
                .state("a", s -> s.waitFor(4, "b"))
                .state("b", s -> s.on("GO", "a"))));
        Saves saves = Saves.of(waiting);
        try (StateWorld world = StateWorld.create(); StateWorld other = StateWorld.create()) {
            Entity e = world.spawn(EntityKey.of("e"), waiting.trait());
            for (int i = 0; i < 60; i++) {
                world.step(1 / 64.0);
            }
            EntityRecord<Object> r = EntityRecord.of(waiting.read(e));
            assertNull(seldom.get(r), "never held, no pause, no send: no side object");
            saves.restoreSpawningMissing(other, saves.checkpoint(world)); // "heldSince": null read back
            EntityRecord<Object> restored = EntityRecord.of(waiting.read(other.entity("e")));
            assertNull(seldom.get(restored), "a restore of a record never held makes none");
            MachineRecord neverHeld = new MachineRecord(waiting.chart(), null);
            neverHeld.copyFrom(r);
            assertNull(seldom.get(neverHeld), "nor does a copy of one");
            e.add(MachinePaused.INSTANCE);
            for (int i = 0; i < 30; i++) {
                world.step(1 / 64.0);
            }
            assertTrue(r.isHeld() && seldom.get(r) != null, "a hold makes the side object");
            MachineRecord held = new MachineRecord(waiting.chart(), null);
            held.copyFrom(r);
            assertEquals(r.heldSince(), held.heldSince());
            double since = r.heldSince();
            assertEquals(Double.POSITIVE_INFINITY, held.waitDue(), "a held wait falls due never");
            held.release(since + 2.5);
            assertEquals(r.waitStart() + 2.5 + 4, held.waitDue(), "released 2.5 s later: due 2.5 s later than it would have been");
            assertEquals(4 - (since - r.waitStart()), held.waitDue() - (since + 2.5), "the seconds left when held are left after");
            held.copyFrom(neverHeld);
            assertTrue(!held.isHeld() && Double.isNaN(held.heldSince()), "a copy of a record not held is not held");
        }
    }

    @Test
    void aMachineWithoutTagsKeepsNoTaggedArrayAndOneWithoutWaitsNoPausedSeconds() {
        try (StateWorld world = StateWorld.create()) {
            EntityRecord<Object> r = EntityRecord.of(FLAT_UNTAGGED.read(world.spawn(FLAT_UNTAGGED.trait())));
            assertNull(r.binding.moves, "a machine without tags keeps no tag moves or tag bits");
            assertTrue(Double.isNaN(r.paused(1)));
            assertTrue(EntityRecord.of(FLAT.read(world.spawn(FLAT.trait()))).binding.moves != null);
        }
    }

    @Test
    void aMachineWhoseCodeNeverAsksKeepsNoSelfAndOneWhoseCodeRunsGetsOneThatStays() throws Exception {
        Field self = dev.enginestates.records.MachineRecord.class.getDeclaredField("self");
        self.setAccessible(true);
        java.util.List<Object> seen = new java.util.ArrayList<>();
        States<Object> acting = States.of(Machine.define("bytes-acting", () -> null, m -> m
                .initial("a")
                .state("a", s -> s.on("GO", t -> t.target("b").action((c, e, me) -> seen.add(me))))
                .state("b", s -> s.on("GO", t -> t.target("a").action((c, e, me) -> seen.add(me))))));
        try (StateWorld world = StateWorld.create()) {
            Entity quiet = world.spawn(FLAT_UNTAGGED.trait());
            FLAT_UNTAGGED.send(quiet, "GO");
            assertNull(self.get(EntityRecord.of(FLAT_UNTAGGED.read(quiet))), "no code ran: no Self made");
            Entity e = world.spawn(acting.trait());
            acting.send(e, "GO");
            acting.send(e, "GO");
            assertTrue(seen.size() == 2 && seen.get(0) == seen.get(1), "one Self, made once: " + seen);
            assertTrue(((dev.enginestates.declare.Self) seen.get(0)).entity() == e, "the Self reads the record's entity");
        }
    }

    @Test
    void aChartWithoutParallelStatesSizesItsConfigurationByItsDeepestChain() {
        dev.enginestates.chart.Chart flat = FLAT_UNTAGGED.chart();
        assertEquals(2, flat.configRoom, "root and one leaf");
        assertEquals(4, flat.maxActive);
        dev.enginestates.chart.Chart nested = States.of(Machine.define("bytes-nested", () -> null, m -> m
                .initial("a")
                .state("a", s -> s.initial("a1").state("a1", t -> { }).on("GO", "b"))
                .state("b", s -> s.on("GO", "a")))).chart();
        assertEquals(3, nested.configRoom, "root, a, a1");
        dev.enginestates.chart.Chart parallel = States.of(Machine.define("bytes-parallel", () -> null, m -> m
                .initial("p")
                .state("p", s -> s.parallel()
                        .state("x", t -> t.initial("x1").state("x1", u -> { }))
                        .state("y", t -> t.initial("y1").state("y1", u -> { }))))).chart();
        assertEquals(parallel.maxActive, parallel.configRoom, "a parallel chart keeps room for every state");
    }

    @Test
    void aConfigurationWiderThanTheDeepestChainGrowsRatherThanFailing() {
        dev.enginestates.records.MachineRecord r = new dev.enginestates.records.MachineRecord(FLAT_UNTAGGED.chart(), null);
        for (int s = 0; s < 4; s++) {
            r.enter(s); // more than a chain holds: only a hand-made record does this
        }
        assertEquals(4, r.activeCount());
        for (int s = 0; s < 4; s++) {
            assertEquals(s, r.activeAt(s));
        }
        dev.enginestates.records.MachineRecord copy = new dev.enginestates.records.MachineRecord(FLAT_UNTAGGED.chart(), null);
        copy.copyFrom(r);
        assertEquals(4, copy.activeCount());
        assertEquals(3, copy.activeAt(3));
    }

    @Test
    void aRecordSpawnedOutsideAStepWithNoListenersKeepsNoSideObjectAndOneSpawnedMidStepSitsThatStepOut() throws Exception {
        Field aside = EntityRecord.class.getDeclaredField("aside");
        aside.setAccessible(true);
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(FLAT_UNTAGGED.trait());
            world.step(1 / 60.0);
            EntityRecord<Object> r = EntityRecord.of(FLAT_UNTAGGED.read(e));
            assertNull(aside.get(r), "no listener, not joined mid-step, never failed: nothing aside");
            assertTrue(!r.quietIn(world.steps));
            r.quietStep(world.steps);
            assertTrue(r.quietIn(world.steps) && !r.quietIn(world.steps + 1));
            r.quietStep(-1);
            assertTrue(!r.quietIn(world.steps), "cleared");
        }
    }

    /** Bytes one record owns: two records of the machine walked side by side, what they share left out. */
    private static long owned(States<Object> machine) throws Exception {
        try (StateWorld world = StateWorld.create()) {
            Entity a = world.spawn(machine.trait());
            Entity b = world.spawn(machine.trait());
            world.step(1 / 60.0);
            return Footprints.owned(machine.read(a), machine.read(b));
        }
    }
}

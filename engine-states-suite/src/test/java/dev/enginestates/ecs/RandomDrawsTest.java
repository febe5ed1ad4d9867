package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Allocations;
import dev.enginestates.Wanderers;
import dev.enginestates.Wanderers.Walk;
import dev.enginestates.declare.Self.Draws;
import dev.enginestates.records.Access;
import dev.enginestates.records.MachineRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A machine's random numbers ({@code self.random()}) come from a generator kept in its record,
 * seeded from the world's seed, the entity's key and the machine's id: the same inputs draw the
 * same numbers, and two entities or two machines draw different ones.
 */
class RandomDrawsTest {
    static final double DT = 1.0 / 60;

    static final States<Walk> WANDERER = Wanderers.wanderer("wanderer");
    static final States<Walk> OTHER = Wanderers.wanderer("other-wanderer");
    static final States<Walk> RESTING = Wanderers.wanderer("resting-wanderer", false);

    /** The record's side object, which a record that never drew, held or paused does not make. */
    static Object seldom(MachineRecord r) {
        try {
            java.lang.reflect.Field f = MachineRecord.class.getDeclaredField("seldom");
            f.setAccessible(true);
            return f.get(r);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The walks of entities "a" and "b" after 10 s in a world of that seed. */
    static List<String> run(long seed) {
        try (StateWorld world = StateWorld.create()) {
            world.randomSeed(seed);
            Entity a = world.spawn(EntityKey.of("a"), WANDERER.trait());
            Entity b = world.spawn(EntityKey.of("b"), WANDERER.trait());
            for (int i = 0; i < 600; i++) {
                world.step(DT);
            }
            return List.of(Wanderers.walked(WANDERER.read(a).context()), Wanderers.walked(WANDERER.read(b).context()));
        }
    }

    @Test
    void theSameSeedAndKeys_drawTheSameNumbersInTwoWorlds() {
        List<String> first = run(42);
        assertEquals(first, run(42));
        assertTrue(first.get(0).contains("L") && first.get(0).contains("R"),
                "both targets were chosen in 10 s: " + first.get(0));
    }

    @Test
    void anotherSeed_drawsOtherNumbers() {
        assertNotEquals(run(42), run(43));
    }

    @Test
    void twoEntities_drawDifferentStreams_fromTheirSpawnOn_aWaitThatTraitDrewBeforeBeingTheMachinesAlone() {
        List<String> walks = run(42);
        assertNotEquals(walks.get(0), walks.get(1));
        // the first wait was drawn by trait(), before the record had an entity: the same for both; the next ones differ
        try (StateWorld world = StateWorld.create()) {
            Entity a = world.spawn(EntityKey.of("a"), WANDERER.trait());
            Entity b = world.spawn(EntityKey.of("b"), WANDERER.trait());
            for (int i = 0; i < 200; i++) {
                world.step(DT);
            }
            Walk wa = WANDERER.read(a).context();
            Walk wb = WANDERER.read(b).context();
            assertEquals(wa.waits.get(0), wb.waits.get(0), "drawn off any world, from the machine's stream alone");
            assertNotEquals(wa.waits.subList(1, wa.waits.size()), wb.waits.subList(1, wb.waits.size()),
                    "once spawned, each seeds its stream from its own key");
        }
    }

    @Test
    void recordsWhoseFirstDrawIsInTheWorld_seedFromTheWorldsSeedAndTheirKeys() {
        List<List<String>> runs = new ArrayList<>();
        for (long seed : new long[] {42, 42, 43}) {
            try (StateWorld world = StateWorld.create()) {
                world.randomSeed(seed);
                Entity a = world.spawn(EntityKey.of("a"), RESTING.trait());
                Entity b = world.spawn(EntityKey.of("b"), RESTING.trait());
                assertEquals(0, Access.record(RESTING.read(a)).randomState(), "nothing drawn before the first step");
                for (int i = 0; i < 600; i++) {
                    world.step(DT);
                }
                runs.add(List.of(Wanderers.walked(RESTING.read(a).context()), Wanderers.walked(RESTING.read(b).context())));
            }
        }
        assertEquals(runs.get(0), runs.get(1), "the same seed and keys");
        assertNotEquals(runs.get(0).get(0), runs.get(0).get(1), "two keys");
        assertNotEquals(runs.get(0), runs.get(2), "another seed");
    }

    @Test
    void twoMachinesOnOneEntity_drawDifferentStreams() {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(EntityKey.of("a"), WANDERER.trait(), OTHER.trait());
            for (int i = 0; i < 600; i++) {
                world.step(DT);
            }
            assertNotEquals(Wanderers.walked(WANDERER.read(e).context()), Wanderers.walked(OTHER.read(e).context()));
            assertNotEquals(Access.record(WANDERER.read(e)).randomState(), Access.record(OTHER.read(e)).randomState());
        }
    }

    @Test
    void entitiesWithoutAKey_drawTheSameInTwoRunsOfTheSameGame_andDifferFromEachOther() {
        List<List<String>> runs = new ArrayList<>();
        for (int run = 0; run < 2; run++) {
            try (StateWorld world = StateWorld.create()) {
                Entity a = world.spawn(WANDERER.trait());
                Entity b = world.spawn(WANDERER.trait());
                for (int i = 0; i < 600; i++) {
                    world.step(DT);
                }
                runs.add(List.of(Wanderers.walked(WANDERER.read(a).context()), Wanderers.walked(WANDERER.read(b).context())));
            }
        }
        assertEquals(runs.get(0), runs.get(1));
        assertNotEquals(runs.get(0).get(0), runs.get(0).get(1));
    }

    @Test
    void aRecordThatDrewNothing_keepsNoStateAndNoSideObject_andItsFirstDrawSeedsIt() {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(EntityKey.of("quiet"), RESTING.trait());
            MachineRecord r = Access.record(RESTING.read(e));
            assertEquals(0, r.randomState(), "no draw yet: not seeded");
            assertNull(seldom(r), "nor a side object made for it");
            Draws d = r.self().random();
            assertSame(r, d, "the record is its own Draws: nothing made to draw");
            d.nextLong();
            assertNotEquals(0, r.randomState());
        }
    }

    @Test
    void drawingAllocatesNothingOnceWarm() {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(EntityKey.of("a"), WANDERER.trait());
            Draws d = Access.record(WANDERER.read(e)).self().random();
            String[] options = {"north", "south", "east"};
            long[] sink = new long[1];
            Runnable draws = () -> {
                for (int i = 0; i < 10_000; i++) {
                    sink[0] += d.nextInt(6) + d.nextInt(-3, 3) + (long) d.between(2, 5) + (d.chance(0.3) ? 1 : 0)
                            + d.pick(options).length() + (long) (d.nextDouble() * 10) + d.nextLong();
                }
            };
            long bytes = Allocations.warmThenMeasure(draws);
            assertTrue(bytes <= Allocations.MEASUREMENT_MARGIN, "70,000 draws allocated " + bytes + " B");
        }
    }

    @Test
    void drawsStayInTheirRanges_andBadArgumentsAreRefusedWithWhatWasExpected() {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(EntityKey.of("a"), WANDERER.trait());
            Draws d = Access.record(WANDERER.read(e)).self().random();
            int[] faces = new int[6];
            for (int i = 0; i < 6000; i++) {
                int n = d.nextInt(1, 7);
                assertTrue(n >= 1 && n <= 6, "die " + n);
                faces[n - 1]++;
                double s = d.between(2, 5);
                assertTrue(s >= 2 && s < 5, "seconds " + s);
                int wide = d.nextInt(Integer.MIN_VALUE, Integer.MAX_VALUE);
                assertTrue(wide < Integer.MAX_VALUE);
            }
            for (int f : faces) {
                assertTrue(f > 800 && f < 1200, "each face about 1000 times in 6000 rolls: " + java.util.Arrays.toString(faces));
            }
            assertEquals(2.0, d.between(2, 2));
            assertTrue(d.chance(1) && !d.chance(0));
            long before = Access.record(WANDERER.read(e)).randomState();
            assertTrue(assertThrows(IllegalArgumentException.class, () -> d.nextInt(0)).getMessage().contains("expected a bound of 1 or more"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> d.nextInt(5, 5)).getMessage().contains("expected 'to' greater"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> d.between(5, 2)).getMessage().contains("min <= max"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> d.chance(Double.NaN)).getMessage().contains("from 0 to 1"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> d.pick(new String[0])).getMessage().contains("one or more"));
            assertEquals(before, Access.record(WANDERER.read(e)).randomState(), "a refused draw draws nothing");
        }
    }
}

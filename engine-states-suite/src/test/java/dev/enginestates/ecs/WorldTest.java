package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Fixtures;
import dev.enginestates.declare.MachineException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The world facade over Dominion: spawning, world-level machines, queries by state, attach,
 * detach, despawn, and the errors that change nothing.
 */
class WorldTest {
    static final class Patrol {
    }

    static final class SiegeCtx {
        int wave;

        SiegeCtx() {
        }

        SiegeCtx(int wave) {
            this.wave = wave;
        }
    }

    static final class Transform {
        final double x;
        final double y;

        Transform(double x, double y) {
            this.x = x;
            this.y = y;
        }
    }

    static final class Marker {
    }

    static final class Cycle {
        int entries;
    }

    static final States<Patrol> GUARD = States.define("guard", Patrol::new, Fixtures.guard());

    static final States<SiegeCtx> SIEGE = States.define("siege", SiegeCtx::new, Fixtures.siege());

    // Three states, each moving on by a when rule on every step and counting its entries:
    // the shape that made Dominion revisit moved entities (DESIGN, "Dominion pitfall").
    static final States<Cycle> CYCLE = States.define("cycle", Cycle::new, m -> m
            .initial("a")
            .state("a", s -> s.entry((c, e) -> c.entries++).when(c -> true, "b"))
            .state("b", s -> s.entry((c, e) -> c.entries++).when(c -> true, "c"))
            .state("c", s -> s.entry((c, e) -> c.entries++).when(c -> true, "a")));

    private static Set<Entity> found(Iterable<Entity> entities) {
        Set<Entity> out = new HashSet<>();
        for (Entity e : entities) {
            out.add(e);
        }
        return out;
    }

    private static Set<Entity> dominionFinds(StateWorld world, Class<?> type) {
        Set<Entity> out = new HashSet<>();
        world.dominion().findEntitiesWith(type).forEach(r -> out.add(r.entity()));
        return out;
    }

    private static void assertNoGuardTags(Entity e) {
        for (Class<? extends StateTag> t : GUARD.tagTypes()) {
            assertFalse(e.has(t), "entity still has " + t.getName());
        }
    }

    // ------------------------------------------------------------------ spawning

    @Test
    void spawnCreatesTheEntityWithItsComponentsAndTheMachinesTags() {
        try (StateWorld world = StateWorld.create()) {
            Transform t = new Transform(1, 2);
            StateRecord<Patrol> r = GUARD.trait();
            Entity g = world.spawn(t, r);
            assertSame(t, g.get(Transform.class));
            assertSame(r, g.get(GUARD.recordType()));
            assertSame(r, GUARD.read(g));
            assertSame(g, r.entity());
            assertSame(world, r.world());
            assertTrue(g.has(GUARD.is("patrol")));
            assertTrue(g.has(GUARD.is("patrol.watch")));
            assertFalse(g.has(GUARD.is("patrol.rest")));
            assertFalse(g.has(GUARD.is("answer")));
        }
    }

    @Test
    void worldLevelMachineLivesOnTheWorldsEntity() {
        // "A game's phases go on the world, with world.add(Siege.trait)".
        try (StateWorld world = StateWorld.create()) {
            StateRecord<SiegeCtx> r = world.add(SIEGE);
            assertSame(world.entity(), r.entity());
            assertSame(r, SIEGE.read(world));
            assertEquals("waiting", SIEGE.read(world).value());
            assertTrue(world.entity().has(SIEGE.is("waiting")));

            assertTrue(SIEGE.send(world, "START"));
            assertEquals("fight", SIEGE.read(world).value());
            assertTrue(world.entity().has(SIEGE.is("fight")));
            assertFalse(world.entity().has(SIEGE.is("waiting")));
            assertEquals(List.of(world.entity()), world.query(SIEGE.is("fight")).list());
        }
    }

    @Test
    void worldLevelMachineCanStartWithAContext() {
        try (StateWorld world = StateWorld.create()) {
            SiegeCtx ctx = new SiegeCtx(3);
            world.add(SIEGE.trait(ctx));
            assertSame(ctx, SIEGE.read(world).context());
            assertEquals(3, SIEGE.read(world).context().wave);
        }
    }

    @Test
    void aSecondWorldLevelRecordOfOneMachineIsRefused() {
        try (StateWorld world = StateWorld.create()) {
            world.add(SIEGE);
            SIEGE.send(world, "START");
            assertThrows(MachineException.class, () -> world.add(SIEGE));
            assertEquals("fight", SIEGE.read(world).value());
            assertTrue(world.entity().has(SIEGE.is("fight")));
            assertFalse(world.entity().has(SIEGE.is("waiting")));
            assertEquals(1, world.records(SIEGE).size());
        }
    }

    // ------------------------------------------------------------------ queries

    @Test
    void queryFindsTheEntitiesInAState() {
        try (StateWorld world = StateWorld.create()) {
            Entity a = world.spawn(new Transform(0, 0), GUARD.trait());
            Entity b = world.spawn(new Transform(1, 0), GUARD.trait());
            Entity c = world.spawn(new Transform(2, 0), GUARD.trait());
            Entity rock = world.spawn(new Transform(3, 0));
            assertTrue(GUARD.send(b, "BELL"));

            assertEquals(Set.of(b), found(world.query(GUARD.is("answer"))));
            assertEquals(Set.of(a, c), found(world.query(GUARD.is("patrol"))));
            assertEquals(Set.of(a, c), found(world.query(GUARD.is("patrol.watch"))));
            assertEquals(2, world.query(GUARD.is("patrol")).count());
            assertTrue(world.query(GUARD.is("patrol.rest")).isEmpty());
            assertNull(world.query(GUARD.is("patrol.rest")).first());
            assertSame(b, world.query(GUARD.is("answer")).first());
            // two types: both must be present
            assertEquals(Set.of(b), found(world.query(Transform.class, GUARD.is("answer"))));
            // the "not" form: every Transform that is not patrolling, guards or not
            assertEquals(Set.of(b, rock), found(world.query(Transform.class).without(GUARD.is("patrol"))));
            assertEquals(Set.of(rock), found(world.query(Transform.class).without(GUARD.is("patrol"), GUARD.is("answer"))));
            assertEquals(Set.of(rock), found(world.query(Transform.class).without(GUARD.is("patrol")).without(GUARD.is("answer"))));
        }
    }

    @Test
    void dominionsOwnFindEntitiesWithFindsTheSameEntitiesAsTheQuery() {
        try (StateWorld world = StateWorld.create()) {
            List<Entity> guards = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                guards.add(world.spawn(GUARD.trait()));
            }
            for (int i = 0; i < 10; i += 3) {
                GUARD.send(guards.get(i), "BELL");
            }
            for (String path : List.of("patrol", "patrol.watch", "answer")) {
                Class<? extends StateTag> tag = GUARD.is(path);
                assertEquals(found(world.query(tag)), dominionFinds(world, tag), path);
            }
            assertEquals(Set.of(guards.get(0), guards.get(3), guards.get(6), guards.get(9)), dominionFinds(world, GUARD.is("answer")));
            assertEquals(6, dominionFinds(world, GUARD.is("patrol")).size());
        }
    }

    @Test
    void aLoopOverAQueryMaySendAndVisitsEachEntityOnce() {
        // DESIGN "Dominion pitfall": changing composition while iterating revisits entities;
        // the facade's query iterates a snapshot.
        try (StateWorld world = StateWorld.create()) {
            for (int i = 0; i < 1000; i++) {
                world.spawn(GUARD.trait());
            }
            int visits = 0;
            for (Entity e : world.query(GUARD.is("patrol"))) {
                visits++;
                assertTrue(GUARD.send(e, "BELL"));
            }
            assertEquals(1000, visits);
            assertEquals(1000, world.query(GUARD.is("answer")).count());
            assertEquals(0, world.query(GUARD.is("patrol")).count());
        }
    }

    @Test
    void eachMachineIsSteppedExactlyOncePerStep() {
        // DESIGN: "A test must show each machine is stepped exactly once per step."
        try (StateWorld world = StateWorld.create()) {
            List<Entity> all = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                all.add(world.spawn(CYCLE.trait()));
            }
            for (int step = 1; step <= 5; step++) {
                world.step(1.0 / 60);
                for (Entity e : all) {
                    assertEquals(step, CYCLE.read(e).context().entries, "one when move per step");
                }
                String expected = List.of("a", "b", "c").get(step % 3);
                assertEquals(1000, world.query(CYCLE.is(expected)).count(), "all in " + expected + " after step " + step);
            }
        }
    }

    @Test
    void recordSetToAStateBeforeSpawnHoldsThatStatesTagsFromItsSpawn() {
        // "A record spawned in a state holds that state's tag from its spawn".
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait().setState("answer"));
            assertEquals(0, world.steps());
            assertTrue(g.has(GUARD.is("answer")));
            assertFalse(g.has(GUARD.is("patrol")));
            assertFalse(g.has(GUARD.is("patrol.watch")));
            assertEquals(List.of(g), world.query(GUARD.is("answer")).list());
            assertEquals(Set.of(g), dominionFinds(world, GUARD.is("answer")));
            assertTrue(world.query(GUARD.is("patrol")).isEmpty());

            Entity r = world.spawn(GUARD.trait().setState("patrol.rest"));
            assertTrue(r.has(GUARD.is("patrol")));
            assertTrue(r.has(GUARD.is("patrol.rest")));
            assertFalse(r.has(GUARD.is("patrol.watch")));
            assertEquals(10.0, GUARD.read(r).secondsLeft(), 1e-12);
        }
    }

    // ------------------------------------------------------------------ attach, detach, despawn

    @Test
    void attachAddsTheRecordAndItsTagsToAnEntity() {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(new Transform(0, 0));
            StateRecord<Patrol> r = world.attach(e, GUARD.trait());
            assertSame(r, GUARD.read(e));
            assertSame(e, r.entity());
            assertTrue(e.has(GUARD.is("patrol.watch")));
            assertTrue(e.has(GUARD.is("patrol")));
            assertEquals(List.of(e), world.query(Transform.class, GUARD.is("patrol.watch")).list());
            assertTrue(GUARD.send(e, "BELL"));
            assertTrue(e.has(GUARD.is("answer")));
            for (int i = 0; i < 5; i++) {
                world.step(1.0);
            }
            assertTrue(GUARD.read(e).matches("answer"));
        }
    }

    @Test
    void attachedRecordSetBeforehandHoldsItsStatesTagsAtOnce() {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(new Transform(0, 0));
            world.attach(e, GUARD.trait().setState("patrol.rest"));
            assertTrue(e.has(GUARD.is("patrol.rest")));
            assertTrue(e.has(GUARD.is("patrol")));
            assertFalse(e.has(GUARD.is("patrol.watch")));
        }
    }

    @Test
    void attachedWaitCountsFromTheAttach() {
        try (StateWorld world = StateWorld.create()) {
            for (int i = 0; i < 30; i++) {
                world.step(1.0 / 10);
            }
            Entity e = world.spawn(new Transform(0, 0));
            world.attach(e, GUARD.trait());
            assertEquals(4.0, GUARD.read(e).secondsLeft(), 1e-9);
            for (int i = 0; i < 39; i++) {
                world.step(1.0 / 10);
            }
            assertTrue(GUARD.read(e).matches("patrol.watch"));
            world.step(1.0 / 10);
            assertTrue(GUARD.read(e).matches("patrol.rest"), GUARD.read(e).toString());
        }
    }

    @Test
    void detachRemovesTheRecordAndItsTagsAndKeepsTheEntity() {
        try (StateWorld world = StateWorld.create()) {
            Transform t = new Transform(4, 5);
            Entity e = world.spawn(t, GUARD.trait(), SIEGE.trait());
            GUARD.send(e, "BELL");
            assertTrue(world.detach(e, GUARD));
            assertFalse(e.isDeleted());
            assertSame(t, e.get(Transform.class));
            assertFalse(e.has(GUARD.recordType()));
            assertNoGuardTags(e);
            assertTrue(world.query(GUARD.is("answer")).isEmpty());
            assertTrue(world.records(GUARD).isEmpty());
            assertTrue(e.has(SIEGE.is("waiting")), "the entity's other machine stays");
            MachineException ex = assertThrows(MachineException.class, () -> GUARD.read(e));
            assertTrue(ex.getMessage().contains("guard"), ex.getMessage());
            assertFalse(world.detach(e, GUARD), "nothing left to detach");
            world.step(20); // a detached machine is no longer stepped
            assertFalse(e.has(GUARD.recordType()));
            assertNoGuardTags(e);
        }
    }

    @Test
    void detachedRecordCanBeAttachedAgainWithItsTags() {
        try (StateWorld world = StateWorld.create()) {
            Entity a = world.spawn(new Marker());
            Entity b = world.spawn(new Marker());
            StateRecord<Patrol> r = world.attach(a, GUARD.trait());
            GUARD.send(a, "BELL");
            assertTrue(world.detach(a, GUARD));
            world.attach(b, r);
            assertSame(b, r.entity());
            assertTrue(b.has(GUARD.is("answer")), "the re-attached record writes its tags again");
            assertNoGuardTags(a);
            assertEquals(List.of(b), world.query(GUARD.is("answer")).list());
        }
    }

    @Test
    void despawnDeletesTheEntityAndForgetsItsMachines() {
        try (StateWorld world = StateWorld.create()) {
            Entity a = world.spawn(GUARD.trait());
            Entity b = world.spawn(GUARD.trait());
            assertTrue(world.despawn(a));
            assertTrue(a.isDeleted());
            assertEquals(List.of(b), world.query(GUARD.is("patrol.watch")).list());
            assertEquals(1, world.records(GUARD).size());
            assertSame(b, world.records(GUARD).get(0).entity());
            for (int i = 0; i < 5; i++) {
                world.step(1.0); // the deleted guard's wait is not taken
            }
            assertTrue(GUARD.read(b).matches("patrol.rest"));
            assertFalse(world.despawn(a), "a deleted entity is despawned once");
        }
    }

    @Test
    void sendingReadingOrAttachingToADespawnedEntityIsAMachineExceptionNamingTheMachine() {
        try (StateWorld world = StateWorld.create()) {
            Entity a = world.spawn(GUARD.trait());
            world.despawn(a);
            MachineException send = assertThrows(MachineException.class, () -> GUARD.send(a, "BELL"));
            assertTrue(send.getMessage().contains("guard"), send.getMessage());
            MachineException read = assertThrows(MachineException.class, () -> GUARD.read(a));
            assertTrue(read.getMessage().contains("guard"), read.getMessage());
            StateRecord<Patrol> r = GUARD.trait();
            MachineException attach = assertThrows(MachineException.class, () -> world.attach(a, r));
            assertTrue(attach.getMessage().contains("guard"), attach.getMessage());
            assertNull(r.world(), "the refused record is still free");
            assertTrue(world.records(GUARD).isEmpty());
        }
    }

    @Test
    void recordsListsAMachinesLiveRecordsInSpawnOrder() {
        try (StateWorld world = StateWorld.create()) {
            List<Entity> spawned = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                spawned.add(world.spawn(GUARD.trait()));
            }
            world.spawn(SIEGE.trait());
            assertEquals(spawned, entities(world.records(GUARD)));
            world.despawn(spawned.get(1));
            world.detach(spawned.get(3), GUARD);
            Entity late = world.spawn(GUARD.trait());
            assertEquals(List.of(spawned.get(0), spawned.get(2), spawned.get(4), late), entities(world.records(GUARD)));
            assertEquals(1, world.records(SIEGE).size());
        }
    }

    private static List<Entity> entities(List<? extends StateRecord<?>> records) {
        List<Entity> out = new ArrayList<>();
        for (StateRecord<?> r : records) {
            out.add(r.entity());
        }
        return out;
    }

    // ------------------------------------------------------------------ errors change nothing

    @Test
    void spawningTheSameRecordTwiceIsRefusedAndChangesNothing() {
        try (StateWorld world = StateWorld.create()) {
            StateRecord<Patrol> r = GUARD.trait();
            Entity g = world.spawn(new Marker(), r);
            GUARD.send(g, "BELL");
            MachineException e = assertThrows(MachineException.class, () -> world.spawn(new Marker(), r));
            assertTrue(e.getMessage().contains("guard"), e.getMessage());
            assertEquals(1, world.query(Marker.class).count(), "no second entity was created");
            assertSame(g, r.entity());
            assertEquals(List.of(r), world.records(GUARD));
            assertEquals(List.of(g), world.query(GUARD.is("answer")).list());
            assertTrue(world.query(GUARD.is("patrol")).isEmpty());
        }
    }

    @Test
    void twoRecordsOfOneMachineInOneSpawnAreRefusedAndChangeNothing() {
        try (StateWorld world = StateWorld.create()) {
            StateRecord<Patrol> first = GUARD.trait();
            StateRecord<Patrol> second = GUARD.trait();
            MachineException e = assertThrows(MachineException.class, () -> world.spawn(new Marker(), first, second));
            assertTrue(e.getMessage().contains("guard"), e.getMessage());
            assertEquals(0, world.query(Marker.class).count());
            assertTrue(world.records(GUARD).isEmpty());
            assertTrue(world.query(GUARD.is("patrol")).isEmpty());
            assertNull(first.world());
            assertNull(second.world());
        }
    }

    @Test
    void recordsRefusedInASpawnCanStillBeSpawnedOrAttachedWithTheirTags() {
        // "changes nothing": a refused spawn must leave its records as good as new.
        try (StateWorld world = StateWorld.create()) {
            StateRecord<Patrol> first = GUARD.trait();
            StateRecord<Patrol> second = GUARD.trait();
            assertThrows(MachineException.class, () -> world.spawn(new Marker(), first, second));
            Entity e = world.spawn(new Marker());
            world.attach(e, first);
            assertTrue(e.has(GUARD.is("patrol")), "attached record lacks its patrol tag");
            assertTrue(e.has(GUARD.is("patrol.watch")), "attached record lacks its watch tag");
            assertEquals(List.of(e), world.query(GUARD.is("patrol.watch")).list());
        }
    }

    @Test
    void recordRefusedInASpawnKeepsCorrectTagsAfterMovingAndSpawning() {
        try (StateWorld world = StateWorld.create()) {
            StateRecord<Patrol> first = GUARD.trait();
            assertThrows(MachineException.class, () -> world.spawn(first, GUARD.trait()));
            first.setState("answer");
            Entity e = world.spawn(first);
            assertTrue(e.has(GUARD.is("answer")));
            assertTrue(GUARD.send(e, "RESTART"));
            assertTrue(GUARD.read(e).matches("patrol.watch"));
            assertTrue(e.has(GUARD.is("patrol")), "tag of patrol missing after RESTART");
            assertTrue(e.has(GUARD.is("patrol.watch")), "tag of patrol.watch missing after RESTART");
        }
    }

    @Test
    void attachingToAnEntityThatHoldsTheMachineIsRefusedAndChangesNothing() {
        try (StateWorld world = StateWorld.create()) {
            StateRecord<Patrol> original = GUARD.trait();
            Entity g = world.spawn(original);
            GUARD.send(g, "BELL");
            StateRecord<Patrol> extra = GUARD.trait();
            MachineException e = assertThrows(MachineException.class, () -> world.attach(g, extra));
            assertTrue(e.getMessage().contains("guard"), e.getMessage());
            assertSame(original, GUARD.read(g));
            assertTrue(GUARD.read(g).matches("answer"));
            assertTrue(g.has(GUARD.is("answer")));
            assertFalse(g.has(GUARD.is("patrol")));
            assertFalse(g.has(GUARD.is("patrol.watch")));
            assertEquals(List.of(original), world.records(GUARD));
            assertNull(extra.world(), "the refused record is still free");
            Entity other = world.spawn(extra);
            assertTrue(other.has(GUARD.is("patrol.watch")));
        }
    }

    @Test
    void sendingToAnEntityWithoutTheMachineIsAnErrorNamingTheMachine() {
        try (StateWorld world = StateWorld.create()) {
            Transform t = new Transform(0, 0);
            Entity e = world.spawn(t, SIEGE.trait());
            MachineException ex = assertThrows(MachineException.class, () -> GUARD.send(e, "BELL"));
            assertEquals("guard", ex.machineId());
            assertTrue(ex.getMessage().contains("guard"), ex.getMessage());
            assertFalse(e.has(GUARD.recordType()));
            assertNoGuardTags(e);
            assertSame(t, e.get(Transform.class));
            assertEquals("waiting", SIEGE.read(e).value(), "the entity's own machine did not move");
            assertTrue(e.has(SIEGE.is("waiting")));
        }
    }

    @Test
    void sendingToAWorldWithoutTheWorldLevelMachineIsAnErrorNamingTheMachine() {
        try (StateWorld world = StateWorld.create()) {
            MachineException ex = assertThrows(MachineException.class, () -> SIEGE.send(world, "START"));
            assertTrue(ex.getMessage().contains("siege"), ex.getMessage());
            assertFalse(world.entity().has(SIEGE.recordType()));
        }
    }

    @Test
    void valueOfAWorldLevelMachineIsReadAsXStateWritesIt() {
        try (StateWorld world = StateWorld.create()) {
            world.add(GUARD);
            assertEquals(Map.of("patrol", "watch"), GUARD.read(world).value());
        }
    }
}

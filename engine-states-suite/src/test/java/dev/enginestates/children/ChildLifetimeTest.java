package dev.enginestates.children;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import org.junit.jupiter.api.Test;

import static dev.enginestates.children.Squads.SIEGES;
import static dev.enginestates.children.Squads.WAVES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An invoked child lives exactly as long as its state: spawned on entry, despawned on exit, done events with output. */
class ChildLifetimeTest {
    static final double DT = 1.0 / 60;

    @Test
    void anInvokedChildIsSpawnedWithItsStateOnAnEntityKeyedFromItsParent() {
        try (StateWorld world = StateWorld.create()) {
            Entity siege = world.spawn(EntityKey.of("siege-1"), SIEGES.trait());
            assertTrue(world.records(WAVES).isEmpty(), "no wave before the fight");
            SIEGES.send(siege, "ATTACK");
            Entity wave = world.entity("siege-1/wave");
            assertNotNull(wave, "the wave's entity is keyed from its parent's");
            assertEquals(wave, SIEGES.read(siege).child("wave"));
            assertEquals(siege, WAVES.read(wave).parent());
            assertEquals(3, WAVES.read(wave).context().left, "the input made the child's context from the parent's");
            assertEquals(1, world.query(WAVES.is("fighting")).count(), "the child is found by its tag like any machine");
            SIEGES.send(siege, "RETREAT");
            assertTrue(wave.isDeleted(), "leaving the state despawns the child");
            assertNull(world.entity("siege-1/wave"));
            assertTrue(SIEGES.read(siege).children().isEmpty());
            assertTrue(world.records(WAVES).isEmpty());
        }
    }

    @Test
    void aChildThatReachesItsFinalStateSendsItsParentTheDoneEventWithItsOutput() {
        try (StateWorld world = StateWorld.create()) {
            Entity siege = world.spawn(EntityKey.of("siege-1"), SIEGES.trait());
            SIEGES.send(siege, "ATTACK");
            Entity wave = SIEGES.read(siege).child("wave");
            WAVES.send(wave, "KILL");
            WAVES.send(wave, "KILL");
            assertEquals("fight", SIEGES.read(siege).state());
            WAVES.send(wave, "KILL");
            assertEquals("rest", SIEGES.read(siege).state(), "the parent took xstate.done.actor.wave");
            assertEquals(0, SIEGES.read(siege).context().lastOutput, "the done event carried the output");
            assertTrue(wave.isDeleted(), "the parent left the invoking state, so the child went with it");
        }
    }

    @Test
    void aParentSendsToItsChildByIdAndAChildSendsToItsParent() {
        try (StateWorld world = StateWorld.create()) {
            Entity siege = world.spawn(EntityKey.of("siege-1"), SIEGES.trait());
            SIEGES.send(siege, "ATTACK");
            Entity wave = SIEGES.read(siege).child("wave");
            assertTrue(SIEGES.send(siege, "PING_WAVE"));
            assertEquals(1, WAVES.read(wave).context().pings);
            for (int i = 0; i < 121; i++) {
                world.step(DT);
            }
            assertEquals(1, SIEGES.read(siege).context().heard, "the wave's wait sent HELP to its parent");
        }
    }

    @Test
    void anInvokedChildLivesAsLongAsItsStateSoTheGameCannotDespawnOrDetachIt() {
        try (StateWorld world = StateWorld.create()) {
            Entity siege = world.spawn(EntityKey.of("siege-1"), SIEGES.trait());
            SIEGES.send(siege, "ATTACK");
            Entity wave = SIEGES.read(siege).child("wave");
            dev.enginestates.declare.MachineException x = org.junit.jupiter.api.Assertions.assertThrows(
                    dev.enginestates.declare.MachineException.class, () -> world.despawn(wave));
            assertTrue(x.getMessage().contains("'siege-1/wave'") && x.getMessage().contains("'fight'")
                    && x.getMessage().contains("Nothing was changed"), x.getMessage());
            org.junit.jupiter.api.Assertions.assertThrows(dev.enginestates.declare.MachineException.class, () -> world.detach(wave, WAVES));
            assertFalse(wave.isDeleted());
            assertEquals(wave, SIEGES.read(siege).child("wave"), "the child runs on, linked");
            SIEGES.send(siege, "RETREAT");
            assertTrue(wave.isDeleted(), "its state left, it goes");
            SIEGES.send(siege, "ATTACK");
            assertEquals(1, world.records(WAVES).size(), "entering the state again starts a new child");
        }
    }

    @Test
    void despawningTheParentDespawnsItsChildren() {
        try (StateWorld world = StateWorld.create()) {
            Entity siege = world.spawn(EntityKey.of("siege-1"), SIEGES.trait());
            SIEGES.send(siege, "ATTACK");
            Entity wave = SIEGES.read(siege).child("wave");
            world.despawn(siege);
            assertTrue(wave.isDeleted());
            assertTrue(world.records(WAVES).isEmpty());
        }
    }

    @Test
    void aParentWithoutAKeyHasChildrenWithoutKeys() {
        try (StateWorld world = StateWorld.create()) {
            Entity siege = world.spawn(SIEGES.trait());
            SIEGES.send(siege, "ATTACK");
            Entity wave = SIEGES.read(siege).child("wave");
            assertNotNull(wave);
            assertNull(wave.get(EntityKey.class));
            StateRecord<Squads.Wave> w = WAVES.read(wave);
            assertEquals(siege, w.parent());
        }
    }

    @Test
    void aSwappedParentKeepsTheChildrenItsNewerVersionStillInvokes() {
        dev.enginestates.ecs.States<Squads.Siege> v2 = dev.enginestates.ecs.States.of(dev.enginestates.Machine.define("siege",
                Squads.Siege::new, m -> m
                        .version(1, dev.enginestates.declare.Migration.from(0))
                        .initial("calm")
                        .state("calm", s -> s.on("ATTACK", "fight"))
                        .state("fight", s -> s.invoke("wave", Squads.WAVE, i -> i.input(c -> new Squads.Wave(9)).onDone("rest"))
                                .on("RETREAT", "calm"))
                        .state("rest")));
        try (StateWorld world = StateWorld.create()) {
            Entity siege = world.spawn(EntityKey.of("siege-1"), SIEGES.trait());
            SIEGES.send(siege, "ATTACK");
            Entity wave = world.entity("siege-1/wave");
            WAVES.send(wave, "KILL");
            world.swap(SIEGES, v2);
            assertFalse(wave.isDeleted(), "the newer version invokes the same child: it goes on");
            assertEquals(wave, v2.read(siege).child("wave"));
            assertEquals(siege, WAVES.read(wave).parent(), "and names the newer record's entity as its parent");
            assertEquals(2, WAVES.read(wave).context().left, "its context is the one it had");
            WAVES.send(wave, "KILL");
            WAVES.send(wave, "KILL");
            assertEquals("rest", v2.read(siege).state(), "its done event reaches the newer record");
            assertTrue(wave.isDeleted());
        }
    }

    @Test
    void aSwappedParentWhoseNewerVersionInvokesNoSuchChildStopsIt() {
        dev.enginestates.ecs.States<Squads.Siege> v2 = dev.enginestates.ecs.States.of(dev.enginestates.Machine.define("siege",
                Squads.Siege::new, m -> m
                        .version(1, dev.enginestates.declare.Migration.from(0))
                        .initial("calm")
                        .state("calm", s -> s.on("ATTACK", "fight"))
                        .state("fight", s -> s.on("RETREAT", "calm"))));
        try (StateWorld world = StateWorld.create()) {
            Entity siege = world.spawn(EntityKey.of("siege-1"), SIEGES.trait());
            SIEGES.send(siege, "ATTACK");
            Entity wave = world.entity("siege-1/wave");
            world.swap(SIEGES, v2);
            assertTrue(wave.isDeleted());
            assertTrue(world.records(WAVES).isEmpty());
            assertTrue(v2.read(siege).children().isEmpty());
        }
    }
}

package dev.enginestates.children;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Machine;
import dev.enginestates.declare.MachineException;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.MachineFailure;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import static dev.enginestates.children.Squads.SIEGES;
import static dev.enginestates.children.Squads.WAVES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Hostile game code around children: throwing inputs and outputs, parents despawned by their children, other threads, bad ids. */
class ChildrenUnderAttackTest {
    static final double DT = 1.0 / 60;

    @Test
    void aThrowingInputIsRefusedNamingTheParentTheChildAndTheStateAndStartsNoChild() {
        Machine<Squads.Siege> bad = Machine.define("badSiege", Squads.Siege::new, m -> m
                .initial("calm")
                .state("calm", s -> s.on("ATTACK", "fight"))
                .state("fight", s -> s.invoke("wave", Squads.WAVE, i -> i.input(c -> {
                    throw new IllegalStateException("no wave today");
                }))));
        States<Squads.Siege> sieges = States.of(bad);
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(EntityKey.of("s-1"), sieges.trait());
            MachineException x = assertThrows(MachineException.class, () -> sieges.send(e, "ATTACK"));
            assertTrue(x.getMessage().contains("badSiege") && x.getMessage().contains("'wave'") && x.getMessage().contains("fight")
                    && x.getMessage().contains("s-1") && x.getMessage().contains("no wave today"), x.getMessage());
            assertTrue(world.records(WAVES).isEmpty());
            assertNull(world.entity("s-1/wave"));
        }
    }

    @Test
    void aChildWhoseWaitDespawnsItsParentMidStepLeavesAWholeWorld() {
        Machine<Squads.Wave> traitor = Machine.define("traitor", Squads.Wave::new, m -> m
                .initial("a")
                .state("a", s -> s.waitFor(0.5, t -> t.target("b").action((c, e, self) -> {
                    StateWorld w = self.world();
                    w.despawn(((dev.enginestates.ecs.StateRecord<?>) self.machine()).parent());
                })))
                .state("b"));
        Machine<Squads.Siege> host = Machine.define("host", Squads.Siege::new, m -> m
                .initial("fight").state("fight", s -> s.invoke("t", traitor)));
        States<Squads.Siege> hosts = States.of(host);
        List<MachineFailure> failures = new ArrayList<>();
        try (StateWorld world = StateWorld.create()) {
            world.onFailure(failures::add);
            List<Entity> all = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                all.add(world.spawn(EntityKey.of("h" + i), hosts.trait()));
            }
            assertEquals(50, world.records(States.of(traitor)).size());
            for (int i = 0; i < 60; i++) {
                world.step(DT);
            }
            assertTrue(failures.isEmpty(), failures.toString());
            assertTrue(world.records(hosts).isEmpty());
            assertTrue(world.records(States.of(traitor)).isEmpty(), "each child went with the parent it despawned");
            for (Entity h : all) {
                assertTrue(h.isDeleted());
            }
        }
    }

    @Test
    void sendingToAChildFromAnotherThreadFailsFastAndChangesNothing() throws Exception {
        try (StateWorld world = StateWorld.create()) {
            Entity siege = world.spawn(EntityKey.of("s"), SIEGES.trait());
            SIEGES.send(siege, "ATTACK");
            Entity wave = SIEGES.read(siege).child("wave");
            ExecutionException x = assertThrows(ExecutionException.class,
                    () -> CompletableFuture.runAsync(() -> SIEGES.send(siege, "PING_WAVE")).get());
            assertInstanceOf(IllegalStateException.class, x.getCause());
            assertEquals(0, WAVES.read(wave).context().pings);
            assertEquals("fight", SIEGES.read(siege).state());
        }
    }

    @Test
    void aSpawnedChildsIdMustBePlainAndFree() {
        try (StateWorld world = StateWorld.create()) {
            Entity squad = world.spawn(EntityKey.of("q"), SpawnedChildrenTest.SQUADS.trait());
            SpawnedChildrenTest.SQUADS.send(squad, "RECRUIT");
            Machine<SpawnedChildrenTest.Squad> twice = Machine.define("twice", SpawnedChildrenTest.Squad::new, m -> m
                    .spawns(SpawnedChildrenTest.MEMBER)
                    .initial("a")
                    .state("a", s -> s
                            .on("SAME", t -> t.action((c, e, self) -> self.spawnChild("x", SpawnedChildrenTest.MEMBER,
                                    new SpawnedChildrenTest.Member())))
                            .on("SLASH", t -> t.action((c, e, self) -> self.spawnChild("a/b", SpawnedChildrenTest.MEMBER,
                                    new SpawnedChildrenTest.Member())))));
            States<SpawnedChildrenTest.Squad> twices = States.of(twice);
            Entity e = world.spawn(EntityKey.of("t"), twices.trait());
            twices.send(e, "SAME");
            RuntimeException again = assertThrows(RuntimeException.class, () -> twices.send(e, "SAME"));
            assertTrue(again.toString().contains("'x' already") || String.valueOf(again.getCause()).contains("'x' already"), again.toString());
            RuntimeException slash = assertThrows(RuntimeException.class, () -> twices.send(e, "SLASH"));
            assertTrue(slash.toString().contains("plain name") || String.valueOf(slash.getCause()).contains("plain name"), slash.toString());
            assertEquals(List.of("x"), twices.read(e).children());
        }
    }

    @Test
    void invokeIdsAreCheckedWhenTheMachineIsBuilt() {
        Exception x = assertThrows(Exception.class, () -> Machine.define("dup", Squads.Siege::new, m -> m
                .initial("a")
                .state("a", s -> s.invoke("w", Squads.WAVE))
                .state("b", s -> s.invoke("w", Squads.WAVE).invoke("bad/id", Squads.WAVE))));
        assertTrue(x.getMessage().contains("'w'") && x.getMessage().contains("bad/id"), x.getMessage());
    }

    @Test
    void aMachineThatInvokesChildrenRefusesAPlainObjectNamingTheChild() {
        MachineException x = assertThrows(MachineException.class, () -> new dev.enginestates.plain.StateMachine<>(Squads.SIEGE));
        assertTrue(x.getMessage().contains("'wave'") && x.getMessage().contains("StateWorld"), x.getMessage());
    }
}

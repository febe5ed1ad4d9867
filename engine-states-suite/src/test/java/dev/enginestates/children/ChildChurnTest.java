package dev.enginestates.children;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Machine;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.Random;

import static dev.enginestates.children.Squads.SIEGES;
import static dev.enginestates.children.Squads.WAVES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Children never outlive their parents: 100,000 parents come and go, in and out of their invoking states, and no child is left. */
class ChildChurnTest {
    static final double DT = 1.0 / 60;

    @Test
    void noChildLeaksUnderChurnOfOneHundredThousandParents() {
        Random random = new Random(35);
        try (StateWorld world = StateWorld.create()) {
            ArrayDeque<Entity> live = new ArrayDeque<>();
            int made = 0;
            while (made < 100_000) {
                for (int i = 0; i < 500 && made < 100_000; i++, made++) {
                    Entity s = random.nextBoolean() ? world.spawn(EntityKey.of("s" + made), SIEGES.trait()) : world.spawn(SIEGES.trait());
                    live.add(s);
                    if (random.nextInt(3) > 0) {
                        SIEGES.send(s, "ATTACK");
                    }
                }
                world.step(DT);
                // some retreat, some win, most go: parents leave in every way
                int n = live.size();
                for (int i = 0; i < n; i++) {
                    Entity s = live.poll();
                    int roll = random.nextInt(10);
                    if (roll == 0 && "fight".equals(SIEGES.read(s).state())) {
                        SIEGES.send(s, "RETREAT");
                        live.add(s);
                    } else if (roll == 1 && SIEGES.read(s).child("wave") != null) {
                        for (int k = 0; k < 3; k++) {
                            WAVES.send(SIEGES.read(s).child("wave"), "KILL");
                        }
                        live.add(s);
                    } else if (roll < 4) {
                        live.add(s);
                    } else {
                        world.despawn(s);
                    }
                }
                int fighting = 0;
                for (Entity s : live) {
                    fighting += "fight".equals(SIEGES.read(s).state()) ? 1 : 0;
                }
                assertEquals(fighting, world.records(WAVES).size(), "one wave for each siege in its fight, and no other, after " + made);
            }
            for (Entity s : live) {
                world.despawn(s);
            }
            assertTrue(world.records(WAVES).isEmpty(), "every wave went with its siege");
            assertTrue(world.records(SIEGES).isEmpty());
        }
    }

    @Test
    void aChildOnTheParentsEntityIsAttachedWithTheStateAndDetachedWithIt() {
        Machine<Squads.Siege> onSame = Machine.define("sameSiege", Squads.Siege::new, m -> m
                .initial("calm")
                .state("calm", s -> s.on("ATTACK", "fight"))
                .state("fight", s -> s
                        .invoke("wave", Squads.WAVE, i -> i.onSameEntity().input(c -> new Squads.Wave(1)).onDone("calm"))
                        .on("RETREAT", "calm")));
        States<Squads.Siege> sieges = States.of(onSame);
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(EntityKey.of("s"), sieges.trait());
            sieges.send(e, "ATTACK");
            assertEquals(e, sieges.read(e).child("wave"), "the child's record is on the parent's entity");
            assertEquals(e, WAVES.read(e).parent());
            assertTrue(e.has(WAVES.is("fighting")), "with its tags");
            sieges.send(e, "RETREAT");
            assertTrue(e.get(WAVES.recordType()) == null, "leaving the state detached it");
            sieges.send(e, "ATTACK");
            WAVES.send(e, "KILL");
            assertEquals("calm", sieges.read(e).state(), "the done event came from the child on the same entity");
            assertTrue(e.get(WAVES.recordType()) == null);
        }
    }
}

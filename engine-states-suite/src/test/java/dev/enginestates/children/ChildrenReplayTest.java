package dev.enginestates.children;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.Event;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.InputLog;
import dev.enginestates.io.Saves;
import org.junit.jupiter.api.Test;

import static dev.enginestates.children.Squads.SIEGES;
import static dev.enginestates.children.Squads.WAVES;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Children follow from moves, so an input log holds only the game's inputs and its replay starts the same children. */
class ChildrenReplayTest {
    static final double DT = 1.0 / 60;
    static final Saves SAVES = Saves.of(SIEGES, SpawnedChildrenTest.SQUADS);

    @Test
    void aReplayedLogStartsAndStopsTheSameChildren() throws Exception {
        try (StateWorld world = StateWorld.create(); StateWorld replayed = StateWorld.create()) {
            InputLog log = InputLog.start(SAVES, world);
            Entity a = world.spawn(EntityKey.of("a"), SIEGES.trait());
            Entity b = world.spawn(EntityKey.of("b"), SIEGES.trait());
            Entity q = world.spawn(EntityKey.of("q"), SpawnedChildrenTest.SQUADS.trait());
            SIEGES.send(a, "ATTACK");
            SIEGES.send(b, "ATTACK");
            SpawnedChildrenTest.SQUADS.send(q, "RECRUIT");
            SpawnedChildrenTest.SQUADS.send(q, "RECRUIT");
            for (int i = 0; i < 150; i++) {
                world.step(DT);
                if (i == 40) {
                    WAVES.send(world.entity("a/wave"), "KILL");
                    SIEGES.send(b, "RETREAT");
                    SpawnedChildrenTest.SQUADS.send(q, Event.of("DISMISS").with("id", "m1"));
                }
                if (i == 90) {
                    world.despawn(a);
                }
            }
            String text = log.text();
            int spawns = 0;
            int despawns = 0;
            for (com.fasterxml.jackson.databind.JsonNode input : new com.fasterxml.jackson.databind.ObjectMapper().readTree(text).get("inputs")) {
                spawns += input.has("spawn") ? 1 : 0;
                despawns += input.has("despawn") ? 1 : 0;
            }
            assertEquals(3, spawns, "the game's three spawns are inputs; the children's spawns follow from moves");
            assertEquals(1, despawns, "the game's despawn of 'a' is an input; its wave's is not");
            InputLog.replay(SAVES, replayed, text);
            assertEquals(SAVES.checkpoint(world), SAVES.checkpoint(replayed), "the replay ends as the game did");
            assertEquals(world.records(WAVES).size(), replayed.records(WAVES).size());
        }
    }

    /** A lookout's context: how many pings it heard. */
    public static final class Lookout {
        public int pings;
    }

    static final States<Lookout> LOOKOUT = States.define("lookout", Lookout::new, m -> m
            .initial("watching")
            .state("watching", s -> s.on("PING", t -> t.action((c, e) -> c.pings++))));
    static final States<Squads.Siege> CAMP = States.define("camp", Squads.Siege::new, m -> m
            .initial("calm")
            .state("calm", s -> s.on("ALARM", "alert"))
            .state("alert", s -> s.invoke("lookout", LOOKOUT.machine(), i -> i.onSameEntity()).on("CALM", "calm")));

    @Test
    void aLogWithInputsToAChildOnItsParentsEntityStartedAfterTheLogReplays() {
        Saves saves = Saves.of(CAMP);
        try (StateWorld world = StateWorld.create(); StateWorld replayed = StateWorld.create()) {
            Entity camp = world.spawn(EntityKey.of("camp"), CAMP.trait());
            InputLog log = InputLog.start(saves, world); // the camp is calm: no lookout yet
            CAMP.send(camp, "ALARM");
            LOOKOUT.send(camp, "PING"); // to the child on the camp's own entity, which a move attached
            LOOKOUT.send(camp, "PING");
            InputLog.replay(saves, replayed, log.text());
            assertEquals(saves.checkpoint(world), saves.checkpoint(replayed));
            assertEquals(2, LOOKOUT.read(replayed.entity("camp")).context().pings);
        }
    }
}

package dev.enginestates.children;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.Owner;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Replica;
import dev.enginestates.io.RoomStream;
import dev.enginestates.io.Saves;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.enginestates.children.Squads.SIEGES;
import static dev.enginestates.children.Squads.WAVES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A replica receives children as the room streams them: it starts and stops none of its own, links
 * each to its parent, and an owner-only parent's child goes to the parent's owner alone.
 */
class ReplicaReceivesChildrenTest {
    static final double DT = 1.0 / 60;

    @Test
    void aReplicaHoldsTheRoomsChildrenLinkedToTheirParentsAndStartsNoneOfItsOwn() {
        try (StateWorld room = StateWorld.create(); StateWorld copy = StateWorld.create()) {
            RoomStream stream = RoomStream.of(room, SIEGES); // the waves stream with the sieges that invoke them
            stream.join("alice");
            Replica alice = Replica.of(copy, "alice", SIEGES);
            Entity siege = room.spawn(EntityKey.of("siege-1"), SIEGES.trait());
            room.spawn(EntityKey.of("siege-2"), SIEGES.trait());
            alice.apply(stream.frames().get("alice"));
            SIEGES.send(siege, "ATTACK");
            for (int i = 0; i < 30; i++) {
                room.step(DT);
                alice.apply(stream.frames().get("alice"));
            }
            Saves saves = Saves.of(SIEGES);
            assertEquals(saves.checkpoint(room), saves.checkpoint(copy));
            assertEquals(1, copy.records(WAVES).size(), "the replica started no wave of its own");
            Entity copied = copy.entity("siege-1");
            assertEquals(copy.entity("siege-1/wave"), SIEGES.read(copied).child("wave"));
            for (int k = 0; k < 3; k++) {
                WAVES.send(room.entity("siege-1/wave"), "KILL");
            }
            room.step(DT);
            alice.apply(stream.frames().get("alice"));
            assertEquals("rest", SIEGES.read(copied).state());
            assertNull(copy.entity("siege-1/wave"), "the room's child went, and the frame took it from the replica");
            assertTrue(copy.records(WAVES).isEmpty());
            assertEquals(saves.checkpoint(room), saves.checkpoint(copy));
        }
    }

    @Test
    void anOwnedParentsChildGoesToItsOwnerAlone() {
        try (StateWorld room = StateWorld.create(); StateWorld a = StateWorld.create(); StateWorld b = StateWorld.create()) {
            RoomStream stream = RoomStream.of(room, SIEGES);
            stream.join("alice");
            stream.join("bob");
            Replica alice = Replica.of(a, "alice", SIEGES);
            Replica bob = Replica.of(b, "bob", SIEGES);
            Entity siege = room.spawn(EntityKey.of("siege-1"), new Owner("alice"), SIEGES.trait());
            SIEGES.send(siege, "ATTACK");
            assertEquals(new Owner("alice"), room.entity("siege-1/wave").get(Owner.class), "the child has its parent's owner");
            Map<String, String> frames = stream.frames();
            alice.apply(frames.get("alice"));
            bob.apply(frames.get("bob"));
            assertEquals(1, a.records(WAVES).size());
            assertEquals(1, b.records(WAVES).size(), "the wave machine is not owner-only, so bob sees it too");
        }
    }

    @Test
    void aSpawnedChildStartedAgainUnderTheIdOfOneTheGameDespawnedIsLinkedInTheReplica() {
        States<SpawnedChildrenTest.Squad> squads = SpawnedChildrenTest.SQUADS;
        try (StateWorld room = StateWorld.create(); StateWorld copy = StateWorld.create()) {
            RoomStream stream = RoomStream.of(room, squads);
            stream.join("alice");
            Replica alice = Replica.of(copy, "alice", squads);
            Entity squad = room.spawn(EntityKey.of("squad-1"), squads.trait());
            squads.send(squad, "RECRUIT");
            alice.apply(stream.frames().get("alice"));
            room.despawn(room.entity("squad-1/m1")); // the game despawns the member; the squad keeps its place
            alice.apply(stream.frames().get("alice"));
            squads.read(squad).context().recruited = 0;
            squads.send(squad, "RECRUIT"); // "m1" again
            alice.apply(stream.frames().get("alice"));
            Entity copied = copy.entity("squad-1");
            assertEquals(List.of("m1"), squads.read(copied).children(), "the new m1 is the squad's child in the replica too");
            assertEquals(copy.entity("squad-1/m1"), squads.read(copied).child("m1"));
            assertEquals(copied, SpawnedChildrenTest.MEMBERS.read(copy.entity("squad-1/m1")).parent());
        }
    }
}

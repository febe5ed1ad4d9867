package dev.enginestates.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.Allocations;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.Owner;
import dev.enginestates.ecs.StateWorld;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.enginestates.io.StreamTest.ALL;
import static dev.enginestates.io.StreamTest.GUARD;
import static dev.enginestates.io.StreamTest.SAVES;
import static dev.enginestates.io.StreamTest.TALK;
import static dev.enginestates.io.StreamTest.names;
import static dev.enginestates.io.StreamTest.parse;
import static dev.enginestates.io.StreamTest.steps;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Interest management: a player's frames carry only the entities the room's {@link Interest}
 * selects for that player, on top of {@code ownerOnly}. An entity entering arrives whole, one
 * leaving is removed, one outside sends not a byte; a throwing interest fails the frame and
 * changes nothing; one that changes the world while asked is harmless.
 */
class InterestTest {
    /** Where an entity stands on a line; the game's own component. */
    static final class Pos {
        int x;

        Pos(int x) {
            this.x = x;
        }
    }

    /** Each player's place on the line; a player sees what stands within {@link #RADIUS} of it. */
    final Map<String, Integer> places = new HashMap<>();
    static final int RADIUS = 10;

    final Interest area = (player, e) -> {
        Pos p = e.get(Pos.class);
        Integer at = places.get(player);
        return p != null && at != null && Math.abs(p.x - at) <= RADIUS;
    };

    private final List<StateWorld> worlds = new ArrayList<>();

    @AfterEach
    void close() {
        worlds.forEach(StateWorld::close);
    }

    StateWorld world() {
        StateWorld w = StateWorld.create();
        worlds.add(w);
        return w;
    }

    Replica replica(String player) {
        return Replica.of(world(), player, ALL);
    }

    /** The room's dump as a player may see it: {@code ownerOnly} as {@link StreamTest#seenBy}, then only the entities in its interest. */
    static JsonNode seenWithin(StateWorld room, String player, Interest interest) {
        ObjectNode root = (ObjectNode) StreamTest.seenBy(SAVES.dump(room), player);
        ObjectNode entities = (ObjectNode) root.get("entities");
        for (Iterator<String> it = entities.fieldNames(); it.hasNext(); ) {
            if (!interest.sees(player, room.entity(it.next()))) {
                it.remove();
            }
        }
        return root;
    }

    void assertReplicaSeesItsInterest(StateWorld room, Replica replica, Interest interest) {
        assertEquals(seenWithin(room, replica.recipient(), interest), parse(SAVES.dump(replica.world())),
                replica.recipient() + "'s replica holds the room's records within its interest, and nothing else");
    }

    /** Guards at 0, 5 and 50, alice's hero at 2; alice stands at 0, bob at 50. */
    final class Room {
        final StateWorld world = world();
        final Entity near = world.spawn(EntityKey.of("near"), new Pos(0), GUARD.trait());
        final Entity beside = world.spawn(EntityKey.of("beside"), new Pos(5), GUARD.trait());
        final Entity far = world.spawn(EntityKey.of("far-outpost"), new Pos(50), GUARD.trait());
        final Entity hero = world.spawn(EntityKey.of("hero"), new Owner("alice"), new Pos(2), GUARD.trait(), TALK.trait());
        final RoomStream stream = RoomStream.of(world, ALL).interest(area);

        Room() {
            places.put("alice", 0);
            places.put("bob", 50);
            stream.join("alice");
        }
    }

    static void move(Entity e, int x) {
        e.get(Pos.class).x = x;
    }

    // ------------------------------------------------------------------ enter, leave, not a byte

    @Test
    void anEntityThatEntersAPlayersInterestArrivesWholeInTheNextFrameThoughItsRecordsDidNotChange() {
        Room room = new Room();
        Replica alice = replica("alice");
        alice.apply(room.stream.frame("alice"));
        steps(room.world, 3);
        alice.apply(room.stream.frame("alice"));
        assertNull(alice.world().entity("far-outpost"));
        move(room.far, 8); // its guard's record does not change
        JsonNode frame = parse(room.stream.frame("alice"));
        assertFalse(frame.get("whole").asBoolean(), "a frame of changes");
        JsonNode far = frame.path("entities").path("far-outpost").path("stream-guard");
        assertEquals(RecordCodec.fieldNames(dev.enginestates.records.Access.chart(GUARD.machine())), names(far),
                "it arrives whole: every field of its record");
        assertFalse(frame.path("entities").has("near"), "what was in the interest and did not change sends nothing");
        alice.apply(frame.toString());
        assertNotNull(alice.world().entity("far-outpost"));
        assertReplicaSeesItsInterest(room.world, alice, area);
    }

    @Test
    void anEntityThatLeavesAPlayersInterestIsRemovedAndTheReplicaDespawnsIt() {
        Room room = new Room();
        Replica alice = replica("alice");
        Entity own = alice.world().spawn(EntityKey.of("beside")); // the page's own entity under that key lives on
        alice.apply(room.stream.frame("alice"));
        move(room.near, 40);
        move(room.beside, 40);
        JsonNode frame = parse(room.stream.frame("alice"));
        assertTrue(frame.path("entities").path("near").path("stream-guard").isNull(), frame.toString());
        assertTrue(frame.path("entities").path("beside").path("stream-guard").isNull(), frame.toString());
        alice.apply(frame.toString());
        assertNull(alice.world().entity("near"), "the replica despawned the entity it spawned for the record");
        assertSame(own, alice.world().entity("beside"), "the game's own entity only lost the record");
        assertFalse(own.has(GUARD.recordType()));
        assertReplicaSeesItsInterest(room.world, alice, area);
        move(room.near, 1); // and back: whole again
        frame = parse(room.stream.frame("alice"));
        assertEquals(RecordCodec.fieldNames(dev.enginestates.records.Access.chart(GUARD.machine())),
                names(frame.path("entities").path("near").path("stream-guard")));
        alice.apply(frame.toString());
        assertReplicaSeesItsInterest(room.world, alice, area);
    }

    @Test
    void noByteOfAnEntityOutsideAPlayersInterestReachesThatPlayer() {
        Room room = new Room();
        room.stream.join("bob");
        GUARD.read(room.far).context().name = "zanzibar-sentinel";
        GUARD.read(room.near).context().name = "quetzal-watcher";
        GUARD.send(room.far, "BELL");
        GUARD.send(room.near, "BELL");
        for (int i = 0; i < 3; i++) {
            Map<String, String> frames = room.stream.frames();
            String alice = frames.get("alice");
            String bob = frames.get("bob");
            assertFalse(alice.contains("far-outpost"), alice);
            assertFalse(alice.contains("zanzibar"), alice);
            assertTrue(i > 0 || alice.contains("quetzal-watcher"), alice);
            assertFalse(bob.contains("\"near\""), bob);
            assertFalse(bob.contains("quetzal"), bob);
            assertFalse(bob.contains("hero"), "nor the key of alice's hero, which stands far from bob");
            assertTrue(i > 0 || bob.contains("zanzibar-sentinel"), bob);
            GUARD.read(room.far).context().bells += 7;
            GUARD.read(room.near).context().bells += 7;
            steps(room.world, 1);
        }
    }

    @Test
    void aRecordReachesAPlayerOnlyWhenBothItsInterestAndOwnerOnlyAllowIt() {
        Room room = new Room();
        room.stream.join("bob");
        TALK.send(room.hero, "GREET");
        places.put("bob", 0); // bob stands by alice's hero: he sees its guard, never its talk
        Map<String, String> frames = room.stream.frames();
        JsonNode toBob = parse(frames.get("bob")).path("entities").path("hero");
        assertEquals(List.of("stream-guard"), names(toBob));
        assertFalse(frames.get("bob").contains("stream-talk"), frames.get("bob"));
        assertFalse(frames.get("bob").contains("weather"), frames.get("bob"));
        assertTrue(parse(frames.get("alice")).path("entities").path("hero").has("stream-talk"));
        Replica alice = replica("alice");
        Replica bob = replica("bob");
        alice.apply(frames.get("alice"));
        bob.apply(frames.get("bob"));
        // alice walks away from her own hero: her ownerOnly talk leaves too, since both must allow it
        places.put("alice", 100);
        frames = room.stream.frames();
        JsonNode toAlice = parse(frames.get("alice")).path("entities").path("hero");
        assertTrue(toAlice.get("stream-talk").isNull() && toAlice.get("stream-guard").isNull(), toAlice.toString());
        alice.apply(frames.get("alice"));
        bob.apply(frames.get("bob"));
        assertNull(alice.world().entity("hero"));
        assertReplicaSeesItsInterest(room.world, alice, area);
        assertReplicaSeesItsInterest(room.world, bob, area);
        // an entity holding only another's ownerOnly record: the interest is not even asked about it for bob
        room.world.detach(room.hero, GUARD);
        List<String> asked = new ArrayList<>();
        room.stream.interest((player, e) -> {
            asked.add(player + "@" + StateWorld.keyOf(e));
            return area.sees(player, e);
        });
        room.stream.frames();
        assertFalse(asked.contains("bob@hero"), asked.toString());
        assertTrue(asked.contains("alice@hero"), asked.toString());
    }

    // ------------------------------------------------------------------ joining, epochs, cost

    @Test
    void aJoinOrARejoinGetsAWholeFrameOfExactlyTheInterest() {
        Room room = new Room();
        steps(room.world, 20);
        GUARD.send(room.beside, "BELL");
        room.stream.join("bob");
        JsonNode bob = parse(room.stream.frame("bob"));
        assertTrue(bob.get("whole").asBoolean());
        assertEquals(List.of("far-outpost"), names(bob.get("entities")));
        Replica alice = replica("alice");
        alice.apply(room.stream.frame("alice"));
        move(room.far, 3);
        move(room.beside, 70);
        room.stream.join("alice"); // a reload
        JsonNode whole = parse(room.stream.frame("alice"));
        assertTrue(whole.get("whole").asBoolean());
        assertEquals(Set.of("near", "far-outpost", "hero"), Set.copyOf(names(whole.get("entities"))));
        Replica reloaded = replica("alice");
        reloaded.apply(whole.toString());
        assertReplicaSeesItsInterest(room.world, reloaded, area);
        alice.apply(whole.toString()); // the old replica takes it too, and drops what it does not name
        assertNull(alice.world().entity("beside"));
        assertReplicaSeesItsInterest(room.world, alice, area);
    }

    @Test
    void theEpochAndAMoveToAnotherHomeAreUnaffectedByAnInterest() {
        Room room = new Room();
        Replica alice = replica("alice");
        alice.apply(room.stream.frame("alice"));
        StateWorld home = world();
        SAVES.restoreSpawningMissing(home, SAVES.checkpoint(room.world));
        home.entity("hero").add(new Owner("alice"));
        for (String key : List.of("near", "beside", "far-outpost", "hero")) {
            home.entity(key).add(new Pos(room.world.entity(key).get(Pos.class).x));
        }
        RoomStream moved = RoomStream.of(home, 5, ALL).interest(area);
        moved.join("alice");
        String whole = moved.frame("alice");
        assertEquals(5, parse(whole).get("epoch").asLong());
        alice.apply(whole);
        assertEquals(5, alice.epoch());
        assertReplicaSeesItsInterest(home, alice, area);
        String late = room.stream.frame("alice"); // the old home's frame, filtered alike, is still refused by its epoch
        assertThrows(StreamException.class, () -> alice.apply(late));
        move(home.entity("far-outpost"), 4);
        GUARD.send(home.entity("near"), "BELL");
        alice.apply(moved.frame("alice"));
        assertReplicaSeesItsInterest(home, alice, area);
    }

    @Test
    void theInterestIsAskedOncePerPlayerPerEntityPerFrameAndSettingNoneSendsEveryEntityAgain() {
        Room room = new Room();
        room.stream.join("bob");
        AtomicInteger asked = new AtomicInteger();
        room.stream.interest((player, e) -> {
            asked.incrementAndGet();
            return area.sees(player, e);
        });
        room.stream.frames();
        // alice: 4 entities; bob: the 3 guards (alice's hero holds a guard too, so 4)
        assertEquals(8, asked.get(), "once per player per entity, not per record");
        asked.set(0);
        room.stream.frame("bob");
        assertEquals(4, asked.get());
        Replica bob = replica("bob");
        room.stream.join("bob");
        bob.apply(room.stream.frame("bob"));
        room.stream.interest(null);
        JsonNode frame = parse(room.stream.frame("bob"));
        assertEquals(Set.of("near", "beside", "hero"), Set.copyOf(names(frame.get("entities"))), "every entity enters, whole");
        bob.apply(frame.toString());
        StreamTest.assertReplicaSeesTheRoom(room.world, bob);
    }

    @Test
    void anUnchangedFrameWithAnInterestAllocatesNothingPerEntityBeyondWhatItDoesWithout() {
        StateWorld plain = world();
        StateWorld filtered = world();
        for (int i = 0; i < 1000; i++) {
            plain.spawn(EntityKey.of("g" + i), new Pos(i % 40), GUARD.trait());
            filtered.spawn(EntityKey.of("g" + i), new Pos(i % 40), GUARD.trait());
        }
        places.put("p", 0);
        Interest sees = (player, e) -> true; // every entity, so both frames hold the same records
        RoomStream all = RoomStream.of(plain, GUARD);
        RoomStream some = RoomStream.of(filtered, GUARD).interest(sees);
        all.join("p");
        some.join("p");
        all.frame("p");
        some.frame("p");
        long beyond = Allocations.beyond(() -> all.frame("p"), () -> some.frame("p"));
        assertTrue(beyond < Allocations.MEASUREMENT_MARGIN, "an unchanged frame of 1,000 entities with an interest allocated "
                + beyond + " B more than without; expected none per entity");
        some.interest(area); // most leave (725 of them), then stay out: still nothing per entity
        some.frame("p");
        long outside = Allocations.beyond(() -> all.frame("p"), () -> some.frame("p"));
        assertTrue(outside < Allocations.MEASUREMENT_MARGIN, "an unchanged frame keeping 725 entities out allocated " + outside
                + " B more than one sending every entity");
    }

    // ------------------------------------------------------------------ a rule that throws or meddles

    @Test
    void anInterestThatThrowsFailsTheFramesNamingThePlayerAndTheEntityAndChangesNothing() {
        Room room = new Room();
        room.stream.join("bob");
        Replica alice = replica("alice");
        Replica bob = replica("bob");
        Map<String, String> first = room.stream.frames();
        alice.apply(first.get("alice"));
        bob.apply(first.get("bob"));
        GUARD.send(room.near, "BELL");
        move(room.far, 1);
        boolean[] broken = {true};
        room.stream.interest((player, e) -> {
            if (broken[0] && player.equals("bob") && "far-outpost".equals(StateWorld.keyOf(e))) {
                throw new IllegalStateException("no position for bob yet");
            }
            return area.sees(player, e);
        });
        StreamException e = assertThrows(StreamException.class, room.stream::frames);
        assertTrue(e.getMessage().contains("player 'bob'") && e.getMessage().contains("entity 'far-outpost'")
                && e.getMessage().contains("no position for bob yet") && e.getMessage().contains("nothing was changed"), e.getMessage());
        assertInstanceOf(IllegalStateException.class, e.getCause());
        StreamException one = assertThrows(StreamException.class, () -> room.stream.frame("bob"));
        assertTrue(one.getMessage().contains("player 'bob'"), one.getMessage());
        broken[0] = false;
        Map<String, String> next = room.stream.frames(); // the retry: alice's and bob's frames follow their last ones
        alice.apply(next.get("alice"));
        bob.apply(next.get("bob"));
        assertEquals(first.size(), next.size());
        assertReplicaSeesItsInterest(room.world, alice, area);
        assertReplicaSeesItsInterest(room.world, bob, area);
        assertTrue(parse(next.get("alice")).path("entities").path("near").has("stream-guard"), "the bell, which the failed call did not send");
    }

    @Test
    void anInterestThatChangesTheWorldWhileAskedIsHarmlessAndOneThatCallsTheStreamIsRefused() {
        Room room = new Room();
        Replica alice = replica("alice");
        alice.apply(room.stream.frame("alice"));
        String held = SAVES.dump(alice.world());
        double clock = room.world.time();
        boolean[] meddle = {true};
        room.stream.interest((player, e) -> {
            if (meddle[0]) {
                meddle[0] = false;
                GUARD.send(room.near, "BELL");                                   // a send
                room.world.spawn(EntityKey.of("spawned"), new Pos(1), GUARD.trait()); // a spawn
                room.world.despawn(room.beside);                                 // a despawn
                room.world.step(1.0 / 60);                                       // even a step
            }
            return area.sees(player, e);
        });
        JsonNode frame = parse(room.stream.frame("alice"));
        assertEquals(clock, frame.path("clock").path("time").asDouble(), "the frame names the clock its records were read at");
        // the records are as read before the interest ran (no bell, no spawn); its answers are its own: a despawned
        // entity has no Pos, so it says no, and the frame removes it
        assertEquals(List.of("beside"), names(frame.get("entities")), frame.toString());
        assertTrue(frame.path("entities").path("beside").path("stream-guard").isNull(), frame.toString());
        alice.apply(frame.toString());
        ObjectNode expected = (ObjectNode) parse(held);
        ((ObjectNode) expected.get("entities")).remove("beside");
        assertEquals(expected.path("entities"), parse(SAVES.dump(alice.world())).path("entities"), "alice holds what she held, less beside");
        alice.apply(room.stream.frame("alice")); // the next frame brings what the interest did
        assertReplicaSeesItsInterest(room.world, alice, area);
        assertNotNull(alice.world().entity("spawned"));
        assertNull(alice.world().entity("beside"));
        assertTrue(GUARD.read(alice.world().entity("near")).matches("answer"));

        String[] calls = {"frames", "frame", "join", "leave", "interest"};
        for (String call : calls) {
            room.stream.interest((player, e) -> {
                switch (call) {
                    case "frames" -> room.stream.frames();
                    case "frame" -> room.stream.frame("alice");
                    case "join" -> room.stream.join("carol");
                    case "leave" -> room.stream.leave("alice");
                    default -> room.stream.interest(null);
                }
                return true;
            });
            long seq = alice.sequence();
            StreamException e = assertThrows(StreamException.class, () -> room.stream.frame("alice"), call);
            assertInstanceOf(IllegalStateException.class, e.getCause(), call);
            assertTrue(e.getCause().getMessage().contains("was called from its Interest"), e.getCause().getMessage());
            assertEquals(List.of("alice"), room.stream.recipients(), call + " changed nothing");
            room.stream.interest(area);
            alice.apply(room.stream.frame("alice"));
            assertEquals(seq + 1, alice.sequence(), "the refused call made no frame: the next follows on");
        }
        assertReplicaSeesItsInterest(room.world, alice, area);
    }
}

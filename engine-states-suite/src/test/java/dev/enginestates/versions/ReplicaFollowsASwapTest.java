package dev.enginestates.versions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.Owner;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Replica;
import dev.enginestates.io.RoomStream;
import dev.enginestates.io.Saves;
import dev.enginestates.io.StreamException;
import dev.enginestates.versions.GuardVersions.Guard;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static dev.enginestates.versions.GuardVersions.V1;
import static dev.enginestates.versions.GuardVersions.V2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A room's world swaps its guards from version 1 to version 2 ({@code StateWorld.swap}) while
 * players follow it: every frame that starts a player's view names each machine's version and
 * fingerprint, the swap makes each player's next frame whole, and a replica made with both
 * versions replaces its version 1 records by the room's version 2 ones; one made without
 * version 2 refuses the frame, saying which versions the frame has and which it knows.
 */
class ReplicaFollowsASwapTest {
    static final double DT = 1.0 / 60;
    static final ObjectMapper JSON = new ObjectMapper();

    public static final class Talk {
        public int lines;
    }

    /** Alice's own: it must stay hers through the guards' swap. */
    static final States<Talk> TALK = States.define("vtalk", Talk::new, m -> m
            .ownerOnly()
            .initial("idle")
            .state("idle", s -> s.on("GREET", "talking"))
            .state("talking", s -> s.entry((t, e) -> t.lines++).waitFor(3, "idle")));

    /** Reads the room and the replicas of either version. */
    static final Saves SAVES = Saves.of(V1, V2, TALK);

    final List<StateWorld> worlds = new ArrayList<>();

    @AfterEach
    void close() {
        worlds.forEach(StateWorld::close);
    }

    StateWorld world() {
        StateWorld w = StateWorld.create();
        worlds.add(w);
        return w;
    }

    static JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    /** A room of guards of version 1 in each of its states, and alice's hero talking, stepped a while. */
    StateWorld room(int guards) {
        StateWorld world = world();
        for (int i = 0; i < guards; i++) {
            Entity e = world.spawn(EntityKey.of("g" + i), V1.trait());
            switch (i % 5) {
                case 1 -> V1.send(e, "BELL");
                case 2 -> V1.send(e, "ALARM");
                case 3 -> V1.send(e, "SEARCH");
                case 4 -> {
                    V1.send(e, "BELL");
                    V1.send(e, "RESUME");
                }
                default -> { }
            }
            world.step(DT); // each guard starts its wait at another time
        }
        Entity hero = world.spawn(EntityKey.of("hero"), new Owner("alice"), TALK.trait());
        TALK.send(hero, "GREET");
        steps(world, 90);
        return world;
    }

    static void steps(StateWorld w, int n) {
        for (int i = 0; i < n; i++) {
            w.step(DT);
        }
    }

    /**
     * The room's checkpoint and dump (tags included) as a player may see them: alice's hero only
     * for alice, and no owner (a replica has none).
     */
    static String seenBy(StateWorld room, String player) {
        ObjectNode checkpoint = (ObjectNode) parse(SAVES.checkpoint(room));
        ObjectNode dump = (ObjectNode) parse(SAVES.dump(room));
        for (ObjectNode root : List.of(checkpoint, dump)) {
            ObjectNode entities = (ObjectNode) root.get("entities");
            if (!player.equals("alice")) {
                entities.remove("hero");
            }
            for (Iterator<JsonNode> it = entities.elements(); it.hasNext(); ) {
                ((ObjectNode) it.next()).remove("owner");
            }
        }
        if (!player.equals("alice") && checkpoint.get("machines").has("vtalk")) {
            ((ObjectNode) checkpoint.get("machines")).remove("vtalk");
        }
        return checkpoint + "\n" + dump;
    }

    static String held(Replica replica) {
        return parse(SAVES.checkpoint(replica.world())) + "\n" + parse(SAVES.dump(replica.world()));
    }

    static void assertReplicaIsTheRoom(StateWorld room, Replica replica, String when) {
        assertEquals(seenBy(room, replica.recipient()), held(replica), replica.recipient() + "'s replica " + when);
    }

    static void feed(Map<String, String> frames, Replica... replicas) {
        for (Replica r : replicas) {
            r.apply(frames.get(r.recipient()));
        }
    }

    @Test
    void bothReplicasAndALateJoinerEqualTheRoomAfterASwapMidRun() {
        StateWorld room = room(20);
        RoomStream stream = RoomStream.of(room, V1, TALK);
        stream.join("alice");
        stream.join("bob");
        Replica alice = Replica.of(world(), "alice", V1, V2, TALK);
        Replica bob = Replica.of(world(), "bob", V2, V1, TALK); // the order given does not matter
        feed(stream.frames(), alice, bob);
        for (int i = 0; i < 30; i++) {
            room.step(DT);
            feed(stream.frames(), alice, bob);
        }
        assertReplicaIsTheRoom(room, alice, "before the swap");
        assertReplicaIsTheRoom(room, bob, "before the swap");
        assertFalse(alice.world().records(V1).isEmpty());

        assertEquals(20, room.swap(V1, V2));
        Map<String, String> after = stream.frames();

        for (String player : List.of("alice", "bob")) {
            JsonNode f = parse(after.get(player));
            assertTrue(f.get("whole").asBoolean(), player + "'s frame after the swap is whole: " + f);
            assertEquals(2, f.at("/machines/vguard/version").asInt(), f.toString());
            assertEquals(V2.machine().fingerprint(), f.at("/machines/vguard/fingerprint").asText());
        }
        feed(after, alice, bob);
        for (Replica r : List.of(alice, bob)) {
            assertReplicaIsTheRoom(room, r, "right after the swap");
            assertTrue(r.world().records(V1).isEmpty(), r.recipient() + "'s replica holds no record of version 1");
            assertEquals(20, r.world().records(V2).size());
        }
        assertTrue(bob.world().records(TALK).isEmpty(), "alice's talk stays hers through the swap");

        for (int i = 0; i < 120; i++) {
            if (i % 7 == 0) {
                V2.send(room.entity("g" + (i % 20)), i % 2 == 0 ? "BELL" : "NOISE");
            }
            room.step(DT);
            Map<String, String> frames = stream.frames();
            assertFalse(parse(frames.get("alice")).get("whole").asBoolean(), "one whole frame per swap");
            assertFalse(parse(frames.get("alice")).has("machines"), "a frame of changes keeps the versions of the whole frame");
            feed(frames, alice, bob);
            assertReplicaIsTheRoom(room, alice, "at step " + room.steps());
            assertReplicaIsTheRoom(room, bob, "at step " + room.steps());
        }

        stream.join("carol");
        Replica carol = Replica.of(world(), "carol", V2, TALK); // built after the swap: version 2 alone
        String first = stream.frame("carol");
        assertEquals(2, parse(first).at("/machines/vguard/version").asInt());
        carol.apply(first);
        assertReplicaIsTheRoom(room, carol, "of a player who joined after the swap");
    }

    @Test
    void aReplicaMadeWithoutTheNewVersionRefusesTheFrameAfterTheSwapNamingBothVersionsAndStaysUnchanged() {
        StateWorld room = room(10);
        RoomStream stream = RoomStream.of(room, V1, TALK);
        stream.join("bob");
        Replica bob = Replica.of(world(), "bob", V1, TALK);
        for (int i = 0; i < 5; i++) {
            room.step(DT);
            bob.apply(stream.frame("bob"));
        }
        String before = held(bob);
        long seq = bob.sequence();
        room.swap(V1, V2);
        String frame = stream.frame("bob");

        StreamException e = assertThrows(StreamException.class, () -> bob.apply(frame));

        String m = e.getMessage();
        assertTrue(m.contains("$.machines.vguard") && m.contains("'vguard'"), m);
        assertTrue(m.contains("version 2 (fingerprint " + V2.machine().fingerprint() + ")"), "the version the frame has: " + m);
        assertTrue(m.contains("knows version 1 (fingerprint " + V1.machine().fingerprint() + ")"), "the version it knows: " + m);
        assertTrue(m.contains("unchanged"), m);
        assertFalse(m.contains("patrol.nap") || m.contains("hunt"), "one line for the machine, not one per record: " + m);
        assertEquals(before, held(bob), "the replica is unchanged");
        assertEquals(seq, bob.sequence());
        assertEquals(10, bob.world().records(V1).size());
    }

    @Test
    void aFrameNamesTheVersionOfEachMachineWhoseRecordsFirstReachThePlayerAndNoOther() {
        StateWorld room = room(4);
        RoomStream stream = RoomStream.of(room, V1, TALK);
        stream.join("alice");
        stream.join("bob");
        JsonNode alice = parse(stream.frame("alice"));
        assertEquals(1, alice.at("/machines/vguard/version").asInt());
        assertEquals(V1.machine().fingerprint(), alice.at("/machines/vguard/fingerprint").asText());
        assertEquals(TALK.machine().fingerprint(), alice.at("/machines/vtalk/fingerprint").asText());
        assertEquals(0, alice.at("/machines/vtalk/version").asInt(), "a machine declared without a version is version 0");
        String bob = stream.frame("bob");
        assertEquals(1, parse(bob).at("/machines/vguard/version").asInt());
        assertFalse(bob.contains("vtalk"), "alice's own machine is not even named to bob: " + bob);

        room.step(DT);
        assertNull(parse(stream.frame("alice")).get("machines"), "a frame of changes names no machine named already");
        Entity hero = room.entity("hero");
        hero.removeType(Owner.class);
        hero.add(new Owner("bob"));
        room.step(DT);
        JsonNode handed = parse(stream.frame("bob"));
        assertFalse(handed.get("whole").asBoolean());
        assertEquals(TALK.machine().fingerprint(), handed.at("/machines/vtalk/fingerprint").asText(),
                "the first record of a machine to reach bob names its version");
        assertFalse(handed.get("machines").has("vguard"), handed.toString());
        stream.join("bob");
        assertTrue(parse(stream.frame("bob")).get("machines").has("vguard"), "a join's whole frame names them again");
    }

    @Test
    void aMachinesFirstRecordInAFrameOfChangesIsReadAsTheVersionItNames() {
        StateWorld room = world();
        RoomStream stream = RoomStream.of(room, V1);
        stream.join("alice");
        Replica alice = Replica.of(world(), "alice", V1, V2); // version 2 is the newest it knows
        alice.apply(stream.frame("alice")); // nothing yet
        room.spawn(EntityKey.of("g"), V1.trait());
        room.step(DT);
        String frame = stream.frame("alice");
        assertEquals(1, parse(frame).at("/machines/vguard/version").asInt(), frame);
        alice.apply(frame);
        assertEquals(1, alice.world().records(V1).size());
        assertReplicaIsTheRoom(room, alice, "with its first guard");
    }

    @Test
    void aWholeFrameWithoutVersionsIsReadAsBefore() {
        StateWorld room = room(6);
        RoomStream stream = RoomStream.of(room, V1, TALK);
        stream.join("alice");
        ObjectNode frame = (ObjectNode) parse(stream.frame("alice"));
        frame.remove("machines"); // as a room of an earlier library writes it
        Replica alice = Replica.of(world(), "alice", V1, TALK);
        alice.apply(frame.toString());
        assertReplicaIsTheRoom(room, alice, "fed a frame without versions");
        room.step(DT);
        alice.apply(stream.frame("alice"));
        assertReplicaIsTheRoom(room, alice, "and the changes after it");
    }

    @Test
    void aReplicaMadeWithBothVersionsReadsEachFrameAsTheVersionItNames() {
        StateWorld room = room(10);
        RoomStream stream = RoomStream.of(room, V1, TALK);
        stream.join("alice");
        Replica alice = Replica.of(world(), "alice", V1, V2, TALK); // version 2 is the newest, but the frame names 1
        alice.apply(stream.frame("alice"));
        assertEquals(10, alice.world().records(V1).size());
        assertTrue(alice.world().records(V2).isEmpty());
        assertReplicaIsTheRoom(room, alice, "of version 1");
    }

    @Test
    void aFrameOfChangesNamingAnotherVersionIsRefusedForAWholeFrame() {
        StateWorld room = room(4);
        RoomStream stream = RoomStream.of(room, V1, TALK);
        stream.join("alice");
        Replica alice = Replica.of(world(), "alice", V1, V2, TALK);
        alice.apply(stream.frame("alice"));
        room.step(DT);
        ObjectNode changes = (ObjectNode) parse(stream.frame("alice"));
        ObjectNode named = changes.putObject("machines").putObject("vguard");
        named.put("version", 2);
        named.put("fingerprint", V2.machine().fingerprint());
        String before = held(alice);

        StreamException e = assertThrows(StreamException.class, () -> alice.apply(changes.toString()));

        assertTrue(e.getMessage().contains("a frame of changes names machine 'vguard' version 2")
                && e.getMessage().contains("expected a whole frame"), e.getMessage());
        assertEquals(before, held(alice));
        changes.remove("machines");
        alice.apply(changes.toString()); // the same frame without it is taken: nothing was counted
    }

    @Test
    void malformedVersionsAreRefused() {
        StateWorld room = room(2);
        RoomStream stream = RoomStream.of(room, V1, TALK);
        stream.join("alice");
        ObjectNode frame = (ObjectNode) parse(stream.frame("alice"));
        ((ObjectNode) frame.get("machines")).put("vguard", "1");
        Replica alice = Replica.of(world(), "alice", V1, TALK);
        StreamException e = assertThrows(StreamException.class, () -> alice.apply(frame.toString()));
        assertTrue(e.getMessage().contains("$.machines.vguard: expected {\"version\""), e.getMessage());
        frame.put("machines", 3);
        e = assertThrows(StreamException.class, () -> alice.apply(frame.toString()));
        assertTrue(e.getMessage().contains("$.machines: expected an object"), e.getMessage());
        assertEquals(0, alice.sequence());
    }

    @Test
    void aRecordThatDoesNotFitAnotherDefinitionOfTheSameVersionSaysTheFingerprintsDiffer() {
        States<Guard> edited = States.define("vguard", Guard::new, m -> m
                .version(1) // the same version, without the rest state
                .initial("patrol")
                .state("patrol", p -> p
                        .initial("watch")
                        .state("watch", s -> s.waitFor(4, "watch"))
                        .history("resumed", HistoryDepth.DEEP)
                        .on("BELL", "answer")
                        .on("ALARM", "alarm")
                        .on("SEARCH", "search"))
                .state("answer", s -> s.on("RESUME", "patrol.resumed").on("RESTART", "patrol"))
                .state("alarm", s -> s.waitFor(6, "patrol"))
                .state("search", s -> s.waitFor(8, "patrol.resumed").on("BELL", "answer")));
        StateWorld room = room(5);
        steps(room, 300); // a watching guard rests
        RoomStream stream = RoomStream.of(room, V1, TALK);
        stream.join("alice");
        Replica alice = Replica.of(world(), "alice", edited, TALK);

        StreamException e = assertThrows(StreamException.class, () -> alice.apply(stream.frame("alice")));

        assertTrue(e.getMessage().contains("patrol.rest"), e.getMessage());
        assertTrue(e.getMessage().contains("version 1 (fingerprint " + V1.machine().fingerprint() + ")")
                && e.getMessage().contains("same version but fingerprint " + edited.machine().fingerprint()), e.getMessage());
    }

    @Test
    void recordsOfTwoDefinitionsOfOneMachineAtOnceAreRefusedByTheStream() {
        StateWorld room = room(3);
        RoomStream stream = RoomStream.of(room, V1, TALK);
        stream.join("alice");
        stream.frames();
        room.spawn(EntityKey.of("newcomer"), V2.trait()); // attached, not swapped

        StreamException e = assertThrows(StreamException.class, stream::frames);

        assertTrue(e.getMessage().contains("machine 'vguard' has records of two definitions") && e.getMessage().contains("version 1")
                && e.getMessage().contains("version 2") && e.getMessage().contains("world.swap"), e.getMessage());
        room.swap(V1, V2); // the game moves them all
        stream.frames();
    }

    @Test
    void aSwapBeforeAnyRecordOfTheNewVersionIsFollowedOnceItHoldsRecords() {
        StateWorld room = world();
        RoomStream stream = RoomStream.of(room, V1);
        stream.join("alice");
        Replica alice = Replica.of(world(), "alice", V1, V2);
        alice.apply(stream.frame("alice"));
        room.swap(V1, V2); // no record yet: nothing moved
        room.spawn(EntityKey.of("g"), V2.trait());
        room.step(DT);
        String frame = stream.frame("alice");
        assertEquals(2, parse(frame).at("/machines/vguard/version").asInt(), frame);
        alice.apply(frame);
        assertEquals(1, alice.world().records(V2).size());
    }

    /**
     * Random sends to random guards (and spawns and despawns), a swap at a random step, and a
     * player joining at a random step: after every step each replica equals the room, before the
     * swap and after it.
     */
    @Test
    void forRandomInputsAndASwapAtARandomStepEveryReplicaEqualsTheRoomAtEveryStep() {
        int runs = Integer.getInteger("property.runs", 12);
        String[] before = {"BELL", "RESUME", "RESTART", "SEARCH", "ALARM"};
        String[] after = {"BELL", "RESUME", "RESTART", "SEARCH", "NOISE", "QUIET"};
        for (int run = 0; run < runs; run++) {
            SplittableRandom r = new SplittableRandom(0x5AA9_0000L + run);
            StateWorld room = world();
            int spawned = 0;
            for (; spawned < 12; spawned++) {
                room.spawn(EntityKey.of("g" + spawned), V1.trait());
            }
            Entity hero = room.spawn(EntityKey.of("hero"), new Owner("alice"), TALK.trait());
            RoomStream stream = RoomStream.of(room, V1, TALK);
            stream.join("alice");
            stream.join("bob");
            List<Replica> replicas = new ArrayList<>(List.of(
                    Replica.of(world(), "alice", V1, V2, TALK), Replica.of(world(), "bob", V1, V2, TALK)));
            int ticks = 150;
            int swapAt = 1 + r.nextInt(ticks - 2);
            int joinAt = r.nextInt(ticks);
            States<Guard> now = V1;
            for (int tick = 0; tick < ticks; tick++) {
                if (tick == swapAt) {
                    room.swap(V1, V2);
                    now = V2;
                }
                if (tick == joinAt) {
                    stream.join("carol");
                    replicas.add(Replica.of(world(), "carol", V1, V2, TALK));
                }
                String[] events = now == V1 ? before : after;
                for (int k = r.nextInt(4); k > 0; k--) {
                    Entity g = room.entity("g" + r.nextInt(spawned));
                    if (g != null) {
                        now.send(g, events[r.nextInt(events.length)]);
                    }
                }
                if (r.nextInt(10) == 0) {
                    Entity g = room.entity("g" + r.nextInt(spawned));
                    if (g != null) {
                        room.despawn(g);
                    }
                }
                if (r.nextInt(10) == 0) {
                    room.spawn(EntityKey.of("g" + spawned++), now.trait());
                }
                if (r.nextInt(20) == 0) {
                    TALK.send(hero, "GREET");
                }
                room.step(DT * (1 + r.nextInt(30)));
                Map<String, String> frames = stream.frames();
                for (Replica replica : replicas) {
                    replica.apply(frames.get(replica.recipient()));
                    assertReplicaIsTheRoom(room, replica, "in run " + run + " at step " + tick + " (swap at " + swapAt + ")");
                }
            }
            assertTrue(replicas.get(0).world().records(V1).isEmpty());
            for (StateRecord<Guard> g : room.records(V2)) {
                assertEquals(g.state(), V2.read(replicas.get(1).world().entity(StateWorld.keyOf(g.entity()))).state());
            }
            worlds.forEach(StateWorld::close);
            worlds.clear();
        }
    }
}

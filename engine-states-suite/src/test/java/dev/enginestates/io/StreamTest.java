package dev.enginestates.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.Fixtures;
import dev.enginestates.Machine;
import dev.enginestates.StatesDef;
import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.fsm.AIContext;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.Owner;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.StateMachineBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Streaming a room's records to replicas (issue 13, part 2; the {@code 003} document: "a room
 * streams its trait to that player and to nobody else", "A room streams the record alone, and
 * each replica writes the tags from the record it receives. The stream sends a record's changed
 * fields, and a replica reads a changed state as the machine holds it", "A page that joins
 * mid-run, or reloads into a room, receives the record whole and holds the state it names, with
 * none of the machine's initial state").
 */
class StreamTest {
    static final double DT = 1.0 / 60;
    static final ObjectMapper JSON = new ObjectMapper();

    public static final class Guard {
        public int bells;
        public String name = "guard";
    }

    static final States<Guard> GUARD = States.define("stream-guard", Guard::new, Fixtures.<Guard>guard()
            .answer(s -> s.entry((g, e) -> g.bells++)));

    public static final class Talk {
        public int lines;
        public String topic = "";
    }

    /** A conversation: its owner's alone ({@code ownerOnly: true} in the document). */
    static final States<Talk> TALK = States.define("stream-talk", Talk::new, m -> m
            .ownerOnly()
            .initial("idle")
            .state("idle", s -> s.on("GREET", t -> t.target("talking").action((c, e) -> c.topic = "weather")))
            .state("talking", s -> s.entry((c, e) -> c.lines++).waitFor(3, "idle")));

    /** No context; a parallel state of two regions. */
    static final States<Object> ARMED = States.define("stream-armed", () -> null, Fixtures.armed(s -> s.on("WALK", "walk")));

    /** How many times any state of {@link #STARTS} was entered, by any world. */
    static final AtomicInteger ENTRIES = new AtomicInteger();

    public static final class Count {
        public int n;
    }

    /** A machine whose initial state's entry acts: a replica must never run it. */
    static final States<Count> STARTS = States.define("stream-starts", Count::new, m -> m
            .initial("start")
            .state("start", s -> s.entry((c, e) -> ENTRIES.incrementAndGet()).on("GO", "middle"))
            .state("middle", s -> s.entry((c, e) -> ENTRIES.incrementAndGet()).on("GO", "end"))
            .state("end", s -> s.entry((c, e) -> ENTRIES.incrementAndGet())));

    /** A context that is not a JSON object: it comes whole when it changes. */
    static final States<List<String>> LOG = States.define("stream-log", ArrayList::new, m -> m
            .initial("a")
            .state("a", s -> s.on("NEXT", t -> t.target("b").action((l, e) -> l.add("b"))))
            .state("b", s -> s.on("NEXT", t -> t.target("a").action((l, e) -> l.add("a")))));

    static final States<?>[] ALL = {GUARD, TALK, ARMED, STARTS, LOG};
    static final Saves SAVES = Saves.of(ALL);

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

    Replica replica(String recipient) {
        return Replica.of(world(), recipient, ALL);
    }

    static JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    static void steps(StateWorld w, int n) {
        for (int i = 0; i < n; i++) {
            w.step(DT);
        }
    }

    static List<String> names(JsonNode object) {
        List<String> out = new ArrayList<>();
        object.fieldNames().forEachRemaining(out::add);
        return out;
    }

    /**
     * The room's dump as a player may see it: without the {@code ownerOnly} machines of entities
     * the player does not own (and their tags), without owners (a replica has none), and without
     * the entities left holding nothing.
     */
    static JsonNode seenBy(String dump, String recipient) {
        ObjectNode root = (ObjectNode) parse(dump);
        ObjectNode entities = (ObjectNode) root.get("entities");
        for (Iterator<Map.Entry<String, JsonNode>> it = entities.properties().iterator(); it.hasNext(); ) {
            ObjectNode e = (ObjectNode) it.next().getValue();
            JsonNode owner = e.remove("owner");
            ObjectNode machines = (ObjectNode) e.get("machines");
            ObjectNode tags = (ObjectNode) e.get("tags");
            for (String id : names(machines)) {
                if (machines.get(id).has("ownerOnly") && (owner == null || !owner.asText().equals(recipient))) {
                    machines.remove(id);
                    for (String tag : names(tags)) {
                        if (tag.startsWith(id + ".")) {
                            tags.remove(tag);
                        }
                    }
                }
            }
            if (machines.isEmpty()) {
                it.remove();
            }
        }
        return root;
    }

    static void assertReplicaSeesTheRoom(StateWorld room, Replica replica) {
        assertEquals(seenBy(SAVES.dump(room), replica.recipient()), parse(SAVES.dump(replica.world())),
                replica.recipient() + "'s replica holds the room's records and tags, as far as it may see them");
    }

    /** A room of two guards and a hero, and its stream, with alice joined. */
    final class Room {
        final StateWorld world = world();
        final RoomStream stream;
        final Entity g1 = world.spawn(EntityKey.of("g1"), GUARD.trait());
        final Entity g2 = world.spawn(EntityKey.of("g2"), GUARD.trait(), ARMED.trait());
        final Entity hero = world.spawn(EntityKey.of("hero"), new Owner("alice"), TALK.trait());

        Room() {
            this(1);
        }

        /** The room at a home of this epoch. */
        Room(long epoch) {
            stream = RoomStream.of(world, epoch, ALL);
            stream.join("alice");
        }
    }

    /** The room moved to another node: restored from its checkpoint there, streaming with this epoch, alice joined. */
    RoomStream moved(StateWorld room, StateWorld to, long epoch) {
        SAVES.restoreSpawningMissing(to, SAVES.checkpoint(room));
        to.entity("hero").add(new Owner("alice"));
        RoomStream stream = RoomStream.of(to, epoch, ALL);
        stream.join("alice");
        return stream;
    }

    // ------------------------------------------------------------------ changed fields

    @Test
    void aFrameCarriesOnlyTheRecordsThatChangedAndOfEachOnlyTheFieldsThatChanged() {
        Room room = new Room();
        Replica alice = replica("alice");
        alice.apply(room.stream.frame("alice"));
        steps(room.world, 10);
        GUARD.send(room.g1, "BELL");
        JsonNode frame = parse(room.stream.frame("alice"));
        assertFalse(frame.get("whole").asBoolean());
        assertEquals(List.of("g1"), names(frame.get("entities")), "g2 and the hero did not change");
        JsonNode g1 = frame.path("entities").path("g1").path("stream-guard");
        // BELL left the watch's wait (paused keeps its seconds, history remembers it) and counted a bell
        assertEquals(List.of("active", "history", "paused", "wait", "entered", "contextFields"), names(g1));
        assertEquals("[\"answer\"]", g1.get("active").toString());
        assertTrue(g1.get("wait").isNull());
        assertEquals(List.of("bells"), names(g1.get("contextFields")), "the context's name did not change, so it is not sent");
        alice.apply(frame.toString());
        assertReplicaSeesTheRoom(room.world, alice);
        assertEquals(1, alice.world().query(GUARD.is("answer")).count(), "the replica wrote the tag from the record");
    }

    @Test
    void aWaitThatCountsSendsNothingUntilItEnds() {
        Room room = new Room();
        Replica alice = replica("alice");
        alice.apply(room.stream.frame("alice"));
        for (int i = 0; i < 200; i++) { // 3.3 s of the guards' 4 s watch
            room.world.step(DT);
            JsonNode frame = parse(room.stream.frame("alice"));
            assertTrue(frame.get("entities").isEmpty(), "an unchanged world makes an empty frame; step " + i + ": " + frame);
            alice.apply(frame.toString());
            assertEquals(room.world.time(), alice.world().time(), "the replica follows the room's clock");
        }
        assertEquals(GUARD.read(room.g1).secondsLeft(), GUARD.read(alice.world().entity("g1")).secondsLeft(), 1e-12,
                "seconds left read as on the room, though the record was not sent again");
        steps(room.world, 50);
        JsonNode frame = parse(room.stream.frame("alice"));
        assertEquals(List.of("g1", "g2"), names(frame.get("entities")), "both watches ended");
        assertEquals(List.of("active", "wait", "entered"), names(frame.path("entities").path("g1").path("stream-guard")));
        alice.apply(frame.toString());
        assertReplicaSeesTheRoom(room.world, alice);
    }

    @Test
    void anUnchangedRecordIsComparedNotEncoded() {
        StateWorld w = world();
        for (int i = 0; i < 1000; i++) {
            w.spawn(EntityKey.of("g" + i), GUARD.trait());
        }
        RoomStream stream = RoomStream.of(w, GUARD);
        stream.join("p");
        stream.frame("p");
        long unchanged = dev.enginestates.Allocations.warmThenMeasure(() -> stream.frame("p"));
        long changed = dev.enginestates.Allocations.warmThenMeasure(() -> {
            for (StateRecord<Guard> g : w.records(GUARD)) {
                g.context().bells++;
            }
            stream.frame("p");
        });
        // an encoded record is a tree of JSON nodes (a kilobyte or so); an unchanged one writes its context to a reused buffer
        assertTrue(unchanged < 200 * 1000, "an unchanged frame of 1,000 records allocated " + unchanged + " B");
        assertTrue(changed > 5 * unchanged, "1,000 changed records allocated " + changed + " B, unchanged " + unchanged + " B");
    }

    @Test
    void aMoveToAnotherChildReplacesTheChildItLeftAndARegionThatMovesLeavesTheOthers() {
        Room room = new Room();
        Replica alice = replica("alice");
        alice.apply(room.stream.frame("alice"));
        ARMED.send(room.g2, "RUN");
        alice.apply(room.stream.frame("alice"));
        ARMED.send(room.g2, "FIRE");
        alice.apply(room.stream.frame("alice"));
        Entity g2 = alice.world().entity("g2");
        assertEquals(Map.of("armed", Map.of("weapon", "cooldown", "move", "run")), ARMED.read(g2).value());
        assertTrue(g2.has(ARMED.is("armed.move.run")) && g2.has(ARMED.is("armed.weapon.cooldown")));
        assertFalse(g2.has(ARMED.is("armed.weapon.ready")), "the child the weapon left lost its tag");
        assertFalse(g2.has(ARMED.is("armed.move.walk")));
        ARMED.send(room.g2, "WALK");
        alice.apply(room.stream.frame("alice"));
        assertEquals(Map.of("armed", Map.of("weapon", "cooldown", "move", "walk")), ARMED.read(g2).value(),
                "the move region moved; the weapon region stands as it was");
        assertReplicaSeesTheRoom(room.world, alice);
    }

    @Test
    void aContextWhoseFieldsStayComesAsItsChangedFieldsAndAnyOtherComesWhole() {
        Room room = new Room();
        Entity logger = room.world.spawn(EntityKey.of("logger"), LOG.trait());
        Replica alice = replica("alice");
        alice.apply(room.stream.frame("alice"));
        LOG.send(logger, "NEXT");
        String frame = room.stream.frame("alice");
        JsonNode entry = parse(frame).path("entities").path("logger").path("stream-log");
        assertEquals(List.of("active", "entered", "context"), names(entry), "a list is not an object of fields: sent whole");
        assertEquals("[\"b\"]", entry.get("context").toString());
        alice.apply(frame);
        assertReplicaSeesTheRoom(room.world, alice);
    }

    @Test
    void theReplicaKeepsAContextObjectWhoseContextDidNotChange() {
        Room room = new Room();
        Replica alice = replica("alice");
        alice.apply(room.stream.frame("alice"));
        Guard before = GUARD.read(alice.world().entity("g1")).context();
        steps(room.world, 250); // the watch ends: the state changes, the context does not
        alice.apply(room.stream.frame("alice"));
        assertTrue(GUARD.read(alice.world().entity("g1")).matches("patrol.rest"));
        assertSame(before, GUARD.read(alice.world().entity("g1")).context());
        GUARD.send(room.g1, "BELL");
        alice.apply(room.stream.frame("alice"));
        assertEquals(1, GUARD.read(alice.world().entity("g1")).context().bells, "a changed context is written");
    }

    @Test
    void everyStyleStreams() {
        StatesDef<Count> polledDef = StatesDef.define("stream-polled", Count::new, d -> d
                .initial("idle")
                .state("idle", s -> s.after(0.5, "busy"))
                .state("busy", s -> s.after(0.25, "idle")));
        States<Count> polled = States.of(polledDef);
        States<Door> builder = States.of(new StateMachineBuilder<Door>("stream-door", Door::new)
                .configureState("Closed").asInitial().handler((d, dt) -> d.timeInState() > 0.4f ? "Open" : null)
                .configureState("Open").handler((d, dt) -> d.timeInState() > 0.3f ? "Closed" : null)
                .build());
        StateWorld w = world();
        RoomStream stream = RoomStream.of(w, polled, builder);
        w.spawn(EntityKey.of("bot"), polled.trait(), builder.trait());
        stream.join("p");
        Replica replica = Replica.of(world(), "p", polled, builder);
        Saves saves = Saves.of(polled, builder);
        for (int i = 0; i < 100; i++) {
            w.step(DT);
            replica.apply(stream.frame("p"));
            assertEquals(saves.checkpoint(w), saves.checkpoint(replica.world()), "step " + i + ": the same records, exactly");
            assertEquals(saves.dump(w), saves.dump(replica.world()));
        }
    }

    public static final class Door extends AIContext {
    }

    @Test
    void aReplicasListenersHearTheStatesItReceivesAndItsTopStateFollows() {
        Room room = new Room();
        StateWorld page = world();
        List<String> heard = new ArrayList<>();
        List<String> banner = new ArrayList<>();
        page.addListener(new dev.enginestates.MachineListener<StateRecord<?>>() {
            @Override
            public void stateChanged(StateRecord<?> machine, String from, String to, String event) {
                heard.add(StateWorld.keyOf(machine.entity()) + " " + machine.machineId() + ": " + from + " -> " + to + " (" + event + ")");
            }
        });
        page.addListener(GUARD, dev.enginestates.MachineListener.onTopState((StateRecord<Guard> g, String from, String to) ->
                banner.add(StateWorld.keyOf(g.entity()) + " " + to)));
        Replica alice = Replica.of(page, "alice", ALL);
        GUARD.send(room.g1, "BELL");
        alice.apply(room.stream.frame("alice")); // whole: g1 arrives answering, as if spawned so
        assertTrue(heard.contains("g1 stream-guard:  -> answer (spawn)"), heard.toString());
        assertFalse(heard.stream().anyMatch(h -> h.startsWith("g1") && h.contains("patrol")), "never in its initial state: " + heard);
        heard.clear();
        banner.clear();
        GUARD.send(room.g1, "RESUME");
        alice.apply(room.stream.frame("alice"));
        assertEquals(List.of("g1 stream-guard: answer -> patrol.watch (restore)"), heard);
        assertEquals(List.of("g1 patrol"), banner, "a page's top state follows the stream");
        assertEquals("patrol", GUARD.topState(page.entity("g1")));
        heard.clear();
        steps(room.world, 10);
        alice.apply(room.stream.frame("alice"));
        assertEquals(List.of(), heard, "nothing changed, nothing heard");
    }

    // ------------------------------------------------------------------ joining

    @Test
    void aLateJoinReceivesEveryRecordWholeAndHoldsTheStateItNamesWithNoneOfTheInitialStatesEffects() {
        Room room = new Room();
        Entity s = room.world.spawn(EntityKey.of("s"), STARTS.trait());
        STARTS.send(s, "GO");
        steps(room.world, 300);
        GUARD.send(room.g1, "BELL");
        ARMED.send(room.g2, "FIRE");
        room.stream.join("bob");
        int entries = ENTRIES.get();
        JsonNode frame = parse(room.stream.frame("bob"));
        assertTrue(frame.get("whole").asBoolean());
        JsonNode g1 = frame.path("entities").path("g1").path("stream-guard");
        assertEquals(RecordCodec.fieldNames(dev.enginestates.records.Access.chart(GUARD.machine())), names(g1), "whole: every field");
        Replica bob = replica("bob");
        bob.apply(frame.toString());
        assertEquals(entries, ENTRIES.get(), "no entry action ran on the replica");
        Entity rs = bob.world().entity("s");
        assertTrue(STARTS.read(rs).matches("middle"));
        assertFalse(rs.has(STARTS.is("start")), "the initial state's tag never came");
        assertEquals(0, bob.world().query(STARTS.is("start")).count());
        assertEquals(1, bob.world().query(GUARD.is("answer")).count(), "query works on the replica");
        assertReplicaSeesTheRoom(room.world, bob);
    }

    @Test
    void aReloadJoinsAgainAndGetsAWholeFrameThatAFreshReplicaTakes() {
        Room room = new Room();
        Replica first = replica("alice");
        first.apply(room.stream.frame("alice"));
        steps(room.world, 30);
        first.apply(room.stream.frame("alice"));
        GUARD.send(room.g2, "BELL");
        room.stream.join("alice"); // the page reloads
        String whole = room.stream.frame("alice");
        assertTrue(parse(whole).get("whole").asBoolean());
        assertEquals(3, parse(whole).get("seq").asLong(), "the numbers go on");
        Replica reloaded = replica("alice");
        reloaded.apply(whole);
        assertReplicaSeesTheRoom(room.world, reloaded);
        first.apply(whole); // the old replica takes it too: a whole frame replaces everything
        assertReplicaSeesTheRoom(room.world, first);
    }

    @Test
    void aWholeFrameTakesOffWhatItDoesNotName() {
        Room room = new Room();
        Replica alice = replica("alice");
        alice.apply(room.stream.frame("alice"));
        room.world.despawn(room.g1);
        room.world.detach(room.g2, ARMED);
        room.stream.join("alice");
        alice.apply(room.stream.frame("alice"));
        assertNull(alice.world().entity("g1"), "the replica despawns what it spawned");
        assertFalse(alice.world().entity("g2").has(ARMED.recordType()));
        assertReplicaSeesTheRoom(room.world, alice);
    }

    // ------------------------------------------------------------------ ownerOnly

    @Test
    void anOwnerOnlyMachineReachesItsOwnerAndNobodyElse() {
        Room room = new Room();
        room.stream.join("bob");
        TALK.send(room.hero, "GREET");
        Map<String, String> frames = room.stream.frames();
        assertTrue(frames.get("alice").contains("\"stream-talk\""));
        assertFalse(frames.get("bob").contains("stream-talk"), frames.get("bob"));
        assertFalse(frames.get("bob").contains("hero"), "not even the key of an entity holding nothing else bob may see");
        assertFalse(frames.get("bob").contains("weather"));
        Replica alice = replica("alice");
        Replica bob = replica("bob");
        alice.apply(frames.get("alice"));
        bob.apply(frames.get("bob"));
        assertTrue(TALK.read(alice.world().entity("hero")).matches("talking"));
        assertNull(bob.world().entity("hero"));
        steps(room.world, 200); // the talk ends
        frames = room.stream.frames();
        assertFalse(frames.get("bob").contains("stream-talk"));
        assertTrue(frames.get("alice").contains("stream-talk"));
        alice.apply(frames.get("alice"));
        bob.apply(frames.get("bob"));
        assertReplicaSeesTheRoom(room.world, alice);
        assertReplicaSeesTheRoom(room.world, bob);
    }

    @Test
    void theDumpShowsOwnerOnlyAndTheOwner() {
        Room room = new Room();
        JsonNode hero = parse(SAVES.dump(room.world)).path("entities").path("hero");
        assertEquals("alice", hero.path("owner").asText());
        assertTrue(hero.path("machines").path("stream-talk").path("ownerOnly").asBoolean());
        assertFalse(parse(SAVES.dump(room.world)).path("entities").path("g1").path("machines").path("stream-guard").has("ownerOnly"),
                "a machine streamed to everyone says nothing of it");
    }

    @Test
    void anOwnerOnlyMachineOnAnEntityWithoutAnOwnerReachesNobody() {
        Room room = new Room();
        room.world.spawn(EntityKey.of("orphan"), TALK.trait());
        room.world.add(TALK);
        String frame = room.stream.frame("alice");
        assertFalse(frame.contains("orphan"), frame);
        assertFalse(parse(frame).path("entities").has("world"), "the world's own entity has no owner either");
        assertTrue(parse(frame).path("entities").path("hero").has("stream-talk"));
    }

    @Test
    void anEntityThatChangesHandsLeavesItsOldOwnerAndReachesItsNewOneWhole() {
        Room room = new Room();
        room.stream.join("bob");
        Replica alice = replica("alice");
        Replica bob = replica("bob");
        Map<String, String> frames = room.stream.frames();
        alice.apply(frames.get("alice"));
        bob.apply(frames.get("bob"));
        TALK.send(room.hero, "GREET");
        room.hero.removeType(Owner.class);
        room.hero.add(new Owner("bob"));
        frames = room.stream.frames();
        JsonNode toAlice = parse(frames.get("alice")).path("entities").path("hero");
        assertTrue(toAlice.get("stream-talk").isNull(), "alice's record of the talk is taken off: " + toAlice);
        JsonNode toBob = parse(frames.get("bob")).path("entities").path("hero").path("stream-talk");
        assertEquals(RecordCodec.fieldNames(dev.enginestates.records.Access.chart(TALK.machine())), names(toBob), "bob gets it whole");
        alice.apply(frames.get("alice"));
        bob.apply(frames.get("bob"));
        assertNull(alice.world().entity("hero"), "alice's replica despawned the entity it spawned for the talk");
        assertTrue(TALK.read(bob.world().entity("hero")).matches("talking"));
        assertReplicaSeesTheRoom(room.world, alice);
        assertReplicaSeesTheRoom(room.world, bob);
    }

    @Test
    void ownerOnlyIsDeclaredOnEveryStyle() {
        assertTrue(TALK.machine().ownerOnly());
        assertFalse(GUARD.machine().ownerOnly());
        Machine<Count> xstate = Machine.define("stream-x", Count::new, m -> m.ownerOnly().initial("a").state("a"));
        assertTrue(xstate.ownerOnly());
        StatesDef<Count> polled = StatesDef.define("stream-p", Count::new, d -> d.ownerOnly().initial("a").state("a"));
        assertTrue(polled.machine().ownerOnly());
        InvalidMachineException notRoot = assertThrows(InvalidMachineException.class,
                () -> StatesDef.define("stream-p2", Count::new, d -> d.initial("a").state("a", s -> s.ownerOnly())));
        assertTrue(notRoot.getMessage().contains("ownerOnly"), notRoot.getMessage());
        var builder = new StateMachineBuilder<Door>("stream-b", Door::new).ownerOnly()
                .configureState("A").asInitial().handler((d, dt) -> null).build();
        assertTrue(States.of(builder).machine().ownerOnly());
        assertThrows(IllegalArgumentException.class, () -> new Owner(""));
    }

    // ------------------------------------------------------------------ removals

    @Test
    void aDespawnOrADetachTakesTheRecordOffTheReplica() {
        Room room = new Room();
        Replica alice = replica("alice");
        // an entity the game spawned on the replica with the key: it keeps living without the records
        Entity own = alice.world().spawn(EntityKey.of("g2"));
        alice.apply(room.stream.frame("alice"));
        assertSame(own, alice.world().entity("g2"));
        room.world.despawn(room.g1);
        room.world.detach(room.g2, ARMED);
        JsonNode frame = parse(room.stream.frame("alice"));
        assertTrue(frame.path("entities").path("g1").path("stream-guard").isNull());
        assertTrue(frame.path("entities").path("g2").path("stream-armed").isNull());
        assertFalse(frame.path("entities").path("g2").has("stream-guard"), "the guard on g2 did not change");
        alice.apply(frame.toString());
        assertNull(alice.world().entity("g1"), "the replica despawned the entity it spawned");
        assertFalse(own.has(ARMED.recordType()));
        room.world.detach(room.g2, GUARD);
        alice.apply(room.stream.frame("alice"));
        assertSame(own, alice.world().entity("g2"), "the game's own entity is not despawned");
        assertFalse(own.has(GUARD.recordType()));
        assertReplicaSeesTheRoom(room.world, alice);
    }

    @Test
    void anEntityRespawnedUnderTheSameKeyInOneFrameComesWholeNotRemoved() {
        Room room = new Room();
        Replica alice = replica("alice");
        alice.apply(room.stream.frame("alice"));
        steps(room.world, 30);
        room.world.despawn(room.g1);
        StateRecord<Guard> fresh = GUARD.trait();
        room.world.spawn(EntityKey.of("g1"), fresh);
        GUARD.send(room.world.entity("g1"), "BELL");
        String frame = room.stream.frame("alice");
        JsonNode g1 = parse(frame).path("entities").path("g1").path("stream-guard");
        assertEquals(RecordCodec.fieldNames(dev.enginestates.records.Access.chart(GUARD.machine())), names(g1),
                "another record under the same name: sent whole");
        alice.apply(frame);
        assertEquals(1, alice.world().query(GUARD.is("answer")).count());
        assertReplicaSeesTheRoom(room.world, alice);
    }

    @Test
    void aRecordWhoseEntityChangesItsKeyGoesFromTheOldNameAndComesWholeUnderTheNew() {
        Room room = new Room();
        Replica alice = replica("alice");
        alice.apply(room.stream.frame("alice"));
        room.g1.removeType(EntityKey.class);
        room.g1.add(EntityKey.of("g1b"));
        JsonNode frame = parse(room.stream.frame("alice"));
        assertTrue(frame.path("entities").path("g1").path("stream-guard").isNull(), frame.toString());
        assertEquals(RecordCodec.fieldNames(dev.enginestates.records.Access.chart(GUARD.machine())),
                names(frame.path("entities").path("g1b").path("stream-guard")));
        alice.apply(frame.toString());
        assertNull(alice.world().entity("g1"));
        assertNotNull(alice.world().entity("g1b"));
        assertReplicaSeesTheRoom(room.world, alice);
    }

    // ------------------------------------------------------------------ bad input

    /** A replica that has applied the first two frames of a room, and the room's next frame. */
    final class Fed {
        final Room room = new Room();
        final Replica replica = replica("alice");
        final String next;

        Fed() {
            replica.apply(room.stream.frame("alice"));
            GUARD.send(room.g1, "BELL");
            replica.apply(room.stream.frame("alice"));
            steps(room.world, 5);
            GUARD.send(room.g2, "BELL");
            next = room.stream.frame("alice");
        }

        /** Applies a frame, expects it refused with a message containing each of {@code expected}, and the replica unchanged. */
        StreamException refused(String frame, String... expected) {
            String before = SAVES.checkpoint(replica.world());
            String dump = SAVES.dump(replica.world());
            long seq = replica.sequence();
            StreamException e = assertThrows(StreamException.class, () -> replica.apply(frame));
            for (String x : expected) {
                assertTrue(e.getMessage().contains(x), "the message says '" + x + "': " + e.getMessage());
            }
            assertTrue(e.getMessage().startsWith("the frame cannot be applied; the replica is unchanged"), e.getMessage());
            assertEquals(before, SAVES.checkpoint(replica.world()), "nothing changed");
            assertEquals(dump, SAVES.dump(replica.world()), "no tag moved");
            assertEquals(seq, replica.sequence());
            replica.apply(next); // and the good frame still applies
            assertReplicaSeesTheRoom(room.world, replica);
            return e;
        }

        String edit(Consumer<ObjectNode> change) {
            ObjectNode f = (ObjectNode) parse(next);
            change.accept(f);
            return f.toString();
        }
    }

    @Test
    void badJsonIsRefusedAndChangesNothing() {
        Fed fed = new Fed();
        fed.refused("{\"format\": ", "not valid JSON");
        assertThrows(StreamException.class, () -> new Fed().replica.apply(""));
        new Fed().refused("[1, 2]", "expected a frame object");
        new Fed().refused(fed.next.replace("\"seq\":3", "\"seq\":3,\"seq\":3"), "seq");
    }

    @Test
    void anotherFormatOrVersionIsRefused() {
        Fed fed = new Fed();
        fed.refused(fed.edit(f -> f.put("version", 1)), "$.version: expected 4", "found the number 1"); // version 1 had no entry times
        Fed before = new Fed();
        before.refused(before.edit(f -> f.put("version", 2)), "$.version: expected 4", "found the number 2"); // version 2 named no stream
        Fed three = new Fed();
        three.refused(three.edit(f -> f.put("version", 3)), "$.version: expected 4", "found the number 3"); // version 3 had no epoch
        Fed later = new Fed();
        later.refused(later.edit(f -> f.put("version", 5)), "$.version: expected 4", "found the number 5");
        Fed other = new Fed();
        other.refused(other.edit(f -> f.put("format", "engine-states/checkpoint")), "$.format");
    }

    @Test
    void aFrameForAnotherRecipientIsRefused() {
        Fed fed = new Fed();
        fed.refused(fed.edit(f -> f.put("recipient", "bob")), "this replica is alice's", "\"bob\"");
    }

    /**
     * Two rooms' streams number one player's frames alike; a replica takes a frame of changes only
     * from the stream whose whole frame it last applied (version 3's {@code stream}). Before it, a
     * second room's frame 3 went over the first room's records.
     */
    @Test
    void aFrameOfChangesFromAnotherRoomsStreamIsRefused() {
        Fed fed = new Fed();
        Room other = new Room(); // the same machines and keys, a stream of its own
        other.stream.frame("alice");
        GUARD.send(other.g1, "BELL");
        other.stream.frame("alice");
        steps(other.world, 3);
        GUARD.send(other.g2, "BELL");
        String othersThird = other.stream.frame("alice");
        assertEquals(3, parse(othersThird).get("seq").asLong(), "the number the replica expects next");
        fed.refused(othersThird, "$.stream: frame 3 holds changes from stream " + parse(othersThird).get("stream").asText(),
                "this replica follows stream " + parse(fed.next).get("stream").asText(), "expected a whole frame");
    }

    @Test
    void aWholeFrameOfANewerEpochIsFollowedAndItsOwnChangesAfterIt() {
        Fed fed = new Fed();
        Room moved = new Room(2); // the room again, on another node: a new stream of a newer epoch, numbering from 1
        GUARD.send(moved.g1, "BELL");
        fed.replica.apply(moved.stream.frame("alice"));
        assertReplicaSeesTheRoom(moved.world, fed.replica);
        steps(moved.world, 4);
        GUARD.send(moved.g2, "BELL");
        fed.replica.apply(moved.stream.frame("alice"));
        assertReplicaSeesTheRoom(moved.world, fed.replica);
        String before = SAVES.checkpoint(fed.replica.world());
        StreamException e = assertThrows(StreamException.class, () -> fed.replica.apply(fed.next), "the first room's changes, now");
        assertTrue(e.getMessage().contains("$.epoch: frame 3 is of epoch 1"), e.getMessage());
        assertEquals(before, SAVES.checkpoint(fed.replica.world()));
        assertEquals(2, fed.replica.sequence(), "the refused frame's number is not taken");
        steps(moved.world, 2);
        GUARD.send(moved.g1, "RESUME");
        fed.replica.apply(moved.stream.frame("alice")); // the moved room's own changes still follow
        assertEquals(3, fed.replica.sequence());
        assertReplicaSeesTheRoom(moved.world, fed.replica);
    }

    @Test
    void aFrameWithoutItsStreamIsRefused() {
        Fed fed = new Fed();
        fed.refused(fed.edit(f -> f.remove("stream")), "$.stream: expected the id of the room's stream", "found nothing");
        Fed empty = new Fed();
        empty.refused(empty.edit(f -> f.put("stream", "")), "$.stream");
        Fed number = new Fed();
        number.refused(number.edit(f -> f.put("stream", 7)), "$.stream", "found the number 7");
        Room room = new Room();
        Replica fresh = replica("alice");
        ObjectNode whole = (ObjectNode) parse(room.stream.frame("alice"));
        whole.remove("stream");
        StreamException e = assertThrows(StreamException.class, () -> fresh.apply(whole.toString()), "a whole frame names its stream too");
        assertTrue(e.getMessage().contains("$.stream"), e.getMessage());
        assertEquals(0, fresh.sequence());
        Fed old = new Fed();
        StreamException v2 = old.refused(old.edit(f -> {
            f.put("version", 2);
            f.remove("stream");
            f.remove("epoch");
        }), "$.version: expected 4");
        assertFalse(v2.getMessage().contains("$.stream"), "a version 2 frame is refused for its version alone: " + v2.getMessage());
        assertFalse(v2.getMessage().contains("$.epoch"), "a version 2 frame is refused for its version alone: " + v2.getMessage());
    }

    @Test
    void aFrameWithoutItsEpochIsRefusedAndAVersion3FrameForItsVersionAlone() {
        Fed fed = new Fed();
        fed.refused(fed.edit(f -> f.remove("epoch")), "$.epoch: expected the room's epoch, a whole number 1 or more", "found nothing");
        Fed zero = new Fed();
        zero.refused(zero.edit(f -> f.put("epoch", 0)), "$.epoch", "found the number 0");
        Fed text = new Fed();
        text.refused(text.edit(f -> f.put("epoch", "2")), "$.epoch");
        Fed three = new Fed();
        StreamException v3 = three.refused(three.edit(f -> {
            f.put("version", 3);
            f.remove("epoch");
        }), "$.version: expected 4", "found the number 3");
        assertFalse(v3.getMessage().contains("$.epoch"), "a version 3 frame is refused for its version alone: " + v3.getMessage());
        Room room = new Room();
        Replica fresh = replica("alice");
        ObjectNode whole = (ObjectNode) parse(room.stream.frame("alice"));
        whole.remove("epoch");
        StreamException e = assertThrows(StreamException.class, () -> fresh.apply(whole.toString()), "a whole frame carries its epoch too");
        assertTrue(e.getMessage().contains("$.epoch"), e.getMessage());
        assertEquals(0, fresh.sequence());
        assertEquals(0, fresh.epoch());
    }

    @Test
    void aStreamsEpochIsOneOrMoreAndEveryFrameCarriesIt() {
        StateWorld w = world();
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> RoomStream.of(w, 0, ALL));
        assertTrue(zero.getMessage().contains("epoch must be 1 or more, found 0"), zero.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RoomStream.of(w, -3, ALL));
        assertEquals(1, RoomStream.of(w, ALL).epoch(), "a room's first home");
        Room room = new Room(7);
        assertEquals(7, room.stream.epoch());
        Replica alice = replica("alice");
        assertEquals(0, alice.epoch(), "none before the first frame");
        alice.apply(room.stream.frame("alice"));
        assertEquals(7, alice.epoch());
        String delta = room.stream.frame("alice");
        assertEquals(7, parse(delta).get("epoch").asLong(), "frames of changes carry it too");
        alice.apply(delta);
    }

    /**
     * The room moved: a late whole frame from its old home, or one the old home made while it
     * still ran, would take the replica back, and the new home's changes would then be refused
     * until the player joined again. A frame of an older epoch is refused, whole or not.
     */
    @Test
    void aLateFrameFromTheRoomsPreviousHomeIsRefusedWholeOrNotAndTheNewHomesChangesFollow() {
        Room old = new Room(3);
        Replica alice = replica("alice");
        alice.apply(old.stream.frame("alice"));
        GUARD.send(old.g1, "BELL");
        String oldChanges = old.stream.frame("alice");
        alice.apply(oldChanges);
        old.stream.join("alice");
        String lateWhole = old.stream.frame("alice"); // in flight while the room moves
        StateWorld home = world();
        RoomStream stream = moved(old.world, home, 4);
        GUARD.send(home.entity("g2"), "BELL");
        alice.apply(stream.frame("alice"));
        assertEquals(4, alice.epoch());
        steps(old.world, 5); // the old home runs on a while (its node not yet told)
        String oldAfter = old.stream.frame("alice");
        for (String late : List.of(lateWhole, oldAfter, oldChanges)) {
            String before = SAVES.checkpoint(alice.world());
            long seq = alice.sequence();
            StreamException e = assertThrows(StreamException.class, () -> alice.apply(late), late);
            assertTrue(e.getMessage().contains("is of epoch 3, but this replica follows the room's epoch 4 already"), e.getMessage());
            assertTrue(e.getMessage().contains("a late frame from the room's previous home"), e.getMessage());
            assertEquals(before, SAVES.checkpoint(alice.world()), "unchanged");
            assertEquals(seq, alice.sequence());
            assertEquals(4, alice.epoch());
        }
        steps(home, 300);
        GUARD.send(home.entity("g1"), "BELL");
        alice.apply(stream.frame("alice")); // the new home's changes follow on
        assertReplicaSeesTheRoom(home, alice);
    }

    @Test
    void changesOfANewerEpochAreRefusedBeforeItsWholeFrameAndAWholeFrameOfAnyNewerEpochIsTaken() {
        Room old = new Room(2);
        Replica alice = replica("alice");
        alice.apply(old.stream.frame("alice"));
        StateWorld home = world();
        RoomStream stream = moved(old.world, home, 9); // epochs need not follow one another
        String whole = stream.frame("alice"); // lost, or still on its way
        GUARD.send(home.entity("g1"), "BELL");
        String changes = stream.frame("alice");
        String before = SAVES.checkpoint(alice.world());
        StreamException e = assertThrows(StreamException.class, () -> alice.apply(changes));
        assertTrue(e.getMessage().contains("$.epoch: frame 2 holds changes of epoch 9, but this replica has had no whole frame of that"
                + " epoch to apply them to (it follows epoch 2)"), e.getMessage());
        assertEquals(before, SAVES.checkpoint(alice.world()));
        alice.apply(whole);
        alice.apply(changes);
        assertEquals(9, alice.epoch());
        assertReplicaSeesTheRoom(home, alice);
    }

    /**
     * Two homes given one epoch cannot be ordered: the replica keeps the stream it follows and
     * refuses the other's whole frames, saying so, rather than going back and forth between them.
     */
    @Test
    void aWholeFrameOfAnotherStreamWithTheSameEpochIsRefused() {
        Room old = new Room(5);
        Replica alice = replica("alice");
        String first = old.stream.frame("alice");
        alice.apply(first);
        StateWorld home = world();
        RoomStream twin = moved(old.world, home, 5); // a new home given its old home's epoch
        GUARD.send(home.entity("g1"), "BELL");
        String whole = twin.frame("alice");
        String before = SAVES.checkpoint(alice.world());
        StreamException e = assertThrows(StreamException.class, () -> alice.apply(whole));
        assertTrue(e.getMessage().contains("$.stream: whole frame 1 is of stream " + parse(whole).get("stream").asText() + " and epoch 5,"
                + " but this replica follows stream " + parse(first).get("stream").asText() + " of the same epoch"), e.getMessage());
        assertTrue(e.getMessage().contains("two streams of one epoch cannot be ordered"), e.getMessage());
        assertTrue(e.getMessage().contains("a larger epoch"), e.getMessage());
        assertEquals(before, SAVES.checkpoint(alice.world()));
        assertEquals(5, alice.epoch());
        steps(old.world, 2);
        alice.apply(old.stream.frame("alice")); // the stream it follows goes on
        assertReplicaSeesTheRoom(old.world, alice);
    }

    /** A whole frame of the stream the replica follows, numbered no higher than the last applied, is late: it would take it back. */
    @Test
    void aLateWholeFrameOfTheSameStreamIsRefused() {
        Room room = new Room();
        Replica alice = replica("alice");
        String first = room.stream.frame("alice");
        alice.apply(first);
        GUARD.send(room.g1, "BELL");
        room.stream.join("alice");
        String second = room.stream.frame("alice");
        alice.apply(second);
        steps(room.world, 2);
        alice.apply(room.stream.frame("alice"));
        for (String late : List.of(first, second)) {
            String before = SAVES.checkpoint(alice.world());
            StreamException e = assertThrows(StreamException.class, () -> alice.apply(late));
            assertTrue(e.getMessage().contains("comes after frame 3 of the same stream was applied: a late or repeated frame"),
                    e.getMessage());
            assertEquals(before, SAVES.checkpoint(alice.world()));
            assertEquals(3, alice.sequence());
        }
        assertReplicaSeesTheRoom(room.world, alice);
    }

    /**
     * A player who leaves and joins again is numbered on from the stream's frames, not from 1: a
     * late frame of its earlier stay cannot outnumber the new whole frame and take the replica back.
     */
    @Test
    void aPlayerWhoLeavesAndJoinsAgainIsNumberedOnSoALateFrameOfItsEarlierStayIsRefused() {
        Room room = new Room();
        Replica alice = replica("alice");
        alice.apply(room.stream.frame("alice"));
        alice.apply(room.stream.frame("alice"));
        room.stream.join("alice");
        String late = room.stream.frame("alice"); // frame 3, whole, still on its way
        room.stream.leave("alice");
        GUARD.send(room.g1, "BELL");
        room.stream.join("alice");
        String again = room.stream.frame("alice");
        assertTrue(parse(again).get("seq").asLong() > 3, "numbered after every frame of the earlier stay: " + again);
        alice.apply(again);
        String before = SAVES.checkpoint(alice.world());
        assertThrows(StreamException.class, () -> alice.apply(late));
        assertEquals(before, SAVES.checkpoint(alice.world()));
        assertReplicaSeesTheRoom(room.world, alice);
        Room other = new Room();
        other.stream.frame("alice");
        other.stream.frame("alice");
        other.stream.join("bob"); // a player who joins late is numbered on from the stream's frames too
        assertEquals(3, parse(other.stream.frame("bob")).get("seq").asLong());
        assertEquals(4, parse(other.stream.frame("bob")).get("seq").asLong(), "and one by one after it");
    }

    @Test
    void aGapInTheSequenceIsRefused() {
        Fed fed = new Fed();
        fed.refused(fed.edit(f -> f.put("seq", 5)), "frame 5 after frame 2: 2 frames are missing; expected frame 3");
    }

    @Test
    void aRepeatedFrameIsRefused() {
        Fed fed = new Fed();
        fed.refused(fed.edit(f -> f.put("seq", 2)), "frame 2 comes after frame 2 was applied", "expected frame 3");
    }

    @Test
    void changesBeforeAnyWholeFrameAreRefused() {
        Room room = new Room();
        room.stream.frame("alice");
        String delta = room.stream.frame("alice");
        Replica fresh = replica("alice");
        StreamException e = assertThrows(StreamException.class, () -> fresh.apply(delta));
        assertTrue(e.getMessage().contains("has had no whole frame"), e.getMessage());
        assertEquals(0, fresh.sequence());
    }

    @Test
    void anUnknownMachineIsRefused() {
        Fed fed = new Fed();
        fed.refused(fed.edit(f -> ((ObjectNode) f.get("entities").get("g2")).set("stream-nope", f.get("entities").get("g2").get("stream-guard"))),
                "$.entities.g2.stream-nope: no machine has id 'stream-nope'");
    }

    @Test
    void anUnknownStateIsRefused() {
        Fed fed = new Fed();
        fed.refused(fed.edit(f -> ((ObjectNode) f.get("entities").get("g2").get("stream-guard")).putArray("active").add("answr")),
                "$.entities.g2.stream-guard.active[0]: machine 'stream-guard' has no state 'answr'");
    }

    @Test
    void anUnknownFieldOrContextFieldIsRefused() {
        Fed fed = new Fed();
        fed.refused(fed.edit(f -> ((ObjectNode) f.get("entities").get("g2").get("stream-guard")).put("mood", 1)),
                "$.entities.g2.stream-guard.mood: 'mood' is not a field");
        Fed other = new Fed();
        other.refused(other.edit(f -> ((ObjectNode) f.get("entities").get("g2").get("stream-guard").get("contextFields")).put("hp", 3)),
                "contextFields.hp: the 'stream-guard' context held has no field 'hp'");
    }

    @Test
    void aContextFieldOfTheWrongTypeIsRefused() {
        Fed fed = new Fed();
        fed.refused(fed.edit(f -> ((ObjectNode) f.get("entities").get("g2").get("stream-guard").get("contextFields")).put("bells", "one")),
                "$.entities.g2.stream-guard.context", "does not fit context type");
    }

    @Test
    void changedFieldsOfARecordTheReplicaDoesNotHoldAreRefused() {
        Fed fed = new Fed();
        fed.refused(fed.edit(f -> ((ObjectNode) f.get("entities")).set("g9", f.get("entities").get("g2"))),
                "$.entities.g9.stream-guard: this replica holds no 'stream-guard' record on entity 'g9', so the frame must give it whole");
        Fed other = new Fed();
        other.refused(other.edit(f -> ((ObjectNode) f.get("entities")).putObject("g9").putNull("stream-guard")),
                "removes machine 'stream-guard' from entity 'g9', which this replica does not hold");
    }

    @Test
    void aConfigurationTheMachineCannotBeInIsRefused() {
        Fed fed = new Fed();
        fed.refused(fed.edit(f -> ((ObjectNode) f.get("entities").get("g2").get("stream-guard")).putArray("active")
                .add("patrol").add("patrol.watch").add("answer")), "$.entities.g2.stream-guard");
    }

    @Test
    void aWaitStartingAfterTheFramesClockIsRefused() {
        Room room = new Room();
        steps(room.world, 5);
        room.world.spawn(EntityKey.of("g3"), GUARD.trait()); // its watch starts at 5/60 s
        ObjectNode whole = (ObjectNode) parse(room.stream.frame("alice"));
        ((ObjectNode) whole.get("clock")).put("time", 0.01);
        Replica alice = replica("alice");
        StreamException e = assertThrows(StreamException.class, () -> alice.apply(whole.toString()));
        assertTrue(e.getMessage().contains("$.entities.g3.stream-guard.wait.start: the wait starts at 0.0833"), e.getMessage());
        assertNull(alice.world().entity("g1"), "nothing was written");
        assertEquals(0, alice.world().time());
    }

    // ------------------------------------------------------------------ the room's side

    @Test
    void anEntityWithoutAKeyIsRefusedByTheRoomAndNoFrameIsMade() {
        Room room = new Room();
        room.stream.join("bob");
        room.stream.frames();
        room.world.spawn(GUARD.trait());
        StreamException e = assertThrows(StreamException.class, room.stream::frames);
        assertTrue(e.getMessage().contains("holds machine 'stream-guard' but has no EntityKey"), e.getMessage());
        assertTrue(e.getMessage().contains("EntityKey.of"), e.getMessage());
    }

    @Test
    void twoEntitiesWithOneKeyAreRefusedByTheRoomAndNoFrameIsMade() {
        Room room = new Room();
        Replica alice = replica("alice");
        alice.apply(room.stream.frame("alice"));
        // keys are unique at spawn; a game can still give one entity another's key through Dominion directly
        room.g2.removeType(EntityKey.class);
        room.g2.add(EntityKey.of("g1"));
        StreamException e = assertThrows(StreamException.class, () -> room.stream.frame("alice"));
        assertTrue(e.getMessage().contains("two entities have key 'g1'"), e.getMessage());
        assertTrue(e.getMessage().contains("keys must be unique"), e.getMessage());
        room.g2.removeType(EntityKey.class);
        room.g2.add(EntityKey.of("g2"));
        alice.apply(room.stream.frame("alice")); // no frame was counted: the next one follows the last
        assertReplicaSeesTheRoom(room.world, alice);
    }

    @Test
    void aFrameForAPlayerWhoHasNotJoinedIsRefused() {
        Room room = new Room();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> room.stream.frame("carol"));
        assertTrue(e.getMessage().contains("join(\"carol\")"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> room.stream.join(""));
        assertTrue(room.stream.leave("alice"));
        assertEquals(List.of(), room.stream.recipients());
    }

    @Test
    void machinesTheStreamWasNotMadeWithStayOnTheRoom() {
        StateWorld w = world();
        RoomStream stream = RoomStream.of(w, GUARD);
        w.spawn(EntityKey.of("g"), GUARD.trait(), ARMED.trait());
        stream.join("p");
        String frame = stream.frame("p");
        assertTrue(frame.contains("stream-guard"));
        assertFalse(frame.contains("stream-armed"), frame);
        assertEquals(List.of("stream-guard"), stream.machineIds());
    }

    @Test
    void theFrameIsVersionedJson() {
        Room room = new Room();
        JsonNode frame = parse(room.stream.frame("alice"));
        assertEquals(List.of("format", "version", "stream", "epoch", "recipient", "seq", "whole", "clock", "machines", "entities"),
                names(frame));
        assertEquals(1, frame.get("epoch").asLong());
        assertTrue(frame.get("stream").asText().matches("[0-9a-f]{16}"), frame.get("stream").toString());
        assertEquals(RoomStream.FORMAT, frame.get("format").asText());
        assertEquals(RoomStream.VERSION, frame.get("version").asInt());
        assertEquals("alice", frame.get("recipient").asText());
        assertEquals(1, frame.get("seq").asLong());
        assertNotNull(frame.get("clock").get("time"));
        JsonNode empty = parse(room.stream.frame("alice"));
        assertEquals(2, empty.get("seq").asLong());
        assertTrue(empty.get("entities").isEmpty());
    }

    @Test
    void aDeclaredRecordStateReachesTheReplica() {
        Room room = new Room();
        Replica alice = replica("alice");
        alice.apply(room.stream.frame("alice"));
        StateRecord<Guard> g = GUARD.read(room.g1);
        g.setState("answer");
        room.world.step(DT); // its tags move at the start of the next step
        alice.apply(room.stream.frame("alice"));
        assertTrue(alice.world().entity("g1").has(GUARD.is("answer")));
        assertReplicaSeesTheRoom(room.world, alice);
    }

    @Test
    void aFrameOfChangesWhoseClockGoesBackIsRefusedAndAWholeOneIsTaken() {
        Room room = new Room();
        StateWorld page = world();
        Replica alice = Replica.of(page, "alice", ALL);
        String early = SAVES.checkpoint(room.world);
        steps(room.world, 300); // 5 s: the guards rest, their waits started at 4 s
        alice.apply(room.stream.frame("alice"));
        steps(room.world, 1);
        ObjectNode frame = (ObjectNode) parse(room.stream.frame("alice"));
        ((ObjectNode) frame.get("clock")).put("time", 0.5).put("steps", 30);
        String before = SAVES.checkpoint(page);
        // applied, the records it leaves out would keep waits that start after the replica's clock
        StreamException e = assertThrows(StreamException.class, () -> alice.apply(frame.toString()));
        assertTrue(e.getMessage().contains("$.clock.time: 0.5 s is before this replica's clock"), e.getMessage());
        assertEquals(before, SAVES.checkpoint(page), "the replica is unchanged");
        // a room restored to an earlier clock joins its players again: a whole frame rewrites every record
        SAVES.restore(room.world, early);
        room.stream.join("alice");
        alice.apply(room.stream.frame("alice"));
        assertEquals(room.world.time(), page.time());
    }

    @Test
    void aWholeFrameOfANewerEpochIsTakenWhateverItsNumber() {
        Room room = new Room();
        Replica alice = replica("alice");
        alice.apply(room.stream.frame("alice"));
        GUARD.send(room.g1, "BELL");
        alice.apply(room.stream.frame("alice"));
        alice.apply(room.stream.frame("alice"));
        // the room moves to another node: restored from its checkpoint, with a new stream of a newer epoch whose count starts at 1
        StateWorld moved = world();
        RoomStream stream = moved(room.world, moved, 2);
        GUARD.send(moved.entity("g2"), "BELL");
        String whole = stream.frame("alice");
        assertEquals(1, parse(whole).path("seq").asLong());
        alice.apply(whole);
        assertEquals(1, alice.sequence());
        assertReplicaSeesTheRoom(moved, alice);
        steps(moved, 300);
        alice.apply(stream.frame("alice")); // and the changes that follow it
        assertReplicaSeesTheRoom(moved, alice);
        // a player the room forgot and joins again gets a whole frame of the same stream, numbered on
        stream.leave("alice");
        stream.join("alice");
        alice.apply(stream.frame("alice"));
        assertReplicaSeesTheRoom(moved, alice);
    }

    @Test
    void aListenerThatThrowsDoesNotLeaveAFrameHalfApplied() {
        Room room = new Room();
        StateWorld page = world();
        boolean[] thrown = {false};
        page.addListener(new dev.enginestates.MachineListener<StateRecord<?>>() {
            @Override
            public void stateChanged(StateRecord<?> m, String from, String to, String event) {
                if (!thrown[0]) {
                    thrown[0] = true;
                    throw new IllegalStateException("listener failed");
                }
            }
        });
        Replica alice = Replica.of(page, "alice", ALL);
        assertThrows(dev.enginestates.declare.UserCodeException.class, () -> alice.apply(room.stream.frame("alice")));
        assertNotNull(page.entity("g1"));
        assertNotNull(page.entity("g2"));
        assertNotNull(page.entity("hero"));
        steps(room.world, 1);
        alice.apply(room.stream.frame("alice")); // counted: not refused as a gap
    }
}

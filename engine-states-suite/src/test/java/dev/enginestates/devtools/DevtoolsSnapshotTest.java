package dev.enginestates.devtools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.RandomStatecharts;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.StateMachineBuilder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The page's snapshot, without a browser or a server: what the {@code 003} document's devtools
 * show ("In the devtools"): the inspector (each machine an entity holds: its state, the seconds
 * its wait has left, its states), the list of every machine with its states, the entities that
 * hold it and the state the world's is in, and a fact line per machine such as
 * "siege: breather, 8 s left".
 */
class DevtoolsSnapshotTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode snapshot(StateWorld world) throws Exception {
        return JSON.readTree(new Snapshots(new EntityNames()).build(world, 1, false));
    }

    private static JsonNode machine(JsonNode snap, String id) {
        for (JsonNode m : snap.get("machines")) {
            if (m.get("id").asText().equals(id)) {
                return m;
            }
        }
        throw new AssertionError("no machine " + id + " in " + snap);
    }

    private static JsonNode entity(JsonNode snap, String name) {
        for (JsonNode e : snap.get("entities")) {
            if (e.get("name").asText().equals(name)) {
                return e;
            }
        }
        throw new AssertionError("no entity " + name + " in " + snap.get("entities"));
    }

    private static JsonNode record(JsonNode snap, String entity, String machine) {
        for (JsonNode r : entity(snap, entity).get("machines")) {
            if (r.get("machine").asText().equals(machine)) {
                return r;
            }
        }
        throw new AssertionError(entity + " holds no " + machine);
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static List<String> keys(JsonNode node) {
        List<String> out = new ArrayList<>();
        node.get("children").forEach(c -> out.add(c.get("key").asText()));
        return out;
    }

    @Test
    void theSnapshotIsVersionedJsonWithTheWorldsClock() throws Exception {
        try (Room room = new Room()) {
            room.run(1.5);
            JsonNode snap = snapshot(room.world);
            assertEquals("engine-states/devtools", snap.get("format").asText());
            assertEquals(1, snap.get("version").asInt());
            assertEquals("room", snap.get("world").asText());
            assertEquals(1.5, snap.get("time").asDouble(), 1e-9);
            assertEquals(90, snap.get("steps").asLong());
            assertFalse(snap.get("writable").asBoolean());
        }
    }

    @Test
    void theMachineListShowsEachMachinesStatesTheEntitiesHoldingItAndTheWorldsState() throws Exception {
        try (Room room = new Room()) {
            JsonNode snap = snapshot(room.world);
            List<String> ids = new ArrayList<>();
            snap.get("machines").forEach(m -> ids.add(m.get("id").asText()));
            assertEquals(List.of("siege", "guard", "weapon", "bot"), ids, "in the order the world steps them");

            JsonNode guard = machine(snap, "guard");
            assertEquals("xstate", guard.get("style").asText());
            JsonNode root = guard.get("root");
            assertEquals(List.of("patrol", "answer"), keys(root));
            JsonNode patrol = root.get("children").get(0);
            assertEquals("compound", patrol.get("type").asText());
            assertTrue(patrol.get("initial").asBoolean());
            assertEquals(List.of("watch", "rest", "resumed"), keys(patrol));
            JsonNode resumed = patrol.get("children").get(2);
            assertEquals("history", resumed.get("type").asText());
            assertEquals("deep", resumed.get("history").asText());
            assertEquals("after 4 s", patrol.get("children").get(0).get("transitions").get(0).get("label").asText());
            assertEquals("patrol.rest", patrol.get("children").get(0).get("transitions").get(0).get("targets").get(0).asText());
            assertEquals("BELL", patrol.get("transitions").get(0).get("label").asText());
            assertEquals(List.of("patrol", "patrol.watch", "patrol.rest", "answer"), texts(guard.get("states")),
                    "a state may be set to any state but a history state, which is never active");
            assertEquals(List.of("guard-1", "guard-2", "guard-3"), texts(guard.get("entities")));
            assertEquals(3, guard.get("counts").get("patrol.watch").asInt(), "three guards watch");
            assertTrue(guard.get("worldState").isNull(), "the world's own entity holds no guard");

            JsonNode siege = machine(snap, "siege");
            assertEquals(List.of("world"), texts(siege.get("entities")));
            assertEquals("waiting", siege.get("worldState").get("value").asText());
            assertEquals("siege: waiting", siege.get("worldState").get("fact").asText());

            JsonNode weapon = machine(snap, "weapon");
            assertEquals("parallel", weapon.get("root").get("children").get(0).get("type").asText());
            assertEquals("polled", machine(snap, "bot").get("style").asText());
            assertEquals("after 6 s", machine(snap, "bot").get("root").get("children").get(1).get("transitions").get(0).get("label").asText());
        }
    }

    @Test
    void theInspectorShowsEveryMachineOnAnEntityWithItsStateWaitHoldAndContext() throws Exception {
        try (Room room = new Room()) {
            Room.GUARD.send(room.guard1, "BELL");
            Room.GUARD.send(room.guard1, "RESUME");
            room.run(1);
            JsonNode snap = snapshot(room.world);
            JsonNode g1 = record(snap, "guard-1", "guard");
            assertEquals("patrol.watch", g1.get("state").asText());
            assertEquals("watch", g1.get("value").get("patrol").asText());
            assertEquals(List.of("patrol", "patrol.watch"), texts(g1.get("active")));
            assertEquals("patrol.watch", g1.get("waiting").asText());
            assertEquals(1.0, g1.get("waited").asDouble(), 1e-9, "RESUME brought the watch back where it was (0 s), then 1 s");
            assertEquals(3.0, g1.get("left").asDouble(), 1e-9);
            assertFalse(g1.get("held").asBoolean());
            assertFalse(g1.get("done").asBoolean());
            assertEquals(1, g1.get("context").get("bells").asInt(), "the context as JSON");

            JsonNode g3 = record(snap, "guard-3", "guard");
            assertTrue(g3.get("held").asBoolean(), "guard-3 is stunned: his patrol is held");
            assertEquals(0.0, g3.get("waited").asDouble(), 1e-9, "a held wait counts no seconds");
            assertEquals(4.0, g3.get("left").asDouble(), 1e-9);

            JsonNode world = entity(snap, "world");
            assertTrue(world.get("world").asBoolean());
            assertEquals("siege", world.get("machines").get(0).get("machine").asText());
            assertEquals("world", snap.get("entities").get(0).get("name").asText(), "the world's own entity comes first");

            JsonNode bot = record(snap, "bot-1", "bot");
            assertEquals("idle", bot.get("state").asText());
            assertEquals("", bot.get("previous").asText());
        }
    }

    @Test
    void onlyRecordsThatKeepThemShowAPreviousStateAndProgress_andATreeOnlyTheDurationsStatesHave() throws Exception {
        States<RandomStatecharts.Actor> combo = States.of(new StateMachineBuilder<RandomStatecharts.Actor>("combo")
                .configureState("Idle").asInitial().handler((f, dt) -> "Jab")
                .configureState("Jab").duration(0.5f).handler((f, dt) -> null)
                .build());
        try (Room room = new Room()) {
            room.world.spawn(EntityKey.of("fighter"), combo.trait(new RandomStatecharts.Actor()));
            for (int i = 0; i < 3; i++) {
                room.world.step(0.1);
            }
            JsonNode snap = snapshot(room.world);
            JsonNode fighter = record(snap, "fighter", "combo");
            assertEquals("Jab", fighter.get("state").asText());
            assertEquals("Idle", fighter.get("previous").asText());
            assertEquals(0.4, fighter.get("progress").asDouble(), 1e-9, "the first step moved it to Jab, two more are 0.2 of its 0.5 s");
            assertTrue(fighter.get("left").isNull(), "a duration is no wait: nothing counts down to a move");
            JsonNode tree = machine(snap, "combo").get("root");
            assertEquals(0.5, tree.get("children").get(1).get("duration").asDouble(), 1e-9);
            assertFalse(tree.get("children").get(0).has("duration"), "Idle has none");

            JsonNode guard = record(snap, "guard-1", "guard");
            assertFalse(guard.has("previous"), "an XState-style record keeps no previous state");
            assertFalse(guard.has("progress"));
            JsonNode bot = record(snap, "bot-1", "bot");
            assertTrue(bot.has("previous"));
            assertFalse(bot.has("progress"), "a polled state has no duration");
            assertFalse(machine(snap, "bot").get("root").get("children").get(1).has("duration"));
        }
    }

    @Test
    void aFactLineSaysEachMachinesStateAndTheSecondsItsWaitHasLeft() throws Exception {
        try (Room room = new Room()) {
            Room.SIEGE.send(room.world, "START");
            Room.SIEGE.send(room.world, "WAVE_HELD");
            room.run(4);
            Room.WEAPON.send(room.weapon, "FIRE");
            Room.BOT.read(room.bot).context().target = true;
            room.run(0.5);
            JsonNode snap = snapshot(room.world);
            List<String> facts = new ArrayList<>();
            snap.get("facts").forEach(f -> facts.add(f.get("entity").asText() + " | " + f.get("text").asText()));
            assertEquals(List.of(
                    "world | siege: breather, 7.5 s left",
                    "guard-1 | guard: patrol.rest, 9.5 s left",
                    "guard-2 | guard: patrol.rest, 9.5 s left",
                    "guard-3 | guard: patrol.watch, held, 4 s left",
                    "weapon#1 | weapon: armed.weapon.ready + armed.move.walk",
                    // the polled bot moved to search during the first of the 30 steps and counts the 29 after it: 5.517 s, up to 5.6
                    "bot-1 | bot: search, 5.6 s left"), facts);
        }
    }

    @Test
    void theDocumentsFactLineForTheSiegeInItsBreather() throws Exception {
        // 003, "In the devtools": 'The AI tree says the state as a fact, such as "siege: breather, 8 s left"'
        try (Room room = new Room()) {
            Room.SIEGE.send(room.world, "START");
            Room.SIEGE.send(room.world, "WAVE_HELD");
            room.run(4);
            assertEquals("siege: breather, 8 s left", Snapshots.fact(Room.SIEGE.read(room.world)));
            assertEquals("siege: breather, 8 s left", machine(snapshot(room.world), "siege").get("worldState").get("fact").asText());
        }
    }

    @Test
    void aFinishedMachineSaysDone() {
        States<Object> round = States.define("devtools-round", Object::new, m -> m
                .initial("playing")
                .state("playing", s -> s.on("END", "over"))
                .finalState("over"));
        try (StateWorld world = StateWorld.create("done")) {
            world.add(round);
            round.send(world, "END");
            assertEquals("devtools-round: over, done", Snapshots.fact(round.read(world)));
        }
    }

    @Test
    void factSecondsAreTenthsRoundedUpWithoutATrailingZero() {
        assertEquals("8 s", Snapshots.seconds(8.0));
        assertEquals("8 s", Snapshots.seconds(7.96));
        assertEquals("2.8 s", Snapshots.seconds(2.75));
        assertEquals("0.1 s", Snapshots.seconds(0.04), "a wait with a little left has not ended");
        assertEquals("0 s", Snapshots.seconds(0));
        assertEquals("12 s", Snapshots.seconds(12.000000001), "a hair over a round number from summing 1/60 s steps is the round number");
    }

    @Test
    void anEntityWithoutAKeyIsNamedByItsMachineAndKeepsItsNameWhileItLives() throws Exception {
        try (Room room = new Room()) {
            EntityNames names = new EntityNames();
            Snapshots snapshots = new Snapshots(names);
            JsonNode first = JSON.readTree(snapshots.build(room.world, 1, false));
            assertEquals(List.of("weapon#1"), texts(machine(first, "weapon").get("entities")));
            Entity second = room.world.spawn(Room.WEAPON.trait());
            room.world.despawn(room.weapon);
            Entity third = room.world.spawn(Room.WEAPON.trait());
            JsonNode next = JSON.readTree(snapshots.build(room.world, 2, false));
            assertEquals(List.of("weapon#2", "weapon#3"), texts(machine(next, "weapon").get("entities")),
                    "a number is never given again: a write naming weapon#1 cannot reach another entity");
            assertEquals(second, names.find(room.world, "weapon#2"));
            assertEquals(third, names.find(room.world, "weapon#3"));
            assertEquals(null, names.find(room.world, "weapon#1"));
            assertEquals(room.guard1, names.find(room.world, "guard-1"), "a keyed entity is found by its key");
        }
    }

    @Test
    void thePageNamesAnEntityWithoutAKeyAsTheWorldsMessagesDo() throws Exception {
        try (Room room = new Room()) {
            Entity guard = room.world.spawn(Room.GUARD.trait());
            assertEquals("weapon#1", StateWorld.nameOf(room.weapon), "named before the page saw it, as a failure names it");
            Snapshots snapshots = new Snapshots(new EntityNames());
            JsonNode snap = JSON.readTree(snapshots.build(room.world, 1, false));
            assertEquals(List.of("guard-1", "guard-2", "guard-3", "guard#1"), texts(machine(snap, "guard").get("entities")));
            assertEquals(List.of("weapon#1"), texts(machine(snap, "weapon").get("entities")));
            assertEquals("guard#1", StateWorld.nameOf(guard), "a failure or a test kit message says the page's name");
        }
    }

    @Test
    void anEntityWithoutAKeyIsNeverShownByAKeyTheGameGaveAnotherEntity() throws Exception {
        try (Room room = new Room()) {
            Entity keyed = room.world.spawn(EntityKey.of("weapon#1"), Room.GUARD.trait()); // a game's key may read like a number
            EntityNames names = new EntityNames();
            Snapshots snapshots = new Snapshots(names);
            JsonNode first = JSON.readTree(snapshots.build(room.world, 1, false));
            assertEquals(List.of("weapon#2"), texts(machine(first, "weapon").get("entities")), "the number the key took is skipped");
            assertEquals(room.weapon, names.find(room.world, "weapon#2"), "a write naming the shown name reaches the weapon");
            assertEquals(keyed, names.find(room.world, "weapon#1"));

            Entity late = room.world.spawn(EntityKey.of("weapon#2"), Room.GUARD.trait()); // a key taken after the number was given
            JsonNode next = JSON.readTree(snapshots.build(room.world, 2, false));
            assertEquals(List.of("weapon#3"), texts(machine(next, "weapon").get("entities")), "two entities are never shown by one name");
            assertEquals(room.weapon, names.find(room.world, "weapon#3"));
            assertEquals(late, names.find(room.world, "weapon#2"));
        }
    }

    /** A context that holds an entity, and one whose getter throws. */
    public static final class Holder {
        /** The neighbour's entity. */
        public Entity neighbour;
    }

    /** A context Jackson cannot write. */
    public static final class Broken {
        /** Throws. */
        public int getValue() {
            throw new IllegalStateException("no value yet");
        }

        @Override
        public String toString() {
            return "Broken()";
        }
    }

    @Test
    void aContextIsShownAsJsonEntitiesByNameAndOneJacksonCannotWriteByItsText() throws Exception {
        States<Holder> holds = States.define("devtools-holder", Holder::new, m -> m.initial("a").state("a"));
        States<Broken> broken = States.define("devtools-broken", Broken::new, m -> m.initial("a").state("a"));
        try (StateWorld world = StateWorld.create("contexts")) {
            Entity target = world.spawn(EntityKey.of("tree-2"));
            Entity e = world.spawn(EntityKey.of("tree-1"), holds.trait(), broken.trait());
            holds.read(e).context().neighbour = target;
            JsonNode snap = snapshot(world);
            assertEquals("tree-2", record(snap, "tree-1", "devtools-holder").get("context").get("neighbour").asText(),
                    "an entity in a context is shown by its name, never walked into");
            JsonNode b = record(snap, "tree-1", "devtools-broken").get("context");
            assertEquals("Broken()", b.get("$text").asText());
            assertTrue(b.get("$unshown").asText().contains("cannot be written as JSON"), b.toString());
        }
    }

    /** A context whose getter fails an assertion of the game's (an Error, which Jackson does not wrap). */
    public static final class Asserting {
        /** Fails. */
        public int getValue() {
            throw new AssertionError("no value before the first wave");
        }

        @Override
        public String toString() {
            return "Asserting()";
        }
    }

    @Test
    void aContextWhoseGetterThrowsAnErrorIsShownByItsTextAndNothingReachesTheGame() throws Exception {
        States<Asserting> asserting = States.define("devtools-asserting", Asserting::new, m -> m.initial("a").state("a"));
        try (StateWorld world = StateWorld.create("asserting")) {
            world.spawn(EntityKey.of("tree-1"), asserting.trait());
            JsonNode c = record(snapshot(world), "tree-1", "devtools-asserting").get("context");
            assertEquals("Asserting()", c.get("$text").asText());
            assertTrue(c.get("$unshown").asText().contains("AssertionError"), c.toString());
            try (Devtools d = Devtools.serve(world, 0)) {
                assertTrue(d.snapshot().contains("Asserting()"), "serve and snapshot, on the game's thread, do not throw");
            }
        }
    }
}

package dev.enginestates.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.Fixtures;
import dev.enginestates.declare.MachineBuilder;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.MachinePaused;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The dump (Saves#dump): "A human-readable JSON picture of every machine on every entity: its
 * state as XState writes it, seconds waited and left, paused seconds by state, history, context,
 * and each tag the entity has, named {@code <machine id>.<state path>}. Keys are sorted and
 * seconds rounded to the microsecond, so the same world always dumps the same text." The
 * {@code 003} document: "The dump names each tag <id>.<state>, such as "guard.patrol.watch": true".
 */
class DumpTest {
    static final double DT = 1.0 / 60;
    static final ObjectMapper JSON = new ObjectMapper();

    public static final class Guard {
        public int bells;
        public String name = "guard";
    }

    static final States<Guard> GUARD = States.define("dump-guard", Guard::new, Fixtures.<Guard>guard()
            .withoutRestart()
            .answer(s -> s.entry((g, e) -> g.bells++))
            .machine(m -> m.finalState("retired").on("RETIRE", ".retired")));

    public static final class Life {
        public List<String> seen = new ArrayList<>();
    }

    /** A parallel state with a compound region and an atomic one (XState writes an atomic region as {}). */
    static final States<Life> LIFE = States.define("dump-life", Life::new, m -> m
            .initial("life")
            .state("life", l -> l.parallel()
                    .state("mood", c -> c.initial("calm").state("calm", s -> s.on("ANGER", "angry")).state("angry"))
                    .state("pulse")));

    /** The same guard without tags: its state is read through its record. */
    static final States<Guard> QUIET = States.define("dump-quiet", Guard::new, m -> m
            .tags(false)
            .initial("idle")
            .state("idle", s -> s.on("GO", "busy"))
            .state("busy", s -> s.waitFor(2, "idle")));

    static final Saves SAVES = Saves.of(GUARD, LIFE, QUIET);

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

    static JsonNode machine(String dump, String entity, String id) {
        return parse(dump).path("entities").path(entity).path("machines").path(id);
    }

    static Map<String, Object> tags(String dump, String entity) {
        return JSON.convertValue(parse(dump).path("entities").path(entity).path("tags"),
                new com.fasterxml.jackson.core.type.TypeReference<TreeMap<String, Object>>() { });
    }

    static StateWorld guardWorld() {
        StateWorld w = StateWorld.create();
        w.spawn(EntityKey.of("zed"), GUARD.trait(), LIFE.trait());
        w.spawn(EntityKey.of("alpha"), GUARD.trait());
        w.spawn(EntityKey.of("mid"), QUIET.trait(), GUARD.trait());
        return w;
    }

    @Test
    void theSameWorldDumpsTheSameTextTwiceAndTwinWorldsDumpTheSameText() {
        try (StateWorld a = guardWorld(); StateWorld b = guardWorld()) {
            steps(a, 77);
            steps(b, 77);
            GUARD.send(a.entity("zed"), "BELL");
            GUARD.send(b.entity("zed"), "BELL");
            String first = SAVES.dump(a);
            assertEquals(first, SAVES.dump(a), "dumping changes nothing and gives the same text");
            assertEquals(first, SAVES.dump(b), "a twin world dumps the same text");
            assertEquals(first, SAVES.dump(a));
        }
    }

    @Test
    void keysAreSortedAtEveryLevel() {
        try (StateWorld w = guardWorld()) {
            steps(w, 30);
            String dump = SAVES.dump(w);
            JsonNode root = parse(dump);
            List<String> entities = new ArrayList<>();
            root.path("entities").fieldNames().forEachRemaining(entities::add);
            assertEquals(List.of("alpha", "mid", "zed"), entities, "entities by key, not in spawn order");
            List<String> machines = new ArrayList<>();
            root.path("entities").path("mid").path("machines").fieldNames().forEachRemaining(machines::add);
            assertEquals(List.of("dump-guard", "dump-quiet"), machines);
            assertSortedEverywhere(root, "$");
        }
    }

    static void assertSortedEverywhere(JsonNode node, String at) {
        if (node.isObject()) {
            String before = null;
            for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                String name = it.next();
                if (before != null && before.compareTo(name) > 0) {
                    fail(at + ": '" + before + "' comes before '" + name + "'");
                }
                before = name;
                assertSortedEverywhere(node.get(name), at + "." + name);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                assertSortedEverywhere(node.get(i), at + "[" + i + "]");
            }
        }
    }

    @Test
    void secondsAreRoundedToTheMicrosecond() {
        try (StateWorld w = StateWorld.create()) {
            w.spawn(EntityKey.of("g"), GUARD.trait());
            steps(w, 7); // 7/60 s = 0.11666666666666667
            String dump = SAVES.dump(w);
            assertTrue(dump.contains("\"waited\" : 0.116667"), dump);
            assertTrue(dump.contains("\"left\" : 3.883333"), dump);
            assertTrue(dump.contains("\"time\" : 0.116667"), dump);
            assertFalse(dump.contains("0.1166666"), dump);
            steps(w, 173); // 180 steps: 2.9999999999999996 s by the sum of the steps
            GUARD.send(w.entity("g"), "BELL");
            JsonNode paused = machine(SAVES.dump(w), "g", "dump-guard").path("paused");
            assertEquals("{\"patrol.watch\":3}", paused.toString(), "a hair under 3 s reads 3");
            assertTrue(w.time() != 3.0, "the clock itself is not exactly 3: " + w.time());
        }
    }

    @Test
    void theDumpShowsMachineIdStateWaitPausedHistoryAndContext() {
        try (StateWorld w = StateWorld.create()) {
            Entity g = w.spawn(EntityKey.of("g"), GUARD.trait());
            steps(w, 180); // three seconds into the watch
            JsonNode m = machine(SAVES.dump(w), "g", "dump-guard");
            assertEquals("{\"patrol\":\"watch\"}", m.path("state").toString(), "a compound state's value as XState writes it");
            assertEquals("patrol.watch", m.path("wait").path("state").asText());
            assertEquals(3.0, m.path("wait").path("waited").asDouble(), 0);
            assertEquals(1.0, m.path("wait").path("left").asDouble(), 0);
            assertFalse(m.path("wait").path("held").asBoolean());
            assertEquals("active", m.path("status").asText());
            assertEquals(0, m.path("paused").size());
            assertEquals(0, m.path("history").size());

            GUARD.send(g, "BELL");
            m = machine(SAVES.dump(w), "g", "dump-guard");
            assertEquals("\"answer\"", m.path("state").toString(), "an atomic top state is its key");
            assertTrue(m.path("wait").isNull(), "no wait counts in answer");
            assertEquals("{\"patrol.watch\":3}", m.path("paused").toString(), "paused seconds by state");
            assertEquals("{\"patrol.resumed\":[\"patrol.watch\"]}", m.path("history").toString(), "what the history remembers");
            assertEquals("{\"bells\":1,\"name\":\"guard\"}", m.path("context").toString(), "the context's fields");

            GUARD.send(g, "RESUME");
            m = machine(SAVES.dump(w), "g", "dump-guard");
            assertEquals(1.0, m.path("wait").path("left").asDouble(), 0, "the resumed watch has one second left");
            GUARD.send(g, "RETIRE");
            assertEquals("done", machine(SAVES.dump(w), "g", "dump-guard").path("status").asText());
        }
    }

    @Test
    void aParallelStateReadsAsXStateWritesIt() {
        try (StateWorld w = StateWorld.create()) {
            Entity e = w.spawn(EntityKey.of("x"), LIFE.trait());
            assertEquals("{\"life\":{\"mood\":\"calm\",\"pulse\":{}}}", machine(SAVES.dump(w), "x", "dump-life").path("state").toString());
            LIFE.send(e, "ANGER");
            assertEquals("{\"life\":{\"mood\":\"angry\",\"pulse\":{}}}", machine(SAVES.dump(w), "x", "dump-life").path("state").toString());
        }
    }

    @Test
    void aHeldMachineShowsItsHoldAndTheWorldsMachineShowsUnderWorld() {
        try (StateWorld w = StateWorld.create()) {
            Entity g = w.spawn(EntityKey.of("g"), GUARD.trait());
            w.add(LIFE);
            steps(w, 60);
            g.add(MachinePaused.INSTANCE);
            steps(w, 60);
            String dump = SAVES.dump(w);
            JsonNode m = machine(dump, "g", "dump-guard");
            assertTrue(m.path("held").asBoolean(), dump);
            assertTrue(m.path("wait").path("held").asBoolean(), dump);
            assertEquals(3.0, m.path("wait").path("left").asDouble(), 0, "a held wait counts no seconds");
            assertEquals("{\"life\":{\"mood\":\"calm\",\"pulse\":{}}}", machine(dump, "world", "dump-life").path("state").toString());
            assertEquals(2.0, parse(dump).path("time").asDouble(), 0);
            assertEquals(120, parse(dump).path("steps").asLong());
        }
    }

    @Test
    void eachTagIsNamedMachineIdDotStatePath() {
        try (StateWorld w = StateWorld.create()) {
            Entity g = w.spawn(EntityKey.of("g"), GUARD.trait(), LIFE.trait());
            assertEquals(Map.of("dump-guard.patrol", true, "dump-guard.patrol.watch", true,
                    "dump-life.life", true, "dump-life.life.mood", true, "dump-life.life.mood.calm", true,
                    "dump-life.life.pulse", true), tags(SAVES.dump(w), "g"));
            GUARD.send(g, "BELL");
            assertEquals(Map.of("dump-guard.answer", true,
                    "dump-life.life", true, "dump-life.life.mood", true, "dump-life.life.mood.calm", true,
                    "dump-life.life.pulse", true), tags(SAVES.dump(w), "g"), "the tags moved with the send");
            steps(w, 1);
            GUARD.send(g, "RESUME");
            LIFE.send(g, "ANGER");
            assertEquals(Map.of("dump-guard.patrol", true, "dump-guard.patrol.watch", true,
                    "dump-life.life", true, "dump-life.life.mood", true, "dump-life.life.mood.angry", true,
                    "dump-life.life.pulse", true), tags(SAVES.dump(w), "g"));
        }
    }

    @Test
    void aMachineDeclaredWithoutTagsShowsNoTags() {
        try (StateWorld w = StateWorld.create()) {
            Entity q = w.spawn(EntityKey.of("q"), QUIET.trait());
            Entity both = w.spawn(EntityKey.of("both"), QUIET.trait(), GUARD.trait());
            QUIET.send(q, "GO");
            QUIET.send(both, "GO");
            String dump = SAVES.dump(w);
            assertEquals(Map.of(), tags(dump, "q"));
            assertEquals(Map.of("dump-guard.patrol", true, "dump-guard.patrol.watch", true), tags(dump, "both"));
            assertFalse(dump.contains("\"dump-quiet."), dump);
            assertEquals("\"busy\"", machine(dump, "q", "dump-quiet").path("state").toString(), "its state is in the dump all the same");
            assertEquals("busy", machine(dump, "both", "dump-quiet").path("wait").path("state").asText());
        }
    }

    // ------------------------------------------------------------------ many tags

    public static final class Empty {
    }

    /** A flat machine of {@code n} states s0..s{n-1}, each tagged. */
    static States<Empty> flat(String id, int n) {
        return States.define(id, Empty::new, (MachineBuilder<Empty> m) -> {
            m.initial("s0");
            for (int i = 0; i < n; i++) {
                int next = (i + 1) % n;
                m.state("s" + i, s -> s.on("NEXT", "s" + next));
            }
        });
    }

    @Test
    void theDumpShowsExactlyTheTagsOfTheActiveStatesHoweverManyStatesMachinesHave() {
        // find two states whose tag classes share a Dominion index slot (a 600-state machine almost always has some)
        for (int attempt = 0; attempt < 5; attempt++) {
            States<Empty> m = flat("dump-flat" + attempt, 600);
            Map<Integer, String> bySlot = new java.util.HashMap<>();
            for (int i = 0; i < 600; i++) {
                String path = "s" + i;
                String other = bySlot.putIfAbsent(System.identityHashCode(m.is(path)) >> 16, path);
                if (other == null) {
                    continue;
                }
                Saves saves = Saves.of(m);
                try (StateWorld w = StateWorld.create()) {
                    Entity e = w.spawn(EntityKey.of("e"), m.trait().setState(other));
                    w.step(DT);
                    assertEquals(other, m.read(e).value());
                    assertEquals(Map.of(m.id() + "." + other, true), tags(saves.dump(w), "e"),
                            "the dump shows the tag of the active state alone (" + other + " and " + path
                                    + " share a slot of Dominion's class index)");
                    assertFalse(e.has(m.is(path)), "an entity in " + other + " has no tag of " + path);
                    assertEquals(0, w.query(m.is(path)).count(), "no entity is in " + path);
                }
                return;
            }
        }
        fail("no two of 3,000 tag classes shared a slot; this JVM's identity hashes are unusual");
    }
}

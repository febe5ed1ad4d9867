package dev.enginestates.io;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.Event;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An input log replays exactly: event fields keep their Java types, what machines' own code did
 * is not done twice, restores and clock changes while recording are in the log, and a tampered
 * log is refused whole before anything changes.
 */
class ExactReplayTest {
    static final double DT = 1.0 / 60;

    enum Team { RED, BLUE }

    public static final class Seen {
        public List<String> types = new ArrayList<>();
        public int minions;
    }

    /** Its guard decides on a field's Java type, as a game's guard reading a float would. */
    static final States<Seen> TYPED = States.define("exact-typed", Seen::new, m -> m
            .initial("idle")
            .state("idle", s -> s
                    .on("HIT", t -> t.guard((c, e) -> e.get("damage") instanceof Float).target("hurt")
                            .action((c, e) -> e.fields().values().forEach(v -> c.types.add(typeOf(v)))))
                    .on("SPAWN", "summoning"))
            .state("hurt", s -> s.on("HEAL", "idle"))
            .state("summoning", s -> s.waitFor(DT, "idle")));

    static final Saves SAVES = Saves.of(TYPED);

    /** A value's type as the test compares it: lists and maps by kind (they read back as ArrayList and LinkedHashMap). */
    static String typeOf(Object v) {
        return v == null ? "null" : v instanceof List ? "List" : v instanceof Map ? "Map" : v.getClass().getSimpleName();
    }

    @Test
    void eventFieldsReplayWithTheirJavaTypes() {
        try (StateWorld a = StateWorld.create(); StateWorld b = StateWorld.create()) {
            Entity e = a.spawn(EntityKey.of("t"), TYPED.trait());
            InputLog log = InputLog.start(SAVES, a);
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("damage", 2.5f);
            fields.put("id", 12L);
            fields.put("small", (short) 3);
            fields.put("tiny", (byte) 4);
            fields.put("letter", 'x');
            fields.put("exact", new BigDecimal("0.1"));
            fields.put("team", Team.BLUE);
            fields.put("whole", 2.0);
            fields.put("nan", Double.NaN);
            fields.put("count", 7);
            fields.put("nothing", null);
            fields.put("list", List.of(1L, "two"));
            fields.put("map", Map.of("k", 1.5f));
            assertTrue(TYPED.send(e, Event.of("HIT", fields)), "a float reached the guard");
            a.step(DT);
            InputLog.replay(SAVES, b, log.text());
            List<String> expected = List.of("Float", "Long", "Short", "Byte", "Character", "BigDecimal", "Team", "Double", "Double",
                    "Integer", "null", "List", "Map");
            assertEquals(expected, TYPED.read(e).context().types);
            assertEquals(expected, TYPED.read(b.entity("t")).context().types, "the action saw the same types on replay");
            assertTrue(TYPED.read(b.entity("t")).matches("hurt"), "the guard took the float on replay too");
            assertEquals(SAVES.checkpoint(a), SAVES.checkpoint(b));
        }
    }

    @Test
    void aFieldOfATypeALogCannotCarryIsRefusedOnReplay() {
        try (StateWorld a = StateWorld.create()) {
            Entity e = a.spawn(EntityKey.of("t"), TYPED.trait());
            InputLog log = InputLog.start(SAVES, a);
            TYPED.send(e, Event.of("HEAL", Map.of("when", new java.util.Date(0))));
            try (StateWorld b = StateWorld.create()) {
                CheckpointException refused = assertThrows(CheckpointException.class, () -> InputLog.replay(SAVES, b, log.text()));
                assertTrue(refused.getMessage().contains("$.inputs[0].send.event.fields.when") && refused.getMessage().contains("java.util.Date"),
                        refused.getMessage());
            }
        }
    }

    public static final class Spawner {
        public int made;
    }

    /** The world the summoner's action spawns into (an action cannot see its world yet; a game keeps it at hand). */
    static StateWorld spawnInto;

    /** Its action spawns a keyed minion: on replay the action runs again, so the log must not spawn it too. */
    static final States<Spawner> SUMMONER = States.define("exact-summoner", Spawner::new, m -> m
            .initial("idle")
            .state("idle", s -> s.on("SUMMON", t -> t.target("idle").action((c, e) -> {
                c.made++;
                spawnInto.spawn(EntityKey.of("minion-" + c.made), TYPED.trait());
            }))));

    @Test
    void whatAMachinesActionSpawnsIsNotSpawnedTwiceOnReplay() {
        Saves saves = Saves.of(SUMMONER, TYPED);
        try (StateWorld a = StateWorld.create(); StateWorld b = StateWorld.create()) {
            spawnInto = a;
            a.spawn(EntityKey.of("s"), SUMMONER.trait());
            InputLog log = InputLog.start(saves, a);
            SUMMONER.send(a.entity("s"), "SUMMON");
            a.step(DT);
            SUMMONER.send(a.entity("s"), "SUMMON");
            a.step(DT);
            assertTrue(log.text().contains("\"send\"") && !log.text().contains("\"spawn\""), "the log holds the sends, not the spawns");
            spawnInto = b;
            InputLog.replay(saves, b, log.text()); // a second spawn of minion-1 would be refused: its key is in use
            assertEquals(2, b.records(TYPED).size(), "each minion spawned once");
            assertEquals(saves.checkpoint(a), saves.checkpoint(b));
        }
    }

    @Test
    void aRestoreAndAClockChangeWhileRecordingAreReplayed() {
        try (StateWorld a = StateWorld.create(); StateWorld b = StateWorld.create()) {
            Entity e = a.spawn(EntityKey.of("t"), TYPED.trait());
            String earlier = SAVES.checkpoint(a);
            InputLog log = InputLog.start(SAVES, a);
            TYPED.send(e, Event.of("HIT", Map.of("damage", 1f)));
            a.step(DT);
            SAVES.restore(a, earlier); // back in idle
            a.restoreClock(100, 6_000);
            TYPED.send(e, "SPAWN");
            for (int i = 0; i < 3; i++) {
                a.step(DT);
            }
            InputLog.replay(SAVES, b, log.text());
            assertEquals(SAVES.checkpoint(a), SAVES.checkpoint(b));
            assertEquals(6_003, b.steps());
        }
    }

    public static final class Stunned {
    }

    static final States<Seen> DIZZY = States.define("exact-dizzy", Seen::new, m -> m
            .heldBy(Stunned.class)
            .initial("a")
            .state("a", s -> s.waitFor(0.5, "b"))
            .state("b", s -> s.waitFor(0.5, "a")));

    @Test
    void holdsAtTheLogsStartAndWhileRecordingReplayTheSame() {
        Saves saves = Saves.of(DIZZY);
        try (StateWorld a = StateWorld.create(); StateWorld b = StateWorld.create()) {
            Entity held = a.spawn(EntityKey.of("held"), DIZZY.trait());
            Entity free = a.spawn(EntityKey.of("free"), DIZZY.trait());
            held.add(dev.enginestates.ecs.MachinePaused.INSTANCE);
            a.step(DT); // held from before the log
            InputLog log = InputLog.start(saves, a);
            for (int i = 0; i < 200; i++) {
                if (i == 20) {
                    free.add(new Stunned());
                }
                if (i == 70) {
                    held.removeType(dev.enginestates.ecs.MachinePaused.class);
                }
                if (i == 90) {
                    free.removeType(Stunned.class);
                }
                a.step(DT);
            }
            assertTrue(log.text().contains(Stunned.class.getName()), "the heldBy component is named in the log");
            InputLog.replay(saves, b, log.text());
            assertEquals(saves.checkpoint(a), saves.checkpoint(b));
        }
    }

    public static final class Pace {
        public double speed;
        public long ticks;
    }

    /** Moves on its own (waits), on typed events (a float speed, a long tick), and is held by Stunned. */
    static final States<Pace> RUNNER = States.define("exact-runner", Pace::new, m -> m
            .heldBy(Stunned.class)
            .initial("walk")
            .state("walk", s -> s.waitFor(c -> 0.2 + c.speed, "run")
                    .on("PUSH", t -> t.guard((c, e) -> e.get("speed") instanceof Float).target("run")
                            .action((c, e) -> c.speed = (Float) e.get("speed"))))
            .state("run", s -> s.waitFor(0.5, "walk")
                    .on("TICK", t -> t.guard((c, e) -> e.get("n") instanceof Long).action((c, e) -> c.ticks += (Long) e.get("n")))));

    @Test
    void tenThousandRandomStepsWithHoldsChurnAndTypedFieldsReplayBitForBit() {
        Saves saves = Saves.of(RUNNER);
        java.util.SplittableRandom random = new java.util.SplittableRandom(10_000);
        try (StateWorld a = StateWorld.create(); StateWorld b = StateWorld.create()) {
            List<Entity> live = new ArrayList<>();
            int made = 0;
            for (; made < 20; made++) {
                live.add(a.spawn(EntityKey.of("r" + made), RUNNER.trait()));
            }
            InputLog log = InputLog.start(saves, a);
            for (int step = 0; step < 10_000; step++) {
                int dice = random.nextInt(20);
                Entity e = live.get(random.nextInt(live.size()));
                switch (dice) {
                    case 0 -> RUNNER.send(e, Event.of("PUSH", Map.of("speed", random.nextInt(10) / 10f)));
                    case 1 -> RUNNER.send(e, Event.of("PUSH", Map.of("speed", 0.5))); // a double: the guard refuses it
                    case 2 -> {
                        if (RUNNER.read(e).matches("run")) {
                            RUNNER.send(e, Event.of("TICK", Map.of("n", (long) random.nextInt(1_000))));
                        }
                    }
                    case 3 -> {
                        if (!e.has(Stunned.class)) {
                            e.add(new Stunned());
                        }
                    }
                    case 4 -> e.removeType(Stunned.class);
                    case 5 -> {
                        if (!e.has(dev.enginestates.ecs.MachinePaused.class)) {
                            e.add(dev.enginestates.ecs.MachinePaused.INSTANCE);
                        }
                    }
                    case 6 -> e.removeType(dev.enginestates.ecs.MachinePaused.class);
                    case 7 -> {
                        if (live.size() > 5) {
                            live.remove(e);
                            a.despawn(e);
                        }
                    }
                    case 8 -> live.add(a.spawn(EntityKey.of("r" + made++), RUNNER.trait()));
                    case 9 -> RUNNER.read(e).setState(random.nextBoolean() ? "walk" : "run");
                    default -> {
                    }
                }
                a.step(DT);
            }
            InputLog.replay(saves, b, log.text());
            assertEquals(saves.checkpoint(a), saves.checkpoint(b));
            assertEquals(saves.dump(a), saves.dump(b));
            assertTrue(log.text().contains("\"$float\"") && log.text().contains("\"$long\"") && log.text().contains("\"hold\""));
        }
    }

    // ------------------------------------------------------------------ tampered logs

    private String log() {
        try (StateWorld a = StateWorld.create()) {
            a.spawn(EntityKey.of("t"), TYPED.trait());
            InputLog log = InputLog.start(SAVES, a);
            a.spawn(EntityKey.of("u")); // in the log: an entity with no machine
            a.step(DT);
            TYPED.send(a.entity("t"), "SPAWN");
            a.step(DT);
            return log.text();
        }
    }

    /** The log with one more input, added before the last. */
    private String withInput(ObjectNode input) {
        return ReplayTest.edit(log(), r -> {
            ArrayNode inputs = (ArrayNode) r.path("inputs");
            inputs.insert(inputs.size() - 1, input);
        });
    }

    private static ObjectNode input(String kind, ObjectNode body) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.set(kind, body);
        return o;
    }

    private static ObjectNode body(String... pairs) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        for (int i = 0; i < pairs.length; i += 2) {
            o.put(pairs[i], pairs[i + 1]);
        }
        return o;
    }

    private void assertRefusedWhole(String log, String... fragments) {
        try (StateWorld b = StateWorld.create()) {
            String before = SAVES.dump(b);
            CheckpointException e = assertThrows(CheckpointException.class, () -> InputLog.replay(SAVES, b, log));
            for (String f : fragments) {
                assertTrue(e.getMessage().contains(f), "the message names " + f + ":\n" + e.getMessage());
            }
            assertEquals(before, SAVES.dump(b), "nothing was applied");
            assertNull(b.entity("t"), "not even the start");
        }
    }

    @Test
    void aTypedFieldOfMoreThanAThousandDigitsOrWithExtraKeysIsRefusedBeforeAnythingChanges() {
        // Java reads a long number in time quadratic in its length: Jackson's own limit of 1,000 digits holds here too
        for (String value : new String[] {"{\"$bigint\":\"" + "9".repeat(1001) + "\"}", "{\"$long\":\"5\",\"junk\":1}"}) {
            ObjectNode send = body("entity", "t", "machine", "exact-typed");
            send.set("event", body("type", "HIT"));
            try {
                ((ObjectNode) send.get("event")).set("fields", new com.fasterxml.jackson.databind.ObjectMapper().readTree("[[\"damage\"," + value + "]]"));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            assertRefusedWhole(withInput(input("send", send)), ".send.event.fields.damage", value.contains("junk") ? "[$long, junk]" : "1001 digits");
        }
    }

    @Test
    void anUnknownEventIsRefusedBeforeAnythingChanges() {
        ObjectNode send = body("entity", "t", "machine", "exact-typed");
        send.set("event", body("type", "HALT"));
        ((ObjectNode) send.get("event")).set("fields", JsonNodeFactory.instance.objectNode());
        assertRefusedWhole(withInput(input("send", send)), "knows no event 'HALT'");
    }

    @Test
    void statesThatCannotBeActiveTogetherAreRefused() {
        ObjectNode set = body("entity", "t", "machine", "exact-typed");
        set.putArray("states").add("idle").add("hurt");
        assertRefusedWhole(withInput(input("set", set)), "'idle' and 'hurt' cannot be active together");
    }

    @Test
    void anEditOnAnEntityWithoutTheMachineIsRefused() {
        ObjectNode edit = body("entity", "u", "machine", "exact-typed");
        edit.set("record", ReplayTest.parse(SAVES.checkpoint(worldWithT())).path("entities").path("t").path("exact-typed"));
        assertRefusedWhole(withInput(input("edit", edit)), "entity 'u' holds no machine 'exact-typed'");
    }

    @Test
    void anAttachOfAMachineTheEntityHoldsIsRefused() {
        ObjectNode attach = body("entity", "t", "machine", "exact-typed");
        attach.set("record", ReplayTest.parse(SAVES.checkpoint(worldWithT())).path("entities").path("t").path("exact-typed"));
        assertRefusedWhole(withInput(input("attach", attach)), "entity 't' already holds machine 'exact-typed'");
    }

    @Test
    void aSpawnKeyedWorldOrAKeyInUseIsRefused() {
        ObjectNode world = body("entity", "world");
        world.putObject("machines");
        assertRefusedWhole(withInput(input("spawn", world)), "expected a key other than \"world\"");
        ObjectNode twice = body("entity", "u");
        twice.putObject("machines");
        assertRefusedWhole(withInput(input("spawn", twice)), "an entity with key 'u' exists");
    }

    @Test
    void despawningTheWorldIsRefused() {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("despawn", "world");
        assertRefusedWhole(withInput(o), "the world's own entity cannot be despawned");
    }

    private static StateWorld worldWithT() {
        StateWorld w = StateWorld.create();
        w.spawn(EntityKey.of("t"), TYPED.trait());
        return w;
    }
}

package dev.enginestates.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.Fixtures;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.MachinePaused;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DESIGN.md: "Bad input gets a clear error and changes nothing": a corrupt or mismatched
 * checkpoint throws a {@link CheckpointException} whose message names what and where (its JSON
 * path), and "A restore is all-or-nothing". Every case restores a checkpoint that, but for its one
 * defect, would change the world (it was taken from another run), and then checks that the
 * world's dump and checkpoint are what they were, and that it steps on exactly as a twin world
 * that was never given bad input.
 */
class BadCheckpointTest {
    static final double DT = 1.0 / 60;
    static final ObjectMapper JSON = new ObjectMapper();

    public static final class Bells {
        public int bells;
        public String name = "guard";
    }

    static final States<Bells> GUARD = States.define("bad-guard", Bells::new, Fixtures.<Bells>guard()
            .withoutRestart()
            .answer(s -> s.entry((g, e) -> g.bells++)));

    public static final class Ticks {
        public int ticks;
    }

    static final States<Ticks> LIFE = States.define("bad-life", Ticks::new, m -> m
            .initial("life")
            .state("life", l -> l.parallel()
                    .state("clock", c -> c.initial("tick")
                            .state("tick", s -> s.waitFor(1, t -> t.target("tock").action((x, e) -> x.ticks++)))
                            .state("tock", s -> s.waitFor(1, t -> t.target("tick").action((x, e) -> x.ticks++))))
                    .state("sense", c -> c.initial("calm").state("calm", s -> s.on("ALARM", "alarmed")).state("alarmed"))));

    static final Saves SAVES = Saves.of(GUARD, LIFE);

    StateWorld world;
    StateWorld twin;
    /** A valid checkpoint of another run: restoring it would change {@link #world}. */
    String other;

    /** The world every case tries to restore into: a guard answering the bell, another mid-rest and paused, a parallel machine. */
    static StateWorld makeWorld() {
        StateWorld w = StateWorld.create();
        Entity g1 = w.spawn(EntityKey.of("g1"), GUARD.trait());
        Entity g2 = w.spawn(EntityKey.of("g2"), GUARD.trait(), LIFE.trait());
        for (int i = 0; i < 150; i++) {
            w.step(DT);
        }
        GUARD.send(g1, "BELL");
        for (int i = 0; i < 200; i++) {
            w.step(DT);
        }
        g2.add(MachinePaused.INSTANCE);
        LIFE.send(g2, "ALARM");
        w.step(DT);
        return w;
    }

    @BeforeEach
    void setUp() {
        world = makeWorld();
        twin = makeWorld();
        try (StateWorld o = StateWorld.create()) {
            Entity g1 = o.spawn(EntityKey.of("g1"), GUARD.trait());
            Entity g2 = o.spawn(EntityKey.of("g2"), GUARD.trait(), LIFE.trait());
            for (int i = 0; i < 200; i++) {
                o.step(DT);
            }
            GUARD.send(g2, "BELL");
            for (int i = 0; i < 70; i++) {
                o.step(DT);
            }
            GUARD.send(g1, "BELL");
            o.step(DT);
            other = SAVES.checkpoint(o);
        }
        assertNotEquals(SAVES.checkpoint(world), other, "the other checkpoint would change the world");
    }

    @AfterEach
    void tearDown() {
        // the refused restores changed nothing that shows later either
        for (int i = 0; i < 900; i++) {
            if (i == 300) {
                GUARD.send(world.entity("g1"), "RESUME");
                GUARD.send(twin.entity("g1"), "RESUME");
            }
            world.step(DT);
            twin.step(DT);
        }
        assertEquals(SAVES.checkpoint(twin), SAVES.checkpoint(world), "the world steps on as its twin that saw no bad input");
        assertEquals(SAVES.dump(twin), SAVES.dump(world));
        world.close();
        twin.close();
    }

    // ------------------------------------------------------------------ helpers

    static ObjectNode tree(String text) {
        try {
            return (ObjectNode) JSON.readTree(text);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    static String text(JsonNode node) {
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(node);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** The other checkpoint with one edit. */
    String edited(Consumer<ObjectNode> edit) {
        ObjectNode root = tree(other);
        edit.accept(root);
        return text(root);
    }

    static ObjectNode record(ObjectNode root, String key, String machine) {
        return (ObjectNode) root.path("entities").path(key).path(machine);
    }

    /** Restores {@code text}, expects a refusal naming each fragment, and checks that nothing changed. */
    CheckpointException assertRefused(String text, boolean spawnMissing, String... fragments) {
        String dump = SAVES.dump(world);
        String checkpoint = SAVES.checkpoint(world);
        int keyed = world.dominion().findEntitiesWith(EntityKey.class).stream().mapToInt(x -> 1).sum();
        double time = world.time();
        long steps = world.steps();
        CheckpointException e = assertThrows(CheckpointException.class,
                () -> {
                    if (spawnMissing) {
                        SAVES.restoreSpawningMissing(world, text);
                    } else {
                        SAVES.restore(world, text);
                    }
                });
        for (String f : fragments) {
            assertTrue(e.getMessage().contains(f), "the message names " + f + ":\n" + e.getMessage());
        }
        assertEquals(dump, SAVES.dump(world), "the dump is unchanged");
        assertEquals(checkpoint, SAVES.checkpoint(world), "the checkpoint is unchanged");
        assertEquals(keyed, world.dominion().findEntitiesWith(EntityKey.class).stream().mapToInt(x -> 1).sum(), "no entity spawned");
        assertEquals(time, world.time());
        assertEquals(steps, world.steps());
        return e;
    }

    CheckpointException assertRefused(String text, String... fragments) {
        return assertRefused(text, false, fragments);
    }

    // ------------------------------------------------------------------ the text

    @Test
    void aTruncatedCheckpointIsRefusedAsInvalidJson() {
        CheckpointException e = assertRefused(other.substring(0, other.length() / 2), true, "not valid JSON at line", "$");
        assertEquals(1, e.problems().size());
        assertRefused(other.substring(0, other.length() - 2), true, "not valid JSON at line");
    }

    @Test
    void malformedJsonIsRefusedWithItsLineAndColumn() {
        String text = other.replaceFirst("\"format\" :", "\"format\" =");
        int line = (int) other.substring(0, other.indexOf("\"format\" :")).chars().filter(c -> c == '\n').count() + 1;
        assertRefused(text, true, "not valid JSON at line " + line + ", column");
        assertRefused("", true, "$: expected a JSON checkpoint, found nothing");
        assertRefused("[1, 2]", true, "$: expected a checkpoint object, found an array");
        assertRefused(other + " {}", true, "not valid JSON");
    }

    @Test
    void anotherFormatIsRefused() {
        assertRefused(edited(r -> r.put("format", "engine-states/inputs")), true,
                "$.format", "expected \"engine-states/checkpoint\"", "found the string \"engine-states/inputs\"");
        assertRefused(edited(r -> r.remove("format")), true, "$.format", "found nothing");
    }

    @Test
    void anotherVersionIsRefused() {
        assertRefused(edited(r -> r.put("version", 2)), true, "$.version", "expected 1", "found the number 2");
        assertRefused(edited(r -> r.put("version", "1")), true, "$.version", "found the string \"1\"");
        assertRefused(edited(r -> r.put("version", 0)), true, "$.version", "found the number 0");
    }

    // ------------------------------------------------------------------ machines and states

    @Test
    void anUnknownMachineIdIsRefusedWithItsPath() {
        CheckpointException e = assertRefused(edited(r -> {
            ObjectNode g1 = (ObjectNode) r.path("entities").path("g1");
            g1.set("bad-gaurd", g1.remove("bad-guard"));
        }), "$.entities.g1.bad-gaurd", "no machine has id 'bad-gaurd'", "bad-guard", "bad-life");
        assertEquals(1, e.problems().size(), e.getMessage());
    }

    @Test
    void anUnknownStateInTheActiveListIsRefusedWithItsPath() {
        assertRefused(edited(r -> ((ArrayNode) record(r, "g1", "bad-guard").path("active")).set(0, "patrl")),
                "$.entities.g1.bad-guard.active[0]", "machine 'bad-guard' has no state 'patrl'");
        assertRefused(edited(r -> ((ArrayNode) record(r, "g2", "bad-life").path("active")).set(3, "life.clock.tack")),
                "$.entities.g2.bad-life.active[3]", "has no state 'life.clock.tack'");
        assertRefused(edited(r -> ((ArrayNode) record(r, "g1", "bad-guard").path("active")).set(0, 7)),
                "$.entities.g1.bad-guard.active[0]", "expected a state path, found the number 7");
    }

    @Test
    void aHistoryStateListedAsActiveIsRefused() {
        assertRefused(edited(r -> {
            ObjectNode g = record(r, "g2", "bad-guard");
            ArrayNode active = g.putArray("active");
            active.add("patrol").add("patrol.resumed");
        }), "$.entities.g2.bad-guard.active[1]", "'patrol.resumed' is a history state, which is never active");
    }

    @Test
    void anUnknownStateInHistoryIsRefusedWithItsPath() {
        assertRefused(edited(r -> {
            ObjectNode h = (ObjectNode) record(r, "g1", "bad-guard").path("history");
            h.set("patrol.forgot", h.remove("patrol.resumed"));
        }), "$.entities.g1.bad-guard.history.patrol.forgot", "'patrol.forgot' names no history state of machine 'bad-guard'");
        assertRefused(edited(r -> ((ArrayNode) record(r, "g1", "bad-guard").path("history").path("patrol.resumed")).set(0, "patrol.nap")),
                "$.entities.g1.bad-guard.history.patrol.resumed[0]", "has no state 'patrol.nap'");
        assertRefused(edited(r -> ((ArrayNode) record(r, "g1", "bad-guard").path("history").path("patrol.resumed")).set(0, "answer")),
                "$.entities.g1.bad-guard.history.patrol.resumed[0]", "'answer' is not inside 'patrol'");
    }

    @Test
    void anUnknownStateInPausedIsRefusedWithItsPath() {
        assertRefused(edited(r -> ((ObjectNode) record(r, "g1", "bad-guard").path("paused")).put("patrol.nap", 1.5)),
                "$.entities.g1.bad-guard.paused.patrol.nap", "'patrol.nap' names no state with a wait in machine 'bad-guard'");
        assertRefused(edited(r -> ((ObjectNode) record(r, "g1", "bad-guard").path("paused")).put("answer", 1.5)),
                "$.entities.g1.bad-guard.paused.answer", "names no state with a wait");
    }

    @Test
    void anUnknownStateInTheWaitIsRefusedWithItsPath() {
        assertRefused(edited(r -> ((ObjectNode) record(r, "g2", "bad-life").path("wait")).put("state", "life.clock.tack")),
                "$.entities.g2.bad-life.wait.state", "machine 'bad-life' has no state 'life.clock.tack'");
        assertRefused(edited(r -> ((ObjectNode) record(r, "g2", "bad-life").path("wait")).put("state", "life.sense.calm")),
                "$.entities.g2.bad-life.wait.state", "'life.sense.calm' is not an active state with a wait");
    }

    @Test
    void aContextFieldOfTheWrongTypeIsRefused() {
        CheckpointException e = assertRefused(edited(r -> ((ObjectNode) record(r, "g1", "bad-guard").path("context")).put("bells", "many")),
                "$.entities.g1.bad-guard.context", "does not fit context type", Bells.class.getName(), "\"many\"", "int");
        assertEquals(1, e.problems().size());
        assertRefused(edited(r -> ((ObjectNode) record(r, "g1", "bad-guard").path("context")).putArray("bells").add(1)),
                "$.entities.g1.bad-guard.context", "does not fit context type");
        assertRefused(edited(r -> ((ObjectNode) record(r, "g1", "bad-guard").path("context")).put("bells", 99_999_999_999L)),
                "$.entities.g1.bad-guard.context", "out of range of int");
    }

    @Test
    void aContextFieldOfTheWrongTypeIsNamedByItsPath() {
        assertRefused(edited(r -> ((ObjectNode) record(r, "g1", "bad-guard").path("context")).put("bells", "many")),
                "bells");
    }

    @Test
    void aFractionalNumberForAnIntContextFieldIsRefused() {
        assertRefused(edited(r -> ((ObjectNode) record(r, "g1", "bad-guard").path("context")).put("bells", 1.5)),
                "$.entities.g1.bad-guard.context");
    }

    @Test
    void aContextWithAnUnknownFieldIsRefused() {
        assertRefused(edited(r -> ((ObjectNode) record(r, "g1", "bad-guard").path("context")).put("wings", 2)),
                "$.entities.g1.bad-guard.context", "does not fit context type", "Unrecognized field \"wings\"");
        assertRefused(edited(r -> record(r, "g1", "bad-guard").remove("context")),
                "$.entities.g1.bad-guard.context", "missing");
    }

    // ------------------------------------------------------------------ entities

    @Test
    void aKeyThatMatchesNoEntityIsRefusedByAPlainRestore() {
        String text = edited(r -> {
            ObjectNode entities = (ObjectNode) r.path("entities");
            entities.set("ghost", entities.remove("g2"));
        });
        assertRefused(text, "$.entities.ghost", "no entity of the world has key 'ghost'", "EntityKey");
        // restoreSpawningMissing takes the same text and spawns the entity
        try (StateWorld w = makeWorld()) {
            SAVES.restoreSpawningMissing(w, text);
            assertEquals("answer", GUARD.read(w.entity("ghost")).value());
        }
    }

    // ------------------------------------------------------------------ seconds

    @Test
    void negativeSecondsAreRefused() {
        assertRefused(edited(r -> ((ObjectNode) record(r, "g1", "bad-guard").path("paused")).put("patrol.watch", -1.0)),
                "$.entities.g1.bad-guard.paused.patrol.watch", "expected seconds, 0 or more, found -1.0");
        assertRefused(edited(r -> ((ObjectNode) record(r, "g2", "bad-life").path("wait")).put("seconds", -2.0)),
                "$.entities.g2.bad-life.wait.seconds", "expected seconds, 0 or more, found -2.0");
        assertRefused(edited(r -> ((ObjectNode) r.path("clock")).put("time", -0.5)),
                "$.clock.time", "0 or more", "-0.5");
        assertRefused(edited(r -> ((ObjectNode) r.path("clock")).put("steps", -3)),
                "$.clock.steps", "the number -3");
    }

    @Test
    void nanLikeSecondsAreRefused() {
        assertRefused(edited(r -> ((ObjectNode) record(r, "g2", "bad-life").path("wait")).put("seconds", "NaN")),
                "$.entities.g2.bad-life.wait.seconds", "expected a number, found the string \"NaN\"");
        assertRefused(edited(r -> ((ObjectNode) record(r, "g1", "bad-guard").path("paused")).put("patrol.watch", "Infinity")),
                "$.entities.g1.bad-guard.paused.patrol.watch", "expected a number");
        String infinite = edited(r -> ((ObjectNode) record(r, "g2", "bad-life").path("wait")).put("seconds", 123.25))
                .replace("123.25", "1e400");
        assertRefused(infinite, "$.entities.g2.bad-life.wait.seconds", "expected a finite number, found Infinity");
        String nanToken = edited(r -> ((ObjectNode) record(r, "g2", "bad-life").path("wait")).put("start", 123.25))
                .replace("123.25", "NaN");
        assertRefused(nanToken, "not valid JSON", "NaN");
        assertRefused(edited(r -> ((ObjectNode) r.path("clock")).put("time", "soon")), "$.clock.time", "the string \"soon\"");
        assertRefused(edited(r -> record(r, "g1", "bad-guard").put("heldSince", "NaN")),
                "$.entities.g1.bad-guard.heldSince", "expected a number");
    }

    // ------------------------------------------------------------------ several at once

    @Test
    void twoProblemsAtOnceAreBothListed() {
        CheckpointException e = assertRefused(edited(r -> {
            ((ArrayNode) record(r, "g1", "bad-guard").path("active")).set(0, "patrl");
            ((ObjectNode) record(r, "g2", "bad-life").path("wait")).put("seconds", -2.0);
        }), "2 problems", "$.entities.g1.bad-guard.active[0]", "$.entities.g2.bad-life.wait.seconds");
        assertEquals(2, e.problems().size(), e.getMessage());
        assertTrue(e.problems().get(0).startsWith("$.entities.g1.bad-guard.active[0]"), e.problems().toString());
        assertTrue(e.problems().get(1).startsWith("$.entities.g2.bad-life.wait.seconds"), e.problems().toString());
    }

    @Test
    void aRestoreWithOneBadRecordWritesNoneOfTheGoodOnes() {
        // all or nothing: g1's record is valid, g2's is not; g1 keeps its own record
        String g1Before = GUARD.read(world.entity("g1")).toString();
        assertRefused(edited(r -> record(r, "g2", "bad-guard").put("status", "finished")),
                "$.entities.g2.bad-guard.status", "expected \"active\" or \"done\"");
        assertEquals(g1Before, GUARD.read(world.entity("g1")).toString());
        assertRefused(edited(r -> r.put("version", 9).put("format", "x")), "$.format", "$.version", "2 problems");
    }

    // ------------------------------------------------------------------ configurations the chart cannot be in

    @Test
    void aWaitThatStartsAfterTheClockIsRefused() {
        assertRefused(edited(r -> {
            double time = r.path("clock").path("time").asDouble();
            ((ObjectNode) record(r, "g2", "bad-life").path("wait")).put("start", time + 5);
        }), "$.entities.g2.bad-life.wait.start");
    }

    // ------------------------------------------------------------------ Saves.of and checkpoint

    /** A context without a no-argument constructor. */
    public static final class NoDefault {
        public final int hp;

        public NoDefault(int hp) {
            this.hp = hp;
        }
    }

    /** A context with a field of an interface type, which Jackson cannot read back. */
    public static final class WithFunction {
        public int hp = 3;
        public java.util.function.IntSupplier regen = () -> 1;
    }

    static <C> States<C> simple(String id, java.util.function.Supplier<C> context) {
        return States.define(id, context, m -> m.initial("a").state("a", s -> s.on("GO", "b")).state("b"));
    }

    @Test
    void savesOfRefusesAContextWithoutANoArgumentConstructorNamingTheMachineAndTheType() {
        States<NoDefault> m = simple("bad-nodefault", () -> new NoDefault(3));
        CheckpointException e = assertThrows(CheckpointException.class, () -> Saves.of(m));
        assertTrue(e.getMessage().contains("machine 'bad-nodefault'"), e.getMessage());
        assertTrue(e.getMessage().contains(NoDefault.class.getName()), e.getMessage());
        assertTrue(e.getMessage().contains("no-argument constructor"), e.getMessage());
        assertEquals(1, e.problems().size());
    }

    @Test
    void savesOfRefusesAContextWithAFieldJacksonCannotReadBack() {
        States<WithFunction> m = simple("bad-function", WithFunction::new);
        CheckpointException e = assertThrows(CheckpointException.class, () -> Saves.of(GUARD, m));
        assertTrue(e.getMessage().contains("machine 'bad-function'"), e.getMessage());
        assertTrue(e.getMessage().contains(WithFunction.class.getName()), e.getMessage());
        assertTrue(e.getMessage().contains("IntSupplier"), e.getMessage());
        assertEquals(1, e.problems().size(), "the guard's context is fine: " + e.getMessage());
    }

    @Test
    void savesOfRefusesTwoMachinesWithOneId() {
        States<Bells> twin = States.define("bad-guard", Bells::new, m -> m.initial("a").state("a", s -> s.on("GO", "a")));
        CheckpointException e = assertThrows(CheckpointException.class, () -> Saves.of(GUARD, twin));
        assertTrue(e.getMessage().contains("two machines have id 'bad-guard'"), e.getMessage());
    }

    public static final class Circle {
        public int r = 1;
    }

    /** A context whose field of type Object holds a Circle: written as {"r":1}, read back as a map. */
    public static final class WithObject {
        public Object shape = new Circle();
    }

    /** Its two writings are equal, but the field reads back as a LinkedHashMap: after a restore the game's context would hold another type. */
    @Test
    void savesOfRefusesAContextWhoseFieldReadsBackAsAnotherType() {
        States<WithObject> m = simple("bad-object", WithObject::new);
        CheckpointException e = assertThrows(CheckpointException.class, () -> Saves.of(m));
        assertTrue(e.getMessage().contains(".shape") && e.getMessage().contains("LinkedHashMap"), e.getMessage());
    }

    @Test
    void checkpointRefusesAnEntityHoldingAMachineWithoutAKeyAndSaysSo() {
        Entity unkeyed = world.spawn(GUARD.trait());
        String dump = SAVES.dump(world);
        CheckpointException e = assertThrows(CheckpointException.class, () -> SAVES.checkpoint(world));
        assertTrue(e.getMessage().contains("has no EntityKey"), e.getMessage());
        assertTrue(e.getMessage().contains("'bad-guard'"), e.getMessage());
        assertTrue(e.getMessage().contains("EntityKey.of"), e.getMessage());
        assertEquals(dump, SAVES.dump(world));
        world.despawn(unkeyed);
        SAVES.checkpoint(world); // and with it gone, the world checkpoints again
    }

    @Test
    void theDumpNamesUnkeyedEntitiesByNumberInSpawnOrder() {
        Entity first = world.spawn(GUARD.trait());
        Entity second = world.spawn(LIFE.trait());
        GUARD.send(first, "BELL");
        JsonNode entities = tree(SAVES.dump(world)).path("entities");
        List<String> names = new ArrayList<>();
        entities.fieldNames().forEachRemaining(names::add);
        assertEquals(List.of("#1", "#2", "g1", "g2"), names, "sorted: #1 and #2 before the keys");
        assertEquals("answer", entities.path("#1").path("machines").path("bad-guard").path("state").asText());
        assertEquals(Map.of("life", Map.of("clock", "tick", "sense", "calm")),
                JSON.convertValue(entities.path("#2").path("machines").path("bad-life").path("state"), Map.class));
        world.despawn(first);
        world.despawn(second);
    }

    @Test
    void aListenerThatThrowsDoesNotLeaveARestoreHalfDone() {
        // "A restore is all-or-nothing": the listener's failure is thrown once every record is written
        try (StateWorld src = StateWorld.create(); StateWorld w = StateWorld.create()) {
            for (String k : new String[] {"a", "b"}) {
                src.spawn(dev.enginestates.ecs.EntityKey.of(k), SendingGuard.M.trait());
                w.spawn(dev.enginestates.ecs.EntityKey.of(k), SendingGuard.M.trait());
                SendingGuard.M.send(src.entity(k), "BELL");
            }
            src.step(DT);
            String cp = SendingGuard.SAVES.checkpoint(src);
            w.addListener(new dev.enginestates.MachineListener<dev.enginestates.ecs.StateRecord<?>>() {
                @Override
                public void stateChanged(dev.enginestates.ecs.StateRecord<?> m, String from, String to, String event) {
                    throw new IllegalStateException("listener failed on " + dev.enginestates.ecs.StateWorld.keyOf(m.entity()));
                }
            });
            dev.enginestates.declare.UserCodeException e = assertThrows(dev.enginestates.declare.UserCodeException.class,
                    () -> SendingGuard.SAVES.restore(w, cp));
            assertEquals("listener failed on a", e.getCause().getMessage(), "the first failure is thrown");
            assertEquals(1, e.getSuppressed().length, "the second is suppressed in it, not lost");
            assertEquals(SendingGuard.SAVES.checkpoint(src), SendingGuard.SAVES.checkpoint(w), "both records and the clock were written");
        }
    }
}

package dev.enginestates.io;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.MachinePaused;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DESIGN.md: "Checkpoints ... are read strictly (no coercions, no duplicate keys, no configuration
 * the chart cannot be in) and refused whole before anything changes." Each case edits a
 * checkpoint the engine wrote into one the machine could never be in, and checks the refusal
 * names it and the world is unchanged. The other side, that every configuration XState leaves is
 * accepted, is pinned by the trace replayer (it checks each step's configuration against the same
 * rule) and by {@link CheckpointRoundTripTest}'s random worlds.
 */
class StrictCheckpointTest {
    static final double DT = 1.0 / 60;
    static final ObjectMapper JSON = new ObjectMapper();

    public static final class Guard {
        public int bells;
        public boolean alert;
        public String name = "guard";
    }

    // The guard's shape, written out rather than Fixtures.guard(): the checks below are about a
    // shallow history (patrol.back) and a final state (gone), which the document's guard has not.
    static final States<Guard> GUARD = States.define("strict-guard", Guard::new, m -> m
            .initial("patrol")
            .state("patrol", p -> p
                    .initial("watch")
                    .state("watch", s -> s.waitFor(4, "rest"))
                    .state("rest", s -> s.waitFor(10, "watch"))
                    .history("back")
                    .on("BELL", "answer"))
            .state("answer", s -> s.on("RESUME", "patrol.back").on("QUIT", "gone"))
            .finalState("gone"));

    public static final class Life {
        public int ticks;
    }

    static final States<Life> LIFE = States.define("strict-life", Life::new, m -> m
            .initial("life")
            .state("life", l -> l.parallel()
                    .state("clock", c -> c.initial("tick")
                            .state("tick", s -> s.waitFor(1, "tock"))
                            .state("tock", s -> s.waitFor(1, "tick")))
                    .state("sense", c -> c.initial("calm").state("calm", s -> s.on("ALARM", "alarmed")).state("alarmed"))));

    static final Saves SAVES = Saves.of(GUARD, LIFE);

    StateWorld world;
    String text;

    @BeforeEach
    void setUp() {
        world = StateWorld.create();
        Entity g = world.spawn(EntityKey.of("g"), GUARD.trait(), LIFE.trait());
        for (int i = 0; i < 90; i++) {
            world.step(DT);
        }
        GUARD.send(g, "BELL");
        GUARD.send(g, "RESUME"); // patrol.back remembers watch
        world.step(DT);
        text = SAVES.checkpoint(world);
        assertEquals(text, restoredCopy(text), "the unedited checkpoint restores");
    }

    @AfterEach
    void tearDown() {
        world.close();
    }

    private static String restoredCopy(String checkpoint) {
        try (StateWorld copy = StateWorld.create()) {
            SAVES.restoreSpawningMissing(copy, checkpoint);
            return SAVES.checkpoint(copy);
        }
    }

    private String edited(Consumer<ObjectNode> edit) {
        try {
            ObjectNode root = (ObjectNode) JSON.readTree(text);
            edit.accept(root);
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static ObjectNode guard(ObjectNode root) {
        return (ObjectNode) root.path("entities").path("g").path("strict-guard");
    }

    private static ObjectNode life(ObjectNode root) {
        return (ObjectNode) root.path("entities").path("g").path("strict-life");
    }

    private static ArrayNode paths(String... paths) {
        ArrayNode a = JsonNodeFactory.instance.arrayNode();
        for (String p : paths) {
            a.add(p);
        }
        return a;
    }

    /** Restores onto the world (its entity exists), expects a refusal naming each fragment, and an unchanged world. */
    private void assertRefused(String bad, String... fragments) {
        String before = SAVES.checkpoint(world);
        CheckpointException e = assertThrows(CheckpointException.class, () -> SAVES.restore(world, bad));
        for (String f : fragments) {
            assertTrue(e.getMessage().contains(f), "the message names " + f + ":\n" + e.getMessage());
        }
        assertEquals(before, SAVES.checkpoint(world), "the world is unchanged");
    }

    // ------------------------------------------------------------------ configurations

    @Test
    void twoChildrenOfOneCompoundActiveAreRefused() {
        assertRefused(edited(r -> guard(r).set("active", paths("patrol", "patrol.watch", "patrol.rest"))),
                "$.entities.g.strict-guard", "machine 'strict-guard'", "compound state 'patrol' has 2 active children");
    }

    @Test
    void aLeafWithoutItsParentIsRefused() {
        assertRefused(edited(r -> guard(r).set("active", paths("patrol.watch"))),
                "'patrol.watch' is active but its parent 'patrol' is not");
    }

    @Test
    void twoTopLevelSiblingsAreRefused() {
        assertRefused(edited(r -> guard(r).set("active", paths("patrol", "patrol.watch", "answer"))),
                "the machine's root has 2 active children");
    }

    @Test
    void aCompoundWithNoActiveChildIsRefused() {
        assertRefused(edited(r -> {
            guard(r).set("active", paths("patrol"));
            guard(r).putNull("wait");
        }), "compound state 'patrol' has no active child");
    }

    @Test
    void aParallelStateMissingARegionIsRefused() {
        assertRefused(edited(r -> life(r).set("active", paths("life", "life.clock", "life.clock.tock"))),
                "machine 'strict-life'", "parallel state 'life' has no active state in its region 'life.sense'");
    }

    @Test
    void doneStatusInANonFinalStateIsRefused() {
        assertRefused(edited(r -> guard(r).put("status", "done")), "the status is done but no top-level final state is active");
    }

    @Test
    void aFinalStateActiveWithStatusActiveIsRefused() {
        assertRefused(edited(r -> {
            guard(r).set("active", paths("gone"));
            guard(r).putNull("wait");
        }), "a top-level final state is active", "expected status done");
    }

    @Test
    void aShallowHistoryRememberingTwoStatesOrAHistoryStateIsRefused() {
        assertRefused(edited(r -> ((ObjectNode) guard(r).path("history")).set("patrol.back", paths("patrol.watch", "patrol.rest"))),
                "history 'patrol.back' (shallow) remembers 2 states of compound state 'patrol'; expected one");
        assertRefused(edited(r -> ((ObjectNode) guard(r).path("history")).set("patrol.back", paths("patrol.back"))),
                "history 'patrol.back' remembers the history state 'patrol.back'");
    }

    @Test
    void aHistoryPathListedFiveTimesIsRefusedByName() {
        assertRefused(edited(r -> ((ObjectNode) guard(r).path("history")).set("patrol.back",
                        paths("patrol.watch", "patrol.watch", "patrol.watch", "patrol.watch", "patrol.watch"))),
                "$.entities.g.strict-guard.history.patrol.back[1]", "'patrol.watch' is listed twice");
    }

    // ------------------------------------------------------------------ the context

    @Test
    void aStringForAnIntAndANumberForABooleanAreRefused() {
        assertRefused(edited(r -> ((ObjectNode) guard(r).path("context")).put("bells", "12")),
                "$.entities.g.strict-guard.context", "does not fit context type");
        assertRefused(edited(r -> ((ObjectNode) guard(r).path("context")).put("alert", 1)),
                "$.entities.g.strict-guard.context", "does not fit context type");
    }

    @Test
    void nullForAnIntAndANullContextAreRefused() {
        assertRefused(edited(r -> ((ObjectNode) guard(r).path("context")).putNull("bells")),
                "$.entities.g.strict-guard.context", "does not fit context type");
        assertRefused(edited(r -> guard(r).putNull("context")),
                "$.entities.g.strict-guard.context: null, but machine 'strict-guard' has a context");
    }

    @Test
    void aMissingContextFieldIsRefused() {
        assertRefused(edited(r -> ((ObjectNode) guard(r).path("context")).remove("bells")),
                "$.entities.g.strict-guard.context.bells: missing");
    }

    // ------------------------------------------------------------------ the text

    @Test
    void aKeyGivenTwiceIsRefusedForAnEntityAMachineAndTheClock() {
        String entity = text.replaceFirst("\"entities\" : \\{", "\"entities\" : { \"g\" : { },");
        assertRefused(entity, "Duplicate field 'g'");
        String machine = text.replaceFirst("\"g\" : \\{", "\"g\" : { \"strict-life\" : { },");
        assertRefused(machine, "Duplicate field 'strict-life'");
        String clock = text.replaceFirst("\"clock\" : \\{", "\"clock\" : { \"time\" : 0.0,");
        assertRefused(clock, "Duplicate field 'time'");
    }

    // ------------------------------------------------------------------ seconds

    @Test
    void absurdSecondsAreRefusedAsAWaitWaitedOrPausedSeconds() {
        assertRefused(edited(r -> ((ObjectNode) life(r).path("wait")).put("start", -1e300)),
                "$.entities.g.strict-life.wait.start", "would have counted");
        assertRefused(edited(r -> ((ObjectNode) guard(r).path("paused")).put("patrol.rest", 1e300)),
                "$.entities.g.strict-guard.paused.patrol.rest", "expected at most");
        assertRefused(edited(r -> ((ObjectNode) guard(r).path("wait")).put("seconds", 1e300)),
                "$.entities.g.strict-guard.wait.seconds");
    }

    @Test
    void aWaitOfOtherSecondsThanTheMachinesIsRefused() {
        assertRefused(edited(r -> ((ObjectNode) guard(r).path("wait")).put("seconds", 5.0)),
                "$.entities.g.strict-guard.wait.seconds", "the wait of 'patrol.watch' is 4.0 s");
    }

    @Test
    void aHoldThatBeganAfterTheClockIsRefused() {
        world.entity("g").add(MachinePaused.INSTANCE);
        world.step(DT);
        text = SAVES.checkpoint(world);
        double time = world.time();
        assertRefused(edited(r -> guard(r).put("heldSince", time + 5)),
                "$.entities.g.strict-guard.heldSince", "after the checkpoint's clock");
    }

    // ------------------------------------------------------------------ unknown fields

    /** A checkpoint of {@link SendingGuard#world()} with its guard's record (and the root) edited. */
    private static String sendingEdited(StateWorld w, java.util.function.BiConsumer<ObjectNode, ObjectNode> edit) {
        try {
            ObjectNode root = (ObjectNode) JSON.readTree(SendingGuard.SAVES.checkpoint(w));
            edit.accept(root, (ObjectNode) root.path("entities").path("g").path(SendingGuard.M.id()));
            return JSON.writeValueAsString(root);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Restores onto the sending guard's world, expects a refusal naming each fragment, and an unchanged world. */
    private static void assertSendingRefused(StateWorld w, String bad, String... fragments) {
        String before = SendingGuard.SAVES.checkpoint(w);
        CheckpointException e = assertThrows(CheckpointException.class, () -> SendingGuard.SAVES.restore(w, bad));
        for (String f : fragments) {
            assertTrue(e.getMessage().contains(f), "the message names " + f + ":\n" + e.getMessage());
        }
        assertEquals(before, SendingGuard.SAVES.checkpoint(w), "the world is unchanged");
    }

    @Test
    void anUnknownFieldIsRefusedWithItsPathAndTheFieldsExpected() {
        try (StateWorld w = SendingGuard.world()) {
            // "Sends" for "sends": read leniently, the pending RESUME would be lost without a word
            assertSendingRefused(w, sendingEdited(w, (root, r) -> r.set("Sends", r.remove("sends"))),
                    "$.entities.g.sending-guard.Sends: not a field", "heldSince", "sends");
            assertSendingRefused(w, sendingEdited(w, (root, r) -> root.put("extra", 1)),
                    "$.extra: not a field of a checkpoint; expected format, version, clock, randomSeed, machines, entities");
            assertSendingRefused(w, sendingEdited(w, (root, r) -> ((ObjectNode) root.get("clock")).put("tick", 1)),
                    "$.clock.tick: not a field", "expected time, steps");
            assertSendingRefused(w, sendingEdited(w, (root, r) -> r.put("junk", 1)), "$.entities.g.sending-guard.junk: not a field");
        }
        assertRefused(edited(r -> ((ObjectNode) guard(r).path("wait")).put("junk", 1)),
                "$.entities.g.strict-guard.wait.junk: not a field of a wait; expected state, start, seconds");
    }

    @Test
    void aCheckpointWithoutTheOptionalFieldsStillRestores() {
        // written before entry times were saved; and with no pending sends, "sends" is not written at all
        String old = edited(r -> {
            guard(r).remove("entered");
            life(r).remove("entered");
        });
        assertTrue(!guard(readTree(old)).has("sends"));
        SAVES.restore(world, old);
    }

    private static ObjectNode readTree(String text) {
        try {
            return (ObjectNode) JSON.readTree(text);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    // ------------------------------------------------------------------ numbers in the context

    @Test
    void aContextNumberItsTypeCannotHoldIsRefused() {
        try (StateWorld w = SendingGuard.world()) {
            String at = "$.entities.g.sending-guard.context";
            // Jackson reads "INF" as a double whatever its coercion settings; it writes only "NaN", "Infinity", "-Infinity"
            assertSendingRefused(w, sendingEdited(w, (root, r) -> ((ObjectNode) r.get("context")).put("hp", "INF")), at + ".hp");
            assertSendingRefused(w, sendingEdited(w, (root, r) -> ((ArrayNode) r.get("context").get("marks")).set(0, "1.5")),
                    at + ".marks[0]");
            assertSendingRefused(w, sendingEdited(w, (root, r) -> ((ObjectNode) r.get("context")).put("hp", new java.math.BigDecimal("1e400"))), at + ".hp");
            assertSendingRefused(w, sendingEdited(w, (root, r) -> ((ObjectNode) r.get("context")).put("speed", 1e300)),
                    at + ".speed", "out of the range of a float");
            assertSendingRefused(w, sendingEdited(w, (root, r) -> ((ObjectNode) r.get("context")).put("rank", 200)),
                    at + ".rank", "out of the range of a byte");
            // what a checkpoint writes still reads back: a float's shortest text, a negative byte, a whole double
            String fine = sendingEdited(w, (root, r) -> ((ObjectNode) r.get("context")).put("speed", 0.1).put("rank", -128).put("hp", 2));
            SendingGuard.SAVES.restore(w, fine);
            SendingGuard.Ctx c = SendingGuard.M.read(w.entity("g")).context();
            assertEquals(0.1f, c.speed);
            assertEquals(-128, c.rank);
            assertEquals(2.0, c.hp);
            // a NaN and an infinity in the context are written as strings, and read back
            c.hp = Double.NaN;
            c.speed = Float.NEGATIVE_INFINITY;
            c.marks = new double[] {Double.POSITIVE_INFINITY};
            String special = SendingGuard.SAVES.checkpoint(w);
            SendingGuard.SAVES.restore(w, special);
            assertEquals(special, SendingGuard.SAVES.checkpoint(w));
            assertTrue(Double.isNaN(SendingGuard.M.read(w.entity("g")).context().hp));
        }
    }

    // ------------------------------------------------------------------ times

    @Test
    void aSendOverdueByMoreThanTheLongestSecondsIsRefused() {
        try (StateWorld w = SendingGuard.world()) {
            // once restored, the next checkpoint of the world would be refused ("the wait would have counted 1e300 s")
            assertSendingRefused(w, sendingEdited(w, (root, r) -> ((ObjectNode) r.get("sends").get(0)).put("due", -1e300)),
                    "$.entities.g.sending-guard.sends[0].due", "overdue");
            // a far future is a send's own delay: it is kept
            SendingGuard.SAVES.restore(w, sendingEdited(w, (root, r) -> ((ObjectNode) r.get("sends").get(0)).put("due", 1e300)));
        }
    }

    @Test
    void aHoldOfMoreThanTheLongestSecondsIsRefusedWithoutAWait() {
        try (StateWorld w = SendingGuard.world()) {
            // answer has no wait to bound the hold; its release would push the pending RESUME 1e300 s away
            assertSendingRefused(w, sendingEdited(w, (root, r) -> r.put("heldSince", -1e300)),
                    "$.entities.g.sending-guard.heldSince", "would have lasted");
        }
    }

    // ------------------------------------------------------------------ event fields

    @Test
    void aTypedEventFieldOfMoreThanAThousandDigitsOrWithExtraKeysIsRefused() {
        try (StateWorld w = SendingGuard.world()) {
            String at = "$.entities.g.sending-guard.sends[0].fields.n";
            assertSendingRefused(w, withField(w, "{\"$bigint\":\"" + "9".repeat(1001) + "\"}"), at, "1001 digits", "at most 1000");
            assertSendingRefused(w, withField(w, "{\"$decimal\":\"0." + "9".repeat(1000) + "\"}"), at, "1001 digits");
            assertSendingRefused(w, withField(w, "{\"$long\":\"5\",\"junk\":1}"), at, "[$long, junk]");
            assertSendingRefused(w, withField(w, "{\"$enum\":\"java.time.DayOfWeek\",\"name\":\"MONDAY\",\"junk\":1}"), at);
            SendingGuard.SAVES.restore(w, withField(w, "{\"$bigint\":\"" + "9".repeat(1000) + "\"}"));
        }
    }

    private static String withField(StateWorld w, String value) {
        return sendingEdited(w, (root, r) -> {
            try {
                ((ObjectNode) r.get("sends").get(0)).set("fields", JSON.readTree("[[\"n\"," + value + "]]"));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }
}

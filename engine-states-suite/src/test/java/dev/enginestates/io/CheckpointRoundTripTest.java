package dev.enginestates.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.Fixtures;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.MachinePaused;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * DESIGN.md, I/O: "checkpoint -> restore into a fresh world -> checkpoint gives byte-identical
 * output", and the {@code 003} document: "A wait keeps its seconds on the trait, so a checkpoint
 * restores it mid-way", "a history state that brings the state back resumes the wait from
 * there". Hand-made cases for compound, parallel, deep history and holds, then a property over
 * random worlds: a world checkpointed at a random input, restored into a fresh world and fed the
 * same remaining inputs ends exactly as the original does.
 */
class CheckpointRoundTripTest {
    static final double DT = RandomWorlds.DT;
    /** Random runs by default; {@code -Dproperty.runs=N} runs more. */
    static final int DEFAULT_RUNS = 1000;

    static {
        RandomWorlds.quiet();
    }

    public static final class Guard {
        public int bells;
        public int resumes;
    }

    /** The 003 document's guard: a deep history brings the watch back with the seconds it had left. */
    static final States<Guard> GUARD = States.define("rt-guard", Guard::new, Fixtures.<Guard>guard()
            .resume(t -> t.action((g, e) -> g.resumes++))
            .answer(s -> s.entry((g, e) -> g.bells++)));

    public static final class Life {
        public int pings;
        public int alarms;
        public int ticks;
    }

    /** Two regions side by side: a clock of waits (a machine counts one wait), and a sense with when rules on a counter. */
    static final States<Life> LIFE = States.define("rt-life", Life::new, m -> m
            .initial("life")
            .state("life", l -> l.parallel()
                    .state("clock", c -> c.initial("tick")
                            .state("tick", s -> s.waitFor(1.5, t -> t.target("tock").action((x, e) -> x.ticks++)))
                            .state("tock", s -> s.waitFor(x -> 0.75 + x.ticks * 0.125, t -> t.target("tick").action((x, e) -> x.ticks++))))
                    .state("sense", c -> c.initial("calm")
                            .state("calm", s -> s.when(x -> x.pings >= 3, t -> t.target("alarmed").action((x, e) -> x.alarms++)))
                            .state("alarmed", s -> s.entry((x, e) -> x.pings = 0).when(x -> x.pings >= 2, "calm")))
                    .on("PING", t -> t.action((x, e) -> x.pings++)))
            .state("off")
            .on("OFF", ".off")
            .on("ON", ".life"));

    /** A component that holds {@link #ROUTINE} alone. */
    public static final class Talking {
    }

    public static final class Routine {
        public int laps;
    }

    /** A routine held by {@link Talking}; its wait and its when rule stop while held. */
    static final States<Routine> ROUTINE = States.define("rt-routine", Routine::new, m -> m
            .heldBy(Talking.class)
            .initial("walk")
            .state("walk", s -> s.waitFor(2, t -> t.target("rest").action((r, e) -> r.laps++)))
            .state("rest", s -> s.waitFor(3, "walk").when(r -> r.laps >= 5, "home"))
            .state("home"));

    /** A record-class context: immutable, read back through its canonical constructor. */
    public record Loadout(String weapon, int ammo, List<String> mods, double spread) {
    }

    static final States<Loadout> LOADOUT = States.define("rt-loadout", () -> new Loadout("pistol", 12, List.of(), 0.5), m -> m
            .initial("ready")
            .state("ready", s -> s.on("FIRE", "cooldown"))
            .state("cooldown", s -> s.waitFor(0.3, "ready")));

    public enum Mood { CALM, ANGRY }

    public static final class Inner {
        public String label = "none";
        public long big;
    }

    /** A POJO context with every kind of field a game keeps. */
    public static final class Stats {
        public int hits;
        public double heat;
        public String name;
        public boolean alive = true;
        public Mood mood = Mood.CALM;
        public List<Integer> combo = new ArrayList<>();
        public Map<String, Integer> counts = new TreeMap<>();
        public Inner inner = new Inner();
        public Integer maybe;

        public Stats() {
        }
    }

    static final States<Stats> STATS = States.define("rt-stats", Stats::new, m -> m
            .initial("idle")
            .state("idle", s -> s.on("HIT", t -> t.target("hurt").action((x, e) -> {
                x.hits++;
                x.heat += 0.1;
                x.combo.add(x.hits);
                x.counts.merge("hit", 1, Integer::sum);
            })))
            .state("hurt", s -> s.waitFor(x -> 0.5 + x.heat, "idle")));

    static final Saves SAVES = Saves.of(GUARD, LIFE, ROUTINE, LOADOUT, STATS);

    static void steps(StateWorld w, int n) {
        for (int i = 0; i < n; i++) {
            w.step(DT);
        }
    }

    static void stepsBoth(StateWorld a, StateWorld b, int n) {
        for (int i = 0; i < n; i++) {
            a.step(DT);
            b.step(DT);
        }
    }

    /** Restores {@code text} into a fresh world and checks that its checkpoint is the same text. */
    static StateWorld restoredCopy(String text) {
        StateWorld b = StateWorld.create();
        SAVES.restoreSpawningMissing(b, text);
        assertSameText(text, SAVES.checkpoint(b), "checkpoint of the restored world");
        return b;
    }

    static void assertSameText(String expected, String actual, String what) {
        if (!expected.equals(actual)) {
            fail(what + " differs at " + RandomWorlds.firstDifference(expected, actual) + "\n--- expected:\n" + expected
                    + "\n--- actual:\n" + actual);
        }
    }

    static long bits(double d) {
        return Double.doubleToRawLongBits(d);
    }

    // ------------------------------------------------------------------ hand-made cases

    @Test
    void checkpointRestoreCheckpointIsByteIdenticalForACompoundStateMidWait() {
        try (StateWorld a = StateWorld.create()) {
            Entity g = a.spawn(EntityKey.of("g1"), GUARD.trait());
            steps(a, 100);
            String text = SAVES.checkpoint(a);
            assertTrue(text.contains("\"patrol.watch\""), text);
            try (StateWorld b = restoredCopy(text)) {
                Entity g2 = b.entity("g1");
                assertEquals(Map.of("patrol", "watch"), GUARD.read(g2).value());
                assertEquals(a.time(), b.time());
                assertEquals(a.steps(), b.steps());
                assertTrue(g2.has(GUARD.is("patrol.watch")), "tags are rebuilt from the record");
                assertEquals(1, b.query(GUARD.is("patrol")).count());
                assertEquals(0, b.query(GUARD.is("answer")).count());
                assertEquals(GUARD.read(g).waited(), GUARD.read(g2).waited());
            }
        }
    }

    @Test
    void checkpointRestoreCheckpointIsByteIdenticalForParallelRegions() {
        try (StateWorld a = StateWorld.create()) {
            Entity x = a.spawn(EntityKey.of("x"), LIFE.trait());
            a.add(LIFE); // the world's own machine, key "world"
            steps(a, 130); // tick -> tock at 1.5 s, the tock wait (0.875 s) under way
            LIFE.send(x, "PING");
            LIFE.send(x, "PING");
            LIFE.send(x, "PING");
            a.step(DT); // the when rule moves sense to alarmed
            assertEquals(Map.of("life", Map.of("clock", "tock", "sense", "alarmed")), LIFE.read(x).value());
            String text = SAVES.checkpoint(a);
            try (StateWorld b = restoredCopy(text)) {
                Entity y = b.entity("x");
                assertEquals(LIFE.read(x).value(), LIFE.read(y).value());
                assertEquals(LIFE.read(a).value(), LIFE.read(b).value());
                assertTrue(y.has(LIFE.is("life.clock.tock")));
                assertTrue(y.has(LIFE.is("life.sense.alarmed")));
                assertFalse(y.has(LIFE.is("life.sense.calm")));
                for (int i = 0; i < 400; i++) {
                    if (i == 50) {
                        LIFE.send(x, "OFF");
                        LIFE.send(y, "OFF");
                    }
                    if (i == 90) {
                        LIFE.send(x, "ON");
                        LIFE.send(y, "ON");
                    }
                    if (i % 37 == 0) {
                        LIFE.send(a, "PING");
                        LIFE.send(b, "PING");
                    }
                    a.step(DT);
                    b.step(DT);
                }
                assertSameText(SAVES.checkpoint(a), SAVES.checkpoint(b), "checkpoint after running on");
                assertSameText(SAVES.dump(a), SAVES.dump(b), "dump after running on");
                assertTrue(LIFE.read(y).context().ticks > 3, "the clock region kept counting");
            }
        }
    }

    @Test
    void checkpointRestoreCheckpointIsByteIdenticalWithDeepHistoryRemembered() {
        try (StateWorld a = StateWorld.create()) {
            Entity g = a.spawn(EntityKey.of("g1"), GUARD.trait());
            steps(a, 240 + 180); // watch 4 s, then 3 s into rest
            assertTrue(GUARD.read(g).matches("patrol.rest"));
            GUARD.send(g, "BELL");
            String text = SAVES.checkpoint(a);
            JsonNode tree = parse(text).path("entities").path("g1").path("rt-guard");
            assertEquals("[\"patrol.rest\"]", tree.path("history").path("patrol.resumed").toString(), text);
            assertTrue(tree.path("paused").has("patrol.rest"), text);
            try (StateWorld b = restoredCopy(text)) {
                Entity h = b.entity("g1");
                assertEquals("answer", GUARD.read(h).value());
                assertEquals(bits(GUARD.read(g).paused("patrol.rest")), bits(GUARD.read(h).paused("patrol.rest")));
                GUARD.send(g, "RESUME");
                GUARD.send(h, "RESUME");
                assertEquals(Map.of("patrol", "rest"), GUARD.read(h).value(), "the deep history brings the rest back");
                assertSameText(SAVES.checkpoint(a), SAVES.checkpoint(b), "checkpoint after RESUME");
            }
        }
    }

    @Test
    void checkpointRestoreCheckpointIsByteIdenticalForHeldMachines() {
        try (StateWorld a = StateWorld.create()) {
            Entity p = a.spawn(EntityKey.of("paused"), ROUTINE.trait(), GUARD.trait());
            Entity t = a.spawn(EntityKey.of("talking"), ROUTINE.trait(), GUARD.trait());
            Entity f = a.spawn(EntityKey.of("free"), ROUTINE.trait());
            steps(a, 60);
            p.add(MachinePaused.INSTANCE);
            t.add(new Talking());
            steps(a, 45);
            assertTrue(ROUTINE.read(p).isHeld() && GUARD.read(p).isHeld(), "the marker holds every machine on its entity");
            assertTrue(ROUTINE.read(t).isHeld() && !GUARD.read(t).isHeld(), "heldBy holds that machine alone");
            String text = SAVES.checkpoint(a);
            assertTrue(parse(text).path("entities").path("paused").path("rt-routine").path("heldSince").isNumber(), text);
            try (StateWorld b = restoredCopy(text)) {
                assertTrue(ROUTINE.read(b.entity("paused")).isHeld());
                assertTrue(ROUTINE.read(b.entity("talking")).isHeld());
                assertFalse(ROUTINE.read(b.entity("free")).isHeld());
                assertEquals(bits(ROUTINE.read(p).secondsLeft()), bits(ROUTINE.read(b.entity("paused")).secondsLeft()));
                // holds come from components, which the game puts back on its entities
                b.entity("paused").add(MachinePaused.INSTANCE);
                b.entity("talking").add(new Talking());
                stepsBoth(a, b, 200);
                assertEquals(1.0, ROUTINE.read(b.entity("paused")).secondsLeft(), 1e-9, "a held wait counts no seconds");
                assertEquals(bits(ROUTINE.read(p).secondsLeft()), bits(ROUTINE.read(b.entity("paused")).secondsLeft()));
                assertSameText(SAVES.checkpoint(a), SAVES.checkpoint(b), "checkpoint while held");
                p.removeType(MachinePaused.class);
                b.entity("paused").removeType(MachinePaused.class);
                t.removeType(Talking.class);
                b.entity("talking").removeType(Talking.class);
                stepsBoth(a, b, 30);
                assertFalse(ROUTINE.read(b.entity("paused")).isHeld());
                stepsBoth(a, b, 400);
                assertSameText(SAVES.checkpoint(a), SAVES.checkpoint(b), "checkpoint after release");
                assertSameText(SAVES.dump(a), SAVES.dump(b), "dump after release");
                assertEquals(ROUTINE.read(f).context().laps, ROUTINE.read(b.entity("free")).context().laps);
            }
        }
    }

    @Test
    void restoringMidWaitResumesWithTheExactSecondsLeft() {
        try (StateWorld a = StateWorld.create()) {
            Entity g = a.spawn(EntityKey.of("g1"), GUARD.trait());
            Entity x = a.spawn(EntityKey.of("x"), LIFE.trait());
            steps(a, 137);
            StateRecord<Guard> ga = GUARD.read(g);
            double left = ga.secondsLeft();
            double waited = ga.waited();
            assertTrue(left > 1.7 && left < 1.8, "left " + left);
            String text = SAVES.checkpoint(a);
            try (StateWorld b = restoredCopy(text)) {
                StateRecord<Guard> gb = GUARD.read(b.entity("g1"));
                assertEquals(bits(left), bits(gb.secondsLeft()), "seconds left, bit for bit");
                assertEquals(bits(waited), bits(gb.waited()), "seconds waited, bit for bit");
                assertEquals("patrol.watch", gb.waitingIn());
                assertEquals(bits(LIFE.read(x).secondsLeft()), bits(LIFE.read(b.entity("x")).secondsLeft()));
                // both end the wait on the same step
                int endA = -1;
                int endB = -1;
                for (int i = 1; i <= 200 && (endA < 0 || endB < 0); i++) {
                    a.step(DT);
                    b.step(DT);
                    if (endA < 0 && ga.matches("patrol.rest")) {
                        endA = i;
                    }
                    if (endB < 0 && gb.matches("patrol.rest")) {
                        endB = i;
                    }
                    assertEquals(bits(ga.secondsLeft()), bits(gb.secondsLeft()), "step " + i);
                }
                assertEquals(240 - 137, endA, "the 4 s watch ends on step 240");
                assertEquals(endA, endB);
            }
        }
    }

    @Test
    void historyAndThePausedSecondsItResumesAreKept() {
        try (StateWorld a = StateWorld.create()) {
            Entity g = a.spawn(EntityKey.of("g1"), GUARD.trait());
            steps(a, 180); // three seconds into the watch
            GUARD.send(g, "BELL");
            steps(a, 30);
            String text = SAVES.checkpoint(a);
            try (StateWorld b = restoredCopy(text)) {
                Entity h = b.entity("g1");
                assertEquals(bits(GUARD.read(g).paused("patrol.watch")), bits(GUARD.read(h).paused("patrol.watch")));
                assertEquals(3.0, GUARD.read(h).paused("patrol.watch"), 1e-9);
                stepsBoth(a, b, 17);
                GUARD.send(g, "RESUME");
                GUARD.send(h, "RESUME");
                assertEquals(Map.of("patrol", "watch"), GUARD.read(h).value());
                assertEquals(1.0, GUARD.read(h).secondsLeft(), 1e-9, "the guard resumes the watch with one second left");
                assertEquals(bits(GUARD.read(g).secondsLeft()), bits(GUARD.read(h).secondsLeft()));
                assertEquals(1, GUARD.read(h).context().resumes);
                stepsBoth(a, b, 60);
                assertTrue(GUARD.read(h).matches("patrol.rest"), "the resumed watch ended after its last second");
                assertSameText(SAVES.checkpoint(a), SAVES.checkpoint(b), "checkpoint after the resumed wait");
            }
        }
    }

    @Test
    void aRecordClassContextRoundTrips() {
        Loadout given = new Loadout("rifle", 30, List.of("scope", "grip"), 0.125);
        try (StateWorld a = StateWorld.create()) {
            Entity e = a.spawn(EntityKey.of("w"), LOADOUT.trait(given));
            LOADOUT.send(e, "FIRE");
            a.step(DT);
            String text = SAVES.checkpoint(a);
            assertEquals("{\"ammo\":30,\"mods\":[\"scope\",\"grip\"],\"spread\":0.125,\"weapon\":\"rifle\"}",
                    parse(text).path("entities").path("w").path("rt-loadout").path("context").toString());
            try (StateWorld b = restoredCopy(text)) {
                Loadout back = LOADOUT.read(b.entity("w")).context();
                assertEquals(given, back);
                assertNotSame(given, back, "the restored context is read from the text, not shared");
                assertEquals("cooldown", LOADOUT.read(b.entity("w")).value());
            }
        }
    }

    @Test
    void aPojoContextRoundTrips() {
        try (StateWorld a = StateWorld.create()) {
            Stats s = new Stats();
            s.name = "ogre";
            s.mood = Mood.ANGRY;
            s.inner.label = "boss";
            s.inner.big = 9_000_000_000L;
            s.maybe = null;
            Entity e = a.spawn(EntityKey.of("ogre"), STATS.trait(s));
            STATS.send(e, "HIT");
            steps(a, 40);
            STATS.send(e, "HIT");
            a.step(DT);
            String text = SAVES.checkpoint(a);
            try (StateWorld b = restoredCopy(text)) {
                Stats back = STATS.read(b.entity("ogre")).context();
                assertNotSame(s, back);
                assertEquals(2, back.hits);
                assertEquals(bits(s.heat), bits(back.heat), "a double field, bit for bit");
                assertEquals("ogre", back.name);
                assertTrue(back.alive);
                assertEquals(Mood.ANGRY, back.mood);
                assertEquals(List.of(1, 2), back.combo);
                assertEquals(Map.of("hit", 2), back.counts);
                assertEquals("boss", back.inner.label);
                assertEquals(9_000_000_000L, back.inner.big);
                assertEquals(null, back.maybe);
                assertEquals(bits(STATS.read(e).secondsLeft()), bits(STATS.read(b.entity("ogre")).secondsLeft()));
                stepsBoth(a, b, 80);
                assertSameText(SAVES.checkpoint(a), SAVES.checkpoint(b), "checkpoint after the context-computed wait");
            }
        }
    }

    @Test
    void theCheckpointCarriesItsFormatAndVersion() {
        try (StateWorld a = StateWorld.create()) {
            a.spawn(EntityKey.of("g1"), GUARD.trait());
            steps(a, 7);
            JsonNode root = parse(SAVES.checkpoint(a));
            assertEquals("engine-states/checkpoint", root.path("format").asText());
            assertEquals(Saves.CHECKPOINT_FORMAT, root.path("format").asText());
            assertTrue(root.path("version").isInt());
            assertEquals(1, root.path("version").asInt());
            assertEquals(Saves.CHECKPOINT_VERSION, root.path("version").asInt());
            assertEquals(7, root.path("clock").path("steps").asLong());
            assertEquals(bits(a.time()), bits(root.path("clock").path("time").asDouble()), "the clock, exactly");
        }
    }

    @Test
    void aPlainRestoreReplacesTheRecordsOfTheEntitiesWithTheSameKeysAndMovesTheirTags() {
        try (StateWorld a = StateWorld.create(); StateWorld b = StateWorld.create()) {
            Entity g = a.spawn(EntityKey.of("g1"), GUARD.trait());
            steps(a, 30);
            GUARD.send(g, "BELL");
            String text = SAVES.checkpoint(a);
            Entity other = b.spawn(EntityKey.of("g1"), GUARD.trait());
            steps(b, 500);
            assertTrue(other.has(GUARD.is("patrol.rest")));
            SAVES.restore(b, text);
            assertEquals("answer", GUARD.read(other).value(), "written onto the entity with that key");
            assertEquals(other, b.entity("g1"), "no entity was spawned");
            assertTrue(other.has(GUARD.is("answer")));
            assertFalse(other.has(GUARD.is("patrol")));
            assertFalse(other.has(GUARD.is("patrol.rest")));
            assertEquals(bits(a.time()), bits(b.time()));
            assertEquals(a.steps(), b.steps());
            assertSameText(text, SAVES.checkpoint(b), "checkpoint after a plain restore");
        }
    }

    @Test
    void aPlainRestoreOntoExistingRecordsRearmsTheirWaitsAndWhenRules() {
        try (StateWorld a = StateWorld.create(); StateWorld b = StateWorld.create()) {
            Entity x = a.spawn(EntityKey.of("x"), LIFE.trait());
            steps(a, 100);
            LIFE.send(x, "PING");
            LIFE.send(x, "PING");
            LIFE.send(x, "PING");
            String text = SAVES.checkpoint(a); // the when rule (pings >= 3) will move sense at the next step
            Entity y = b.spawn(EntityKey.of("x"), LIFE.trait());
            LIFE.send(y, "OFF"); // no wait and no when rule counting
            steps(b, 7);
            SAVES.restore(b, text);
            assertEquals(y, b.entity("x"));
            for (int i = 1; i <= 200; i++) {
                a.step(DT);
                b.step(DT);
                assertEquals(LIFE.read(x).value(), LIFE.read(y).value(), "step " + i);
                assertEquals(bits(LIFE.read(x).secondsLeft()), bits(LIFE.read(y).secondsLeft()), "step " + i);
            }
            assertEquals(1, LIFE.read(y).context().alarms, "the when rule moved the restored record");
            assertTrue(LIFE.read(y).context().ticks >= 2, "the restored wait ended and the clock went on");
            assertSameText(SAVES.checkpoint(a), SAVES.checkpoint(b), "checkpoint after running on");
        }
    }

    @Test
    void aMachineTheCheckpointDoesNotNameIsLeftAsItIsWaitIncluded() {
        // Saves: "machines the checkpoint does not name are left as they are"
        try (StateWorld a = StateWorld.create(); StateWorld b = StateWorld.create()) {
            a.spawn(EntityKey.of("g1"), GUARD.trait());
            steps(a, 30); // the checkpoint's clock: 0.5 s
            String text = SAVES.checkpoint(a);
            b.spawn(EntityKey.of("g1"), GUARD.trait());
            Entity untouched = b.spawn(EntityKey.of("g2"), GUARD.trait());
            steps(b, 500); // 8.33 s: 4.33 s into the 10 s rest
            StateRecord<Guard> r = GUARD.read(untouched);
            double waited = r.waited();
            double left = r.secondsLeft();
            assertEquals(4.3333, waited, 1e-3);
            SAVES.restore(b, text);
            assertEquals(Map.of("patrol", "rest"), r.value());
            assertEquals(waited, r.waited(), 1e-9, "seconds waited of a machine the checkpoint does not name");
            assertEquals(left, r.secondsLeft(), 1e-9, "seconds left of a machine the checkpoint does not name");
        }
    }

    // ------------------------------------------------------------------ the property

    /**
     * The property over machines without tags (tags are Dominion compositions, which cost
     * memory per world; {@link #randomWorldsWithTagsRoundTripAndRebuildTheSameTags} covers them).
     */
    @Test
    void randomWorldsCheckpointedAtARandomInputAndRestoredIntoAFreshWorldEndByteIdentical() {
        int runs = Integer.getInteger("property.runs", DEFAULT_RUNS);
        property(runs, new RandomWorlds.Options().tagsOneIn(Integer.MAX_VALUE), 0x5EED_0000L, true);
    }

    /** The same property where every machine has tags: the restored world rebuilds them, and the dumps show the same ones. */
    @Test
    void randomWorldsWithTagsRoundTripAndRebuildTheSameTags() {
        int runs = Math.max(1, Integer.getInteger("property.runs", DEFAULT_RUNS) / 20);
        property(runs, new RandomWorlds.Options().tagsOneIn(1), 0x7A65_0000L, true);
    }

    /** The property as it should hold: no run skipped, and one machine may have both waits and when rules. */
    @Test
    void randomWorldsRoundTripWithoutExceptions() {
        int runs = Integer.getInteger("property.runs", DEFAULT_RUNS);
        property(runs, new RandomWorlds.Options().whensBesideWaits(true).tagsOneIn(Integer.MAX_VALUE), 0x5EED_0000L, false);
    }

    /**
     * A refusal of a world's own checkpoint that is only one of the known bugs: negative paused
     * seconds of at most one step (see the two disabled tests on them), or a state listed before
     * its parent, which XState's own algorithm leaves after a transition to a history state that
     * remembers the transition's own source (see
     * aWorldsOwnCheckpointRestoresAfterXStatesHistoryEdgeCase).
     */
    static boolean onlyKnownBugs(CheckpointException e) {
        java.util.regex.Pattern negative = java.util.regex.Pattern
                .compile("^\\$\\.entities\\.[^:]+\\.paused\\.[^:]+: expected seconds, 0 or more, found (-\\S+)$");
        java.util.regex.Pattern orphan = java.util.regex.Pattern
                .compile("^\\$\\.entities\\.[^:]+\\.active\\[\\d+\\]: '[^']+' comes before its parent '[^']+' is active; expected parents first.*$");
        for (String p : e.problems()) {
            java.util.regex.Matcher m = negative.matcher(p);
            boolean known = (m.matches() && Double.parseDouble(m.group(1)) >= -DT - 1e-9) || orphan.matcher(p).matches();
            if (!known) {
                return false;
            }
        }
        return !e.problems().isEmpty();
    }

    static void property(int runs, RandomWorlds.Options options, long seeds, boolean skipKnownBug) {
        long started = System.nanoTime();
        int restoredMidWait = 0;
        int restoredHeld = 0;
        int restoredWithHistory = 0;
        int restoredWithPaused = 0;
        int dumpsWithTags = 0;
        int skipped = 0;
        long inputs = 0;
        for (int run = 1; run <= runs; run++) {
            long seed = seeds + run;
            RandomWorlds.Spec spec = RandomWorlds.generate(seed, options);
            Saves saves = spec.saves();
            int cut = new SplittableRandom(seed * 31 + 7).nextInt(spec.inputs.size() + 1);
            inputs += spec.inputs.size();
            try (StateWorld a = spec.newWorld(); StateWorld b = spec.freshWorld()) {
                spec.apply(a, 0, cut);
                String text = saves.checkpoint(a);
                JsonNode tree = parse(text);
                restoredMidWait += text.contains("\"start\"") ? 1 : 0;
                restoredHeld += tree.findValues("heldSince").stream().anyMatch(JsonNode::isNumber) ? 1 : 0;
                restoredWithHistory += tree.findValues("history").stream().anyMatch(h -> h.size() > 0) ? 1 : 0;
                restoredWithPaused += tree.findValues("paused").stream().anyMatch(h -> h.size() > 0) ? 1 : 0;
                // as a game does: the entities it has carry their holds before the restore
                RandomWorlds.copyMarks(a, b);
                try {
                    saves.restoreSpawningMissing(b, text);
                } catch (CheckpointException e) {
                    if (skipKnownBug && onlyKnownBugs(e)) {
                        skipped++;
                        continue;
                    }
                    fail(spec + ", cut at input " + cut + ": its own checkpoint was refused: " + e.getMessage() + "\n" + text, e);
                }
                String again = saves.checkpoint(b);
                if (!text.equals(again)) {
                    fail(spec + ", cut at input " + cut + ": checkpoint -> restore -> checkpoint differs at "
                            + RandomWorlds.firstDifference(text, again));
                }
                String exact = RandomWorlds.recordDifference(a, b);
                if (exact != null) {
                    fail(spec + ", cut at input " + cut + ": the restored records are not the saved ones, bit for bit: " + exact);
                }
                RandomWorlds.copyMarks(a, b);
                for (int i = cut; i < spec.inputs.size(); i++) {
                    spec.apply(a, i, i + 1);
                    spec.apply(b, i, i + 1);
                    String d = RandomWorlds.recordDifference(a, b);
                    if (d != null) {
                        fail(spec + ", cut at input " + cut + ": after input " + i + " " + spec.inputs.get(i)
                                + " the worlds differ: " + d + "\ninputs after the cut: "
                                + spec.inputs.subList(cut, Math.min(spec.inputs.size(), i + 1)));
                    }
                }
                String endA = saves.checkpoint(a);
                String endB = saves.checkpoint(b);
                if (!endA.equals(endB)) {
                    fail(spec + ", cut at input " + cut + " of " + spec.inputs.size() + ": final checkpoints differ at "
                            + RandomWorlds.firstDifference(endA, endB) + "\ninputs after the cut: "
                            + spec.inputs.subList(cut, Math.min(spec.inputs.size(), cut + 40)));
                }
                String dumpA = saves.dump(a);
                String dumpB = saves.dump(b);
                if (!dumpA.equals(dumpB)) {
                    fail(spec + ", cut at input " + cut + ": final dumps differ at " + RandomWorlds.firstDifference(dumpA, dumpB));
                }
                dumpsWithTags += parse(dumpA).findValues("tags").stream().anyMatch(t -> t.size() > 0) ? 1 : 0;
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        dev.enginestates.Figures.printf("checkpoint round trip: %d random worlds, %d inputs, in %.1f s; restored mid-wait %d, held %d, "
                + "with history %d, with paused seconds %d; dumps with tags %d; machine sets drawn again for Dominion's class"
                + " index %d; skipped for known bugs %d%n", runs, inputs, seconds, restoredMidWait,
                restoredHeld, restoredWithHistory, restoredWithPaused, dumpsWithTags, RandomWorlds.REDRAWN.get(), skipped);
        assertTrue(skipped < runs / 4, "runs skipped for the known bug: " + skipped + " of " + runs);
        // the generator must reach the cases the property is about
        assertTrue(restoredMidWait > runs / 4, "mid-wait restores: " + restoredMidWait);
        assertTrue(restoredHeld > runs / 20, "held restores: " + restoredHeld);
        assertTrue(restoredWithHistory > runs / 20, "restores with history: " + restoredWithHistory);
        assertTrue(restoredWithPaused > runs / 20, "restores with paused seconds: " + restoredWithPaused);
        if (options.tagsOneIn == 1) {
            assertEquals(runs - skipped, dumpsWithTags, "every machine has tags, so every dump shows some");
        } else if (options.tagsOneIn == Integer.MAX_VALUE) {
            assertEquals(0, dumpsWithTags, "no machine has tags");
        }
    }

    static final States<Chain> DRIFT = States.define("rt-drift", Chain::new, m -> m
            .initial("a")
            .state("a", s -> s.waitFor(0.1, "b"))
            .state("b", s -> s.waitFor(5, "a").on("GO", "c"))
            .state("c"));

    @Test
    void aStateLeftRightAfterItsWaitBeganAHairAfterTheClockKeepsNoNegativePausedSeconds() {
        Saves saves = Saves.of(DRIFT);
        try (StateWorld a = StateWorld.create(); StateWorld b = StateWorld.create()) {
            Entity e = a.spawn(EntityKey.of("x"), DRIFT.trait());
            steps(a, 6);
            assertEquals("b", DRIFT.read(e).value());
            assertTrue(DRIFT.read(e).waited() >= 0, "seconds waited: " + DRIFT.read(e).waited());
            DRIFT.send(e, "GO");
            double paused = DRIFT.read(e).paused("b");
            assertTrue(paused >= 0, "paused seconds of b: " + paused);
            saves.restoreSpawningMissing(b, saves.checkpoint(a));
            assertSameText(saves.checkpoint(a), saves.checkpoint(b), "checkpoint of the restored world");
        }
    }

    public static final class Nothing {
    }

    /** The smallest machine found (from random seed 1592592148) whose run reaches XState's orphan configuration. */
    static final States<Nothing> ORPHAN = States.define("rt-orphan", Nothing::new, m -> m
            .initial("p")
            .state("p", p -> p.id("p").parallel()
                    .state("R", r -> r.initial("x")
                            .state("x", s -> s.on("E", "#rh"))
                            .state("y")
                            .history("h", h -> h.id("rh").defaultTarget("y")))
                    .state("Q", q -> q.initial("z").state("z", s -> s.on("E", "#out")))
                    .on("RESET", t -> t.target("#p").reenter()))
            .state("out", s -> s.id("out")));

    @Test
    void aWorldsOwnCheckpointRestoresAfterXStatesHistoryEdgeCase() {
        Saves saves = Saves.of(ORPHAN);
        try (StateWorld a = StateWorld.create(); StateWorld b = StateWorld.create()) {
            Entity e = a.spawn(EntityKey.of("x"), ORPHAN.trait());
            ORPHAN.send(e, "RESET");
            ORPHAN.send(e, "E");
            assertEquals("out", ORPHAN.read(e).value());
            String text = saves.checkpoint(a);
            saves.restoreSpawningMissing(b, text);
            assertSameText(text, saves.checkpoint(b), "checkpoint of the restored world");
        }
    }

    /** Dominion 0.9.0 took a static slot per world and threw at the 1,024th (patch 0004). */
    @Test
    void aProcessCanRestoreIntoMoreThanAThousandFreshWorlds() {
        try (StateWorld a = StateWorld.create()) {
            a.spawn(EntityKey.of("g1"), GUARD.trait());
            String text = SAVES.checkpoint(a);
            for (int i = 0; i < 1100; i++) {
                try (StateWorld b = StateWorld.create()) {
                    SAVES.restoreSpawningMissing(b, text);
                } catch (RuntimeException e) {
                    fail("fresh world " + (i + 1) + " of 1,100: " + e, e);
                }
            }
        }
    }

    public static final class Chain {
        public int n;
    }

    static final States<Chain> CHAIN = States.define("rt-chain", Chain::new, m -> m
            .initial("a")
            .state("a", s -> s.waitFor(0.5, "b"))
            .state("b", s -> s.waitFor(5, "c").when(c -> true, "c"))
            .state("c"));

    @Test
    void aWhenRuleThatLeavesAStateInTheStepItsWaitBeganKeepsNoNegativePausedSeconds() {
        // a: 0.5 s wait -> b (its wait starts at 0.5 s, the due time); in the same step b's when rule moves to c
        Saves saves = Saves.of(CHAIN);
        try (StateWorld a = StateWorld.create(); StateWorld b = StateWorld.create()) {
            Entity e = a.spawn(EntityKey.of("x"), CHAIN.trait());
            steps(a, 30);
            assertEquals("c", CHAIN.read(e).value());
            double paused = CHAIN.read(e).paused("b");
            assertTrue(Double.isNaN(paused) || paused >= 0, "paused seconds of b: " + paused);
            saves.restoreSpawningMissing(b, saves.checkpoint(a));
            assertSameText(saves.checkpoint(a), saves.checkpoint(b), "checkpoint of the restored world");
        }
    }

    static final ObjectMapper JSON = new ObjectMapper();

    static JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    @Test
    void aMachineTheCheckpointDoesNotNameKeepsItsPendingSendsDueIn() {
        // as its wait keeps its seconds left when the restore moves the clock, so does a send to itself
        try (StateWorld other = StateWorld.create(); StateWorld w = StateWorld.create()) {
            other.spawn(EntityKey.of("b"), SendingGuard.M.trait());
            String atZero = SendingGuard.SAVES.checkpoint(other); // clock 0, names "b" only
            Entity a = w.spawn(EntityKey.of("a"), SendingGuard.M.trait());
            w.spawn(EntityKey.of("b"), SendingGuard.M.trait());
            steps(w, 600); // 10 s
            SendingGuard.M.send(a, "BELL");
            SendingGuard.M.send(a, "ARM"); // RESUME due 0.5 s from now
            SendingGuard.SAVES.restore(w, atZero);
            steps(w, 29);
            assertTrue(SendingGuard.M.read(a).matches("answer"), "not due yet");
            steps(w, 2);
            assertTrue(SendingGuard.M.read(a).matches("patrol"), "due 0.5 s after the send, on the new clock: "
                    + SendingGuard.SAVES.checkpoint(w));
        }
    }
}

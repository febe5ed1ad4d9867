package dev.enginestates.ecs;

import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.dominion.ecs.api.Results;
import dev.enginestates.io.Saves;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Dominion 0.9.0's data-losing bugs, reached through the engine: every world runs the patched,
 * relocated engine (engine-states-dominion), even with the official engine jar on the class path
 * (it is, for these tests: see this module's POM). Each case here failed on upstream 0.9.0.
 */
class PatchedDominionTest {
    static final class Unit {
    }

    static final String[] CYCLE = {"a", "b", "c"};

    static final States<Unit> CYCLER = States.define("cycler", Unit::new, m -> m
            .initial("a")
            .state("a", s -> s.on("N", "b"))
            .state("b", s -> s.on("N", "c"))
            .state("c", s -> s.on("N", "a")));

    /** A live entity of the model: the state it must be found in, and the last check that visited it. */
    private static final class Expected {
        int state;
        int seen = -1;

        Expected(int state) {
            this.state = state;
        }
    }

    @Test
    void tagQueriesMatchAModelAfterEveryStepThroughAMillionSpawnsDespawnsAndMoves() {
        SplittableRandom random = new SplittableRandom(90_009);
        try (StateWorld world = StateWorld.create("million")) {
            List<Entity> live = new ArrayList<>();
            Map<Entity, Expected> model = new IdentityHashMap<>();
            int ops = 0;
            int step = 0;
            while (ops < 1_000_000) {
                for (int i = 0; i < 2_000; i++, ops++) {
                    int dice = live.size() < 100_000 && (live.size() < 60_000 || random.nextInt(3) == 0) ? 0 : 1 + random.nextInt(2);
                    if (dice == 0) { // spawn in a random state
                        int state = random.nextInt(3);
                        Entity e = world.spawn(CYCLER.trait().setState(CYCLE[state]));
                        live.add(e);
                        model.put(e, new Expected(state));
                    } else if (dice == 1) { // despawn a random one
                        int at = random.nextInt(live.size());
                        Entity e = live.get(at);
                        live.set(at, live.get(live.size() - 1));
                        live.remove(live.size() - 1);
                        model.remove(e);
                        assertTrue(world.despawn(e));
                    } else { // move one: its tag changes composition
                        Entity e = live.get(random.nextInt(live.size()));
                        assertTrue(CYCLER.send(e, "N"));
                        Expected x = model.get(e);
                        x.state = (x.state + 1) % 3;
                    }
                }
                // waves empty whole compositions, so freed ids are reused out of order and chunks
                // empty out in the middle: all of one state move on, or all of one state despawn
                int roll = random.nextInt(20);
                if (roll < 2) {
                    int state = random.nextInt(3);
                    for (Entity e : world.query(CYCLER.is(CYCLE[state])).list()) {
                        Expected x = model.get(e);
                        if (roll == 0) {
                            CYCLER.send(e, "N");
                            x.state = (x.state + 1) % 3;
                        } else if (random.nextInt(4) != 0) {
                            world.despawn(e);
                            model.remove(e);
                        }
                        ops++;
                    }
                    live.removeIf(e -> !model.containsKey(e));
                }
                world.step(1.0 / 60);
                step++;
                checkQueries(world, model, step);
            }
            assertTrue(step >= 250, "steps checked: " + step);
        }
    }

    private static void checkQueries(StateWorld world, Map<Entity, Expected> model, int step) {
        int[] expected = new int[3];
        for (Expected x : model.values()) {
            expected[x.state]++;
        }
        for (int s = 0; s < 3; s++) {
            int found = 0;
            for (Entity e : world.query(CYCLER.is(CYCLE[s]))) {
                Expected x = model.get(e);
                if (x == null || x.state != s || x.seen == step * 3 + s) {
                    fail("step " + step + ": query for '" + CYCLE[s] + "' found " + e + ", which the model has "
                            + (x == null ? "despawned" : x.seen == step * 3 + s ? "already seen in this query" : "in '" + CYCLE[x.state] + "'"));
                }
                x.seen = step * 3 + s;
                found++;
            }
            assertEquals(expected[s], found, "step " + step + ": entities found in '" + CYCLE[s] + "'");
        }
    }

    @Test
    void tenThousandWorldsAreCreatedAndClosedInOneJvm() {
        for (int i = 0; i < 10_000; i++) {
            try (StateWorld world = StateWorld.create("room-" + i)) {
                Entity e = world.spawn(EntityKey.of("u"), CYCLER.trait());
                CYCLER.send(e, "N");
                world.step(1.0 / 60);
                assertEquals(1, world.query(CYCLER.is("b")).count(), "world " + i);
            }
        }
    }

    @Test
    void aWorldMeetsTenThousandComponentClasses() {
        // 20 machines of 500 states: 10,000 tag classes and 20 record classes in one world
        List<States<Unit>> machines = new ArrayList<>();
        for (int m = 0; m < 20; m++) {
            machines.add(States.define("wide-" + m, Unit::new, b -> {
                b.initial("s0");
                for (int s = 0; s < 500; s++) {
                    b.state("s" + s, st -> st.on("N", "s0"));
                }
            }));
        }
        try (StateWorld world = StateWorld.create("wide")) {
            Map<Class<?>, Entity> byTag = new IdentityHashMap<>();
            for (States<Unit> m : machines) {
                for (int s = 0; s < 500; s++) {
                    byTag.put(m.is("s" + s), world.spawn(m.trait().setState("s" + s)));
                }
            }
            assertEquals(10_000, byTag.size());
            for (Map.Entry<Class<?>, Entity> t : byTag.entrySet()) {
                assertEquals(List.of(t.getValue()), world.query(t.getKey()).list(), t.getKey().getName());
            }
            // move every entity back to s0: 9,980 tag moves, each into another composition
            for (States<Unit> m : machines) {
                for (Entity e : world.query(m.recordType()).list()) {
                    m.send(e, "N");
                }
                world.step(1.0 / 60);
                assertEquals(500, world.query(m.is("s0")).count(), m.id());
                assertEquals(0, world.query(m.is("s499")).count(), m.id());
            }
        }
    }

    static final States<Unit> A = States.define("order-a", Unit::new, m -> m.initial("x").state("x").state("y"));
    static final States<Unit> B = States.define("order-b", Unit::new, m -> m.initial("x").state("x").state("y"));
    static final States<Unit> C = States.define("order-c", Unit::new, m -> m.initial("x").state("x").state("y"));

    @Test
    void aSpawnInAnotherOrderThanAnAttachedEntitysKeepsEachRecordUnderItsMachine() {
        try (StateWorld world = StateWorld.create("order")) {
            Entity x = world.spawn(EntityKey.of("x"), A.trait());
            world.attach(x, B.trait());
            world.attach(x, C.trait()); // the composition (A, B, C with their tags) exists in this order
            Entity y = world.spawn(EntityKey.of("y"), C.trait(), B.trait(), A.trait());
            assertSame(A.recordType(), y.get(A.recordType()).getClass(), "upstream 0.9.0 put B's tag here");
            assertSame(B.recordType(), y.get(B.recordType()).getClass());
            assertSame(C.recordType(), y.get(C.recordType()).getClass());
            assertEquals("x", A.read(y).value());
            String text = Saves.of(A, B, C).checkpoint(world); // upstream: ClassCastException
            assertTrue(text.contains("\"y\""), text);
        }
    }

    record Crate(int id) {
    }

    record Lid(int id) {
    }

    @Test
    void aGamesOwnQueryOnTheWorldsDominionFindsEntitiesPastAnEmptiedChunk() {
        try (StateWorld world = StateWorld.create("own-queries")) {
            Dominion d = world.dominion();
            List<Entity> made = new ArrayList<>();
            for (int i = 0; i < 3 * 4096 + 1; i++) {
                made.add(d.createEntity(new Crate(i), new Lid(i)));
            }
            made.forEach(d::deleteEntity);
            Entity survivor = d.createEntity(new Crate(-1), new Lid(-1));
            List<Entity> found = new ArrayList<>();
            for (Results.With1<Crate> r : d.findEntitiesWith(Crate.class)) {
                found.add(r.entity());
            }
            assertEquals(List.of(survivor), found, "upstream 0.9.0 finds none");
        }
    }

    @BeforeAll
    static void officialEngineQuiet() {
        // the official engine prints a banner for every Dominion unless told not to
        System.setProperty("dominion.show-banner", "false");
    }

    /** The official engine's own factory, which Dominion.create() no longer returns here: reached by name. */
    private static Dominion officialDominion(String name) {
        try {
            Class<?> factory = Class.forName("dev.dominion.ecs.engine.EntityRepository$Factory");
            return ((Dominion.Factory) factory.getDeclaredConstructor().newInstance()).create(name);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("the official engine jar is on this module's test class path", e);
        }
    }

    @Test
    void worldsRunThePatchedEngineWhileTheOfficialJarIsOnTheClassPath() {
        Dominion official = officialDominion("official");
        assertEquals("dev.dominion.ecs.engine", official.getClass().getPackageName(),
                "the official engine jar is on this module's test class path");
        try (StateWorld world = StateWorld.create("patched")) {
            assertEquals("dev.enginestates.dominion", world.dominion().getClass().getPackageName());
        } finally {
            official.close();
        }
    }

    @Test
    void dominionCreateGivesThePatchedEngineAndAWorldRunsOverIt() {
        Dominion own = Dominion.create("game-made"); // the official jar is on this class path too
        assertEquals("dev.enginestates.dominion", own.getClass().getPackageName());
        try (StateWorld world = StateWorld.over(own)) { // closing the world closes its Dominion
            Entity e = world.spawn(CYCLER.trait());
            assertEquals("dev.enginestates.dominion", e.getClass().getPackageName());
            CYCLER.send(e, "N");
            world.step(0.1);
            assertEquals("b", CYCLER.read(e).state());
            assertEquals(1, world.query(CYCLER.is("b")).count());
        }
    }

    @Test
    void aWorldOverTheOfficialEngineIsRefusedWithAReason() {
        Dominion official = officialDominion("official-over");
        try {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StateWorld.over(official));
            assertTrue(e.getMessage().contains("not one of engine-states' patched engine"), e.getMessage());
            assertTrue(e.getMessage().contains("dominion-ecs-engine"), e.getMessage());
            assertTrue(e.getMessage().contains("StateWorld.create"), e.getMessage());
            assertEquals(0, count(official.findAllEntities()), "the refused Dominion is left untouched");
        } finally {
            official.close();
        }
        try (StateWorld first = StateWorld.create("first")) {
            StateWorld second = StateWorld.over(first.dominion());
            assertSame(first.dominion(), second.dominion(), "another world's Dominion is accepted");
        }
    }

    private static int count(Results<?> results) {
        int n = 0;
        for (Object ignored : results) {
            n++;
        }
        return n;
    }
}

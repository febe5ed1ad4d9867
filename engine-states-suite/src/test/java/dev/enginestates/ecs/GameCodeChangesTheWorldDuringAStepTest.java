package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * DESIGN.md: "Game code may spawn, despawn, attach, detach and hold during a step, its own
 * entity included" — with each machine stepped once per step and the tags matching the records
 * after every step. The {@code 003} document: a {@code when} test takes the entity and the world,
 * and a machine's move writes its tags with its record.
 */
class GameCodeChangesTheWorldDuringAStepTest {
    static final double DT = 1.0 / 60;

    public static final class Enemy {
        public StateWorld world;
        public Entity self;
        public int hits;
    }

    static final States<Enemy> ENEMY = States.define("churn-enemy", Enemy::new, m -> m
            .initial("alive")
            .state("alive", s -> s.on("HIT", t -> t.target("dying").action((c, e) -> c.hits++)))
            .state("dying", s -> s.waitFor(0.1, t -> t.target("dead").action((c, e) -> c.world.despawn(c.self))))
            .state("dead"));

    @Test
    void anEnemyThatDespawnsItselfFromItsOwnActionLeavesTheWorldWorking() {
        try (StateWorld world = StateWorld.create()) {
            List<Entity> enemies = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                Enemy ctx = new Enemy();
                ctx.world = world;
                Entity e = world.spawn(EntityKey.of("e" + i), ENEMY.trait(ctx));
                ctx.self = e;
                enemies.add(e);
            }
            for (int i = 0; i < 100; i += 2) {
                ENEMY.send(enemies.get(i), "HIT");
            }
            for (int i = 0; i < 12; i++) {
                world.step(DT);
            }
            for (int i = 0; i < 100; i++) {
                assertEquals(i % 2 == 0, enemies.get(i).isDeleted(), "enemy " + i);
            }
            assertEquals(0, world.query(ENEMY.is("dying")).count(), "no orphan tag");
            assertEquals(0, world.query(ENEMY.is("dead")).count());
            assertEquals(50, world.query(ENEMY.is("alive")).count());
            assertEquals(50, world.records(ENEMY).size());
            assertEquals(null, world.entity("e0"));
            for (int i = 0; i < 100; i++) {
                world.step(DT); // every later step works
            }
            ENEMY.send(enemies.get(1), "HIT");
            for (int i = 0; i < 12; i++) {
                world.step(DT);
            }
            assertTrue(enemies.get(1).isDeleted());
        }
    }

    public static final class Quitter {
        public StateWorld world;
        public Entity self;
    }

    static final States<Quitter> QUITTER = States.define("churn-quitter", Quitter::new, m -> m
            .initial("a")
            .state("a", s -> s.waitFor(DT, t -> t.target("b").action((c, e) -> c.world.detach(c.self, quitter()))))
            .state("b"));

    static States<Quitter> quitter() {
        return QUITTER;
    }

    @Test
    void aMachineThatDetachesItselfFromItsOwnActionLeavesNoTag() {
        try (StateWorld world = StateWorld.create()) {
            Quitter ctx = new Quitter();
            ctx.world = world;
            Entity e = world.spawn(QUITTER.trait(ctx));
            ctx.self = e;
            world.step(DT);
            world.step(DT);
            assertFalse(e.isDeleted());
            assertFalse(e.has(QUITTER.recordType()));
            assertFalse(e.has(QUITTER.is("a")));
            assertFalse(e.has(QUITTER.is("b")));
            assertEquals(0, world.records(QUITTER).size());
        }
    }

    public static final class Watcher {
        public Entity seenEntity;
        public StateWorld seenWorld;
    }

    static final States<Watcher> FIRST = States.define("churn-first", Watcher::new, m -> m
            .initial("a")
            .state("a", s -> s.waitFor(DT, "b"))
            .state("b"));

    /** Declared after FIRST: its test reads FIRST's tags, written in the same step. */
    static final States<Watcher> SECOND = States.define("churn-second", Watcher::new, m -> m
            .initial("waiting")
            .state("waiting", s -> s.when(EntityCondition.of((ctx, entity, world) -> {
                ctx.seenEntity = entity;
                ctx.seenWorld = world;
                return world.query(FIRST.is("b")).count() > 0;
            }), "seen"))
            .state("seen"));

    @Test
    void aWhenTestTakesItsEntityAndTheWorldAndSeesTagsMovedEarlierInTheStep() {
        try (StateWorld world = StateWorld.create()) {
            world.spawn(FIRST.trait());
            Entity second = world.spawn(SECOND.trait());
            world.step(DT);
            StateRecord<Watcher> r = SECOND.read(second);
            assertSame(second, r.context().seenEntity);
            assertSame(world, r.context().seenWorld);
            assertTrue(r.matches("seen"), "003: a machine's move writes its tags with its record, so the later machine sees "
                    + "FIRST in 'b' in the same step: " + r);
        }
    }

    // ------------------------------------------------------------------ random churn from game code

    public static final class Churn {
        public StateWorld world;
        public Entity self;
    }

    public static final class Victim {
        public long lastStep = -1;
        public int testsInStep;
    }

    private static SplittableRandom random;
    private static final List<Entity> LIVE = new ArrayList<>();
    private static final List<String> PROBLEMS = new ArrayList<>();

    /** Tested every step: counts how often each victim is tested in one step. */
    static final States<Victim> VICTIM = States.define("churn-victim", Victim::new, m -> m
            .initial("w")
            .state("w", s -> s.when(EntityCondition.of((ctx, entity, world) -> {
                long step = world.steps();
                if (ctx.lastStep == step) {
                    ctx.testsInStep++;
                    PROBLEMS.add("step " + step + ": " + entity + " tested twice in one step");
                } else {
                    ctx.lastStep = step;
                    ctx.testsInStep = 1;
                }
                return false;
            }), "never"))
            .state("never"));

    /** Declared before VICTIM, so a step runs every churner before any victim. */
    static final States<Churn> CHURNER = States.define("churn-churner", Churn::new, m -> m
            .initial("calm")
            .state("calm", s -> s.waitFor(c -> 0.02 + random.nextInt(5) * DT, t -> t.target("busy").action((c, e) -> churn(c.world, c.self))))
            .state("busy", s -> s.when(EntityCondition.of((ctx, entity, world) -> {
                churn(world, entity);
                return random.nextInt(3) == 0;
            }), "calm")));

    /** One random change of the world, as a game's code might make it. */
    static void churn(StateWorld world, Entity self) {
        int dice = random.nextInt(10);
        if (LIVE.isEmpty() || dice == 0) {
            spawnSome(world);
        } else if (dice == 1) {
            if (!self.isDeleted()) { // the churner despawns its own entity
                world.despawn(self);
            }
        } else {
            Entity e = LIVE.get(random.nextInt(LIVE.size()));
            if (e.isDeleted()) {
                return;
            }
            switch (dice) {
                case 2, 3 -> world.despawn(e);
                case 4 -> world.detach(e, VICTIM);
                case 5 -> {
                    if (!e.has(VICTIM.recordType())) {
                        world.attach(e, VICTIM.trait());
                    }
                }
                case 6 -> {
                    if (!e.has(MachinePaused.class)) {
                        e.add(MachinePaused.INSTANCE);
                    }
                }
                case 7 -> e.removeType(MachinePaused.class);
                default -> world.detach(e, CHURNER);
            }
        }
    }

    static void spawnSome(StateWorld world) {
        for (int i = 0; i < 3; i++) {
            Churn c = new Churn();
            c.world = world;
            Entity e = switch (random.nextInt(3)) {
                case 0 -> world.spawn(VICTIM.trait());
                case 1 -> world.spawn(CHURNER.trait(c));
                default -> world.spawn(CHURNER.trait(c), VICTIM.trait());
            };
            c.self = e;
            LIVE.add(e);
        }
    }

    @Test
    void randomChurnFromGameCodeKeepsEveryMachineSteppedOnceAndEveryTagOnItsRecord() {
        random = new SplittableRandom(10_010);
        LIVE.clear();
        PROBLEMS.clear();
        try (StateWorld world = StateWorld.create("churn")) {
            for (int i = 0; i < 300; i++) {
                spawnSome(world);
            }
            int checkedOnce = 0;
            int joined = 0;
            for (int step = 0; step < 1_500; step++) {
                // who must be tested exactly once in this step: live, unheld victims already in the world
                Map<StateRecord<Victim>, Boolean> before = new IdentityHashMap<>();
                for (StateRecord<Victim> r : world.records(VICTIM)) {
                    before.put(r, r.entity().has(MachinePaused.class));
                }
                world.step(DT);
                LIVE.removeIf(Entity::isDeleted);
                if (!PROBLEMS.isEmpty()) {
                    fail(PROBLEMS.get(0));
                }
                for (StateRecord<Victim> r : world.records(VICTIM)) {
                    Boolean held = before.get(r);
                    if (held == null) { // joined during the step: stepped from the next one
                        assertTrue(r.context().lastStep != world.steps(), "step " + world.steps() + ": a victim that joined in it was tested");
                        joined++;
                        continue;
                    }
                    boolean tested = r.context().lastStep == world.steps();
                    if (held) {
                        assertFalse(tested, "step " + world.steps() + ": a held victim's when test ran");
                    } else {
                        assertTrue(tested, "step " + world.steps() + ": a live, unheld victim was not tested: " + r.entity());
                        checkedOnce++;
                    }
                }
                checkTags(world, CHURNER, "calm", "busy");
                checkTags(world, VICTIM, "w", "never");
                if (LIVE.size() < 50) {
                    for (int i = 0; i < 30; i++) {
                        spawnSome(world);
                    }
                }
            }
            assertTrue(checkedOnce > 100_000, "victims checked as tested exactly once: " + checkedOnce);
            assertTrue(joined > 1_000, "victims that joined during a step: " + joined);
        }
    }

    /** Every live record's entity has exactly the tags of its active states, and each tag query counts the records in it. */
    private static void checkTags(StateWorld world, States<?> machine, String... states) {
        int[] expected = new int[states.length];
        for (StateRecord<?> r : world.records(machine)) {
            for (int s = 0; s < states.length; s++) {
                boolean in = r.matches(states[s]);
                assertEquals(in, r.entity().has(machine.is(states[s])), "step " + world.steps() + ": " + r + " tag " + states[s]);
                if (in) {
                    expected[s]++;
                }
            }
        }
        for (int s = 0; s < states.length; s++) {
            assertEquals(expected[s], world.query(machine.is(states[s])).count(), "step " + world.steps() + ": entities in "
                    + machine.id() + "." + states[s]);
        }
    }

    public static final class Fuse {
        public Entity next;
    }

    static final States<Fuse> FUSE = States.define("nested-fuse", Fuse::new, m -> m
            .initial("idle")
            .state("idle", s -> s.on("LIGHT", "lit"))
            .state("lit", s -> s.entry((c, e, self) -> {
                if (c.next != null) {
                    self.send(c.next, "LIGHT");
                }
            })));

    /**
     * A game's action may send to another machine, which processes it at once (README, "When a
     * game's code throws"); a chain of such sends is refused past 64 moves inside one another, as
     * the failure of the code that sent. Found by an attack: a row of 3,000 fuses, each lighting
     * the next from its entry action, overflowed the stack near 665, left fuses lit whose tags said
     * idle, and threw a message of 163,000 characters (each level's inside the next).
     */
    @Test
    void aChainOfSendsFromActionsStopsAt64NestedMovesWithTagsOnEveryRecordAndAOneLineMessage() {
        try (StateWorld world = StateWorld.create()) {
            List<Entity> fuses = new ArrayList<>();
            for (int i = 0; i < 3000; i++) {
                Entity e = world.spawn(EntityKey.of("fuse" + i), FUSE.trait());
                if (i > 0) {
                    FUSE.read(fuses.get(i - 1)).context().next = e;
                }
                fuses.add(e);
            }
            dev.enginestates.declare.UserCodeException x = assertThrows(dev.enginestates.declare.UserCodeException.class,
                    () -> FUSE.send(fuses.get(0), "LIGHT"));
            assertTrue(x.getMessage().contains("nested 64 deep") && x.getMessage().length() < 1500, x.getMessage());
            assertTrue(x.getMessage().contains("62 more"), x.getMessage());
            for (int i = 0; i < fuses.size(); i++) {
                Entity e = fuses.get(i);
                boolean lit = FUSE.read(e).matches("lit");
                assertEquals(i < 64, lit, "fuse " + i);
                assertEquals(lit, e.has(FUSE.is("lit")), "fuse " + i + "'s lit tag");
                assertEquals(!lit, e.has(FUSE.is("idle")), "fuse " + i + "'s idle tag");
            }
            // the game goes on from where the chain stopped, 64 more at a time
            world.step(1.0 / 60);
            assertThrows(dev.enginestates.declare.UserCodeException.class, () -> FUSE.send(fuses.get(64), "LIGHT"));
            assertTrue(FUSE.read(fuses.get(127)).matches("lit"));
            assertTrue(FUSE.read(fuses.get(128)).matches("idle"));
        }
    }
}

package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.Event;
import dev.enginestates.Machine;
import dev.enginestates.declare.UserCodeException;
import dev.enginestates.declare.Self;
import dev.enginestates.plain.StateMachine;
import dev.enginestates.xstate.XStateImport;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 12, "code sees its entity": actions, guards, {@code when} tests and wait-seconds
 * functions written {@code (ctx, event, self)} read the entity they run on and the world, so an
 * action can add a component or notify a neighbour; on a plain machine there is no entity and
 * no world; after despawn the object says so.
 */
class CodeSeesItsEntityTest {
    static final double DT = 1.0 / 60;

    /** A component the lamp's own actions put on and take off its entity. */
    public static final class Lit {
    }

    public static final class Lamp {
        public int moves;
        public long lastStep = -1;
        public boolean twice;
    }

    /** Every step each lamp moves once, and its entry and exit actions change its entity's composition. */
    static final States<Lamp> LAMP = States.define("self-lamp", Lamp::new, m -> m
            .initial("off")
            .state("off", s -> s
                    .entry((lamp, e, self) -> counted(lamp, self))
                    .waitFor(DT, "on"))
            .state("on", s -> s
                    .entry((lamp, e, self) -> {
                        counted(lamp, self);
                        self.add(new Lit());
                    })
                    .exit((lamp, e, self) -> self.remove(Lit.class))
                    .waitFor(DT, "off")));

    private static void counted(Lamp lamp, Self self) {
        long step = self.<StateWorld>world().steps();
        lamp.twice |= step == lamp.lastStep;
        lamp.lastStep = step;
        lamp.moves++;
    }

    @Test
    void anActionAddsAComponentToItsOwnEntityDuringAStepAndTheWorldStaysConsistent() {
        try (StateWorld world = StateWorld.create()) {
            List<Entity> lamps = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                lamps.add(world.spawn(LAMP.trait()));
            }
            int steps = 61;
            for (int i = 0; i < steps; i++) {
                world.step(DT);
                int on = world.query(LAMP.is("on")).count();
                int off = world.query(LAMP.is("off")).count();
                int lit = world.query(Lit.class).count();
                assertEquals(1000, on + off, "every lamp in one state, step " + i);
                assertEquals(on, lit, "a component for every lamp that is on, step " + i);
                assertEquals(i % 2 == 0 ? 1000 : 0, on, "all lamps move together, step " + i);
            }
            for (Entity e : lamps) {
                Lamp lamp = LAMP.read(e).context();
                assertEquals(steps, lamp.moves, "stepped exactly once per step");
                assertFalse(lamp.twice, "never twice in one step");
                boolean on = LAMP.read(e).matches("on");
                assertEquals(on, e.has(Lit.class));
                assertEquals(on, e.has(LAMP.is("on")));
                assertEquals(!on, e.has(LAMP.is("off")));
            }
        }
    }

    /** A neighbour: the entity next to this one. */
    public static final class Neighbour {
        public final Entity entity;

        public Neighbour(Entity entity) {
            this.entity = entity;
        }
    }

    public static final class Post {
        public int alerts;
    }

    static final States<Post> GATE = States.define("self-gate", Post::new, m -> m
            .initial("open")
            .state("open", s -> s.on("ALERT", t -> t.target("shut").action((post, e) -> post.alerts++)))
            .state("shut", s -> s.on("ALERT", t -> t.action((post, e) -> post.alerts++))));

    static final States<Post> SENTRY = States.define("self-sentry", Post::new, m -> m
            .initial("watching")
            .state("watching", s -> s
                    .on("SPOTTED", t -> t.target("alarmed")
                            .action((post, e, self) -> GATE.send(self.get(Neighbour.class).entity, "ALERT")))
                    .waitFor(2, t -> t.target("alarmed")
                            .action((post, e, self) -> {
                                StateWorld world = self.world();
                                GATE.send(world.entity("gate"), "ALERT");
                            })))
            .state("alarmed"));

    @Test
    void anActionNotifiesANeighbourEntity() {
        try (StateWorld world = StateWorld.create()) {
            Entity gate = world.spawn(EntityKey.of("gate"), GATE.trait());
            Entity sentry = world.spawn(SENTRY.trait(), new Neighbour(gate));
            assertTrue(SENTRY.send(sentry, "SPOTTED"));
            assertTrue(GATE.read(gate).matches("shut"), "the neighbour took the event");
            assertTrue(gate.has(GATE.is("shut")), "its tags moved with it");
            assertEquals(1, GATE.read(gate).context().alerts);

            Entity second = world.spawn(SENTRY.trait(), new Neighbour(gate));
            for (int i = 0; i < 121; i++) {
                world.step(DT); // the wait ends during a step: its action finds the gate through the world
            }
            assertTrue(SENTRY.read(second).matches("alarmed"));
            assertEquals(2, GATE.read(gate).context().alerts);
        }
    }

    public static final class Chain {
        public int lit;
    }

    /** Each link lights the next through {@code self.send}: the same machine on its neighbour's entity. */
    static final States<Chain> LINK = States.define("self-link", Chain::new, m -> m
            .initial("dark")
            .state("dark", s -> s.on("LIGHT", t -> t.target("lit").action((chain, e, self) -> {
                chain.lit++;
                Neighbour next = self.get(Neighbour.class);
                if (next != null) {
                    assertTrue(self.send(next.entity, Event.of("LIGHT")));
                }
            })))
            .state("lit", s -> s.on("LIGHT", t -> t.action((chain, e, self) -> chain.lit++))));

    @Test
    void selfSendsToTheSameMachineOnANeighbour() {
        try (StateWorld world = StateWorld.create()) {
            Entity last = world.spawn(LINK.trait());
            Entity middle = world.spawn(LINK.trait(), new Neighbour(last));
            Entity first = world.spawn(LINK.trait(), new Neighbour(middle));
            LINK.send(first, "LIGHT");
            assertEquals(3, world.query(LINK.is("lit")).count(), "the whole chain took it, tags included");
            assertEquals(0, world.query(LINK.is("dark")).count());

            Entity loop = world.spawn(LINK.trait());
            loop.add(new Neighbour(loop));
            UserCodeException self = assertThrows(UserCodeException.class, () -> LINK.send(loop, "LIGHT"));
            assertTrue(self.getCause().getMessage().contains("one event at a time"), self.getCause().getMessage());

            Self s = firstSelf(world);
            assertThrows(IllegalArgumentException.class, () -> s.send("not an entity", "LIGHT"));
        }
    }

    private static Self firstSelf(StateWorld world) {
        Self[] seen = new Self[1];
        States<Chain> peek = States.define("self-peek", Chain::new, m -> m
                .state("a", s -> s.on("PEEK", t -> t.action((c, e, self) -> seen[0] = self))));
        Entity e = world.spawn(peek.trait());
        peek.send(e, "PEEK");
        return seen[0];
    }

    public static final class Health {
        public int hp;

        public Health(int hp) {
            this.hp = hp;
        }
    }

    static final States<Post> FIGHTER = States.define("self-fighter", Post::new, m -> m
            .initial("standing")
            .state("standing", s -> s
                    .on("HIT", t -> t.guard((post, e, self) -> self.get(Health.class).hp <= 0).target("down"))
                    .on("HIT", t -> t.action((post, e) -> post.alerts++)))
            .state("down"));

    @Test
    void aGuardReadsAnotherComponentOfItsEntity() {
        try (StateWorld world = StateWorld.create()) {
            Health health = new Health(10);
            Entity fighter = world.spawn(FIGHTER.trait(), health);
            FIGHTER.send(fighter, "HIT");
            assertTrue(FIGHTER.read(fighter).matches("standing"), "the guard read hp 10");
            health.hp = 0;
            FIGHTER.send(fighter, "HIT");
            assertTrue(FIGHTER.read(fighter).matches("down"), "the guard read hp 0");
            assertEquals(1, FIGHTER.read(fighter).context().alerts);
        }
    }

    public static final class Speed {
        public double value;

        public Speed(double value) {
            this.value = value;
        }
    }

    public static final class Seen {
        public final List<String> events = new ArrayList<>();
        public final List<Object> entities = new ArrayList<>();
        public final List<Self> selves = new ArrayList<>();
    }

    static final States<Seen> RIDER = States.define("self-rider", Seen::new, m -> m
            .initial("sliding")
            .state("sliding", s -> s.when((seen, e, self) -> {
                seen.events.add(e.type());
                seen.entities.add(self.entity());
                seen.selves.add(self);
                return self.get(Speed.class).value < 2;
            }, "stalling"))
            .state("stalling", s -> s.on("PUSH", "reloading"))
            .state("reloading", s -> s
                    .waitFor((seen, e, self) -> {
                        seen.events.add(e.type());
                        seen.entities.add(self.entity());
                        seen.selves.add(self);
                        return self.get(Speed.class).value;
                    }, "sliding")));

    @Test
    void aWhenTestAndAWaitSecondsFunctionReadTheEntity() {
        try (StateWorld world = StateWorld.create()) {
            Speed speed = new Speed(5);
            Entity rider = world.spawn(RIDER.trait(), speed);
            world.step(DT);
            assertTrue(RIDER.read(rider).matches("sliding"));
            speed.value = 1;
            world.step(DT);
            assertTrue(RIDER.read(rider).matches("stalling"), "the when test read the speed");
            RIDER.send(rider, Event.of("PUSH"));
            assertEquals(1.0, RIDER.read(rider).secondsLeft(), 1e-9, "the seconds function read the speed");
            Seen seen = RIDER.read(rider).context();
            assertEquals(List.of("states.when", "states.when", "PUSH"), seen.events,
                    "a when test gets the when event, a seconds function the event that entered its state");
            for (Object e : seen.entities) {
                assertSame(rider, e);
            }
            for (Self self : seen.selves) {
                assertSame(seen.selves.get(0), self, "one object per record, made with it");
            }
            assertSame(RIDER.read(rider), seen.selves.get(0).machine(), "the machine's own face");
        }
    }

    @Test
    void onAPlainMachineTheEntityAndTheWorldAreNull() {
        List<Self> selves = new ArrayList<>();
        Machine<Post> plain = Machine.define("self-plain", Post::new, m -> m
                .initial("a")
                .state("a", s -> s
                        .on("GO", t -> t.guard((post, e, self) -> selves.add(self)).target("b")
                                .action((post, e, self) -> selves.add(self)))
                        .on("ADD", t -> t.action((post, e, self) -> self.add(new Lit())))
                        .on("SEND", t -> t.action((post, e, self) -> self.send(new Object(), "GO"))))
                .state("b", s -> s
                        .waitFor((post, e, self) -> selves.add(self) ? 1 : 0, "a")
                        .when((post, e, self) -> selves.add(self) && false, "a")));
        StateMachine<Post> machine = new StateMachine<>(plain);
        UserCodeException refused = assertThrows(UserCodeException.class, () -> machine.send("ADD"));
        assertInstanceOf(IllegalStateException.class, refused.getCause());
        assertTrue(refused.getCause().getMessage().contains("plain object"), refused.getCause().getMessage());
        UserCodeException noSend = assertThrows(UserCodeException.class, () -> machine.send("SEND"));
        assertInstanceOf(IllegalStateException.class, noSend.getCause());
        machine.send("GO");
        machine.step(DT);
        assertEquals(4, selves.size(), "guard, action, seconds, when");
        for (Self self : selves) {
            assertSame(selves.get(0), self);
            assertNull(self.entity());
            assertNull(self.world());
            assertFalse(self.attached());
            assertSame(machine, self.machine());
            assertNull(self.get(Lit.class));
            assertFalse(self.has(Lit.class));
        }
    }

    @Test
    void anEntityConditionOnAPlainMachineIsRefusedSayingItNeedsAnEntity() {
        Machine<Post> plain = Machine.define("entity-test-plain", Post::new, m -> m
                .initial("a")
                .state("a", s -> s.when(EntityCondition.of((post, entity, world) -> entity.has(Lit.class)), "b"))
                .state("b"));
        StateMachine<Post> machine = new StateMachine<>(plain);
        UserCodeException e = assertThrows(UserCodeException.class, () -> machine.step(DT));
        assertInstanceOf(IllegalStateException.class, e.getCause(), String.valueOf(e.getCause()));
        String why = e.getCause().getMessage();
        assertTrue(why.contains("machine 'entity-test-plain'") && why.contains("EntityCondition") && why.contains("entity")
                && why.contains("StateWorld"), why);
        assertEquals("a", machine.state(), "the machine stays");
    }

    public static final class Doomed {
        public Self self;
        public boolean attachedAfterDespawn = true;
        public Object entityAfterDespawn = "unset";
        public Object worldAfterDespawn = "unset";
    }

    static final States<Doomed> DOOMED = States.define("self-doomed", Doomed::new, m -> m
            .initial("alive")
            .state("alive", s -> s.on("DIE", t -> t.target("gone").action((d, e, self) -> {
                d.self = self;
                Entity me = self.entity();
                self.<StateWorld>world().despawn(me);
                d.attachedAfterDespawn = self.attached();
                d.entityAfterDespawn = self.entity();
                d.worldAfterDespawn = self.world();
            })))
            .state("gone"));

    @Test
    void afterDespawnTheObjectSaysSo() {
        try (StateWorld world = StateWorld.create()) {
            StateRecord<Doomed> record = DOOMED.trait();
            Doomed d = record.context();
            Entity e = world.spawn(record);
            DOOMED.send(e, "DIE");
            assertTrue(e.isDeleted());
            assertFalse(d.attachedAfterDespawn, "the action's own despawn is seen at once");
            assertNull(d.entityAfterDespawn);
            assertNull(d.worldAfterDespawn);
            assertFalse(d.self.attached());
            assertNull(d.self.entity());
            assertNull(d.self.get(Health.class));
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> d.self.add(new Lit()));
            assertTrue(refused.getMessage().contains("no live entity"), refused.getMessage());
        }
    }

    public static final class Kept {
        public Self self;
    }

    static final States<Kept> KEPT = States.define("self-kept", Kept::new, m -> m
            .initial("a")
            .state("a", s -> s.on("KEEP", t -> t.action((k, e, self) -> k.self = self))));

    @Test
    void theObjectFollowsItsRecordFromSpawnThroughDetachAndDeletion() {
        try (StateWorld world = StateWorld.create()) {
            StateRecord<Kept> record = KEPT.trait();
            Entity first = world.spawn(record);
            KEPT.send(first, "KEEP");
            Self self = record.context().self;
            assertTrue(self.attached());
            assertSame(first, self.entity());
            assertSame(world, self.world());
            assertSame(first, self.handle(), "as a when test's holder, the entity");

            world.detach(first, KEPT);
            assertFalse(self.attached(), "detached");
            assertNull(self.entity());
            assertNull(self.world());

            Entity second = world.spawn();
            world.attach(second, record);
            assertSame(second, self.entity(), "attached to another entity, it follows the record");

            second.removeType(KEPT.recordType()); // through Dominion directly
            assertFalse(self.attached());

            Entity third = world.spawn(KEPT.trait());
            KEPT.send(third, "KEEP");
            Self other = KEPT.read(third).context().self;
            assertTrue(other.attached());
            world.dominion().deleteEntity(third); // deleted through Dominion directly
            assertFalse(other.attached());
            assertNull(other.entity());
        }
    }

    @Test
    void aWorldLevelMachineSeesTheWorldsOwnEntity() {
        try (StateWorld world = StateWorld.create()) {
            StateRecord<Kept> record = world.add(KEPT);
            KEPT.send(world, "KEEP");
            Self self = record.context().self;
            assertSame(world.entity(), self.entity());
            assertSame(world, self.world());
        }
    }

    @Test
    void selfRefusesToPutOrTakeAMachinesRecordOrTagByHand() {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(KEPT.trait());
            KEPT.send(e, "KEEP");
            Self self = KEPT.read(e).context().self;
            assertThrows(IllegalArgumentException.class, () -> self.add(LAMP.trait()));
            assertThrows(IllegalArgumentException.class, () -> self.remove(KEPT.recordType()));
            assertThrows(IllegalArgumentException.class, () -> self.remove(KEPT.is("a")));
            self.add(new Lit());
            assertTrue(e.has(Lit.class));
            assertTrue(self.has(Lit.class));
            assertTrue(self.remove(Lit.class));
            assertFalse(self.remove(Lit.class));
            assertTrue(e.has(KEPT.is("a")), "the tags are untouched");
        }
    }

    @Test
    void namedGuardsAndActionsOfAnImportedMachineSeeTheirEntityToo() {
        Machine<Post> imported = XStateImport.withContext(Post::new)
                .guard("healthy", (post, e, self) -> self.get(Health.class).hp > 0)
                .action("mark", (post, e, self) -> self.add(new Lit()))
                .action("count", (post, e) -> post.alerts++)
                .parse("{\"id\": \"self-imported\", \"initial\": \"a\", \"states\": {"
                        + "\"a\": {\"on\": {\"GO\": {\"target\": \"b\", \"guard\": \"healthy\", \"actions\": [\"count\"]}}},"
                        + "\"b\": {\"entry\": [\"mark\"]}}}");
        States<Post> machine = States.of(imported);
        try (StateWorld world = StateWorld.create()) {
            Health health = new Health(0);
            Entity e = world.spawn(machine.trait(), health);
            assertFalse(machine.send(e, "GO"), "the guard read hp 0");
            health.hp = 5;
            assertTrue(machine.send(e, "GO"));
            assertTrue(e.has(Lit.class), "the entry action put a component on its entity");
            assertEquals(1, machine.read(e).context().alerts);
        }
    }

    public static final class Counter {
        public int n;
    }

    /** Every kind of code reads {@code self}: a guard, actions, a when test and a seconds function. */
    static final States<Counter> BUSY = States.define("self-busy", Counter::new, m -> m
            .tags(false)
            .initial("off")
            .state("off", s -> s
                    .on("TOGGLE", t -> t.guard((c, e, self) -> hp(self) > 0).target("on")
                            .action((c, e, self) -> c.n += self.attached() ? 1 : 0))
                    .when((c, e, self) -> self.has(Lit.class), "on"))
            .state("on", s -> s
                    .entry((c, e, self) -> c.n += hp(self))
                    .waitFor((c, e, self) -> hp(self), "off")
                    .on("TOGGLE", "off")));

    /** The entity's health; a plain machine, which has no entity, counts as healthy. */
    private static int hp(Self self) {
        Health h = self.get(Health.class);
        return h == null ? 1 : h.hp;
    }

    static final States<Counter> IDLE = States.define("self-idle", Counter::new, m -> m.tags(false).state("idle"));

    @Test
    void readingSelfAllocatesNothingOnceWarm() {
        try (StateWorld world = StateWorld.create(); StateWorld idle = StateWorld.create()) {
            Entity e = world.spawn(BUSY.trait(), new Health(1));
            idle.spawn(IDLE.trait());
            StateMachine<Counter> plain = new StateMachine<>(BUSY.machine());
            long sends = allocated(() -> {
                for (int i = 0; i < 1_000; i++) {
                    BUSY.send(e, "TOGGLE");
                    plain.send("TOGGLE");
                    plain.step(DT);
                }
            });
            assertEquals(0, sends, "bytes allocated by 1,000 sends to an entity and sends and steps of a plain machine, once warm");
            // compared with idle steps, so the test says nothing of the step's own cost (StepAllocationTest does)
            long busySteps = allocated(() -> {
                for (int i = 0; i < 1_000; i++) {
                    world.step(DT);
                }
            });
            long idleSteps = allocated(() -> {
                for (int i = 0; i < 1_000; i++) {
                    idle.step(DT);
                }
            });
            assertEquals(idleSteps, busySteps, "1,000 steps whose waits, when tests and actions read self allocate what idle steps do");
            assertTrue(BUSY.read(e).context().n > 0 && plain.context().n > 0);
        }
    }

    /** Bytes this thread allocates running {@code work} once warm, the least of 5 runs. */
    private static long allocated(Runnable work) {
        for (int i = 0; i < 20; i++) {
            work.run(); // warm up: JIT, and the interpreters' scratch arrays reach their size
        }
        com.sun.management.ThreadMXBean bean = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        bean.getThreadAllocatedBytes(id); // the bean's own set-up happens here, not in a reading
        long least = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 5; attempt++) {
            long before = bean.getThreadAllocatedBytes(id);
            work.run();
            least = Math.min(least, bean.getThreadAllocatedBytes(id) - before);
        }
        return least;
    }

    enum Fire { STANDING, BURNING, ASH }

    enum FireEvent { IGNITE }

    /** The self forms take the game's own enums as targets too. */
    static final States<Post> TYPED = States.define("self-typed", Post::new, Fire.class, FireEvent.class, m -> m
            .initial(Fire.STANDING)
            .state(Fire.STANDING, s -> s.on(FireEvent.IGNITE, t -> t.guard((post, e, self) -> self.has(Health.class)).target(Fire.BURNING)))
            .state(Fire.BURNING, s -> s
                    .entry((post, e, self) -> self.add(new Lit()))
                    .when((post, e, self) -> self.get(Health.class).hp <= 0, Fire.ASH)
                    .waitFor((post, e, self) -> self.get(Health.class).hp, Fire.ASH))
            .state(Fire.ASH));

    @Test
    void theSelfFormsTakeTypedTargets() {
        try (StateWorld world = StateWorld.create()) {
            Health health = new Health(2);
            Entity e = world.spawn(TYPED.trait(), health);
            assertTrue(TYPED.send(e, FireEvent.IGNITE));
            assertTrue(TYPED.read(e).is(Fire.BURNING));
            assertTrue(e.has(Lit.class));
            assertEquals(2.0, TYPED.read(e).secondsLeft(), 1e-9);
            health.hp = 0;
            world.step(DT);
            assertTrue(TYPED.read(e).is(Fire.ASH), "the when test read hp 0");
        }
    }

    public static final class Early {
        public boolean attached = true;
    }

    static final States<Early> EARLY = States.define("self-early", Early::new, m -> m
            .initial("a")
            .state("a", s -> s.waitFor((early, e, self) -> {
                early.attached = self.attached();
                return 1;
            }, t -> t.target("a").reenter())));

    @Test
    void beforeItsRecordIsSpawnedTheMachineIsOnNoEntity() {
        StateRecord<Early> record = EARLY.trait(); // the initial state's wait is read now
        assertFalse(record.context().attached, "trait() reads the initial wait before the record is on an entity");
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(record);
            world.step(1.0);
            assertTrue(EARLY.read(e).context().attached, "the wait entered again, on its entity");
        }
    }

    @Test
    void theTwoArgumentFormsStillCompileAndAWhenTestsHolderIsTheSelf() {
        List<Object> holders = new ArrayList<>();
        States<Post> old = States.define("self-old", Post::new, m -> m
                .initial("a")
                .state("a", s -> s
                        .entry((post, e) -> post.alerts++)
                        .on("GO", t -> t.guard((post, e) -> true).target("b").action((post, e) -> post.alerts++))
                        .when((post, holder) -> holders.add(holder) && false, "b")
                        .when(post -> false, "b"))
                .state("b", s -> s.waitFor(post -> 1.0, "a")));
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(old.trait());
            world.step(DT);
            assertEquals(1, holders.size());
            Self self = assertInstanceOf(Self.class, holders.get(0));
            assertSame(e, self.entity());
            assertTrue(old.send(e, "GO"));
        }
    }
}

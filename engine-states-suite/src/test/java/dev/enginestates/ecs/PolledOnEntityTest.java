package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.MachineException;
import dev.enginestates.StatesDef;
import dev.enginestates.io.InputLog;
import dev.enginestates.io.Saves;
import dev.enginestates.plain.StateMachine;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A polled machine (the {@code 000} document) on an entity is a machine like the others: its
 * record is a component, each state a tag, {@code world.step} moves it with the other machines
 * in declaration order, holds apply, and dumps, checkpoints and replays cover it exactly.
 */
class PolledOnEntityTest {
    static final double DT = 1 / 60.0;

    /** The document's bot, with public fields so checkpoints can write it. */
    public static final class Bot {
        public int hp = 100;
        public boolean target;
        public boolean visible;
        public double dist = 99;
        public double lostFor;
        public boolean fire;
        public int downs;
        public int hits;
    }

    static final StatesDef<Bot> GUARD_DEF = StatesDef.define("polled-guard", Bot::new, d -> d
            .initial("patrol")
            .on("hit", (b, args) -> {
                b.hits += args.length == 0 ? 1 : (Integer) args[0];
                return "flinch";
            })
            .to("dead", (b, t) -> b.hp <= 0)
            .state("patrol", s -> s.to("combat", (b, t) -> b.target))
            .state("combat", s -> s
                    .initial("engage")
                    .to("search", (b, t) -> b.lostFor > 4)
                    .state("engage", e -> e.to("shoot", (b, t) -> b.visible && b.dist < 12))
                    .state("shoot", e -> e
                            .enter((b, from) -> b.fire = true)
                            .exit((b, to) -> b.fire = false)
                            .to("engage", (b, t) -> !b.visible)))
            .state("search", s -> s.after(6, "patrol"))
            .state("flinch", s -> s.after(0.2, "$back"))
            .state("dead", s -> s.enter((b, from) -> b.downs++)));

    static final States<Bot> GUARD = States.of(GUARD_DEF);

    @Test
    void a_send_without_arguments_reaches_the_input_recorder_as_an_empty_array_whichever_overload_sent_it() {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(GUARD.trait());
            List<Object[]> heard = new ArrayList<>();
            world.recordInputs(new WorldInputs() {
                @Override
                public void sent(StateRecord<?> record, String event, Object[] args) {
                    heard.add(args);
                }
            });
            GUARD.send(e, "hit");
            GUARD.send(e, "hit", new Object[0]);
            GUARD.send(e, "hit", (Object[]) null);
            assertEquals(3, heard.size());
            for (Object[] args : heard) {
                assertTrue(args != null && args.length == 0, "no arguments is an empty array, not null");
            }
            assertEquals(3, GUARD.read(e).context().hits, "the handler saw no arguments each time");
        }
    }

    @Test
    void states_of_a_statesdef_is_the_same_binding_every_time() {
        assertTrue(States.of(GUARD_DEF) == GUARD);
    }

    @Test
    void its_record_is_a_component_and_each_state_a_tag_the_query_finds() {
        try (StateWorld world = StateWorld.create()) {
            Bot bot = new Bot();
            Entity e = world.spawn(GUARD.trait(bot));
            assertTrue(e.has(GUARD.is("patrol")));
            bot.target = true;
            world.step(DT);
            assertEquals(List.of(e), entities(world.query(GUARD.is("combat.engage"))));
            assertEquals(List.of(e), entities(world.query(GUARD.is("combat"))));
            assertFalse(e.has(GUARD.is("patrol")));
            assertEquals("combat.engage", GUARD.read(e).state());
            assertTrue(GUARD.read(e).is("combat"));
        }
    }

    @Test
    void the_world_step_runs_the_documents_step_the_same_as_the_plain_machine() {
        try (StateWorld world = StateWorld.create()) {
            Bot onEntity = new Bot();
            Bot plain = new Bot();
            Entity e = world.spawn(GUARD.trait(onEntity));
            StateMachine<Bot> fsm = new StateMachine<>(GUARD_DEF, plain);
            for (int i = 0; i < 3000; i++) {
                SplittableRandom r = new SplittableRandom(i);
                boolean target = r.nextInt(10) > 2;
                boolean visible = r.nextBoolean();
                int dist = r.nextInt(20);
                int lostFor = r.nextInt(7);
                int hp = r.nextInt(200) == 0 ? 0 : 100;
                for (Bot b : new Bot[] {onEntity, plain}) {
                    b.target = target;
                    b.visible = visible;
                    b.dist = dist;
                    b.lostFor = lostFor;
                    b.hp = hp;
                }
                if (i % 97 == 0) {
                    GUARD.send(e, "hit");
                    fsm.send("hit");
                }
                if (i % 500 == 0) {
                    GUARD.go(e, "patrol");
                    fsm.go("patrol");
                }
                world.step(DT);
                fsm.step(DT);
                assertEquals(fsm.state(), GUARD.read(e).state(), "step " + i);
                assertEquals(fsm.time(), GUARD.read(e).time(), "step " + i);
                assertEquals(fsm.previous(), GUARD.read(e).previous(), "step " + i);
            }
        }
    }

    @Test
    void machines_are_stepped_in_declaration_order_with_the_others_each_once_per_step() {
        List<String> order = new ArrayList<>();
        States<List<String>> first = States.of(StatesDef.<List<String>>define("order-first", d -> d
                .state("a", s -> s.to("b", (l, t) -> { l.add("first"); return false; })).state("b")));
        States<List<String>> xstate = States.define("order-xstate", () -> order, m -> m
                .initial("a").state("a", s -> s.when(l -> { l.add("xstate"); return false; }, "b")).state("b"));
        States<List<String>> second = States.of(StatesDef.<List<String>>define("order-second", d -> d
                .state("a", s -> s.to("b", (l, t) -> { l.add("second"); return false; })).state("b")));
        try (StateWorld world = StateWorld.create()) {
            world.spawn(second.trait(order));
            world.spawn(first.trait(order), xstate.trait(order));
            world.spawn(first.trait(order));
            world.step(DT);
            assertEquals(List.of("first", "first", "xstate", "second"), order);
        }
    }

    @Test
    void a_held_polled_machine_stops_its_clocks_and_tests_nothing_but_events_still_move_it() {
        try (StateWorld world = StateWorld.create()) {
            Bot bot = new Bot();
            Entity e = world.spawn(GUARD.trait(bot));
            GUARD.go(e, "search");
            world.step(1);
            e.add(MachinePaused.INSTANCE);
            bot.hp = 0;
            for (int i = 0; i < 10; i++) {
                world.step(1);
            }
            assertEquals("search", GUARD.read(e).state(), "no guard, no after while held");
            assertEquals(1, GUARD.read(e).time(), "its clock stopped");
            assertTrue(GUARD.send(e, "hit"));
            assertEquals("flinch", GUARD.read(e).state());
            e.removeType(MachinePaused.class);
            world.step(DT);
            assertEquals("dead", GUARD.read(e).state());
        }
    }

    public static final class Stunned {
    }

    @Test
    void held_by_holds_a_polled_machine_alone() {
        States<Bot> stunnable = States.of(StatesDef.<Bot>define("polled-stunnable", d -> d
                .heldBy(Stunned.class)
                .state("idle", s -> s.after(1, "moving")).state("moving")));
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(stunnable.trait(new Bot()), GUARD.trait(new Bot()), new Stunned());
            GUARD.go(e, "search");
            for (int i = 0; i < 120; i++) {
                world.step(DT);
            }
            assertEquals("idle", stunnable.read(e).state());
            assertEquals(2, GUARD.read(e).time(), 1e-9, "the other machine on the entity ran on");
            e.removeType(Stunned.class);
            for (int i = 0; i < 60; i++) {
                world.step(DT);
            }
            assertEquals("moving", stunnable.read(e).state());
        }
    }

    @Test
    void a_throwing_guard_fails_its_machine_only_and_the_step_goes_on() {
        States<Bot> fragile = States.of(StatesDef.<Bot>define("polled-fragile", d -> d
                .state("a", s -> s.to("b", (b, t) -> {
                    if (b.hp == 13) {
                        throw new IllegalStateException("bad sensor");
                    }
                    return t > 0.5;
                })).state("b")));
        try (StateWorld world = StateWorld.create()) {
            List<MachineFailure> failures = new ArrayList<>();
            world.onFailure(failures::add);
            Bot bad = new Bot();
            bad.hp = 13;
            Entity broken = world.spawn(EntityKey.of("broken"), fragile.trait(bad));
            Entity fine = world.spawn(EntityKey.of("fine"), fragile.trait(new Bot()));
            for (int i = 0; i < 60; i++) {
                world.step(DT);
            }
            assertEquals("b", fragile.read(fine).state());
            assertEquals("a", fragile.read(broken).state());
            assertEquals(60, failures.size());
            MachineFailure f = failures.get(0);
            assertTrue(f.toString().contains("polled-fragile") && f.toString().contains("broken") && f.toString().contains("bad sensor"),
                    f.toString());
        }
    }

    /** A context that knows its entity, so its own code can despawn it. */
    static final class Doomed {
        Entity me;
        boolean selfDestruct;
    }

    @Test
    void an_enter_that_despawns_its_own_entity_mid_step_leaves_the_world_consistent() {
        StateWorld[] w = new StateWorld[1];
        States<Doomed> doomed = States.of(StatesDef.<Doomed>define("polled-doomed", d -> d
                .state("a", s -> s.to("b", (c, t) -> true))
                .state("b", s -> s.enter((c, f) -> {
                    if (c.selfDestruct) {
                        w[0].despawn(c.me);
                    }
                }).after(0, "c"))
                .state("c")));
        try (StateWorld world = StateWorld.create()) {
            w[0] = world;
            Doomed first = new Doomed();
            Doomed second = new Doomed();
            second.selfDestruct = true;
            Doomed third = new Doomed();
            first.me = world.spawn(doomed.trait(first));
            second.me = world.spawn(doomed.trait(second));
            third.me = world.spawn(doomed.trait(third));
            world.step(DT);
            assertTrue(second.me.isDeleted());
            assertEquals(java.util.Set.of(first.me, third.me), new java.util.HashSet<>(entities(world.query(doomed.is("c")))),
                    "the others chained on");
            assertEquals(List.of(), entities(world.query(doomed.is("a"))));
            assertEquals(List.of(), entities(world.query(doomed.is("b"))), "no tag left behind by the despawned entity");
        }
    }

    @Test
    void set_state_and_set_time_arrange_a_polled_machine_for_a_test() {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(GUARD.trait(new Bot()));
            GUARD.read(e).setState("search").setTime("search", 5.9);
            assertEquals(0.1, GUARD.read(e).secondsLeft(), 1e-12);
            world.step(0.1);
            assertEquals("patrol", GUARD.read(e).state());
            assertTrue(e.has(GUARD.is("patrol")));
            assertThrows(MachineException.class, () -> GUARD.read(e).setState("patrol", "search"));
            assertThrows(MachineException.class, () -> GUARD.read(e).setTime("search", 1));
        }
    }

    @Test
    void checkpoint_mid_after_and_go_on_equals_running_straight_through() {
        Saves saves = Saves.of(GUARD);
        try (StateWorld straight = StateWorld.create(); StateWorld saved = StateWorld.create(); StateWorld restored = StateWorld.create()) {
            List<Bot> a = spawnBots(straight);
            List<Bot> b = spawnBots(saved);
            for (int i = 0; i < 400; i++) {
                drive(straight, a, i);
                drive(saved, b, i);
            }
            String checkpoint = saves.checkpoint(saved);
            assertTrue(checkpoint.contains("\"clocks\"") && checkpoint.contains("\"previous\""), checkpoint);
            saves.restoreSpawningMissing(restored, checkpoint);
            assertEquals(saves.dump(saved), saves.dump(restored));
            List<Bot> c = new ArrayList<>();
            for (int k = 0; k < 20; k++) {
                c.add(GUARD.read(restored.entity("bot" + k)).context());
            }
            for (int i = 400; i < 900; i++) {
                drive(straight, a, i);
                drive(restored, c, i);
            }
            assertEquals(saves.dump(straight), saves.dump(restored));
            for (int k = 0; k < 20; k++) {
                Entity e = restored.entity("bot" + k);
                assertTrue(e.has(GUARD.is(GUARD.read(e).state())), "tags rebuilt from the record");
            }
        }
    }

    @Test
    void a_restore_runs_no_enter_and_refuses_a_record_whose_clocks_do_not_match_its_states() throws Exception {
        Saves saves = Saves.of(GUARD);
        try (StateWorld world = StateWorld.create(); StateWorld other = StateWorld.create()) {
            Bot bot = new Bot();
            bot.hp = 0;
            Entity e = world.spawn(EntityKey.of("b"), GUARD.trait(bot));
            world.step(DT);
            assertEquals(1, bot.downs);
            String checkpoint = saves.checkpoint(world);
            saves.restoreSpawningMissing(other, checkpoint);
            assertEquals(1, GUARD.read(other.entity("b")).context().downs, "no enter ran on restore");
            com.fasterxml.jackson.databind.node.ObjectNode tree = (com.fasterxml.jackson.databind.node.ObjectNode)
                    new com.fasterxml.jackson.databind.ObjectMapper().readTree(checkpoint);
            com.fasterxml.jackson.databind.node.ObjectNode rec = (com.fasterxml.jackson.databind.node.ObjectNode)
                    tree.get("entities").get("b").get("polled-guard");
            ((com.fasterxml.jackson.databind.node.ObjectNode) rec.get("clocks")).remove("dead");
            ((com.fasterxml.jackson.databind.node.ObjectNode) rec.get("clocks")).put("patrol", 1.0);
            String bad = tree.toString();
            Exception x = assertThrows(RuntimeException.class, () -> saves.restore(other, bad));
            assertTrue(x.getMessage().contains("clocks"), x.getMessage());
            assertEquals("dead", GUARD.read(other.entity("b")).state(), "the world is unchanged");
            assertEquals(GUARD.read(e).state(), GUARD.read(other.entity("b")).state());
        }
    }

    /** A bot whose senses arrive as events with arguments, so the input log holds everything that moves it. */
    static final StatesDef<Bot> SENSED_DEF = StatesDef.define("polled-sensed", Bot::new, d -> d
            .on("sense", (b, args) -> {
                b.target = (Boolean) args[0];
                b.visible = (Boolean) args[1];
                b.dist = (Double) args[2];
                b.lostFor = (Float) args[3];
                return null;
            })
            .on("hit", (b, args) -> {
                b.hits += (Integer) args[0];
                return "flinch";
            })
            .state("patrol", s -> s.to("combat", (b, t) -> b.target))
            .state("combat", s -> s
                    .to("search", (b, t) -> b.lostFor > 4)
                    .state("engage", e -> e.to("shoot", (b, t) -> b.visible && b.dist < 12))
                    .state("shoot", e -> e.enter((b, from) -> b.fire = true).exit((b, to) -> b.fire = false).to("engage", (b, t) -> !b.visible)))
            .state("search", s -> s.after(6, "patrol"))
            .state("flinch", s -> s.after(0.2, "$back")));

    @Test
    void an_input_log_replays_sends_with_arguments_and_go_exactly() {
        States<Bot> sensed = States.of(SENSED_DEF);
        Saves saves = Saves.of(sensed);
        try (StateWorld live = StateWorld.create(); StateWorld replay = StateWorld.create()) {
            InputLog log = InputLog.start(saves, live);
            for (int k = 0; k < 10; k++) {
                live.spawn(EntityKey.of("bot" + k), sensed.trait(new Bot()));
            }
            for (int i = 0; i < 900; i++) {
                for (int k = 0; k < 10; k++) {
                    SplittableRandom r = new SplittableRandom(i * 100L + k);
                    if (r.nextInt(30) == 0) {
                        sensed.send(live.entity("bot" + k), "sense", r.nextInt(4) > 0, r.nextBoolean(), (double) r.nextInt(20), (float) r.nextInt(8));
                    }
                }
                if (i % 50 == 0) {
                    sensed.send(live.entity("bot3"), "hit", 7);
                }
                if (i % 120 == 0) {
                    sensed.go(live.entity("bot5"), "combat.shoot");
                }
                live.step(DT);
            }
            InputLog.replay(saves, replay, log.text());
            assertEquals(saves.dump(live), saves.dump(replay));
            assertEquals(18 * 7, sensed.read(replay.entity("bot3")).context().hits);
            assertTrue(log.text().contains("\"go\""), "go is an input of its own");
        }
    }

    private static List<Bot> spawnBots(StateWorld world) {
        List<Bot> bots = new ArrayList<>();
        for (int k = 0; k < 20; k++) {
            Bot b = new Bot();
            bots.add(b);
            world.spawn(EntityKey.of("bot" + k), GUARD.trait(b));
        }
        return bots;
    }

    /** Senses from a seed per step and bot (so every world sees the same), written through the record's context, then a step. */
    private static void drive(StateWorld world, List<Bot> bots, int step) {
        for (int k = 0; k < bots.size(); k++) {
            Bot b = GUARD.read(world.entity("bot" + k)).context();
            SplittableRandom r = new SplittableRandom(step * 1000L + k);
            b.target = r.nextInt(10) > 2;
            b.visible = r.nextBoolean();
            b.dist = r.nextInt(20);
            b.lostFor = r.nextInt(8);
            b.hp = r.nextInt(300) == 0 ? 0 : 100;
        }
        world.step(DT);
    }

    private static List<Entity> entities(Query q) {
        List<Entity> out = new ArrayList<>();
        q.forEach(out::add);
        return out;
    }
}

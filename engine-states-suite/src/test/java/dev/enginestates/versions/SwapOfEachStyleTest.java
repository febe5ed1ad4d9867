package dev.enginestates.versions;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.StatesDef;
import dev.enginestates.declare.Migration;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.AIContext;
import dev.enginestates.fsm.StateMachineBuilder;
import dev.enginestates.io.Saves;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One swap for the three styles: polled tables and builder machines keep their clocks where a
 * state keeps its place, go where the migration says, carry their new tags, and equal a twin
 * restored from a checkpoint taken before the swap through the same migration. The swap and the
 * restore are written once, on the runtime contract: nothing here is per style but the machines.
 */
class SwapOfEachStyleTest {
    static final double DT = 1.0 / 60;

    public static final class Bot {
        public boolean target;
        public int hits;
    }

    static final States<Bot> BOT_1 = States.of(StatesDef.define("sbot", Bot::new, d -> d
            .version(1)
            .on("hit", (b, args) -> {
                b.hits++;
                return "flinch";
            })
            .on("spot", (b, args) -> {
                b.target = true;
                return null;
            })
            .state("patrol", s -> s.to("combat", (b, t) -> b.target))
            .state("combat", s -> s.after(1, "aim")
                    .state("watch")
                    .state("aim"))
            .state("flinch", s -> s.after(0.5, "$back"))));

    static final States<Bot> BOT_2 = States.of(StatesDef.define("sbot", Bot::new, d -> d
            .version(2, Migration.from(1).rename("flinch", "stagger").rename("combat.aim", "combat.shoot"))
            .on("hit", (b, args) -> {
                b.hits++;
                return "stagger";
            })
            .on("spot", (b, args) -> {
                b.target = true;
                return null;
            })
            .state("patrol", s -> s.to("combat", (b, t) -> b.target))
            .state("combat", s -> s.after(1, "shoot")
                    .state("watch")
                    .state("shoot"))
            .state("stagger", s -> s.after(0.5, "$back"))));

    public static final class Door extends AIContext {
        public boolean open;
    }

    static final States<Door> DOOR_1 = States.of(new StateMachineBuilder<Door>("sdoor", Door::new)
            .version(1)
            .configureState("Closed").asInitial().handler((d, dt) -> d.open ? "Opening" : null)
            .configureState("Opening").duration(2f).handler((d, dt) -> d.progress() >= 1f ? "Open" : null)
            .configureState("Open").handler((d, dt) -> d.open ? null : "Closing")
            .configureState("Closing").duration(2f).handler((d, dt) -> d.progress() >= 1f ? "Closed" : null)
            .build());

    static final States<Door> DOOR_2 = States.of(new StateMachineBuilder<Door>("sdoor", Door::new)
            .version(2, Migration.from(1).rename("Opening", "Swinging").remove("Closing", "Closed"))
            .configureState("Closed").asInitial().handler((d, dt) -> d.open ? "Swinging" : null)
            .configureState("Swinging").duration(2f).handler((d, dt) -> d.progress() >= 1f ? "Open" : null)
            .configureState("Open").handler((d, dt) -> d.open ? null : "Closed")
            .build());

    /** The swap of {@code n} entities of {@code v1}, each moved by {@code play}, equals its twin restored through the migration. */
    static <A, B> StateWorld swapEqualsItsMigratedTwin(States<A> v1, States<B> v2, int n, BiConsumer<Entity, Integer> play,
            Map<String, String> leafBefore, Map<String, Double> timeBefore, java.util.function.UnaryOperator<String> mapped) {
        StateWorld world = StateWorld.create();
        for (int i = 0; i < n; i++) {
            Entity e = world.spawn(EntityKey.of("e" + i), v1.trait());
            play.accept(e, i);
            if (i % 7 == 0) {
                world.step(DT);
            }
        }
        for (int i = 0; i < 40; i++) {
            world.step(DT);
        }
        for (StateRecord<A> r : world.records(v1)) {
            String key = StateWorld.keyOf(r.entity());
            leafBefore.put(key, r.leaves().get(0));
            timeBefore.put(key, r.timeIn(r.leaves().get(0)));
        }
        String before = Saves.of(v1).checkpoint(world);
        assertEquals(n, world.swap(v1, v2));
        for (StateRecord<B> r : world.records(v2)) {
            String key = StateWorld.keyOf(r.entity());
            assertEquals(mapped.apply(leafBefore.get(key)), r.leaves().get(0), key + " went where the migration says");
        }
        String after = Saves.of(v2).checkpoint(world);
        try (StateWorld twin = StateWorld.create()) {
            Saves.of(v2).restoreSpawningMissing(twin, before);
            assertEquals(after, Saves.of(v2).checkpoint(twin), "the twin restored through the migration is the swapped world");
            for (int i = 0; i < 200; i++) {
                world.step(DT);
                twin.step(DT);
            }
            assertEquals(Saves.of(v2).checkpoint(world), Saves.of(v2).checkpoint(twin), "and they step alike");
        }
        for (StateRecord<B> r : world.records(v2)) {
            for (String p : v2.machine().statePaths()) {
                assertEquals(r.is(p), r.entity().has(v2.is(p)), "the tag of " + p + " follows the record");
            }
        }
        return world;
    }

    @Test
    void polledMachinesKeepTheirClocksWhereAStateKeepsItsPlace() {
        Map<String, String> leaf = new HashMap<>();
        Map<String, Double> time = new HashMap<>();
        try (StateWorld w = swapEqualsItsMigratedTwin(BOT_1, BOT_2, 300, (e, i) -> {
            switch (i % 3) {
                case 1 -> BOT_1.send(e, "spot");
                case 2 -> BOT_1.send(e, "hit");
                default -> { }
            }
        }, leaf, time, p -> p.replace("combat.aim", "combat.shoot").replace("flinch", "stagger"))) {
            assertTrue(leaf.containsValue("combat.aim") && leaf.containsValue("combat.watch"), "several states were held: " + leaf.values());
            assertTrue(w.records(BOT_1).isEmpty(), "no record of version 1 is left");
        }
    }

    @Test
    void polledClocksAreKeptExactly() {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(EntityKey.of("b"), BOT_1.trait());
            BOT_1.send(e, "hit");
            for (int i = 0; i < 20; i++) {
                world.step(DT);
            }
            double t = BOT_1.read(e).timeIn("flinch");
            world.swap(BOT_1, BOT_2);
            assertEquals("stagger", BOT_2.read(e).state());
            assertEquals(t, BOT_2.read(e).timeIn("stagger"), "the renamed state's clock is its own, kept");
            for (int i = 0; i < 10; i++) {
                world.step(DT);
            }
            assertEquals("patrol", BOT_2.read(e).state(), "its after counted on from where it was, and $back came back");
        }
    }

    @Test
    void builderMachinesKeepTheirTimeInAStateThatKeepsItsPlaceAndEnterTheStateARemovalNames() {
        Map<String, String> leaf = new HashMap<>();
        Map<String, Double> time = new HashMap<>();
        try (StateWorld w = swapEqualsItsMigratedTwin(DOOR_1, DOOR_2, 200, (e, i) -> {
            if (i % 2 == 1) {
                DOOR_1.read(e).context().open = true;
            }
        }, leaf, time, p -> p.equals("Opening") ? "Swinging" : p.equals("Closing") ? "Closed" : p)) {
            assertTrue(leaf.containsValue("Opening"), leaf.values().toString());
            assertEquals(200, w.records(DOOR_2).size());
        }
        try (StateWorld world = StateWorld.create()) {
            Entity opening = world.spawn(EntityKey.of("o"), DOOR_1.trait());
            Entity closing = world.spawn(EntityKey.of("c"), DOOR_1.trait());
            DOOR_1.read(opening).context().open = true;
            for (int i = 0; i < 30; i++) {
                world.step(DT);
            }
            DOOR_1.transitionTo(closing, "Closing");
            world.step(DT);
            float progress = DOOR_1.read(opening).progress();
            assertTrue(progress > 0.1f && progress < 0.5f, "part-way: " + progress);
            world.swap(DOOR_1, DOOR_2);
            assertEquals("Swinging", DOOR_2.read(opening).state());
            assertEquals(progress, DOOR_2.read(opening).progress(), "the renamed state keeps its progress");
            assertEquals("Closed", DOOR_2.read(closing).state(), "a removed state's doors go where the migration says");
            assertEquals(0f, DOOR_2.read(closing).progress());
        }
    }
}

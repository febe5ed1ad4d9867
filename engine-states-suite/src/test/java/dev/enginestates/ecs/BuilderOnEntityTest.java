package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.MachineException;
import dev.enginestates.fsm.AIContext;
import dev.enginestates.fsm.StateMachine;
import dev.enginestates.fsm.StateMachineBuilder;
import dev.enginestates.fsm.StateMachineDefinition;
import dev.enginestates.io.InputLog;
import dev.enginestates.io.Saves;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A builder-style machine (the {@code 002} document) on an entity is a machine like the others:
 * its record is a component, each state a tag, {@code world.step} runs {@code update} (advance
 * then runState) in declaration and spawn order, the split tick is {@code advance} then
 * {@code runStates}, holds apply, and dumps, checkpoints and replays cover it exactly.
 */
class BuilderOnEntityTest {
    static final float DT = 1f / 60f;

    /** A door whose requests are public fields, so checkpoints write them. */
    public static final class Door extends AIContext {
        public boolean open;
        public int opened;
        public int closedEnters;
    }

    static final StateMachineDefinition<Door> DOOR_DEF = new StateMachineBuilder<Door>("entity-door", Door::new)
            .configureState("Closed").asInitial().handler((d, dt) -> d.open ? "Opening" : null).enter(d -> d.closedEnters++)
            .configureState("Opening").duration(0.75f).window("creak", 0.5f, 0.6f)
            .handler((d, dt) -> d.progress() >= 1f ? "Open" : null)
            .configureState("Open").enter(d -> d.opened++).handler((d, dt) -> d.open ? null : "Closing")
            .configureState("Closing").duration(0.75f).handler((d, dt) -> d.progress() >= 1f ? "Closed" : null)
            .build();

    static final States<Door> DOOR = States.of(DOOR_DEF);

    @Test
    void states_of_a_definition_is_the_same_binding_every_time() {
        assertSame(DOOR, States.of(DOOR_DEF));
    }

    @Test
    void its_record_is_a_component_each_state_a_tag_and_the_context_knows_its_entity() {
        try (StateWorld world = StateWorld.create()) {
            Door d = new Door();
            Entity e = world.spawn(DOOR.trait(d));
            assertEquals(1, d.closedEnters, "trait(ctx) initializes: the initial state's enter runs");
            assertSame(e, d.entity(), "a StateContext's entity is the entity it lives on");
            assertTrue(e.has(DOOR.is("Closed")));
            d.open = true;
            world.step(DT);
            assertEquals(List.of(e), entities(world.query(DOOR.is("Opening"))));
            assertFalse(e.has(DOOR.is("Closed")));
            assertEquals("Opening", DOOR.read(e).state());
            assertEquals("Closed", DOOR.read(e).previous());
            assertEquals(0.75f, d.stateDuration());
            int ticks = 0;
            while (DOOR.read(e).state().equals("Opening")) {
                world.step(DT);
                ticks++;
            }
            assertEquals(46, ticks, "float32 time in state, as on a plain machine");
            assertTrue(e.has(DOOR.is("Open")));
            world.despawn(e);
            assertEquals(null, d.entity(), "a despawned machine's context lives on no entity");
        }
    }

    @Test
    void the_world_step_is_update_and_runs_every_machine_exactly_once() {
        int[] runs = new int[1];
        StateMachineDefinition<Door> counting = new StateMachineBuilder<Door>("entity-counting", Door::new)
                .configureState("A").asInitial().handler((d, dt) -> {
                    runs[0]++;
                    return d.timeInState() >= 0.5f ? "B" : null;
                })
                .configureState("B").handler((d, dt) -> {
                    runs[0]++;
                    return d.timeInState() >= 0.5f ? "A" : null;
                })
                .build();
        States<Door> machine = States.of(counting);
        try (StateWorld world = StateWorld.create()) {
            List<Entity> all = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                all.add(world.spawn(machine.trait(new Door())));
            }
            for (int step = 1; step <= 120; step++) {
                world.step(DT);
                assertEquals(1000L * step, runs[0], "each machine runs once per step, tag moves or not");
            }
            // the same ticks on a plain machine give the same state
            StateMachine<Door> plain = new StateMachine<>(counting);
            Door ctx = new Door();
            plain.initialize(ctx);
            for (int step = 0; step < 120; step++) {
                plain.update(ctx, DT);
            }
            for (Entity e : all) {
                assertEquals(plain.state(), machine.read(e).state());
                assertEquals(plain.timeInState(), (float) machine.read(e).time());
            }
        }
    }

    @Test
    void the_split_tick_advances_at_the_start_and_runs_at_the_end() {
        try (StateWorld world = StateWorld.create()) {
            Door d = new Door();
            Entity e = world.spawn(DOOR.trait(d));
            d.open = true;
            world.advance(DT);
            assertEquals(DT, d.timeInState(), "advance counts the time of a state with a handler");
            assertEquals("Closed", DOOR.read(e).state(), "advance runs no handler");
            world.runStates();
            assertEquals("Opening", DOOR.read(e).state());
            world.advance(DT);
            assertEquals(DT, d.timeInState(), "the tick's work reads the advanced clock");
            assertEquals("Opening", DOOR.read(e).state());
            world.runStates();
            assertThrows(IllegalStateException.class, world::runStates, "runStates needs an advance before it");
            world.step(DT);
            assertEquals(DT + DT, d.timeInState());
        }
    }

    @Test
    void a_held_machine_neither_advances_nor_runs_and_transitionTo_still_moves_it() {
        try (StateWorld world = StateWorld.create()) {
            Door d = new Door();
            Entity e = world.spawn(DOOR.trait(d));
            d.open = true;
            world.step(DT);
            world.step(DT);
            float before = d.timeInState();
            e.add(MachinePaused.INSTANCE);
            for (int i = 0; i < 100; i++) {
                world.step(DT);
            }
            assertEquals(before, d.timeInState());
            assertEquals("Opening", DOOR.read(e).state());
            DOOR.transitionTo(e, "Open");
            assertTrue(e.has(DOOR.is("Open")));
            e.removeType(MachinePaused.class);
            d.open = false;
            world.step(DT);
            assertEquals("Closing", DOOR.read(e).state());
        }
    }

    @Test
    void a_hold_lifted_between_split_ticks_lets_the_next_advance_count() {
        try (StateWorld world = StateWorld.create()) {
            Door d = new Door();
            Entity e = world.spawn(DOOR.trait(d));
            e.add(MachinePaused.INSTANCE);
            world.advance(DT);
            world.runStates();
            assertEquals(0f, d.timeInState(), "held at the advance: no time counts");
            e.removeType(MachinePaused.class);
            world.advance(DT);
            world.runStates();
            assertEquals(DT, d.timeInState(), "holds are read once a tick, at the advance: the lifted hold lets it count");
        }
    }

    /** A context that reaches other entities' machines from its hooks. */
    public static final class Relay extends AIContext {
        Runnable onEnter = () -> { };
    }

    @Test
    void moves_nest_across_styles_a_builder_hook_moving_a_builder_machine_whose_hook_sends_to_an_xstate_machine() {
        StateMachineDefinition<Relay> relayDef = new StateMachineBuilder<Relay>("entity-relay", Relay::new)
                .configureState("Idle").asInitial()
                .configureState("Fired").enter(r -> r.onEnter.run())
                .build();
        States<Relay> relay = States.of(relayDef);
        States<int[]> bell = States.define("entity-bell", () -> new int[1], m -> m
                .initial("quiet")
                .state("quiet", s -> s.on("RING", t -> t.target("ringing").action((c, e) -> c[0]++)))
                .state("ringing"));
        try (StateWorld world = StateWorld.create()) {
            Relay first = new Relay();
            Relay second = new Relay();
            Entity a = world.spawn(relay.trait(first));
            Entity b = world.spawn(relay.trait(second));
            Entity c = world.spawn(bell.trait());
            first.onEnter = () -> relay.transitionTo(b, "Fired");   // a builder move inside a builder move
            second.onEnter = () -> bell.send(c, "RING");            // an XState move two levels down
            relay.transitionTo(a, "Fired");
            assertEquals("Fired", relay.read(b).state());
            assertEquals("ringing", bell.read(c).state());
            assertEquals(1, bell.read(c).context()[0]);
            assertTrue(c.has(bell.is("ringing")));
        }
    }

    @Test
    void builder_machines_take_no_events_and_an_unknown_state_is_refused() {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(DOOR.trait(new Door()));
            MachineException x = assertThrows(MachineException.class, () -> DOOR.send(e, "open"));
            assertTrue(x.getMessage().contains("entity-door") && x.getMessage().contains("transitionTo"), x.getMessage());
            x = assertThrows(MachineException.class, () -> DOOR.transitionTo(e, "Opne"));
            assertTrue(x.getMessage().contains("'Open'") && x.getMessage().contains("Closed"), x.getMessage());
            assertEquals("Closed", DOOR.read(e).state());
            DOOR.go(e, "Opening");
            assertEquals("Opening", DOOR.read(e).state());
        }
    }

    @Test
    void a_throwing_handler_fails_its_machine_only_and_the_step_goes_on() {
        StateMachineDefinition<Door> fragile = new StateMachineBuilder<Door>("entity-fragile", Door::new)
                .configureState("A").asInitial().handler((d, dt) -> {
                    if (d.opened == 13) {
                        throw new IllegalStateException("bad sensor");
                    }
                    return d.timeInState() > 0.5f ? "B" : null;
                })
                .configureState("B")
                .build();
        States<Door> machine = States.of(fragile);
        try (StateWorld world = StateWorld.create()) {
            List<MachineFailure> failures = new ArrayList<>();
            world.onFailure(failures::add);
            Door bad = new Door();
            bad.opened = 13;
            Entity broken = world.spawn(EntityKey.of("broken"), machine.trait(bad));
            Entity fine = world.spawn(EntityKey.of("fine"), machine.trait(new Door()));
            for (int i = 0; i < 60; i++) {
                world.step(DT);
            }
            assertEquals("B", machine.read(fine).state());
            assertEquals("A", machine.read(broken).state());
            assertEquals(60, failures.size());
            String f = failures.get(0).toString();
            assertTrue(f.contains("entity-fragile") && f.contains("broken") && f.contains("bad sensor") && f.contains("A"), f);
        }
    }

    @Test
    void a_handler_that_despawns_another_machines_entity_mid_step_leaves_the_world_consistent() {
        StateWorld[] w = new StateWorld[1];
        List<Entity> victims = new ArrayList<>();
        StateMachineDefinition<Door> killer = new StateMachineBuilder<Door>("entity-killer", Door::new)
                .configureState("A").asInitial().handler((d, dt) -> {
                    if (!victims.isEmpty()) {
                        w[0].despawn(victims.remove(0));
                    }
                    return "B";
                })
                .configureState("B").handler((d, dt) -> "A")
                .build();
        States<Door> machine = States.of(killer);
        try (StateWorld world = StateWorld.create()) {
            w[0] = world;
            for (int i = 0; i < 10; i++) {
                Entity e = world.spawn(machine.trait(new Door()));
                if (i % 2 == 1) {
                    victims.add(e);
                }
            }
            world.step(DT);
            assertEquals(5, world.records(machine).size());
            world.step(DT);
            for (StateRecord<Door> r : world.records(machine)) {
                assertTrue(r.entity().has(machine.is(r.state())));
            }
        }
    }

    @Test
    void a_record_taken_off_through_dominion_directly_is_no_longer_stepped_and_its_tags_go() {
        try (StateWorld world = StateWorld.create()) {
            Door kept = new Door();
            Door taken = new Door();
            Entity a = world.spawn(DOOR.trait(kept));
            Entity b = world.spawn(DOOR.trait(taken));
            kept.open = true;
            taken.open = true;
            for (int i = 0; i < 5; i++) {
                world.step(DT); // the world has found both records in their entities' compositions by now
            }
            float frozen = taken.timeInState();
            b.removeType(DOOR.recordType());
            java.util.List<String> warned = new java.util.ArrayList<>();
            java.util.logging.Logger library = java.util.logging.Logger.getLogger("dev.enginestates");
            java.util.logging.Handler hear = new java.util.logging.Handler() {
                @Override
                public void publish(java.util.logging.LogRecord record) {
                    if (record.getLevel() == java.util.logging.Level.WARNING) {
                        warned.add(record.getMessage());
                    }
                }

                @Override
                public void flush() {
                }

                @Override
                public void close() {
                }
            };
            library.addHandler(hear);
            library.setUseParentHandlers(false);
            try {
                for (int i = 0; i < 5; i++) {
                    world.step(DT);
                }
            } finally {
                library.removeHandler(hear);
            }
            assertEquals(1, warned.size(), "the world says once what went wrong and what it did: " + warned);
            assertTrue(warned.get(0).contains("entity-door") && warned.get(0).contains("through Dominion directly")
                    && warned.get(0).contains("world.detach"), warned.get(0));
            assertEquals(frozen, taken.timeInState(), "its handler no longer runs");
            assertFalse(b.has(DOOR.is("Opening")), "its tags went with it");
            assertEquals(1, world.records(DOOR).size());
            assertEquals(DT * 9, kept.timeInState(), 1e-6f, "the first step left Closed; nine counted in Opening");
            // the same after its entity changed composition in between (another component came and went)
            a.add(new Marker());
            world.step(DT);
            a.removeType(DOOR.recordType());
            world.step(DT);
            assertEquals(0, world.records(DOOR).size());
            assertFalse(a.has(DOOR.is("Opening")));
            library.setUseParentHandlers(true); // the second removal's warning was not printed either
        }
    }

    /** A component of the game's own. */
    static final class Marker {
    }

    @Test
    void checkpoint_mid_duration_and_go_on_equals_running_straight_through() {
        Saves saves = Saves.of(DOOR);
        try (StateWorld straight = StateWorld.create(); StateWorld saved = StateWorld.create(); StateWorld restored = StateWorld.create()) {
            List<Door> a = spawnDoors(straight);
            List<Door> b = spawnDoors(saved);
            for (int i = 0; i < 157; i++) {
                drive(straight, a, i);
                drive(saved, b, i);
            }
            String checkpoint = saves.checkpoint(saved);
            assertTrue(checkpoint.contains("\"timeInState\"") && checkpoint.contains("\"previousProgress\""), checkpoint);
            saves.restoreSpawningMissing(restored, checkpoint);
            assertEquals(checkpoint, saves.checkpoint(restored), "a restore is exact, byte for byte");
            assertEquals(saves.dump(saved), saves.dump(restored));
            List<Door> c = new ArrayList<>();
            boolean midDuration = false;
            for (int k = 0; k < 20; k++) {
                Door d = DOOR.read(restored.entity("door" + k)).context();
                c.add(d);
                Door original = b.get(k);
                assertEquals(original.timeInState(), d.timeInState(), "the context mirrors the restored clock");
                assertEquals(original.previousProgress(), d.previousProgress());
                assertEquals(original.stateDuration(), d.stateDuration());
                assertEquals(original.activeWindows(), d.activeWindows());
                assertSame(restored.entity("door" + k), d.entity());
                midDuration |= d.progress() > 0 && d.progress() < 1;
            }
            assertTrue(midDuration, "the checkpoint caught doors mid-duration");
            for (int i = 157; i < 600; i++) {
                drive(straight, a, i);
                drive(restored, c, i);
            }
            assertEquals(saves.checkpoint(straight), saves.checkpoint(restored));
            for (int k = 0; k < 20; k++) {
                Entity e = restored.entity("door" + k);
                assertTrue(e.has(DOOR.is(DOOR.read(e).state())), "tags rebuilt from the record");
            }
        }
    }

    @Test
    void a_restore_refuses_a_clock_that_is_not_a_float_and_changes_nothing() throws Exception {
        Saves saves = Saves.of(DOOR);
        try (StateWorld world = StateWorld.create(); StateWorld other = StateWorld.create()) {
            Door d = new Door();
            d.open = true;
            world.spawn(EntityKey.of("d"), DOOR.trait(d));
            for (int i = 0; i < 10; i++) {
                world.step(DT);
            }
            String checkpoint = saves.checkpoint(world);
            saves.restoreSpawningMissing(other, checkpoint);
            var tree = (com.fasterxml.jackson.databind.node.ObjectNode) new com.fasterxml.jackson.databind.ObjectMapper().readTree(checkpoint);
            var rec = (com.fasterxml.jackson.databind.node.ObjectNode) tree.get("entities").get("d").get("entity-door");
            rec.put("timeInState", 0.1);   // not a float32 value: no float clock ever held it
            String bad = tree.toString();
            Exception x = assertThrows(RuntimeException.class, () -> saves.restore(other, bad));
            assertTrue(x.getMessage().contains("timeInState"), x.getMessage());
            rec.put("timeInState", -1.0);
            assertThrows(RuntimeException.class, () -> saves.restore(other, tree.toString()));
            assertEquals(checkpoint, saves.checkpoint(other), "the world is unchanged");
        }
    }

    @Test
    void dumps_show_time_in_state_progress_and_the_state_before() {
        Saves saves = Saves.of(DOOR);
        try (StateWorld world = StateWorld.create()) {
            Door d = new Door();
            d.open = true;
            world.spawn(EntityKey.of("d"), DOOR.trait(d));
            world.step(0.25f);
            world.step(0.25f);
            String dump = saves.dump(world);
            assertTrue(dump.contains("\"timeInState\" : 0.25") || dump.contains("\"timeInState\":0.25"), dump);
            assertTrue(dump.contains("\"progress\" : 0.333333") || dump.contains("\"progress\":0.333333"), dump);
            assertTrue(dump.contains("\"previous\" : \"Closed\"") || dump.contains("\"previous\":\"Closed\""), dump);
        }
    }

    @Test
    void an_input_log_replays_steps_split_ticks_and_transitionTo_exactly() {
        Saves saves = Saves.of(DOOR);
        try (StateWorld live = StateWorld.create(); StateWorld replay = StateWorld.create()) {
            InputLog log = InputLog.start(saves, live);
            for (int k = 0; k < 10; k++) {
                live.spawn(EntityKey.of("door" + k), DOOR.trait(new Door()));
            }
            for (int i = 0; i < 300; i++) {
                if (i % 40 == 7) {
                    DOOR.transitionTo(live.entity("door" + (i % 10)), "Opening");
                }
                if (i % 3 == 0) {
                    live.advance(DT);
                    live.runStates();
                } else {
                    live.step(DT);
                }
            }
            InputLog.replay(saves, replay, log.text());
            assertEquals(saves.checkpoint(live), saves.checkpoint(replay));
            assertTrue(log.text().contains("\"advance\"") && log.text().contains("\"runStates\"") && log.text().contains("\"go\""),
                    "the split halves and transitionTo are inputs of their own");
        }
    }

    @Test
    void hand_set_state_and_time_write_the_context_too() {
        try (StateWorld world = StateWorld.create()) {
            Door d = new Door();
            Entity e = world.spawn(DOOR.trait(d));
            DOOR.read(e).setState("Opening").setTime("", 0.375);
            assertEquals(0.375f, d.timeInState());
            assertEquals(0.5f, DOOR.read(e).progress());
            assertEquals(0.75f, d.stateDuration());
            assertTrue(DOOR.read(e).inWindow("creak"));
            assertFalse(DOOR.read(e).inWindow("nope"));
            assertThrows(MachineException.class, () -> DOOR.read(e).setTime("Closed", 1));
            assertFalse(d.windowEntered("creak"), "a time set by hand crosses no window's edge");
            assertEquals(0.5f, d.previousProgress());
            MachineException two = assertThrows(MachineException.class, () -> DOOR.read(e).setState("Open", "Closed"));
            assertTrue(two.getMessage().contains("one state is active at a time"), two.getMessage());
            world.step(DT);
            assertTrue(e.has(DOOR.is("Opening")));
        }
    }

    private static List<Door> spawnDoors(StateWorld world) {
        List<Door> doors = new ArrayList<>();
        for (int k = 0; k < 20; k++) {
            Door d = new Door();
            doors.add(d);
            world.spawn(EntityKey.of("door" + k), DOOR.trait(d));
        }
        return doors;
    }

    /** Requests from a seed per step and door (so every world sees the same), then a step. */
    private static void drive(StateWorld world, List<Door> doors, int step) {
        for (int k = 0; k < doors.size(); k++) {
            SplittableRandom r = new SplittableRandom(step * 1000L + k);
            if (r.nextInt(25) == 0) {
                doors.get(k).open = !doors.get(k).open;
            }
        }
        world.step(DT);
    }

    private static List<Entity> entities(Query q) {
        List<Entity> out = new ArrayList<>();
        q.forEach(out::add);
        return out;
    }
}

package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.Event;
import dev.enginestates.Fixtures;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.UnknownEventException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * send and read (003 document, "Moving it and reading it"): "A system, a component or a test
 * moves a machine with send and reads it with read. Each takes the world or an entity."
 */
class SendReadTest {
    static final class Patrol {
        int pings;
    }

    static final class SiegeCtx {
        int wave;
        int held;
        int pings;
    }

    static final class Armed {
    }

    static final States<Patrol> GUARD = States.define("guard", Patrol::new, Fixtures.<Patrol>guard()
            .patrol(p -> p.on("PING", t -> t.action((c, e) -> c.pings++))));

    // The siege, with guards reading the event's wave and actions writing the context.
    static final States<SiegeCtx> SIEGE = States.define("siege", SiegeCtx::new, m -> m
            .initial("waiting")
            .state("waiting", s -> s.on("START", "fight"))
            .state("fight", s -> s
                    .on("WAVE_HELD", t -> t.guard((c, e) -> e.has("wave") && e.number("wave") >= 3).target("breather")
                            .action((c, e) -> c.wave = (int) e.number("wave")))
                    .on("WAVE_HELD", t -> t.guard((c, e) -> c.held > 100).target("over"))
                    .on("ALL_DOWN", "over"))
            .state("breather", s -> s
                    .waitFor(12, "fight")
                    .on("PING", t -> t.action((c, e) -> c.pings++)))
            .state("over"));

    static final States<Armed> ARMED = States.define("armed", Armed::new, Fixtures.armed());

    static final States<Armed> DEEP = States.define("deep", Armed::new, m -> m
            .initial("a")
            .state("a", a -> a.state("b", b -> b.state("c").state("d")))
            .state("e", e -> e.parallel().state("f").state("g", g -> g.state("h"))));

    // ------------------------------------------------------------------ send

    @Test
    void sendMovesTheMachineAndItsTagsNowWithoutAStep() {
        // "The tags follow the record: a send, a wait and a when move them as they move it".
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            assertTrue(GUARD.send(g, "BELL"));
            assertEquals(0, world.steps());
            assertEquals("answer", GUARD.read(g).value());
            assertTrue(g.has(GUARD.is("answer")));
            assertFalse(g.has(GUARD.is("patrol")));
            assertFalse(g.has(GUARD.is("patrol.watch")));
            assertEquals(List.of(g), world.query(GUARD.is("answer")).list());
            assertTrue(GUARD.send(g, "RESTART"));
            assertTrue(g.has(GUARD.is("patrol")));
            assertTrue(g.has(GUARD.is("patrol.watch")));
            assertFalse(g.has(GUARD.is("answer")));
        }
    }

    @Test
    void sendReturnsTrueWhenAStateTakesTheEvent() {
        // "Siege.send(world, "WAVE_HELD"); // true: a state took it"
        try (StateWorld world = StateWorld.create()) {
            world.add(SIEGE);
            assertTrue(SIEGE.send(world, "START"));
            assertTrue(SIEGE.send(world, Event.of("WAVE_HELD", Map.of("wave", 3))));
            assertEquals("breather", SIEGE.read(world).value());
        }
    }

    @Test
    void actionOnlyTransitionCountsAsTakenAndMovesNowhere() {
        // "send returns whether a state took the event, including a transition that runs an
        // action and moves nowhere."
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            world.step(1.0);
            assertTrue(GUARD.send(g, "PING"));
            assertEquals(1, GUARD.read(g).context().pings);
            assertEquals(Map.of("patrol", "watch"), GUARD.read(g).value());
            assertTrue(g.has(GUARD.is("patrol.watch")));
            assertEquals(3.0, GUARD.read(g).secondsLeft(), 1e-9, "a targetless transition exits nothing, so the wait runs on");
            assertTrue(GUARD.send(g, "PING"));
            assertEquals(2, GUARD.read(g).context().pings);
        }
    }

    @Test
    void actionOnlyTransitionLeavesAWaitRunning() {
        try (StateWorld world = StateWorld.create()) {
            world.add(SIEGE);
            SIEGE.send(world, "START");
            SIEGE.send(world, Event.of("WAVE_HELD", Map.of("wave", 3)));
            for (int i = 0; i < 120; i++) {
                world.step(1.0 / 60);
            }
            assertTrue(SIEGE.send(world, "PING"));
            assertEquals(1, SIEGE.read(world).context().pings);
            assertEquals(10.0, SIEGE.read(world).secondsLeft(), 1e-9);
        }
    }

    @Test
    void eventWhoseGuardsAllRefuseReturnsFalseAndChangesNothing() {
        // "A state that names no such event, or whose guards all refuse it, leaves the machine
        // as it was, and send returns false."
        try (StateWorld world = StateWorld.create()) {
            StateRecord<SiegeCtx> r = world.add(SIEGE);
            SIEGE.send(world, "START");
            assertFalse(SIEGE.send(world, Event.of("WAVE_HELD", Map.of("wave", 1))));
            assertFalse(SIEGE.send(world, "WAVE_HELD"), "no wave field: the first guard refuses, the second too");
            assertEquals("fight", r.value());
            assertTrue(world.entity().has(SIEGE.is("fight")));
            assertFalse(world.entity().has(SIEGE.is("breather")));
            assertFalse(world.entity().has(SIEGE.is("over")));
            assertEquals(0, r.context().wave, "the refused transition's action did not run");
            assertEquals(0, r.context().pings);
        }
    }

    @Test
    void eventThatOnlyAnotherStateNamesReturnsFalseAndChangesNothing() {
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            world.step(1.0);
            assertFalse(GUARD.send(g, "RESUME"), "patrol.watch names no RESUME; only answer does");
            assertFalse(GUARD.send(g, "RESTART"));
            assertEquals(Map.of("patrol", "watch"), GUARD.read(g).value());
            assertTrue(g.has(GUARD.is("patrol.watch")));
            assertFalse(g.has(GUARD.is("answer")));
            assertEquals(3.0, GUARD.read(g).secondsLeft(), 1e-9);
        }
    }

    @Test
    void eventNoStateNamesIsAnErrorListingTheKnownEventsAndChangesNothing() {
        // "Sending an event that no state names, such as Siege.send(world, "HALT"), is a type error"
        try (StateWorld world = StateWorld.create()) {
            StateRecord<SiegeCtx> r = world.add(SIEGE);
            SIEGE.send(world, "START");
            UnknownEventException e = assertThrows(UnknownEventException.class, () -> SIEGE.send(world, "HALT"));
            assertEquals("siege", e.machineId());
            assertEquals("HALT", e.eventType());
            assertTrue(e.knownEvents().containsAll(List.of("START", "WAVE_HELD", "ALL_DOWN", "PING")), e.knownEvents().toString());
            assertEquals(4, e.knownEvents().size(), e.knownEvents().toString());
            for (String part : List.of("siege", "HALT", "START", "WAVE_HELD", "ALL_DOWN", "PING")) {
                assertTrue(e.getMessage().contains(part), "message lacks " + part + ": " + e.getMessage());
            }
            assertThrows(UnknownEventException.class, () -> SIEGE.send(world, Event.of("HALT", Map.of("wave", 3))));
            assertEquals("fight", r.value());
            assertTrue(world.entity().has(SIEGE.is("fight")));
            assertEquals(0, r.context().wave);
        }
    }

    @Test
    void eventFieldsReachTheGuardsThatReadThem() {
        // "An event carries fields as XState's do: Siege.send(world, { type: "WAVE_HELD", wave: 3 }),
        // which a guard reads from event."
        try (StateWorld world = StateWorld.create()) {
            StateRecord<SiegeCtx> r = world.add(SIEGE);
            SIEGE.send(world, "START");
            assertFalse(SIEGE.send(world, Event.of("WAVE_HELD", Map.of("wave", 2))));
            assertEquals("fight", r.value());
            assertTrue(SIEGE.send(world, Event.of("WAVE_HELD", Map.of("wave", 3))));
            assertEquals("breather", r.value());
            assertEquals(3, r.context().wave, "the action read the field too");
            assertTrue(world.entity().has(SIEGE.is("breather")));
        }
    }

    @Test
    void secondGuardedCandidateIsTakenWhenTheFirstRefuses() {
        try (StateWorld world = StateWorld.create()) {
            StateRecord<SiegeCtx> r = world.add(SIEGE);
            SIEGE.send(world, "START");
            r.context().held = 101;
            assertTrue(SIEGE.send(world, Event.of("WAVE_HELD", Map.of("wave", 1))));
            assertEquals("over", r.value());
        }
    }

    // ------------------------------------------------------------------ read

    @Test
    void readGivesAnAtomicTopStateAsItsName() {
        try (StateWorld world = StateWorld.create()) {
            world.add(SIEGE);
            Object v = SIEGE.read(world).value();
            assertInstanceOf(String.class, v);
            assertEquals("waiting", v);
        }
    }

    @Test
    void readGivesACompoundStateAsNestedMaps() {
        // "state: the state it is in, as XState writes a value, such as "breather" or { patrol: "watch" }."
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            assertEquals(Map.of("patrol", "watch"), GUARD.read(g).value());
            for (int i = 0; i < 4; i++) {
                world.step(1.0);
            }
            assertEquals(Map.of("patrol", "rest"), GUARD.read(g).value());
            GUARD.send(g, "BELL");
            assertEquals("answer", GUARD.read(g).value());

            Entity d = world.spawn(DEEP.trait());
            assertEquals(Map.of("a", Map.of("b", "c")), DEEP.read(d).value());
        }
    }

    @Test
    void readGivesAParallelStateAsOneEntryPerRegion() {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(ARMED.trait());
            assertEquals(Map.of("armed", Map.of("weapon", "ready", "move", "walk")), ARMED.read(e).value());
            ARMED.send(e, "FIRE");
            ARMED.send(e, "RUN");
            assertEquals(Map.of("armed", Map.of("weapon", "cooldown", "move", "run")), ARMED.read(e).value());
            // XState writes an atomic region of a parallel state as an empty object
            Entity d = world.spawn(DEEP.trait().setState("e"));
            assertEquals(Map.of("e", Map.of("f", Map.of(), "g", "h")), DEEP.read(d).value());
        }
    }

    @Test
    void readGivesTheSecondsLeftInTheWait() {
        // "Siege.read(world).secondsLeft; // 12, the seconds its wait has left"
        try (StateWorld world = StateWorld.create()) {
            world.add(SIEGE);
            assertEquals(0.0, SIEGE.read(world).secondsLeft(), "no wait counts in waiting");
            SIEGE.send(world, "START");
            SIEGE.send(world, Event.of("WAVE_HELD", Map.of("wave", 3)));
            assertEquals(12.0, SIEGE.read(world).secondsLeft(), 1e-12);
            world.step(0.5);
            assertEquals(11.5, SIEGE.read(world).secondsLeft(), 1e-12);
            assertEquals(0.5, SIEGE.read(world).waited(), 1e-12);
            assertEquals("breather", SIEGE.read(world).waitingIn());
            world.step(11.5);
            assertEquals("fight", SIEGE.read(world).value());
            assertEquals(0.0, SIEGE.read(world).secondsLeft());
        }
    }

    @Test
    void readMatchesAStatePathAndItsAncestors() {
        // "Siege.read(world).matches("breather"); // true"
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            StateRecord<Patrol> r = GUARD.read(g);
            assertTrue(r.matches("patrol"));
            assertTrue(r.matches("patrol.watch"));
            assertFalse(r.matches("patrol.rest"));
            assertFalse(r.matches("answer"));
            // issue 12: a path that names no state is an error with the closest path, never a quiet false
            assertTrue(assertThrows(MachineException.class, () -> r.matches("no.such.state")).getMessage()
                    .startsWith("machine 'guard' has no state 'no.such.state' to match"));
            assertTrue(assertThrows(MachineException.class, () -> r.matches("patrol.wach")).getMessage()
                    .endsWith("; did you mean 'patrol.watch'?"));
            Entity a = world.spawn(ARMED.trait());
            ARMED.send(a, "FIRE");
            assertTrue(ARMED.read(a).matches("armed.weapon.cooldown"));
            assertTrue(ARMED.read(a).matches("armed.move.walk"));
            assertFalse(ARMED.read(a).matches("armed.weapon.ready"));
        }
    }

    @Test
    void readGivesTheContext() {
        // "Its context fields sit on its trait beside the state, so a system reads and writes
        // them as it writes any trait".
        try (StateWorld world = StateWorld.create()) {
            Patrol ctx = new Patrol();
            Entity g = world.spawn(GUARD.trait(ctx));
            assertSame(ctx, GUARD.read(g).context());
            GUARD.read(g).context().pings = 41;
            GUARD.send(g, "PING");
            assertEquals(42, ctx.pings);
        }
    }

    @Test
    void readOfAnEntityWithoutTheMachineIsAnErrorNamingIt() {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(SIEGE.trait());
            MachineException ex = assertThrows(MachineException.class, () -> GUARD.read(e));
            assertEquals("guard", ex.machineId());
            assertTrue(ex.getMessage().contains("guard"), ex.getMessage());
        }
    }
}

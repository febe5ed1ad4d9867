package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Fixtures;
import dev.enginestates.declare.MachineException;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue "Components": a machine is a record component type of its own plus one tag component
 * type per state (003 document, "Its states as tags": "Each state is a tag trait,
 * Machine.is.<state>, and a state inside another is its parent's tag's key").
 */
class ComponentsTest {
    static final class Patrol {
        int entries;
        int bells;
    }

    static final class SiegeCtx {
        int wave;

        SiegeCtx() {
        }

        SiegeCtx(int wave) {
            this.wave = wave;
        }
    }

    static final class Armed {
    }

    static final class Npc {
    }

    // The 003 document's guard, with an entry counter on the watch.
    static final States<Patrol> GUARD = States.define("guard", Patrol::new, Fixtures.<Patrol>guard()
            .watch(s -> s.entry((c, e) -> c.entries++))
            .bell(t -> t.action((c, e) -> c.bells++)));

    // A second machine with the very same config: it must still get classes of its own.
    static final States<Patrol> GUARD_TWIN = States.define("guard", Patrol::new, Fixtures.guard());

    // The 003 document's siege.
    static final States<SiegeCtx> SIEGE = States.define("siege", SiegeCtx::new, Fixtures.siege());

    // A parallel state: a weapon region and a movement region.
    static final States<Armed> ARMED = States.define("armed", Armed::new, Fixtures.<Armed>armed(run -> run.on("STOP", "walk")));

    // "A machine that many kinds of entity each declare their own of, such as an NPC's
    // routines, declares tags: false: its is is empty, it writes its record alone, and its
    // systems read the state with read."
    static final States<Npc> ROUTINE = States.define("routine", Npc::new, m -> m
            .tags(false)
            .initial("idle")
            .state("idle", s -> s.on("GO", "walk"))
            .state("walk", w -> w.initial("left").state("left", s -> s.on("TURN", "right")).state("right")));

    // ------------------------------------------------------------------ classes

    @Test
    void eachMachineHasARecordClassOfItsOwn() {
        // DESIGN "The ECS shape": "A machine definition produces a record component type of its own".
        assertNotEquals(GUARD.recordType(), GUARD_TWIN.recordType(), "two machines, even with one config, need two record classes");
        assertNotEquals(GUARD.recordType(), SIEGE.recordType());
        assertTrue(StateRecord.class.isAssignableFrom(GUARD.recordType()));
        assertSame(GUARD.recordType(), GUARD.trait().getClass(), "trait() makes an instance of the machine's record class");
        assertSame(SIEGE.recordType(), SIEGE.trait().getClass());
        assertSame(GUARD.recordType(), GUARD.trait().getClass(), "every record of one machine shares its class");
    }

    @Test
    void eachStateHasATagClassOfItsOwn() {
        // "Each state is a tag trait, Machine.is.<state>": one distinct class per state.
        List<Class<? extends StateTag>> tags = GUARD.tagTypes();
        assertEquals(4, tags.size(), "patrol, patrol.watch, patrol.rest, answer (a history node is no state one is in)");
        Set<Class<?>> distinct = new HashSet<>(tags);
        assertEquals(tags.size(), distinct.size(), "each state's tag class is distinct");
        for (String path : List.of("patrol", "patrol.watch", "patrol.rest", "answer")) {
            Class<? extends StateTag> tag = GUARD.is(path);
            assertTrue(distinct.contains(tag), path);
            assertTrue(StateTag.class.isAssignableFrom(tag));
            assertNotEquals(GUARD.recordType(), tag);
        }
        assertNotEquals(GUARD.is("patrol"), GUARD.is("patrol.watch"));
        assertNotEquals(GUARD.is("patrol.watch"), GUARD.is("patrol.rest"));
        assertSame(GUARD.is("answer"), GUARD.is("answer"), "is(path) always gives the same class");
    }

    @Test
    void twoMachinesNeverShareATagClass() {
        Set<Class<?>> guard = new HashSet<>(GUARD.tagTypes());
        for (Class<?> t : GUARD_TWIN.tagTypes()) {
            assertFalse(guard.contains(t), "the twin machine's tag " + t + " is one of the guard's");
        }
        assertNotEquals(GUARD.is("patrol.watch"), GUARD_TWIN.is("patrol.watch"));
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            Entity twin = world.spawn(GUARD_TWIN.trait());
            assertTrue(GUARD_TWIN.send(twin, "BELL"));
            assertEquals(List.of(g), world.query(GUARD.is("patrol")).list(), "the twin's move leaves the guard's query alone");
            assertEquals(List.of(twin), world.query(GUARD_TWIN.is("answer")).list());
            assertTrue(world.query(GUARD.is("answer")).isEmpty());
        }
    }

    @Test
    void tagNamesItselfAsMachineIdDotStatePath() {
        // "The dump names each tag <id>.<state>, such as "guard.patrol.watch": true."
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            StateTag watch = g.get(GUARD.is("patrol.watch"));
            assertEquals("guard.patrol.watch", watch.toString());
            assertEquals("guard", watch.machineId());
            assertEquals("patrol.watch", watch.path());
            assertEquals("guard.patrol", g.get(GUARD.is("patrol")).toString());
        }
    }

    @Test
    void isOfAStateThatDoesNotExistIsRefusedListingTheStates() {
        MachineException e = assertThrows(MachineException.class, () -> GUARD.is("patrol.sleep"));
        assertEquals("guard", e.machineId());
        assertTrue(e.getMessage().contains("patrol.sleep"), e.getMessage());
        assertTrue(e.getMessage().contains("patrol.watch"), e.getMessage());
        assertTrue(e.getMessage().contains("answer"), e.getMessage());
    }

    // ------------------------------------------------------------------ trait()

    @Test
    void traitStartsInTheInitialStateWithAFreshContextEachTime() {
        StateRecord<Patrol> a = GUARD.trait();
        StateRecord<Patrol> b = GUARD.trait();
        assertNotSame(a, b);
        assertNotSame(a.context(), b.context(), "each trait() has a context of its own");
        assertEquals(Map.of("patrol", "watch"), a.value());
        assertEquals(Map.of("patrol", "watch"), b.value());
        assertTrue(a.matches("patrol.watch"));
        a.context().bells = 7;
        assertEquals(0, b.context().bells, "changing one record's context leaves another's alone");
        assertEquals(0, GUARD.trait().context().bells, "a later trait() starts from the machine's context again");
        assertEquals("waiting", SIEGE.trait().value());
        assertEquals(0, SIEGE.trait().context().wave);
    }

    @Test
    void initialStateEntryActionsDoNotRunWhenTheTraitIsAdded() {
        // "A machine starts in its initial state as its trait is added, so that state's entry
        // actions run the first time a transition enters it."
        try (StateWorld world = StateWorld.create()) {
            StateRecord<Patrol> r = GUARD.trait();
            assertEquals(0, r.context().entries);
            Entity g = world.spawn(r);
            assertEquals(0, GUARD.read(g).context().entries, "spawning ran no entry action");
            assertTrue(GUARD.send(g, "BELL"));
            assertTrue(GUARD.send(g, "RESTART"));
            assertEquals(1, GUARD.read(g).context().entries, "the first transition into watch runs its entry");
        }
    }

    @Test
    void traitWithAContextUsesTheCallersContext() {
        // "Pass the trait fields to start it with another context, as in Siege.trait({ wave: 3 })."
        SiegeCtx mine = new SiegeCtx(3);
        StateRecord<SiegeCtx> r = SIEGE.trait(mine);
        assertSame(mine, r.context());
        assertEquals("waiting", r.value(), "trait(ctx) still starts in the initial state");
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(r);
            assertSame(mine, SIEGE.read(e).context());
            assertEquals(3, SIEGE.read(e).context().wave);
        }
    }

    // ------------------------------------------------------------------ several machines

    @Test
    void anEntityHoldsSeveralMachinesAndASendMovesOnlyOne() {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(GUARD.trait(), SIEGE.trait());
            assertTrue(e.has(GUARD.recordType()));
            assertTrue(e.has(SIEGE.recordType()));
            assertTrue(e.has(GUARD.is("patrol.watch")));
            assertTrue(e.has(SIEGE.is("waiting")));

            assertTrue(SIEGE.send(e, "START"));

            assertEquals("fight", SIEGE.read(e).value());
            assertTrue(e.has(SIEGE.is("fight")));
            assertFalse(e.has(SIEGE.is("waiting")));
            assertEquals(Map.of("patrol", "watch"), GUARD.read(e).value(), "the guard on the same entity did not move");
            assertTrue(e.has(GUARD.is("patrol")));
            assertTrue(e.has(GUARD.is("patrol.watch")));
            assertEquals(4.0, GUARD.read(e).secondsLeft(), 1e-12);
            assertEquals(0, GUARD.read(e).context().bells);
        }
    }

    // ------------------------------------------------------------------ compound and parallel tags

    @Test
    void compoundTagStaysWhileChildrenChange() {
        // "a parent's tag stays while its child's changes".
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            for (int i = 0; i < 240; i++) {
                world.step(1.0 / 60);
                assertTrue(g.has(GUARD.is("patrol")), "patrol tag lost at step " + (i + 1));
            }
            assertTrue(GUARD.read(g).matches("patrol.rest"), GUARD.read(g).toString());
            assertTrue(g.has(GUARD.is("patrol.rest")));
            assertFalse(g.has(GUARD.is("patrol.watch")));
            assertTrue(g.has(GUARD.is("patrol")), "the compound tag stays through watch -> rest");
            assertEquals(List.of(g), world.query(GUARD.is("patrol")).list());
            assertEquals(List.of(g), world.dominion().findEntitiesWith(GUARD.is("patrol")).stream().map(r -> r.entity()).toList());
        }
    }

    @Test
    void parallelRegionsEachHoldTheirTags() {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(ARMED.trait());
            for (String p : List.of("armed", "armed.weapon", "armed.weapon.ready", "armed.move", "armed.move.walk")) {
                assertTrue(e.has(ARMED.is(p)), p);
            }
            assertFalse(e.has(ARMED.is("armed.weapon.cooldown")));
            assertFalse(e.has(ARMED.is("armed.move.run")));

            assertTrue(ARMED.send(e, "FIRE"));
            assertTrue(e.has(ARMED.is("armed.weapon.cooldown")));
            assertFalse(e.has(ARMED.is("armed.weapon.ready")));
            assertTrue(e.has(ARMED.is("armed.move.walk")), "the other region stands as it was");
            assertTrue(e.has(ARMED.is("armed")));

            assertTrue(ARMED.send(e, "RUN"));
            assertTrue(e.has(ARMED.is("armed.move.run")));
            assertFalse(e.has(ARMED.is("armed.move.walk")));
            assertTrue(e.has(ARMED.is("armed.weapon.cooldown")));

            for (int i = 0; i < 30; i++) {
                world.step(1.0 / 60);
            }
            assertTrue(e.has(ARMED.is("armed.weapon.ready")), "the weapon's wait ended: " + ARMED.read(e));
            assertFalse(e.has(ARMED.is("armed.weapon.cooldown")));
            assertTrue(e.has(ARMED.is("armed.move.run")));
            assertEquals(1, world.query(ARMED.is("armed.weapon.ready"), ARMED.is("armed.move.run")).count());
        }
    }

    // ------------------------------------------------------------------ tags(false)

    @Test
    void tagsFalseMakesNoTagsAndIsExplainsHowToRead() {
        assertTrue(ROUTINE.tagTypes().isEmpty());
        MachineException e = assertThrows(MachineException.class, () -> ROUTINE.is("walk.left"));
        assertEquals("routine", e.machineId());
        assertTrue(e.getMessage().contains("routine"), e.getMessage());
        assertTrue(e.getMessage().contains("walk.left"), e.getMessage());
        assertTrue(e.getMessage().contains("tags(false)"), e.getMessage());
        assertTrue(e.getMessage().contains("matches"), "the message says to read the record: " + e.getMessage());
    }

    @Test
    void tagsFalseMachineIsReadThroughItsRecord() {
        try (StateWorld world = StateWorld.create()) {
            Entity n = world.spawn(ROUTINE.trait(), GUARD.trait());
            assertTrue(ROUTINE.read(n).matches("idle"));
            assertTrue(ROUTINE.send(n, "GO"));
            assertTrue(ROUTINE.read(n).matches("walk"));
            assertTrue(ROUTINE.read(n).matches("walk.left"));
            assertEquals(Map.of("walk", "left"), ROUTINE.read(n).value());
            world.step(1.0 / 60);
            assertTrue(ROUTINE.send(n, "TURN"));
            assertTrue(ROUTINE.read(n).matches("walk.right"));
            assertFalse(ROUTINE.read(n).matches("walk.left"));
            // the entity's other machine still has its tags
            assertTrue(n.has(GUARD.is("patrol.watch")));
            assertEquals(1, world.records(ROUTINE).size());
        }
    }
}

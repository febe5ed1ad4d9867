package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How a world names its entities to a reader (messages, failures, the test kit, the devtools
 * page), how it finds one by key, and the one word for recording its inputs.
 */
class EntityNamesTest {
    static final class Guard {
    }

    static final States<Guard> GUARD = States.define("guard", Guard::new, m -> m
            .initial("watch")
            .state("watch", s -> s
                    .on("TRIP", t -> t.target("alarm").action((c, e) -> {
                        throw new IllegalStateException("the alarm's wire is cut");
                    }))
                    .waitFor(1.0, "rounds"))
            .state("rounds", s -> s.entry((c, e) -> {
                throw new IllegalStateException("the guard's lamp is out");
            }))
            .state("alarm"));

    static final States<Guard> DOOR = States.define("door", Guard::new, m -> m.initial("shut").state("shut"));

    @Test
    void aFailureOnAnEntityWithoutAKeyNamesItByItsMachineAndNumberNeverByDominionsForm() {
        try (StateWorld world = StateWorld.create()) {
            Entity first = world.spawn(GUARD.trait());
            Entity second = world.spawn(GUARD.trait());
            RuntimeException sent = assertThrows(RuntimeException.class, () -> GUARD.send(second, "TRIP"));
            assertTrue(sent.getMessage().contains("entity 'guard#1'"), "the first guard the world names: " + sent.getMessage());
            assertFalse(sent.getMessage().contains("id=|"), sent.getMessage());
            assertFalse(second.has(GUARD.is("watch")), "its failed move left the watch: " + GUARD.read(second));

            List<MachineFailure> failures = new ArrayList<>();
            world.onFailure(failures::add);
            world.step(1.0); // the watch's wait ends on the first guard (the second left the watch when it failed)
            assertTrue(first.has(GUARD.is("rounds")), "the first guard failed entering its rounds");
            assertEquals(1, failures.size(), failures.toString());
            String line = failures.get(0).describe();
            assertTrue(line.contains("on entity 'guard#2'"), line);
            assertFalse(line.contains("id=|"), line);
            assertEquals("guard#1", StateWorld.nameOf(second), "a name once given is kept");
            assertEquals("guard#2", StateWorld.nameOf(first));
        }
    }

    @Test
    void anUnkeyedEntitysNumberCountsItsMachinesRecordsAsTheWorldNamesThemAndIsNeverGivenAgain() {
        try (StateWorld world = StateWorld.create()) {
            Entity first = world.spawn(GUARD.trait());
            Entity second = world.spawn(GUARD.trait());
            assertEquals("guard#1", StateWorld.nameOf(first));
            world.despawn(first);
            Entity third = world.spawn(GUARD.trait());
            assertEquals("guard#2", StateWorld.nameOf(second));
            assertEquals("guard#3", StateWorld.nameOf(third), "guard#1 is not given again after its entity is gone");
            world.detach(second, GUARD);
            world.attach(second, GUARD.trait());
            assertEquals("guard#4", StateWorld.nameOf(second), "a record that left the world and came back is named anew");
            assertNull(StateWorld.nameOf(first), "a deleted entity has no name");
            assertEquals("world", StateWorld.nameOf(world.entity()));
            assertEquals("guard-7", StateWorld.nameOf(world.spawn(EntityKey.of("guard-7"), GUARD.trait())));
        }
    }

    @Test
    void anUnkeyedEntityIsNamedByTheMachineDeclaredFirstThatItHolds() {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(DOOR.trait(), GUARD.trait());
            String expected = GUARD.order() < DOOR.order() ? "guard#1" : "door#1";
            assertEquals(expected, StateWorld.nameOf(e));
            assertEquals("entity '" + expected + "'", StateWorld.describe(e));
        }
    }

    @Test
    void aNumberThatAGamesKeySpellsIsPassedOverSoTwoEntitiesNeverShareAName() {
        try (StateWorld world = StateWorld.create()) {
            Entity unkeyed = world.spawn(GUARD.trait());
            Entity keyed = world.spawn(EntityKey.of("guard#1"), DOOR.trait());
            assertEquals("guard#1", StateWorld.nameOf(keyed));
            assertEquals("guard#2", StateWorld.nameOf(unkeyed), "the number the key spells is passed over");
            assertEquals("guard#2", StateWorld.nameOf(unkeyed), "and the name is kept");
            Entity late = world.spawn(EntityKey.of("guard#2"), DOOR.trait()); // a key given after the name
            assertEquals("guard#3", StateWorld.nameOf(unkeyed), "two live entities never answer to one name");
            assertSame(late, world.entity("guard#2"));
        }
    }

    @Test
    void anEntityIsFoundByItsKeyAsSpawnTookIt() {
        try (StateWorld world = StateWorld.create()) {
            EntityKey key = EntityKey.of("guard-7");
            Entity e = world.spawn(key, GUARD.trait());
            assertSame(e, world.entity(key));
            assertSame(e, world.entity("guard-7"));
            assertNull(world.entity(EntityKey.of("guard-8")));
            world.despawn(e);
            assertNull(world.entity(key));
            assertThrows(NullPointerException.class, () -> world.entity((EntityKey) null));
        }
    }

    @Test
    @SuppressWarnings("removal")
    void inputsAreRecordedThroughRecordInputsAndTheOldListenSetsTheSameRecorder() {
        try (StateWorld world = StateWorld.create()) {
            List<Entity> spawned = new ArrayList<>();
            WorldInputs recorder = new WorldInputs() {
                @Override
                public void spawned(Entity entity, StateRecord<?>[] records) {
                    spawned.add(entity);
                }
            };
            world.recordInputs(recorder);
            assertSame(recorder, world.inputRecorder());
            Entity e = world.spawn(GUARD.trait());
            assertEquals(List.of(e), spawned);
            world.listen(null);
            assertNull(world.inputRecorder());
            world.listen(recorder);
            assertSame(recorder, world.listener());
            assertSame(recorder, world.inputRecorder());
        }
    }
}

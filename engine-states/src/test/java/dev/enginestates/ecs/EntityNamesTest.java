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

package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.MachineBuilder;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code 003} document: "Fifty kinds of NPC, a machine each of 36 states, make 1,800 tags".
 * Dominion 0.9.0's class index could take one class for another when their identity hashes
 * shared a slot; with hundreds of tag classes that happened often (patch 0005 of
 * engine-states-dominion makes the index exact).
 * Each state's tag must be found on exactly the entities in that state.
 */
class ManyTagsTest {
    static final class Npc {
    }

    private static final int STATES = 600;

    static final States<Npc> MANY = States.define("many", Npc::new, ManyTagsTest::declare);

    private static void declare(MachineBuilder<Npc> m) {
        m.initial("s0");
        for (int i = 0; i < STATES; i++) {
            m.state("s" + i, s -> s.on("NEXT", "s0"));
        }
    }

    @Test
    void everyTagIsFoundOnExactlyTheEntityInItsStateAmongHundredsOfTagClasses() {
        try (StateWorld world = StateWorld.create()) {
            Entity[] entities = new Entity[STATES];
            for (int i = 0; i < STATES; i++) {
                entities[i] = world.spawn(MANY.trait().setState("s" + i));
            }
            for (int i = 0; i < STATES; i++) {
                Class<? extends StateTag> tag = MANY.is("s" + i);
                assertEquals(1, world.query(tag).count(), "one entity in s" + i);
                assertTrue(entities[i].has(tag));
                for (int j = 0; j < STATES; j += 7) {
                    if (j != i) {
                        assertTrue(!entities[j].has(tag), "the entity in s" + j + " does not have the tag of s" + i);
                    }
                }
            }
        }
    }
}

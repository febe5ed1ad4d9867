package dev.enginestates.samples;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.MachineException;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.samples.NpcRoutineSample.Talking;
import dev.enginestates.testing.WorldFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.enginestates.samples.NpcRoutineSample.HUNGER;
import static dev.enginestates.samples.NpcRoutineSample.ROUTINE;
import static dev.enginestates.testing.StateAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An NPC's routine held while it talks, and its other machine running on (the 003 document's heldBy). */
class NpcRoutineSampleTest {
    @RegisterExtension
    static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);

    @Test
    void talkingHoldsTheRoutineWhileHungerRunsOn() {
        Entity baker = world.spawn(EntityKey.of("baker"), ROUTINE.trait(), HUNGER.trait());
        world.advance(2);
        baker.add(new Talking("player"));
        world.advance(7);
        assertThat(world, baker).machine(ROUTINE).isIn("knead").isHeld().hasSecondsLeft(2)
                .machine(HUNGER).isIn("fed").isNotHeld().hasSecondsLeft(1);
        baker.removeType(Talking.class);
        world.advance(2);
        assertThat(world, baker).machine(ROUTINE).isIn("bake").isNotHeld().hasSecondsLeft(6)
                .machine(HUNGER).isIn("hungry");
    }

    @Test
    void anEventStillMovesAMachineOnATalkingNpc() {
        Entity baker = world.spawn(ROUTINE.trait(), new Talking("player"));
        world.startIn(baker, HUNGER, "hungry");
        world.advance(1);
        assertTrue(world.send(HUNGER, baker, "EAT"));
        assertThat(world, baker).machine(HUNGER).isIn("fed").hasContext(b -> b.meals == 1)
                .machine(ROUTINE).isHeld().hasSecondsLeft(4);
    }

    @Test
    void aHeldRoutineStartedMidBakeKeepsItsSecondsAndBakesWhenReleased() {
        Entity baker = world.spawn(new Talking("player"));
        world.startIn(baker, ROUTINE, "bake").waited(5);
        world.advance(30);
        assertThat(world, baker).machine(ROUTINE).isIn("bake").hasSecondsLeft(1).hasContext(b -> b.loaves == 0);
        baker.removeType(Talking.class);
        world.advance(1);
        assertThat(world, baker).machine(ROUTINE).isIn("sell").hasContext("a dozen loaves", b -> b.loaves == 12);
    }

    @Test
    void theRoutineHasNoTagsSoItIsReadThroughItsRecord() {
        // 003: "declares tags: false: its is is empty, it writes its record alone, and its systems read the state with read"
        Entity baker = world.spawn(ROUTINE.trait());
        assertTrue(ROUTINE.read(baker).matches("knead"));
        assertThat(world).hasCountIn(ROUTINE, "knead", 1);
        assertThrows(MachineException.class, () -> ROUTINE.is("knead"));
        assertThrows(MachineException.class, () -> assertThat(world, baker).machine(ROUTINE).hasTag("knead"));
    }
}

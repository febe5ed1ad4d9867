package dev.enginestates.samples;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.samples.DoorSample.Blocked;
import dev.enginestates.testing.WorldFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.enginestates.samples.DoorSample.DOOR;
import static dev.enginestates.testing.StateAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The door opening and closing over time (the 002 document's door, as an ECS machine). */
class DoorSampleTest {
    @RegisterExtension
    static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);

    @Test
    void itOpensIn075SecondsStaysOpenThreeAndClosesIn075() {
        Entity door = world.spawn(EntityKey.of("door"), DOOR.trait());
        world.send(DOOR, door, "OPEN");
        world.advance(0.5);
        assertThat(world, door).machine(DOOR).isIn("opening").hasSecondsLeft(0.25);
        assertEquals(2.0 / 3, DoorSample.progress(DOOR.read(door)), 1e-9, "the 002 document's Progress");
        world.advance(0.25);
        assertThat(world, door).machine(DOOR).isIn("open").hasTag("open").hasContext(d -> d.opened == 1);
        world.advance(3);
        assertThat(world, door).machine(DOOR).isIn("closing");
        world.advance(0.75);
        assertThat(world, door).machine(DOOR).isIn("closed").isNotWaiting();
        assertEquals(1.0, DoorSample.progress(DOOR.read(door)));
    }

    @Test
    void openWhileOpenStartsTheHoldOver() {
        Entity door = world.spawnIn(DOOR, "open").waited(2.5).entity();
        world.send(DOOR, door, "OPEN"); // reenter: the wait starts from zero
        assertThat(world, door).machine(DOOR).isIn("open").hasSecondsLeft(3);
    }

    @Test
    void somethingInTheDoorwayReopensAClosingDoor() {
        // a when rule reading the door's own components through its holder
        Entity door = world.spawn(EntityKey.of("door"));
        world.startIn(door, DOOR, "closing").waited(0.25);
        door.add(new Blocked());
        world.advanceSteps(1);
        assertThat(world, door).machine(DOOR).isIn("opening").hasSecondsLeft(0.75 - 1.0 / 60);
        door.removeType(Blocked.class);
        world.advance(0.75 - 1.0 / 60);
        assertThat(world, door).machine(DOOR).isIn("open");
    }

    @Test
    void closeDuringOpeningTurnsItBack() {
        Entity door = world.spawnIn(DOOR, "opening").waited(0.5).entity();
        world.script().send(DOOR, door, "CLOSE").taken().send(DOOR, door, "CLOSE").refused().advance(0.75).run();
        assertThat(world, door).machine(DOOR).isIn("closed").hasContext("never fully open", d -> d.opened == 0);
    }
}

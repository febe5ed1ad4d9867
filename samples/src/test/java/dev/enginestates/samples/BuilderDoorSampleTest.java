package dev.enginestates.samples;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.fsm.StateMachine;
import dev.enginestates.samples.BuilderDoorSample.DoorStateContext;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.enginestates.samples.BuilderDoorSample.DOOR;
import static dev.enginestates.samples.BuilderDoorSample.DOORS;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The 002 document's annotated door: on its own with 0.25 s ticks, and on entities at 60 Hz, counted by tag. */
class BuilderDoorSampleTest {
    @Test
    void theStateBehaviorNamesTheMachineAndItsStatesAreTheAnnotatedOnes() {
        assertEquals("door", DOOR.id());
        assertEquals(List.of("Closed", "Closing", "Open", "Opening"), DOOR.states(), "annotated states are numbered in name order");
        assertEquals("Closed", DOOR.initialState());
    }

    @Test
    void withQuarterSecondTicksTheDoorOpensOnTheThirdTickOfOpening() {
        StateMachine<DoorStateContext> fsm = new StateMachine<>(DOOR);
        DoorStateContext ctx = new DoorStateContext();
        fsm.initialize(ctx);
        fsm.update(ctx, 0.25f);
        assertEquals("Closed", fsm.state(), "nobody asked");
        ctx.openRequested = true;
        fsm.update(ctx, 0.25f);
        assertEquals("Opening", fsm.state());
        assertEquals(0f, ctx.timeInState(), "the tick that left Closed does not count toward Opening");
        List<String> trace = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            fsm.update(ctx, 0.25f);
            trace.add(fsm.state() + " " + ctx.progress());
        }
        assertEquals(List.of("Opening 0.33333334", "Opening 0.6666667", "Open 0.0"), trace);
        ctx.openRequested = false;
        ctx.closeRequested = true;
        fsm.update(ctx, 0.25f);
        assertEquals("Closing", fsm.state());
        assertEquals("Open", fsm.previous());
    }

    @Test
    void atSixtyHertzASwingTakes46TicksOnAnEntity() {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(EntityKey.of("north"), DOORS.trait());
            StateRecord<DoorStateContext> door = DOORS.read(e);
            BuilderDoorSample.requestOpen(door);
            world.step(1.0 / 60);
            assertEquals("Opening", door.state());
            int ticks = 0;
            while (door.state().equals("Opening")) {
                world.step(1.0 / 60);
                ticks++;
            }
            assertEquals(46, ticks, "45 x 1/60f = 0.74999994f: progress reaches 1 on the 46th tick");
            assertEquals(0.74999994f, BuilderDoorSample.fortyFiveTicks());
            assertEquals("Open", door.state());
            assertEquals("Opening", door.previous());
        }
    }

    @Test
    void theHallCountsItsDoorsByTag() {
        try (StateWorld world = StateWorld.create()) {
            List<Entity> doors = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                doors.add(world.spawn(DOORS.trait()));
            }
            assertEquals(3, world.query(DOORS.is("Closed")).count());
            BuilderDoorSample.requestOpen(DOORS.read(doors.get(0)));
            BuilderDoorSample.requestOpen(DOORS.read(doors.get(1)));
            world.step(1.0 / 60);
            assertEquals(2, BuilderDoorSample.moving(world));
            assertEquals(List.of(doors.get(2)), world.query(DOORS.is("Closed")).list());
            for (int i = 0; i < 46; i++) {
                world.step(1.0 / 60);
            }
            assertEquals(2, world.query(DOORS.is("Open")).count());
            assertEquals(0, BuilderDoorSample.moving(world));
            assertEquals(doors.get(0), DOORS.read(doors.get(0)).context().entity(), "the context knows its entity");
        }
    }
}

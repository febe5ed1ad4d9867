package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Machine;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A state's time counts from its own entry, whichever clock the record was on when it entered:
 * a record made outside a world counts from 0 on a clock of its own, and its entry times move
 * onto the world's clock when it joins (as its wait's start does, DESIGN.md's "derive waited
 * from the clock"), back when it leaves, and with the clock when a restore sets it.
 */
class EntryTimesFollowTheClockTest {
    static final double DT = 1 / 60.0;

    static final States<Object> PATROL = States.of(Machine.define("entry-times", () -> null, m -> m
            .initial("walking")
            .state("walking", s -> s.on("STOP", "standing"))
            .state("standing", s -> s.on("GO", "walking"))));

    private static void steps(StateWorld world, double seconds) {
        for (int i = 0; i < Math.round(seconds / DT); i++) {
            world.step(DT);
        }
    }

    @Test
    void aMachineSpawnedLateCountsItsTimeFromItsSpawn() {
        try (StateWorld world = StateWorld.create()) {
            steps(world, 5);
            Entity e = world.spawn(PATROL.trait());
            steps(world, 1);
            assertEquals(1.0, PATROL.read(e).timeIn("walking"), 1e-9, "spawned at 5 s, one second ago");
        }
    }

    @Test
    void aRecordMovedToAnotherWorldKeepsItsSecondsInItsState() {
        try (StateWorld first = StateWorld.create(); StateWorld second = StateWorld.create()) {
            steps(first, 1);
            Entity e = first.spawn(PATROL.trait());
            PATROL.send(e, "STOP");
            steps(first, 2);
            StateRecord<Object> r = PATROL.read(e);
            first.detach(e, PATROL);
            assertEquals(2.0, r.timeIn("standing"), 1e-9, "off any world: the seconds it had");
            steps(second, 7);
            Entity there = second.spawn();
            second.attach(there, r);
            steps(second, 0.5);
            assertEquals(2.5, PATROL.read(there).timeIn("standing"), 1e-9, "two seconds in the first world, half a second here");
        }
    }

    @Test
    void settingTheClockKeepsEachStatesSeconds() {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(PATROL.trait());
            steps(world, 1);
            PATROL.send(e, "STOP");
            steps(world, 2);
            world.restoreClock(100, 6_000);
            assertEquals(2.0, PATROL.read(e).timeIn("standing"), 1e-9);
            steps(world, 1);
            assertEquals(3.0, PATROL.read(e).timeIn("standing"), 1e-9);
        }
    }
}

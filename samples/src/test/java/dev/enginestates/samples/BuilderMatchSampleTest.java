package dev.enginestates.samples;

import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.samples.BuilderMatchSample.Match;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.enginestates.samples.BuilderMatchSample.DT;
import static dev.enginestates.samples.BuilderMatchSample.MATCH;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The match's phases on a world whose tick is split: advance, the work, runStates. */
class BuilderMatchSampleTest {
    /** Ticks until the phase changes; returns how many. */
    private static int untilChange(StateWorld world, StateRecord<Match> phase, List<String> boards) {
        String from = phase.state();
        int ticks = 0;
        while (phase.state().equals(from) && ticks < 10_000) {
            world.advance(DT);
            boards.add(BuilderMatchSample.work(phase));
            world.runStates();
            ticks++;
        }
        return ticks;
    }

    @Test
    void theCountdownTakes181TicksAndTheWorkReadsTheAdvancedClock() {
        try (StateWorld world = StateWorld.create()) {
            StateRecord<Match> phase = world.add(MATCH);
            assertEquals("Countdown", phase.state());
            world.advance(DT);
            assertEquals(DT, phase.context().timeInState(), "advance moved the clock before the work");
            assertEquals("3", BuilderMatchSample.work(phase));
            world.runStates();
            List<String> boards = new ArrayList<>();
            assertEquals(180, untilChange(world, phase, boards), "181 with the first: 180 x 1/60f = 2.9999979f");
            assertEquals("Playing", phase.state());
            assertEquals("GO", boards.get(boards.size() - 1));
            assertEquals(List.of("3", "2", "1", "GO"), boards.stream().distinct().toList());
        }
    }

    @Test
    void aGoalScoredInTheWorkMovesThePhaseInTheSameTick() {
        try (StateWorld world = StateWorld.create()) {
            StateRecord<Match> phase = world.add(MATCH);
            phase.setState("Playing");
            world.advance(DT);
            phase.context().goalScored = true;   // the ball went in during the tick's work
            world.runStates();
            assertEquals("Goal", phase.state());
            assertEquals(1, phase.context().goals);
            assertEquals(91, untilChange(world, phase, new ArrayList<>()), "1.5 s in float: 90 x 1/60f = 1.4999989f");
            assertEquals("Countdown", phase.state());
            assertEquals("Goal", phase.previous());
        }
    }

    @Test
    void fullTimeHasNoHandlerSoItsClockStops() {
        try (StateWorld world = StateWorld.create()) {
            StateRecord<Match> phase = world.add(MATCH);
            phase.setState("Playing");
            phase.context().matchClock = BuilderMatchSample.MATCH_SECONDS;
            world.advance(DT);
            world.runStates();
            assertEquals("FullTime", phase.state());
            for (int i = 0; i < 60; i++) {
                world.advance(DT);
                world.runStates();
            }
            assertEquals(0.0, phase.time(), "a state without a handler does nothing: its time does not advance");
            assertEquals(1, world.query(MATCH.is("FullTime")).count(), "the world's own entity has the tag");
        }
    }

    @Test
    void runStatesWithoutAnAdvanceIsRefused() {
        try (StateWorld world = StateWorld.create()) {
            world.add(MATCH);
            IllegalStateException e = assertThrows(IllegalStateException.class, world::runStates);
            assertTrue(e.getMessage().contains("a split tick is advance(dt), the tick's work, then runStates()"), e.getMessage());
            world.advance(DT);
            world.runStates();
            assertThrows(IllegalStateException.class, world::runStates, "one runStates per advance");
        }
    }
}

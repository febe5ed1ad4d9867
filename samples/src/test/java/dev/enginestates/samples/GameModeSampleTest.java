package dev.enginestates.samples;

import dev.enginestates.declare.Event;
import dev.enginestates.testing.WorldFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Map;

import static dev.enginestates.samples.GameModeSample.MODE;
import static dev.enginestates.testing.StateAssertions.assertThat;

/** The game mode: warmup, a round with its countdown, game over (the 000 document's modes, the 003 round's countdown). */
class GameModeSampleTest {
    @RegisterExtension
    static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);

    private static Event score(String team) {
        return Event.of("SCORE", Map.of("team", team));
    }

    @Test
    void warmupWaitsForTwoPlayersThenTheCountdownRunsItsContextsSeconds() {
        world.add(MODE);
        world.script()
                .send(MODE, "PLAYER_JOINED").taken()
                .advance(5)
                .check(() -> assertThat(world).machine(MODE).isIn("warmup").hasContext(m -> m.players == 1))
                .send(MODE, "PLAYER_JOINED").taken()
                .advanceSteps(1) // the when rule is tested at the next step
                .run();
        // "A wait that when enters counts that step's seconds"
        assertThat(world).machine(MODE).isIn("round.countdown").hasTag("round").hasSecondsLeft(3 - 1.0 / 60);
        world.advance(3 - 1.0 / 60);
        assertThat(world).machine(MODE).isIn("round.playing").hasSecondsLeft(60);
    }

    @Test
    void theThirdGoalOfATeamWinsTheRoundAndTheModeIsOverWithAWinner() {
        world.startIn(MODE, "round.playing").context(m -> m.players = 2);
        world.script()
                .send(MODE, score("red")).taken()
                .send(MODE, score("blue")).taken()
                .send(MODE, score("red")).taken()
                .check(() -> assertThat(world).machine(MODE).isIn("round.playing").hasContext("2 to 1", m -> m.red == 2 && m.blue == 1))
                .send(MODE, score("red")).taken()
                .run();
        // won is a final state: the round is done and its onDone goes to over, whose entry names the winner
        assertThat(world).machine(MODE).isIn("over").isNotDone().hasSecondsLeft(10)
                .hasContext("red won 3 to 1", m -> "red".equals(m.winner) && m.red == 3 && m.blue == 1);
        world.advance(10 - 1.0 / 60);
        assertThat(world).machine(MODE).isIn("over");
        // the step whose end reaches the 10 s goes back to warmup, and the same step tests warmup's
        // when rule after the waits ("each step, after the waits"): two players are still in, so
        // a new round's countdown begins. It counts the seconds of the step after the machine
        // reached warmup, and the over wait ended exactly at the step's end: none
        world.advanceSteps(1);
        assertThat(world).machine(MODE).isIn("round.countdown").hasWaited(0)
                .hasContext("scores reset", m -> m.red == 0 && m.blue == 0);
    }

    @Test
    void whenTimeIsUpTheRoundEndsInADrawAndAGoalInTheCountdownIsRefused() {
        world.startIn(MODE, "round.countdown").context(m -> {
            m.players = 2;
            m.roundSeconds = 30;
        });
        world.script()
                .send(MODE, score("blue")).refused()
                .advance(3)
                .send(MODE, score("blue")).taken()
                .send(MODE, score("red")).taken()
                .advance(30)
                .run();
        assertThat(world).machine(MODE).isIn("over").hasContext("a draw", m -> "draw".equals(m.winner));
    }

    @Test
    void aPlayerLeavingIsCountedInAnyState() {
        world.startIn(MODE, "round.playing").context(m -> m.players = 3);
        world.send(MODE, "PLAYER_LEFT");
        assertThat(world).machine(MODE).isIn("round.playing").hasContext(m -> m.players == 2);
    }
}

package dev.enginestates.samples;

import dev.enginestates.plain.StateMachine;
import dev.enginestates.samples.PolledGameModeSample.Match;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.enginestates.samples.PolledGameModeSample.MODE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The polled game mode: warmup, a round with its countdown, over (the 000 document's modes). */
class PolledGameModeSampleTest {
    static final double DT = 1.0 / 60;

    private static Match match(int players) {
        Match m = new Match();
        m.players = players;
        return m;
    }

    private static void advance(StateMachine<Match> mode, double seconds) {
        for (int i = 0; i < Math.round(seconds * 60); i++) {
            mode.step(DT);
        }
    }

    @Test
    void warmupWaitsItsSecondsAndForEnoughPlayers() {
        StateMachine<Match> mode = new StateMachine<>(MODE, new Match());
        assertTrue(mode.send("join"), "the root's on, heard in every state");
        advance(mode, 20);
        assertEquals("warmup", mode.state(), "one player is not enough, however long the warmup");
        mode.send("join");
        mode.step(DT);
        assertEquals("round.countdown", mode.state());

        StateMachine<Match> early = new StateMachine<>(MODE, match(2));
        advance(early, PolledGameModeSample.WARMUP_SECONDS - 1.0 / 60);
        assertEquals("warmup", early.state());
        early.step(DT);
        assertEquals("round.countdown", early.state(), "after " + PolledGameModeSample.WARMUP_SECONDS + " s with two players");
    }

    @Test
    void aFullLobbyStartsTheRoundAtOnce() {
        StateMachine<Match> mode = StateMachine.startIn(MODE, match(3), "warmup").withTime("warmup", 1);
        mode.send("join");
        mode.step(DT);
        assertEquals("round.countdown", mode.state());
        assertEquals(List.of("round", "round.countdown"), mode.branch());
    }

    @Test
    void theCountdownRunsThreeSecondsAndGoalsCountOnlyInPlay() {
        StateMachine<Match> mode = StateMachine.startIn(MODE, match(2), "round.countdown");
        assertFalse(mode.send("goal", "red"), "no active state names goal");
        advance(mode, PolledGameModeSample.COUNTDOWN_SECONDS);
        assertEquals("round.playing", mode.state());
        assertTrue(mode.send("goal", "red"));
        assertEquals(1, mode.ctx().red);
        assertEquals(0, mode.ctx().blue);
    }

    @Test
    void aTeamAtTheScoreLimitEndsTheRoundOnTheNextStepWithAWinner() {
        Match m = match(2);
        StateMachine<Match> mode = StateMachine.startIn(MODE, m, "round.playing");
        m.red = 2;
        m.blue = 1;
        mode.send("goal", "red");
        assertEquals("round.playing", mode.state(), "the handler returns no name: the guard decides");
        mode.step(DT);
        assertEquals("over", mode.state());
        assertEquals("red", m.winner);
    }

    @Test
    void theRoundEndsWhenItsTimeIsUpAndADrawIsADraw() {
        Match m = match(2);
        StateMachine<Match> mode = StateMachine.startIn(MODE, m, "round.playing").withTime("round.playing", 29.5);
        m.red = 1;
        m.blue = 1;
        advance(mode, 0.5 - 1.0 / 60);
        assertEquals("round.playing", mode.state());
        mode.step(DT);
        assertEquals("over", mode.state());
        assertEquals("draw", m.winner);
    }

    @Test
    void tooFewPlayersSendTheRoundBackToWarmupFromEitherChild() {
        for (String child : new String[] {"round.countdown", "round.playing"}) {
            StateMachine<Match> mode = StateMachine.startIn(MODE, match(2), child);
            mode.send("leave");
            mode.step(DT);
            assertEquals("warmup", mode.state(), "from " + child);
            assertEquals(1, mode.ctx().players);
        }
    }

    @Test
    void overShowsTheResultFiveSecondsThenANewRoundStartsFromNilNil() {
        Match m = match(2);
        m.red = 3;
        StateMachine<Match> mode = StateMachine.startIn(MODE, m, "over").withTime("over", 4.9);
        advance(mode, 0.1);
        assertEquals("warmup", mode.state());
        assertEquals(3, m.red, "the result stays readable during warmup");
        advance(mode, PolledGameModeSample.WARMUP_SECONDS);
        assertEquals("round.countdown", mode.state());
        assertEquals(0, m.red, "round's enter resets the score");
    }
}

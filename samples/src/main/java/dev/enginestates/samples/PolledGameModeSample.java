package dev.enginestates.samples;

import dev.enginestates.StatesDef;
import dev.enginestates.plain.StateMachine;

import java.util.Locale;

/**
 * A game mode in the polled style, warmup then a round then game over.
 * {@link GameModeSample} is an ECS machine of the same situation.
 *
 * <pre>
 * warmup ──[full lobby, or WARMUP_SECONDS and enough players]──▶ round ──[too few players]──▶ warmup
 * round: countdown ──after COUNTDOWN_SECONDS──▶ playing ──[a team at scoreLimit]──▶ over
 *                                               playing ──after ROUND_SECONDS──▶ over
 * over ──after OVER_SECONDS──▶ warmup
 * </pre>
 *
 * <p>The fixed lengths are {@code after}; warmup's wait is a guard on {@code t} instead,
 * because an {@code after} would start a round with nobody in it. Players join and leave
 * through the root's events, heard in every state; a goal is an event only {@code playing}
 * names, so a goal in the countdown is not counted ({@code send} returns {@code false}).
 *
 * <p>Run: {@code mvn -q -pl samples exec:java -Dexec.mainClass=dev.enginestates.samples.PolledGameModeSample}
 */
public final class PolledGameModeSample {
    /** Seconds of warmup before a round may start with enough players. */
    public static final double WARMUP_SECONDS = 10;
    /** Seconds of the countdown before play. */
    public static final double COUNTDOWN_SECONDS = 3;
    /** Seconds of play before time is up. */
    public static final double ROUND_SECONDS = 30;
    /** Seconds the result is shown before the next warmup. */
    public static final double OVER_SECONDS = 5;

    private PolledGameModeSample() {
    }

    /** The mode's context: the lobby, the rules and the score. */
    public static final class Match {
        /** Players needed to play. */
        public int minPlayers = 2;
        /** A full lobby: it starts a round at once. */
        public int maxPlayers = 4;
        /** Goals that win the round. */
        public int scoreLimit = 3;
        /** Players in the room. */
        public int players;
        /** The red team's goals this round. */
        public int red;
        /** The blue team's goals this round. */
        public int blue;
        /** The last round's winner: "red", "blue", "draw", or null before the first ends. */
        public String winner;
    }

    /** The game mode table. */
    public static final StatesDef<Match> MODE = StatesDef.define("polled-mode", Match::new, d -> d
            .initial("warmup")
            .on("join", (m, args) -> {
                m.players++;
                return null;
            })
            .on("leave", (m, args) -> {
                m.players = Math.max(0, m.players - 1);
                return null;
            })
            .state("warmup", s -> s.to("round", (m, t) -> m.players >= m.maxPlayers
                    || (m.players >= m.minPlayers && t >= WARMUP_SECONDS)))
            .state("round", s -> s
                    .initial("countdown")
                    .enter((m, from) -> {
                        m.red = 0;
                        m.blue = 0;
                    })
                    .to("warmup", (m, t) -> m.players < m.minPlayers)     // leaves whichever child is active
                    .state("countdown", c -> c.after(COUNTDOWN_SECONDS, "playing"))
                    .state("playing", p -> p
                            .on("goal", (m, args) -> {
                                if ("red".equals(args[0])) {
                                    m.red++;
                                } else {
                                    m.blue++;
                                }
                                return null;                                  // the guard below ends the round
                            })
                            .to("over", (m, t) -> Math.max(m.red, m.blue) >= m.scoreLimit)
                            .after(ROUND_SECONDS, "over")))
            .state("over", s -> s
                    .enter((m, from) -> m.winner = m.red > m.blue ? "red" : m.blue > m.red ? "blue" : "draw")
                    .after(OVER_SECONDS, "warmup")));

    /**
     * Two players join and red wins on goals; two more fill the lobby, the second round runs
     * out of time, and two players leave while its result shows. Prints every change.
     */
    public static void main(String[] args) {
        double dt = 1.0 / 60;
        Match match = new Match();
        StateMachine<Match> mode = new StateMachine<>(MODE, match);
        mode.on("change", (to, from) -> System.out.printf(Locale.ROOT, "%6.2f  %-16s players %d%s%n", mode.totalTime(), to,
                match.players, to.equals("over") ? "  red " + match.red + " blue " + match.blue + ", winner " + match.winner : ""));
        System.out.printf(Locale.ROOT, "%6.2f  %-16s players %d%n", 0.0, mode.state(), match.players);
        for (int step = 0; step <= 75 * 60; step++) {
            if (step == 60 || step == 2 * 60 || step == 30 * 60 || step == 31 * 60) {
                mode.send("join");
            } else if (step == 66 * 60 || step == 67 * 60) {
                mode.send("leave");
            } else if (step == 12 * 60 || step == 17 * 60 || step == 45 * 60 || step == 50 * 60) {
                goal(mode, "blue");
            } else if (step == 15 * 60 || step == 20 * 60 || step == 24 * 60 || step == 40 * 60) {
                goal(mode, "red");
            }
            mode.step(dt);
        }
    }

    private static void goal(StateMachine<Match> mode, String team) {
        boolean counted = mode.send("goal", team);
        System.out.printf(Locale.ROOT, "%6.2f    goal %-4s  %s%n", mode.totalTime(), team,
                counted ? "red " + mode.ctx().red + " blue " + mode.ctx().blue : "not counted in " + mode.state());
    }
}

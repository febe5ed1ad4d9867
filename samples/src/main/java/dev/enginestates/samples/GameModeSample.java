package dev.enginestates.samples;

import dev.enginestates.declare.Event;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;

import java.util.Locale;
import java.util.Map;

/**
 * A game mode, warmup then a round then game over, with a round whose countdown lasts seconds
 * read from the context and the match phases countdown, playing and a goal. It is the world's
 * own machine.
 *
 * <pre>
 * warmup ──when players &gt;= minPlayers──▶ round ──(done)──▶ over ──wait 10 s / reset──▶ warmup
 *                                         countdown ──wait countdown s──▶ playing
 *                                         playing ──SCORE [reaches scoreLimit]──▶ won (final)
 *                                         playing ──SCORE / count it (no move)
 *                                         playing ──wait roundSeconds──▶ timeUp (final)
 * </pre>
 *
 * <p>Shows: a {@code when} rule on the context, waits whose seconds come from the context, an
 * event with a field a guard reads ({@code {type: "SCORE", team: "red"}}), a guarded list (the
 * first enabled wins) ending in a targetless transition that only acts, final states and
 * {@code onDone}.
 *
 * <p>Run: {@code mvn -q -pl samples exec:java -Dexec.mainClass=dev.enginestates.samples.GameModeSample}
 */
public final class GameModeSample {
    private GameModeSample() {
    }

    /** The mode's context: the rules and the score. */
    public static final class Match {
        /** Players needed to leave warmup. */
        public int minPlayers = 2;
        /** Seconds of the countdown before play. */
        public double countdown = 3;
        /** Seconds of play before time is up. */
        public double roundSeconds = 60;
        /** Goals that win the round. */
        public int scoreLimit = 3;
        /** Players in the room. */
        public int players;
        /** The red team's goals. */
        public int red;
        /** The blue team's goals. */
        public int blue;
        /** The last round's winner: "red", "blue", "draw", or null before the first ends. */
        public String winner;

        /** Goals of a team. */
        public int goals(Object team) {
            return "red".equals(team) ? red : blue;
        }
    }

    /** The game mode machine. */
    public static final States<Match> MODE = States.define("mode", Match::new, m -> m
            .initial("warmup")
            .state("warmup", s -> s
                    .on("PLAYER_JOINED", t -> t.action((c, e) -> c.players++))
                    .when(c -> c.players >= c.minPlayers, "round"))
            .state("round", r -> r
                    .initial("countdown")
                    .state("countdown", s -> s.waitFor(c -> c.countdown, "playing"))
                    .state("playing", s -> s
                            .on("SCORE", t -> t.guard((c, e) -> c.goals(e.get("team")) + 1 >= c.scoreLimit)
                                    .target("won").action(GameModeSample::goal))
                            .on("SCORE", t -> t.action(GameModeSample::goal))
                            .waitFor(c -> c.roundSeconds, "timeUp"))
                    .finalState("won")
                    .finalState("timeUp")
                    .onDone("over"))
            .state("over", s -> s
                    .entry((c, e) -> c.winner = c.red > c.blue ? "red" : c.blue > c.red ? "blue" : "draw")
                    .waitFor(10, t -> t.target("warmup").action((c, e) -> {
                        c.red = 0;
                        c.blue = 0;
                    })))
            .on("PLAYER_LEFT", t -> t.action((c, e) -> c.players = Math.max(0, c.players - 1))));

    private static void goal(Match c, Event e) {
        if ("red".equals(e.get("team"))) {
            c.red++;
        } else {
            c.blue++;
        }
    }

    /** One scored event. */
    private static Event score(String team) {
        return Event.of("SCORE", Map.of("team", team));
    }

    /** Two players join, red scores three goals to blue's one, and the mode goes back to warmup. */
    public static void main(String[] args) {
        double dt = 1.0 / 60;
        try (StateWorld world = StateWorld.create("arena")) {
            StateRecord<Match> mode = world.add(MODE);
            Object last = null;
            for (int step = 0; step <= 40 * 60; step++) {
                double t = step * dt;
                if (step == 60) {
                    MODE.send(world, "PLAYER_JOINED");
                } else if (step == 2 * 60) {
                    MODE.send(world, "PLAYER_JOINED");
                } else if (step == 9 * 60 || step == 12 * 60 || step == 15 * 60) {
                    MODE.send(world, score("red"));
                } else if (step == 10 * 60) {
                    MODE.send(world, score("blue"));
                }
                if (!mode.value().equals(last)) {
                    last = mode.value();
                    Match c = mode.context();
                    System.out.printf(Locale.ROOT, "%6.2f  %-28s players %d  red %d blue %d%s%n", t, String.join(",", mode.leaves()), c.players,
                            c.red, c.blue, c.winner == null ? "" : "  last winner " + c.winner);
                }
                world.step(dt);
            }
        }
    }
}

package dev.enginestates.samples;

import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.AIContext;
import dev.enginestates.fsm.StateMachineBuilder;
import dev.enginestates.fsm.StateMachineDefinition;

import java.util.Locale;

/**
 * A match's phases with the tick split in two (Countdown for 3 s, Playing until a goal, Goal for
 * 1.5 s, back to Countdown; the phase clock advances at the start of a tick and the phase is
 * evaluated at the end, with work in between that reads the clock), as the world's own machine
 * of a {@link StateWorld}: {@code world.advance(dt)} at the start of the tick,
 * {@code world.runStates()} at the end.
 *
 * <pre>
 * Countdown ──[3 s in state]──▶ Playing ──[goal scored]──▶ Goal ──[1.5 s in state]──▶ Countdown
 *                               Playing ──[match clock at MATCH_SECONDS]──▶ FullTime
 * </pre>
 *
 * <p>Between the halves, the tick's work reads the phase and its clock, already advanced: the
 * scoreboard shows the countdown's 3, 2, 1 from the phase's time in state, the match clock runs
 * only while playing, and the ball (a scripted shot every few seconds of play) may go in,
 * which the phase sees at {@code runStates()} in the same tick. The phase clock is the
 * builder style's float32: the 3 s countdown takes 181 ticks at 60 Hz, not 180.
 *
 * <p>Run: {@code mvn -q -pl samples exec:java -Dexec.mainClass=dev.enginestates.samples.BuilderMatchSample}
 */
public final class BuilderMatchSample {
    /** The tick: 60 Hz. */
    public static final float DT = 1f / 60;
    /** Seconds of countdown before play. */
    public static final float COUNTDOWN_SECONDS = 3f;
    /** Seconds the goal is celebrated. */
    public static final float GOAL_SECONDS = 1.5f;
    /** Seconds of play in the match. */
    public static final float MATCH_SECONDS = 12f;
    /** Seconds of play between two shots that go in (the script's ball). */
    public static final float SHOT_EVERY = 5f;

    private BuilderMatchSample() {
    }

    /** The match: the phase's contract from AIContext, the game's own fields. */
    public static final class Match extends AIContext {
        /** The ball went in this tick (the ball's system sets it; Goal's enter counts it). */
        public boolean goalScored;
        /** Seconds of play so far, counted by the tick's work while playing. */
        public float matchClock;
        /** Seconds of play since the last kickoff (the script's shots come every SHOT_EVERY). */
        public float sinceKickoff;
        /** Goals scored. */
        public int goals;
    }

    /** The phases: countdown, playing and goal in a loop, plus the full-time whistle. */
    public static final StateMachineDefinition<Match> PHASES = phases();

    private static StateMachineDefinition<Match> phases() {
        var b = new StateMachineBuilder<Match>("match", Match::new);
        b.configureState("Countdown").asInitial().transitionsTo("Playing")
                .enter(m -> m.sinceKickoff = 0)
                .handler((m, dt) -> m.timeInState() >= COUNTDOWN_SECONDS ? "Playing" : null);
        b.configureState("Playing").transitionsTo("Goal", "FullTime").handler((m, dt) -> m.goalScored ? "Goal" : m.matchClock >= MATCH_SECONDS ? "FullTime" : null);
        b.configureState("Goal").transitionsTo("Countdown")
                .enter(m -> {
                    m.goals++;
                    m.goalScored = false;
                })
                .handler((m, dt) -> m.timeInState() >= GOAL_SECONDS ? "Countdown" : null);
        b.configureState("FullTime");   // no handler: the machine rests, its time no longer advances
        return b.build();
    }

    /** The phases on the world's own entity. */
    public static final States<Match> MATCH = States.of(PHASES);

    /**
     * The tick's work, between {@code advance} and {@code runStates}: the scoreboard, the match
     * clock, and the ball. Returns what the scoreboard shows.
     */
    public static String work(StateRecord<Match> phase) {
        Match m = phase.context();
        switch (phase.state()) {
            case "Countdown":
                int left = (int) Math.ceil(COUNTDOWN_SECONDS - m.timeInState());   // 3, 2, 1, then GO on the tick it ends
                return left > 0 ? String.valueOf(left) : "GO";
            case "Playing":
                m.matchClock += DT;
                m.sinceKickoff += DT;
                if (m.sinceKickoff >= SHOT_EVERY) {
                    m.goalScored = true;    // the phase sees it at runStates, this tick
                    return "GOAL";
                }
                return String.format(Locale.ROOT, "%.0f'", Math.floor(m.matchClock));
            case "Goal":
                return "GOAL";
            default:
                return "FULL TIME";
        }
    }

    /** Plays the match: each tick advance, the work, runStates; prints what the scoreboard shows when it changes and each phase change. */
    public static void main(String[] args) {
        try (StateWorld world = StateWorld.create("stadium")) {
            StateRecord<Match> phase = world.add(MATCH);
            System.out.println("    t  tick  phase      board  what");
            String shown = "";
            String last = phase.state();
            long enteredAt = 0;
            for (int tick = 1; tick <= 40 * 60 && !phase.state().equals("FullTime"); tick++) {
                world.advance(DT);              // the phase clock moves first
                String board = work(phase);     // the tick's work reads it
                world.runStates();              // the phase is evaluated last
                String now = phase.state();
                if (!now.equals(last)) {
                    System.out.printf(Locale.ROOT, "%5.2f  %4d  %-9s  %-5s  %s > %s after %d ticks%n", world.time(), tick, now, board,
                            last, now, tick - enteredAt);
                    last = now;
                    enteredAt = tick;
                } else if (!board.equals(shown) && !board.endsWith("'")) {
                    System.out.printf(Locale.ROOT, "%5.2f  %4d  %-9s  %s%n", world.time(), tick, now, board);
                }
                shown = board;
            }
            Match m = phase.context();
            System.out.printf(Locale.ROOT, "full time after %.2f s of play and %d ticks: %d goals%n", m.matchClock, world.steps(), m.goals);
        }
    }
}

package dev.enginestates.samples.pekko;

import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.ecs.States;

/**
 * A room's guard: the README's patrol (watch 4 s, rest 10 s) that answers the bell, and here
 * also goes back to his patrol on his own after 6 s of answering, so every state is a wait
 * and a room moved at any moment is moved mid-wait.
 */
public final class RoomGuard {
    /** How many times this guard answered the bell. */
    public int bells;

    /** The machine, shared by every room on every node. */
    public static final States<RoomGuard> GUARD = States.define("guard", RoomGuard::new, m -> m
            .initial("patrol")
            .state("patrol", p -> p
                    .initial("watch")
                    .state("watch", s -> s.waitFor(4, "rest"))
                    .state("rest", s -> s.waitFor(10, "watch"))
                    .history("resumed", HistoryDepth.DEEP)
                    .on("BELL", "answer"))
            .state("answer", s -> s
                    .entry((guard, e) -> guard.bells++)
                    .waitFor(6, "patrol.resumed")
                    .on("RESUME", "patrol.resumed")
                    .on("RESTART", "patrol")));

    /** The events a game sends a guard. */
    public static final String[] EVENTS = {"BELL", "RESUME", "RESTART"};
}

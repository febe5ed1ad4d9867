package dev.enginestates.samples;

import dev.enginestates.Machine;
import dev.enginestates.declare.HistoryDepth;

/**
 * The {@code 003} document's guard ("Waiting"): a patrol that watches for 4 seconds and rests
 * for 10; the bell calls him to answer it; RESUME brings him back through a deep history state
 * to where he was, RESTART starts the patrol over.
 */
public final class Guard {
    /** How many times the guard answered the bell. */
    public int bells;

    /** The machine, shared by every guard. */
    public static final Machine<Guard> MACHINE = Machine.define("guard", Guard::new, m -> m
            .initial("patrol")
            .state("patrol", p -> p
                    .initial("watch")
                    .state("watch", s -> s.waitFor(4, "rest"))
                    .state("rest", s -> s.waitFor(10, "watch"))
                    .history("resumed", HistoryDepth.DEEP)
                    .on("BELL", "answer"))
            .state("answer", s -> s
                    .entry((guard, e) -> guard.bells++)
                    .on("RESUME", "patrol.resumed")
                    .on("RESTART", "patrol")));
}

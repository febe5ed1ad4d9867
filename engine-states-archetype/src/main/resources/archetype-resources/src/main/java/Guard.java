package ${package};

import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.ecs.States;

/**
 * A guard: a machine on each guard's entity. He patrols, watching for 4 seconds and resting for
 * 10; an ALARM sends him to his post, and ALL_CLEAR brings him back to his patrol where he left
 * it (the deep history state), with the seconds his wait had left.
 */
public final class Guard {
    /** Alarms answered: the context of each guard's machine. */
    public int alarms;

    /** The machine shared by every guard; each guard's entity holds one record of it. */
    public static final States<Guard> GUARD = States.define("guard", Guard::new, m -> m
            .initial("patrol")
            .state("patrol", p -> p
                    .initial("watch")
                    .state("watch", s -> s.waitFor(4, "rest"))
                    .state("rest", s -> s.waitFor(10, "watch"))
                    .history("resumed", HistoryDepth.DEEP)
                    .on("ALARM", "post"))
            .state("post", s -> s
                    .entry((guard, event) -> guard.alarms++)
                    .on("ALL_CLEAR", "patrol.resumed")));
}

package dev.enginestates.versions;

import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.declare.Migration;
import dev.enginestates.ecs.States;

/**
 * Three versions of one guard, as a game ships them. Version 2 renames two states
 * ({@code patrol.rest} to {@code patrol.nap}, {@code search} to {@code hunt}), splits
 * {@code patrol.watch} into a compound ({@code look}, which keeps its wait, and {@code listen}) and removes {@code alarm} (its guards go back on patrol). Version 3 removes
 * {@code hunt} (its guards answer) and changes the context's type.
 */
final class GuardVersions {
    private GuardVersions() {
    }

    public static final class Guard {
        public int bells;
        public int alarms;
    }

    /** Version 3's context: the bells and alarms became one count of calls. */
    public static final class Guard3 {
        public int calls;
        public String note = "";
    }

    static final States<Guard> V1 = States.define("vguard", Guard::new, m -> m
            .version(1)
            .initial("patrol")
            .state("patrol", p -> p
                    .initial("watch")
                    .state("watch", s -> s.waitFor(4, "rest"))
                    .state("rest", s -> s.waitFor(10, "watch"))
                    .history("resumed", HistoryDepth.DEEP)
                    .on("BELL", "answer")
                    .on("ALARM", "alarm")
                    .on("SEARCH", "search"))
            .state("answer", s -> s
                    .entry((g, e) -> g.bells++)
                    .on("RESUME", "patrol.resumed")
                    .on("RESTART", "patrol"))
            .state("alarm", s -> s.entry((g, e) -> g.alarms++).waitFor(6, "patrol"))
            .state("search", s -> s.waitFor(8, "patrol.resumed").on("BELL", "answer")));

    static final Migration FROM_1 = Migration.from(1)
            .rename("patrol.rest", "patrol.nap")
            .rename("patrol.watch", "patrol.watch.look")
            .rename("search", "hunt")
            .remove("alarm", "patrol");

    static final States<Guard> V2 = States.define("vguard", Guard::new, m -> m
            .version(2, FROM_1)
            .initial("patrol")
            .state("patrol", p -> p
                    .initial("watch")
                    .state("watch", s -> s
                            .initial("look")
                            .state("look", l -> l.on("NOISE", "listen").waitFor(4, "#vguard.patrol.nap"))
                            .state("listen", l -> l.on("QUIET", "look")))
                    .state("nap", s -> s.waitFor(10, "watch"))
                    .history("resumed", HistoryDepth.DEEP)
                    .on("BELL", "answer")
                    .on("SEARCH", "hunt"))
            .state("answer", s -> s
                    .entry((g, e) -> g.bells++)
                    .on("RESUME", "patrol.resumed")
                    .on("RESTART", "patrol"))
            .state("hunt", s -> s.waitFor(8, "patrol.resumed").on("BELL", "answer")));

    static final Migration FROM_2 = Migration.from(2)
            .remove("hunt", "answer")
            .context(Guard::new, (Guard g) -> {
                Guard3 n = new Guard3();
                n.calls = g.bells + g.alarms;
                n.note = "from version 2";
                return n;
            });

    static final States<Guard3> V3 = States.define("vguard", Guard3::new, m -> m
            .version(3, FROM_1, FROM_2)
            .initial("patrol")
            .state("patrol", p -> p
                    .initial("watch")
                    .state("watch", s -> s
                            .initial("look")
                            .state("look", l -> l.on("NOISE", "listen").waitFor(4, "#vguard.patrol.nap"))
                            .state("listen", l -> l.on("QUIET", "look")))
                    .state("nap", s -> s.waitFor(10, "watch"))
                    .history("resumed", HistoryDepth.DEEP)
                    .on("BELL", "answer"))
            .state("answer", s -> s
                    .entry((g, e) -> g.calls++)
                    .on("RESUME", "patrol.resumed")
                    .on("RESTART", "patrol")));
}

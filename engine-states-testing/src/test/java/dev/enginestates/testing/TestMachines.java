package dev.enginestates.testing;

import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.ecs.States;

/** The machines the kit's own tests use: the {@code 003} document's guard and siege, a parallel machine, a held routine. */
final class TestMachines {
    private TestMachines() {
    }

    /** The guard's context: how many times he answered the bell. */
    static final class GuardCtx {
        int bells;
        String post = "north gate";
    }

    /** The siege's context: the waves held. */
    static final class SiegeCtx {
        int wave;
    }

    /** A component that holds the routine while the entity has it (the 003 document's TalkingTrait). */
    static final class Talking {
    }

    /** A component with the game's own data. */
    static final class Transform {
    }

    /** The 003 document's guard ("Waiting"), with a counter of bells answered. */
    static final States<GuardCtx> GUARD = States.define("guard", GuardCtx::new, m -> m
            .initial("patrol")
            .state("patrol", p -> p
                    .initial("watch")
                    .state("watch", s -> s.waitFor(4, "rest"))
                    .state("rest", s -> s.waitFor(10, "watch"))
                    .history("resumed", HistoryDepth.DEEP)
                    .on("BELL", "answer"))
            .state("answer", s -> s
                    .entry((g, e) -> g.bells++)
                    .on("RESUME", "patrol.resumed")
                    .on("RESTART", "patrol")));

    /** The 003 document's siege ("Declaring a machine"), counting waves held, with a final state. */
    static final States<SiegeCtx> SIEGE = States.define("siege", SiegeCtx::new, m -> m
            .initial("waiting")
            .state("waiting", s -> s.on("START", "fight"))
            .state("fight", s -> s
                    .on("WAVE_HELD", t -> t.target("breather").action((c, e) -> c.wave++))
                    .on("ALL_DOWN", "over"))
            .state("breather", s -> s.waitFor(12, "fight"))
            .finalState("over"));

    /** Two regions: a light that blinks and a door that opens. */
    static final States<GuardCtx> HOUSE = States.define("house", GuardCtx::new, m -> m
            .initial("on")
            .state("on", o -> o.parallel()
                    .state("light", l -> l.initial("dark")
                            .state("dark", s -> s.waitFor(1, "lit"))
                            .state("lit", s -> s.waitFor(1, "dark")))
                    .state("door", d -> d.initial("shut")
                            .state("shut", s -> s.on("OPEN", "open"))
                            .state("open", s -> s.on("SHUT", "shut")))));

    /** An NPC's routine, held while it talks (the 003 document's heldBy). */
    static final States<GuardCtx> ROUTINE = States.define("routine", GuardCtx::new, m -> m
            .heldBy(Talking.class)
            .initial("idle")
            .state("idle", s -> s.waitFor(5, "stroll"))
            .state("stroll", s -> s.waitFor(5, "idle")));
}

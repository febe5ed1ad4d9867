package dev.enginestates.io;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.Event;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;

/**
 * A guard that keeps a pending send to itself, and a context with a double, a float, a byte and
 * a double[]: what the checkpoint tests of pending sends and of context numbers edit.
 */
final class SendingGuard {
    static final double DT = 1.0 / 60;

    public static final class Ctx {
        public int bells;
        public double hp = 1.0;
        public float speed = 1.5f;
        public byte rank = 3;
        public double[] marks = {0.5};
    }

    static final States<Ctx> M = States.define("sending-guard", Ctx::new, m -> m
            .initial("patrol")
            .state("patrol", p -> p
                    .initial("watch")
                    .state("watch", s -> s.waitFor(4, "rest"))
                    .state("rest", s -> s.waitFor(10, "watch"))
                    .on("BELL", "answer"))
            .state("answer", s -> s.on("RESUME", "patrol")
                    .on("ARM", t -> t.action((c, e, self) -> self.sendSelf(Event.of("RESUME"), 0.5, "r")))));

    static final Saves SAVES = Saves.of(M);

    private SendingGuard() {
    }

    /** A world at 0.5 s whose guard "g" answers, with a RESUME to itself due at 1.0 s. */
    static StateWorld world() {
        StateWorld w = StateWorld.create();
        Entity g = w.spawn(EntityKey.of("g"), M.trait());
        for (int i = 0; i < 30; i++) {
            w.step(DT);
        }
        M.send(g, "BELL");
        M.send(g, "ARM");
        return w;
    }
}

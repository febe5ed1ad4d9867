package dev.enginestates.children;

import dev.enginestates.Machine;
import dev.enginestates.declare.Event;
import dev.enginestates.ecs.States;

/** The machines the child tests share: a siege that invokes waves, a wave that ends, a squad that spawns members. */
final class Squads {
    private Squads() {
    }

    /** A wave's context: how many enemies are left, and how many the siege sent. */
    public static final class Wave {
        public int left;
        public int pings;

        public Wave() {
        }

        Wave(int left) {
            this.left = left;
        }
    }

    /** A siege's context: its level and what the last wave gave back. */
    public static final class Siege {
        public int level = 3;
        public int lastOutput = -1;
        public int heard;
    }

    /** A wave: fights until its enemies are gone (each KILL), then is done; a 2 s wait sends the parent a HELP. */
    static final Machine<Wave> WAVE = Machine.define("wave", Wave::new, m -> m
            .initial("fighting")
            .state("fighting", s -> s
                    .on("KILL", t -> t.action((w, e) -> w.left--))
                    .always(t -> t.guard((w, e) -> w.left <= 0).target("cleared"))
                    .on("PING", t -> t.action((w, e) -> w.pings++))
                    .waitFor(2, t -> t.target("fighting").reenter(true)
                            .action((w, e, self) -> self.sendParent(Event.of("HELP")))))
            .finalState("cleared"));

    /** A siege: in {@code fight} it invokes a wave of {@code level} enemies; the wave's output is its enemies left (0). */
    static final Machine<Siege> SIEGE = Machine.define("siege", Siege::new, m -> m
            .initial("calm")
            .state("calm", s -> s.on("ATTACK", "fight"))
            .state("fight", s -> s
                    .invoke("wave", WAVE, i -> i
                            .input(siege -> new Wave(siege.level))
                            .output(w -> w.left)
                            .onDone(t -> t.target("rest").action((c, e) -> c.lastOutput = (Integer) e.get("output"))))
                    .on("RETREAT", "calm")
                    .on("PING_WAVE", t -> t.action((c, e, self) -> self.sendTo("wave", Event.of("PING"))))
                    .on("HELP", t -> t.action((c, e) -> c.heard++)))
            .state("rest", s -> s.waitFor(5, "calm")));

    static final States<Siege> SIEGES = States.of(SIEGE);
    static final States<Wave> WAVES = States.of(WAVE);
}

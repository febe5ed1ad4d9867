package dev.enginestates.samples.readme;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.StatesDef;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.plain.StateMachine;

import java.util.ArrayList;
import java.util.List;

/**
 * The README's polled-style code, compiled: every line of its Java blocks stands here in order
 * ({@code ReadmeCodeTest} checks it).
 */
public final class PolledTour {
    private PolledTour() {
    }

    /** The bot the README's polled machine drives. */
    public static final class Bot {
        /** Hit points. */
        public int hp = 100;
        /** A target is known. */
        public boolean target;
        /** The target is in sight. */
        public boolean visible;
        /** Distance to the target. */
        public double dist = 99;
        /** Seconds since the target was last seen. */
        public double lostFor;
        /** The one-shot output: shoot this tick. */
        public boolean fire;
    }

    /** What the README's bot printed, for the test. */
    public static final List<String> LOG = new ArrayList<>();

    static void log(String line) {
        LOG.add(line);
    }

    static final StatesDef<Bot> GUARD = StatesDef.define("guard", Bot::new, d -> d
        .initial("patrol")
        .on("hit", "flinch")                               // an event, from any state
        .to("dead", (b, t) -> b.hp <= 0)                   // tested in every state, first
        .state("patrol", s -> s.to("combat", (b, t) -> b.target))
        .state("combat", s -> s
            .initial("engage")
            .to("search", (b, t) -> b.lostFor > 4)         // leaves whichever child is active
            .state("engage", e -> e.to("shoot", (b, t) -> b.visible && b.dist < 12))
            .state("shoot", e -> e
                .enter((b, from) -> b.fire = true)
                .exit((b, to) -> b.fire = false)
                .to("engage", (b, t) -> !b.visible)))
        .state("search", s -> s.after(6, "patrol"))        // a timed transition
        .state("flinch", s -> s.after(0.2, "$back"))       // back to the state we came from
        .state("dead", s -> s.enter((b, from) -> log("down"))));

    /** The README's plain run; returns the state after the flinch. */
    public static String plain() {
        Bot bot = new Bot();
        StateMachine<Bot> fsm = new StateMachine<>(GUARD, bot);   // enters 'patrol' now
        fsm.on("change", (to, from) -> log("[fsm] " + from + ">" + to));
        bot.target = true;
        fsm.step(1 / 60.0);                                       // once per tick
        fsm.state();                                              // "combat.engage"
        fsm.is("combat");                                         // true while any combat child is active
        fsm.send("hit");                                          // → "flinch"; back to "combat.engage" 0.2 s later
        for (int i = 0; i < 12; i++) fsm.step(1 / 60.0);
        return fsm.state();
    }

    /** The README's run on entities; returns how many bots are in combat. */
    public static int ecs() {
        States<Bot> BOTS = States.of(GUARD);                      // the same table on entities
        try (StateWorld world = StateWorld.create()) {
            Bot bot = new Bot();
            Entity e = world.spawn(BOTS.trait(bot));
            bot.target = true;
            world.step(1 / 60.0);                                 // every machine, in declaration order
            world.query(BOTS.is("combat.engage")).count();        // 1
            BOTS.send(e, "hit");                                  // its tags move with it
            BOTS.read(e).state();                                 // "flinch"
            BOTS.read(e).timeIn("flinch");                        // 0.0
            world.step(0.2);
            return world.query(BOTS.is("combat")).count();
        }
    }
}

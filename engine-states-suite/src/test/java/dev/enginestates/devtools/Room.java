package dev.enginestates.devtools;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Fixtures;
import dev.enginestates.StatesDef;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;

/**
 * The room the devtools tests show: the {@code 003} document's siege as the world's own
 * machine, three keyed guards (guard-3 stunned, so held), an unkeyed entity with a parallel
 * weapon machine, and a keyed bot with a polled machine.
 */
final class Room implements AutoCloseable {
    static final double DT = 1 / 60.0;

    /** The siege's context. */
    public static final class Waves {
        /** Waves held so far. */
        public int wave;
    }

    /** The guard's context. */
    public static final class Patrol {
        /** Bells answered so far. */
        public int bells;
    }

    /** The weapon's context. */
    public static final class Ammo {
        /** Rounds in the magazine. */
        public int rounds = 6;
    }

    /** The polled bot's context. */
    public static final class Bot {
        /** Whether it has a target. */
        public boolean target;
    }

    /** A hold: while a guard has it, his patrol's waits count no seconds. */
    public static final class Stunned {
    }

    static final States<Waves> SIEGE = States.define("siege", Waves::new, Fixtures.<Waves>siege());
    static final States<Patrol> GUARD = States.define("guard", Patrol::new, Fixtures.<Patrol>guard()
            .bell(t -> t.action((p, e) -> p.bells++))
            .machine(m -> m.heldBy(Stunned.class)));
    static final States<Ammo> WEAPON = States.define("weapon", Ammo::new, Fixtures.<Ammo>armed());
    static final States<Bot> BOT = States.of(StatesDef.<Bot>define("bot", Bot::new, d -> d
            .initial("idle")
            .state("idle", s -> s.to("search", (b, t) -> b.target))
            .state("search", s -> s.after(6, "idle"))));

    final StateWorld world;
    final Entity guard1;
    final Entity guard2;
    final Entity guard3;
    final Entity weapon;
    final Entity bot;

    Room() {
        world = StateWorld.create("room");
        world.add(SIEGE);
        guard1 = world.spawn(EntityKey.of("guard-1"), GUARD.trait());
        guard2 = world.spawn(EntityKey.of("guard-2"), GUARD.trait());
        guard3 = world.spawn(EntityKey.of("guard-3"), GUARD.trait(), new Stunned());
        weapon = world.spawn(WEAPON.trait());
        bot = world.spawn(EntityKey.of("bot-1"), BOT.trait());
    }

    /** Steps the world for about {@code seconds} at 60 Hz. */
    void run(double seconds) {
        for (int i = 0; i < Math.round(seconds / DT); i++) {
            world.step(DT);
        }
    }

    @Override
    public void close() {
        world.close();
    }
}

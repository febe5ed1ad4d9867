package dev.enginestates.samples.docs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Machine;
import dev.enginestates.declare.Event;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Saves;

/**
 * The code of docs/children.md, compiled: a siege that invokes a wave while it fights, and a
 * squad that spawns its members ({@code DocsCodeTest} runs {@link #siegeAndSquad()}).
 */
public final class ChildMachines {
    private ChildMachines() {
    }

    /** A wave's context. */
    public static final class Wave {
        /** Enemies left. */
        public int left;

        /** A wave of no enemies (for restores). */
        public Wave() {
        }

        Wave(int left) {
            this.left = left;
        }
    }

    /** A siege's context. */
    public static final class Siege {
        /** How many enemies a wave brings. */
        public int level = 3;
        /** Waves won. */
        public int won;
    }

    /** A squad member's context. */
    public static final class Member {
        /** Hit points. */
        public int hp = 2;
    }

    /** A squad's context. */
    public static final class Squad {
        /** Members recruited so far. */
        public int recruited;
        /** Members fallen. */
        public int fallen;
    }

    /** A wave fights until its enemies are gone, then is done. */
    static final Machine<Wave> WAVE = Machine.define("wave", Wave::new, m -> m
        .initial("fighting")
        .state("fighting", s -> s
            .on("KILL", t -> t.action((wave, e) -> wave.left--))
            .always(t -> t.guard((wave, e) -> wave.left <= 0).target("cleared")))
        .finalState("cleared"));

    /** While the siege fights, a wave runs on an entity of its own; when it is done, the siege rests. */
    static final States<Siege> SIEGE = States.define("siege", Siege::new, m -> m
        .initial("calm")
        .state("calm", s -> s.on("ATTACK", "fight"))
        .state("fight", s -> s
            .invoke("wave", WAVE, i -> i
                .input(siege -> new Wave(siege.level))
                .onDone(t -> t.target("rest").action((siege, e) -> siege.won++)))
            .on("RETREAT", "calm"))
        .state("rest", s -> s.waitFor(5, "calm")));

    static final States<Wave> WAVES = States.of(WAVE);

    /** A squad member falls after two hits. */
    static final Machine<Member> MEMBER = Machine.define("member", Member::new, m -> m
        .initial("alive")
        .state("alive", s -> s
            .on("HIT", t -> t.action((member, e) -> member.hp--))
            .always(t -> t.guard((member, e) -> member.hp <= 0).target("fallen")))
        .finalState("fallen"));

    /** A squad recruits members from its code; each is a child until the squad goes. */
    static final States<Squad> SQUAD = States.define("squad", Squad::new, m -> m
        .spawns(MEMBER)
        .initial("active")
        .state("active", s -> s
            .on("RECRUIT", t -> t.action((squad, e, self) ->
                self.spawnChild("m" + ++squad.recruited, MEMBER, new Member())))
            .on("ORDER", t -> t.action((squad, e, self) ->
                self.sendTo("m1", Event.of("HIT"))))
            .on("xstate.done.actor.*", t -> t.action((squad, e) -> squad.fallen++))));

    static final States<Member> MEMBERS = States.of(MEMBER);

    /**
     * The page's walk-through.
     *
     * @return the siege's wins, the wave's state after a restore, and the squad's fallen, as the page says
     */
    public static String siegeAndSquad() {
        try (StateWorld world = StateWorld.create(); StateWorld copy = StateWorld.create()) {
            Entity siege = world.spawn(EntityKey.of("siege-1"), SIEGE.trait());
            SIEGE.send(siege, "ATTACK");
            Entity wave = world.entity("siege-1/wave");     // the same as SIEGE.read(siege).child("wave")
            boolean found = world.query(WAVES.is("fighting")).count() == 1;

            Saves saves = Saves.of(SIEGE);                  // the waves it invokes are saved with it
            saves.restoreSpawningMissing(copy, saves.checkpoint(world));
            String copied = WAVES.read(copy.entity("siege-1/wave")).state();

            for (int i = 0; i < 3; i++) {
                WAVES.send(wave, "KILL");
            }
            // the wave is done: the siege took xstate.done.actor.wave, went to rest, and the wave went
            boolean gone = wave.isDeleted();

            Entity squad = world.spawn(EntityKey.of("squad-1"), SQUAD.trait());
            SQUAD.send(squad, "RECRUIT");
            SQUAD.send(squad, "RECRUIT");
            SQUAD.send(squad, "ORDER");
            SQUAD.send(squad, "ORDER");                     // m1 falls: the squad hears its done event
            int fallen = SQUAD.read(squad).context().fallen;
            world.despawn(squad);                           // its members go with it
            return SIEGE.read(siege).context().won + " " + found + " " + copied + " " + gone + " " + fallen + " "
                    + world.records(MEMBERS).size();
        }
    }
}

package dev.enginestates.samples;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;

import java.util.Locale;

/**
 * An NPC's routine held while it talks, while every other machine on it keeps running: the
 * routine names the component a conversation adds. It declares {@code heldBy(Talking.class)}:
 * while the NPC has a {@link Talking} component its waits count no seconds; the NPC's
 * {@link #HUNGER} machine runs on. The routine also declares {@code tags(false)}, which suits
 * a machine that many kinds of NPC each declare their own of: its systems read the state with
 * {@code read}.
 *
 * <p>Run: {@code mvn -q -pl samples exec:java -Dexec.mainClass=dev.enginestates.samples.NpcRoutineSample}
 */
public final class NpcRoutineSample {
    private NpcRoutineSample() {
    }

    /** A conversation is going on with this NPC: the component that holds its routine. */
    public static final class Talking {
        /** Who the NPC talks to. */
        public final String with;

        /** A conversation with someone. */
        public Talking(String with) {
            this.with = with;
        }
    }

    /** The NPC's context: loaves baked and meals eaten. */
    public static final class Baker {
        /** Loaves baked. */
        public int loaves;
        /** Meals eaten. */
        public int meals;
    }

    /** The baker's day: knead 4 s, bake 6 s, sell 8 s, round again; held while talking; no tags. */
    public static final States<Baker> ROUTINE = States.define("routine", Baker::new, m -> m
            .tags(false)
            .heldBy(Talking.class)
            .initial("knead")
            .state("knead", s -> s.waitFor(4, "bake"))
            .state("bake", s -> s.waitFor(6, t -> t.target("sell").action((b, e) -> b.loaves += 12)))
            .state("sell", s -> s.waitFor(8, "knead")));

    /** Hunger grows whatever the NPC does, talking or not: fed, then hungry after 10 s, EAT feeds it. */
    public static final States<Baker> HUNGER = States.define("hunger", Baker::new, m -> m
            .initial("fed")
            .state("fed", s -> s.waitFor(10, "hungry"))
            .state("hungry", s -> s.on("EAT", t -> t.target("fed").action((b, e) -> b.meals++))));

    /** The player talks to the baker from 2 s to 9 s; prints both machines every second. */
    public static void main(String[] args) {
        double dt = 1.0 / 60;
        try (StateWorld world = StateWorld.create("village")) {
            Entity baker = world.spawn(EntityKey.of("baker"), ROUTINE.trait(), HUNGER.trait());
            StateRecord<Baker> routine = ROUTINE.read(baker);
            StateRecord<Baker> hunger = HUNGER.read(baker);
            System.out.println("  t  talking  routine              hunger");
            for (int second = 0; second <= 20; second++) {
                System.out.printf(Locale.ROOT, "%3d  %-7s  %-6s %5.2f s left%s  %-6s %s%n", second,
                        baker.has(Talking.class) ? "yes" : "", routine.value(), routine.secondsLeft(), routine.isHeld() ? " (held)" : "       ",
                        hunger.value(), hunger.isWaiting() ? String.format(Locale.ROOT, "%5.2f s left", hunger.secondsLeft()) : "");
                if (second == 2) {
                    baker.add(new Talking("player"));   // holds the routine from the next step
                } else if (second == 9) {
                    baker.removeType(Talking.class);
                }
                for (int i = 0; i < 60; i++) {
                    world.step(dt);
                }
            }
            System.out.printf(Locale.ROOT, "the talk held the routine 7 s: %d loaves baked; hunger ran on and is %s%n",
                    routine.context().loaves, hunger.value());
        }
    }
}

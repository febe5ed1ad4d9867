package dev.enginestates.samples;

import dev.enginestates.declare.Event;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;

import java.util.Locale;
import java.util.Map;

/**
 * The siege as the world's own machine. A game's phases go on the world ({@code world.add(SIEGE)});
 * the siege waits for START, fights until a wave is held, breathes for 12 seconds between
 * waves and ends when ALL_DOWN comes; the wave count lives in the machine's context, where
 * every system, a dump and a save read it. The declaration is {@link Siege#MACHINE}.
 *
 * <p>The game's own system decides when a wave is held (here: after 20 seconds of fighting,
 * sending {@code {type: "WAVE_HELD", wave: n}}) and when everyone is down (10 seconds into
 * the fight after the third wave). The siege only decides what phase the room is in.
 *
 * <p>Run: {@code mvn -q -pl samples exec:java -Dexec.mainClass=dev.enginestates.samples.SiegeSample}
 */
public final class SiegeSample {
    /** The siege machine bound to the ECS: its record component and one tag per state. */
    public static final States<Siege> SIEGE = States.of(Siege.MACHINE);
    /** Seconds of fighting the game's wave system takes to hold a wave. */
    public static final double FIGHT_SECONDS = 20;
    /** The waves the defenders hold; in the fight after the last, they fall. */
    public static final int WAVES = 3;
    /** Seconds the defenders last in the fight after the last wave. */
    public static final double LAST_STAND_SECONDS = 10;

    private SiegeSample() {
    }

    /**
     * The game's wave system, run once a step before the world's step: a wave is held after
     * {@link #FIGHT_SECONDS} of fighting; after {@link #WAVES} waves the defenders fall
     * {@link #LAST_STAND_SECONDS} into the next fight (ALL_DOWN).
     */
    public static final class WaveSystem {
        private double fightBegan = -1;

        /** Looks at the siege and sends what the fight decided. */
        public void run(StateWorld world) {
            StateRecord<Siege> siege = SIEGE.read(world);
            if (!siege.matches("fight")) {
                fightBegan = -1;
                return;
            }
            if (fightBegan < 0) {
                fightBegan = world.time();
            }
            double fought = world.time() - fightBegan + 1e-9;
            if (siege.context().wave == WAVES) {
                if (fought >= LAST_STAND_SECONDS) {
                    SIEGE.send(world, "ALL_DOWN");
                }
            } else if (fought >= FIGHT_SECONDS) {
                SIEGE.send(world, Event.of("WAVE_HELD", Map.of("wave", siege.context().wave + 1)));
            }
        }
    }

    /** Runs a siege at 60 Hz from START to the end and prints each phase as it begins. */
    public static void main(String[] args) {
        double dt = 1.0 / 60;
        try (StateWorld world = StateWorld.create("siege-room")) {
            StateRecord<Siege> siege = world.add(SIEGE);
            WaveSystem waves = new WaveSystem();
            System.out.printf(Locale.ROOT, "%6.2f  %-8s wave %d (before START)%n", world.time(), siege.value(), siege.context().wave);
            SIEGE.send(world, "START");
            Object last = null;
            while (world.time() < 300) {
                waves.run(world);
                if (!siege.value().equals(last)) {
                    last = siege.value();
                    System.out.printf(Locale.ROOT, "%6.2f  %-8s wave %d%s%n", world.time(), last, siege.context().wave,
                            siege.isWaiting() ? String.format(Locale.ROOT, ", %.0f s left", siege.secondsLeft()) : "");
                }
                if (siege.matches("over")) {
                    break;
                }
                world.step(dt);
            }
            System.out.printf(Locale.ROOT, "the siege is over after %d waves and %d steps; world.query(SIEGE.is(\"over\")) finds %d"
                    + " entity, the world's own%n", siege.context().wave, world.steps(), world.query(SIEGE.is("over")).count());
        }
    }
}

package dev.enginestates.samples;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;

import java.util.Locale;

/**
 * A weapon's ready, fire, cooldown and reload cycle, written as an XState-style ECS machine:
 * the cooldown and the reload are
 * waits whose seconds come from the weapon's context, and the magazine is context.
 *
 * <pre>
 * ready ──FIRE [ammo &gt; 0]──▶ fire ──(always, ammo left)──▶ cooldown ──wait cooldownSeconds──▶ ready
 *   │                        └──(always, empty)──────▶ reload ──wait reloadSeconds / refill──▶ ready
 *   ├──FIRE [empty]──▶ reload
 *   └──RELOAD [not full]──▶ reload
 * </pre>
 *
 * <p>A FIRE during the cooldown or the reload names no transition there, so {@code send}
 * returns {@code false}: the trigger system reads that as "no shot". A player who holds the
 * trigger sends FIRE every step, and the weapon fires at its cooldown rate.
 *
 * <p>Run: {@code mvn -q -pl samples exec:java -Dexec.mainClass=dev.enginestates.samples.WeaponSample}
 */
public final class WeaponSample {
    private WeaponSample() {
    }

    /** The weapon's context: its magazine and timings, and the shots it fired. */
    public static final class Weapon {
        /** Rounds in the magazine. */
        public int ammo = 6;
        /** Rounds a full magazine holds. */
        public int magazine = 6;
        /** Shots fired so far. */
        public int shots;
        /** Seconds between shots. */
        public double cooldownSeconds = 0.25;
        /** Seconds a reload takes. */
        public double reloadSeconds = 1.5;
    }

    /** The weapon machine, shared by every weapon. */
    public static final States<Weapon> WEAPON = States.define("weapon", Weapon::new, m -> m
            .initial("ready")
            .state("ready", s -> s
                    .on("FIRE", t -> t.guard((w, e) -> w.ammo > 0).target("fire"))
                    .on("FIRE", "reload")                                  // an empty click reloads
                    .on("RELOAD", t -> t.guard((w, e) -> w.ammo < w.magazine).target("reload")))
            .state("fire", s -> s
                    .entry((w, e) -> {
                        w.ammo--;
                        w.shots++;
                    })
                    .always(t -> t.guard((w, e) -> w.ammo == 0).target("reload"))
                    .always("cooldown"))
            .state("cooldown", s -> s.waitFor(w -> w.cooldownSeconds, "ready"))
            .state("reload", s -> s.waitFor(w -> w.reloadSeconds, t -> t.target("ready").action((w, e) -> w.ammo = w.magazine))));

    /** Holds the trigger for four seconds at 60 Hz, taps RELOAD at 5 s, and prints every move of the weapon. */
    public static void main(String[] args) {
        double dt = 1.0 / 60;
        try (StateWorld world = StateWorld.create("armory")) {
            Entity rifle = world.spawn(EntityKey.of("rifle"), WEAPON.trait());
            StateRecord<Weapon> r = WEAPON.read(rifle);
            System.out.println("   t  trigger  state     ammo  shots  left");
            String last = "";
            for (int step = 0; step < 7 * 60; step++) {
                String trigger = "";
                if (step < 4 * 60) {
                    trigger = WEAPON.send(rifle, "FIRE") ? "bang" : "-";
                } else if (step == 5 * 60) {
                    trigger = WEAPON.send(rifle, "RELOAD") ? "reload" : "full";
                }
                String now = r.value() + "/" + r.context().ammo;
                if (!now.equals(last) || trigger.equals("bang")) {
                    System.out.printf(Locale.ROOT, "%4.2f  %-7s  %-8s  %4d  %5d  %4.2f%n", world.time(), trigger, r.value(),
                            r.context().ammo, r.context().shots, r.secondsLeft());
                    last = now;
                }
                world.step(dt);
            }
            System.out.printf(Locale.ROOT, "%d shots in 4 s of held trigger (one every %.2f s, a %.1f s reload after %d); %s with %d"
                    + " rounds%n", r.context().shots, r.context().cooldownSeconds, r.context().reloadSeconds, r.context().magazine,
                    r.value(), r.context().ammo);
        }
    }
}

package dev.enginestates.samples;

import dev.enginestates.StatesDef;
import dev.enginestates.plain.StateMachine;

import java.util.List;
import java.util.Locale;

/**
 * A weapon's ready, fire, cooldown and reload cycle in the polled style.
 * {@link WeaponSample} is the same weapon as an ECS machine with waits and events.
 *
 * <pre>
 * ready ──[trigger, ammo &gt; 0]──▶ fire ──[ammo == 0]──▶ reload ──[t &gt;= reloadSeconds]──▶ ready (refilled)
 *   │                            └──(otherwise)──▶ cooldown ──[t &gt;= cooldown]──▶ ready
 *   ├──[trigger, empty]──▶ reload
 *   └──reload [not full]──▶ reload
 * </pre>
 *
 * <ul>
 * <li>Each weapon has its own cooldown and reload time, yet all share one table, so those
 * durations are guards on {@code t}, not {@code after}.</li>
 * <li>The trigger is an input and {@code shot} a one-shot output: the owner writes the one and
 * clears the other once before {@code step()}, and the fire state re-asserts {@code shot}
 * (no state resets a one-shot output: the owner does, once a step).</li>
 * <li>{@code fire} is a pass-through state: it is entered and left in the same step.</li>
 * </ul>
 *
 * <p>Run: {@code mvn -q -pl samples exec:java -Dexec.mainClass=dev.enginestates.samples.PolledWeaponSample}
 */
public final class PolledWeaponSample {
    private PolledWeaponSample() {
    }

    /** One weapon: its timings, its magazine, this tick's input and output. */
    public static final class Gun {
        /** The weapon's name, for printing. */
        public final String name;
        /** Seconds between shots. */
        public final double cooldown;
        /** Seconds a reload takes. */
        public final double reloadSeconds;
        /** Rounds a full magazine holds. */
        public final int magazine;
        /** Rounds in the magazine. */
        public int ammo;
        /** Shots fired so far. */
        public int shots;
        /** Input: the trigger is held this tick. */
        public boolean trigger;
        /** Output: a round left the barrel this tick. */
        public boolean shot;

        /** A weapon with a full magazine. */
        public Gun(String name, double cooldown, double reloadSeconds, int magazine) {
            this.name = name;
            this.cooldown = cooldown;
            this.reloadSeconds = reloadSeconds;
            this.magazine = magazine;
            this.ammo = magazine;
        }
    }

    /** The weapon table, shared by every weapon. */
    public static final StatesDef<Gun> WEAPON = StatesDef.<Gun>define("polled-weapon", d -> d
            .initial("ready")
            .state("ready", s -> s
                    .to("fire", (g, t) -> g.trigger && g.ammo > 0)
                    .to("reload", (g, t) -> g.trigger)                      // an empty click reloads
                    .on("reload", (g, args) -> g.ammo < g.magazine ? "reload" : null))
            .state("fire", s -> s
                    .enter((g, from) -> {
                        g.ammo--;
                        g.shots++;
                        g.shot = true;
                    })
                    .to("reload", (g, t) -> g.ammo == 0)
                    .to("cooldown", (g, t) -> true))
            .state("cooldown", s -> s.to("ready", (g, t) -> t >= g.cooldown))       // a per-weapon duration: a guard on t
            .state("reload", s -> s
                    .to("ready", (g, t) -> t >= g.reloadSeconds)
                    .exit((g, to) -> g.ammo = g.magazine)));                // reload is left only when its time is up

    /** One tick of the weapon's owner: clear the output, write the input, step. */
    public static void tick(StateMachine<Gun> weapon, boolean triggerHeld, double dt) {
        Gun g = weapon.ctx();
        g.shot = false;
        g.trigger = triggerHeld;
        weapon.step(dt);
    }

    /** A rifle and a shotgun on one table: both triggers held for 4 s, a reload asked at 5 s; prints every shot and reload. */
    public static void main(String[] args) {
        double dt = 1.0 / 60;
        List<StateMachine<Gun>> weapons = List.of(new StateMachine<>(WEAPON, new Gun("rifle", 0.25, 1.5, 6)),
                new StateMachine<>(WEAPON, new Gun("shotgun", 0.8, 2, 2)));
        System.out.println("    t  weapon   ammo  what (t: the weapon's time at the end of the step)");
        for (int step = 0; step < 7 * 60; step++) {
            for (StateMachine<Gun> w : weapons) {
                Gun g = w.ctx();
                if (step == 5 * 60) {
                    boolean handled = w.send("reload");
                    print(w, handled && w.is("reload") ? "asked to reload: reloading" : "asked to reload: not in ready, ignored");
                }
                boolean wasReloading = w.is("reload");
                tick(w, step < 4 * 60, dt);
                StringBuilder what = new StringBuilder();
                if (wasReloading && !w.is("reload")) {
                    what.append("reloaded, ");
                }
                if (g.shot) {
                    what.append("bang, ");
                }
                if (!wasReloading && w.is("reload")) {
                    what.append("reloading, ");
                }
                if (what.length() > 0) {
                    print(w, what.substring(0, what.length() - 2));
                }
            }
        }
        for (StateMachine<Gun> w : weapons) {
            System.out.printf(Locale.ROOT, "%s: %d shots, %s with %d rounds%n", w.ctx().name, w.ctx().shots, w.state(), w.ctx().ammo);
        }
    }

    private static void print(StateMachine<Gun> w, String what) {
        System.out.printf(Locale.ROOT, "%5.2f  %-7s  %4d  %s%n", w.totalTime(), w.ctx().name, w.ctx().ammo, what);
    }
}

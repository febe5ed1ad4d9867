package dev.enginestates.samples;

import dev.enginestates.StatesDef;
import dev.enginestates.plain.StateMachine;

import java.util.Locale;

/**
 * An enemy's brain in the polled style: a guard bot (patrol, combat with engage and shoot,
 * search, flinch, dead) as a plain {@link StateMachine}, driven by a small scripted sense
 * loop: a player is heard, comes into sight, closes in, shoots the bot, ducks out of sight and
 * is forgotten; later the player comes back and finishes the bot.
 *
 * <pre>
 * any ──hit──▶ flinch ──after 0.2 s──▶ $back        any ──[hp &lt;= 0]──▶ dead (swallows hit)
 * patrol ──[target]──▶ combat ──[lostFor &gt; 4]──▶ search ──after 6 s──▶ patrol
 *                      engage ──[visible and dist &lt; 12]──▶ shoot (fire on) ──[not visible]──▶ engage
 * </pre>
 *
 * <p>{@code dead} handles {@code hit} and returns no name: that is how a state swallows an
 * event the root would otherwise act on; without it a dead bot would flinch and die again.
 *
 * <p>The machine only decides; the senses (here {@link #sense}) write what the bot knows into
 * its context before each step, and a weapon would read {@code fire} after it.
 *
 * <p>Run: {@code mvn -q -pl samples exec:java -Dexec.mainClass=dev.enginestates.samples.EnemyBrainSample}
 */
public final class EnemyBrainSample {
    /** Seconds the senses keep a target they cannot see before forgetting it. */
    public static final double FORGET_SECONDS = 5;

    private EnemyBrainSample() {
    }

    /** What the bot knows (written by its senses) and what it does (read by its weapon). */
    public static final class Bot {
        /** Health; 0 or less is dead. */
        public int hp = 100;
        /** The bot knows of a target. */
        public boolean target;
        /** The target is in sight. */
        public boolean visible;
        /** Metres to the target. */
        public double dist = 99;
        /** Seconds since the known target was last seen. */
        public double lostFor;
        /** The trigger is held (the shoot state's output). */
        public boolean fire;
        /** Times the bot went down (where a game would log it). */
        public int downs;
    }

    /** The guard bot's brain, one table shared by every bot. */
    public static final StatesDef<Bot> BRAIN = StatesDef.define("enemy-brain", Bot::new, d -> d
            .initial("patrol")
            .on("hit", "flinch")                                    // an event, from any state
            .to("dead", (b, t) -> b.hp <= 0)                        // tested in every state, first
            .state("patrol", s -> s.to("combat", (b, t) -> b.target))
            .state("combat", s -> s
                    .initial("engage")
                    .to("search", (b, t) -> b.lostFor > 4)          // leaves whichever child is active
                    .state("engage", e -> e.to("shoot", (b, t) -> b.visible && b.dist < 12))
                    .state("shoot", e -> e
                            .enter((b, from) -> b.fire = true)
                            .exit((b, to) -> b.fire = false)
                            .to("engage", (b, t) -> !b.visible)))
            .state("search", s -> s.after(6, "patrol"))
            .state("flinch", s -> s.after(0.2, "$back"))            // back to the state we came from
            .state("dead", s -> s
                    .enter((b, from) -> b.downs++)
                    .on("hit", (b, args) -> null)));

    /**
     * The senses' own bookkeeping, once a tick before the brain steps: how long the known
     * target has been out of sight, and forgetting it after {@link #FORGET_SECONDS}.
     *
     * @return whether the target was forgotten in this tick
     */
    public static boolean sense(Bot bot, double dt) {
        bot.lostFor = bot.target && !bot.visible ? bot.lostFor + dt : 0;
        if (bot.lostFor > FORGET_SECONDS) {
            bot.target = false;
            bot.lostFor = 0;
            return true;
        }
        return false;
    }

    /** Twenty seconds of a scripted fight at 60 Hz; prints what the senses report and every change of the brain. */
    public static void main(String[] args) {
        double dt = 1.0 / 60;
        Bot bot = new Bot();
        StateMachine<Bot> brain = new StateMachine<>(BRAIN, bot);
        brain.on("change", (to, from) -> System.out.printf(Locale.ROOT, "%6.2f  brain  %s > %s  (hp %d, fire %s)%n",
                brain.totalTime(), from, to, bot.hp, bot.fire ? "on" : "off"));
        System.out.printf(Locale.ROOT, "%6.2f  brain  starts in %s%n", 0.0, brain.state());
        for (int step = 0; step < 20 * 60; step++) {
            script(bot, brain, step, step * dt);
            if (sense(bot, dt)) {
                say(step * dt, "forgets the player");
            }
            brain.step(dt);
        }
        System.out.printf(Locale.ROOT, "after %.0f s the bot is %s with hp %d; dead's enter ran %d time%n", brain.totalTime(),
                brain.state(), bot.hp, bot.downs);
    }

    /** The scripted world: what happens to the bot at a step, printed before the brain reacts. */
    private static void script(Bot bot, StateMachine<Bot> brain, int step, double now) {
        switch (step) {
            case 60:
                bot.target = true;
                bot.dist = 30;
                say(now, "hears a player 30 m away");
                break;
            case 2 * 60:
                bot.visible = true;
                bot.dist = 20;
                say(now, "sees the player at 20 m");
                break;
            case 3 * 60:
                bot.dist = 8;
                say(now, "the player closes to 8 m");
                break;
            case 4 * 60:
                hit(bot, brain, now, 30);
                break;
            case 5 * 60:
                bot.visible = false;
                say(now, "the player ducks behind a wall");
                break;
            case 17 * 60:
                bot.target = true;
                bot.visible = true;
                bot.dist = 6;
                say(now, "the player is back, 6 m away");
                break;
            case 18 * 60:
                hit(bot, brain, now, 50);
                break;
            case 19 * 60:
                hit(bot, brain, now, 40);
                break;
            case 19 * 60 + 30:
                hit(bot, brain, now, 10);
                break;
            default:
                break;
        }
    }

    private static void hit(Bot bot, StateMachine<Bot> brain, double now, int damage) {
        bot.hp -= damage;
        say(now, "hit for " + damage + (brain.is("dead") ? " (dead swallows it)" : ""));
        brain.send("hit");
    }

    private static void say(double now, String what) {
        System.out.printf(Locale.ROOT, "%6.2f  sense  %s%n", now, what);
    }
}

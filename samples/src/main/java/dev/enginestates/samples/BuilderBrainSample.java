package dev.enginestates.samples;

import dev.enginestates.fsm.AIContext;
import dev.enginestates.fsm.AIStateMachine;
import dev.enginestates.fsm.StateContext;
import dev.enginestates.fsm.StateMachineBuilder;
import dev.enginestates.fsm.StateMachineDefinition;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A bot's brain whose role is chosen from outside (a {@code BotContext} extending
 * {@code AIContext}, roles kickoff, attack and defend, {@code defend} lasting 0.5 s with a
 * {@code commit} window, an {@code AIStateMachine} whose role a utility selector sets with
 * {@code transitionTo}), for two bots of a five-a-side team, off the ECS.
 *
 * <pre>
 * kickoff, attack, defend: no handler returns a name; the game's utility selector, every
 * 0.25 s, calls brain.transitionTo(bot, best) when the best role is another one
 * </pre>
 *
 * <ul>
 * <li>The handlers act in their role: {@code attack} strikes once it has built up for 0.75 s
 * (its time in state, which every transition resets); {@code defend} commits to the tackle when
 * its {@code commit} window (0.2..0.4 of its 0.5 s) opens.</li>
 * <li>{@code transitionTo} the current role re-enters it (exit, enter, time 0): when a second
 * runner comes at them, the defenders start their defend over and commit again.</li>
 * <li>{@code onStateEnter} keeps the context's {@code role} field, which the rest of the game
 * reads, equal to the brain's state.</li>
 * </ul>
 *
 * <p>Run: {@code mvn -q -pl samples exec:java -Dexec.mainClass=dev.enginestates.samples.BuilderBrainSample}
 */
public final class BuilderBrainSample {
    /** The tick: 60 Hz. */
    public static final float DT = 1f / 60;
    /** Ticks between two runs of the utility selector (0.25 s). */
    public static final int THINK_EVERY = 15;
    /** Seconds an attack builds up before the strike. */
    public static final float BUILD_UP = 0.75f;

    private BuilderBrainSample() {
    }

    /** What the bots see of the match (the game's own state). */
    public static final class Pitch {
        /** The referee has blown the whistle: play is on. */
        public boolean whistle;
        /** Our team has the ball. */
        public boolean ours;
    }

    /** The bot's context: the role, and what this bot needs to play it. */
    public static final class Bot extends AIContext {
        /** The bot's name, for the log. */
        public final String name;
        /** A forward leans to attack, a back to defend. */
        public final boolean forward;
        /** The match the bot plays in. */
        public final Pitch pitch;
        /** The role the rest of the game reads (kept by {@code onStateEnter}). */
        public String role = "kickoff";
        /** The current attack has struck. */
        public boolean struck;
        /** What the bot did, for the game's log and the tests. */
        public final List<String> did = new ArrayList<>();

        /** A bot of a team. */
        public Bot(String name, boolean forward, Pitch pitch) {
            this.name = name;
            this.forward = forward;
            this.pitch = pitch;
        }
    }

    /** The brain, shared by every bot of the team. */
    public static final StateMachineDefinition<Bot> BRAIN = brain();

    private static StateMachineDefinition<Bot> brain() {
        var b = new StateMachineBuilder<Bot>("bot-brain");
        b.onStateEnter((bot, state) -> bot.role = state);
        b.configureState("kickoff").asInitial().handler((bot, dt) -> null);   // holds its position for the whistle
        b.configureState("attack")
                .enter(bot -> bot.struck = false)
                .handler((bot, dt) -> {
                    if (!bot.struck && bot.timeInState() >= BUILD_UP) {
                        bot.struck = true;
                        bot.did.add("strikes (" + bot.timeInState() + " s into attack)");
                    }
                    return null;
                });
        b.configureState("defend").duration(0.5f).window("commit", 0.2f, 0.4f).handler((bot, dt) -> {
            if (StateContext.windowEntered(bot, "commit")) {
                bot.did.add("commits to the tackle (" + bot.timeInState() + " s into defend)");
            }
            return null;
        });
        return b.build();
    }

    /** The game's utility selector: scores each role for this bot on this pitch. */
    public static double utility(Bot bot, String role) {
        if (!bot.pitch.whistle) {
            return role.equals("kickoff") ? 1 : 0;
        }
        return switch (role) {
            case "attack" -> (bot.pitch.ours ? 0.8 : 0.2) + (bot.forward ? 0.15 : 0);
            case "defend" -> (bot.pitch.ours ? 0.1 : 0.7) + (bot.forward ? 0 : 0.15);
            default -> 0;
        };
    }

    /** The best role for the bot now (ties go to the first: kickoff, attack, defend). */
    public static String choose(Bot bot) {
        String best = "kickoff";
        for (String role : List.of("attack", "defend")) {
            if (utility(bot, role) > utility(bot, best)) {
                best = role;
            }
        }
        return best;
    }

    /** Runs the selector for one bot: a role change is a {@code transitionTo}; returns what it did, or null. */
    public static String think(AIStateMachine<Bot> brain, Bot bot) {
        String best = choose(bot);
        if (best.equals(brain.state())) {
            return null;
        }
        String from = brain.state();
        brain.transitionTo(bot, best);
        return String.format(Locale.ROOT, "%s > %s (attack %.2f, defend %.2f)", from, best, utility(bot, "attack"), utility(bot, "defend"));
    }

    /** A forward and a back through a kickoff, an attack, a lost ball, a second runner and the ball won back. */
    public static void main(String[] args) {
        Pitch pitch = new Pitch();
        List<Bot> bots = List.of(new Bot("ada", true, pitch), new Bot("bo", false, pitch));
        List<AIStateMachine<Bot>> brains = new ArrayList<>();
        for (Bot bot : bots) {
            AIStateMachine<Bot> brain = new AIStateMachine<>(BRAIN);
            brain.initialize(bot);
            brains.add(brain);
        }
        System.out.println("    t  bot  what");
        for (int tick = 1; tick <= 6 * 60; tick++) {
            String news = null;
            if (tick == 60) {
                pitch.whistle = true;
                pitch.ours = true;
                news = "whistle: we have the ball";
            } else if (tick == 180) {
                pitch.ours = false;
                news = "they steal the ball";
            } else if (tick == 216) {
                news = "a second runner comes at us";
            } else if (tick == 270) {
                pitch.ours = true;
                news = "we win the ball back";
            }
            if (news != null) {
                System.out.printf(Locale.ROOT, "%5.2f       %s%n", tick * DT, news);
            }
            for (int i = 0; i < bots.size(); i++) {
                Bot bot = bots.get(i);
                AIStateMachine<Bot> brain = brains.get(i);
                String chose = null;
                if (tick == 216 && brain.state().equals("defend")) {
                    brain.transitionTo(bot, "defend");   // the same role again: re-entered, its time and windows start over
                    chose = "defend > defend (re-entered for the new runner)";
                } else if (tick % THINK_EVERY == 0) {
                    chose = think(brain, bot);
                }
                brain.update(bot, DT);
                if (chose != null) {
                    bot.did.add(0, chose);
                }
                for (String d : bot.did) {
                    System.out.printf(Locale.ROOT, "%5.2f  %-3s  %s%n", tick * DT, bot.name, d);
                }
                bot.did.clear();
            }
        }
        for (Bot bot : bots) {
            System.out.printf(Locale.ROOT, "%s ends in %s, %.2f s into it%n", bot.name, bot.role, bot.timeInState());
        }
    }
}

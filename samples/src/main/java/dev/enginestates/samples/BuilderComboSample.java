package dev.enginestates.samples;

import dev.enginestates.fsm.AIContext;
import dev.enginestates.fsm.State;
import dev.enginestates.fsm.StateBehavior;
import dev.enginestates.fsm.StateMachine;
import dev.enginestates.fsm.StateMachineBuilder;
import dev.enginestates.fsm.StateMachineDefinition;
import dev.enginestates.declare.StateMotionProfile;
import dev.enginestates.fsm.StateWindow;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A three-hit combo with timing windows: an {@code Attack} state's metadata (a duration, a tag,
 * a {@code damage} and an {@code input} window, data and a motion profile) grown into jab,
 * cross and hook, on a fighter run by its own {@link StateMachine} (no ECS).
 *
 * <pre>
 * Idle ──[attack pressed]──▶ Jab ──[progress &gt;= 1, buffered]──▶ Cross ──[progress &gt;= 1, buffered]──▶ Hook ──[progress &gt;= 1]──▶ Idle
 *                            Jab, Cross ──[progress &gt;= 1, nothing buffered]──▶ Idle
 * </pre>
 *
 * <ul>
 * <li><b>Windows are progress</b>, fractions of the attack's duration: the jab's
 * {@code damage} window {@code 0.25..0.45} of 0.4 s is 0.1 s to 0.18 s. The hit lands in a
 * {@link StateWindow} callback, run once when the window opens, before the state's handler.</li>
 * <li><b>The input window</b> buffers the next attack: a press inside it is kept for the end of
 * the swing, a press before it is dropped (no button mashing).</li>
 * <li><b>The tag</b> tells the states one rule serves apart: jab and cross are {@code light}
 * (the dummy staggers), the hook {@code heavy} (it goes down).</li>
 * <li><b>Data</b> is each attack's damage and stamina cost, read by the builder's
 * {@code onStateEnter}, which runs on every entry.</li>
 * <li><b>Motion</b>: how much of the walk each swing keeps ({@code movementThrottle}) and a
 * lunge over its progress ({@code evaluateCurrentMotion()}).</li>
 * <li><b>Delay</b>: the hook winds up for 0.1 s, during which neither its handler nor its window
 * callbacks run.</li>
 * </ul>
 *
 * <p>Run: {@code mvn -q -pl samples exec:java -Dexec.mainClass=dev.enginestates.samples.BuilderComboSample}
 */
public final class BuilderComboSample {
    /** The tick: 60 Hz, in the machine's float seconds. */
    public static final float DT = 1f / 60;
    /** The fighter's walking speed in m/s, scaled by each state's movement throttle. */
    public static final float WALK = 1.5f;

    private BuilderComboSample() {
    }

    /** One attack's data ({@code configureState(...).data(...)}). */
    public record AttackStep(int damage, int staminaCost) {
    }

    /** The fighter's context: its input this tick, its stamina and position, what happened. */
    public static final class Fighter extends AIContext {
        /** The attack button was pressed this tick (the input system sets it, the handler consumes it). */
        public boolean attackPressed;
        /** A press kept for the end of the current swing. */
        public boolean buffered;
        /** Stamina; each attack costs its step's staminaCost. */
        public int stamina = 100;
        /** Metres walked and lunged forward. */
        public float x;
        /** The training dummy's hit points. */
        public int dummyHp = 100;
        /** What happened, in order, for the game's log and the tests. */
        public final List<String> events = new ArrayList<>();

        /** Walks (held forward) and lunges for one tick: the state's throttle on the walk, plus its motion. */
        public void move(float dt) {
            x += (WALK * currentMovementThrottle() + evaluateCurrentMotion()) * dt;
        }
    }

    /** The combo's handlers: one rule for the three attacks, one callback per damage window. */
    @StateBehavior("combo")
    public static final class ComboBehavior {
        /** Waits for the attack button. */
        @State(value = "Idle", initial = true, to = "Jab")
        public String idle(Fighter f, float dt) {
            if (!f.attackPressed) {
                return null;
            }
            f.attackPressed = false;
            return "Jab";
        }

        /** The opener. */
        @State(value = "Jab", to = {"Cross", "Idle"})
        public String jab(Fighter f, float dt) {
            return swing(f, "Cross");
        }

        /** The follow-up. */
        @State(value = "Cross", to = {"Hook", "Idle"})
        public String cross(Fighter f, float dt) {
            return swing(f, "Hook");
        }

        /** The finisher: nothing follows it, and it winds up 0.1 s before it runs. */
        @State(value = "Hook", delay = HOOK_WIND_UP, to = "Idle")
        public String hook(Fighter f, float dt) {
            return swing(f, null);
        }

        /** The jab's damage window opened. */
        @StateWindow(state = "Jab", window = "damage")
        public void jabLands(Fighter f) {
            land(f);
        }

        /** The cross's damage window opened. */
        @StateWindow(state = "Cross", window = "damage")
        public void crossLands(Fighter f) {
            land(f);
        }

        /** The hook's damage window opened. */
        @StateWindow(state = "Hook", window = "damage")
        public void hookLands(Fighter f) {
            land(f);
        }
    }

    /** Seconds the hook winds up ({@code @State(delay = ...)}). */
    public static final float HOOK_WIND_UP = 0.1f;

    /**
     * One rule for every attack: a press inside the input window is buffered, one before it is
     * dropped; at the end of the swing the buffered press chains into {@code next}.
     */
    static String swing(Fighter f, String next) {
        if (f.attackPressed) {
            f.attackPressed = false;
            if (next != null && f.inWindow("input")) {
                f.buffered = true;
                f.events.add("press buffered for " + next);
            } else {
                f.events.add("press dropped (" + (next == null ? "the finisher chains into nothing" : "before the input window") + ")");
            }
        }
        if (f.progress() < 1f) {
            return null;
        }
        boolean chain = f.buffered && next != null;
        f.buffered = false;
        return chain ? next : "Idle";
    }

    /** A hit lands: the attack's damage; the tag says how the dummy takes it. */
    static void land(Fighter f) {
        AttackStep step = f.currentStateData(AttackStep.class);
        f.dummyHp -= step.damage();
        f.events.add(f.currentStateTag() + " hit for " + step.damage() + ", the dummy "
                + (f.currentStateTag().equals("heavy") ? "goes down" : "staggers") + " (hp " + f.dummyHp + ")");
    }

    /** The combo, shared by every fighter. */
    public static final StateMachineDefinition<Fighter> COMBO = new StateMachineBuilder<Fighter>("combo", Fighter::new)
            .registerHandlers(ComboBehavior.class)
            .onStateEnter((f, state) -> {
                AttackStep step = f.currentStateData(AttackStep.class);
                if (step != null) {
                    f.stamina -= step.staminaCost();
                    f.events.add(state + " (" + f.currentStateTag() + "), stamina " + f.stamina);
                }
            })
            .configureState("Jab")
                .duration(0.40f)
                .tag("light")
                .window("damage", 0.25f, 0.45f)
                .window("input", 0.50f, 1.00f)
                .data(new AttackStep(8, 5))
                .motion(new StateMotionProfile(0.5f, 0f))
            .configureState("Cross")
                .duration(0.45f)
                .tag("light")
                .window("damage", 0.30f, 0.50f)
                .window("input", 0.55f, 1.00f)
                .data(new AttackStep(12, 8))
                .motion(new StateMotionProfile(0.25f, 1.5f, p -> 1 - p))      // a step in, fading
            .configureState("Hook")
                .duration(0.70f)
                .tag("heavy")
                .window("damage", 0.40f, 0.60f)
                .data(new AttackStep(25, 15))
                .motion(new StateMotionProfile(0f, 3f, p -> p < 0.5f ? 1f : 0f))  // a lunge, then planted
            .build();

    /** Ticks at which the sample's player presses attack. */
    public static final Set<Integer> PRESSES = Set.of(10, 14, 30, 55, 90, 200);

    /** The fighter throws the full combo, then a lone jab whose late press is too late; prints what happens, tick by tick. */
    public static void main(String[] args) {
        Fighter f = new Fighter();
        StateMachine<Fighter> fsm = new StateMachine<>(COMBO);
        fsm.initialize(f);
        System.out.println("    t  tick  state  what");
        String last = fsm.state();
        for (int tick = 1; tick <= 300; tick++) {
            if (PRESSES.contains(tick)) {
                f.attackPressed = true;
                f.events.add(0, "attack pressed");
            }
            fsm.update(f, DT);
            f.attackPressed = false;     // a press is seen for one tick
            f.move(DT);
            if (!fsm.state().equals(last) && fsm.state().equals("Idle")) {
                f.events.add("back to Idle");
            }
            last = fsm.state();
            for (String e : f.events) {
                System.out.printf(Locale.ROOT, "%5.2f  %4d  %-5s  %s%n", tick * DT, tick, fsm.state(), e);
            }
            f.events.clear();
        }
        System.out.printf(Locale.ROOT, "dummy hp %d, stamina %d, %.2f m walked and lunged%n", f.dummyHp, f.stamina, f.x);
    }
}

package dev.enginestates.bench;

import dev.enginestates.StatesDef;
import dev.enginestates.declare.StateGuard;
import dev.enginestates.plain.StateMachine;

/**
 * The polled style's benchmark machines (issue 11, Performance), run on a plain object with
 * {@link StateMachine}: the three cases of {@link PolledGuardsBench}, {@link PolledCycle1sBench}
 * and {@link PolledTransitionBench}. Their gdx-ai twins are in {@link GdxAiAgents}; the two
 * read the same fields and test the same conditions.
 */
final class PolledMachines {
    /** Machines in the guard and cycle cases. */
    static final int MACHINES = 1000;
    /** The cycle's period: one move a second. */
    static final double PERIOD = 1;

    /** A bot's context: what the guards read. */
    static final class Bot {
        int hp = 100;
        boolean seen;
        boolean alarm;
        boolean flag;
    }

    private PolledMachines() {
    }

    // ------------------------------------------------------------------ guards: 3 a state, none true

    /** The guards of case P-guards, in the order they are tested; none holds for a {@link Bot} as made. */
    static final StateGuard<Bot> DEAD = (b, t) -> b.hp <= 0;
    static final StateGuard<Bot> SEEN = (b, t) -> b.seen;
    static final StateGuard<Bot> ALARM = (b, t) -> b.alarm;
    /** The same three, for the guards-alone baseline (the lambda calls without a machine). */
    static final StateGuard<Bot>[] GUARDS = guards();

    @SuppressWarnings("unchecked")
    private static StateGuard<Bot>[] guards() {
        return (StateGuard<Bot>[]) new StateGuard<?>[] {DEAD, SEEN, ALARM};
    }

    /** 'watch' leaves on any of three guards; every machine stays there. */
    static final StatesDef<Bot> GUARDS3 = StatesDef.define("guards3", d -> d
            .initial("watch")
            .state("watch", s -> s
                    .to("dead", DEAD)
                    .to("combat", SEEN)
                    .to("alert", ALARM))
            .state("dead")
            .state("combat")
            .state("alert"));

    /**
     * Case G spread over 4 states: 'w0' to 'w3' each test the same three conditions through
     * lambdas of their own (12 lambda classes at the interpreter's one guard call site), and
     * machine {@code i} is put in {@code w(i % 4)}, as a game's machines sit in many states.
     */
    static final StatesDef<Bot> GUARDS3_IN_4 = StatesDef.define("guards3-in-4", d -> d
            .initial("w0")
            .state("w0", s -> s.to("dead", (b, t) -> b.hp <= 0).to("combat", (b, t) -> b.seen).to("alert", (b, t) -> b.alarm))
            .state("w1", s -> s.to("dead", (b, t) -> b.hp <= 0).to("combat", (b, t) -> b.seen).to("alert", (b, t) -> b.alarm))
            .state("w2", s -> s.to("dead", (b, t) -> b.hp <= 0).to("combat", (b, t) -> b.seen).to("alert", (b, t) -> b.alarm))
            .state("w3", s -> s.to("dead", (b, t) -> b.hp <= 0).to("combat", (b, t) -> b.seen).to("alert", (b, t) -> b.alarm))
            .state("dead")
            .state("combat")
            .state("alert"));

    /** Machines of case G: one watching state ({@code kinds} 1) or four ({@code kinds} 4, machine i in w(i % 4)). */
    static StateMachine<Bot>[] guarded(int n, int kinds) {
        if (kinds == 1) {
            return machines(GUARDS3, n);
        }
        if (kinds != 4) {
            throw new IllegalArgumentException("kinds is 1 or 4, got " + kinds);
        }
        StateMachine<Bot>[] out = machines(GUARDS3_IN_4, n);
        for (int i = 0; i < n; i++) {
            out[i].go("w" + (i % 4));
        }
        return out;
    }

    // ------------------------------------------------------------------ once a second through after

    /** off and on, each left after 1 s: a move a second, 60 steps apart at 60 Hz. */
    static final StatesDef<Bot> CYCLE_1S = StatesDef.define("cycle-1s", d -> d
            .initial("off")
            .state("off", s -> s.after(PERIOD, "on"))
            .state("on", s -> s.after(PERIOD, "off")));

    // ------------------------------------------------------------------ one transition on a guard

    /** off while the flag is down, on while it is up: flipping the flag and stepping is one transition. */
    static final StatesDef<Bot> FLIP = StatesDef.define("flip", d -> d
            .initial("off")
            .state("off", s -> s.to("on", (b, t) -> b.flag))
            .state("on", s -> s.to("off", (b, t) -> !b.flag)));

    // ------------------------------------------------------------------ set-up and checks

    @SuppressWarnings("unchecked")
    static StateMachine<Bot>[] machines(StatesDef<Bot> def, int n) {
        StateMachine<Bot>[] out = (StateMachine<Bot>[]) new StateMachine<?>[n];
        for (int i = 0; i < n; i++) {
            out[i] = new StateMachine<>(def, new Bot());
        }
        return out;
    }

    /**
     * Staggers a cycle with the public API only: machine {@code i} of {@code n} takes one step of
     * {@code i/n} of a period (less than the period, so nothing moves), which puts its state's
     * clock there; about {@code n * dt / period} machines then move on each step.
     */
    static void stagger(StateMachine<Bot>[] machines, double period) {
        for (int i = 0; i < machines.length; i++) {
            machines[i].step(i * period / machines.length);
        }
    }

    static void stepAll(StateMachine<Bot>[] machines, int steps) {
        for (int k = 0; k < steps; k++) {
            for (StateMachine<Bot> m : machines) {
                m.step(Machines.DT);
            }
        }
    }

    /** Over one period of steps every machine moves exactly once, so it ends in the other state. */
    static void checkEachMovesOncePerPeriod(StateMachine<Bot>[] machines) {
        int steps = (int) Math.round(PERIOD / Machines.DT);
        Moves.checkEachMovesOnce("machine", machines.length, steps, i -> machines[i].state(), () -> stepAll(machines, 1));
    }

    /** Machine {@code i} is in {@code states[i % states.length]}. */
    static void checkAll(StateMachine<Bot>[] machines, String... states) {
        for (int i = 0; i < machines.length; i++) {
            String state = states[i % states.length];
            if (!machines[i].state().equals(state)) {
                throw new IllegalStateException("machine " + i + " is in '" + machines[i].state() + "'; expected '" + state + "'");
            }
        }
    }
}

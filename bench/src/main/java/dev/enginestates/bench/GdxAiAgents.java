package dev.enginestates.bench;

import com.badlogic.gdx.ai.DefaultTimepiece;
import com.badlogic.gdx.ai.GdxAI;
import com.badlogic.gdx.ai.fsm.DefaultStateMachine;
import com.badlogic.gdx.ai.fsm.State;
import com.badlogic.gdx.ai.msg.Telegram;

/**
 * The peer of the polled benchmarks: gdx-ai 1.8.2's {@link DefaultStateMachine}, written the way
 * its documentation shows, an agent owning its machine and the states an enum whose
 * {@code update(agent)} tests the conditions and calls {@code changeState}. The conditions are
 * those of {@link PolledMachines}, on the same fields. A time in a state is the agent's own
 * timer, advanced in {@code update} by gdx-ai's {@link GdxAI#getTimepiece() timepiece} (which the
 * game updates once a frame) and reset in {@code enter}.
 */
final class GdxAiAgents {
    private GdxAiAgents() {
    }

    /** What a gdx-ai agent holds: the same fields as {@link PolledMachines.Bot}, a timer, and its machine. */
    static final class Agent {
        int hp = 100;
        boolean seen;
        boolean alarm;
        boolean flag;
        double timer;
        final DefaultStateMachine<Agent, State<Agent>> fsm;

        Agent(State<Agent> initial) {
            fsm = new DefaultStateMachine<>(this);
            fsm.setInitialState(initial); // gdx-ai sets it without calling enter
            initial.enter(this);
        }
    }

    /** The base of the enum states: nothing on enter, update and exit, no messages. */
    interface Quiet extends State<Agent> {
        @Override
        default void enter(Agent a) {
        }

        @Override
        default void update(Agent a) {
        }

        @Override
        default void exit(Agent a) {
        }

        @Override
        default boolean onMessage(Agent a, Telegram telegram) {
            return false;
        }
    }

    /**
     * The three guards of {@link PolledMachines#GUARDS3} as one update. WATCH2 to WATCH4 are
     * the same state as classes of their own, for the agents spread over 4 states
     * ({@link PolledMachines#GUARDS3_IN_4}): DefaultStateMachine's one call site then sees 4.
     */
    enum Guarded implements Quiet {
        WATCH {
            @Override
            public void update(Agent a) {
                watch(a);
            }
        },
        WATCH2 {
            @Override
            public void update(Agent a) {
                watch(a);
            }
        },
        WATCH3 {
            @Override
            public void update(Agent a) {
                watch(a);
            }
        },
        WATCH4 {
            @Override
            public void update(Agent a) {
                watch(a);
            }
        },
        DEAD, COMBAT, ALERT;

        static void watch(Agent a) {
            if (a.hp <= 0) {
                a.fsm.changeState(DEAD);
            } else if (a.seen) {
                a.fsm.changeState(COMBAT);
            } else if (a.alarm) {
                a.fsm.changeState(ALERT);
            }
        }

        static final Guarded[] WATCHING = {WATCH, WATCH2, WATCH3, WATCH4};
    }

    /** {@link PolledMachines#CYCLE_1S}: off and on, each left after a second. */
    enum Cycle implements Quiet {
        OFF {
            @Override
            public void update(Agent a) {
                if (tick(a)) {
                    a.fsm.changeState(ON);
                }
            }
        },
        ON {
            @Override
            public void update(Agent a) {
                if (tick(a)) {
                    a.fsm.changeState(OFF);
                }
            }
        };

        @Override
        public void enter(Agent a) {
            a.timer = 0;
        }

        /** Advances the agent's timer by the frame's delta; whether the second is up (the engine's tolerance, 1e-9 s). */
        static boolean tick(Agent a) {
            a.timer += GdxAI.getTimepiece().getDeltaTime();
            return a.timer >= PolledMachines.PERIOD - 1e-9;
        }
    }

    /** {@link PolledMachines#FLIP}: off while the flag is down, on while it is up. */
    enum Flip implements Quiet {
        OFF {
            @Override
            public void update(Agent a) {
                if (a.flag) {
                    a.fsm.changeState(ON);
                }
            }
        },
        ON {
            @Override
            public void update(Agent a) {
                if (!a.flag) {
                    a.fsm.changeState(OFF);
                }
            }
        }
    }

    // ------------------------------------------------------------------ set-up and checks

    /** Agents of case G: all in WATCH ({@code kinds} 1), or agent i in the (i % 4)-th watching state ({@code kinds} 4). */
    static Agent[] guarded(int n, int kinds) {
        if (kinds != 1 && kinds != 4) {
            throw new IllegalArgumentException("kinds is 1 or 4, got " + kinds);
        }
        Agent[] out = new Agent[n];
        for (int i = 0; i < n; i++) {
            out[i] = new Agent(Guarded.WATCHING[i % kinds]);
        }
        return out;
    }

    static Agent[] agents(State<Agent> initial, int n) {
        Agent[] out = new Agent[n];
        for (int i = 0; i < n; i++) {
            out[i] = new Agent(initial);
        }
        return out;
    }

    /** The frame's clock, as a libGDX game updates it once a frame (the timepiece gdx-ai reads). */
    static void frame(double dt) {
        GdxAI.getTimepiece().update((float) dt);
    }

    /** gdx-ai's own timepiece, fresh (its time is a float that would lose precision over a long run). */
    static void resetTimepiece() {
        GdxAI.setTimepiece(new DefaultTimepiece());
    }

    /** Agent {@code i} of {@code n} starts {@code i/n} of a period into its state. */
    static void stagger(Agent[] agents, double period) {
        for (int i = 0; i < agents.length; i++) {
            agents[i].timer = i * period / agents.length;
        }
    }

    static void stepAll(Agent[] agents, int steps) {
        for (int k = 0; k < steps; k++) {
            step(agents, Machines.DT);
        }
    }

    /** One frame of {@code dt} seconds: the timepiece moves, then every agent's machine updates. */
    static void step(Agent[] agents, double dt) {
        frame(dt);
        for (Agent a : agents) {
            a.fsm.update();
        }
    }

    /** Over one period of steps ({@code PolledMachines.PERIOD} at {@code Machines.DT}) every agent moves exactly once. */
    static void checkEachMovesOncePerPeriod(Agent[] agents) {
        int steps = (int) Math.round(PolledMachines.PERIOD / Machines.DT);
        Moves.checkEachMovesOnce("agent", agents.length, steps, i -> agents[i].fsm.getCurrentState(), () -> stepAll(agents, 1));
    }

    /** Agent {@code i} is in {@code states[i % states.length]}. */
    @SafeVarargs
    static void checkAll(Agent[] agents, State<Agent>... states) {
        for (int i = 0; i < agents.length; i++) {
            State<Agent> state = states[i % states.length];
            if (agents[i].fsm.getCurrentState() != state) {
                throw new IllegalStateException("agent " + i + " is in " + agents[i].fsm.getCurrentState() + "; expected " + state);
            }
        }
    }
}

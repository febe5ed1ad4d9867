package dev.enginestates.bench;

import dev.enginestates.records.Access;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.AIContext;
import dev.enginestates.declare.StateHandler;
import dev.enginestates.fsm.StateMachine;
import dev.enginestates.fsm.StateMachineBuilder;
import dev.enginestates.fsm.StateMachineDefinition;
import dev.enginestates.declare.StateMotionProfile;

import java.util.List;

/**
 * The builder style's benchmark machines (issue 16, Performance: the {@code 002} document's
 * {@code StateMachineBuilder}), run on plain contexts with {@code dev.enginestates.fsm.StateMachine}
 * and on entities with {@code States.of(definition)}: the three cases of
 * {@link BuilderHandlersBench}, {@link BuilderCycle1sBench} and {@link BuilderTransitionBench}.
 * Their gdx-ai twins are {@link GdxAiAgents}' {@code Guarded.WATCH}, {@code Cycle} and
 * {@code Flip}; they read the same fields and test the same conditions.
 */
final class BuilderMachines {
    /** Machines in the step cases. */
    static final int MACHINES = 1000;
    /** The fixed step in float, as the builder style counts time: {@code (float) Machines.DT}, what {@code world.step(1/60.0)} hands it. */
    static final float DT = (float) Machines.DT;
    /** The cycle's states are left once their time in state reaches this. */
    static final float PERIOD = 1f;
    /**
     * Steps between two moves of a cycling machine: a move resets the time in state to 0, and 60
     * float additions of 1/60f make 0.99999994f, so the 61st step is the one that reaches a second
     * (gdx-ai's double timer, with the engine's 1e-9 s tolerance, moves every 60).
     */
    static final int PERIOD_STEPS = stepsToReach(PERIOD);

    /** A bot's context: the contract's fields (from {@link AIContext}) and what the handlers read. */
    static final class Bot extends AIContext {
        int hp = 100;
        boolean seen;
        boolean alarm;
    }

    /** An attack step's data, for the transition's metadata. */
    record AttackStep(int staminaCost) {
    }

    private BuilderMachines() {
    }

    private static int stepsToReach(float seconds) {
        float t = 0f;
        int k = 0;
        while (t < seconds) {
            t += DT;
            k++;
        }
        return k;
    }

    // ------------------------------------------------------------------ a handler that returns null

    /** The three conditions of {@code GdxAiAgents.Guarded.watch}, as a handler; none holds for a {@link Bot} as made. */
    static final StateHandler<Bot> WATCH = (b, dt) -> b.hp <= 0 ? "dead" : b.seen ? "combat" : b.alarm ? "alert" : null;

    /** 'watch' runs {@link #WATCH} every tick and stays; the states it could go to have no handler. */
    static final StateMachineDefinition<Bot> WATCHING = new StateMachineBuilder<Bot>("builder-watch", Bot::new)
            .configureState("watch").asInitial().handler(WATCH)
            .configureState("dead")
            .configureState("combat")
            .configureState("alert")
            .build();

    // ------------------------------------------------------------------ once a second

    static final StateHandler<Bot> OFF = (b, dt) -> b.timeInState() >= PERIOD ? "on" : null;
    static final StateHandler<Bot> ON = (b, dt) -> b.timeInState() >= PERIOD ? "off" : null;

    /** off and on, each left once its time in state reaches a second: a move every {@link #PERIOD_STEPS} steps. */
    private static StateMachineDefinition<Bot> cycle(boolean tags) {
        return new StateMachineBuilder<Bot>(tags ? "builder-cycle-1s" : "builder-cycle-1s-untagged", Bot::new)
                .tags(tags)
                .configureState("off").asInitial().handler(OFF)
                .configureState("on").handler(ON)
                .build();
    }

    static final StateMachineDefinition<Bot> CYCLE_1S = cycle(true);
    static final StateMachineDefinition<Bot> CYCLE_1S_UNTAGGED = cycle(false);

    // ------------------------------------------------------------------ a transition with metadata

    /**
     * Two attacks, each with every kind of metadata (duration, tag, two windows, data, motion):
     * a transition between them writes all of it into the context. Their handlers stay.
     */
    private static StateMachineDefinition<Bot> attacks(boolean tags) {
        return new StateMachineBuilder<Bot>(tags ? "builder-attacks" : "builder-attacks-untagged", Bot::new)
                .tags(tags)
                .configureState("light").asInitial().handler((b, dt) -> null)
                .duration(0.55f).tag("light").window("damage", 0.35f, 0.55f).window("input", 0.60f, 1.00f)
                .data(new AttackStep(10)).motion(new StateMotionProfile(0.25f, 1f))
                .configureState("heavy").handler((b, dt) -> null)
                .duration(0.9f).tag("heavy").window("damage", 0.40f, 0.60f).window("input", 0.70f, 1.00f)
                .data(new AttackStep(25)).motion(new StateMotionProfile(0.1f, 1.5f))
                .build();
    }

    static final StateMachineDefinition<Bot> ATTACKS = attacks(true);
    static final StateMachineDefinition<Bot> ATTACKS_UNTAGGED = attacks(false);

    // ------------------------------------------------------------------ plain machines

    /** {@code n} machines over the definition, each initialized on a context of its own. */
    @SuppressWarnings("unchecked")
    static StateMachine<Bot>[] machines(StateMachineDefinition<Bot> def, int n) {
        StateMachine<Bot>[] out = (StateMachine<Bot>[]) new StateMachine<?>[n];
        for (int i = 0; i < n; i++) {
            out[i] = new StateMachine<>(def);
            out[i].initialize(new Bot());
        }
        return out;
    }

    /** The context a machine was initialized with (the one its record holds). */
    static Bot context(StateMachine<Bot> m) {
        return (Bot) Access.record(m).contextObject();
    }

    /** One tick of every machine: {@code update(ctx, dt)} each, as a game that owns its machines ticks them. */
    static void update(StateMachine<Bot>[] machines, Bot[] contexts, float dt) {
        for (int i = 0; i < machines.length; i++) {
            machines[i].update(contexts[i], dt);
        }
    }

    static Bot[] contexts(StateMachine<Bot>[] machines) {
        Bot[] out = new Bot[machines.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = context(machines[i]);
        }
        return out;
    }

    /** Machine {@code i} of {@code n} starts {@code i/n} of a period into its state (one {@code advance}: nothing runs). */
    static void stagger(StateMachine<Bot>[] machines, Bot[] contexts) {
        for (int i = 0; i < machines.length; i++) {
            machines[i].advance(contexts[i], i * PERIOD / machines.length);
        }
    }

    /** Over {@link #PERIOD_STEPS} ticks every machine moves exactly once. */
    static void checkEachMovesOncePerPeriod(StateMachine<Bot>[] machines, Bot[] contexts) {
        Moves.checkEachMovesOnce("machine", machines.length, PERIOD_STEPS, i -> machines[i].state(),
                () -> update(machines, contexts, DT));
    }

    /** Every machine is in {@code state}. */
    static void checkAll(StateMachine<Bot>[] machines, String state) {
        for (int i = 0; i < machines.length; i++) {
            if (!state.equals(machines[i].state())) {
                throw new IllegalStateException("machine " + i + " is in '" + machines[i].state() + "'; expected '" + state + "'");
            }
        }
    }

    // ------------------------------------------------------------------ on entities

    /** Machine {@code i} of {@code n} on an entity starts {@code i/n} of a period into its state. */
    static void stagger(List<StateRecord<Bot>> records) {
        for (int i = 0; i < records.size(); i++) {
            records.get(i).setTime("", i * PERIOD / records.size());
        }
    }

    /** Over {@link #PERIOD_STEPS} steps of the world every machine on it moves exactly once. */
    static void checkEachMovesOncePerPeriod(StateWorld world, List<StateRecord<Bot>> records) {
        Moves.checkEachMovesOnce("machine", records.size(), PERIOD_STEPS, i -> records.get(i).state(), () -> world.step(Machines.DT));
    }

    /** Every machine on the world is in {@code state}. */
    static void checkAll(List<StateRecord<Bot>> records, String state) {
        for (int i = 0; i < records.size(); i++) {
            if (!records.get(i).is(state)) {
                throw new IllegalStateException("machine " + i + " is " + records.get(i) + "; expected in '" + state + "'");
            }
        }
    }

    /** A world of {@code n} entities, each with a machine over the definition and a context of its own. */
    static StateWorld world(States<Bot> machine, int n, int settleSteps) {
        StateWorld world = Machines.world(machine, n);
        for (int k = 0; k < settleSteps; k++) {
            world.step(Machines.DT);
        }
        return world;
    }

    // ------------------------------------------------------------------ the handlers alone

    /**
     * The baseline: each context's handler called directly through one call site, no machine;
     * {@code handlerOf[i]} is the handler machine {@code i}'s state runs. Returns how many handlers
     * returned a state (none, in the cases measured).
     */
    static int callAll(StateHandler<Bot>[] handlerOf, Bot[] bots, float dt) {
        int moving = 0;
        for (int i = 0; i < bots.length; i++) {
            if (handlerOf[i].update(bots[i], dt) != null) {
                moving++;
            }
        }
        return moving;
    }

    @SafeVarargs // byState is only read, never stored nor handed on
    @SuppressWarnings("unchecked")
    static StateHandler<Bot>[] handlers(int n, StateHandler<Bot>... byState) {
        StateHandler<Bot>[] out = (StateHandler<Bot>[]) new StateHandler<?>[n];
        for (int i = 0; i < n; i++) {
            out[i] = byState[i % byState.length];
        }
        return out;
    }

    static Bot[] bots(int n) {
        Bot[] out = new Bot[n];
        for (int i = 0; i < n; i++) {
            out[i] = new Bot();
        }
        return out;
    }
}

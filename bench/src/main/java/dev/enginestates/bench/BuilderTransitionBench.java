package dev.enginestates.bench;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.bench.BuilderMachines.AttackStep;
import dev.enginestates.bench.BuilderMachines.Bot;
import dev.enginestates.bench.GdxAiAgents.Agent;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.StateMachine;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Builder case T: one forced transition between two configured states, each with a duration, a
 * tag, two windows, data and a motion profile ({@link BuilderMachines#ATTACKS}): the transition
 * runs the exit, writes the new state's metadata into the context, runs {@code onStateEnter} and
 * the enter hook (none here) and resets the time in state. Each operation goes to the other
 * state, so every operation is one transition. The target: at most 100 ns, and 0 B
 * without tag components.
 *
 * <ul>
 * <li>{@code engineStates}: the plain face, {@code fsm.transitionTo(ctx, name)}.</li>
 * <li>{@code engineStatesEcs}: the ECS face, {@code States.transitionTo(entity, name)} on an entity
 * of a {@link StateWorld}, which finds the record on the entity and, with {@code tags=true}, moves
 * its tag components in one Dominion composition move.</li>
 * <li>{@code gdxAi}: gdx-ai's {@code DefaultStateMachine.changeState(state)} on one agent, between
 * the two states of {@link GdxAiAgents.Flip} (empty {@code exit} and {@code enter}).</li>
 * </ul>
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar BuilderTransitionBench -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch"})
public class BuilderTransitionBench {
    /** engine-states, plain face: one machine. */
    @State(Scope.Thread)
    public static class Ours {
        Bot bot;
        StateMachine<Bot> fsm;
        boolean heavy;

        @Setup(Level.Trial)
        public void setUp() {
            fsm = BuilderMachines.machines(BuilderMachines.ATTACKS, 1)[0];
            bot = BuilderMachines.context(fsm);
            for (int i = 0; i < 4; i++) {
                String was = fsm.state();
                flip();
                if (fsm.state().equals(was) || bot.currentStateData(AttackStep.class).staminaCost() != (heavy ? 25 : 10)) {
                    throw new IllegalStateException("a transition did not move the machine or its metadata: still '" + was + "'");
                }
            }
        }

        void flip() {
            heavy = !heavy;
            fsm.transitionTo(bot, heavy ? "heavy" : "light");
        }
    }

    /** engine-states, ECS face: one entity. */
    @State(Scope.Thread)
    public static class OursEcs {
        /** A tag component per state (the default), or none. */
        @Param({"true", "false"})
        public boolean tags;

        StateWorld world;
        States<Bot> machine;
        Entity entity;
        boolean heavy;

        @Setup(Level.Trial)
        public void setUp() {
            machine = States.of(tags ? BuilderMachines.ATTACKS : BuilderMachines.ATTACKS_UNTAGGED);
            world = StateWorld.create();
            entity = world.spawn(machine.trait());
            for (int i = 0; i < 4; i++) {
                String was = machine.read(entity).state();
                flip();
                if (machine.read(entity).state().equals(was) || (tags && !entity.has(machine.is(heavy ? "heavy" : "light")))) {
                    throw new IllegalStateException("a transition did not move the machine or its tag: still '" + was + "'");
                }
            }
        }

        void flip() {
            heavy = !heavy;
            machine.transitionTo(entity, heavy ? "heavy" : "light");
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            world.close();
        }
    }

    /** gdx-ai: one agent. */
    @State(Scope.Thread)
    public static class Peer {
        Agent agent;
        boolean on;

        @Setup(Level.Trial)
        public void setUp() {
            agent = new Agent(GdxAiAgents.Flip.OFF);
            for (int i = 0; i < 4; i++) {
                Object was = agent.fsm.getCurrentState();
                flip();
                if (agent.fsm.getCurrentState() == was) {
                    throw new IllegalStateException("changeState did not move the agent: still " + was);
                }
            }
        }

        void flip() {
            on = !on;
            agent.fsm.changeState(on ? GdxAiAgents.Flip.ON : GdxAiAgents.Flip.OFF);
        }
    }

    /** One transition: its mean (AverageTime), and its bytes with {@code -prof gc}. */
    @Benchmark
    public void engineStates(Ours s) {
        s.flip();
    }

    /** {@link #engineStates}, timed on its own for the percentiles (see {@link StepTimes}). */
    @Benchmark
    public void engineStatesTimed(Ours s, StepTimes times) {
        long start = System.nanoTime();
        s.flip();
        times.record(System.nanoTime() - start);
    }

    /** One transition of a machine on an entity. */
    @Benchmark
    public void engineStatesEcs(OursEcs s) {
        s.flip();
    }

    /** {@link #engineStatesEcs}, timed on its own for the percentiles. */
    @Benchmark
    public void engineStatesEcsTimed(OursEcs s, StepTimes times) {
        long start = System.nanoTime();
        s.flip();
        times.record(System.nanoTime() - start);
    }

    /** One gdx-ai transition. */
    @Benchmark
    public void gdxAi(Peer s) {
        s.flip();
    }

    /** {@link #gdxAi}, timed on its own for the percentiles. */
    @Benchmark
    public void gdxAiTimed(Peer s, StepTimes times) {
        long start = System.nanoTime();
        s.flip();
        times.record(System.nanoTime() - start);
    }
}

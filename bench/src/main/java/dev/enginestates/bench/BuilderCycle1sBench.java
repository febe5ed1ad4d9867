package dev.enginestates.bench;

import dev.enginestates.bench.BuilderMachines.Bot;
import dev.enginestates.bench.GdxAiAgents.Agent;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.declare.StateHandler;
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

import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.enginestates.bench.Machines.DT;

/**
 * Builder case D: 1,000 builder-style machines, each a 2-state cycle whose handlers leave at
 * {@code timeInState() >= 1f}, ticked at 1/60 s. The time in state is float and starts at 0
 * after each move, so a machine moves every {@link BuilderMachines#PERIOD_STEPS 61} ticks. In
 * phase, every machine moves on the same tick (the p99 tick is that one); staggered, machine
 * {@code i} starts {@code i/1000} of a second into its state, so about 16 move on each tick. One
 * operation is one tick of all 1,000.
 *
 * <ul>
 * <li>{@code engineStates}: the plain face, {@code fsm.update(ctx, 1/60f)} on 1,000
 * {@code dev.enginestates.fsm.StateMachine}s over {@link BuilderMachines#CYCLE_1S}; staggered by one
 * {@code advance} of {@code i/1000} s each.</li>
 * <li>{@code engineStatesEcs}: the ECS face, {@code world.step(1/60)} of a world of 1,000 entities,
 * with a tag component per state ({@code tags=true}, the builder's default, so every move is a
 * Dominion composition move) or without ({@code tags=false}); staggered with
 * {@code record.setTime("", i/1000)}.</li>
 * <li>{@code handlersAlone}: the baseline, the two handlers called directly on 1,000 contexts
 * (half in each state) through one call site, no machine.</li>
 * <li>{@code gdxAi}: gdx-ai's {@code DefaultStateMachine.update()} on 1,000 agents cycling through
 * {@link GdxAiAgents.Cycle} (as in {@link PolledCycle1sBench}: a double timer advanced by the
 * timepiece, a move every 60 ticks).</li>
 * </ul>
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar BuilderCycle1sBench -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch"})
public class BuilderCycle1sBench {
    /** engine-states, plain face: 1,000 cycling machines. */
    @State(Scope.Thread)
    public static class Ours {
        @Param({"inPhase", "staggered"})
        public String phase;

        StateMachine<Bot>[] machines;
        Bot[] contexts;

        @Setup(Level.Trial)
        public void setUp() {
            machines = BuilderMachines.machines(BuilderMachines.CYCLE_1S, BuilderMachines.MACHINES);
            contexts = BuilderMachines.contexts(machines);
            if (phase.equals("staggered")) {
                BuilderMachines.stagger(machines, contexts);
            }
            for (int k = 0; k < 2 * BuilderMachines.PERIOD_STEPS; k++) {
                step();
            }
            BuilderMachines.checkEachMovesOncePerPeriod(machines, contexts);
        }

        void step() {
            BuilderMachines.update(machines, contexts, BuilderMachines.DT);
        }
    }

    /** engine-states, ECS face: 1,000 cycling entities. */
    @State(Scope.Thread)
    public static class OursEcs {
        @Param({"inPhase", "staggered"})
        public String phase;

        /** A tag component per state (the default), or none. */
        @Param({"true", "false"})
        public boolean tags;

        StateWorld world;

        @Setup(Level.Trial)
        public void setUp() {
            States<Bot> machine = States.of(tags ? BuilderMachines.CYCLE_1S : BuilderMachines.CYCLE_1S_UNTAGGED);
            world = BuilderMachines.world(machine, BuilderMachines.MACHINES, 0);
            List<StateRecord<Bot>> records = world.records(machine);
            if (phase.equals("staggered")) {
                BuilderMachines.stagger(records);
            }
            // two periods: every machine has moved both ways, so every tag move is prepared
            for (int k = 0; k < 2 * BuilderMachines.PERIOD_STEPS; k++) {
                world.step(DT);
            }
            BuilderMachines.checkEachMovesOncePerPeriod(world, records);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            world.close();
        }
    }

    /** The baseline: the cycle's handlers on 1,000 contexts, no machine. */
    @State(Scope.Thread)
    public static class Alone {
        Bot[] bots;
        StateHandler<Bot>[] handlerOf;

        @Setup(Level.Trial)
        public void setUp() {
            bots = BuilderMachines.bots(BuilderMachines.MACHINES);
            for (int i = 0; i < bots.length; i++) {
                bots[i].setTimeInState(i * BuilderMachines.PERIOD / bots.length); // all under a second: none moves
            }
            handlerOf = BuilderMachines.handlers(bots.length, BuilderMachines.OFF, BuilderMachines.ON);
            if (call() != 0) {
                throw new IllegalStateException("a handler returned a state");
            }
        }

        int call() {
            return BuilderMachines.callAll(handlerOf, bots, BuilderMachines.DT);
        }
    }

    /** gdx-ai: 1,000 cycling agents. */
    @State(Scope.Thread)
    public static class Peer {
        @Param({"inPhase", "staggered"})
        public String phase;

        Agent[] agents;

        @Setup(Level.Trial)
        public void setUp() {
            GdxAiAgents.resetTimepiece();
            agents = GdxAiAgents.agents(GdxAiAgents.Cycle.OFF, BuilderMachines.MACHINES);
            if (phase.equals("staggered")) {
                GdxAiAgents.stagger(agents, PolledMachines.PERIOD);
            }
            GdxAiAgents.stepAll(agents, 60);
            GdxAiAgents.checkEachMovesOncePerPeriod(agents);
        }

        void step() {
            GdxAiAgents.step(agents, DT);
        }
    }

    /** One tick of the 1,000 machines: its mean (AverageTime), and its bytes with {@code -prof gc}. */
    @Benchmark
    public void engineStates(Ours s) {
        s.step();
    }

    /** {@link #engineStates}, timed on its own for the percentiles (see {@link StepTimes}). */
    @Benchmark
    public void engineStatesTimed(Ours s, StepTimes times) {
        long start = System.nanoTime();
        s.step();
        times.record(System.nanoTime() - start);
    }

    /** One step of the world of 1,000 entities. */
    @Benchmark
    public void engineStatesEcs(OursEcs s) {
        s.world.step(DT);
    }

    /** {@link #engineStatesEcs}, timed on its own for the percentiles. */
    @Benchmark
    public void engineStatesEcsTimed(OursEcs s, StepTimes times) {
        long start = System.nanoTime();
        s.world.step(DT);
        times.record(System.nanoTime() - start);
    }

    /** The two handlers on 1,000 contexts, no machine. */
    @Benchmark
    public int handlersAlone(Alone s) {
        return s.call();
    }

    /** {@link #handlersAlone}, timed on its own for the percentiles. */
    @Benchmark
    public int handlersAloneTimed(Alone s, StepTimes times) {
        long start = System.nanoTime();
        int moving = s.call();
        times.record(System.nanoTime() - start);
        return moving;
    }

    /** One step of the 1,000 gdx-ai agents. */
    @Benchmark
    public void gdxAi(Peer s) {
        s.step();
    }

    /** {@link #gdxAi}, timed on its own for the percentiles. */
    @Benchmark
    public void gdxAiTimed(Peer s, StepTimes times) {
        long start = System.nanoTime();
        s.step();
        times.record(System.nanoTime() - start);
    }
}

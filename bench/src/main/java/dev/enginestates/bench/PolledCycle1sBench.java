package dev.enginestates.bench;

import dev.enginestates.bench.GdxAiAgents.Agent;
import dev.enginestates.bench.PolledMachines.Bot;
import dev.enginestates.plain.StateMachine;
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
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

import static dev.enginestates.bench.Machines.DT;

/**
 * Polled case D: 1,000 polled machines on plain objects, each a 2-state cycle moving once a
 * second through {@code after(1.0, ...)}, stepped at 1/60 s. In phase, every machine moves on
 * the same step once every 60 (the p99 step is that one); staggered, machine {@code i} starts
 * {@code i/1000} of a second into its state, so about 17 move on each step. One operation is
 * one step of all 1,000.
 *
 * <ul>
 * <li>{@code engineStates}: engine-states' {@link StateMachine} over {@link PolledMachines#CYCLE_1S};
 * staggered by one first step of {@code i/1000} s each.</li>
 * <li>{@code gdxAi}: gdx-ai's {@code DefaultStateMachine.update()} on 1,000 agents, each state's
 * {@code update} advancing the agent's timer by the timepiece's delta and calling
 * {@code changeState} once it reaches a second ({@link GdxAiAgents.Cycle}).</li>
 * </ul>
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar PolledCycle1sBench -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch"})
public class PolledCycle1sBench {
    /** engine-states: 1,000 cycling machines. */
    @State(Scope.Thread)
    public static class Ours {
        @Param({"inPhase", "staggered"})
        public String phase;

        StateMachine<Bot>[] machines;

        @Setup(Level.Trial)
        public void setUp() {
            machines = PolledMachines.machines(PolledMachines.CYCLE_1S, PolledMachines.MACHINES);
            if (phase.equals("staggered")) {
                PolledMachines.stagger(machines, PolledMachines.PERIOD);
            }
            PolledMachines.stepAll(machines, 60);
            PolledMachines.checkEachMovesOncePerPeriod(machines);
        }

        void step() {
            for (StateMachine<Bot> m : machines) {
                m.step(DT);
            }
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
            agents = GdxAiAgents.agents(GdxAiAgents.Cycle.OFF, PolledMachines.MACHINES);
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

    /** One step of the 1,000 machines: its mean (AverageTime), and its bytes with {@code -prof gc}. */
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

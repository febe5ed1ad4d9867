package dev.enginestates.bench;

import dev.enginestates.bench.GdxAiAgents.Agent;
import dev.enginestates.bench.PolledMachines.Bot;
import dev.enginestates.declare.StateGuard;
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
 * Polled case G: a step of 1,000 polled machines on plain objects, each in a state with 3
 * guards ({@code to}) of which none holds, so a step only tests guards. One operation is one
 * step of all 1,000 ({@code fsm.step(1/60)} each); the cost per guard tested is the mean over
 * 3,000. The target: about what the guards cost, at most 5 ns per guard tested beyond
 * the lambda call itself, and 0 B once warm.
 *
 * <ul>
 * <li>{@code engineStates}: engine-states' {@link StateMachine} over {@link PolledMachines#GUARDS3}.</li>
 * <li>{@code guardsAlone}: the baseline, the same three guard lambdas called on the same 1,000
 * contexts through one call site, with no machine: what the guards themselves cost.</li>
 * <li>{@code gdxAi}: the peer, gdx-ai's {@code DefaultStateMachine.update()} on 1,000 agents whose
 * state's {@code update} tests the same three conditions ({@link GdxAiAgents.Guarded}).</li>
 * </ul>
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar PolledGuardsBench -prof gc
 * java -jar bench/target/benchmarks.jar PolledGuardsBench -p machines=16   # all in the L1 cache
 * java -jar bench/target/benchmarks.jar PolledGuardsBench -p kinds=4       # machines spread over 4 states
 * </pre>
 *
 * <p>With {@code kinds=4} the machines sit in 4 states that test the same conditions through
 * code of their own (12 guard lambdas for engine-states, 4 state classes for gdx-ai), as a
 * game's machines sit in many states: gdx-ai's call into the state's {@code update} then stops
 * being monomorphic, as engine-states' guard call never is.</p>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch"})
public class PolledGuardsBench {
    /** engine-states: 1,000 machines in 'watch'. */
    @State(Scope.Thread)
    public static class Ours {
        /** How many machines a step steps (the case is 1,000; fewer keep them all in the L1 cache). */
        @Param({"1000"})
        public int machines;

        /** 1: every machine in 'watch'; 4: spread over 4 such states, each with its own guard lambdas. */
        @Param({"1"})
        public int kinds;

        StateMachine<Bot>[] all;

        @Setup(Level.Trial)
        public void setUp() {
            all = PolledMachines.guarded(machines, kinds);
            PolledMachines.stepAll(all, 60);
            if (kinds == 1) {
                PolledMachines.checkAll(all, "watch");
            } else {
                PolledMachines.checkAll(all, "w0", "w1", "w2", "w3");
            }
        }

        void step() {
            for (StateMachine<Bot> m : all) {
                m.step(DT);
            }
        }
    }

    /** The baseline: the guards' lambdas on 1,000 contexts, no machine. */
    @State(Scope.Thread)
    public static class Alone {
        @Param({"1000"})
        public int machines;

        Bot[] bots;
        double t = 0.5;

        @Setup(Level.Trial)
        public void setUp() {
            bots = new Bot[machines];
            for (int i = 0; i < bots.length; i++) {
                bots[i] = new Bot();
            }
            if (test() != 0) {
                throw new IllegalStateException("a guard holds");
            }
        }

        int test() {
            int held = 0;
            StateGuard<Bot>[] guards = PolledMachines.GUARDS;
            for (Bot b : bots) {
                for (StateGuard<Bot> g : guards) {
                    if (g.test(b, t)) {
                        held++;
                    }
                }
            }
            return held;
        }
    }

    /** gdx-ai: 1,000 agents in WATCH. */
    @State(Scope.Thread)
    public static class Peer {
        @Param({"1000"})
        public int machines;

        /** 1: every agent in WATCH; 4: spread over WATCH to WATCH4, 4 state classes. */
        @Param({"1"})
        public int kinds;

        Agent[] agents;

        @Setup(Level.Trial)
        public void setUp() {
            GdxAiAgents.resetTimepiece();
            agents = GdxAiAgents.guarded(machines, kinds);
            GdxAiAgents.stepAll(agents, 60);
            GdxAiAgents.checkAll(agents, java.util.Arrays.copyOf(GdxAiAgents.Guarded.WATCHING, kinds));
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

    /** The three guards on 1,000 contexts, no machine. */
    @Benchmark
    public int guardsAlone(Alone s) {
        return s.test();
    }

    /** {@link #guardsAlone}, timed on its own for the percentiles. */
    @Benchmark
    public int guardsAloneTimed(Alone s, StepTimes times) {
        long start = System.nanoTime();
        int held = s.test();
        times.record(System.nanoTime() - start);
        return held;
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

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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

import static dev.enginestates.bench.Machines.DT;

/**
 * Polled case T: one transition taken on a guard. A machine flips between off and on: each
 * operation flips its context's flag and steps it once, and the step takes the one transition
 * whose guard now holds (then tests the new state's guard, which does not). The target:
 * at most 100 ns and 0 B a transition.
 *
 * <ul>
 * <li>{@code engineStates}: {@code fsm.step(1/60)} on engine-states' {@link StateMachine} over
 * {@link PolledMachines#FLIP}.</li>
 * <li>{@code gdxAi}: {@code fsm.update()} on a gdx-ai agent whose state's {@code update} tests the
 * flag and calls {@code changeState} ({@link GdxAiAgents.Flip}).</li>
 * </ul>
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar PolledTransitionBench -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch"})
public class PolledTransitionBench {
    /** engine-states: one machine. */
    @State(Scope.Thread)
    public static class Ours {
        Bot bot;
        StateMachine<Bot> fsm;

        @Setup(Level.Trial)
        public void setUp() {
            bot = new Bot();
            fsm = new StateMachine<>(PolledMachines.FLIP, bot);
            for (int i = 0; i < 4; i++) {
                String was = fsm.state();
                flip();
                if (fsm.state().equals(was)) {
                    throw new IllegalStateException("a flip did not move the machine: still '" + was + "'");
                }
            }
        }

        void flip() {
            bot.flag = !bot.flag;
            fsm.step(DT);
        }
    }

    /** gdx-ai: one agent. */
    @State(Scope.Thread)
    public static class Peer {
        Agent agent;

        @Setup(Level.Trial)
        public void setUp() {
            agent = new Agent(GdxAiAgents.Flip.OFF);
            for (int i = 0; i < 4; i++) {
                Object was = agent.fsm.getCurrentState();
                flip();
                if (agent.fsm.getCurrentState() == was) {
                    throw new IllegalStateException("a flip did not move the agent: still " + was);
                }
            }
        }

        void flip() {
            agent.flag = !agent.flag;
            agent.fsm.update();
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

package dev.enginestates.bench;

import dev.enginestates.ecs.StateWorld;
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

import static dev.enginestates.bench.Machines.DT;

/**
 * Case D, and its scaling: machines each a 2-state on/off cycle moving once a second. In
 * phase, every wait ends on the same step once every 60 steps (the p99 step is that one);
 * staggered, machine i starts i/n of a period into its wait, so about n/60 waits end on
 * each step. At 1,000 machines the target is 10 µs mean and 50 µs p99 a step, with 0 B
 * apart from Dominion's own tag moves; the cost should grow with the transitions, not with
 * the machines.
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar Cycle1sBench -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch"})
public class Cycle1sBench {
    static final double PERIOD = 1;

    @Param({"true", "false"})
    public boolean tags;

    @Param({"inPhase", "staggered"})
    public String phase;

    @Param({"1000", "10000", "100000"})
    public int machines;

    private StateWorld world;

    @Setup(Level.Trial)
    public void setUp() {
        var machine = tags ? Machines.CYCLE_1S : Machines.CYCLE_1S_UNTAGGED;
        world = Machines.world(machine, machines);
        if (phase.equals("staggered")) {
            Machines.stagger(world, machine, PERIOD);
        }
        Machines.settle(world, PERIOD);
        Machines.checkEachMovesOncePerPeriod(world, machine, PERIOD);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        world.close();
    }

    /** One step of the world: its mean (AverageTime), and its bytes with {@code -prof gc}. */
    @Benchmark
    public void step() {
        world.step(DT);
    }

    /** One step of the world, timed on its own for the percentiles (see {@link StepTimes}). */
    @Benchmark
    public void stepTimed(StepTimes times) {
        long start = System.nanoTime();
        world.step(DT);
        times.record(System.nanoTime() - start);
    }
}

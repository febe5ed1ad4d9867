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
 * Case E: 10,000 machines moving once a second, staggered (machine i starts i/10,000 of a
 * period into its wait, so about 167 waits end on each step). The same world as
 * {@link Cycle1sBench} at 10,000 staggered, named apart as the issue names it.
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar Cycle1s10kBench -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch"})
public class Cycle1s10kBench {
    static final double PERIOD = 1;

    @Param({"true", "false"})
    public boolean tags;

    private StateWorld world;

    @Setup(Level.Trial)
    public void setUp() {
        var machine = tags ? Machines.CYCLE_1S : Machines.CYCLE_1S_UNTAGGED;
        world = Machines.world(machine, 10_000);
        Machines.stagger(world, machine, PERIOD);
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

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
 * Case B: 1,000 machines in a wait of 1e9 seconds. One operation is one 60 Hz step; a wait
 * that is not due should cost nothing (the due times sit in a heap), so the target is under
 * 1 µs a step and 0 B.
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar LongWaitBench -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch"})
public class LongWaitBench {
    @Param({"true", "false"})
    public boolean tags;

    private StateWorld world;

    @Setup(Level.Trial)
    public void setUp() {
        world = Machines.world(tags ? Machines.LONG_WAIT : Machines.LONG_WAIT_UNTAGGED, 1_000);
        Machines.settle(world, 1);
        Machines.checkAll(world, tags ? Machines.LONG_WAIT : Machines.LONG_WAIT_UNTAGGED, "waiting", true);
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

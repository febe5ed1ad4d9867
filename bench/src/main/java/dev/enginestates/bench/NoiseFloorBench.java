package dev.enginestates.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.concurrent.TimeUnit;

/**
 * A control, not a case: a fixed busy loop of a few tens of nanoseconds that allocates
 * nothing, run like the step benchmarks. Its mean and p99 are what this machine adds to any
 * short operation right now (preemption by other processes, the hypervisor), so a p99 of a
 * case near this one's says the machine, not the code.
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar NoiseFloorBench
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch"})
public class NoiseFloorBench {
    /** About as long as an idle step. */
    @Benchmark
    public void busyLoop() {
        Blackhole.consumeCPU(32);
    }

    /** The busy loop, timed on its own as the {@code ...Timed} benchmarks time theirs. */
    @Benchmark
    public void busyLoopTimed(StepTimes times) {
        long start = System.nanoTime();
        Blackhole.consumeCPU(32);
        times.record(System.nanoTime() - start);
    }
}

package dev.enginestates.bench;

import dev.enginestates.plain.StateMachine;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Case T: one transition on its own, through the plain-object face (no ECS, no tags). Flat
 * on/off; the 3-level guard's TURN (leaf to sibling 3 levels deep) and ALARM+CALM (leave 3
 * levels, then restore them through a deep history: two transitions an operation); one event
 * taken by the 3 regions of a parallel state. The target is under 0.3 µs and 0 B a
 * transition; {@link EcsTransitionBench} measures the same through Dominion, with and
 * without tags.
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar TransitionBench -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch"})
public class TransitionBench {
    private StateMachine<Machines.Nothing> flat;
    private StateMachine<Machines.Nothing> guard;
    private StateMachine<Machines.Nothing> regions;

    @Setup
    public void setUp() {
        flat = new StateMachine<>(Machines.FLAT_UNTAGGED);
        guard = new StateMachine<>(Machines.GUARD_UNTAGGED);
        regions = new StateMachine<>(Machines.REGIONS_UNTAGGED);
    }

    /** One flat transition. */
    @Benchmark
    public boolean flatToggle() {
        return flat.send("TOGGLE");
    }

    /** Leaf to sibling, three levels deep. */
    @Benchmark
    public boolean guardTurn() {
        return guard.send("TURN");
    }

    /** Two transitions: exit three levels to alert, then CALM restores them through a deep history. */
    @Benchmark
    public boolean guardAlarmThenCalm() {
        guard.send("ALARM");
        return guard.send("CALM");
    }

    /** One event taken by all three regions of a parallel state. */
    @Benchmark
    public boolean parallelThreeRegions() {
        return regions.send("GO");
    }

    /** {@link #flatToggle}, timed on its own for the percentiles (see {@link StepTimes}). */
    @Benchmark
    public boolean flatToggleTimed(StepTimes times) {
        long start = System.nanoTime();
        boolean taken = flat.send("TOGGLE");
        times.record(System.nanoTime() - start);
        return taken;
    }

    /** {@link #guardTurn}, timed on its own for the percentiles (see {@link StepTimes}). */
    @Benchmark
    public boolean guardTurnTimed(StepTimes times) {
        long start = System.nanoTime();
        boolean taken = guard.send("TURN");
        times.record(System.nanoTime() - start);
        return taken;
    }

    /** {@link #guardAlarmThenCalm}, timed on its own for the percentiles (see {@link StepTimes}). */
    @Benchmark
    public boolean guardAlarmThenCalmTimed(StepTimes times) {
        long start = System.nanoTime();
        guard.send("ALARM");
        boolean taken = guard.send("CALM");
        times.record(System.nanoTime() - start);
        return taken;
    }

    /** {@link #parallelThreeRegions}, timed on its own for the percentiles (see {@link StepTimes}). */
    @Benchmark
    public boolean parallelThreeRegionsTimed(StepTimes times) {
        long start = System.nanoTime();
        boolean taken = regions.send("GO");
        times.record(System.nanoTime() - start);
        return taken;
    }
}

package dev.enginestates.bench;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
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
 * Case T through the ECS face: {@code States.send(entity, event)} on an entity a
 * {@link StateWorld} spawned, which finds the record on the entity, moves it, and (with
 * tags) moves its tags in one Dominion composition move. The same machines and events as
 * {@link TransitionBench}; {@code tags=false} leaves Dominion's move out.
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar EcsTransitionBench -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch"})
public class EcsTransitionBench {
    @Param({"true", "false"})
    public boolean tags;

    private StateWorld world;
    private States<Machines.Nothing> flat;
    private States<Machines.Nothing> guard;
    private States<Machines.Nothing> regions;
    private Entity flatEntity;
    private Entity guardEntity;
    private Entity regionsEntity;

    @Setup(Level.Trial)
    public void setUp() {
        flat = States.of(tags ? Machines.FLAT : Machines.FLAT_UNTAGGED);
        guard = States.of(tags ? Machines.GUARD : Machines.GUARD_UNTAGGED);
        regions = States.of(tags ? Machines.REGIONS : Machines.REGIONS_UNTAGGED);
        world = StateWorld.create();
        flatEntity = world.spawn(flat.trait());
        guardEntity = world.spawn(guard.trait());
        regionsEntity = world.spawn(regions.trait());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        world.close();
    }

    /** One flat transition. */
    @Benchmark
    public boolean flatToggle() {
        return flat.send(flatEntity, "TOGGLE");
    }

    /** Leaf to sibling, three levels deep. */
    @Benchmark
    public boolean guardTurn() {
        return guard.send(guardEntity, "TURN");
    }

    /** Two transitions: exit three levels to alert, then CALM restores them through a deep history. */
    @Benchmark
    public boolean guardAlarmThenCalm() {
        guard.send(guardEntity, "ALARM");
        return guard.send(guardEntity, "CALM");
    }

    /** One event taken by all three regions of a parallel state. */
    @Benchmark
    public boolean parallelThreeRegions() {
        return regions.send(regionsEntity, "GO");
    }

    /** {@link #flatToggle}, timed on its own for the percentiles (see {@link StepTimes}). */
    @Benchmark
    public boolean flatToggleTimed(StepTimes times) {
        long start = System.nanoTime();
        boolean taken = flat.send(flatEntity, "TOGGLE");
        times.record(System.nanoTime() - start);
        return taken;
    }

    /** {@link #guardTurn}, timed on its own for the percentiles (see {@link StepTimes}). */
    @Benchmark
    public boolean guardTurnTimed(StepTimes times) {
        long start = System.nanoTime();
        boolean taken = guard.send(guardEntity, "TURN");
        times.record(System.nanoTime() - start);
        return taken;
    }

    /** {@link #guardAlarmThenCalm}, timed on its own for the percentiles (see {@link StepTimes}). */
    @Benchmark
    public boolean guardAlarmThenCalmTimed(StepTimes times) {
        long start = System.nanoTime();
        guard.send(guardEntity, "ALARM");
        boolean taken = guard.send(guardEntity, "CALM");
        times.record(System.nanoTime() - start);
        return taken;
    }

    /** {@link #parallelThreeRegions}, timed on its own for the percentiles (see {@link StepTimes}). */
    @Benchmark
    public boolean parallelThreeRegionsTimed(StepTimes times) {
        long start = System.nanoTime();
        boolean taken = regions.send(regionsEntity, "GO");
        times.record(System.nanoTime() - start);
        return taken;
    }
}

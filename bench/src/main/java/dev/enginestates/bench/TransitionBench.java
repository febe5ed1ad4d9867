package dev.enginestates.bench;

import dev.enginestates.Machine;
import dev.enginestates.declare.HistoryDepth;
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
 * Case T of the benchmark plan: one transition on its own, through the plain-object face.
 * Flat on/off; the 3-level guard's TURN (leaf to sibling 3 levels deep) and ALARM+CALM
 * (leave 3 levels, then restore them through a deep history); a 3-region parallel machine.
 *
 * <pre>
 * mvn -q install -DskipTests
 * java -jar bench/target/benchmarks.jar TransitionBench -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode({Mode.AverageTime, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TransitionBench {
    static final class Nothing {
    }

    static final Machine<Nothing> FLAT = Machine.define("flat", Nothing::new, m -> m
            .initial("off")
            .state("off", s -> s.on("TOGGLE", "on"))
            .state("on", s -> s.on("TOGGLE", "off")));

    static final Machine<Nothing> GUARD = Machine.define("guard", Nothing::new, m -> m
            .initial("patrol")
            .state("patrol", p -> p
                    .initial("walking")
                    .state("walking", w -> w
                            .initial("north")
                            .state("north", s -> s.on("TURN", "south"))
                            .state("south", s -> s.on("TURN", "north")))
                    .state("looking")
                    .history("resume", HistoryDepth.DEEP)
                    .on("ALARM", "alert"))
            .state("alert", a -> a
                    .initial("search")
                    .state("search")
                    .state("chase")
                    .on("CALM", "patrol.resume")));

    static final Machine<Nothing> REGIONS = Machine.define("regions", Nothing::new, m -> m
            .parallel()
            .state("a", r -> r.state("a1", s -> s.on("GO", "a2")).state("a2", s -> s.on("GO", "a1")))
            .state("b", r -> r.state("b1", s -> s.on("GO", "b2")).state("b2", s -> s.on("GO", "b1")))
            .state("c", r -> r.state("c1", s -> s.on("GO", "c2")).state("c2", s -> s.on("GO", "c1"))));

    private StateMachine<Nothing> flat;
    private StateMachine<Nothing> guard;
    private StateMachine<Nothing> regions;

    @Setup
    public void setUp() {
        flat = new StateMachine<>(FLAT);
        guard = new StateMachine<>(GUARD);
        regions = new StateMachine<>(REGIONS);
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
}

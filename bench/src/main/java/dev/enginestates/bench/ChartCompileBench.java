package dev.enginestates.bench;

import dev.enginestates.Machine;
import dev.enginestates.declare.MachineBuilder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Defining (compiling) a machine of 16 compound states of 8 leaves each (144 states besides the root), every leaf
 * with 4 events to its siblings and a wait, the groups joined by a wildcard: what a game pays
 * once per machine at start-up, not per step.
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar ChartCompileBench -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch"})
public class ChartCompileBench {
    static final int GROUPS = 16;
    static final int LEAVES = 8;

    /** The whole definition, compiled on each call. */
    @Benchmark
    public Machine<Machines.Nothing> define() {
        return Machine.define("compile-bench", Machines.Nothing::new, ChartCompileBench::body);
    }

    private static void body(MachineBuilder<Machines.Nothing> m) {
        m.tags(false).initial("g0");
        for (int g = 0; g < GROUPS; g++) {
            String group = "g" + g;
            String nextGroup = "g" + ((g + 1) % GROUPS);
            m.state(group, s -> {
                s.initial("l0").on("group.*", "#compile-bench." + nextGroup);
                for (int l = 0; l < LEAVES; l++) {
                    int leaf = l;
                    s.state("l" + l, x -> {
                        for (int e = 1; e <= 4; e++) {
                            x.on("E" + e, "l" + ((leaf + e) % LEAVES));
                        }
                        x.waitFor(1 + leaf, "l" + ((leaf + 1) % LEAVES));
                    });
                }
            });
        }
    }
}

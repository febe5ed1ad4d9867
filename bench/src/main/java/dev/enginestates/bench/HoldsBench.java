package dev.enginestates.bench;

import dev.enginestates.ecs.MachinePaused;
import dev.enginestates.ecs.StateRecord;
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

import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.enginestates.bench.Machines.DT;

/**
 * What holds cost a step (issue 14): 1,000 machines on entities of one style without tags,
 * with {@code held} of them carrying {@link MachinePaused}. With none held the step asks
 * Dominion nothing for holds (0 B); with some held it queries for the holders.
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar HoldsBench -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch"})
public class HoldsBench {
    /** The face: XState-style (a 1e9 s wait), polled (a 1 s {@code after}), builder (a 1 s cycle). */
    @Param({"xstate", "polled", "builder"})
    public String style;

    @Param({"0", "1"})
    public int held;

    private StateWorld world;

    @Setup(Level.Trial)
    public void setUp() {
        States<?> machine;
        if (style.equals("polled")) {
            States<PolledMachines.Bot> polled = States.of(PolledMachines.CYCLE_1S); // defined without a context factory
            world = StateWorld.create();
            for (int i = 0; i < 1_000; i++) {
                world.spawn(polled.trait(new PolledMachines.Bot()));
            }
            machine = polled;
        } else {
            machine = switch (style) {
                case "xstate" -> Machines.LONG_WAIT_UNTAGGED;
                case "builder" -> States.of(BuilderMachines.CYCLE_1S_UNTAGGED);
                default -> throw new IllegalArgumentException("style " + style);
            };
            world = Machines.world(machine, 1_000);
        }
        List<? extends StateRecord<?>> records = world.records(machine);
        for (int i = 0; i < held; i++) {
            records.get(i).entity().add(MachinePaused.INSTANCE);
        }
        Machines.settle(world, 1);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        world.close();
    }

    /** One step of the world: its mean, and its bytes with {@code -prof gc}. */
    @Benchmark
    public void step() {
        world.step(DT);
    }
}

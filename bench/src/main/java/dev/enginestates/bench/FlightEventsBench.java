package dev.enginestates.bench;

import dev.enginestates.ecs.StateWorld;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
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

import java.io.IOException;
import java.text.ParseException;
import java.util.concurrent.TimeUnit;

import static dev.enginestates.bench.Machines.DT;

/**
 * What the flight recorder events cost the step: 1,000 machines moving once a second, staggered
 * (about 17 transitions a step, each running an action), with no recording ({@code off}), and
 * with a recording of the JDK's {@code profile} settings, under which engine-states' events take
 * their defaults: step, machine shares, failures and slow code on, transitions off
 * ({@code recording}). {@link CompiledOut} runs the same with {@code -Dengine-states.jfr=off},
 * the step as it was before the events.
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar FlightEventsBench -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch"})
public class FlightEventsBench {
    static final double PERIOD = 1;

    @Param({"off", "recording"})
    public String jfr;

    private StateWorld world;
    private Recording recording;

    @Setup(Level.Trial)
    public void setUp() throws IOException, ParseException {
        var machine = Machines.CYCLE_1S_UNTAGGED;
        world = Machines.world(machine, 1_000);
        Machines.stagger(world, machine, PERIOD);
        Machines.settle(world, PERIOD);
        if (jfr.equals("recording")) {
            recording = new Recording(Configuration.getConfiguration("profile"));
            recording.setToDisk(false); // memory only: the measurement is the step, not the disk
            recording.start();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (recording != null) {
            recording.close();
        }
        world.close();
    }

    /** One step of the world: its mean, and its bytes with {@code -prof gc}. */
    @Benchmark
    public void step() {
        world.step(DT);
    }

    /** The same with every engine-states event compiled out: the step as it was before them. */
    @Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch", "-Dengine-states.jfr=off"})
    public static class CompiledOut extends FlightEventsBench {
    }
}

package dev.enginestates.bench;

import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.RoomStream;
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
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.enginestates.bench.Machines.DT;

/**
 * Streaming (issue 13): the room's side, {@code RoomStream.frames()}, over 1,000 guards on
 * keyed entities, for 1 or 4 players. {@code changing = 0}: nothing changes between frames
 * (one operation is one {@code frames()}); {@code changing = 100}: 100 guards hear a bell or
 * go back each operation, then {@code frames()} (the sends and the step are in the operation,
 * and {@code sendsAndStep} measures them alone). {@code context}: the guards' context is a
 * small class (two int fields), or none.
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar StreamBench -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch"})
public class StreamBench {
    /** The guards' context: two counters. */
    public static final class Post {
        /** Bells answered. */
        public int bells;
        /** Rounds walked. */
        public int rounds;
    }

    private static States<Object> guard(String id, java.util.function.Supplier<Object> context) {
        return States.define(id, context, m -> m
                .tags(false)
                .initial("watch")
                .state("watch", s -> s.waitFor(1e9, "watch").on("BELL", "answer"))
                .state("answer", s -> s.on("BACK", "watch").entry((c, e) -> {
                    if (c != null) {
                        ((Post) c).bells++;
                    }
                })));
    }

    static final States<Object> WITH_CONTEXT = guard("stream-post", Post::new);
    static final States<Object> NO_CONTEXT = guard("stream-post-bare", () -> null);

    @Param({"true", "false"})
    public boolean context;

    @Param({"1", "4"})
    public int players;

    @Param({"0", "100"})
    public int changing;

    private StateWorld world;
    private RoomStream stream;
    private States<Object> machine;
    private List<StateRecord<Object>> records;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        machine = context ? WITH_CONTEXT : NO_CONTEXT;
        world = StateWorld.create();
        for (int i = 0; i < 1_000; i++) {
            world.spawn(EntityKey.of("g" + i), machine.trait());
        }
        stream = RoomStream.of(world, machine);
        for (int p = 0; p < players; p++) {
            stream.join("p" + p);
        }
        stream.frames();
        records = world.records(machine);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        world.close();
    }

    private void change() {
        for (int j = 0; j < changing; j++) {
            StateRecord<Object> r = records.get(next);
            next = (next + 1) % records.size();
            machine.send(r.entity(), r.matches("answer") ? "BACK" : "BELL");
        }
        world.step(DT);
    }

    /** The changes (if any), a step, and every player's frame. */
    @Benchmark
    public Map<String, String> frames() {
        change();
        return stream.frames();
    }

    /** The changes and the step alone, to subtract from {@link #frames()}. */
    @Benchmark
    public void sendsAndStep() {
        change();
    }
}

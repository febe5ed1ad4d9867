package dev.enginestates.bench;

import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.Rewind;
import dev.enginestates.ecs.RewindBenchHook;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Saves;
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

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.enginestates.bench.Machines.DT;

/**
 * A rewind's cost (issue 33): the README's guard (a patrol of a 4 s watch and a 10 s rest, a
 * deep history, the bell) on 1,000 and 10,000 keyed entities, spread over its states as a game
 * would have them: a third answered the bell (their waits' seconds paused), half of those
 * resumed through the history. {@code context}: {@code none} (the guard without a context: the
 * snapshot's bytes per machine are the records' own) or {@code bytes} (its bell counter, written
 * by a {@link Rewind.ContextBytes}: 4 bytes a machine more).
 *
 * <ul>
 * <li>{@code snapshot}: one tick's snapshot of every record, what {@link Rewind#step} adds to the
 *     world's step, timed alone through {@link RewindBenchHook} (the snapshot is package-private);
 *     {@code rewindStep} minus {@code worldStep} says the same through the public API.</li>
 * <li>{@code restore}: the snapshot written back into the world, alone (the hook again);
 *     {@code rewindOneAndStep} (back one tick, then that tick's step again) minus
 *     {@code rewindStep} says the same through the public API.</li>
 * <li>{@code rewind10AndResimulate}: a late input for the tick 10 back, then
 *     {@link Rewind#resimulate()}: one restore and 10 ticks again (snapshot, input, step).</li>
 * <li>{@code jsonCheckpoint}, {@code jsonRestore}: {@link Saves} on the same world, for scale.</li>
 * </ul>
 *
 * <p>The set-up prints the snapshot's bytes per machine ({@link Rewind#bytes(long)} ÷ entities).
 * The {@code ...Timed} twins time each operation for the percentiles ({@link StepTimes}).
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar RewindBench -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
public class RewindBench {
    /** The guard's context: the bells it answered. */
    public static final class Post {
        /** Bells answered. */
        public int bells;
    }

    private static States<Object> guard(String id, java.util.function.Supplier<Object> context) {
        return States.define(id, context, m -> m
                .tags(false)
                .initial("PATROL")
                .state("PATROL", p -> p
                        .initial("WATCH")
                        .state("WATCH", s -> s.waitFor(4, "REST"))
                        .state("REST", s -> s.waitFor(10, "WATCH"))
                        .history("RESUMED", HistoryDepth.DEEP)
                        .on("BELL", "ANSWER"))
                .state("ANSWER", s -> s
                        .entry((c, e) -> {
                            if (c != null) {
                                ((Post) c).bells++;
                            }
                        })
                        .on("RESUME", "PATROL.RESUMED")
                        .on("RESTART", "PATROL")));
    }

    static final States<Object> BARE = guard("rewind-guard", () -> null);
    static final States<Object> COUNTING = guard("rewind-guard-post", Post::new);
    static final Saves BARE_SAVES = Saves.of(BARE);
    static final Saves COUNTING_SAVES = Saves.of(COUNTING);

    /** The bell counter, 4 bytes. */
    static final Rewind.ContextBytes<Object> POST_BYTES = new Rewind.ContextBytes<>() {
        @Override
        public void write(Object post, ByteBuffer out) {
            out.putInt(((Post) post).bells);
        }

        @Override
        public Object read(Object post, ByteBuffer in) {
            ((Post) post).bells = in.getInt();
            return post;
        }
    };

    /** Ticks the rewind keeps: more than the 10 that {@code rewind10AndResimulate} goes back. */
    static final int WINDOW = 16;

    @Param({"1000", "10000"})
    public int machines;

    @Param({"none", "bytes"})
    public String context;

    private States<Object> machine;
    private Saves saves;
    private StateWorld world;
    private Rewind rewind;
    private RewindBenchHook hook;
    private String checkpoint;
    private final Rewind.Input lateBell = w -> machine.send(w.entity("g3"), "BELL");

    @Setup(Level.Trial)
    public void setUp() {
        boolean bytes = context.equals("bytes");
        machine = bytes ? COUNTING : BARE;
        saves = bytes ? COUNTING_SAVES : BARE_SAVES;
        world = StateWorld.create();
        for (int i = 0; i < machines; i++) {
            world.spawn(EntityKey.of("g" + i), machine.trait());
        }
        List<StateRecord<Object>> rs = world.records(machine);
        for (int t = 0; t < 5 * 60; t++) {
            world.step(DT);
            if (t % 60 == 30) { // a bell each second, to a fifteenth of the guards: a third in all
                for (int i = t / 60; i < rs.size(); i += 3 * 5) {
                    machine.send(rs.get(i).entity(), "BELL");
                }
            }
        }
        for (int i = 0; i < rs.size(); i += 6) {
            if (rs.get(i).matches("ANSWER")) {
                machine.send(rs.get(i).entity(), "RESUME");
            }
        }
        world.step(DT);
        rewind = Rewind.keep(world, WINDOW);
        if (bytes) {
            rewind.contexts(machine, POST_BYTES);
        } else {
            rewind.sharedContexts(machine);
        }
        for (int t = 0; t < WINDOW; t++) {
            rewind.step(DT);
        }
        hook = RewindBenchHook.of(world, machine, bytes ? POST_BYTES : null);
        int size = hook.take();
        int kept = rewind.bytes(rewind.tick() - 1);
        checkpoint = saves.checkpoint(world);
        System.out.printf("%n[rewind] %d guards, context %s: a tick's snapshot %d B, %.1f B a machine (hook: %d B);"
                        + " JSON checkpoint %d chars, %.0f a machine%n",
                machines, context, kept, kept / (double) machines, size, checkpoint.length(), checkpoint.length() / (double) machines);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        rewind.close();
        world.close();
    }

    /** The world's step alone: the baseline of {@code rewindStep}. */
    @Benchmark
    public void worldStep() {
        world.step(DT);
    }

    /** A rewind's step: the tick's snapshot, then the world's step. */
    @Benchmark
    public void rewindStep() {
        rewind.step(DT);
    }

    /** One tick's snapshot of every record, alone. */
    @Benchmark
    public int snapshot() {
        return hook.take();
    }

    /** The same, each one timed for the percentiles. */
    @Benchmark
    public void snapshotTimed(StepTimes times) {
        long start = System.nanoTime();
        hook.take();
        times.record(System.nanoTime() - start);
    }

    /** The snapshot taken at the set-up written back into the world, alone. */
    @Benchmark
    public void restore() {
        hook.restore();
    }

    /** The same, each one timed for the percentiles. */
    @Benchmark
    public void restoreTimed(StepTimes times) {
        long start = System.nanoTime();
        hook.restore();
        times.record(System.nanoTime() - start);
    }

    /** Back one tick through the public API, then its step again (a snapshot and a step): minus {@code rewindStep}, a restore. */
    @Benchmark
    public void rewindOneAndStep() {
        rewind.rewind(rewind.tick() - 1);
        rewind.step(DT);
    }

    /** A late bell for the tick 10 back (replacing the last one), then back to it and the 10 ticks again. */
    @Benchmark
    public long rewind10AndResimulate() {
        long tick = rewind.tick() - 10;
        rewind.clearInputs(tick);
        rewind.input(tick, lateBell);
        return rewind.resimulate();
    }

    /** The same, each one timed for the percentiles. */
    @Benchmark
    public void rewind10AndResimulateTimed(StepTimes times) {
        long start = System.nanoTime();
        rewind10AndResimulate();
        times.record(System.nanoTime() - start);
    }

    /** The JSON checkpoint of the same world. */
    @Benchmark
    public String jsonCheckpoint() {
        return saves.checkpoint(world);
    }

    /** Its restore. */
    @Benchmark
    public void jsonRestore() {
        saves.restore(world, checkpoint);
    }
}

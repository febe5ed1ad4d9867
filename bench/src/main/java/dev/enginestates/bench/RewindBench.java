package dev.enginestates.bench;

import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.ecs.WorldBytes;
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

import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.enginestates.bench.Machines.DT;

/**
 * PROTOTYPE (spike "rewind"): a snapshot of a world's records as bytes into reusable buffers
 * ({@code WorldBytes}) and its restore, beside the JSON checkpoint and its restore, over the
 * samples' guard (patrol of a 4 s watch and a 10 s rest, a deep history, the bell) without a
 * context. The guards are spread: a third answered the bell, half of those resumed, so records
 * differ in states, waits and history.
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
    /** The samples' guard (Guard.MACHINE), with string names and no context. */
    static final States<Object> GUARD = States.define("rewind-guard", () -> null, m -> m
            .tags(false)
            .initial("PATROL")
            .state("PATROL", p -> p
                    .initial("WATCH")
                    .state("WATCH", s -> s.waitFor(4, "REST"))
                    .state("REST", s -> s.waitFor(10, "WATCH"))
                    .history("RESUMED", HistoryDepth.DEEP)
                    .on("BELL", "ANSWER"))
            .state("ANSWER", s -> s
                    .on("RESUME", "PATROL.RESUMED")
                    .on("RESTART", "PATROL")));

    static final Saves SAVES = Saves.of(GUARD);

    @Param({"1000", "10000"})
    public int machines;

    private StateWorld world;
    private final WorldBytes bytes = new WorldBytes();
    private String checkpoint;

    @Setup(Level.Trial)
    public void setUp() {
        world = StateWorld.create();
        for (int i = 0; i < machines; i++) {
            world.spawn(EntityKey.of("g" + i), GUARD.trait());
        }
        List<StateRecord<Object>> rs = world.records(GUARD);
        for (int t = 0; t < 5 * 60; t++) {
            world.step(DT);
            if (t % 60 == 30) {
                for (int i = t / 60; i < rs.size(); i += 3 * 5) {
                    GUARD.send(rs.get(i).entity(), "BELL");
                }
            }
        }
        for (int i = 0; i < rs.size(); i += 6) {
            if (rs.get(i).matches("ANSWER")) {
                GUARD.send(rs.get(i).entity(), "RESUME");
            }
        }
        world.step(DT);
        records();
        bytes.snapshot(world);
        checkpoint = SAVES.checkpoint(world);
        System.out.printf("%n[rewind] %d guards: %d bytes, %.1f B per machine (JSON checkpoint %d chars, %.0f per machine)%n",
                machines, bytes.size(), bytes.size() / (double) machines, checkpoint.length(), checkpoint.length() / (double) machines);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        world.close();
    }

    private dev.enginestates.records.MachineRecord[] recs;
    private final dev.enginestates.records.RecordBytes.Buffer raw = new dev.enginestates.records.RecordBytes.Buffer(1 << 20);

    private void records() {
        List<StateRecord<Object>> rs = world.records(GUARD);
        recs = new dev.enginestates.records.MachineRecord[rs.size()];
        for (int i = 0; i < recs.length; i++) {
            recs[i] = dev.enginestates.records.Access.record(rs.get(i));
        }
    }

    /** Floor: one read of each record (the memory a pass over the records touches first). */
    @Benchmark
    public int floorTouch() {
        int n = 0;
        for (dev.enginestates.records.MachineRecord r : recs) {
            n += r.activeCount() + r.activeAt(0) + r.waitState();
        }
        return n;
    }

    /** The record codec alone, over an array of the records (no world, no bindings). */
    @Benchmark
    public int codecOnly() {
        raw.clear();
        int bound = dev.enginestates.records.RecordBytes.bound(recs[0].chart());
        for (dev.enginestates.records.MachineRecord r : recs) {
            dev.enginestates.records.RecordBytes.write(r, raw, bound);
        }
        return raw.size();
    }

    /** Every record into the reusable bytes. */
    @Benchmark
    public int bytesSnapshot() {
        bytes.snapshot(world);
        return bytes.size();
    }

    /** The last snapshot back into the same records (timers, when rules, holds, tags derived again). */
    @Benchmark
    public void bytesRestore() {
        bytes.restore(world);
    }

    /** The JSON checkpoint of the same world. */
    @Benchmark
    public String jsonCheckpoint() {
        return SAVES.checkpoint(world);
    }

    /** Its restore. */
    @Benchmark
    public void jsonRestore() {
        SAVES.restore(world, checkpoint);
    }
}

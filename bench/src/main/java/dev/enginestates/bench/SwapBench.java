package dev.enginestates.bench;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.declare.Migration;
import dev.enginestates.ecs.EntityKey;
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

import java.util.concurrent.TimeUnit;

import static dev.enginestates.bench.Machines.DT;

/**
 * What a definition change costs a running room: {@code swap}, every guard of the README's
 * machine (a watch, a rest, a deep history, the bell) moved to a newer version that renames the
 * rest, between steps (the world is rebuilt before each, so every call swaps the same world), and
 * {@code migratedRestore}, the same records restored from a checkpoint of the older version
 * through the migration, for scale against a plain {@code restore} of the newer version's own.
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar SwapBench
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 10)
@Measurement(iterations = 20)
@Fork(1)
public class SwapBench {
    public static final class Guard {
        public int bells;
    }

    static final States<Guard> V1 = States.define("bench-swap-guard", Guard::new, m -> m
            .version(1)
            .initial("patrol")
            .state("patrol", p -> p.initial("watch")
                    .state("watch", s -> s.waitFor(4, "rest"))
                    .state("rest", s -> s.waitFor(10, "watch"))
                    .history("resumed", HistoryDepth.DEEP)
                    .on("BELL", "answer"))
            .state("answer", s -> s.entry((g, e) -> g.bells++).on("RESUME", "patrol.resumed")));

    static final States<Guard> V2 = States.define("bench-swap-guard", Guard::new, m -> m
            .version(2, Migration.from(1).rename("patrol.rest", "patrol.nap"))
            .initial("patrol")
            .state("patrol", p -> p.initial("watch")
                    .state("watch", s -> s.waitFor(4, "nap"))
                    .state("nap", s -> s.waitFor(10, "watch"))
                    .history("resumed", HistoryDepth.DEEP)
                    .on("BELL", "answer"))
            .state("answer", s -> s.entry((g, e) -> g.bells++).on("RESUME", "patrol.resumed")));

    @Param({"1000", "10000"})
    public int guards;

    StateWorld world;
    String v1Checkpoint;
    String v2Checkpoint;

    @Setup(Level.Trial)
    public void checkpoints() {
        StateWorld w = guards();
        v1Checkpoint = Saves.of(V1).checkpoint(w);
        w.swap(V1, V2);
        v2Checkpoint = Saves.of(V2).checkpoint(w);
        w.close();
    }

    StateWorld guards() {
        StateWorld w = StateWorld.create();
        for (int i = 0; i < guards; i++) {
            Entity e = w.spawn(EntityKey.of("g" + i), V1.trait());
            if (i % 3 == 1) {
                V1.send(e, "BELL");
            }
            if (i % 6 == 1) {
                V1.send(e, "RESUME");
            }
            if (i % 50 == 0) {
                w.step(DT);
            }
        }
        return w;
    }

    @Setup(Level.Invocation)
    public void world() {
        world = guards();
        System.gc(); // the set-up's garbage (the world before, closed) is not the swap's to collect
    }

    @TearDown(Level.Invocation)
    public void close() {
        world.close();
    }

    @Benchmark
    public int swap() {
        return world.swap(V1, V2);
    }

    @Benchmark
    public long migratedRestore() {
        try (StateWorld w = StateWorld.create()) {
            Saves.of(V2).restoreSpawningMissing(w, v1Checkpoint);
            return w.steps();
        }
    }

    @Benchmark
    public long restore() {
        try (StateWorld w = StateWorld.create()) {
            Saves.of(V2).restoreSpawningMissing(w, v2Checkpoint);
            return w.steps();
        }
    }
}

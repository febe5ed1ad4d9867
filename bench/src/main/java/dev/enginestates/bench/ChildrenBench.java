package dev.enginestates.bench;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Machine;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

import static dev.enginestates.bench.Machines.DT;

/**
 * What child machines cost. {@code enterAndLeave}: a siege's ATTACK then RETREAT, which spawns
 * its wave's entity (keyed from the siege's) and despawns it: the price of a child's whole life.
 * {@code stepWithIdleChildren}: a step of 1,000 sieges each with a wave that waits 60 s, against
 * {@code stepWithoutChildren}, 1,000 sieges and 1,000 waves that are nobody's: children that do
 * nothing should cost nothing more. {@code can}: asking a siege whether it takes RETREAT.
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar ChildrenBench -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch"})
public class ChildrenBench {
    /** A wave's context. */
    public static final class Wave {
        /** Enemies left. */
        public int left = 3;
    }

    /** A siege's context. */
    public static final class Siege {
        /** Attacks begun. */
        public int attacks;
    }

    static final Machine<Wave> WAVE = Machine.define("bwave", Wave::new, m -> m
            .initial("fighting")
            .state("fighting", s -> s.waitFor(60, t -> t.target("fighting").reenter(true))));

    static final Machine<Siege> SIEGE = Machine.define("bsiege", Siege::new, m -> m
            .initial("calm")
            .state("calm", s -> s.on("ATTACK", t -> t.target("fight").action((c, e) -> c.attacks++)))
            .state("fight", s -> s.invoke("wave", WAVE).on("RETREAT", "calm")));

    static final Machine<Siege> LONE = Machine.define("blone", Siege::new, m -> m
            .initial("calm")
            .state("calm", s -> s.on("ATTACK", "fight"))
            .state("fight", s -> s.on("RETREAT", "calm")));

    static final States<Siege> SIEGES = States.of(SIEGE);
    static final States<Siege> LONES = States.of(LONE);
    static final States<Wave> WAVES = States.of(WAVE);

    private StateWorld single;
    private Entity siege;
    private StateWorld withChildren;
    private StateWorld withoutChildren;

    @Setup(Level.Trial)
    public void setUp() {
        single = StateWorld.create();
        siege = single.spawn(EntityKey.of("siege"), SIEGES.trait());
        withChildren = StateWorld.create();
        withoutChildren = StateWorld.create();
        for (int i = 0; i < 1_000; i++) {
            Entity s = withChildren.spawn(EntityKey.of("s" + i), SIEGES.trait());
            SIEGES.send(s, "ATTACK");
            Entity l = withoutChildren.spawn(EntityKey.of("s" + i), LONES.trait());
            LONES.send(l, "ATTACK");
            withoutChildren.spawn(EntityKey.of("w" + i), WAVES.trait());
        }
        SIEGES.send(siege, "ATTACK");
        SIEGES.send(siege, "RETREAT");
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        single.close();
        withChildren.close();
        withoutChildren.close();
    }

    @Benchmark
    public boolean enterAndLeave() {
        SIEGES.send(siege, "ATTACK");
        return SIEGES.send(siege, "RETREAT");
    }

    @Benchmark
    public long stepWithIdleChildren() {
        withChildren.step(DT);
        return withChildren.steps();
    }

    @Benchmark
    public long stepWithoutChildren() {
        withoutChildren.step(DT);
        return withoutChildren.steps();
    }

    @Benchmark
    public boolean can() {
        return SIEGES.can(siege, "ATTACK");
    }
}

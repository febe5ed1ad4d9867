package dev.enginestates.bench;

import dev.enginestates.Machine;
import dev.enginestates.declare.Action;
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
 * The interpreter's internal queue: one {@code send} whose transition raises an event taken in
 * the same macrostep, one that raises four in a burst (the queue fills and empties on each
 * send), and one that enters a compound state whose initial child is final, so a done event
 * goes through the queue. The other transition cases never queue anything; these are the
 * moves that do.
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar InternalQueueBench -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch"})
public class InternalQueueBench {
    /** GO raises BACK, which BACK's transition takes in the same send: two microsteps, one event queued. */
    static final Machine<Machines.Nothing> RAISE = Machine.define("raise-back", Machines.Nothing::new, m -> m
            .tags(false)
            .initial("a")
            .state("a", s -> s.on("GO", t -> t.target("b").action(Action.raise("BACK"))))
            .state("b", s -> s.on("BACK", "a")));

    /** GO raises four events, each taken in turn in the same send: a burst that fills the queue and empties it again. */
    static final Machine<Machines.Nothing> BURST = Machine.define("raise-burst", Machines.Nothing::new, m -> m
            .tags(false)
            .initial("a")
            .state("a", s -> s.on("GO", t -> t.target("b").action((c, e, self) -> {
                self.raise("N1");
                self.raise("N2");
                self.raise("N3");
                self.raise("N4");
            })))
            .state("b", s -> s.on("N1", "c"))
            .state("c", s -> s.on("N2", "d"))
            .state("d", s -> s.on("N3", "e"))
            .state("e", s -> s.on("N4", "a")));

    /** GO enters a compound state that is done at once: its done event, queued, takes the machine back. */
    static final Machine<Machines.Nothing> DONE = Machine.define("done-back", Machines.Nothing::new, m -> m
            .tags(false)
            .initial("a")
            .state("a", s -> s.on("GO", "job"))
            .state("job", s -> s.initial("finished").finalState("finished").onDone("a")));

    private StateMachine<Machines.Nothing> raise;
    private StateMachine<Machines.Nothing> done;
    private StateMachine<Machines.Nothing> burst;

    @Setup
    public void setUp() {
        raise = new StateMachine<>(RAISE);
        done = new StateMachine<>(DONE);
        burst = new StateMachine<>(BURST);
    }

    /** A send whose action raises an event the machine takes before the send returns. */
    @Benchmark
    public boolean raiseThenBack() {
        return raise.send("GO");
    }

    /** A send whose action raises four events, taken one after another before the send returns. */
    @Benchmark
    public boolean raiseFourInTurn() {
        return burst.send("GO");
    }

    /** A send into a state that is done at once: its done event is queued and taken. */
    @Benchmark
    public boolean doneEventBack() {
        return done.send("GO");
    }
}

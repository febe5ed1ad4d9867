package dev.enginestates.bench;

import dev.enginestates.bench.BuilderMachines.Bot;
import dev.enginestates.bench.GdxAiAgents.Agent;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.declare.StateHandler;
import dev.enginestates.fsm.StateMachine;
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
 * Builder case H: a tick of 1,000 builder-style machines (the {@code 002} document) whose state's
 * handler tests three fields and returns {@code null}, so a tick advances each machine's time in
 * state and runs its handler, and nothing moves. One operation is one tick of all 1,000. The
 * issue's target: about the handlers' own cost plus at most 10 ns a machine, and 0 B once warm.
 *
 * <ul>
 * <li>{@code engineStates}: the plain face, {@code fsm.update(ctx, 1/60f)} on 1,000
 * {@link StateMachine}s over {@link BuilderMachines#WATCHING}.</li>
 * <li>{@code engineStatesEcs}: the ECS face, {@code world.step(1/60)} of a {@link StateWorld} with
 * 1,000 entities, each holding a record of {@code States.of(WATCHING)}.</li>
 * <li>{@code handlersAlone}: the baseline, the same handler lambda called directly on 1,000
 * contexts through one call site, no machine: what the handlers themselves cost.</li>
 * <li>{@code gdxAi}: the peer, gdx-ai's {@code DefaultStateMachine.update()} on 1,000 agents whose
 * state's {@code update} tests the same three fields ({@link GdxAiAgents.Guarded#WATCH}, as in
 * {@link PolledGuardsBench}).</li>
 * </ul>
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar BuilderHandlersBench -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch"})
public class BuilderHandlersBench {
    /** engine-states, plain face: 1,000 machines in 'watch'. */
    @State(Scope.Thread)
    public static class Ours {
        StateMachine<Bot>[] machines;
        Bot[] contexts;

        @Setup(Level.Trial)
        public void setUp() {
            machines = BuilderMachines.machines(BuilderMachines.WATCHING, BuilderMachines.MACHINES);
            contexts = BuilderMachines.contexts(machines);
            for (int k = 0; k < 60; k++) {
                step();
            }
            BuilderMachines.checkAll(machines, "watch");
            if (!(contexts[0].timeInState() > 0.99f)) {
                throw new IllegalStateException("the time in state did not advance: " + contexts[0].timeInState());
            }
        }

        void step() {
            BuilderMachines.update(machines, contexts, BuilderMachines.DT);
        }
    }

    /** engine-states, ECS face: 1,000 entities in 'watch'. */
    @State(Scope.Thread)
    public static class OursEcs {
        StateWorld world;

        @Setup(Level.Trial)
        public void setUp() {
            States<Bot> machine = States.of(BuilderMachines.WATCHING);
            world = BuilderMachines.world(machine, BuilderMachines.MACHINES, 60);
            BuilderMachines.checkAll(world.records(machine), "watch");
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            world.close();
        }
    }

    /** The baseline: the handler on 1,000 contexts, no machine. */
    @State(Scope.Thread)
    public static class Alone {
        Bot[] bots;
        StateHandler<Bot>[] handlerOf;

        @Setup(Level.Trial)
        public void setUp() {
            bots = BuilderMachines.bots(BuilderMachines.MACHINES);
            handlerOf = BuilderMachines.handlers(bots.length, BuilderMachines.WATCH);
            if (call() != 0) {
                throw new IllegalStateException("a handler returned a state");
            }
        }

        int call() {
            return BuilderMachines.callAll(handlerOf, bots, BuilderMachines.DT);
        }
    }

    /** gdx-ai: 1,000 agents in WATCH. */
    @State(Scope.Thread)
    public static class Peer {
        Agent[] agents;

        @Setup(Level.Trial)
        public void setUp() {
            GdxAiAgents.resetTimepiece();
            agents = GdxAiAgents.guarded(BuilderMachines.MACHINES, 1);
            GdxAiAgents.stepAll(agents, 60);
            GdxAiAgents.checkAll(agents, GdxAiAgents.Guarded.WATCH);
        }

        void step() {
            GdxAiAgents.step(agents, DT);
        }
    }

    /** One tick of the 1,000 machines: its mean (AverageTime), and its bytes with {@code -prof gc}. */
    @Benchmark
    public void engineStates(Ours s) {
        s.step();
    }

    /** {@link #engineStates}, timed on its own for the percentiles (see {@link StepTimes}). */
    @Benchmark
    public void engineStatesTimed(Ours s, StepTimes times) {
        long start = System.nanoTime();
        s.step();
        times.record(System.nanoTime() - start);
    }

    /** One step of the world of 1,000 entities. */
    @Benchmark
    public void engineStatesEcs(OursEcs s) {
        s.world.step(DT);
    }

    /** {@link #engineStatesEcs}, timed on its own for the percentiles. */
    @Benchmark
    public void engineStatesEcsTimed(OursEcs s, StepTimes times) {
        long start = System.nanoTime();
        s.world.step(DT);
        times.record(System.nanoTime() - start);
    }

    /** The handler on 1,000 contexts, no machine. */
    @Benchmark
    public int handlersAlone(Alone s) {
        return s.call();
    }

    /** {@link #handlersAlone}, timed on its own for the percentiles. */
    @Benchmark
    public int handlersAloneTimed(Alone s, StepTimes times) {
        long start = System.nanoTime();
        int moving = s.call();
        times.record(System.nanoTime() - start);
        return moving;
    }

    /** One step of the 1,000 gdx-ai agents. */
    @Benchmark
    public void gdxAi(Peer s) {
        s.step();
    }

    /** {@link #gdxAi}, timed on its own for the percentiles. */
    @Benchmark
    public void gdxAiTimed(Peer s, StepTimes times) {
        long start = System.nanoTime();
        s.step();
        times.record(System.nanoTime() - start);
    }
}

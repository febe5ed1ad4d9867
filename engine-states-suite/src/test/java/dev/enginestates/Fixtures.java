package dev.enginestates;

import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.declare.MachineBuilder;
import dev.enginestates.declare.StateBuilder;
import dev.enginestates.declare.TransitionBuilder;

import java.util.function.Consumer;

/**
 * The machines the engine's tests declare again and again, written out once.
 *
 * <p>Each factory gives the body of a declaration, not a machine, so a test still names its own
 * id and context where it declares:
 * {@code States.define("guard", Patrol::new, Fixtures.guard())} or
 * {@code Machine.define("guard", ArrayList::new, Fixtures.guard())}. Every declaration is then a
 * machine of its own, as the copies were: its own hidden record and tag classes, its own place
 * in the order a world steps machines in, and the id its dumps and checkpoints are keyed by.
 */
public final class Fixtures {
    private Fixtures() {
    }

    /**
     * The {@code 003} document's guard:
     *
     * <pre>{@code
     * export const Guard = states({
     *     id: "guard", initial: "patrol",
     *     states: {
     *         patrol: {
     *             initial: "watch",
     *             states: {
     *                 watch: { wait: { seconds: 4, then: "rest" } },
     *                 rest: { wait: { seconds: 10, then: "watch" } },
     *                 resumed: { type: StateType.History, history: HistoryDepth.Deep },
     *             },
     *             on: { BELL: "answer" },
     *         },
     *         answer: { on: { RESUME: "patrol.resumed", RESTART: "patrol" } },
     *     },
     * });
     * }</pre>
     *
     * Its states are, in document order, {@code patrol}, {@code patrol.watch},
     * {@code patrol.rest}, {@code patrol.resumed} and {@code answer}; its events {@code BELL},
     * {@code RESUME} and {@code RESTART}. The returned shape takes what a test adds to it.
     */
    public static <C> GuardShape<C> guard() {
        return new GuardShape<>();
    }

    /**
     * The {@code 003} document's siege: waiting, START to fight, WAVE_HELD to a 12 second
     * breather, ALL_DOWN to over (an atomic state, not a final one).
     */
    public static <C> Consumer<MachineBuilder<C>> siege() {
        return m -> m
                .initial("waiting")
                .state("waiting", s -> s.on("START", "fight"))
                .state("fight", s -> s.on("WAVE_HELD", "breather").on("ALL_DOWN", "over"))
                .state("breather", s -> s.waitFor(12, "fight"))
                .state("over");
    }

    /**
     * A parallel state beside an atomic one: {@code armed} with a weapon region (ready, FIRE to a
     * half second cooldown) and a move region (walk, RUN to run), and {@code down}.
     */
    public static <C> Consumer<MachineBuilder<C>> armed() {
        return armed(s -> { });
    }

    /** {@link #armed()} with more on {@code armed.move.run} (such as a way back to walk). */
    public static <C> Consumer<MachineBuilder<C>> armed(Consumer<StateBuilder<C>> run) {
        return m -> m
                .initial("armed")
                .state("armed", a -> a.parallel()
                        .state("weapon", w -> w
                                .initial("ready")
                                .state("ready", s -> s.on("FIRE", "cooldown"))
                                .state("cooldown", s -> s.waitFor(0.5, "ready")))
                        .state("move", v -> v
                                .initial("walk")
                                .state("walk", s -> s.on("RUN", "run"))
                                .state("run", run)))
                .state("down");
    }

    /**
     * The guard's body, with what a test adds: each addition comes after what the document
     * declares in that place (a state's own transitions after the document's, a machine's after
     * the answer state), so the states keep their document order.
     */
    public static final class GuardShape<C> implements Consumer<MachineBuilder<C>> {
        private Consumer<MachineBuilder<C>> machine = m -> { };
        private Consumer<StateBuilder<C>> patrol = s -> { };
        private Consumer<StateBuilder<C>> watch = s -> { };
        private Consumer<TransitionBuilder<C>> watchWait = t -> { };
        private Consumer<TransitionBuilder<C>> bell = t -> { };
        private Consumer<StateBuilder<C>> answer = s -> { };
        private Consumer<TransitionBuilder<C>> resume = t -> { };
        private boolean restart = true;

        GuardShape() {
        }

        /** More on the machine itself (heldBy, more states, root transitions), after the answer state. */
        public GuardShape<C> machine(Consumer<MachineBuilder<C>> more) {
            machine = machine.andThen(more);
            return this;
        }

        /** More on {@code patrol}, after its children and its BELL. */
        public GuardShape<C> patrol(Consumer<StateBuilder<C>> more) {
            patrol = patrol.andThen(more);
            return this;
        }

        /** More on {@code patrol.watch}, after its wait. */
        public GuardShape<C> watch(Consumer<StateBuilder<C>> more) {
            watch = watch.andThen(more);
            return this;
        }

        /** More on the watch's 4 second wait to {@code rest} (a guard, an action). */
        public GuardShape<C> watchWait(Consumer<TransitionBuilder<C>> more) {
            watchWait = watchWait.andThen(more);
            return this;
        }

        /** More on the patrol's BELL to {@code answer} (a guard, an action). */
        public GuardShape<C> bell(Consumer<TransitionBuilder<C>> more) {
            bell = bell.andThen(more);
            return this;
        }

        /** More on {@code answer}, after its RESUME and RESTART. */
        public GuardShape<C> answer(Consumer<StateBuilder<C>> more) {
            answer = answer.andThen(more);
            return this;
        }

        /** More on the answer's RESUME to {@code patrol.resumed} (a guard, an action). */
        public GuardShape<C> resume(Consumer<TransitionBuilder<C>> more) {
            resume = resume.andThen(more);
            return this;
        }

        /** The answer without the document's RESTART: RESUME is its one way back. */
        public GuardShape<C> withoutRestart() {
            restart = false;
            return this;
        }

        @Override
        public void accept(MachineBuilder<C> m) {
            m.initial("patrol")
                    .state("patrol", p -> {
                        p.initial("watch")
                                .state("watch", s -> {
                                    s.waitFor(4, t -> {
                                        t.target("rest");
                                        watchWait.accept(t);
                                    });
                                    watch.accept(s);
                                })
                                .state("rest", s -> s.waitFor(10, "watch"))
                                .history("resumed", HistoryDepth.DEEP)
                                .on("BELL", t -> {
                                    t.target("answer");
                                    bell.accept(t);
                                });
                        patrol.accept(p);
                    })
                    .state("answer", s -> {
                        s.on("RESUME", t -> {
                            t.target("patrol.resumed");
                            resume.accept(t);
                        });
                        if (restart) {
                            s.on("RESTART", "patrol");
                        }
                        answer.accept(s);
                    });
            machine.accept(m);
        }
    }
}

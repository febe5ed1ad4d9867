package dev.enginestates;

import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.declare.StatesBuilder;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A polled machine's definition, made with {@link #define}: a table of
 * states that leave on guards tested every step ({@code to}), timers ({@code after}), per-state
 * {@code update} code returning a target, events, and {@code $back}.
 *
 * <pre>{@code
 * static final StatesDef<Bot> GUARD = StatesDef.define("guard", d -> d
 *     .initial("patrol")
 *     .on("hit", "flinch")                              // an event, from any state
 *     .to("dead", (b, t) -> b.hp <= 0)                  // tested in every state, first
 *     .state("patrol", s -> s.to("combat", (b, t) -> b.target))
 *     .state("combat", s -> s
 *         .initial("engage")
 *         .to("search", (b, t) -> b.lostFor > 4)
 *         .state("engage", e -> e.to("shoot", (b, t) -> b.visible && b.dist < 12))
 *         .state("shoot", e -> e
 *             .enter((b, from) -> b.fire = true)
 *             .exit((b, to) -> b.fire = false)
 *             .to("engage", (b, t) -> !b.visible)))
 *     .state("search", s -> s.after(6, "patrol"))
 *     .state("flinch", s -> s.after(0.2, "$back"))
 *     .state("dead"));
 *
 * StateMachine<Bot> fsm = new StateMachine<>(GUARD, bot);    // enters 'patrol' now
 * fsm.step(1 / 60.0);
 * }</pre>
 *
 * <p>Run it on a plain object with {@link dev.enginestates.plain.StateMachine}, or on an
 * entity with {@code States.of(GUARD)}. Immutable and thread-safe: the table is shared by
 * every instance in every room; a per-instance duration is a guard on {@code t}, not an
 * {@code after}.
 *
 * @param <C> the context type
 */
public final class StatesDef<C> {
    /** The id a definition gets when none is given. */
    public static final String DEFAULT_ID = "states";
    private final Machine<C> machine;

    private StatesDef(Machine<C> machine) {
        this.machine = machine;
    }

    /**
     * Declares a polled machine named {@value #DEFAULT_ID}. Give it a name of its own with
     * {@link #define(String, Consumer)} when it goes on entities or into dumps next to others.
     *
     * @param <C> the context type
     * @param body declares the table: the initial state, states, guards, timers and events
     * @return the compiled definition, immutable: keep it in a {@code static final} field and share it
     * @throws InvalidMachineException listing every problem of the table at once (unknown
     *                                 names, {@code $back} as a {@code to} key, duplicates, ...)
     */
    public static <C> StatesDef<C> define(Consumer<StatesBuilder<C>> body) {
        return define(DEFAULT_ID, body);
    }

    /**
     * Declares a polled machine.
     *
     * @param <C> the context type
     * @param id the machine's name, used by dumps, tags and error messages; not empty
     * @param body declares the table: the initial state, states, guards, timers and events
     * @return the compiled definition, immutable: keep it in a {@code static final} field and share it
     * @throws InvalidMachineException listing every problem of the table at once
     */
    public static <C> StatesDef<C> define(String id, Consumer<StatesBuilder<C>> body) {
        return define(id, null, body);
    }

    /**
     * Declares a polled machine with a context factory, which an entity's
     * {@code States.of(def).trait()} uses and a checkpoint restore needs (it reads a saved
     * context into a fresh one).
     *
     * @param <C>     the context type
     * @param id      the machine's name, used by dumps, tags and error messages; not empty
     * @param context makes a fresh context; {@code null} when every instance is given its own
     * @param body    declares the table: the initial state, states, guards, timers and events
     * @return the compiled definition, immutable: keep it in a {@code static final} field and share it
     * @throws InvalidMachineException listing every problem of the table at once
     */
    public static <C> StatesDef<C> define(String id, Supplier<? extends C> context, Consumer<StatesBuilder<C>> body) {
        StatesBuilder<C> builder = new StatesBuilder<>();
        Objects.requireNonNull(body, "body").accept(builder);
        return new StatesDef<>(Machine.polled(id, context, builder));
    }

    /**
     * The machine's id.
     *
     * @return the id it was declared with, or {@value #DEFAULT_ID}
     */
    public String id() {
        return machine.id();
    }

    /**
     * The machine this table compiles to: what the ECS face, dumps and checkpoints take.
     *
     * @return the compiled machine, shared by every instance
     */
    public Machine<C> machine() {
        return machine;
    }

    /**
     * The dotted path of every state, in declaration order.
     *
     * @return a new list of paths, such as {@code "combat.engage"}
     */
    public List<String> statePaths() {
        return machine.statePaths();
    }

    /**
     * The events the states name, in declaration order.
     *
     * @return the event types, such as {@code "hit"}
     */
    public List<String> events() {
        return machine.events();
    }

    @Override
    public String toString() {
        return "StatesDef(" + id() + ", states " + statePaths() + ")";
    }
}

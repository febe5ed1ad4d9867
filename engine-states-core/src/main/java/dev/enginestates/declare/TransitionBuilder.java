package dev.enginestates.declare;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Declares one transition: {@code t -> t.guard((c, e) -> c.hp <= 0).target("dead").action(...)}.
 * No target makes a targetless transition that only runs its actions. A guard or an action
 * written with three arguments, {@code (ctx, event, self)}, also sees the machine's entity and
 * world ({@link Self}).
 *
 * @param <C> the machine's context type
 */
public final class TransitionBuilder<C> {
    private final List<String> targets = new ArrayList<>();
    /** Aligned with {@link #targets}: the constant a target was named by, or {@code null} for a text. */
    private final List<Enum<?>> targetConstants = new ArrayList<>();
    private final List<SelfAction<C>> actions = new ArrayList<>();
    private SelfGuard<C> guard;
    private boolean reenter;

    TransitionBuilder() {
    }

    /**
     * The target, or several targets in different regions of one parallel state. Forms: a
     * sibling's key {@code "b"}, a path below a sibling {@code "b.c"}, a state inside this one
     * {@code ".c"}, a state by id {@code "#id"} or {@code "#id.c"}.
     *
     * @param targets the targets, none {@code null}; two or more must lie in different regions of one parallel
     *                state. Another call adds to them
     * @return this builder, for chaining
     */
    public TransitionBuilder<C> target(String... targets) {
        for (String t : targets) {
            this.targets.add(Objects.requireNonNull(t, "target"));
            this.targetConstants.add(null);
        }
        return this;
    }

    /**
     * The target named by a constant of the machine's state enum: the one state declared with
     * it, wherever it lies; several for different regions of one parallel state.
     *
     * @param target the constant of the state to go to
     * @param more further targets, each in another region of the same parallel state
     * @return this builder, for chaining
     */
    public TransitionBuilder<C> target(Enum<?> target, Enum<?>... more) {
        addConstant(target);
        for (Enum<?> t : more) {
            addConstant(t);
        }
        return this;
    }

    private void addConstant(Enum<?> t) {
        targets.add(Objects.requireNonNull(t, "target").name());
        targetConstants.add(t);
    }

    /**
     * The guard: the transition is taken only when it holds.
     *
     * @param guard reads the context and the event; it replaces any guard set before
     * @return this builder, for chaining
     */
    public TransitionBuilder<C> guard(Guard<C> guard) {
        this.guard = Objects.requireNonNull(guard, "guard");
        return this;
    }

    /**
     * The guard, reading the machine's entity and world as well: {@code (ctx, event, self) -> ...}.
     *
     * @param guard reads the context, the event and the machine's {@link Self}; it replaces any guard set
     *              before
     * @return this builder, for chaining
     */
    public TransitionBuilder<C> guard(SelfGuard<C> guard) {
        this.guard = Objects.requireNonNull(guard, "guard");
        return this;
    }

    /**
     * Adds an action, run after the exits and before the entries.
     *
     * @param action runs with the context and the event; not {@code null}
     * @return this builder, for chaining
     */
    public TransitionBuilder<C> action(Action<C> action) {
        actions.add(Objects.requireNonNull(action, "action"));
        return this;
    }

    /**
     * Adds an action that sees the machine's entity and world: {@code (ctx, event, self) -> ...}.
     *
     * @param action runs with the context, the event and the machine's {@link Self}; not {@code null}
     * @return this builder, for chaining
     */
    public TransitionBuilder<C> action(SelfAction<C> action) {
        actions.add(Objects.requireNonNull(action, "action"));
        return this;
    }

    /**
     * Adds actions, in order.
     *
     * @param actions run in the order given, after those added before; none {@code null}
     * @return this builder, for chaining
     */
    @SafeVarargs
    public final TransitionBuilder<C> actions(Action<C>... actions) {
        for (Action<C> a : actions) {
            action(a);
        }
        return this;
    }

    /**
     * Adds actions that see the machine's entity and world, in order.
     *
     * @param actions run in the order given, after those added before; none {@code null}
     * @return this builder, for chaining
     */
    @SafeVarargs
    public final TransitionBuilder<C> actions(SelfAction<C>... actions) {
        for (SelfAction<C> a : actions) {
            action(a);
        }
        return this;
    }

    /**
     * Exit and re-enter the source even when the target lies within it (XState's {@code reenter: true}).
     *
     * @return this builder, for chaining
     */
    public TransitionBuilder<C> reenter() {
        this.reenter = true;
        return this;
    }

    /**
     * Sets {@code reenter} explicitly.
     *
     * @param reenter {@code true} as {@link #reenter()}; {@code false}, the default, leaves the source active
     *                when the target lies within it
     * @return this builder, for chaining
     */
    public TransitionBuilder<C> reenter(boolean reenter) {
        this.reenter = reenter;
        return this;
    }

    TransitionDefinition<C> build(String eventType) {
        return build(eventType, null);
    }

    TransitionDefinition<C> build(String eventType, Enum<?> eventConstant) {
        return new TransitionDefinition<>(eventType, targets, guard, actions, reenter, eventConstant, targetConstants);
    }
}

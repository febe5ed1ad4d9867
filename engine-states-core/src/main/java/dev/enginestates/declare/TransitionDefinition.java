package dev.enginestates.declare;

import java.util.List;

/**
 * One declared transition: its event (or none, for eventless, done, wait and {@code when}
 * transitions), its target texts as written, an optional guard, its actions and whether it
 * re-enters. Immutable.
 *
 * @param <C> the machine's context type
 */
public final class TransitionDefinition<C> {
    private final String eventType;
    private final List<String> targets;
    private final SelfGuard<C> guard;
    private final List<SelfAction<C>> actions;
    private final boolean reenter;
    private final Enum<?> eventConstant;
    private final List<Enum<?>> targetConstants;

    TransitionDefinition(String eventType, List<String> targets, SelfGuard<C> guard, List<SelfAction<C>> actions, boolean reenter) {
        this(eventType, targets, guard, actions, reenter, null, null);
    }

    TransitionDefinition(String eventType, List<String> targets, SelfGuard<C> guard, List<SelfAction<C>> actions, boolean reenter,
            Enum<?> eventConstant, List<Enum<?>> targetConstants) {
        this.eventType = eventType;
        this.targets = List.copyOf(targets);
        this.guard = guard;
        this.actions = List.copyOf(actions);
        this.reenter = reenter;
        this.eventConstant = eventConstant;
        // aligned with targets; null where a target was written as text (List.copyOf refuses nulls)
        this.targetConstants = targetConstants == null
                ? java.util.Collections.nCopies(this.targets.size(), null)
                : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(targetConstants));
    }

    /**
     * The event type for an {@code on} transition; {@code null} for the other kinds.
     *
     * @return the event type, such as {@code "HIT"}, or {@code null}
     */
    public String eventType() {
        return eventType;
    }

    /**
     * The constant the event was named by ({@code on(BELL, ...)}), or {@code null} when named by a string.
     *
     * @return the constant, or {@code null}
     */
    public Enum<?> eventConstant() {
        return eventConstant;
    }

    /**
     * For each of {@link #targets()}, the constant it was named by, or {@code null} where it was written as text.
     *
     * @return the constants, aligned with {@link #targets()}; unmodifiable
     */
    public List<Enum<?>> targetConstants() {
        return targetConstants;
    }

    /**
     * The target texts as written ({@code "b"}, {@code "a.b"}, {@code ".c"}, {@code "#id"}); empty when targetless.
     *
     * @return the targets, unmodifiable
     */
    public List<String> targets() {
        return targets;
    }

    /**
     * The guard, or {@code null} when always enabled.
     *
     * @return the guard, or {@code null}
     */
    public SelfGuard<C> guard() {
        return guard;
    }

    /**
     * The actions run when the transition is taken, in order.
     *
     * @return the actions, unmodifiable
     */
    public List<SelfAction<C>> actions() {
        return actions;
    }

    /**
     * Whether the source is exited and entered again when the target lies within it.
     *
     * @return {@code true} when declared with {@code reenter}
     */
    public boolean reenter() {
        return reenter;
    }
}

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
    private final Guard<C> guard;
    private final List<Action<C>> actions;
    private final boolean reenter;

    TransitionDefinition(String eventType, List<String> targets, Guard<C> guard, List<Action<C>> actions, boolean reenter) {
        this.eventType = eventType;
        this.targets = List.copyOf(targets);
        this.guard = guard;
        this.actions = List.copyOf(actions);
        this.reenter = reenter;
    }

    /** The event type for an {@code on} transition; {@code null} for the other kinds. */
    public String eventType() {
        return eventType;
    }

    /** The target texts as written ({@code "b"}, {@code "a.b"}, {@code ".c"}, {@code "#id"}); empty when targetless. */
    public List<String> targets() {
        return targets;
    }

    /** The guard, or {@code null} when always enabled. */
    public Guard<C> guard() {
        return guard;
    }

    /** The actions run when the transition is taken, in order. */
    public List<Action<C>> actions() {
        return actions;
    }

    /** Whether the source is exited and entered again when the target lies within it. */
    public boolean reenter() {
        return reenter;
    }
}

package dev.enginestates.declare;

import java.util.Objects;

/** Declares a history state: its depth, its default target and an optional id. */
public final class HistoryBuilder {
    private final StateBuilder<?> node;

    HistoryBuilder(StateBuilder<?> node) {
        this.node = node;
    }

    /**
     * Shallow or deep.
     *
     * @param depth {@link HistoryDepth#SHALLOW} (the default) or {@link HistoryDepth#DEEP}
     * @return this builder, for chaining
     */
    public HistoryBuilder depth(HistoryDepth depth) {
        node.history = Objects.requireNonNull(depth, "depth");
        return this;
    }

    /**
     * Remember every active atomic descendant (deep history).
     *
     * @return this builder, for chaining
     */
    public HistoryBuilder deep() {
        return depth(HistoryDepth.DEEP);
    }

    /**
     * The state entered while nothing is remembered: a path from the history's parent, or {@code #id}.
     *
     * @param target such as {@code "attack.windup"}, a state inside the history's parent
     * @return this builder, for chaining
     */
    public HistoryBuilder defaultTarget(String target) {
        node.historyTarget = Objects.requireNonNull(target, "defaultTarget");
        return this;
    }

    /**
     * The state entered while nothing is remembered: the one declared with {@code target} (a typed machine's way).
     *
     * @param target the constant of a state inside the history's parent
     * @return this builder, for chaining
     */
    public HistoryBuilder defaultTarget(Enum<?> target) {
        node.historyTargetConstant = Objects.requireNonNull(target, "defaultTarget");
        node.historyTarget = target.name();
        return this;
    }

    /**
     * An explicit id, so a transition can target this history as {@code "#id"}.
     *
     * @param id the id, unique in the machine and without a {@code '.'}
     * @return this builder, for chaining
     */
    public HistoryBuilder id(String id) {
        node.id(id);
        return this;
    }
}

package dev.enginestates.declare;

import java.util.List;

/**
 * One node of a machine's immutable definition tree, as declared: key, kind, children in
 * document order, transitions by kind, actions, history settings, wait and {@code when}
 * rules. Target texts are kept as written; the compiler resolves them. Immutable and shared.
 *
 * @param <C> the machine's context type
 */
public final class StateDefinition<C> {
    private final String key;
    private final StateType type;
    private final String id;
    private final String initial;
    private final List<StateDefinition<C>> children;
    private final List<TransitionDefinition<C>> on;
    private final List<TransitionDefinition<C>> always;
    private final List<TransitionDefinition<C>> onDone;
    private final List<SelfAction<C>> entry;
    private final List<SelfAction<C>> exit;
    private final HistoryDepth history;
    private final String historyTarget;
    private final WaitDefinition<C> wait;
    private final List<WhenRule<C>> when;
    private final List<String> declarationProblems;
    private final List<InvokeBuilder<C, ?>> invokes;
    private final List<ChildMachine<?>> spawns;
    private final Enum<?> constant;
    private final Enum<?> initialConstant;
    private final Enum<?> historyTargetConstant;

    StateDefinition(NodeBuilder<C, ?> b, List<StateDefinition<C>> children) {
        this.key = b.key;
        this.type = b.explicitType != null ? b.explicitType : (children.isEmpty() ? StateType.ATOMIC : StateType.COMPOUND);
        this.id = b.id;
        this.initial = b.initial;
        this.children = List.copyOf(children);
        this.on = List.copyOf(b.on);
        this.always = List.copyOf(b.always);
        this.onDone = List.copyOf(b.onDone);
        this.entry = List.copyOf(b.entry);
        this.exit = List.copyOf(b.exit);
        this.history = b.history;
        this.historyTarget = b.historyTarget;
        this.wait = b.wait;
        this.when = List.copyOf(b.when);
        this.declarationProblems = List.copyOf(b.problems);
        this.invokes = List.copyOf(b.invokes);
        this.spawns = List.copyOf(b.spawns);
        this.constant = b.constant;
        this.initialConstant = b.initialConstant;
        this.historyTargetConstant = b.historyTargetConstant;
    }

    /**
     * The constant of the machine's state enum this state was declared with, or {@code null} when named by a string.
     *
     * @return the constant, or {@code null}
     */
    public Enum<?> constant() {
        return constant;
    }

    /**
     * The constant {@link #initial()} was named by, or {@code null} when named by a string (or not given).
     *
     * @return the constant, or {@code null}
     */
    public Enum<?> initialConstant() {
        return initialConstant;
    }

    /**
     * For a history node, the constant its default target was named by, or {@code null}.
     *
     * @return the constant, or {@code null}
     */
    public Enum<?> historyTargetConstant() {
        return historyTargetConstant;
    }

    /**
     * The key under its parent ("" for the machine's root).
     *
     * @return the key, such as {@code "watch"}; {@code ""} for the root
     */
    public String key() {
        return key;
    }

    /**
     * The kind of node.
     *
     * @return the kind declared ({@code finalState}, {@code history}, {@code parallel}), or else
     *         {@link StateType#COMPOUND} with children and {@link StateType#ATOMIC} without
     */
    public StateType type() {
        return type;
    }

    /**
     * The explicit id, or {@code null}.
     *
     * @return the id, or {@code null} when none was declared
     */
    public String id() {
        return id;
    }

    /**
     * The key of the initial child as written, or {@code null} (the first child is used).
     *
     * @return the key, or {@code null}
     */
    public String initial() {
        return initial;
    }

    /**
     * Child nodes in document order (history nodes included).
     *
     * @return the children, unmodifiable; empty for a leaf
     */
    public List<StateDefinition<C>> children() {
        return children;
    }

    /**
     * Event transitions in the order declared; candidates for one event keep their order.
     *
     * @return the transitions, unmodifiable
     */
    public List<TransitionDefinition<C>> on() {
        return on;
    }

    /**
     * Eventless transitions, in priority order.
     *
     * @return the transitions, unmodifiable
     */
    public List<TransitionDefinition<C>> always() {
        return always;
    }

    /**
     * Transitions taken when this state is done, in priority order.
     *
     * @return the transitions, unmodifiable
     */
    public List<TransitionDefinition<C>> onDone() {
        return onDone;
    }

    /**
     * Entry actions, in order.
     *
     * @return the actions, unmodifiable
     */
    public List<SelfAction<C>> entry() {
        return entry;
    }

    /**
     * Exit actions, in order.
     *
     * @return the actions, unmodifiable
     */
    public List<SelfAction<C>> exit() {
        return exit;
    }

    /**
     * For a history node, its depth; otherwise {@code null}.
     *
     * @return the depth, or {@code null} for a state that is not a history node
     */
    public HistoryDepth history() {
        return history;
    }

    /**
     * For a history node, its default target text, or {@code null}.
     *
     * @return the target as written, or {@code null} when none was declared
     */
    public String historyTarget() {
        return historyTarget;
    }

    /**
     * The wait, or {@code null}.
     *
     * @return the wait, or {@code null} for a state without one
     */
    public WaitDefinition<C> waitDefinition() {
        return wait;
    }

    /**
     * The {@code when} rules, in priority order.
     *
     * @return the rules, unmodifiable
     */
    public List<WhenRule<C>> when() {
        return when;
    }

    /**
     * Problems noticed while declaring (such as two waits on one state); the compiler reports them.
     *
     * @return the problems, one sentence each; empty when there are none
     */
    public List<String> declarationProblems() {
        return declarationProblems;
    }

    /**
     * The child machines this state runs while active, in declaration order.
     *
     * @return the invocations, possibly empty
     */
    public List<InvokeBuilder<C, ?>> invokes() {
        return invokes;
    }

    /**
     * The machines the machine's code may spawn as children (declared on the root).
     *
     * @return the machines, possibly empty
     */
    public List<ChildMachine<?>> spawns() {
        return spawns;
    }
}

package dev.enginestates.declare;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One node of a polled machine's definition tree, as
 * declared: names are kept as written; the compiler resolves them. Immutable and shared.
 *
 * @param <C> the context type
 */
public final class PolledDefinition<C> {
    private final String key;
    private final String initial;
    private final List<PolledDefinition<C>> children;
    private final List<String> toTargets;
    private final List<StateGuard<C>> toGuards;
    private final double afterSeconds;
    private final String afterTarget;
    private final StateUpdate<C> update;
    private final EnterHook<C> enter;
    private final ExitHook<C> exit;
    private final List<String> onEvents;
    private final List<String> onTargets;
    private final List<StateEventHandler<C>> onHandlers;
    private final List<String> problems;

    PolledDefinition(String key, String initial, List<PolledDefinition<C>> children, List<String> toTargets,
            List<StateGuard<C>> toGuards, double afterSeconds, String afterTarget, StateUpdate<C> update, EnterHook<C> enter,
            ExitHook<C> exit, List<String> onEvents, List<String> onTargets, List<StateEventHandler<C>> onHandlers,
            List<String> problems) {
        this.key = key;
        this.initial = initial;
        this.children = List.copyOf(children);
        this.toTargets = unmodifiable(toTargets);
        this.toGuards = unmodifiable(toGuards);
        this.afterSeconds = afterSeconds;
        this.afterTarget = afterTarget;
        this.update = update;
        this.enter = enter;
        this.exit = exit;
        this.onEvents = unmodifiable(onEvents);
        this.onTargets = unmodifiable(onTargets);
        this.onHandlers = unmodifiable(onHandlers);
        this.problems = List.copyOf(problems);
    }

    // nulls are reported as problems, so the lists may hold them
    private static <T> List<T> unmodifiable(List<T> list) {
        return Collections.unmodifiableList(new ArrayList<>(list));
    }

    /**
     * The key under its parent ("" for the root).
     *
     * @return the key, such as {@code "patrol"}; {@code ""} for the root
     */
    public String key() {
        return key;
    }

    /**
     * The initial child's name as written, or {@code null} (the first child).
     *
     * @return the name, or {@code null}
     */
    public String initial() {
        return initial;
    }

    /**
     * Child states in declaration order.
     *
     * @return the children, unmodifiable; empty for a leaf
     */
    public List<PolledDefinition<C>> children() {
        return children;
    }

    /**
     * The {@code to} guards' targets as written, in declaration order.
     *
     * @return the targets, unmodifiable
     */
    public List<String> toTargets() {
        return toTargets;
    }

    /**
     * The {@code to} guards, parallel to {@link #toTargets()}.
     *
     * @return the guards, unmodifiable; a {@code null} one was reported as a problem
     */
    public List<StateGuard<C>> toGuards() {
        return toGuards;
    }

    /**
     * The {@code after} seconds, or NaN when there is none.
     *
     * @return the seconds, or {@code NaN}
     */
    public double afterSeconds() {
        return afterSeconds;
    }

    /**
     * The {@code after} target as written, or {@code null}.
     *
     * @return the target, or {@code null} for a state without an {@code after}
     */
    public String afterTarget() {
        return afterTarget;
    }

    /**
     * The update, or {@code null}.
     *
     * @return the update, or {@code null}
     */
    public StateUpdate<C> update() {
        return update;
    }

    /**
     * The enter callback, or {@code null}.
     *
     * @return the callback, or {@code null}
     */
    public EnterHook<C> enter() {
        return enter;
    }

    /**
     * The exit callback, or {@code null}.
     *
     * @return the callback, or {@code null}
     */
    public ExitHook<C> exit() {
        return exit;
    }

    /**
     * The event names of {@code on}, in declaration order.
     *
     * @return the names, unmodifiable
     */
    public List<String> onEvents() {
        return onEvents;
    }

    /**
     * Per event: the target as written, or {@code null} for a handler.
     *
     * @return the targets, aligned with {@link #onEvents()}; unmodifiable
     */
    public List<String> onTargets() {
        return onTargets;
    }

    /**
     * Per event: the handler, or {@code null} for a target.
     *
     * @return the handlers, aligned with {@link #onEvents()}; unmodifiable
     */
    public List<StateEventHandler<C>> onHandlers() {
        return onHandlers;
    }

    /**
     * Problems noticed while declaring; the compiler reports them with its own.
     *
     * @return the problems, one sentence each; empty when there are none
     */
    public List<String> declarationProblems() {
        return problems;
    }
}

package dev.enginestates.declare;


import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What the machine's root and every state declare alike: children, transitions, actions,
 * waits and {@code when} rules. Each method returns the builder, so a state reads as its
 * XState config does. Every piece of code it takes (an action, a guard, a {@code when} test, a
 * wait's seconds) may also be written with three arguments, {@code (ctx, event, self)}, to see
 * the machine's entity and world ({@link Self}).
 *
 * @param <C> the machine's context type
 * @param <B> the concrete builder, returned by every method
 */
public abstract class NodeBuilder<C, B extends NodeBuilder<C, B>> {
    final String key;
    StateType explicitType;
    String id;
    String initial;
    final List<StateBuilder<C>> children = new ArrayList<>();
    final List<TransitionDefinition<C>> on = new ArrayList<>();
    final List<TransitionDefinition<C>> always = new ArrayList<>();
    final List<TransitionDefinition<C>> onDone = new ArrayList<>();
    final List<SelfAction<C>> entry = new ArrayList<>();
    final List<SelfAction<C>> exit = new ArrayList<>();
    HistoryDepth history;
    String historyTarget;
    /** The constant this state was declared with ({@code state(PATROL)}), or {@code null} when named by a string. */
    Enum<?> constant;
    Enum<?> initialConstant;
    Enum<?> historyTargetConstant;
    WaitDefinition<C> wait;
    final List<WhenRule<C>> when = new ArrayList<>();
    final List<InvokeBuilder<C, ?>> invokes = new ArrayList<>();
    /** The machines the machine's code may start with {@code spawnChild} (declared on the root). */
    final List<ChildMachine<?>> spawns = new ArrayList<>();
    final List<String> problems = new ArrayList<>();

    NodeBuilder(String key) {
        this.key = key;
    }

    NodeBuilder(Enum<?> constant) {
        this.key = Objects.requireNonNull(constant, "state").name();
        this.constant = constant;
    }

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }

    /**
     * An explicit id, so any transition can target this state as {@code "#id"}.
     *
     * @param id the id, unique in the machine and without a {@code '.'}; without one, a state's id is the
     *           machine's id and its path ({@code "siege.patrol.watch"})
     * @return this builder, for chaining
     */
    public B id(String id) {
        this.id = Objects.requireNonNull(id, "id");
        return self();
    }

    /**
     * The child entered by default. Without it, the first child (not a history node) is.
     *
     * @param childKey the key of one of this state's children, not a history node; a parallel state takes none,
     *                 since it enters every region
     * @return this builder, for chaining
     */
    public B initial(String childKey) {
        this.initial = Objects.requireNonNull(childKey, "initial");
        return self();
    }

    /**
     * Makes this a parallel state: all its children (regions) are active together.
     *
     * @return this builder, for chaining
     */
    public B parallel() {
        this.explicitType = StateType.PARALLEL;
        return self();
    }

    /**
     * Adds an atomic child state with nothing declared.
     *
     * @param key the child's key, unique among its siblings, with no {@code '.'} and no leading {@code '#'}
     * @return this builder, for chaining
     */
    public B state(String key) {
        return state(key, s -> { });
    }

    /**
     * Adds a child state declared by {@code body}.
     *
     * @param key the child's key, unique among its siblings, with no {@code '.'} and no leading {@code '#'}
     * @param body declares the child: its own children, transitions, actions, wait and {@code when} rules; it
     *             runs now, once
     * @return this builder, for chaining
     */
    public B state(String key, Consumer<StateBuilder<C>> body) {
        StateBuilder<C> child = new StateBuilder<>(key);
        body.accept(child);
        children.add(child);
        return self();
    }

    /**
     * Adds a final child state: entering it makes this state done.
     *
     * @param key the child's key, unique among its siblings, with no {@code '.'} and no leading {@code '#'}
     * @return this builder, for chaining
     */
    public B finalState(String key) {
        return finalState(key, s -> { });
    }

    /**
     * Adds a final child state with entry or exit actions or an id.
     *
     * @param key the child's key, unique among its siblings, with no {@code '.'} and no leading {@code '#'}
     * @param body declares the child's entry and exit actions or its id; a final state has no children
     * @return this builder, for chaining
     */
    public B finalState(String key, Consumer<StateBuilder<C>> body) {
        StateBuilder<C> child = new StateBuilder<>(key);
        body.accept(child);
        child.explicitType = StateType.FINAL;
        children.add(child);
        return self();
    }

    /**
     * Adds a shallow history child with no default target.
     *
     * @param key the history node's key, unique among its siblings, with no {@code '.'} and no leading
     *            {@code '#'}
     * @return this builder, for chaining
     */
    public B history(String key) {
        return history(key, HistoryDepth.SHALLOW);
    }

    /**
     * Adds a history child with no default target: with nothing remembered it enters this state's initial state.
     *
     * @param key the history node's key, unique among its siblings, with no {@code '.'} and no leading
     *            {@code '#'}
     * @param depth how much it remembers: {@link HistoryDepth#SHALLOW} this state's active child,
     *              {@link HistoryDepth#DEEP} every active descendant
     * @return this builder, for chaining
     */
    public B history(String key, HistoryDepth depth) {
        return history(key, h -> h.depth(depth));
    }

    /**
     * Adds a history child whose default target (a path from this state, or {@code #id}) is used when nothing is remembered.
     *
     * @param key the history node's key, unique among its siblings, with no {@code '.'} and no leading
     *            {@code '#'}
     * @param depth how much it remembers ({@link HistoryDepth})
     * @param defaultTarget a path from this state ({@code "attack.windup"}) or {@code "#id"}; it must lie
     *                      inside this state
     * @return this builder, for chaining
     */
    public B history(String key, HistoryDepth depth, String defaultTarget) {
        return history(key, h -> h.depth(depth).defaultTarget(defaultTarget));
    }

    /**
     * Adds a history child declared by {@code body} (depth, default target, id).
     *
     * @param key the history node's key, unique among its siblings, with no {@code '.'} and no leading
     *            {@code '#'}
     * @param body sets the depth (shallow unless set), the default target and the id
     * @return this builder, for chaining
     */
    public B history(String key, Consumer<HistoryBuilder> body) {
        StateBuilder<C> child = new StateBuilder<>(key);
        child.explicitType = StateType.HISTORY;
        child.history = HistoryDepth.SHALLOW;
        body.accept(new HistoryBuilder(child));
        children.add(child);
        return self();
    }

    // ------------------------------------------------------------------ typed names (the machine's own enums)
    //
    // A state declared with a constant has the constant's name as written as its key
    // (state(PATROL) is "PATROL", its child state(WATCH) is "PATROL.WATCH"); an event named by a
    // constant has the constant's name as its type. A target named by a constant is the one
    // state declared with that constant, wherever it lies. The compiler checks the constants
    // against the enums the machine was defined with (Machine.define(id, context, States.class,
    // Events.class, body)): each state constant declares exactly one state, each event constant
    // is taken by some state, and a typed machine names nothing by a string.

    /**
     * The child entered by default, named by the constant it was declared with.
     *
     * @param child the constant the child was declared with; a parallel state takes none
     * @return this builder, for chaining
     */
    public B initial(Enum<?> child) {
        this.initialConstant = Objects.requireNonNull(child, "initial");
        this.initial = child.name();
        return self();
    }

    /**
     * Adds an atomic child state named by a constant of the machine's state enum (its key is the constant's name).
     *
     * @param key a constant of the machine's state enum; its name is the state's key, and it declares this one
     *            state only
     * @return this builder, for chaining
     */
    public B state(Enum<?> key) {
        return state(key, s -> { });
    }

    /**
     * Adds a child state named by a constant of the machine's state enum, declared by {@code body}.
     *
     * @param key a constant of the machine's state enum; its name is the state's key, and it declares this one
     *            state only
     * @param body declares the child: its own children, transitions, actions, wait and {@code when} rules; it
     *             runs now, once
     * @return this builder, for chaining
     */
    public B state(Enum<?> key, Consumer<StateBuilder<C>> body) {
        StateBuilder<C> child = new StateBuilder<>(key);
        body.accept(child);
        children.add(child);
        return self();
    }

    /**
     * Adds a final child state named by a constant: entering it makes this state done.
     *
     * @param key a constant of the machine's state enum; its name is the state's key, and it declares this one
     *            state only
     * @return this builder, for chaining
     */
    public B finalState(Enum<?> key) {
        return finalState(key, s -> { });
    }

    /**
     * Adds a final child state named by a constant, with entry or exit actions.
     *
     * @param key a constant of the machine's state enum; its name is the state's key, and it declares this one
     *            state only
     * @param body declares the child's entry and exit actions; a final state has no children
     * @return this builder, for chaining
     */
    public B finalState(Enum<?> key, Consumer<StateBuilder<C>> body) {
        StateBuilder<C> child = new StateBuilder<>(key);
        body.accept(child);
        child.explicitType = StateType.FINAL;
        children.add(child);
        return self();
    }

    /**
     * Adds a shallow history child named by a constant, with no default target.
     *
     * @param key a constant of the machine's state enum; its name is the state's key, and it declares this one
     *            state only
     * @return this builder, for chaining
     */
    public B history(Enum<?> key) {
        return history(key, HistoryDepth.SHALLOW);
    }

    /**
     * Adds a history child named by a constant, with no default target.
     *
     * @param key a constant of the machine's state enum; its name is the state's key, and it declares this one
     *            state only
     * @param depth how much it remembers: {@link HistoryDepth#SHALLOW} this state's active child,
     *              {@link HistoryDepth#DEEP} every active descendant
     * @return this builder, for chaining
     */
    public B history(Enum<?> key, HistoryDepth depth) {
        return history(key, h -> h.depth(depth));
    }

    /**
     * Adds a history child named by a constant, whose default target is the state declared with {@code defaultTarget}.
     *
     * @param key a constant of the machine's state enum; its name is the state's key, and it declares this one
     *            state only
     * @param depth how much it remembers ({@link HistoryDepth})
     * @param defaultTarget the constant of the state entered while nothing is remembered; it must lie inside
     *                      this state
     * @return this builder, for chaining
     */
    public B history(Enum<?> key, HistoryDepth depth, Enum<?> defaultTarget) {
        return history(key, h -> h.depth(depth).defaultTarget(defaultTarget));
    }

    /**
     * Adds a history child named by a constant, declared by {@code body} (depth, default target).
     *
     * @param key a constant of the machine's state enum; its name is the state's key, and it declares this one
     *            state only
     * @param body sets the depth (shallow unless set) and the default target
     * @return this builder, for chaining
     */
    public B history(Enum<?> key, Consumer<HistoryBuilder> body) {
        StateBuilder<C> child = new StateBuilder<>(key);
        child.explicitType = StateType.HISTORY;
        child.history = HistoryDepth.SHALLOW;
        body.accept(new HistoryBuilder(child));
        children.add(child);
        return self();
    }

    /**
     * On the event named by a constant of the machine's event enum, go to the state declared with {@code target}.
     *
     * @param event a constant of the machine's event enum
     * @param target the constant of the state to go to, wherever it lies in the machine
     * @return this builder, for chaining
     */
    public B on(Enum<?> event, Enum<?> target) {
        return on(event, t -> t.target(target));
    }

    /**
     * On the event named by a constant, the transition declared by {@code body}; several calls for one event form a list.
     *
     * @param event a constant of the machine's event enum
     * @param body declares the transition: its targets, guard, actions and {@code reenter}; with no target it
     *             only runs its actions
     * @return this builder, for chaining
     */
    public B on(Enum<?> event, Consumer<TransitionBuilder<C>> body) {
        Objects.requireNonNull(event, "event");
        TransitionBuilder<C> t = new TransitionBuilder<>();
        body.accept(t);
        on.add(t.build(event.name(), event));
        return self();
    }

    /**
     * An eventless transition to the state declared with {@code target}.
     *
     * @param target the constant of the state to go to, wherever it lies in the machine
     * @return this builder, for chaining
     */
    public B always(Enum<?> target) {
        return always(t -> t.target(target));
    }

    /**
     * When this state is done, go to the state declared with {@code target}.
     *
     * @param target the constant of the state to go to, wherever it lies in the machine
     * @return this builder, for chaining
     */
    public B onDone(Enum<?> target) {
        return onDone(t -> t.target(target));
    }

    /**
     * Hold here for {@code seconds}, then go to the state declared with {@code target}.
     *
     * @param seconds how long, in seconds of the machine's clock (the world's ticks, or a plain machine's
     *                {@code step}); finite and 0 or more
     * @param target the constant of the state to go to, wherever it lies in the machine
     * @return this builder, for chaining
     */
    public B waitFor(double seconds, Enum<?> target) {
        return waitFor(seconds, t -> t.target(target));
    }

    /**
     * Hold here for seconds computed from the context on entry, then go to the state declared with {@code target}.
     *
     * @param seconds computes the seconds from the context as the state is entered; a result that is negative,
     *                infinite or NaN makes the machine throw a {@link UserCodeException}
     * @param target the constant of the state to go to, wherever it lies in the machine
     * @return this builder, for chaining
     */
    public B waitFor(Seconds<C> seconds, Enum<?> target) {
        return waitFor(seconds, t -> t.target(target));
    }

    /**
     * A {@code when} rule: each step while this state is active, go to the state declared with {@code target} if {@code test} holds.
     *
     * @param test reads the context; tested each step while this state is active
     * @param target the constant of the state to go to, wherever it lies in the machine
     * @return this builder, for chaining
     */
    public B when(Condition<C> test, Enum<?> target) {
        return when(test, t -> t.target(target));
    }

    /**
     * A {@code when} rule reading the holder, going to the state declared with {@code target}.
     *
     * @param test reads the context and the holder (in a world, the machine's entity); tested each step while
     *             this state is active
     * @param target the constant of the state to go to, wherever it lies in the machine
     * @return this builder, for chaining
     */
    public B when(HolderCondition<C> test, Enum<?> target) {
        return when(test, t -> t.target(target));
    }

    /**
     * Hold here for seconds computed on entry by {@code (ctx, event, self) -> ...}, then go to the state declared with {@code target}.
     *
     * @param seconds computes the seconds as the state is entered, from the context, the entering event and the
     *                machine's {@link Self}; a result that is negative, infinite or NaN makes the machine throw
     *                a {@link UserCodeException}
     * @param target the constant of the state to go to, wherever it lies in the machine
     * @return this builder, for chaining
     */
    public B waitFor(SelfSeconds<C> seconds, Enum<?> target) {
        return waitFor(seconds, t -> t.target(target));
    }

    /**
     * A {@code when} rule whose test sees the machine's entity and world, going to the state declared with {@code target}.
     *
     * @param test reads the context, the machine's {@code when} event ({@code "states.when"}) and its
     *             {@link Self}; tested each step while this state is active
     * @param target the constant of the state to go to, wherever it lies in the machine
     * @return this builder, for chaining
     */
    public B when(SelfGuard<C> test, Enum<?> target) {
        return when(test, t -> t.target(target));
    }

    /**
     * On {@code event}, go to {@code target}. Several calls for one event form a list: the first enabled wins.
     *
     * @param event the event's type, such as {@code "HIT"}
     * @param target the state to go to, written as for {@link TransitionBuilder#target(String...)}: a sibling's
     *               key, {@code ".child"} or {@code "#id"} (the root names its own states as {@code ".child"})
     * @return this builder, for chaining
     */
    public B on(String event, String target) {
        return on(event, t -> t.target(target));
    }

    /**
     * On {@code event}, the transition declared by {@code body} (guard, targets, actions, reenter).
     *
     * @param event the event's type, such as {@code "HIT"}
     * @param body declares the transition: its targets, guard, actions and {@code reenter}; with no target it
     *             only runs its actions
     * @return this builder, for chaining
     */
    public B on(String event, Consumer<TransitionBuilder<C>> body) {
        on.add(transition(event, body));
        return self();
    }

    /**
     * An eventless transition to {@code target}, taken as soon as this state is active.
     *
     * @param target the state to go to, written as for {@link TransitionBuilder#target(String...)}: a sibling's
     *               key, {@code ".child"} or {@code "#id"} (the root names its own states as {@code ".child"})
     * @return this builder, for chaining
     */
    public B always(String target) {
        return always(t -> t.target(target));
    }

    /**
     * An eventless transition declared by {@code body}; several calls form a priority list.
     *
     * @param body declares the transition, usually with a guard: one without is taken every time this state is
     *             entered
     * @return this builder, for chaining
     */
    public B always(Consumer<TransitionBuilder<C>> body) {
        always.add(transition(null, body));
        return self();
    }

    /**
     * Runs {@code child} while this state is active, as XState's {@code invoke}: see {@link InvokeBuilder}.
     *
     * @param <K>   the child's context type
     * @param id    the child's id, unique in the machine, without {@code '/'}: the parent sends to it and
     *              hears its done event ({@code "xstate.done.actor.<id>"}) by it
     * @param child the child's machine
     * @return this builder, for chaining
     */
    public <K> B invoke(String id, ChildMachine<K> child) {
        return invoke(id, child, i -> { });
    }

    /**
     * Runs {@code child} while this state is active, declared by {@code body}: its context, where it
     * runs, its output and the transition taken when it is done. See {@link InvokeBuilder}.
     *
     * @param <K>   the child's context type
     * @param id    the child's id, unique in the machine, without {@code '/'}
     * @param child the child's machine
     * @param body  declares the invocation
     * @return this builder, for chaining
     */
    public <K> B invoke(String id, ChildMachine<K> child, Consumer<InvokeBuilder<C, K>> body) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(child, "child");
        Objects.requireNonNull(body, "body");
        InvokeBuilder<C, K> i = new InvokeBuilder<>(id, child);
        body.accept(i);
        invokes.add(i);
        for (Consumer<TransitionBuilder<C>> t : i.doneTransitions()) {
            on.add(transition(InvokeBuilder.doneEvent(id), t));
        }
        return self();
    }

    /**
     * When this compound or parallel state is done (a final child reached), go to {@code target}.
     *
     * @param target the state to go to, written as for {@link TransitionBuilder#target(String...)}: a sibling's
     *               key, {@code ".child"} or {@code "#id"} (the root names its own states as {@code ".child"})
     * @return this builder, for chaining
     */
    public B onDone(String target) {
        return onDone(t -> t.target(target));
    }

    /**
     * When this state is done, the transition declared by {@code body}; several calls form a priority list.
     *
     * @param body declares the transition: its targets, guard and actions
     * @return this builder, for chaining
     */
    public B onDone(Consumer<TransitionBuilder<C>> body) {
        onDone.add(transition(null, body));
        return self();
    }

    /**
     * Actions run when this state is entered, in order.
     *
     * @param actions each run with the context and the event that entered the state; none {@code null}. Several
     *                calls add to the list
     * @return this builder, for chaining
     */
    @SafeVarargs
    public final B entry(Action<C>... actions) {
        for (Action<C> a : actions) {
            entry.add(Objects.requireNonNull(a, "entry action"));
        }
        return self();
    }

    /**
     * Actions run when this state is entered that see the machine's entity and world: {@code (ctx, event, self) -> ...}.
     *
     * @param actions each run with the context, the event that entered the state and the machine's
     *                {@link Self}; none {@code null}
     * @return this builder, for chaining
     */
    @SafeVarargs
    public final B entry(SelfAction<C>... actions) {
        for (SelfAction<C> a : actions) {
            entry.add(Objects.requireNonNull(a, "entry action"));
        }
        return self();
    }

    /**
     * Actions run when this state is exited, in order.
     *
     * @param actions each run with the context and the event that makes the machine leave the state; none
     *                {@code null}. Several calls add to the list
     * @return this builder, for chaining
     */
    @SafeVarargs
    public final B exit(Action<C>... actions) {
        for (Action<C> a : actions) {
            exit.add(Objects.requireNonNull(a, "exit action"));
        }
        return self();
    }

    /**
     * Actions run when this state is exited that see the machine's entity and world: {@code (ctx, event, self) -> ...}.
     *
     * @param actions each run with the context, the event that makes the machine leave the state and the
     *                machine's {@link Self}; none {@code null}
     * @return this builder, for chaining
     */
    @SafeVarargs
    public final B exit(SelfAction<C>... actions) {
        for (SelfAction<C> a : actions) {
            exit.add(Objects.requireNonNull(a, "exit action"));
        }
        return self();
    }

    /**
     * Hold here for {@code seconds} of fixed steps, then go to {@code target}.
     *
     * @param seconds how long, in seconds of the machine's clock (the world's ticks, or a plain machine's
     *                {@code step}); finite and 0 or more
     * @param target the state to go to, written as for {@link TransitionBuilder#target(String...)}: a sibling's
     *               key, {@code ".child"} or {@code "#id"} (the root names its own states as {@code ".child"})
     * @return this builder, for chaining
     */
    public B waitFor(double seconds, String target) {
        return waitFor(seconds, t -> t.target(target));
    }

    /**
     * Hold here for {@code seconds}, then take the transition declared by {@code then} (such as one with {@code reenter}).
     *
     * @param seconds how long, in seconds of the machine's clock (the world's ticks, or a plain machine's
     *                {@code step}); finite and 0 or more
     * @param then declares the transition taken when the seconds have passed: it needs a target and takes no
     *             guard
     * @return this builder, for chaining
     */
    public B waitFor(double seconds, Consumer<TransitionBuilder<C>> then) {
        return setWait(new WaitDefinition<>(seconds, null, transition(null, then)));
    }

    /**
     * Hold here for seconds computed from the context on entry, then go to {@code target}.
     *
     * @param seconds computes the seconds from the context as the state is entered; a result that is negative,
     *                infinite or NaN makes the machine throw a {@link UserCodeException}
     * @param target the state to go to, written as for {@link TransitionBuilder#target(String...)}: a sibling's
     *               key, {@code ".child"} or {@code "#id"} (the root names its own states as {@code ".child"})
     * @return this builder, for chaining
     */
    public B waitFor(Seconds<C> seconds, String target) {
        return waitFor(seconds, t -> t.target(target));
    }

    /**
     * Hold here for seconds computed from the context on entry, then take the transition declared by {@code then}.
     *
     * @param seconds computes the seconds from the context as the state is entered; a result that is negative,
     *                infinite or NaN makes the machine throw a {@link UserCodeException}
     * @param then declares the transition taken when the seconds have passed: it needs a target and takes no
     *             guard
     * @return this builder, for chaining
     */
    public B waitFor(Seconds<C> seconds, Consumer<TransitionBuilder<C>> then) {
        return setWait(new WaitDefinition<>(Double.NaN, Objects.requireNonNull(seconds, "seconds"), transition(null, then)));
    }

    /**
     * Hold here for seconds computed on entry from the context, the entering event and the
     * machine's entity and world ({@code (ctx, event, self) -> ...}), then go to {@code target}.
     *
     * @param seconds computes the seconds as the state is entered, from the context, the entering event and the
     *                machine's {@link Self}; a result that is negative, infinite or NaN makes the machine throw
     *                a {@link UserCodeException}
     * @param target the state to go to, written as for {@link TransitionBuilder#target(String...)}: a sibling's
     *               key, {@code ".child"} or {@code "#id"} (the root names its own states as {@code ".child"})
     * @return this builder, for chaining
     */
    public B waitFor(SelfSeconds<C> seconds, String target) {
        return waitFor(seconds, t -> t.target(target));
    }

    /**
     * Hold here for seconds computed on entry by {@code (ctx, event, self) -> ...}, then take the transition declared by {@code then}.
     *
     * @param seconds computes the seconds as the state is entered, from the context, the entering event and the
     *                machine's {@link Self}; a result that is negative, infinite or NaN makes the machine throw
     *                a {@link UserCodeException}
     * @param then declares the transition taken when the seconds have passed: it needs a target and takes no
     *             guard
     * @return this builder, for chaining
     */
    public B waitFor(SelfSeconds<C> seconds, Consumer<TransitionBuilder<C>> then) {
        return setWait(new WaitDefinition<>(Double.NaN, Objects.requireNonNull(seconds, "seconds"), transition(null, then)));
    }

    /**
     * A {@code when} rule: each step while this state is active, go to {@code target} if {@code test} holds.
     *
     * @param test reads the context; tested each step while this state is active
     * @param target the state to go to, written as for {@link TransitionBuilder#target(String...)}: a sibling's
     *               key, {@code ".child"} or {@code "#id"} (the root names its own states as {@code ".child"})
     * @return this builder, for chaining
     */
    public B when(Condition<C> test, String target) {
        return when(test, t -> t.target(target));
    }

    /**
     * A {@code when} rule whose transition is declared by {@code then}.
     *
     * @param test reads the context; tested each step while this state is active
     * @param then declares the transition taken when the test holds: it needs a target and takes no guard (the
     *             test is its condition)
     * @return this builder, for chaining
     */
    public B when(Condition<C> test, Consumer<TransitionBuilder<C>> then) {
        return when((SelfGuard<C>) test, then);
    }

    /**
     * A {@code when} rule whose test also reads the machine's holder (in the ECS binding, its entity).
     *
     * @param test reads the context and the holder (in a world, the machine's entity); tested each step while
     *             this state is active
     * @param target the state to go to, written as for {@link TransitionBuilder#target(String...)}: a sibling's
     *               key, {@code ".child"} or {@code "#id"} (the root names its own states as {@code ".child"})
     * @return this builder, for chaining
     */
    public B when(HolderCondition<C> test, String target) {
        return when(test, t -> t.target(target));
    }

    /**
     * A {@code when} rule reading the holder, whose transition is declared by {@code then}.
     *
     * @param test reads the context and the holder (in a world, the machine's entity); tested each step while
     *             this state is active
     * @param then declares the transition taken when the test holds: it needs a target and takes no guard (the
     *             test is its condition)
     * @return this builder, for chaining
     */
    public B when(HolderCondition<C> test, Consumer<TransitionBuilder<C>> then) {
        return when((SelfGuard<C>) test, then);
    }

    /**
     * A {@code when} rule whose test sees the machine's entity and world:
     * {@code when((ctx, event, self) -> self.get(Health.class).hp <= 0, "dead")}. The event is
     * the machine's {@code when} event.
     *
     * @param test reads the context, the machine's {@code when} event ({@code "states.when"}) and its
     *             {@link Self}; tested each step while this state is active
     * @param target the state to go to, written as for {@link TransitionBuilder#target(String...)}: a sibling's
     *               key, {@code ".child"} or {@code "#id"} (the root names its own states as {@code ".child"})
     * @return this builder, for chaining
     */
    public B when(SelfGuard<C> test, String target) {
        return when(test, t -> t.target(target));
    }

    /**
     * A {@code when} rule whose test sees the machine's entity and world, and whose transition is declared by {@code then}.
     *
     * @param test reads the context, the machine's {@code when} event ({@code "states.when"}) and its
     *             {@link Self}; tested each step while this state is active
     * @param then declares the transition taken when the test holds: it needs a target and takes no guard (the
     *             test is its condition)
     * @return this builder, for chaining
     */
    public B when(SelfGuard<C> test, Consumer<TransitionBuilder<C>> then) {
        when.add(new WhenRule<>(Objects.requireNonNull(test, "test"), transition(null, then)));
        return self();
    }

    private B setWait(WaitDefinition<C> w) {
        if (wait != null) {
            problems.add("declares a wait twice; a state counts one wait");
        }
        wait = w;
        return self();
    }

    private static <C> TransitionDefinition<C> transition(String event, Consumer<TransitionBuilder<C>> body) {
        TransitionBuilder<C> t = new TransitionBuilder<>();
        body.accept(t);
        return t.build(event);
    }

    StateDefinition<C> build() {
        List<StateDefinition<C>> built = new ArrayList<>(children.size());
        for (StateBuilder<C> c : children) {
            built.add(c.build());
        }
        return new StateDefinition<>(this, built);
    }
}

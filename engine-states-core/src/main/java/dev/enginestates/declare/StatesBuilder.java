package dev.enginestates.declare;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Declares a polled machine inside {@code StatesDef.define}: the root and
 * each state alike, each method returning the builder so a declaration reads like a
 * table. Mistakes are collected and reported together when the machine is built.
 *
 * <pre>{@code
 * StatesDef<Bot> GUARD = StatesDef.define("guard", d -> d
 *     .initial("patrol")
 *     .on("hit", "flinch")
 *     .to("dead", (b, t) -> b.hp <= 0)
 *     .state("patrol", s -> s.to("combat", (b, t) -> b.target))
 *     .state("flinch", s -> s.after(0.2, "$back")));
 * }</pre>
 *
 * @param <C> the context type
 */
public final class StatesBuilder<C> {
    /** The target that means "the leaf active before the last transition". */
    public static final String BACK = "$back";
    private static final String TARGET_EXPECTED = "expected a state's name or path, or '" + BACK + "'";

    private final String key;
    private final String path;
    private final String where;
    private String initial;
    private final List<StatesBuilder<C>> children = new ArrayList<>();
    private final List<String> toTargets = new ArrayList<>();
    private final List<StateGuard<C>> toGuards = new ArrayList<>();
    private double afterSeconds = Double.NaN;
    private String afterTarget;
    private StateUpdate<C> update;
    private EnterHook<C> enter;
    private ExitHook<C> exit;
    private final List<String> onEvents = new ArrayList<>();
    private final List<String> onTargets = new ArrayList<>();
    private final List<StateEventHandler<C>> onHandlers = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private UnknownEvents unknownEvents = UnknownEvents.REJECT;
    private boolean tags = true;
    private final List<Class<?>> heldBy = new ArrayList<>();
    private boolean ownerOnly;
    private int version;
    private java.util.List<dev.enginestates.declare.Migration> migrations = java.util.List.of();

    /** Starts the root of a declaration (use {@code StatesDef.define}). */
    public StatesBuilder() {
        this("", "");
    }

    private StatesBuilder(String key, String path) {
        this.key = key;
        this.path = path;
        this.where = path.isEmpty() ? "the root" : "state '" + path + "'";
    }

    /**
     * The child entered by default; without it, the first child declared.
     *
     * @param childName the name of one of this state's children; declaring initial twice is reported
     * @return this builder, for chaining
     */
    public StatesBuilder<C> initial(String childName) {
        if (initial != null) {
            problems.add(where + " declares initial twice ('" + initial + "' and '" + childName + "'); expected one");
        }
        initial = childName;
        return this;
    }

    /**
     * Declares a leaf state.
     *
     * @param name the state's name, unique among its siblings, with no {@code '.'} and no leading {@code '#'}
     * @return this builder, for chaining
     */
    public StatesBuilder<C> state(String name) {
        return state(name, s -> { });
    }

    /**
     * Declares a state; a state that declares states of its own is compound.
     *
     * @param name the state's name, unique among its siblings, with no {@code '.'} and no leading {@code '#'}
     * @param body declares the state: its children, guards, after, update, enter, exit and events; it runs now,
     *             once
     * @return this builder, for chaining
     */
    public StatesBuilder<C> state(String name, Consumer<StatesBuilder<C>> body) {
        Objects.requireNonNull(body, "state body");
        StatesBuilder<C> child = new StatesBuilder<>(name, path.isEmpty() ? String.valueOf(name) : path + "." + name);
        body.accept(child);
        if (name == null) {
            problems.add(where + " declares a state with a null name; expected a name");
        } else if (BACK.equals(name)) {
            problems.add(where + " declares a state named '" + BACK + "'; '" + BACK
                    + "' always means the leaf active before the last transition, so no target could reach it; expected another name");
        } else {
            children.add(child);
            return this;
        }
        child.collectProblems(problems); // a refused state stays out of the tree, but what else is wrong in it is still said
        return this;
    }

    private void collectProblems(List<String> out) {
        out.addAll(problems);
        for (StatesBuilder<C> c : children) {
            c.collectProblems(out);
        }
    }

    /**
     * A guard polled every step while this state is active (on the root: in every state, tested
     * first). The first guard that holds moves the machine to {@code target}; a guard whose
     * target is already active is skipped, so it fires once, not every step.
     *
     * @param target the state to go to, resolved from this state: a name in reach (a sibling, a child, an
     *               ancestor's sibling) or a path from the root ({@code "combat.strafe"}); not {@code "$back"}.
     *               Once per target in a state
     * @param guard reads the context and the seconds spent in this state
     * @return this builder, for chaining
     */
    public StatesBuilder<C> to(String target, StateGuard<C> guard) {
        if (guard == null) {
            problems.add(where + " has a null guard for to '" + target + "'; expected (ctx, t) -> boolean");
        }
        if (toTargets.contains(target)) {
            problems.add(where + " declares to '" + target + "' twice; expected each target once (join the guards with ||)");
        }
        toTargets.add(target);
        toGuards.add(guard);
        return this;
    }

    /**
     * Leaves for {@code target} ({@code "$back"} allowed) after {@code seconds} in this state.
     *
     * @param seconds seconds in this state, finite and 0 or more; one after per state, and none on the root
     * @param target the state to go to, resolved from this state: a name in reach (a sibling, a child, an
     *               ancestor's sibling) or a path from the root ({@code "combat.strafe"}), or {@code "$back"};
     *               {@code null} is reported when the machine is built
     * @return this builder, for chaining
     */
    public StatesBuilder<C> after(double seconds, String target) {
        if (afterTarget != null) {
            problems.add(where + " declares after twice; expected one after per state");
        }
        if (path.isEmpty()) {
            problems.add("the root cannot have an after (it is never left); put it on a state");
        }
        if (!(seconds >= 0) || Double.isInfinite(seconds)) {
            problems.add(where + " has after " + seconds + " seconds; expected a finite number of seconds, 0 or more");
        }
        if (target == null) {
            problems.add(where + " has after " + seconds + " seconds with a null target; " + TARGET_EXPECTED);
        }
        afterSeconds = seconds;
        afterTarget = target == null ? BACK : target; // a placeholder the compiler resolves quietly: the build fails on the problem
        return this;
    }

    /**
     * Code run every step after the guards, outermost first; a returned name transitions there.
     *
     * @param update the code, given the context, the step's seconds and the seconds spent in this state; one
     *               per state
     * @return this builder, for chaining
     */
    public StatesBuilder<C> update(StateUpdate<C> update) {
        if (this.update != null) {
            problems.add(where + " declares update twice; expected one");
        }
        this.update = Objects.requireNonNull(update, "update");
        return this;
    }

    /**
     * Runs when the state is entered: {@code (ctx, from)}.
     *
     * @param enter the code, given the context and the leaf the machine came from; one per state, and none on
     *              the root
     * @return this builder, for chaining
     */
    public StatesBuilder<C> enter(EnterHook<C> enter) {
        if (this.enter != null) {
            problems.add(where + " declares enter twice; expected one");
        }
        if (path.isEmpty()) {
            problems.add("the root has no enter (it is never entered or left); put it on a state");
        }
        this.enter = Objects.requireNonNull(enter, "enter");
        return this;
    }

    /**
     * Runs when the state is left: {@code (ctx, to)}.
     *
     * @param exit the code, given the context and the leaf the machine is going to; one per state, and none on
     *             the root
     * @return this builder, for chaining
     */
    public StatesBuilder<C> exit(ExitHook<C> exit) {
        if (this.exit != null) {
            problems.add(where + " declares exit twice; expected one");
        }
        if (path.isEmpty()) {
            problems.add("the root has no exit (it is never entered or left); put it on a state");
        }
        this.exit = Objects.requireNonNull(exit, "exit");
        return this;
    }

    /**
     * An event that moves the machine to {@code target} ({@code "$back"} allowed).
     *
     * @param event the event's name; once per state
     * @param target the state to go to, resolved from this state: a name in reach (a sibling, a child, an
     *               ancestor's sibling) or a path from the root ({@code "combat.strafe"}), or {@code "$back"};
     *               {@code null} is reported when the machine is built
     * @return this builder, for chaining
     */
    public StatesBuilder<C> on(String event, String target) {
        if (target == null) {
            problems.add(where + " has on '" + event + "' with a null target; " + TARGET_EXPECTED);
        }
        addOn(event, target == null ? BACK : target, null); // a placeholder, as in after: null here means a handler
        return this;
    }

    /**
     * An event handled by code; a returned name transitions there, {@code null} stays (the event is handled either way).
     *
     * @param event the event's name; once per state
     * @param handler given the context and {@code send}'s arguments (an {@link Event} sent is the one argument)
     * @return this builder, for chaining
     */
    public StatesBuilder<C> on(String event, StateEventHandler<C> handler) {
        addOn(event, null, Objects.requireNonNull(handler, "handler"));
        return this;
    }

    private void addOn(String event, String target, StateEventHandler<C> handler) {
        if (event == null || event.isEmpty()) {
            problems.add(where + " has an on with " + (event == null ? "a null" : "an empty") + " event name; expected a name");
        } else if (onEvents.contains(event)) {
            problems.add(where + " declares on '" + event + "' twice; expected each event once per state");
        }
        onEvents.add(event);
        onTargets.add(target);
        onHandlers.add(handler);
    }

    /**
     * What {@code send} does with an event no state names: {@link UnknownEvents#REJECT} (the
     * default) throws, listing the events the machine knows; {@link UnknownEvents#ACCEPT}
     * returns {@code false}, as for an event that no active state takes. Root only.
     *
     * @param policy {@code REJECT} or {@code ACCEPT}, as above; not {@code null}
     * @return this builder, for chaining
     */
    public StatesBuilder<C> unknownEvents(UnknownEvents policy) {
        rootOnly("unknownEvents");
        this.unknownEvents = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /**
     * Whether the ECS binding gives each state a tag component ({@code true} by default). Root only.
     *
     * @param tags {@code false} to give the states no tag components
     * @return this builder, for chaining
     */
    public StatesBuilder<C> tags(boolean tags) {
        rootOnly("tags");
        this.tags = tags;
        return this;
    }

    /**
     * Component types that hold this machine alone on an entity: its clocks stop, nothing is polled; events still move it. Root only.
     *
     * @param componentTypes the component classes, none {@code null}; several calls add to them
     * @return this builder, for chaining
     */
    public StatesBuilder<C> heldBy(Class<?>... componentTypes) {
        rootOnly("heldBy");
        for (Class<?> t : componentTypes) {
            heldBy.add(Objects.requireNonNull(t, "heldBy component type"));
        }
        return this;
    }

    private void rootOnly(String what) {
        if (!path.isEmpty()) {
            problems.add(where + " declares " + what + ", which belongs to the whole machine; declare it on the root");
        }
    }

    /**
     * The policy for unknown events.
     *
     * @return the policy declared, {@link UnknownEvents#REJECT} when none is
     */
    public UnknownEvents unknownEventPolicy() {
        return unknownEvents;
    }

    /**
     * Whether states get tag components.
     *
     * @return {@code true} unless {@code tags(false)} was declared
     */
    public boolean hasTags() {
        return tags;
    }

    /**
     * Declares the machine its owner's alone (as {@code ownerOnly: true} does in an XState-style config):
     * a {@code RoomStream} sends its records to the player the entity's {@code Owner} component
     * names and to nobody else (an entity without an owner sends them to nobody), and the dump
     * shows {@code "ownerOnly": true}. Root only.
     *
     * @return this builder, for chaining
     */
    public StatesBuilder<C> ownerOnly() {
        rootOnly("ownerOnly");
        this.ownerOnly = true;
        return this;
    }

    /**
     * Whether the machine is its owner's alone.
     *
     * @return {@code true} if {@code ownerOnly()} was declared
     */
    public boolean isOwnerOnly() {
        return ownerOnly;
    }

    /**
     * The component types that hold this machine.
     *
     * @return a copy, in the order declared; empty when none is
     */
    public List<Class<?>> heldByTypes() {
        return List.copyOf(heldBy);
    }

    /**
     * The immutable node declared so far (the compiler's input).
     *
     * @return this state's definition, with its children and the problems found while declaring; each call
     *         builds it anew
     */
    public PolledDefinition<C> build() {
        List<PolledDefinition<C>> kids = new ArrayList<>();
        for (StatesBuilder<C> c : children) {
            kids.add(c.build());
        }
        return new PolledDefinition<>(key, initial, kids, toTargets, toGuards, afterSeconds, afterTarget, update, enter, exit,
                onEvents, onTargets, onHandlers, problems);
    }

    /**
     * Declares the machine's version, which checkpoints, snapshots, streams and input logs record,
     * and how records of older versions become records of this one. A machine that declares none
     * is version 0. Migrations from a version to the next chain: a checkpoint of version 1 restored
     * by version 3 goes through the migrations from 1 and from 2.
     *
     * @param version this definition's version, 0 or more
     * @param migrations how each older version's records become the next's, each from a version below {@code version}
     * @return this builder, for chaining
     */
    public StatesBuilder<C> version(int version, dev.enginestates.declare.Migration... migrations) {
        rootOnly("version");
        this.version = version;
        this.migrations = java.util.List.of(migrations);
        return this;
    }

    /**
     * The version declared, 0 when none was.
     *
     * @return the version
     */
    public int declaredVersion() {
        return version;
    }

    /**
     * The migrations declared with the version.
     *
     * @return the migrations, unmodifiable
     */
    public java.util.List<dev.enginestates.declare.Migration> migrations() {
        return migrations;
    }

}

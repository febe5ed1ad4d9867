package dev.enginestates;

import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.declare.MachineException;
import dev.enginestates.chart.Chart;
import dev.enginestates.chart.ChartCompiler;
import dev.enginestates.chart.Names;
import dev.enginestates.records.Access;
import dev.enginestates.declare.MachineBuilder;
import dev.enginestates.declare.Migration;
import dev.enginestates.chart.Fingerprint;
import dev.enginestates.declare.StateDefinition;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A machine definition: declared once, compiled and validated at once, then shared by every
 * instance of it. Reads like XState's config:
 *
 * <pre>{@code
 * Machine<Siege> SIEGE = Machine.define("siege", Siege::new, m -> m
 *     .initial("waiting")
 *     .state("waiting", s -> s.on("START", "fight"))
 *     .state("fight", s -> s.on("WAVE_HELD", "breather").on("ALL_DOWN", "over"))
 *     .state("breather", s -> s.waitFor(12, "fight"))
 *     .state("over"));
 * }</pre>
 *
 * <p>Immutable and thread-safe: many rooms on many threads share one definition. Each
 * instance keeps its own record and context; the context factory makes a fresh context for
 * each.
 *
 * @param <C> the context type: the game's mutable data that guards read and actions write
 */
public final class Machine<C> implements dev.enginestates.declare.ChildMachine<C> {
    private final String id;
    private final Supplier<? extends C> contextFactory;
    private final StateDefinition<C> definition;
    private final Chart chart;
    private final boolean tags;
    private final List<Class<?>> heldBy;
    private final boolean ownerOnly;
    private final int version;
    private final List<Migration> migrations;
    private volatile String fingerprint;

    static {
        // the library's packages reach the chart through Access; game code never does
        Access.register(new Access.MachineSide() {
            @Override
            public Chart chart(Object machine) {
                if (!(machine instanceof Machine)) {
                    throw new IllegalArgumentException("expected a Machine; got a " + machine.getClass().getName());
                }
                return ((Machine<?>) machine).chart;
            }

            @Override
            public Object compiled(String id, Supplier<?> context, Chart chart, boolean tags, List<Class<?>> heldBy,
                    boolean ownerOnly, int version, List<Migration> migrations) {
                return Machine.compiled(id, context, chart, tags, heldBy, ownerOnly, version, migrations);
            }
        });
    }

    private Machine(String id, Supplier<? extends C> contextFactory, StateDefinition<C> definition, Chart chart,
            boolean tags, List<Class<?>> heldBy, boolean ownerOnly, int version, List<Migration> migrations) {
        checkVersions(id, chart, version, migrations);
        this.version = version;
        this.migrations = List.copyOf(migrations);
        this.id = id;
        this.contextFactory = contextFactory;
        this.definition = definition;
        this.chart = chart;
        this.tags = tags;
        this.heldBy = heldBy;
        this.ownerOnly = ownerOnly;
    }

    /**
     * Declares and compiles a machine.
     *
     * @param <C> the context type
     * @param id the machine's name, used by dumps, tags and error messages; not empty
     * @param context makes a fresh context for each instance; not {@code null}
     * @param body declares the root's states and transitions
     * @return the compiled machine, immutable: keep it in a {@code static final} field and share it
     * @throws InvalidMachineException listing every problem of the declaration at once
     */
    public static <C> Machine<C> define(String id, Supplier<? extends C> context, Consumer<MachineBuilder<C>> body) {
        MachineBuilder<C> builder = new MachineBuilder<>();
        Objects.requireNonNull(body, "body").accept(builder);
        return of(id, context, builder);
    }

    /**
     * Declares and compiles a typed machine: its states are named by the constants of
     * {@code states} and its events by those of {@code events}, the game's own enums.
     *
     * <pre>{@code
     * enum GuardState { PATROL, WATCH, REST, RESUMED, ANSWER }
     * enum GuardEvent { BELL, RESUME, RESTART }
     *
     * Machine<Guard> GUARD = Machine.define("guard", Guard::new, GuardState.class, GuardEvent.class, m -> m
     *     .initial(PATROL)
     *     .state(PATROL, p -> p
     *         .state(WATCH, s -> s.waitFor(4, REST))
     *         .state(REST, s -> s.waitFor(10, WATCH))
     *         .history(RESUMED, HistoryDepth.DEEP)
     *         .on(BELL, ANSWER))
     *     .state(ANSWER, s -> s.on(RESUME, RESUMED).on(RESTART, PATROL)));
     * }</pre>
     *
     * <p>A state's key is its constant's name as written ({@code "PATROL"}), and its path joins
     * the keys from the root ({@code "PATROL.WATCH"}); an event's type is its constant's name
     * ({@code "BELL"}). Nesting is given by the declaration. The compiler checks that each
     * constant of {@code states} declares exactly one state (history states included), that
     * each constant of {@code events} is taken by at least one state, and that the machine names
     * no state, target or event by a string. Every use then takes the constants too:
     * {@code is(WATCH)}, {@code send(entity, BELL)}, {@code setState(REST)}; a constant of
     * another enum is refused with a clear error.
     *
     * @param <C> the context type
     * @param <S> the game's enum of states
     * @param <E> the game's enum of events
     * @param id the machine's name, used by dumps, tags and error messages; not empty
     * @param context makes a fresh context for each instance; not {@code null}
     * @param states the enum whose constants name the states
     * @param events the enum whose constants name the events
     * @param body declares the root's states and transitions, by the constants
     * @return the compiled machine, immutable: keep it in a {@code static final} field and share it
     * @throws InvalidMachineException listing every problem of the declaration at once
     */
    public static <C, S extends Enum<S>, E extends Enum<E>> Machine<C> define(String id, Supplier<? extends C> context,
            Class<S> states, Class<E> events, Consumer<MachineBuilder<C>> body) {
        MachineBuilder<C> builder = new MachineBuilder<>(Objects.requireNonNull(states, "states"), Objects.requireNonNull(events, "events"));
        Objects.requireNonNull(body, "body").accept(builder);
        return of(id, context, builder);
    }

    /**
     * Declares and compiles a typed machine that takes no events (it moves by waits,
     * {@code when} rules and eventless transitions): its states are named by the constants of
     * {@code states}. See {@link #define(String, Supplier, Class, Class, Consumer)}.
     *
     * @param <C> the context type
     * @param <S> the game's enum of states
     * @param id the machine's name, used by dumps, tags and error messages; not empty
     * @param context makes a fresh context for each instance; not {@code null}
     * @param states the enum whose constants name the states
     * @param body declares the root's states and transitions, by the constants
     * @return the compiled machine, immutable: keep it in a {@code static final} field and share it
     * @throws InvalidMachineException listing every problem of the declaration at once
     */
    public static <C, S extends Enum<S>> Machine<C> define(String id, Supplier<? extends C> context, Class<S> states,
            Consumer<MachineBuilder<C>> body) {
        MachineBuilder<C> builder = new MachineBuilder<>(Objects.requireNonNull(states, "states"), null);
        Objects.requireNonNull(body, "body").accept(builder);
        return of(id, context, builder);
    }

    /**
     * Compiles a machine from a builder already filled in (the XState importer's way in).
     *
     * @param <C> the context type
     * @param id the machine's name, used by dumps, tags and error messages; not empty
     * @param context makes a fresh context for each instance; not {@code null}
     * @param builder the filled-in declaration; a typed builder brings its enums along
     * @return the compiled machine, immutable and shared
     * @throws InvalidMachineException listing every problem of the declaration at once
     */
    public static <C> Machine<C> of(String id, Supplier<? extends C> context, MachineBuilder<C> builder) {
        Objects.requireNonNull(context, "context factory");
        StateDefinition<C> definition = builder.definition();
        Chart chart = ChartCompiler.compile(id, definition, builder.unknownEventPolicy(), builder.stateNames(), builder.eventNames(),
                builder.semantics());
        return new Machine<>(id, context, definition, chart, builder.hasTags(), builder.heldByTypes(), builder.isOwnerOnly(),
                builder.declaredVersion(), builder.migrations());
    }

    /** A polled machine (the {@code StatesDef} style): the context comes with each instance. */
    static <C> Machine<C> polled(String id, Supplier<? extends C> context, dev.enginestates.declare.StatesBuilder<C> builder) {
        Chart chart = ChartCompiler.compilePolled(id, builder.build(), builder.unknownEventPolicy());
        Supplier<? extends C> factory = context != null ? context : () -> {
            throw new MachineException(id, "machine '" + id + "' was defined without a context factory; give each instance its"
                    + " context (new StateMachine<>(def, ctx), States.of(def).trait(ctx)), or define it with"
                    + " StatesDef.define(\"" + id + "\", Context::new, ...) so that trait() and checkpoint restores can make one");
        };
        return new Machine<>(id, factory, null, chart, builder.hasTags(), builder.heldByTypes(), builder.isOwnerOnly(),
                builder.declaredVersion(), builder.migrations());
    }

    /**
     * Wraps a chart compiled by a declaration style of its own (the builder style's
     * {@code StateMachineBuilder} comes in this way, through {@link Access#compiled}).
     *
     * @param context makes a fresh context for {@code trait()} and restores; {@code null} when
     *                every instance is given its own
     */
    private static <C> Machine<C> compiled(String id, Supplier<? extends C> context, Chart chart, boolean tags, List<Class<?>> heldBy,
            boolean ownerOnly, int version, List<Migration> migrations) {
        Objects.requireNonNull(chart, "chart");
        Supplier<? extends C> factory = context != null ? context : () -> {
            throw new MachineException(id, "machine '" + id + "' was built without a context factory; give each instance its"
                    + " context (trait(ctx), initialize(ctx)), or give the builder one so that trait() and checkpoint restores can"
                    + " make one");
        };
        return new Machine<>(id, factory, null, chart, tags, List.copyOf(heldBy), ownerOnly, version, migrations);
    }

    /**
     * The machine's id.
     *
     * @return the id it was declared with, such as {@code "siege"}
     */
    public String id() {
        return id;
    }

    /**
     * The definition tree as declared ({@code null} for a polled {@code StatesDef} machine).
     *
     * @return the root's definition, or {@code null} for a polled or builder-style machine
     */
    public StateDefinition<C> definition() {
        return definition;
    }

    /**
     * A fresh context from the machine's factory.
     *
     * @return a new context, made by the factory the machine was declared with
     * @throws MachineException if the machine was declared without a context factory (a
     *                          {@code StatesDef} or builder-style machine can be)
     */
    public C newContext() {
        return contextFactory.get();
    }

    /**
     * Whether the ECS binding gives each state a tag component (declared with {@code tags(false)} to turn off).
     *
     * @return {@code true} unless the declaration turned tags off
     */
    public boolean tags() {
        return tags;
    }

    /**
     * The component types that hold this machine alone (declared with {@code heldBy(...)}).
     *
     * @return the component classes, unmodifiable; empty when none was declared
     */
    public List<Class<?>> heldBy() {
        return heldBy;
    }

    /**
     * Whether the machine is its owner's alone (declared with {@code ownerOnly()}): a
     * {@code RoomStream} sends its records to the player named by the entity's {@code Owner}
     * component and to nobody else, and the dump shows {@code "ownerOnly": true}.
     *
     * @return {@code true} if the declaration said {@code ownerOnly()}
     */
    public boolean ownerOnly() {
        return ownerOnly;
    }

    /**
     * The event types its states name, in document order.
     *
     * @return the event types, such as {@code "START"}; for a typed machine, its constants' names
     */
    public List<String> events() {
        return chart.knownEvents();
    }

    /**
     * The dotted path of every state (history states included), in document order, without the root.
     *
     * @return a new list of paths, such as {@code "PATROL.WATCH"}
     */
    public List<String> statePaths() {
        List<String> out = new ArrayList<>();
        for (int s = 1; s < chart.size; s++) {
            out.add(chart.path[s]);
        }
        return out;
    }

    /**
     * The dotted path of the state a constant of the machine's state enum declares
     * ({@code path(WATCH)} is {@code "PATROL.WATCH"}).
     *
     * @param state a constant of the machine's state enum
     * @return the state's dotted path from the root
     * @throws NullPointerException if {@code state} is {@code null}
     * @throws MachineException if the machine's states are not named by that constant's enum
     */
    public String path(Enum<?> state) {
        int s = chart.enumNames().state(Objects.requireNonNull(state, "state"));
        if (s < 0) {
            throw new MachineException(id, chart.enumNames().stateProblem(id, state, "path"));
        }
        return chart.path[s];
    }

    /**
     * The enum whose constants name the states, or {@code null} when they are named by strings.
     *
     * @return the state enum's class, or {@code null}
     */
    public Class<?> stateEnum() {
        return chart.enumNames().stateEnum();
    }

    /**
     * The enum whose constants name the events, or {@code null} when they are named by strings (or a typed machine takes none).
     *
     * @return the event enum's class, or {@code null}
     */
    public Class<?> eventEnum() {
        return chart.enumNames().eventEnum();
    }

    /**
     * The version the definition declared ({@code version(n, ...)}), 0 when it declared none.
     * Checkpoints, snapshots, stream frames and input logs record it with the {@link #fingerprint}.
     *
     * @return the version, 0 or more
     */
    public int version() {
        return version;
    }

    /**
     * A stable digest of the definition's structure: its states and their kinds and initial
     * states, its transitions (source, trigger, targets, whether guarded), its waits and history
     * states, and each style's own table (polled targets and {@code after}s, builder durations).
     * Not its code: a changed action keeps the fingerprint, a renamed state or a changed wait does
     * not. The same on every JVM and every run.
     *
     * @return 16 hex digits
     */
    public String fingerprint() {
        String f = fingerprint;
        if (f == null) {
            f = Fingerprint.of(chart);
            fingerprint = f;
        }
        return f;
    }

    /**
     * The migrations declared with the version, which lead older versions' records to this one.
     *
     * @return the migrations, unmodifiable; empty when none was declared
     */
    public List<Migration> migrations() {
        return migrations;
    }

    /**
     * The migrations that take a record of version {@code from} to this machine's version, in order.
     *
     * @param from an older version, or this one (no migration)
     * @return the chain, empty when {@code from} is this version
     * @throws MachineException naming the missing step when the declared migrations do not reach from {@code from},
     *                          or when {@code from} is newer than this version
     */
    public List<Migration> migrationsFrom(int from) {
        if (from > version) {
            throw new MachineException(id, "machine '" + id + "' is version " + version + " (fingerprint " + fingerprint()
                    + "); a record of version " + from + " is newer than it: expected version " + version + " or older, migrated up");
        }
        List<Migration> chain = new ArrayList<>();
        for (int v = from; v < version; v++) {
            Migration step = null;
            for (Migration m : migrations) {
                if (m.fromVersion() == v) {
                    step = m;
                }
            }
            if (step == null) {
                throw new MachineException(id, "machine '" + id + "' is version " + version + " and declares no migration from version "
                        + v + " to " + (v + 1) + ", which a record of version " + from + " needs; expected version(" + version
                        + ", Migration.from(" + v + ")...) among its migrations");
            }
            chain.add(step);
        }
        return chain;
    }

    /** Refuses a version below 0, two migrations from one version, one from this version or later, and a last step naming a state this version lacks. */
    private static void checkVersions(String id, Chart chart, int version, List<Migration> migrations) {
        List<String> problems = new ArrayList<>();
        if (version < 0) {
            problems.add("version " + version + ": expected a version 0 or more");
        }
        java.util.Set<Integer> froms = new java.util.HashSet<>();
        for (Migration m : migrations) {
            Objects.requireNonNull(m, "migration");
            if (m.fromVersion() >= version) {
                problems.add("the migration from version " + m.fromVersion() + " leads to version " + (m.fromVersion() + 1)
                        + ", but the machine is version " + version + "; expected migrations from older versions");
            } else if (!froms.add(m.fromVersion())) {
                problems.add("two migrations from version " + m.fromVersion() + "; expected one");
            } else if (m.fromVersion() == version - 1) {
                for (String t : m.targets()) {
                    int s = chart.stateAt(t);
                    if (s <= 0) {
                        problems.add("the migration from version " + m.fromVersion() + " names '" + t + "', which is no state of version "
                                + version + Names.suggestion(t, chart.stateNames()));
                    }
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidMachineException(id, problems);
        }
    }

    @Override
    public String toString() {
        return "Machine(" + id + ", " + (chart.size - 1) + " states, events " + chart.knownEvents() + ")";
    }
}

package dev.enginestates.testing;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Machine;
import dev.enginestates.StatesDef;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.Event;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.StateMachineDefinition;
import dev.enginestates.records.Access;
import org.junit.jupiter.api.DynamicTest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Paths of events <em>and waits</em> to every state and every transition of a machine, of any
 * style, found by running it: a breadth-first search from its start over the inputs a game can
 * give (each event a state takes, each context change the game names with {@link #given}, and
 * waiting until the machine moves by itself), so each path is a shortest one in inputs. States
 * reached only by waiting (a patrol's rest after 4 s of watch, a polled {@code after}, a builder
 * handler that returns a name once its time in state is up) are reached like any other.
 *
 * <pre>{@code
 * @RegisterExtension static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);
 *
 * @TestFactory
 * Stream<DynamicTest> everyStateAndTransition() {
 *     return MachinePaths.of(GUARD).tests(world, (state, guard) -> {
 *         if (state.equals("answer")) assertTrue(guard.context().bells > 0);
 *     });
 * }
 * }</pre>
 *
 * <p><b>Guards.</b> A guard that reads an event's fields or the context passes only with the
 * inputs the game supplies: {@link #event(Event)} adds an event with fields to the ones tried,
 * {@link #given(String, Consumer)} a named change of the context, {@link #context(Supplier)} the
 * context machines start with. What no path reaches is in {@link #unreached()} with the reason
 * (its source never reached, its guard never passed, its wait longer than the {@link #horizon}),
 * never silently dropped.
 *
 * <p><b>What a state is.</b> Two runs are in the same state when the same leaves are active and
 * every history state remembers the same (and the previous leaf, where a move goes to {@code $back}); the context and
 * the seconds already waited are not compared, so a context that counts forever does not make the
 * search endless. A named change that leaves the machine where it is (the door unlocked, still
 * shut) is followed once from each state all the same, so the events whose guards wait for it
 * are tried after it. The search stops after {@link #maxStates} states and says so.
 *
 * <p><b>Styles.</b> An XState-style machine's transitions are all declared, and so are a polled
 * machine's {@code to}, {@code after} and {@code on}; a builder-style machine's transitions are
 * the names its handlers are declared to return ({@code transitionsTo}), and a move to any other
 * state is reported by coverage as undeclared.
 *
 * <p>Paths are found once, on first use, by running the machine headless on a world of its own
 * at the fixed step ({@link #step}, the fixture's when {@link #tests} is given one), and are
 * deterministic where the machine is: a machine that draws random numbers from an unseeded source
 * or reads the wall clock can leave its path, which the generated test reports.
 *
 * @param <C> the machine's context type
 */
public final class MachinePaths<C> {
    /** The longest wait tried when the machine declares no longer one: a minute of game time. */
    public static final double DEFAULT_HORIZON = 60;
    /** How many distinct states the search visits before it stops. */
    public static final int DEFAULT_MAX_STATES = 2_000;

    final States<C> machine;
    final Chart chart;
    final List<Event> events = new ArrayList<>();
    final Map<String, BiConsumer<Entity, ? super C>> givens = new LinkedHashMap<>();
    final List<Supplier<?>> components = new ArrayList<>();
    Supplier<? extends C> context;
    double horizon = Double.NaN;
    double step = Double.NaN;
    int maxStates = DEFAULT_MAX_STATES;
    private PathSearch<C> found;

    private MachinePaths(States<C> machine) {
        this.machine = Objects.requireNonNull(machine, "machine");
        this.chart = Access.chart(machine.machine());
    }

    /**
     * Paths for a machine as the ECS face holds it.
     *
     * @param <C> the machine's context type
     * @param machine the machine, such as {@code GUARD}
     * @return a generator; nothing runs until paths are asked for
     */
    public static <C> MachinePaths<C> of(States<C> machine) {
        return new MachinePaths<>(machine);
    }

    /**
     * Paths for a machine declared with {@code Machine.define}.
     *
     * @param <C> the machine's context type
     * @param machine the machine
     * @return a generator
     */
    public static <C> MachinePaths<C> of(Machine<C> machine) {
        return new MachinePaths<>(States.of(machine));
    }

    /**
     * Paths for a polled machine ({@code StatesDef}).
     *
     * @param <C> the machine's context type
     * @param definition the polled table
     * @return a generator
     */
    public static <C> MachinePaths<C> of(StatesDef<C> definition) {
        return new MachinePaths<>(States.of(definition));
    }

    /**
     * Paths for a builder-style machine: its transitions are those its handlers are declared to
     * return ({@code transitionsTo}, {@code @State(to = ...)}).
     *
     * @param <C> the machine's context type
     * @param definition the builder's definition
     * @return a generator
     */
    public static <C extends dev.enginestates.declare.StateContextCore> MachinePaths<C> of(StateMachineDefinition<C> definition) {
        return new MachinePaths<>(States.of(definition));
    }

    /**
     * Adds an event with fields to the events tried: what makes a guard that reads the event pass,
     * such as {@code Event.of("OPEN").with("key", 7)}. Every event the machine names is tried bare
     * unless the game gives events of its type: then those are tried instead (give the bare one too,
     * {@code Event.of("OPEN")}, to try it as well).
     *
     * @param event the event, tried in every state that takes its type
     * @return this generator
     */
    public MachinePaths<C> event(Event event) {
        change();
        events.add(Objects.requireNonNull(event, "event"));
        return this;
    }

    /**
     * Names a change of the context the game can make (an enemy comes in sight, a goal is scored),
     * tried in every state; one step follows it, so a rule tested each step sees it, and the inputs
     * tried next see it too, even when it moved nothing. A path writes it as {@code [name]}.
     *
     * @param name   what the change is, as a path's name should read it; unique
     * @param change the change, made on the machine's context
     * @return this generator
     * @throws IllegalArgumentException if the name is blank or already given
     */
    public MachinePaths<C> given(String name, Consumer<? super C> change) {
        Objects.requireNonNull(change, "change");
        return given(name, (entity, context) -> change.accept(context));
    }

    /**
     * Names a change the game can make to the machine's entity or its context, such as a
     * component a {@code when} rule reads ({@code (door, ctx) -> door.add(new Blocked())}); see
     * {@link #given(String, Consumer)}.
     *
     * @param name   what the change is, as a path's name should read it; unique
     * @param change the change, given the machine's entity and context
     * @return this generator
     * @throws IllegalArgumentException if the name is blank or already given
     */
    public MachinePaths<C> given(String name, BiConsumer<Entity, ? super C> change) {
        change();
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("machine '" + chart.machineId + "': given(name, change) needs a name that says what"
                    + " the change is, such as \"an enemy in sight\"");
        }
        if (givens.putIfAbsent(name, Objects.requireNonNull(change, "change")) != null) {
            throw new IllegalArgumentException("machine '" + chart.machineId + "': given(\"" + name + "\", ...) was already given;"
                    + " expected each change once, under its own name");
        }
        return this;
    }

    /**
     * A component each run's entity is spawned with, beside the machine: what the machine's code
     * reads from its entity ({@code self.get(TrackMover.class)}), made anew for each run.
     *
     * @param component makes the component
     * @return this generator
     */
    public MachinePaths<C> spawnedWith(Supplier<?> component) {
        change();
        components.add(Objects.requireNonNull(component, "component"));
        return this;
    }

    /** Spawns a run's entity: the machine over a new context, and the components given with {@link #spawnedWith}. */
    Entity spawn(WorldFixture world, StateRecord<C> record) {
        Object[] all = new Object[components.size() + 1];
        all[0] = record;
        for (int i = 0; i < components.size(); i++) {
            all[i + 1] = Objects.requireNonNull(components.get(i).get(), "a spawnedWith supplier made null");
        }
        return world.spawn(all);
    }

    /** A new record of the machine, over the context {@link #context} makes or the machine's own. */
    StateRecord<C> newRecord() {
        return context == null ? machine.trait() : machine.trait(context.get());
    }

    /**
     * The context each run starts with; the machine's own ({@code Machine.define}'s supplier) by default.
     *
     * @param context makes a new context for each run
     * @return this generator
     */
    public MachinePaths<C> context(Supplier<? extends C> context) {
        change();
        this.context = Objects.requireNonNull(context, "context");
        return this;
    }

    /**
     * The longest wait tried: a state whose next move by itself comes later is reported as waiting
     * beyond it. By default a minute, or twice the longest wait, {@code after} or duration the
     * machine declares when that is longer.
     *
     * @param seconds game seconds, above 0
     * @return this generator
     */
    public MachinePaths<C> horizon(double seconds) {
        change();
        if (!(seconds > 0) || Double.isInfinite(seconds)) {
            throw new IllegalArgumentException("machine '" + chart.machineId + "': horizon(" + seconds + "); expected finite seconds above 0");
        }
        this.horizon = seconds;
        return this;
    }

    /**
     * The fixed step the machine is run at while paths are found; the fixture's own when
     * {@link #tests} is given one, else 1/60 s.
     *
     * @param seconds the step, finite and above 0
     * @return this generator
     */
    public MachinePaths<C> step(double seconds) {
        change();
        if (!(seconds > 0) || Double.isInfinite(seconds)) {
            throw new IllegalArgumentException("machine '" + chart.machineId + "': step(" + seconds + "); expected finite seconds above 0");
        }
        this.step = seconds;
        return this;
    }

    /**
     * How many distinct states the search visits before it stops (what it has not reached then is
     * reported as such).
     *
     * @param states 1 or more; {@value #DEFAULT_MAX_STATES} by default
     * @return this generator
     */
    public MachinePaths<C> maxStates(int states) {
        change();
        if (states < 1) {
            throw new IllegalArgumentException("machine '" + chart.machineId + "': maxStates(" + states + "); expected 1 or more");
        }
        this.maxStates = states;
        return this;
    }

    private synchronized void change() {
        if (found != null) {
            throw new IllegalStateException("machine '" + chart.machineId + "': the paths were already found; configure the"
                    + " generator before asking for paths");
        }
    }

    private synchronized PathSearch<C> search(double defaultStep) {
        if (found == null) {
            if (Double.isNaN(step)) {
                step = defaultStep;
            }
            found = new PathSearch<>(this).run();
        }
        return found;
    }

    private PathSearch<C> search() {
        return search(WorldFixture.DEFAULT_STEP);
    }

    /**
     * A shortest path to each state, by the state's dotted path, in document order; a state no path
     * reaches is in {@link #unreached()}.
     *
     * @return the paths, one per state reached
     */
    public Map<String, MachinePath> toStates() {
        return search().toStates();
    }

    /**
     * A shortest path taking each transition, by the transition as a report names it
     * ({@code "patrol –BELL→ answer"}); one no path takes is in {@link #unreached()}.
     *
     * @return the paths, one per transition taken
     */
    public Map<String, MachinePath> toTransitions() {
        return search().toTransitions();
    }

    /**
     * The fewest paths that together reach every state and take every transition the search
     * could: the paths above, less each that another one starts with.
     *
     * @return the paths, longest first
     */
    public List<MachinePath> covering() {
        return search().covering();
    }

    /**
     * The states and transitions no path reaches, each with why.
     *
     * @return empty when every one is reached
     */
    public List<Unreached> unreached() {
        return search().unreached();
    }

    /**
     * {@link #covering()} as JUnit 5 dynamic tests run on the fixture's virtual clock; see
     * {@link #tests(WorldFixture, StateInvariant)}.
     *
     * @param world the fixture registered with {@code @RegisterExtension}
     * @return one test per path, named like the path
     */
    public Stream<DynamicTest> tests(WorldFixture world) {
        return tests(world, (state, machine) -> { });
    }

    /**
     * {@link #covering()} as JUnit 5 dynamic tests, for a {@code @TestFactory}: each opens a fresh
     * world on the fixture, spawns the machine, gives it the path's inputs on the fixture's virtual
     * clock, checks after each that it is where the path says, and runs the game's invariant for
     * every active state. A test's name is its path: {@code "patrol.watch –(4 s)→ patrol.rest –BELL→ answer"}.
     *
     * @param world     the fixture registered with {@code @RegisterExtension}; its step runs the paths
     * @param invariant the game's check of each active state
     * @return one test per path
     */
    public Stream<DynamicTest> tests(WorldFixture world, StateInvariant<C> invariant) {
        Objects.requireNonNull(world, "world");
        Objects.requireNonNull(invariant, "invariant");
        PathSearch<C> s = search(world.stepSeconds());
        if (Math.abs(world.stepSeconds() - step) > 1e-12) {
            throw new IllegalArgumentException("machine '" + chart.machineId + "': the paths were found at a step of " + step
                    + " s and the fixture steps " + world.stepSeconds() + " s; give both the same step");
        }
        return s.covering().stream().map(p -> DynamicTest.dynamicTest(p.name(), () -> walk(world, p, invariant)));
    }

    /** Runs one path on a fresh world of the fixture, checking where the machine is and the invariant after each input. */
    void walk(WorldFixture world, MachinePath path, StateInvariant<C> invariant) throws Exception {
        world.open();
        Entity e = spawn(world, newRecord());
        check(world, e, path, -1, path.start(), invariant);
        for (int i = 0; i < path.steps().size(); i++) {
            PathStep step = path.steps().get(i);
            apply(world, e, step);
            check(world, e, path, i, step.leaves(), invariant);
        }
    }

    /** Gives the machine one input of a path. */
    void apply(WorldFixture world, Entity e, PathStep step) {
        switch (step.kind()) {
            case EVENT -> machine.send(e, step.event());
            case GIVEN -> {
                givens.get(step.given()).accept(e, machine.read(e).context());
                world.advanceSteps(1);
            }
            case WAIT -> world.advanceSteps(step.steps());
        }
    }

    private void check(WorldFixture world, Entity e, MachinePath path, int at, List<String> expected, StateInvariant<C> invariant)
            throws Exception {
        StateRecord<C> r = machine.read(e);
        String where = at < 0 ? "at its start" : "after input " + (at + 1) + " of " + path.steps().size() + ", "
                + path.steps().get(at).label();
        List<String> now = PathSearch.leaves(r);
        if (!now.equals(expected)) {
            throw new AssertionError("machine '" + chart.machineId + "' left its path " + where + ": expected "
                    + PathStep.where(expected) + ", but it is in " + PathStep.where(now) + ". The path was found by running the machine;"
                    + " a machine that draws unseeded random numbers or reads the wall clock can leave it.\npath: " + path.name()
                    + "\n" + world.dump(e));
        }
        for (String state : PathSearch.activeStates(chart, r)) {
            try {
                invariant.check(state, r);
            } catch (AssertionError | Exception x) {
                AssertionError a = new AssertionError("machine '" + chart.machineId + "' in '" + state + "' " + where
                        + ": the invariant failed: " + x.getMessage() + "\npath: " + path.name() + "\n" + world.dump(e), x);
                throw a;
            }
        }
    }

    @Override
    public String toString() {
        return "paths of machine '" + chart.machineId + "'";
    }
}

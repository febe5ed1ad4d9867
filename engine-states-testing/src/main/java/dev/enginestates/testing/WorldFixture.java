package dev.enginestates.testing;

import dev.enginestates.records.Access;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.Event;
import dev.enginestates.algorithm.Scratch;
import dev.enginestates.algorithm.StyleRuntime;
import dev.enginestates.chart.Chart;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.records.MachineRecord;
import dev.enginestates.io.Saves;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A headless world for a game's own tests: a fresh {@link StateWorld} for each test, stepped
 * at a fixed step, with the calls a test makes on it (spawn, send, advance time, start a
 * machine in any state, run a scripted sequence). A JUnit 5 extension:
 *
 * <pre>{@code
 * @RegisterExtension
 * static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);
 *
 * @Test
 * void resumesTheWatchWithOneSecondLeft() {
 *     Entity guard = world.spawn(EntityKey.of("guard-1"));
 *     world.startIn(guard, GUARD, "patrol.watch").waited(3);
 *     world.send(GUARD, guard, "BELL");
 *     world.advance(2.0);
 *     world.send(GUARD, guard, "RESUME");
 *     assertThat(world, guard).machine(GUARD).isIn("patrol.watch").hasSecondsLeft(1.0);
 * }
 * }</pre>
 *
 * <p>or {@code @ExtendWith(WorldFixture.class)} (60 Hz) with a {@code WorldFixture} or
 * {@code StateWorld} parameter on the test method. Before each test the fixture opens a new
 * world at time 0; after it, the world is closed. Outside JUnit, {@link #open()} and
 * {@link #close()} do the same by hand.
 *
 * <p><b>Time moves in whole steps.</b> {@link #advance(double)} takes the seconds as a
 * machine declares them ({@code advance(12)} for the siege's 12-second breather) and steps the world
 * that many fixed steps. Seconds that are not a whole number of steps (within a billionth of
 * a step) are refused with an {@link IllegalArgumentException} rather than rounded: at 60 Hz
 * {@code advance(0.01)} is 0.6 of a step, and a test that silently took 0 or 1 step would
 * pass or fail for the wrong reason. Use {@link #advanceSteps(int)} to count steps instead.
 *
 * <p>One fixture holds one world at a time, so the tests that share a fixture (a
 * {@code static} field) run one after another, as JUnit runs them by default; give each test
 * class its own fixture field for concurrent classes. The world belongs to the test's thread.
 */
public final class WorldFixture implements BeforeEachCallback, AfterEachCallback, ParameterResolver, AutoCloseable {
    /** The default fixed step: 1/60 s. */
    public static final double DEFAULT_STEP = 1.0 / 60;

    private final double dt;
    private StateWorld world;

    /** A fixture stepping at 60 Hz (what {@code @ExtendWith(WorldFixture.class)} makes). */
    public WorldFixture() {
        this(DEFAULT_STEP);
    }

    private WorldFixture(double dt) {
        if (!(dt > 0) || Double.isInfinite(dt)) {
            throw new IllegalArgumentException("a fixed step must be a finite number of seconds above 0; got " + dt);
        }
        if (dt > StateWorld.MAX_STEP_SECONDS) {
            // refused here, not at the first advance of some later test
            throw new IllegalArgumentException("a fixed step of " + dt + " s is longer than the world's longest step, "
                    + StateWorld.MAX_STEP_SECONDS + " s (StateWorld.MAX_STEP_SECONDS); expected at most that");
        }
        this.dt = dt;
    }

    /**
     * A fixture stepping at this many seconds a step, such as {@code 1.0 / 60} or {@code 1.0 / 30}.
     *
     * @param seconds the length of one fixed step, in seconds
     * @return a new fixture, with no world open until {@link #open()} or the first test
     * @throws IllegalArgumentException if the step is not a finite number above 0, or is longer than {@link StateWorld#MAX_STEP_SECONDS}
     */
    public static WorldFixture fixedStep(double seconds) {
        return new WorldFixture(seconds);
    }

    // ------------------------------------------------------------------ lifecycle

    /**
     * Opens a fresh world at time 0 (closing the one it had); JUnit calls this before each test.
     *
     * @return this fixture
     */
    public WorldFixture open() {
        close();
        world = StateWorld.create("test-world");
        return this;
    }

    /** Closes the world, if one is open; JUnit calls this after each test. */
    @Override
    public void close() {
        if (world != null) {
            StateWorld w = world;
            world = null;
            w.close();
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        open();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        close();
    }

    /**
     * Resolves test method parameters of type {@code WorldFixture} and {@code StateWorld}.
     *
     * @param parameter the test method's parameter JUnit asks about
     * @param extension JUnit's context for the test (not read)
     * @return whether the parameter's type is {@code WorldFixture} or {@code StateWorld}
     */
    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext extension) {
        Class<?> type = parameter.getParameter().getType();
        return type == WorldFixture.class || type == StateWorld.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext extension) {
        if (world == null) {
            open();
        }
        return parameter.getParameter().getType() == StateWorld.class ? world : this;
    }

    // ------------------------------------------------------------------ the world

    /**
     * The current test's world.
     *
     * @return the open world
     * @throws IllegalStateException outside a test (no world is open)
     */
    public StateWorld world() {
        if (world == null) {
            throw new IllegalStateException("no world is open: the fixture opens one before each test (register it with"
                    + " @RegisterExtension or @ExtendWith), or call open() by hand");
        }
        return world;
    }

    /**
     * Starts the test from a checkpoint ({@link Saves#checkpoint}, or one the devtools page
     * downloads for a kept tick): spawns each keyed entity the world lacks, writes every record
     * and sets the clock, as {@link Saves#restoreSpawningMissing} does, all or nothing. The
     * game's own components are not in a checkpoint; the test adds those it needs, finding each
     * entity by its key ({@code world().entity("guard-1")}).
     *
     * @param saves      the machines the checkpoint holds, as the game declares them ({@code Saves.of(GUARD, SIEGE)})
     * @param checkpoint the checkpoint's JSON text
     * @return this fixture
     * @throws dev.enginestates.io.CheckpointException if the checkpoint does not fit the machines (nothing changes)
     * @throws IllegalStateException if no world is open
     */
    public WorldFixture restore(Saves saves, String checkpoint) {
        Objects.requireNonNull(saves, "saves");
        Objects.requireNonNull(checkpoint, "checkpoint");
        saves.restoreSpawningMissing(world(), checkpoint);
        return this;
    }

    /**
     * Starts the test from a checkpoint file, such as {@code checkpoint-tick-240.json} saved from
     * the devtools page; see {@link #restore(Saves, String)}.
     *
     * @param saves the machines the checkpoint holds
     * @param file  the checkpoint file, UTF-8 JSON
     * @return this fixture
     * @throws UncheckedIOException if the file cannot be read (nothing changes)
     */
    public WorldFixture restore(Saves saves, Path file) {
        Objects.requireNonNull(file, "file");
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("the checkpoint " + file + " could not be read for the test world (" + e.getMessage()
                    + "); expected a checkpoint file, such as one saved from the devtools page", e);
        }
        return restore(saves, text);
    }

    /**
     * Seconds per step.
     *
     * @return the fixed step, in seconds, such as {@code 1.0 / 60}
     */
    public double stepSeconds() {
        return dt;
    }

    /**
     * Seconds of game time so far.
     *
     * @return the world's time in seconds, 0 when it opens
     * @throws IllegalStateException if no world is open
     */
    public double time() {
        return world().time();
    }

    /**
     * Steps so far.
     *
     * @return how many fixed steps the world has taken since it opened
     * @throws IllegalStateException if no world is open
     */
    public long steps() {
        return world().steps();
    }

    /**
     * Spawns an entity with these components (machine records among them); see {@link StateWorld#spawn}.
     *
     * @param components the entity's components, such as {@code GUARD.trait()} or an {@code EntityKey}
     * @return the new entity
     */
    public Entity spawn(Object... components) {
        return world().spawn(components);
    }

    /**
     * Adds a world-level machine (a game's phases) in its initial state, on the world's own entity.
     *
     * @param <C> the machine's context type
     * @param machine the machine to add
     * @return the machine's new record
     * @throws dev.enginestates.declare.MachineException if the world already holds that machine
     */
    public <C> StateRecord<C> add(States<C> machine) {
        return world().add(machine);
    }

    /**
     * A machine's record on an entity.
     *
     * @param <C> the machine's context type
     * @param machine the machine to read
     * @param entity the entity holding it
     * @return the entity's record of that machine: state, seconds left, context
     * @throws dev.enginestates.declare.MachineException if the entity holds no record of the machine
     */
    public <C> StateRecord<C> read(States<C> machine, Entity entity) {
        return machine.read(entity);
    }

    /**
     * The world-level machine's record.
     *
     * @param <C> the machine's context type
     * @param machine the world-level machine to read
     * @return the record on the world's own entity
     * @throws dev.enginestates.declare.MachineException if the world holds no record of the machine
     */
    public <C> StateRecord<C> read(States<C> machine) {
        return machine.read(world());
    }

    /**
     * Sends an event to a machine on an entity; returns whether a state took it.
     *
     * @param <C> the machine's context type
     * @param machine the machine to send to
     * @param entity the entity holding it
     * @param event the event's name, such as {@code "BELL"}
     * @return whether a state took the event (an action-only transition counts)
     */
    public <C> boolean send(States<C> machine, Entity entity, String event) {
        return machine.send(entity, event);
    }

    /**
     * Sends an event with fields to a machine on an entity; returns whether a state took it.
     *
     * @param <C> the machine's context type
     * @param machine the machine to send to
     * @param entity the entity holding it
     * @param event the event, with the fields its guards read
     * @return whether a state took the event (an action-only transition counts)
     */
    public <C> boolean send(States<C> machine, Entity entity, Event event) {
        return machine.send(entity, event);
    }

    /**
     * Sends the event named by a constant of the machine's event enum to a machine on an entity; returns whether a state took it.
     *
     * @param <C> the machine's context type
     * @param machine the machine to send to
     * @param entity the entity holding it
     * @param event a constant of the machine's event enum
     * @return whether a state took the event (an action-only transition counts)
     */
    public <C> boolean send(States<C> machine, Entity entity, Enum<?> event) {
        return machine.send(entity, event);
    }

    /**
     * Sends the event named by a constant to the world-level machine; returns whether a state took it.
     *
     * @param <C> the machine's context type
     * @param machine the world-level machine
     * @param event a constant of the machine's event enum
     * @return whether a state took the event (an action-only transition counts)
     */
    public <C> boolean send(States<C> machine, Enum<?> event) {
        return machine.send(world(), event);
    }

    /**
     * Sends a polled machine's event with arguments, which its handler receives; returns whether a state handled it.
     *
     * @param <C> the machine's context type
     * @param machine the polled machine to send to
     * @param entity the entity holding it
     * @param event the event's name
     * @param args the arguments the handler receives, in order
     * @return whether a state handled the event
     * @throws dev.enginestates.declare.MachineException if arguments are given to an XState-style machine (send an
     *                                           {@link Event} instead)
     */
    public <C> boolean send(States<C> machine, Entity entity, String event, Object... args) {
        return machine.send(entity, event, args);
    }

    /**
     * Forces a polled machine on an entity into a state (the polled style's {@code go}).
     *
     * @param <C> the machine's context type
     * @param machine the polled machine
     * @param entity the entity holding it
     * @param state the state's name, resolved from the active leaf as {@code go} resolves it
     * @return this fixture
     * @throws dev.enginestates.declare.MachineException if the machine is XState-style or the name names no state;
     *                                           nothing changes
     */
    public <C> WorldFixture go(States<C> machine, Entity entity, String state) {
        machine.go(entity, state);
        return this;
    }

    /**
     * Forces a builder-style machine on an entity into a state (the builder style's
     * {@code transitionTo}): exit, enter, time 0; to the current state it re-enters.
     *
     * @param <C> the machine's context type
     * @param machine the builder-style machine
     * @param entity the entity holding it
     * @param state the name of the state to go to
     * @return this fixture
     * @throws dev.enginestates.declare.MachineException if the machine is not builder-style or the name names no
     *                                           state; nothing changes
     */
    public <C> WorldFixture transitionTo(States<C> machine, Entity entity, String state) {
        machine.transitionTo(entity, state);
        return this;
    }

    /**
     * Sends an event to the world-level machine; returns whether a state took it.
     *
     * @param <C> the machine's context type
     * @param machine the world-level machine
     * @param event the event's name
     * @return whether a state took the event (an action-only transition counts)
     */
    public <C> boolean send(States<C> machine, String event) {
        return machine.send(world(), event);
    }

    /**
     * Sends an event with fields to the world-level machine; returns whether a state took it.
     *
     * @param <C> the machine's context type
     * @param machine the world-level machine
     * @param event the event, with the fields its guards read
     * @return whether a state took the event (an action-only transition counts)
     */
    public <C> boolean send(States<C> machine, Event event) {
        return machine.send(world(), event);
    }

    // ------------------------------------------------------------------ time

    /**
     * Steps the world by {@code seconds} of game time, at the fixed step.
     *
     * @param seconds the game time to move, in seconds; a whole number of steps, 0 or more
     * @return this fixture
     * @throws IllegalArgumentException if the seconds are negative, not finite, or not a whole number of steps
     */
    public WorldFixture advance(double seconds) {
        return advanceSteps(stepsIn(seconds));
    }

    /**
     * Steps the world this many fixed steps.
     *
     * @param steps how many fixed steps to take, 0 or more
     * @return this fixture
     * @throws IllegalArgumentException if {@code steps} is negative
     */
    public WorldFixture advanceSteps(int steps) {
        if (steps < 0) {
            throw new IllegalArgumentException("cannot advance a negative number of steps: " + steps);
        }
        StateWorld w = world();
        for (int i = 0; i < steps; i++) {
            w.step(dt);
        }
        return this;
    }

    /**
     * How many fixed steps make these seconds.
     *
     * @param seconds a game time, in seconds
     * @return the whole number of fixed steps in {@code seconds}
     * @throws IllegalArgumentException if the seconds are negative, not finite, or not a whole number of steps
     */
    public int stepsIn(double seconds) {
        if (!(seconds >= 0) || Double.isInfinite(seconds)) {
            throw new IllegalArgumentException("advance needs a finite number of seconds, 0 or more; got " + seconds);
        }
        double exact = seconds / dt;
        long whole = Math.round(exact);
        if (Math.abs(exact - whole) > 1e-9 * Math.max(1, whole)) {
            throw new IllegalArgumentException(String.format(
                    "advance(%s) is %.4f steps of %s s; the fixture moves whole steps only: advance by a multiple of the step"
                            + " (%s or %s s here) or count steps with advanceSteps(n)",
                    seconds, exact, dt, Math.floor(exact) * dt, Math.ceil(exact) * dt));
        }
        if (whole > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("advance(" + seconds + ") is " + whole + " steps, more than a test should take");
        }
        return (int) whole;
    }

    /**
     * One fixed step split as the builder style's tick: {@link StateWorld#advance} (every
     * builder-style machine's time in state moves; other machines step in full), then the tick's
     * {@code work} (which reads the advanced clocks), then {@link StateWorld#runStates} (the
     * builder-style machines' handlers run).
     *
     * @param work the tick's own work, run between the two halves; {@code () -> { }} for none
     * @return this fixture
     */
    public WorldFixture splitStep(Runnable work) {
        return splitSteps(1, work);
    }

    /**
     * {@link #splitStep} this many times.
     *
     * @param steps how many split steps to take, 0 or more
     * @param work the tick's own work, run in every step between the two halves; {@code () -> { }} for none
     * @return this fixture
     * @throws IllegalArgumentException if {@code steps} is negative
     */
    public WorldFixture splitSteps(int steps, Runnable work) {
        Objects.requireNonNull(work, "work (use () -> { } for none)");
        if (steps < 0) {
            throw new IllegalArgumentException("cannot advance a negative number of steps: " + steps);
        }
        StateWorld w = world();
        for (int i = 0; i < steps; i++) {
            w.advance(dt);
            work.run();
            w.runStates();
        }
        return this;
    }

    // ------------------------------------------------------------------ arranging

    /**
     * Puts a machine on an entity in the given states, without walking there by events: the
     * entity's record of that machine is set (or a new one is attached when the entity holds
     * none). Several paths name the regions of a parallel state. No actions run, the wait
     * starts from zero, and the entity's tags move at once, so a query and {@code hasTag} see
     * the state before any step. Chain {@link Start#waited}, {@link Start#remembering},
     * {@link Start#paused} to arrange the rest.
     *
     * @param <C> the machine's context type
     * @param entity an entity of the current world
     * @param machine the machine to put in the states
     * @param paths the dotted paths of the states, such as {@code "patrol.watch"}; one per region of a parallel state
     * @return the arranged start, to set the wait, history and pauses
     * @throws dev.enginestates.declare.MachineException if a path names no state or the states cannot be active together; nothing changes
     */
    public <C> Start<C> startIn(Entity entity, States<C> machine, String... paths) {
        Objects.requireNonNull(entity, "entity");
        Objects.requireNonNull(machine, "machine");
        StateWorld w = world();
        StateRecord<C> r = entity.get(machine.recordType());
        if (r != null && r.world() == w) {
            r.setState(paths);
            w.restored(r);
        } else {
            r = recordIn(machine, null, false, paths);
            w.attach(entity, r);
        }
        return new Start<>(w, r);
    }

    /**
     * Puts the world-level machine in the given states (adding it when the world has none); see {@link #startIn(Entity, States, String...)}.
     *
     * @param <C> the machine's context type
     * @param machine the world-level machine
     * @param paths the dotted paths of the states
     * @return the arranged start
     */
    public <C> Start<C> startIn(States<C> machine, String... paths) {
        return startIn(world().entity(), machine, paths);
    }

    /**
     * Spawns an entity holding only this machine, in the given states; {@link Start#entity()} is
     * the new entity. The context is a fresh one from the machine's context factory.
     *
     * <p>No code of the machine runs, whatever its style: not even its initial state's entry
     * actions, a polled table's {@code enter} or a builder-style machine's hooks. A builder-style
     * machine's context is written as the machine would have written it (the state's metadata,
     * time 0); set its time with {@link Start#timeInState}.
     *
     * @param <C> the machine's context type
     * @param machine the machine the new entity holds
     * @param paths the dotted paths of the states, such as {@code "patrol.watch"}
     * @return the arranged start; {@link Start#entity()} is the new entity
     */
    public <C> Start<C> spawnIn(States<C> machine, String... paths) {
        StateRecord<C> r = recordIn(machine, null, false, paths);
        world().spawn(r);
        return new Start<>(world, r);
    }

    /**
     * Spawns an entity holding only this machine over the given context, in the given states;
     * see {@link #spawnIn(States, String...)}.
     *
     * @param <C> the machine's context type
     * @param machine the machine the new entity holds
     * @param context the machine's context, not {@code null}
     * @param paths the dotted paths of the states
     * @return the arranged start; {@link Start#entity()} is the new entity
     */
    public <C> Start<C> spawnIn(States<C> machine, C context, String... paths) {
        StateRecord<C> r = recordIn(machine, Objects.requireNonNull(context, "context"), true, paths);
        world().spawn(r);
        return new Start<>(world, r);
    }

    /**
     * Puts a machine on an entity in the states declared with these constants of its state
     * enum ({@code startIn(guard, GUARD, WATCH)}); see {@link #startIn(Entity, States, String...)}.
     *
     * @param <C> the machine's context type
     * @param entity an entity of the current world
     * @param machine the machine to put in the states
     * @param state a constant of the machine's state enum
     * @param more constants of other regions' states, for a parallel state
     * @return the arranged start
     * @throws dev.enginestates.declare.MachineException if a constant is not of the machine's state enum, or the states cannot be
     *                                           active together; nothing changes
     */
    public <C> Start<C> startIn(Entity entity, States<C> machine, Enum<?> state, Enum<?>... more) {
        return startIn(entity, machine, paths(machine, state, more));
    }

    /**
     * Puts the world-level machine in the states declared with these constants; see {@link #startIn(Entity, States, Enum, Enum...)}.
     *
     * @param <C> the machine's context type
     * @param machine the world-level machine
     * @param state a constant of the machine's state enum
     * @param more constants of other regions' states, for a parallel state
     * @return the arranged start
     */
    public <C> Start<C> startIn(States<C> machine, Enum<?> state, Enum<?>... more) {
        return startIn(world().entity(), machine, paths(machine, state, more));
    }

    /**
     * Spawns an entity holding only this machine, in the states declared with these constants
     * of its state enum ({@code spawnIn(GUARD, WATCH)}); see {@link #spawnIn(States, String...)}.
     *
     * @param <C> the machine's context type
     * @param machine the machine the new entity holds
     * @param state a constant of the machine's state enum
     * @param more constants of other regions' states, for a parallel state
     * @return the arranged start; {@link Start#entity()} is the new entity
     * @throws dev.enginestates.declare.MachineException if a constant is not of the machine's state enum; nothing is spawned
     */
    public <C> Start<C> spawnIn(States<C> machine, Enum<?> state, Enum<?>... more) {
        return spawnIn(machine, paths(machine, state, more));
    }

    /**
     * Spawns an entity holding only this machine over the given context, in the states declared with these constants.
     *
     * @param <C> the machine's context type
     * @param machine the machine the new entity holds
     * @param context the machine's context, not {@code null}
     * @param state a constant of the machine's state enum
     * @param more constants of other regions' states, for a parallel state
     * @return the arranged start; {@link Start#entity()} is the new entity
     */
    public <C> Start<C> spawnIn(States<C> machine, C context, Enum<?> state, Enum<?>... more) {
        return spawnIn(machine, context, paths(machine, state, more));
    }

    private static String[] paths(States<?> machine, Enum<?> first, Enum<?>[] more) {
        Objects.requireNonNull(machine, "machine");
        String[] out = new String[1 + more.length];
        out[0] = machine.path(first);
        for (int i = 0; i < more.length; i++) {
            out[i + 1] = machine.path(more[i]);
        }
        return out;
    }

    /** A new record of the machine in the given states; a builder-style machine's is made as a restore makes it, running no code. */
    private static <C> StateRecord<C> recordIn(States<C> machine, C context, boolean given, String[] paths) {
        Objects.requireNonNull(machine, "machine");
        C ctx = given ? context : null;
        Chart c = Access.chart(machine.machine());
        MachineRecord initial = new MachineRecord(c, given ? ctx : machine.machine().newContext());
        StyleRuntime.of(c).placeInitial(new Scratch(), initial); // no code of the machine runs, whatever its style
        @SuppressWarnings("unchecked")
        StateRecord<C> r = (StateRecord<C>) Access.trait(machine, initial);
        r.setState(paths); // no code runs either; an unknown name is refused with the machine's states
        return r;
    }

    // ------------------------------------------------------------------ scripts and reading

    /**
     * A new scripted sequence of sends, time and checks, run with {@link Script#run()}.
     *
     * @return an empty script on this fixture
     */
    public Script script() {
        return new Script(this);
    }

    /**
     * The entity's machines as JSON (state, wait, paused, history, context, tags): what a failing assertion prints.
     *
     * @param entity an entity of the current world
     * @return the JSON text
     */
    public String dump(Entity entity) {
        return EntityDump.of(world(), entity);
    }

    @Override
    public String toString() {
        return "WorldFixture(step " + dt + " s, " + (world == null ? "no world open" : world) + ")";
    }
}

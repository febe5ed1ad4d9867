package dev.enginestates.testing;

import dev.enginestates.records.Access;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.MachineException;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.StateType;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.records.MachineRecord;
import org.opentest4j.AssertionFailedError;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Assertions on one machine's record on one entity, chained:
 * {@code assertThat(world, guard).machine(GUARD).isIn("patrol.watch").hasSecondsLeft(1.0)}.
 * Each reads the record when it is called. A failure's message says what was expected and
 * what the machine is doing, then prints the entity's machines as JSON (state, seconds waited
 * and left, paused seconds, history, context, tags).
 *
 * <p>Seconds are compared within {@link #DEFAULT_TOLERANCE} unless a tolerance is given.
 *
 * @param <C> the machine's context type
 */
public final class MachineAssert<C> {
    /** Seconds within a microsecond are equal (the dump's rounding); fixed steps sum to round numbers only nearly. */
    public static final double DEFAULT_TOLERANCE = 1e-6;

    private final StateWorld world;
    private final Entity entity;
    private final States<C> machine;
    private final StateRecord<C> record;

    MachineAssert(StateWorld world, Entity entity, States<C> machine, StateRecord<C> record) {
        this.world = world;
        this.entity = entity;
        this.machine = machine;
        this.record = record;
    }

    // ------------------------------------------------------------------ state

    /**
     * Asserts the machine is in every one of these states (each a dotted path; a compound
     * state is "in" while any child is, a parallel state's regions are named one path each).
     *
     * @param paths the states' dotted paths, such as {@code "patrol.watch"}; at least one
     * @return this assertion, for chaining
     * @throws IllegalArgumentException if no path is given
     * @throws MachineException if a path names no state of the machine
     */
    public MachineAssert<C> isIn(String... paths) {
        checkPaths(paths);
        List<String> missing = new ArrayList<>();
        for (String p : paths) {
            if (!rec().matches(p)) {
                missing.add(p);
            }
        }
        if (!missing.isEmpty()) {
            throw fail("expected to be in " + quoted(Arrays.asList(paths)) + ", but it is not in " + quoted(missing)
                    + "; it is in " + now(), String.join(", ", paths), EntityDump.value(rec().value()));
        }
        return this;
    }

    /**
     * Asserts the active leaf is exactly this path.
     *
     * @param leafPath the expected leaf's path, such as {@code "combat.engage"}; a parallel state's leaves joined by {@code ", "}
     * @return this assertion, for chaining
     */
    public MachineAssert<C> hasState(String leafPath) {
        String state = rec().state();
        if (!state.equals(leafPath)) {
            throw fail("expected its state to be '" + leafPath + "', but it is '" + state + "'"
                    + (BuilderView.is(Access.record(rec())) ? "; it is in " + now() : ""), leafPath, state);
        }
        return this;
    }

    /**
     * Asserts a polled or builder-style machine's leaf before its last transition ({@code ""}
     * before the first, and after a start with {@code startIn} or {@code spawnIn}).
     *
     * @param leafPath the expected previous leaf's path, or {@code ""} for none
     * @return this assertion, for chaining
     */
    public MachineAssert<C> hasPrevious(String leafPath) {
        String previous = rec().previous();
        if (!previous.equals(leafPath)) {
            throw fail("expected its previous state to be '" + leafPath + "', but it is '" + previous + "'"
                    + (BuilderView.is(Access.record(rec())) ? "; it is in " + now() : ""), leafPath, previous);
        }
        return this;
    }

    /**
     * Asserts the seconds spent in an active state (0 when it is not active), within a microsecond.
     *
     * @param state the state's name ({@code "engage"}) or dotted path ({@code "combat.engage"})
     * @param seconds the expected seconds in it
     * @return this assertion, for chaining
     * @throws MachineException if no state of the machine has that name or path
     * @throws IllegalArgumentException if the seconds are negative, NaN or infinite
     */
    public MachineAssert<C> hasTimeIn(String state, double seconds) {
        checkSeconds("hasTimeIn", seconds);
        double t = rec().timeIn(state);
        if (!rec().is(state)) {
            // timeIn reads 0 for a state that is not active: "0 s in 'answer'" must not pass while it is elsewhere
            throw fail(String.format(Locale.ROOT, "expected %s s in '%s', but '%s' is not active; it is in %s", num(seconds), state, state,
                    now()), state, rec().state());
        }
        if (!close(t, seconds, DEFAULT_TOLERANCE)) {
            throw fail(String.format(Locale.ROOT, "expected %s s in '%s', but %s s", num(seconds), state, num(t)), seconds, t);
        }
        return this;
    }

    // ------------------------------------------------------------------ the builder style

    /**
     * Asserts the seconds in a builder-style machine's current state (its float clock, as
     * {@code timeInState()} reads it), within a microsecond.
     *
     * @param seconds the expected seconds in the current state
     * @return this assertion, for chaining
     * @throws MachineException for a machine of another style
     */
    public MachineAssert<C> hasTimeInState(double seconds) {
        return hasTimeInState(seconds, DEFAULT_TOLERANCE);
    }

    /**
     * Asserts the seconds in a builder-style machine's current state, within a tolerance.
     *
     * @param seconds the expected seconds in the current state
     * @param tolerance how many seconds either side still pass
     * @return this assertion, for chaining
     * @throws MachineException for a machine of another style
     * @throws IllegalArgumentException if the seconds are negative, NaN or infinite, or the tolerance is negative, NaN or infinite
     */
    public MachineAssert<C> hasTimeInState(double seconds, double tolerance) {
        checkSeconds("hasTimeInState", seconds);
        checkTolerance(machine.id(), "hasTimeInState", tolerance);
        MachineRecord r = Access.record(rec());
        BuilderView.require(r, "hasTimeInState");
        float t = BuilderView.time(r);
        if (!close(t, seconds, tolerance)) {
            throw fail(String.format(Locale.ROOT, "expected %s s in state '%s', but %s s; it is in %s", seconds, BuilderView.state(r), t,
                    BuilderView.now(r)), seconds, (double) t);
        }
        return this;
    }

    /**
     * Asserts a builder-style machine's progress in its state (time over duration, 0 without a
     * duration), within a millionth.
     *
     * @param progress the expected progress, 0 to 1
     * @return this assertion, for chaining
     * @throws MachineException for a machine of another style
     */
    public MachineAssert<C> hasProgress(double progress) {
        return hasProgress(progress, DEFAULT_TOLERANCE);
    }

    /**
     * Asserts a builder-style machine's progress, within a tolerance (0: exactly, as the machine's float).
     *
     * @param progress the expected progress, 0 to 1
     * @param tolerance how far either side still passes; 0 compares the machine's float exactly
     * @return this assertion, for chaining
     * @throws MachineException for a machine of another style
     * @throws IllegalArgumentException if the progress is negative, NaN or infinite, or the tolerance is negative, NaN or infinite
     */
    public MachineAssert<C> hasProgress(double progress, double tolerance) {
        checkProgress(machine.id(), progress);
        checkTolerance(machine.id(), "hasProgress", tolerance);
        MachineRecord r = Access.record(rec());
        BuilderView.require(r, "hasProgress");
        float p = BuilderView.progress(r);
        boolean ok = tolerance == 0 ? p == (float) progress : close(p, progress, tolerance);
        if (!ok) {
            throw fail(String.format(Locale.ROOT, "expected progress %s in state '%s', but %s; it is in %s", progress, BuilderView.state(r),
                    p, BuilderView.now(r)), progress, (double) p);
        }
        return this;
    }

    /**
     * Asserts a builder-style machine's current state has the window and its progress lies in it
     * (bounds inclusive), what {@code ctx.inWindow(name)} and {@code read(entity).inWindow(name)} say.
     *
     * @param window the window's name, as declared on the state
     * @return this assertion, for chaining
     * @throws MachineException for a machine of another style, or if no state has a window of that name
     */
    public MachineAssert<C> isInWindow(String window) {
        MachineRecord r = Access.record(rec());
        BuilderView.require(r, "isInWindow");
        BuilderView.requireKnownWindow(r, window);
        if (!BuilderView.inWindow(r, window)) {
            throw fail(windowProblem(r, window, true));
        }
        return this;
    }

    /**
     * Asserts a builder-style machine's progress is outside the window, or its current state has
     * no such window.
     *
     * @param window the window's name, as declared on a state
     * @return this assertion, for chaining
     * @throws MachineException for a machine of another style, or if no state has a window of that name
     */
    public MachineAssert<C> isNotInWindow(String window) {
        MachineRecord r = Access.record(rec());
        BuilderView.require(r, "isNotInWindow");
        BuilderView.requireKnownWindow(r, window);
        if (BuilderView.inWindow(r, window)) {
            throw fail(windowProblem(r, window, false));
        }
        return this;
    }

    /**
     * Asserts a builder-style machine's current state has this configured tag (the context's
     * {@code currentStateTag}; {@code ""} without one). Not the state's tag component: that is
     * {@link #hasTag}.
     *
     * @param tag the expected configured tag, or {@code ""} for none
     * @return this assertion, for chaining
     * @throws MachineException for a machine of another style
     */
    public MachineAssert<C> hasStateTag(String tag) {
        MachineRecord r = Access.record(rec());
        BuilderView.require(r, "hasStateTag");
        String now = BuilderView.stateTag(r);
        if (!now.equals(tag)) {
            throw fail("expected the state's tag '" + tag + "', but it is '" + now + "'; it is in " + BuilderView.now(r), tag, now);
        }
        return this;
    }

    /** Why a window assertion failed: the state, its window's bounds in progress and seconds, and where the machine is. */
    static String windowProblem(MachineRecord r, String window, boolean expectedIn) {
        String state = BuilderView.state(r);
        dev.enginestates.declare.Window w = BuilderView.windows(r).get(window);
        if (w == null) {
            List<String> having = new ArrayList<>();
            for (int s = 1; s < r.chart().size; s++) {
                if (r.chart().builder.windows[s].containsKey(window)) {
                    having.add("'" + r.chart().path[s] + "'");
                }
            }
            return "expected to be in window '" + window + "', but state '" + state + "' has no window '" + window + "' ("
                    + String.join(", ", having) + (having.size() == 1 ? " has it" : " have it") + "); it is in " + BuilderView.now(r);
        }
        float d = BuilderView.duration(r);
        String span = "progress " + w.from() + ".." + w.to() + ", " + (w.from() * d) + ".." + (w.to() * d) + " s of " + d + " s";
        return "expected " + (expectedIn ? "" : "not ") + "to be in window '" + window + "' of state '" + state + "' (" + span
                + "), but its progress is " + BuilderView.progress(r) + " (" + BuilderView.time(r) + " s in state); windows of '"
                + state + "': " + BuilderView.windowsNow(r) + (BuilderView.previous(r).isEmpty() ? "" : "; previous state '"
                + BuilderView.previous(r) + "'");
    }

    /**
     * Asserts the machine is in none of these states.
     *
     * @param paths the states' dotted paths; at least one
     * @return this assertion, for chaining
     * @throws IllegalArgumentException if no path is given
     * @throws MachineException if a path names no state of the machine
     */
    public MachineAssert<C> isNotIn(String... paths) {
        checkPaths(paths);
        List<String> in = new ArrayList<>();
        for (String p : paths) {
            if (rec().matches(p)) {
                in.add(p);
            }
        }
        if (!in.isEmpty()) {
            throw fail("expected not to be in " + quoted(Arrays.asList(paths)) + ", but it is in " + quoted(in) + ": " + now());
        }
        return this;
    }

    /**
     * Asserts the state value as XState writes it: a key such as {@code "breather"}, or nested
     * maps such as {@code Map.of("patrol", "watch")}.
     *
     * @param expected the expected value: a top-level state's key, or nested {@code Map}s for compound and parallel states
     * @return this assertion, for chaining
     */
    public MachineAssert<C> hasValue(Object expected) {
        Object actual = rec().value();
        if (!Objects.equals(expected, actual)) {
            throw fail("expected the value " + EntityDump.value(expected) + ", but it is " + EntityDump.value(actual),
                    expected, actual);
        }
        return this;
    }

    /**
     * Asserts a top-level final state was reached.
     *
     * @return this assertion, for chaining
     */
    public MachineAssert<C> isDone() {
        if (!rec().isDone()) {
            throw fail("expected to be done (in a top-level final state), but it is in " + now());
        }
        return this;
    }

    /**
     * Asserts no top-level final state was reached.
     *
     * @return this assertion, for chaining
     */
    public MachineAssert<C> isNotDone() {
        if (rec().isDone()) {
            throw fail("expected not to be done, but it reached the final state " + now());
        }
        return this;
    }

    /**
     * Asserts the entity has the state's tag component (the one {@code world.query(GUARD.is(path))}
     * finds), which the world moves with the record.
     *
     * @param path the state's dotted path
     * @return this assertion, for chaining
     * @throws MachineException if the path names no state, or the machine was declared with {@code tags(false)}
     */
    public MachineAssert<C> hasTag(String path) {
        Class<?> tag = tag(path);
        if (entity.isDeleted() || !entity.has(tag)) {
            throw fail("expected the tag " + machine.id() + "." + path + ", but the entity does not have it; the record is in " + now()
                    + (rec().matches(path) ? " (the record is in it: its tags move at the start of the next step)" : ""));
        }
        return this;
    }

    /**
     * Asserts the entity does not have the state's tag component.
     *
     * @param path the state's dotted path
     * @return this assertion, for chaining
     * @throws MachineException if the path names no state, or the machine was declared with {@code tags(false)}
     */
    public MachineAssert<C> doesNotHaveTag(String path) {
        Class<?> tag = tag(path);
        if (!entity.isDeleted() && entity.has(tag)) {
            throw fail("expected no tag " + machine.id() + "." + path + ", but the entity has it; the record is in " + now());
        }
        return this;
    }

    // ------------------------------------------------------------------ time

    /**
     * Asserts the current wait has these seconds left (0 when no wait counts), within a microsecond.
     *
     * @param seconds the expected seconds left
     * @return this assertion, for chaining
     */
    public MachineAssert<C> hasSecondsLeft(double seconds) {
        return hasSecondsLeft(seconds, DEFAULT_TOLERANCE);
    }

    /**
     * Asserts the current wait has these seconds left, within a tolerance.
     *
     * @param seconds the expected seconds left
     * @param tolerance how many seconds either side still pass
     * @return this assertion, for chaining
     * @throws IllegalArgumentException if the seconds are negative, NaN or infinite, or the tolerance is negative, NaN or infinite
     */
    public MachineAssert<C> hasSecondsLeft(double seconds, double tolerance) {
        checkSeconds("hasSecondsLeft", seconds);
        checkTolerance(machine.id(), "hasSecondsLeft", tolerance);
        double left = rec().secondsLeft();
        if (!close(left, seconds, tolerance)) {
            throw fail(String.format(Locale.ROOT, "expected %s s left in its wait, but %s", num(seconds), waitText()), seconds, left);
        }
        return this;
    }

    /**
     * Asserts the current wait has counted these seconds, within a microsecond.
     *
     * @param seconds the expected seconds counted
     * @return this assertion, for chaining
     */
    public MachineAssert<C> hasWaited(double seconds) {
        return hasWaited(seconds, DEFAULT_TOLERANCE);
    }

    /**
     * Asserts the current wait has counted these seconds, within a tolerance.
     *
     * @param seconds the expected seconds counted
     * @param tolerance how many seconds either side still pass
     * @return this assertion, for chaining
     * @throws IllegalArgumentException if the seconds are negative, NaN or infinite, or the tolerance is negative, NaN or infinite
     */
    public MachineAssert<C> hasWaited(double seconds, double tolerance) {
        checkSeconds("hasWaited", seconds);
        checkTolerance(machine.id(), "hasWaited", tolerance);
        double waited = rec().waited();
        if (!close(waited, seconds, tolerance)) {
            throw fail(String.format(Locale.ROOT, "expected %s s waited, but %s", num(seconds), waitText()), seconds, waited);
        }
        return this;
    }

    /**
     * Asserts a wait counts, in the state at this path.
     *
     * @param path the dotted path of the state whose wait should count, exactly as the machine writes it
     * @return this assertion, for chaining
     * @throws MachineException if the path names no state of the machine
     */
    public MachineAssert<C> isWaitingIn(String path) {
        tagOrState(path);
        if (!path.equals(rec().waitingIn())) {
            throw fail("expected to be waiting in '" + path + "', but " + waitText(), path, rec().waitingIn());
        }
        return this;
    }

    /**
     * Asserts no wait counts (the active states have no wait).
     *
     * @return this assertion, for chaining
     */
    public MachineAssert<C> isNotWaiting() {
        if (rec().isWaiting()) {
            throw fail("expected no wait to count, but " + waitText());
        }
        return this;
    }

    /**
     * Asserts the seconds a state's wait kept when it was left (which a history state resumes), within a microsecond.
     *
     * @param path the state's dotted path
     * @param seconds the expected seconds its wait had counted when it was left
     * @return this assertion, for chaining
     * @throws MachineException if the path names no state of the machine
     * @throws IllegalArgumentException if the seconds are negative, NaN or infinite
     */
    public MachineAssert<C> hasPaused(String path, double seconds) {
        checkSeconds("hasPaused", seconds);
        double kept = paused(path);
        if (!close(kept, seconds, DEFAULT_TOLERANCE)) {
            throw fail(String.format(Locale.ROOT, "expected '%s' to keep %s s of its wait, but it keeps %s", path, num(seconds),
                    Double.isNaN(kept) ? "none" : num(kept) + " s"), seconds, kept);
        }
        return this;
    }

    /**
     * Asserts a state keeps no paused seconds (its wait ended, or it was never left mid-wait).
     *
     * @param path the state's dotted path
     * @return this assertion, for chaining
     * @throws MachineException if the path names no state of the machine
     */
    public MachineAssert<C> hasNoPaused(String path) {
        double kept = paused(path);
        if (!Double.isNaN(kept)) {
            throw fail(String.format(Locale.ROOT, "expected '%s' to keep no paused seconds, but it keeps %s s", path, num(kept)));
        }
        return this;
    }

    /**
     * Asserts the machine is held (by the paused marker or one of its {@code heldBy} components).
     *
     * @return this assertion, for chaining
     */
    public MachineAssert<C> isHeld() {
        if (!rec().isHeld()) {
            throw fail("expected to be held, but it is not (holds are read at the start of each step): " + now());
        }
        return this;
    }

    /**
     * Asserts the machine is not held.
     *
     * @return this assertion, for chaining
     */
    public MachineAssert<C> isNotHeld() {
        if (rec().isHeld()) {
            throw fail("expected not to be held, but it is (holds are read at the start of each step): " + now());
        }
        return this;
    }

    // ------------------------------------------------------------------ history and context

    /**
     * Asserts what a history state remembers: exactly these states (a deep history's atomic
     * states, or a shallow history's child), in any order.
     *
     * @param historyPath the history state's dotted path
     * @param states the dotted paths it should remember; none for "remembers nothing"
     * @return this assertion, for chaining
     * @throws MachineException if the path is not a history state of the machine
     */
    public MachineAssert<C> remembers(String historyPath, String... states) {
        Chart c = Access.record(rec()).chart();
        int h = c.stateAt(historyPath);
        if (h <= 0 || c.type[h] != StateType.HISTORY) {
            throw new MachineException(machine.id(), "machine '" + machine.id() + "' has no history state '" + historyPath + "'");
        }
        MachineRecord rec = Access.record(rec());
        TreeSet<String> actual = new TreeSet<>();
        for (int i = 0; i < rec.historySize(h); i++) {
            actual.add(c.path[rec.historyAt(h, i)]);
        }
        TreeSet<String> expected = new TreeSet<>(Arrays.asList(states));
        if (!expected.equals(actual)) {
            throw fail("expected history '" + historyPath + "' to remember " + expected + ", but it remembers "
                    + (actual.isEmpty() ? "nothing" : actual), expected, actual);
        }
        return this;
    }

    /**
     * Asserts the context satisfies a test.
     *
     * @param test the test the context must pass
     * @return this assertion, for chaining
     */
    public MachineAssert<C> hasContext(Predicate<? super C> test) {
        return hasContext("the test", test);
    }

    /**
     * Asserts the context satisfies a test, named in the message ({@code "two waves held"}).
     *
     * @param description what the test checks, for the failure's message
     * @param test the test the context must pass
     * @return this assertion, for chaining
     */
    public MachineAssert<C> hasContext(String description, Predicate<? super C> test) {
        if (!test.test(rec().context())) {
            throw fail("expected the context to satisfy " + description + ", but it does not: "
                    + EntityDump.context(rec().context()));
        }
        return this;
    }

    /**
     * Runs assertions on the context ({@code c -> assertEquals(2, c.wave)}); a failure is
     * rethrown with the machine's dump added to its message.
     *
     * @param assertions the test's own assertions, given the context
     * @return this assertion, for chaining
     */
    public MachineAssert<C> contextSatisfies(Consumer<? super C> assertions) {
        try {
            assertions.accept(rec().context());
        } catch (AssertionError e) {
            AssertionError wrapped = fail("the context failed an assertion: " + e.getMessage());
            wrapped.initCause(e);
            throw wrapped;
        }
        return this;
    }

    // ------------------------------------------------------------------ typed names

    /**
     * Asserts the machine is in every one of the states declared with these constants of its
     * state enum ({@code isIn(WATCH)}); see {@link #isIn(String...)}.
     *
     * @param state a constant of the machine's state enum
     * @param more further constants, such as the other regions' states of a parallel state
     * @return this assertion, for chaining
     * @throws MachineException if a constant is not of the machine's state enum
     */
    public MachineAssert<C> isIn(Enum<?> state, Enum<?>... more) {
        return isIn(paths(state, more));
    }

    /**
     * Asserts the machine is in none of the states declared with these constants.
     *
     * @param state a constant of the machine's state enum
     * @param more further constants
     * @return this assertion, for chaining
     * @throws MachineException if a constant is not of the machine's state enum
     */
    public MachineAssert<C> isNotIn(Enum<?> state, Enum<?>... more) {
        return isNotIn(paths(state, more));
    }

    /**
     * Asserts the entity has the tag of the state declared with this constant.
     *
     * @param state a constant of the machine's state enum
     * @return this assertion, for chaining
     */
    public MachineAssert<C> hasTag(Enum<?> state) {
        return hasTag(machine.path(state));
    }

    /**
     * Asserts the entity does not have the tag of the state declared with this constant.
     *
     * @param state a constant of the machine's state enum
     * @return this assertion, for chaining
     */
    public MachineAssert<C> doesNotHaveTag(Enum<?> state) {
        return doesNotHaveTag(machine.path(state));
    }

    /**
     * Asserts a wait counts, in the state declared with this constant.
     *
     * @param state a constant of the machine's state enum
     * @return this assertion, for chaining
     */
    public MachineAssert<C> isWaitingIn(Enum<?> state) {
        return isWaitingIn(machine.path(state));
    }

    /**
     * Asserts the seconds spent in the state declared with this constant (0 when it is not active), within a microsecond.
     *
     * @param state a constant of the machine's state enum
     * @param seconds the expected seconds in it
     * @return this assertion, for chaining
     */
    public MachineAssert<C> hasTimeIn(Enum<?> state, double seconds) {
        return hasTimeIn(machine.path(state), seconds);
    }

    /**
     * Asserts the seconds the wait of the state declared with this constant kept when it was left, within a microsecond.
     *
     * @param state a constant of the machine's state enum
     * @param seconds the expected seconds its wait had counted when it was left
     * @return this assertion, for chaining
     */
    public MachineAssert<C> hasPaused(Enum<?> state, double seconds) {
        return hasPaused(machine.path(state), seconds);
    }

    /**
     * Asserts what the history state declared with this constant remembers: exactly these states, in any order.
     *
     * @param history the constant that declares the history state
     * @param states the constants of the states it should remember; none for "remembers nothing"
     * @return this assertion, for chaining
     */
    public MachineAssert<C> remembers(Enum<?> history, Enum<?>... states) {
        String[] remembered = new String[states.length];
        for (int i = 0; i < states.length; i++) {
            remembered[i] = machine.path(states[i]);
        }
        return remembers(machine.path(history), remembered);
    }

    private String[] paths(Enum<?> first, Enum<?>[] more) {
        String[] out = new String[1 + more.length];
        out[0] = machine.path(first);
        for (int i = 0; i < more.length; i++) {
            out[i + 1] = machine.path(more[i]);
        }
        return out;
    }

    // ------------------------------------------------------------------ navigation

    /**
     * Assertions on another machine of the same entity.
     *
     * @param <D> the other machine's context type
     * @param other another machine on the same entity
     * @return assertions on that machine's record
     * @throws AssertionError if the entity holds no record of that machine
     */
    public <D> MachineAssert<D> machine(States<D> other) {
        return new EntityAssert(world, entity).machine(other);
    }

    /**
     * The record asserted on, for a test's own checks.
     *
     * @return the machine's record on the entity, read live
     */
    public StateRecord<C> record() {
        return rec();
    }

    // ------------------------------------------------------------------ messages

    /**
     * The record asserted on, while the entity still holds it in this world: an assertion kept
     * across a despawn or a detach would otherwise read a record no world steps any more, and pass.
     */
    private StateRecord<C> rec() {
        StateRecord<C> now = entity.isDeleted() ? null : entity.get(machine.recordType());
        if (now != record || record.world() != world) {
            throw new AssertionError("machine '" + machine.id() + "' on " + EntityDump.name(world, entity) + ": the '" + machine.id()
                    + "' record this assertion was made on is no longer the entity's in this world (" + (entity.isDeleted()
                    ? "the entity was despawned" : now == null ? "the machine was detached" : "the machine was attached again")
                    + "); expected a live record: take a new assertThat(world, entity).machine(" + machine.id() + ")");
        }
        return record;
    }

    /** Refuses expected seconds that no reading can have: negative, NaN or infinite. */
    private void checkSeconds(String call, double seconds) {
        if (!(seconds >= 0) || Double.isInfinite(seconds)) {
            throw new IllegalArgumentException("machine '" + machine.id() + "': " + call + " needs a finite number of seconds, 0 or more;"
                    + " got " + seconds);
        }
    }

    /** Refuses a tolerance that would make the check fail always (negative, NaN) or pass always (infinite). */
    static void checkTolerance(String machineId, String call, double tolerance) {
        if (!(tolerance >= 0) || Double.isInfinite(tolerance)) {
            throw new IllegalArgumentException("machine '" + machineId + "': " + call + " needs a finite tolerance, 0 or more; got "
                    + tolerance);
        }
    }

    private AssertionError fail(String what) {
        return new AssertionError(message(what));
    }

    private AssertionError fail(String what, Object expected, Object actual) {
        return new AssertionFailedError(message(what), expected, actual);
    }

    private String message(String what) {
        return String.format(Locale.ROOT, "machine '%s' on %s at t=%.3f s (step %d): %s%n%s", machine.id(),
                EntityDump.name(world, entity), world.time(), world.steps(), what, EntityDump.of(world, entity, machine));
    }

    /** The state and wait in one phrase: {@code {"patrol":"watch"} (patrol.watch: 3 s waited, 1 s left)}. */
    private String now() {
        if (BuilderView.is(Access.record(rec()))) {
            return BuilderView.now(Access.record(rec()));
        }
        String v = EntityDump.value(rec().value());
        if (rec().isWaiting()) {
            v += " (" + rec().waitingIn() + ": " + num(rec().waited()) + " s waited, " + num(rec().secondsLeft()) + " s left"
                    + (rec().isHeld() ? ", held" : "") + ")";
        }
        return rec().isDone() ? v + " (done)" : v;
    }

    private String waitText() {
        if (!rec().isWaiting()) {
            return "no wait counts in " + EntityDump.value(rec().value());
        }
        return "its wait in '" + rec().waitingIn() + "' has " + num(rec().waited()) + " s waited and " + num(rec().secondsLeft())
                + " s left" + (rec().isHeld() ? " (held)" : "");
    }

    private double paused(String path) {
        tagOrState(path);
        return rec().paused(path);
    }

    private Class<?> tag(String path) {
        return machine.is(path); // throws the library's message for an unknown state or tags(false)
    }

    private void tagOrState(String path) {
        Chart c = Access.record(rec()).chart();
        // a history state is never active, never waits and keeps no seconds: a check on it could not fail
        if (path != null && c.stateAt(path) > 0 && c.type[c.stateAt(path)] == StateType.HISTORY) {
            throw new MachineException(machine.id(), "machine '" + machine.id() + "': '" + path + "' is a history state, which is never"
                    + " active and keeps no wait; expected a state of the machine (read what it remembers with remembers(\"" + path + "\", ...))");
        }
        if (path == null || c.stateAt(path) <= 0) {
            throw new MachineException(machine.id(), "machine '" + machine.id() + "' has no state '" + path + "'; expected one of "
                    + machine.machine().statePaths() + dev.enginestates.records.StateValue.suggestion(c, path));
        }
    }

    private void checkPaths(String[] paths) {
        if (paths.length == 0) {
            throw new IllegalArgumentException("name at least one state path");
        }
        for (String p : paths) {
            tagOrState(p);
        }
    }

    /** Refuses a progress no state can have: negative, NaN or infinite (past 1 is possible: a state may outstay its duration). */
    static void checkProgress(String machineId, double progress) {
        if (!(progress >= 0) || Double.isInfinite(progress)) {
            throw new IllegalArgumentException("machine '" + machineId + "': hasProgress needs a finite progress, 0 or more; got " + progress);
        }
    }

    private static boolean close(double a, double b, double tolerance) {
        return Math.abs(a - b) <= tolerance || a == b;
    }

    private static String num(double s) {
        if (Math.abs(s) < 5e-7) {
            s = 0; // a sum of fixed steps lands a hair either side of zero
        }
        String t = String.format(Locale.ROOT, "%.6f", s);
        t = t.replaceAll("0+$", "");
        return t.endsWith(".") ? t.substring(0, t.length() - 1) : t;
    }

    private static String quoted(List<String> paths) {
        StringBuilder b = new StringBuilder();
        for (String p : paths) {
            b.append(b.length() == 0 ? "" : ", ").append('\'').append(p).append('\'');
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return "MachineAssert(" + record + " on " + EntityDump.name(world, entity) + ")";
    }
}

package dev.enginestates.testing;

import dev.enginestates.records.Access;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.StateContextCore;
import dev.enginestates.fsm.StateMachine;
import dev.enginestates.records.MachineRecord;
import org.opentest4j.AssertionFailedError;

import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Assertions on a builder-style machine run by its owner (a
 * {@code dev.enginestates.fsm.StateMachine}, or an {@code AIStateMachine}), chained:
 *
 * <pre>{@code
 * assertThat(fsm).hasState("Attack").hasPrevious("Idle").hasTimeInState(0.2).hasProgress(0.2 / 0.55)
 *         .isInWindow("damage").isNotInWindow("input");
 * }</pre>
 *
 * <p>Each reads the machine when it is called. A failure names the machine and its state, says
 * what was expected, and prints the machine (state, previous state, time in state, duration,
 * progress, tag, windows open or closed) and its context as JSON. Times and progress are the
 * machine's float32 values; they are compared within {@link MachineAssert#DEFAULT_TOLERANCE}
 * unless a tolerance is given (0 compares exactly, as {@code progress() >= 1f} does).
 *
 * <p>For the same machine on an entity, {@code assertThat(world, entity).machine(STATES)} has
 * the same assertions ({@link MachineAssert}).
 *
 * @param <C> the machine's context type
 */
public final class BuilderMachineAssert<C extends StateContextCore> {
    private final StateMachine<C> machine;

    BuilderMachineAssert(StateMachine<C> machine) {
        this.machine = machine;
    }

    private MachineRecord record() {
        return Access.record(machine);
    }

    /**
     * Asserts the current state.
     *
     * @param state the expected state's name, as declared ({@code "Attack"})
     * @return this assertion, for chaining
     * @throws MachineException if the machine declares no state of that name
     */
    public BuilderMachineAssert<C> hasState(String state) {
        known(state);
        String now = BuilderView.state(record());
        if (!now.equals(state)) {
            throw fail("expected state '" + state + "', but it is in " + BuilderView.now(record()), state, now);
        }
        return this;
    }

    /**
     * Asserts the state before the last transition ({@code ""} before the first, as after {@code initialize} or {@link BuilderStart}).
     *
     * @param state the expected previous state's name, or {@code ""} (or {@code null}) for none
     * @return this assertion, for chaining
     * @throws MachineException if the machine declares no state of that name
     */
    public BuilderMachineAssert<C> hasPrevious(String state) {
        String expected = state == null ? "" : state;
        if (!expected.isEmpty()) {
            known(expected);
        }
        started("hasPrevious");
        String previous = BuilderView.previous(record());
        if (!previous.equals(expected)) {
            throw fail("expected previous state " + (expected.isEmpty() ? "none" : "'" + expected + "'") + ", but "
                    + (previous.isEmpty() ? "there is none" : "it is '" + previous + "'") + "; it is in " + BuilderView.now(record()),
                    expected, previous);
        }
        return this;
    }

    /**
     * Asserts the seconds in the current state (the machine's float clock), within a microsecond.
     *
     * @param seconds the expected seconds in the current state
     * @return this assertion, for chaining
     */
    public BuilderMachineAssert<C> hasTimeInState(double seconds) {
        return hasTimeInState(seconds, MachineAssert.DEFAULT_TOLERANCE);
    }

    /**
     * Asserts the seconds in the current state, within a tolerance.
     *
     * @param seconds the expected seconds in the current state
     * @param tolerance how many seconds either side still pass
     * @return this assertion, for chaining
     * @throws IllegalArgumentException if the seconds are negative, NaN or infinite, or the tolerance is negative, NaN or infinite
     */
    public BuilderMachineAssert<C> hasTimeInState(double seconds, double tolerance) {
        if (!(seconds >= 0) || Double.isInfinite(seconds)) {
            throw new IllegalArgumentException("machine '" + machine.definition().id() + "': hasTimeInState needs a finite number of"
                    + " seconds, 0 or more; got " + seconds);
        }
        MachineAssert.checkTolerance(machine.definition().id(), "hasTimeInState", tolerance);
        started("hasTimeInState");
        float t = BuilderView.time(record());
        if (!close(t, seconds, tolerance)) {
            throw fail(String.format(Locale.ROOT, "expected %s s in state '%s', but %s s; it is in %s", seconds,
                    BuilderView.state(record()), t, BuilderView.now(record())), seconds, (double) t);
        }
        return this;
    }

    /**
     * Asserts the progress in the current state (time over duration; 0 without a duration), within a millionth.
     *
     * @param progress the expected progress, 0 to 1
     * @return this assertion, for chaining
     */
    public BuilderMachineAssert<C> hasProgress(double progress) {
        return hasProgress(progress, MachineAssert.DEFAULT_TOLERANCE);
    }

    /**
     * Asserts the progress in the current state, within a tolerance (0: exactly, as the machine's float).
     *
     * @param progress the expected progress, 0 to 1
     * @param tolerance how far either side still passes; 0 compares the machine's float exactly
     * @return this assertion, for chaining
     * @throws IllegalArgumentException if the progress is negative, NaN or infinite, or the tolerance is negative, NaN or infinite
     */
    public BuilderMachineAssert<C> hasProgress(double progress, double tolerance) {
        MachineAssert.checkProgress(machine.definition().id(), progress);
        MachineAssert.checkTolerance(machine.definition().id(), "hasProgress", tolerance);
        started("hasProgress");
        float p = BuilderView.progress(record());
        boolean ok = tolerance == 0 ? p == (float) progress : close(p, progress, tolerance);
        if (!ok) {
            throw fail(String.format(Locale.ROOT, "expected progress %s in state '%s', but %s; it is in %s", progress,
                    BuilderView.state(record()), p, BuilderView.now(record())), progress, (double) p);
        }
        return this;
    }

    /**
     * Asserts the current state has the window and its progress lies in it (bounds inclusive),
     * what {@code ctx.inWindow(name)} says.
     *
     * @param window the window's name, as declared on the state
     * @return this assertion, for chaining
     * @throws MachineException if no state of the machine has a window of that name
     */
    public BuilderMachineAssert<C> isInWindow(String window) {
        BuilderView.requireKnownWindow(record(), window);
        started("isInWindow");
        if (!BuilderView.inWindow(record(), window)) {
            throw fail(MachineAssert.windowProblem(record(), window, true));
        }
        return this;
    }

    /**
     * Asserts the progress is outside the window, or the current state has no such window.
     *
     * @param window the window's name, as declared on a state
     * @return this assertion, for chaining
     * @throws MachineException if no state of the machine has a window of that name
     */
    public BuilderMachineAssert<C> isNotInWindow(String window) {
        BuilderView.requireKnownWindow(record(), window);
        started("isNotInWindow");
        if (BuilderView.inWindow(record(), window)) {
            throw fail(MachineAssert.windowProblem(record(), window, false));
        }
        return this;
    }

    /**
     * Asserts the current state's configured tag ({@code currentStateTag}, {@code ""} without one).
     *
     * @param tag the expected configured tag, or {@code ""} for none
     * @return this assertion, for chaining
     */
    public BuilderMachineAssert<C> hasStateTag(String tag) {
        started("hasStateTag");
        String now = BuilderView.stateTag(record());
        if (!now.equals(tag)) {
            throw fail("expected the state's tag '" + tag + "', but it is '" + now + "'; it is in " + BuilderView.now(record()), tag, now);
        }
        return this;
    }

    /**
     * Asserts the context satisfies a test, named in the message ({@code "stamina spent"}).
     *
     * @param description what the test checks, for the failure's message
     * @param test the test the context must pass
     * @return this assertion, for chaining
     */
    public BuilderMachineAssert<C> hasContext(String description, Predicate<? super C> test) {
        started("hasContext");
        if (!test.test(context())) {
            throw fail("expected the context to satisfy " + description + ", but it does not; it is in " + BuilderView.now(record()));
        }
        return this;
    }

    /**
     * Runs assertions on the context; a failure is rethrown with the machine's picture added to its message.
     *
     * @param assertions the test's own assertions, given the context
     * @return this assertion, for chaining
     */
    public BuilderMachineAssert<C> contextSatisfies(Consumer<? super C> assertions) {
        started("contextSatisfies");
        try {
            assertions.accept(context());
        } catch (AssertionError e) {
            AssertionError wrapped = fail("the context failed an assertion: " + e.getMessage());
            wrapped.initCause(e);
            throw wrapped;
        }
        return this;
    }

    /**
     * The machine asserted on.
     *
     * @return the machine these assertions read
     */
    public StateMachine<C> machine() {
        return machine;
    }

    @SuppressWarnings("unchecked")
    private C context() {
        return (C) record().contextObject();
    }

    private void known(String state) {
        if (!machine.definition().states().contains(state)) {
            String id = machine.definition().id();
            throw new MachineException(id, "machine '" + id + "' has no state '" + state + "'; expected one of "
                    + machine.definition().states());
        }
    }

    // ------------------------------------------------------------------ messages

    /**
     * Fails before the machine is started: a machine in no state reads "", 0 and closed windows,
     * so {@code hasPrevious("")}, {@code hasTimeInState(0)} or {@code isNotInWindow} would pass on it.
     */
    private void started(String call) {
        if (!BuilderView.active(record())) {
            throw fail(call + " needs a started machine, but it is in " + BuilderView.now(record()) + "; call initialize(ctx) first");
        }
    }

    private AssertionError fail(String what) {
        return new AssertionError(message(what));
    }

    private AssertionError fail(String what, Object expected, Object actual) {
        return new AssertionFailedError(message(what), expected, actual);
    }

    private String message(String what) {
        return "machine '" + machine.definition().id() + "' (" + machine.getClass().getSimpleName() + "): " + what + "\n"
                + EntityDump.write(tree());
    }

    private ObjectNode tree() {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("machine", machine.definition().id());
        MachineRecord r = record();
        if (r.status() != MachineRecord.ACTIVE) {
            o.putNull("state");
        } else {
            o.put("state", BuilderView.state(r));
        }
        o.setAll(BuilderView.tree(r));
        o.set("context", EntityDump.context(r.contextObject()));
        return o;
    }

    private static boolean close(double a, double b, double tolerance) {
        return Math.abs(a - b) <= tolerance || a == b;
    }

    @Override
    public String toString() {
        return "BuilderMachineAssert(" + machine + ")";
    }
}

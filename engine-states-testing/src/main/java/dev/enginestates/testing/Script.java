package dev.enginestates.testing;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.Event;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A scripted sequence of inputs for a fixture's world: sends, time, the game's own changes and
 * checks, written first and run in order with {@link #run()}.
 *
 * <pre>{@code
 * world.script()
 *      .send(GUARD, guard, "BELL").taken()
 *      .advance(1.0)
 *      .send(GUARD, guard, "BELL").refused()          // answering names no BELL
 *      .then("the bell-ringer leaves", () -> ringer.removeType(Ringing.class))
 *      .send(GUARD, guard, "RESUME")
 *      .check(() -> assertThat(world, guard).machine(GUARD).isIn("patrol.watch"))
 *      .run();
 * }</pre>
 *
 * <p>Running keeps a transcript, one line per input with the game time, whether each event was
 * taken and the state it left the machine in. A failing check or expectation throws an
 * {@link AssertionError} that carries the transcript so far, so the message says what led
 * there. A script may be run more than once (each run continues from the world as it is).
 *
 * <p>Belongs to its fixture's thread.
 */
public final class Script {
    private final WorldFixture fixture;
    private final List<Input> inputs = new ArrayList<>();

    Script(WorldFixture fixture) {
        this.fixture = fixture;
    }

    /** One input of the script. */
    private abstract static class Input {
        String expectation; // "taken" or "refused" for sends, else null

        abstract String run(WorldFixture fixture, ScriptRun out);
    }

    /** A send, whose result is recorded and may be expected. */
    private static final class Send<C> extends Input {
        final States<C> machine;
        final Entity entity; // null: the world's own
        final Event event;   // null for a bare name
        final String name;   // null for an event with fields or a constant

        Send(States<C> machine, Entity entity, Event event) {
            this.machine = Objects.requireNonNull(machine, "machine");
            this.entity = entity;
            this.event = Objects.requireNonNull(event, "event");
            this.name = null;
        }

        Send(States<C> machine, Entity entity, String name) {
            this.machine = Objects.requireNonNull(machine, "machine");
            this.entity = entity;
            if (name == null || name.isEmpty()) {
                throw new IllegalArgumentException("a script's send needs the event's type; got " + (name == null ? "null" : "\"\""));
            }
            this.event = null;
            this.name = name;
        }

        @Override
        String run(WorldFixture fixture, ScriptRun out) {
            StateWorld world = fixture.world();
            Entity target = entity == null ? world.entity() : entity;
            // a bare name is sent bare, as the fixture's send does: a polled handler then gets no arguments
            boolean taken = name != null ? machine.send(target, name) : machine.send(target, event);
            out.taken.add(taken);
            StateRecord<C> r = machine.read(target);
            String shown = name != null ? name : event.toString();
            String line = "send " + shown + " to " + EntityDump.name(world, target) + " (" + machine.id() + "): "
                    + (taken ? "taken" : "refused") + ", now " + r;
            if (expectation != null && !expectation.equals(taken ? "taken" : "refused")) {
                out.line(world.time(), world.steps(), line);
                throw new AssertionError("expected " + (name != null ? name : event.type()) + " to be " + expectation
                        + " by machine '" + machine.id() + "' on " + EntityDump.name(world, target) + ", but it was "
                        + (taken ? "taken" : "refused") + "\n" + EntityDump.of(world, target, machine));
            }
            return line;
        }
    }

    /**
     * Sends an event to a machine on an entity; its result is recorded in {@link ScriptRun#taken()}.
     * It is sent as {@link WorldFixture#send(States, Entity, String)} sends it: a polled
     * machine's handler receives no arguments.
     *
     * @param <C> the machine's context type
     * @param machine the machine to send to
     * @param entity the entity holding it
     * @param event the event's name, such as {@code "BELL"}
     * @return this script, for chaining
     * @throws IllegalArgumentException now, if the name is {@code null} or empty
     */
    public <C> Script send(States<C> machine, Entity entity, String event) {
        inputs.add(new Send<>(machine, Objects.requireNonNull(entity, "entity"), event));
        return this;
    }

    /**
     * Sends an event with fields to a machine on an entity.
     *
     * @param <C> the machine's context type
     * @param machine the machine to send to
     * @param entity the entity holding it
     * @param event the event, with the fields its guards read
     * @return this script, for chaining
     */
    public <C> Script send(States<C> machine, Entity entity, Event event) {
        inputs.add(new Send<>(machine, Objects.requireNonNull(entity, "entity"), event));
        return this;
    }

    /**
     * Sends the event named by a constant of the machine's event enum to a machine on an entity.
     *
     * @param <C> the machine's context type
     * @param machine the machine to send to
     * @param entity the entity holding it
     * @param event a constant of the machine's event enum
     * @return this script, for chaining
     */
    public <C> Script send(States<C> machine, Entity entity, Enum<?> event) {
        return send(machine, entity, Event.of(event));
    }

    /**
     * Sends the event named by a constant of the machine's event enum to the world-level machine.
     *
     * @param <C> the machine's context type
     * @param machine the world-level machine
     * @param event a constant of the machine's event enum
     * @return this script, for chaining
     */
    public <C> Script send(States<C> machine, Enum<?> event) {
        return send(machine, Event.of(event));
    }

    /**
     * Sends an event to the world-level machine, as {@link WorldFixture#send(States, String)} does.
     *
     * @param <C> the machine's context type
     * @param machine the world-level machine
     * @param event the event's name
     * @return this script, for chaining
     * @throws IllegalArgumentException now, if the name is {@code null} or empty
     */
    public <C> Script send(States<C> machine, String event) {
        inputs.add(new Send<>(machine, null, event));
        return this;
    }

    /**
     * Sends an event with fields to the world-level machine.
     *
     * @param <C> the machine's context type
     * @param machine the world-level machine
     * @param event the event, with the fields its guards read
     * @return this script, for chaining
     */
    public <C> Script send(States<C> machine, Event event) {
        inputs.add(new Send<>(machine, null, event));
        return this;
    }

    /**
     * Expects the send just before to be taken by a state (an action-only transition counts);
     * the run fails there otherwise.
     *
     * @return this script, for chaining
     * @throws IllegalStateException if the input just before is not a send
     */
    public Script taken() {
        return expect("taken");
    }

    /**
     * Expects the send just before to be refused (no state names it, or every guard said no);
     * the run fails there otherwise.
     *
     * @return this script, for chaining
     * @throws IllegalStateException if the input just before is not a send
     */
    public Script refused() {
        return expect("refused");
    }

    private Script expect(String what) {
        if (inputs.isEmpty() || !(inputs.get(inputs.size() - 1) instanceof Send)) {
            throw new IllegalStateException(what + "() follows a send(...) in a script");
        }
        inputs.get(inputs.size() - 1).expectation = what;
        return this;
    }

    /**
     * Advances the world by these seconds at the fixture's fixed step.
     *
     * @param seconds the game time to move, in seconds; a whole number of steps, 0 or more
     * @return this script, for chaining
     * @throws IllegalArgumentException now, if the seconds are not a whole number of steps
     */
    public Script advance(double seconds) {
        int steps = fixture.stepsIn(seconds);
        inputs.add(new Input() {
            @Override
            String run(WorldFixture f, ScriptRun out) {
                f.advanceSteps(steps);
                return String.format(Locale.ROOT, "advance %s s (%d steps)", seconds, steps);
            }
        });
        return this;
    }

    /**
     * Advances the world this many fixed steps.
     *
     * @param steps how many fixed steps to take, 0 or more
     * @return this script, for chaining
     * @throws IllegalArgumentException now, if {@code steps} is negative
     */
    public Script advanceSteps(int steps) {
        if (steps < 0) {
            throw new IllegalArgumentException("cannot advance a negative number of steps: " + steps);
        }
        inputs.add(new Input() {
            @Override
            String run(WorldFixture f, ScriptRun out) {
                f.advanceSteps(steps);
                return "advance " + steps + " steps";
            }
        });
        return this;
    }

    /**
     * Runs the game's own code at this point (move a component, add a hold), named in the transcript.
     *
     * @param what the change in a few words, as the transcript shows it ({@code "the bell-ringer leaves"}); not {@code null}
     * @param change the game's code to run
     * @return this script, for chaining
     * @throws NullPointerException now, if {@code what} or {@code change} is {@code null}
     */
    public Script then(String what, Runnable change) {
        Objects.requireNonNull(what, "what: the change in a few words, for the transcript");
        Objects.requireNonNull(change, "change");
        inputs.add(new Input() {
            @Override
            String run(WorldFixture f, ScriptRun out) {
                change.run();
                return what;
            }
        });
        return this;
    }

    /**
     * Runs the game's own code at this point.
     *
     * @param change the game's code to run; the transcript shows it as {@code "game code"}
     * @return this script, for chaining
     */
    public Script then(Runnable change) {
        return then("game code", change);
    }

    /**
     * Runs assertions at this point; a failure stops the run with the transcript so far.
     *
     * @param assertions the test's assertions, such as {@code () -> assertThat(world, guard).machine(GUARD).isIn("answer")}
     * @return this script, for chaining
     */
    public Script check(Runnable assertions) {
        Objects.requireNonNull(assertions, "assertions");
        inputs.add(new Input() {
            @Override
            String run(WorldFixture f, ScriptRun out) {
                assertions.run();
                return "check passed";
            }
        });
        return this;
    }

    /**
     * Runs the inputs in order.
     *
     * @return what happened: each send's result and the transcript
     * @throws AssertionError if a check or an expected result fails; its message ends with the transcript so far
     */
    public ScriptRun run() {
        ScriptRun out = new ScriptRun();
        StateWorld world = fixture.world();
        for (int i = 0; i < inputs.size(); i++) {
            double at = world.time();
            long step = world.steps();
            String line;
            try {
                line = inputs.get(i).run(fixture, out);
            } catch (AssertionError e) {
                AssertionError wrapped = new AssertionError(e.getMessage() + "\n" + "script input " + (i + 1) + " of " + inputs.size()
                        + " failed; the script so far:\n" + out.text(), e);
                throw wrapped;
            } catch (RuntimeException e) {
                e.addSuppressed(new ScriptTrace("script input " + (i + 1) + " of " + inputs.size() + " threw; the script so far:\n"
                        + out.text()));
                throw e;
            }
            out.line(at, step, line);
        }
        return out;
    }

    /** Carries a script's transcript on an exception that a game's code threw. */
    private static final class ScriptTrace extends RuntimeException {
        ScriptTrace(String message) {
            super(message, null, false, false);
        }
    }

    @Override
    public String toString() {
        return "Script(" + inputs.size() + " inputs)";
    }
}

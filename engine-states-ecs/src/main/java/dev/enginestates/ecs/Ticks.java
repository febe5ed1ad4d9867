package dev.enginestates.ecs;

import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.UserCodeException;
import dev.enginestates.algorithm.Scratch;
import dev.enginestates.algorithm.StyleRuntime;
import dev.enginestates.records.StateValue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A world's fixed step. Each tick: the tags of states set by hand move, holds are read, the
 * clock advances, then each machine in declaration order runs by its style (XState: due waits,
 * then {@code when} rules; polled: clocks, guards, {@code after}, updates; builder: advance then
 * run, or one half of a split tick). Game code that throws fails its own machine only: the tick
 * goes on, and the failures are handed over once it has ended.
 */
final class Ticks {
    private static final System.Logger LOG = System.getLogger("dev.enginestates");
    static final int ADVANCE = StyleRuntime.ADVANCE;
    static final int RUN = StyleRuntime.RUN;

    private final StateWorld world;
    /** What the ticks tell a flight recording. */
    final WorldFlight flight;
    private final List<MachineFailure> failures = new ArrayList<>();
    /** Records set by hand: their tags move at the start of the next tick. */
    private EntityRecord<?>[] pendingTags = new EntityRecord<?>[16];
    private int pendingCount;
    /** The seconds of the last advance, which the next {@link #runStates} hands the builder-style handlers; NaN when none is pending. */
    private float advanced = Float.NaN;

    Ticks(StateWorld world) {
        this.world = world;
        this.flight = new WorldFlight(world);
    }

    /** The other half of {@link #pendingTags}'s double buffer, so a tick can pend again while it applies. */
    private EntityRecord<?>[] spareTags = new EntityRecord<?>[16];

    /** A record set by hand: its tags move at the start of the next tick. */
    void pendTags(EntityRecord<?> r) {
        if (!r.tagsPending) {
            r.tagsPending = true;
            pendingTags = StateWorld.push(pendingTags, pendingCount++, r);
        }
    }

    /**
     * One tick of {@code dt} seconds: every machine runs, builder-style machines by
     * {@code builderPhases} ({@link #ADVANCE}, {@link #RUN} or both).
     */
    void tick(double dt, int builderPhases, String call) {
        double clock = world.clock;
        if (!(dt >= 0) || Double.isInfinite(dt)) {
            throw new IllegalArgumentException(call + " needs a finite number of seconds, 0 or more; got " + dt);
        }
        if (dt > StateWorld.MAX_STEP_SECONDS) {
            throw new IllegalArgumentException(call + "(" + dt + ") is longer than the longest step, " + StateWorld.MAX_STEP_SECONDS
                    + " s (StateWorld.MAX_STEP_SECONDS, the most a checkpoint keeps); expected at most that");
        }
        if (dt > 0 && !(clock + dt > clock && clock + dt < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException(call + "(" + dt + ") would not advance the clock at t=" + clock
                    + " s (too small a step for a double this large); expected a step the clock can add");
        }
        if (world.stepping) {
            throw new IllegalStateException(call + "(dt) called from inside a step");
        }
        List<Binding> bindings = world.registry.bindings();
        for (int bi = 0; bi < bindings.size(); bi++) {
            bindings.get(bi).compactIfSparse();
        }
        world.stepping = true;
        world.interpreters.newCall();
        advanced = builderPhases == ADVANCE ? (float) dt : Float.NaN;
        failures.clear();
        boolean recorded = flight.beginStep();
        try {
            // taken as they stand: a disabled entity's record goes back on the list, for the next tick
            int n = pendingCount;
            pendingCount = 0;
            EntityRecord<?>[] pending = pendingTags;
            pendingTags = spareTags;
            for (int i = 0; i < n; i++) {
                EntityRecord<?> r = pending[i];
                pending[i] = null;
                r.tagsPending = false;
                if (r.world == world) {
                    world.applyTags(r);
                }
            }
            spareTags = pending;
            world.holds.update();
            world.stepStart = clock;
            world.clock = clock + dt;
            world.steps++;
            boolean perMachine = flight.machinesOn();
            for (int bi = 0; bi < bindings.size(); bi++) {
                Binding b = bindings.get(bi);
                int records = flight.records;
                int transitions = flight.transitions;
                if (perMachine) {
                    flight.beginMachine();
                }
                if (b.runtime.polls()) {
                    stepAll(b, dt, builderPhases);
                } else {
                    world.waits.endDue(b);
                    if (b.whenCount() > 0) {
                        world.whens.run(b);
                    }
                }
                if (perMachine) {
                    flight.endMachine(b.states.id(), records, transitions);
                }
            }
        } finally {
            world.stepping = false;
            world.registry.joinLate();
            if (recorded) {
                flight.endStep(call, dt, bindings.size(), failures.size());
            }
        }
    }

    /** Whether an {@code advance} waits for its {@code runStates}: the tick is half done. */
    boolean splitPending() {
        return !Float.isNaN(advanced);
    }

    /** The second half of a split tick: builder-style machines run with the last advance's seconds. */
    void runStates() {
        if (world.stepping) {
            throw new IllegalStateException("runStates() called from inside a step");
        }
        if (Float.isNaN(advanced)) {
            throw new IllegalStateException("runStates() without an advance(dt) before it; a split tick is advance(dt), the"
                    + " tick's work, then runStates()");
        }
        float dt = advanced;
        advanced = Float.NaN;
        world.stepping = true;
        world.interpreters.newCall();
        failures.clear();
        boolean recorded = flight.beginStep();
        List<Binding> bindings = world.registry.bindings();
        try {
            // holds stand as the advance found them: they are read once a tick, at its start
            boolean perMachine = flight.machinesOn();
            for (int bi = 0; bi < bindings.size(); bi++) {
                Binding b = bindings.get(bi);
                if (b.runtime.polls()) {
                    int records = flight.records;
                    int transitions = flight.transitions;
                    if (perMachine) {
                        flight.beginMachine();
                    }
                    stepAll(b, dt, RUN);
                    if (perMachine) {
                        flight.endMachine(b.states.id(), records, transitions);
                    }
                }
            }
        } finally {
            world.stepping = false;
            world.registry.joinLate();
            if (recorded) {
                flight.endStep("runStates", dt, bindings.size(), failures.size());
            }
        }
    }

    /** Hands the tick's failures over: to the handler, or thrown as one exception without one. */
    void handOver(Consumer<MachineFailure> onFailure) {
        if (!failures.isEmpty()) {
            List<MachineFailure> failed = new ArrayList<>(failures);
            failures.clear();
            if (onFailure == null) {
                throw new StepFailedException(world.steps, world.clock, failed);
            }
            // every failure reaches the handler even if it throws on one: the first throw goes to the
            // caller once all were handed over, the later ones suppressed in it
            RuntimeException thrown = null;
            for (MachineFailure f : failed) {
                LOG.log(System.Logger.Level.DEBUG, () -> "step " + world.steps + " of " + world + ": " + f
                        + "; handed to the world's onFailure handler, the step went on");
                try {
                    onFailure.accept(f);
                } catch (RuntimeException e) {
                    if (thrown == null) {
                        thrown = e;
                    } else if (thrown != e) {
                        thrown.addSuppressed(e);
                    }
                }
            }
            if (thrown != null) {
                throw thrown;
            }
        }
    }

    /** Notes a machine's failure: it is stepped no further in this tick, and the tick goes on. */
    void failed(EntityRecord<?> r, RuntimeException e, String eventType) {
        r.quietStep(world.steps);
        MachineException cause = e instanceof MachineException ? (MachineException) e
                : new MachineException(r.machineId(), "machine '" + r.machineId() + "' failed: " + e, e);
        String state = StateValue.describe(r);
        String event = eventType;
        if (e instanceof UserCodeException u) {
            state = u.statePath();
            event = u.eventType();
        }
        String entity = r.entity == null ? "no entity" : r.entity.isDeleted() ? "a despawned entity" : StateWorld.describe(r.entity);
        MachineFailure f = new MachineFailure(r.machineId(), entity, state, event, cause);
        failures.add(f);
        flight.failed(f);
    }

    /** Whether a record runs in this tick: live, not held, and neither joined nor failed in it. */
    private boolean runs(EntityRecord<?> r) {
        long steps = world.steps;
        // a held record is on the holds' list (Holds.mark, restoredHeld): the flag on the record's own
        // line answers for the others, whose hold would be read from another object
        return r != null && !r.quietIn(steps) && !(r.inHeldList && r.isHeld()) && world.registry.alive(r);
    }

    /**
     * Every record of a binding whose style polls, in spawn order: the polled style's clocks,
     * guards outermost first, {@code after} and updates; the builder style's {@code update} or one
     * half of it.
     */
    private void stepAll(Binding b, double dt, int phases) {
        StyleRuntime runtime = b.runtime;
        if (!runtime.stepsIn(phases)) {
            return;
        }
        world.listeners.cause = runtime.stepCause(); // a send inside a move puts it back as it found it
        for (int slot = 0; slot < b.end(); slot++) {
            EntityRecord<?> r = b.at(slot);
            if (!runs(r)) {
                continue;
            }
            flight.records++;
            Scratch scratch = world.interpreters.take(world.stepStart);
            boolean moved = false;
            try {
                moved = runtime.step(scratch, r, dt, phases);
            } catch (RuntimeException e) {
                moved = runtime.failedStepMayHaveMoved();
                failed(r, e, runtime.stepFailure(phases));
            } finally {
                world.interpreters.release();
                if (moved) {
                    flight.transitions++;
                    world.afterMove(r);
                }
            }
        }
    }
}

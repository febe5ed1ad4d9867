package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Keeps a world's last ticks so that it can go back: rollback netcode's client, which predicts
 * with the inputs it has, and when a late input arrives goes back to its tick and steps again to
 * the present.
 *
 * <pre>{@code
 * Rewind rewind = Rewind.keep(world, 10);            // the last 10 ticks
 * rewind.input(w -> bell(w, "guard-7"));            // an input of the tick about to run
 * rewind.step(1 / 60.0);                            // instead of world.step
 * ...
 * rewind.input(tick, w -> bell(w, "guard-3"));      // an input that arrived late, for a kept tick
 * rewind.resimulate();                              // back to that tick, then every tick again
 * }</pre>
 *
 * <p><b>Each tick</b> {@link #step} takes a snapshot of every machine record of the world (their
 * states, waits, clocks, history, pending sends to themselves, holds, and the contexts a
 * {@link ContextBytes} writes) into buffers it reuses, applies the tick's inputs in the order given,
 * then steps the world. Taking the snapshot allocates nothing once the buffers have grown: about
 * 40 bytes a machine for the README's guard (its entry times are written whole, which is faster
 * than tagging each).
 *
 * <p><b>Going back.</b> {@link #resimulate()} goes back to the earliest tick given a late input,
 * then steps every tick again with its inputs and its {@code dt}, up to the present.
 * {@link #rewind(long)} only goes back, forgetting the ticks from there on (inputs included), for
 * a game that steps again itself. Restoring a tick is not a transition: no exit, entry or action
 * runs, and the records are exactly as they were, timers and pending sends included (they fire
 * on the same ticks as in a straight run). Stepping again runs the machines' code as any step does.
 * Entities spawned since the tick go (and a spawn stepped again brings them back with the same
 * key); entities despawned since come back with their key, their machines and the hold components
 * they had, as a new Dominion entity: the game's own other components are the game's to put back,
 * so address entities by {@link EntityKey} in inputs, not by a kept {@code Entity}.
 *
 * <p><b>Listeners</b> hear no move while a rewind and its steps run. Then each machine whose
 * active states differ from what they last heard is told once, with the event {@code "rewind"}:
 * a machine that went A → B → A inside the window is told nothing, one that went A → B → C is
 * told A → C, one whose states are the same but whose wait restarted is told nothing. A
 * rollback game shows the corrected present, not the ticks it replaced: that is why. A machine
 * whose entity leaves is told as it leaves, while the entity can still say its key; an entity
 * spawned again by the steps has new records, told as a spawn.
 *
 * <p><b>Inputs</b> are the game's code, run on the world's thread before the tick's step, again
 * at every resimulation: they must give the same result from the same world (find entities by
 * key, draw no randomness of their own). A world changed outside the inputs (a spawn, a send or
 * a hold between steps) is kept in the next snapshot but not done again by a resimulation.
 *
 * <p><b>Errors.</b> A rewind to a tick not kept (older than the window, or before the world was
 * stepped or restored outside this rewind), an input for a tick after the next one, a rewind or
 * a step from the game's code during a world's call: each throws at once and changes nothing.
 * A world holds one rewind at a time; {@link #close()} lets it go.
 */
public final class Rewind implements AutoCloseable {
    /** The most ticks a rewind keeps. */
    public static final int MAX_TICKS = 4096;

    /** The most inputs one tick takes: a flood of inputs (a hostile client's, a loop's bug) is refused, not kept. */
    public static final int MAX_INPUTS_PER_TICK = 65_536;

    /** An input of one tick: the game's code that changes the world before the tick's step (a send, a spawn, a hold). */
    @FunctionalInterface
    public interface Input {
        /**
         * Applies the input.
         *
         * @param world the world, between steps
         */
        void apply(StateWorld world);
    }

    /**
     * How a {@link Rewind} keeps a machine's context: its fields written into the tick's snapshot and
     * read back on a rewind. A game writes one for each machine whose code changes its context (a
     * counter, a target, a timer of its own); a machine whose context never changes after its spawn
     * needs none ({@link Rewind#sharedContexts}).
     *
     * <pre>{@code
     * rewind.contexts(Guard.MACHINE, new Rewind.ContextBytes<Guard>() {
     *     public void write(Guard guard, ByteBuffer out) { out.putInt(guard.bells); }
     *     public Guard read(Guard guard, ByteBuffer in) { guard.bells = in.getInt(); return guard; }
     * });
     * }</pre>
     *
     * <p>Both run on the world's thread, between steps, once per record per tick for {@code write}:
     * keep them free of allocation and of side effects. The buffer is little-endian and has room
     * for what a context usually writes; a write that overflows it is simply run again with more room,
     * so {@code write} must only write. {@code read} gets back exactly the bytes {@code write} wrote
     * (the next record's are read from where this write ended, whatever the read took). A context
     * takes at most 1 MiB. A {@code write} that throws refuses the tick; a {@code read} that throws
     * leaves that context as it was, every other record coming back, and the rewind then says which.
     *
     * @param <C> the context type
     */
    public interface ContextBytes<C> {
        /**
         * Writes the context's fields at the buffer's position.
         *
         * @param context the record's context
         * @param out     where to write, little-endian
         */
        void write(C context, ByteBuffer out);

        /**
         * Reads back what {@link #write} wrote.
         *
         * @param context the context the record holds now (change it in place and return it, or return a new one)
         * @param in      the bytes, at the buffer's position
         * @return the context the record holds from now on
         */
        C read(C context, ByteBuffer in);
    }

    private final StateWorld world;
    private final int window;
    /** One kept tick, in the ring by {@link #slot}. */
    private static final class Tick {
        /** The records at the tick's start. */
        final WorldSnapshot snapshot = new WorldSnapshot();
        /** Its inputs, in the order given. */
        final List<Input> inputs = new ArrayList<>();
        double dt;
        /** The records spawned with a new entity during it: a rewind to it or before despawns them. */
        final List<EntityRecord<?>> spawned = new ArrayList<>();
        /** The entities with a key despawned during it, and the key: entity, key, pair after pair. */
        final List<Object> despawned = new ArrayList<>();

        /** Empties it for a new use; the snapshot stays until taken again. */
        void forget() {
            inputs.clear();
            spawned.clear();
            despawned.clear();
        }
    }

    private final Tick[] ticks;
    private final WorldSnapshot.Contexts contexts = new WorldSnapshot.Contexts();
    /** The tick the next step runs. */
    private long present;
    /** The oldest tick whose snapshot is kept. */
    private long oldest;
    /** The furthest tick the world has reached: a slot is recycled when the world first reaches its new tick, not when a resimulation does. */
    private long frontier;
    /** The earliest tick given an input since it ran, or {@link Long#MAX_VALUE}. */
    private long lateFrom = Long.MAX_VALUE;
    private boolean closed;
    /** While a call of this rewind runs: a listener told of its net changes cannot start another. */
    private boolean busy;

    private Rewind(StateWorld world, int window) {
        this.world = world;
        this.window = window;
        ticks = new Tick[window + 1]; // the kept ticks and the present's inputs
        for (int i = 0; i < ticks.length; i++) {
            ticks[i] = new Tick();
        }
        present = world.steps;
        oldest = present;
        frontier = present;
    }

    /**
     * Starts keeping the world's last {@code ticks} ticks, from its next step.
     *
     * @param world the world, between steps, on its thread
     * @param ticks how many ticks to keep, 1 to {@link #MAX_TICKS}
     * @return the rewind
     * @throws IllegalArgumentException if {@code ticks} is out of range
     * @throws IllegalStateException    if the world already has a rewind, or is in the middle of a call
     */
    public static Rewind keep(StateWorld world, int ticks) {
        Objects.requireNonNull(world, "world");
        if (ticks < 1 || ticks > MAX_TICKS) {
            throw new IllegalArgumentException("a rewind keeps 1 to " + MAX_TICKS + " ticks; got " + ticks
                    + " (rollback games keep 8 to 64 at 60 Hz)");
        }
        world.checkAtRest("a rewind's start");
        if (world.rewind != null) {
            throw new IllegalStateException(world + " already has a rewind keeping its ticks; close it before keeping them with another");
        }
        Rewind r = new Rewind(world, ticks);
        world.rewind = r;
        return r;
    }

    /**
     * Writes and reads the contexts of {@code machine}'s records with {@code codec}.
     *
     * @param <C>     the context type
     * @param machine the machine
     * @param codec   the game's codec for its contexts
     * @return this rewind
     */
    public <C> Rewind contexts(States<C> machine, ContextBytes<C> codec) {
        contexts.codec(Objects.requireNonNull(machine, "machine"), Objects.requireNonNull(codec, "codec"));
        return this;
    }

    /**
     * Keeps the contexts of {@code machine}'s records by reference: for a context its machine's
     * code never changes after the spawn (settings, a shared table). Without this or a codec, a
     * machine whose records hold a context cannot be kept: {@link #step} says so.
     *
     * @param machine the machine
     * @return this rewind
     */
    public Rewind sharedContexts(States<?> machine) {
        contexts.share(Objects.requireNonNull(machine, "machine"));
        return this;
    }

    /**
     * The tick the next {@link #step} runs.
     *
     * @return the world's step count
     */
    public long tick() {
        return present;
    }

    /**
     * The oldest tick kept: {@link #rewind} goes back to it at most.
     *
     * @return the tick, {@link #tick()} when none is kept yet
     */
    public long oldest() {
        return oldest;
    }

    /**
     * The size of a kept tick's snapshot.
     *
     * @param tick a kept tick
     * @return its bytes (the references it keeps to events and shared contexts aside)
     * @throws IllegalArgumentException if the tick is not kept
     */
    public int bytes(long tick) {
        checkOpen();
        checkKept(tick, "bytes");
        return at(tick).snapshot.bytes.size();
    }

    private Tick at(long tick) {
        return ticks[(int) Math.floorMod(tick, (long) ticks.length)];
    }

    /**
     * Adds an input to the tick the next {@link #step} runs.
     *
     * @param input the game's code
     */
    public void input(Input input) {
        input(present, input);
    }

    /**
     * Adds an input to a tick: the next one, or a kept one (a late input), which
     * {@link #resimulate()} then steps again. Inputs of a tick apply in the order given.
     *
     * @param tick  the tick, from {@link #oldest()} to {@link #tick()}
     * @param input the game's code
     * @throws IllegalArgumentException for a tick after the next one or not kept; nothing changes
     */
    public void input(long tick, Input input) {
        Objects.requireNonNull(input, "input");
        checkOpen();
        follow();
        if (tick > present) {
            throw new IllegalArgumentException("an input for tick " + tick + " of " + world + " is in the future: the next tick is "
                    + present + "; expected a tick from " + oldest + " to " + present + ". Nothing was changed.");
        }
        if (tick < present) {
            checkKept(tick, "an input");
        }
        List<Input> in = at(tick).inputs;
        if (in.size() >= MAX_INPUTS_PER_TICK) {
            throw new IllegalStateException("tick " + tick + " of " + world + " already has " + MAX_INPUTS_PER_TICK + " inputs, the most"
                    + " a tick takes; expected fewer (batch them into one input). Nothing was changed.");
        }
        if (tick < present) {
            lateFrom = Math.min(lateFrom, tick);
        }
        in.add(input);
    }

    /**
     * Forgets the inputs given to a tick (the next one, or a kept one a resimulation steps again), as
     * a game does with inputs it predicted before the real ones arrived.
     *
     * @param tick the tick, from {@link #oldest()} to {@link #tick()}
     * @throws IllegalArgumentException for a tick after the next one or not kept; nothing changes
     */
    public void clearInputs(long tick) {
        checkOpen();
        follow();
        if (tick > present) {
            throw new IllegalArgumentException("tick " + tick + " of " + world + " is in the future: the next tick is " + present
                    + "; expected a tick from " + oldest + " to " + present + ". Nothing was changed.");
        }
        if (tick < present) {
            checkKept(tick, "clearing inputs");
            lateFrom = Math.min(lateFrom, tick);
        }
        at(tick).inputs.clear();
    }

    /**
     * Takes the tick's snapshot, applies its inputs, then steps the world by {@code dt}.
     *
     * @param dt the step's length, as {@link StateWorld#step}
     * @throws IllegalStateException from the game's code during a world's call, or when a machine's
     *                               context cannot be kept; nothing changes then
     */
    public void step(double dt) {
        checkOpen();
        world.checkAtRest("a rewind's step");
        follow();
        busy = true;
        try {
            runTick(dt, false);
        } finally {
            busy = false;
        }
    }

    /** Runs the present tick; returns the failures of inputs it dropped ({@code goOn}) or throws the first (nothing changed). */
    private RuntimeException runTick(double dt, boolean goOn) {
        long tick = present;
        Tick t = at(tick);
        t.snapshot.take(world, contexts); // a context it cannot keep throws before anything changes
        oldest = Math.max(oldest, tick - window + 1);
        RuntimeException failed = applyInputs(tick, goOn);
        t.dt = dt;
        try {
            world.step(dt);
        } finally {
            present = world.steps;
            if (present == tick + 1 && present > frontier) {
                frontier = present;
                forget(present); // its slot held the tick that left the window
            }
        }
        return failed;
    }

    /**
     * Applies a tick's inputs, its snapshot just taken. An input that throws is dropped and the
     * world goes back to the snapshot, undoing the inputs before it. Then either the failure is
     * thrown, the world as it was before the tick's inputs (a step: the game may step again), or
     * ({@code goOn}, a resimulation) the tick's other inputs are applied again and the failure is
     * returned, to be thrown once the present is reached.
     */
    private RuntimeException applyInputs(long tick, boolean goOn) {
        List<Input> in = at(tick).inputs;
        RuntimeException failed = null;
        int k = 0;
        while (k < in.size()) {
            try {
                in.get(k).apply(world);
                if (world.steps != tick) {
                    throw new IllegalStateException("the input stepped or restored the world itself, from step " + tick + " to "
                            + world.steps + "; a tick's inputs change the world, and the rewind steps it");
                }
                k++;
            } catch (RuntimeException e) {
                in.remove(k);
                world.listeners.mute();
                IllegalStateException unread;
                try {
                    unread = restore(tick);
                } finally {
                    tellNetChanges();
                }
                if (unread != null) {
                    e.addSuppressed(unread);
                }
                IllegalStateException f = new IllegalStateException("input " + (k + 1) + " of tick " + tick + " of " + world
                        + " threw " + e + "; it is dropped, and the tick's other inputs " + (goOn ? "were applied again"
                        : "are undone: the world is as it was before the tick's inputs") + ". Nothing else was changed.", e);
                if (!goOn) {
                    throw f;
                }
                if (failed == null) {
                    failed = f;
                } else {
                    failed.addSuppressed(f);
                }
                k = 0;
            }
        }
        return failed;
    }

    /** Empties a tick's slot for its new use. */
    private void forget(long tick) {
        at(tick).forget();
    }

    /**
     * Goes back to the start of {@code tick} and steps again, with each tick's inputs and
     * {@code dt}, up to the present; listeners then hear each machine's net change only. Nothing
     * to do (returns 0) unless an input was given to a kept tick since it ran.
     *
     * @return how many ticks were stepped again
     * @throws IllegalStateException from the game's code during a world's call; nothing changes then
     */
    public long resimulate() {
        checkOpen();
        world.checkAtRest("a resimulation");
        follow();
        if (lateFrom == Long.MAX_VALUE) {
            return 0;
        }
        long from = lateFrom;
        if (from < oldest) { // the window passed it
            lateFrom = Long.MAX_VALUE;
            return 0;
        }
        long to = present;
        RuntimeException failed = null;
        busy = true;
        world.listeners.mute();
        try {
            failed = restore(from);
            lateFrom = Long.MAX_VALUE;
            while (present < to) {
                RuntimeException dropped;
                try {
                    dropped = runTick(at(present).dt, true);
                } catch (StepFailedException e) {
                    // machines failed in a tick stepped again: the step went on for the others, and so do the ticks
                    dropped = e;
                    present = world.steps;
                }
                if (dropped != null) {
                    if (failed == null) {
                        failed = dropped;
                    } else {
                        failed.addSuppressed(dropped);
                    }
                }
            }
        } finally {
            try {
                tellNetChanges(); // still busy: a listener told now cannot start another call
            } finally {
                busy = false;
            }
        }
        world.listeners.throwPending();
        if (failed != null) {
            throw failed;
        }
        return to - from;
    }

    /**
     * Goes back to the start of {@code tick}, before its inputs, and forgets the ticks from there
     * on with their inputs: the game steps again itself. Listeners hear each machine's net change.
     *
     * @param tick a kept tick, from {@link #oldest()} to {@link #tick()} ({@link #tick()}: nothing to do)
     * @throws IllegalArgumentException if the tick is not kept or in the future; nothing changes
     * @throws IllegalStateException    from the game's code during a world's call; nothing changes
     */
    public void rewind(long tick) {
        checkOpen();
        world.checkAtRest("a rewind");
        follow();
        if (tick > present) {
            throw new IllegalArgumentException("cannot rewind " + world + " to tick " + tick + ", which is in the future: the next"
                    + " tick is " + present + "; expected a tick from " + oldest + " to " + present + ". Nothing was changed.");
        }
        if (tick == present) {
            return;
        }
        checkKept(tick, "a rewind");
        long to = present;
        IllegalStateException unread;
        busy = true;
        world.listeners.mute();
        try {
            unread = restore(tick);
        } finally {
            try {
                tellNetChanges(); // still busy: a listener told now cannot start another call
            } finally {
                busy = false;
            }
        }
        for (long t = tick; t <= to; t++) {
            at(t).inputs.clear();
        }
        frontier = tick;
        lateFrom = Long.MAX_VALUE;
        world.listeners.throwPending();
        if (unread != null) {
            throw unread;
        }
    }

    /** Tells the listeners each machine's net change, as a call of the world's: a listener cannot close it under the telling. */
    private void tellNetChanges() {
        boolean began = world.underWay.begin("a rewind", null, null);
        try {
            world.listeners.unmute(world.registry.bindings());
        } finally {
            world.underWay.end(began);
        }
    }

    /**
     * Writes tick {@code tick}'s snapshot back into the world; the present becomes that tick.
     * Returns the failure of a context's codec that threw reading back (every record is back, that
     * context as it was), or {@code null}.
     */
    private IllegalStateException restore(long tick) {
        List<EntityRecord<?>> since = new ArrayList<>();
        List<Object> keys = new ArrayList<>();
        for (long t = tick; t <= present; t++) {
            since.addAll(at(t).spawned);
            keys.addAll(at(t).despawned);
        }
        IllegalStateException failed = null;
        boolean began = world.underWay.begin("a rewind", null, null);
        try {
            at(tick).snapshot.restore(world, contexts, since, keyFinder(keys));
        } catch (IllegalStateException e) {
            failed = e; // a context's codec threw reading back: every record is back, that context as it was
        } finally {
            world.underWay.end(began);
        }
        // the ticks after it are gone; the tick's own spawns before its snapshot stay (an earlier tick lacks them)
        at(tick).spawned.removeIf(r -> r.world != world);
        for (long t = tick + 1; t <= present; t++) {
            at(t).spawned.clear();
            at(t).despawned.clear();
        }
        present = tick;
        return failed;
    }

    /**
     * Writes a kept tick into another world, one that holds no machine yet: its clock, its
     * entities with their keys, their machines' records (contexts read into fresh ones by their
     * codec) and hold components, as they were at the start of that tick. The way to look at a past
     * tick without going back (a devtools page, a test), and, with a checkpoint of that world, the
     * tick as JSON.
     *
     * @param tick a kept tick, from {@link #oldest()} to {@link #tick()} - 1
     * @param into an empty world, between steps, on this thread
     * @throws IllegalArgumentException if the tick is not kept, or {@code into} holds machines or is this rewind's world
     */
    public void copyTo(long tick, StateWorld into) {
        Objects.requireNonNull(into, "into");
        checkOpen();
        follow();
        checkKept(tick, "a copy");
        if (into == world || !into.machines().isEmpty()) {
            throw new IllegalArgumentException("a copy of tick " + tick + " of " + world + " goes into a world that holds no machine"
                    + " yet; " + into + " holds " + into.machines().size() + ". Nothing was changed.");
        }
        into.checkAtRest("a copy of a kept tick");
        List<Object> keys = new ArrayList<>();
        for (long t = tick; t <= present; t++) {
            keys.addAll(at(t).despawned);
        }
        boolean began = into.underWay.begin("a copy of a kept tick", null, null);
        try {
            at(tick).snapshot.copyInto(into, contexts, keyFinder(keys));
        } finally {
            into.underWay.end(began);
        }
    }

    private static java.util.function.Function<Entity, EntityKey> keyFinder(List<Object> keys) {
        return old -> {
            for (int k = 0; k < keys.size(); k += 2) {
                if (keys.get(k) == old) {
                    return (EntityKey) keys.get(k + 1);
                }
            }
            return null;
        };
    }

    /** Records spawned with a new entity, now: a rewind to an earlier tick despawns it. */
    void spawned(List<EntityRecord<?>> records) {
        at(present).spawned.addAll(records);
    }

    /** An entity with a key despawned now: a rewind to an earlier tick brings it back with it. */
    void despawned(Entity entity, EntityKey key) {
        List<Object> d = at(present).despawned;
        d.add(entity);
        d.add(key);
    }

    /** A machine of the world swapped to another definition: the kept ticks hold the older one's records, so they are forgotten. */
    void swapped() {
        forgetAll();
    }

    /** A world stepped or restored outside this rewind since: the kept ticks no longer lead to it, so they are forgotten. */
    private void follow() {
        if (world.steps != present) {
            forgetAll();
        }
    }

    private void forgetAll() {
        for (Tick t : ticks) {
            t.snapshot.clear();
            t.forget();
        }
        present = world.steps;
        oldest = present;
        frontier = present;
        lateFrom = Long.MAX_VALUE;
    }

    private void checkKept(long tick, String what) {
        if (tick < oldest || tick >= present || !at(tick).snapshot.taken()) {
            throw new IllegalArgumentException(what + " for tick " + tick + " of " + world + ": that tick is not kept; this rewind keeps"
                    + " the last " + window + " ticks, " + (oldest < present ? "now " + oldest + " to " + (present - 1) : "none yet")
                    + " (ticks stepped or restored outside it are not kept). Nothing was changed.");
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("this rewind of " + world + " was closed");
        }
        world.checkThread();
        if (busy) {
            throw new IllegalStateException("a call of the rewind of " + world + " came from the game's code (an input or a listener)"
                    + " while the rewind was stepping or going back; expected a call after it returns. Nothing was changed.");
        }
    }

    /** Stops keeping ticks: the world may take another rewind. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            if (world.rewind == this) {
                world.rewind = null;
            }
            for (Tick t : ticks) {
                t.snapshot.clear();
                t.forget();
            }
        }
    }

    @Override
    public String toString() {
        return "Rewind[" + world + ", ticks " + oldest + ".." + present + " of " + window + "]";
    }
}

package dev.enginestates.ecs;

import dev.enginestates.MachineListener;
import dev.enginestates.declare.UserCodeException;
import dev.enginestates.records.MachineRecord;

import java.util.Arrays;
import java.util.Objects;

/**
 * A world's listeners and what they were last told of each record. With none added, the world
 * asks {@link #any()} and does nothing more. With some, after each move the record's entries
 * counter and wait are compared with what was last reported, and the active leaves are spelled
 * out only when something was entered. A listener that throws fails its machine like the
 * machine's own code: handed over after the step during one, thrown once the move has ended
 * outside one.
 */
final class Listeners {
    private static final Entry[] NONE = new Entry[0];

    /** One listener, for one machine or ({@code machine == null}) for all. */
    private record Entry(States<?> machine, MachineListener<? super EntityRecord<?>> listener) {
    }

    /** What the listeners were last told of one record, made the first time it is told of (cold: kept off the record). */
    static final class Told {
        long entries;
        /** The leaves as last told ({@code ""}: none yet; {@code null}: not told of, as it left the world). */
        String state;
        int wait = -1;
        double waitStart;
    }

    private final StateWorld world;
    private Entry[] entries = NONE;
    /** What is moving the records now (see {@link MachineListener#stateChanged}); set by each entry point. */
    String cause = "";
    /** A listener's failure outside a step, thrown once the call that moved the machine has ended. */
    private UserCodeException pending;
    /**
     * How many listener loops are running: a listener may despawn, and the records that leave then
     * are told of once the loop that told of their move has reached every listener, so each
     * listener hears a record's moves in the order they happened.
     */
    private int telling;
    private EntityRecord<?>[] leftLater = new EntityRecord<?>[4];
    private int leftLaterCount;
    private boolean draining;
    /**
     * Above 0 while a rewind and its resimulation run ({@link Rewind}): listeners hear none of the
     * intermediate moves, and each record's {@link Told} keeps what they heard before, so that
     * {@link #unmute} tells each machine's net change only. A record leaving the world is told
     * even then, as it leaves: its entity can still say its key.
     */
    private int muted;

    Listeners(StateWorld world) {
        this.world = world;
    }

    boolean any() {
        return entries.length > 0;
    }

    @SuppressWarnings("unchecked")
    void add(States<?> machine, MachineListener<?> listener) {
        Objects.requireNonNull(listener, "listener");
        if (!any()) {
            // from now on records are compared with what they hold now, not with what they held unheard
            for (Binding b : world.registry.all()) {
                for (int slot = 0; slot < b.end(); slot++) {
                    EntityRecord<?> r = b.at(slot);
                    if (r != null && r.world == world) {
                        remember(r);
                    }
                }
            }
        }
        entries = Arrays.copyOf(entries, entries.length + 1);
        entries[entries.length - 1] = new Entry(machine, (MachineListener<? super EntityRecord<?>>) listener);
    }

    /** Listeners of {@code from} hear {@code to}, which its records swapped to. */
    @SuppressWarnings("unchecked")
    void machineSwapped(States<?> from, States<?> to) {
        for (int i = 0; i < entries.length; i++) {
            if (entries[i].machine == from) {
                entries[i] = new Entry(to, entries[i].listener);
            }
        }
    }

    /**
     * What was told of a record swapped to another definition, carried to its new record: only
     * what differs is then told ({@code wait}: the told wait's state in the new chart, -1 if it has none there).
     */
    void carried(Told told, EntityRecord<?> to, int wait) {
        Told t = to.toldOrNew();
        t.entries = told.entries;
        t.state = told.state;
        t.wait = wait;
        t.waitStart = told.waitStart;
    }

    boolean remove(MachineListener<?> listener) {
        for (int i = 0; i < entries.length; i++) {
            if (entries[i].listener == listener) {
                Entry[] next = new Entry[entries.length - 1];
                System.arraycopy(entries, 0, next, 0, i);
                System.arraycopy(entries, i + 1, next, i, entries.length - i - 1);
                entries = next;
                return true;
            }
        }
        return false;
    }

    /** Notes what a record holds now as already told. */
    private static void remember(EntityRecord<?> r) {
        MachineRecord rec = r;
        Told t = r.toldOrNew();
        t.entries = rec.entries();
        t.state = r.state();
        t.wait = rec.waitState();
        t.waitStart = rec.waitStart();
    }

    /** Stops telling anything until {@link #unmute}. */
    void mute() {
        muted++;
    }

    /**
     * Tells the listeners, for every record of the world, the net change since they were muted:
     * a record whose leaves differ from what they last heard is told as one change (cause
     * {@code "rewind"}, with its wait's end and start); one whose leaves are the same is told
     * nothing, even if it left and came back to them or its wait restarted; one that joined while
     * muted (or came back after it left) is told of as a spawn.
     */
    void unmute(java.util.List<Binding> bindings) {
        if (--muted > 0 || !any()) {
            return;
        }
        for (Binding b : bindings) {
            for (int i = 0; i < b.end(); i++) {
                EntityRecord<?> r = b.at(i);
                if (r == null) {
                    continue;
                }
                Told t = r.told();
                if (t == null || t.state == null) {
                    joined(r);
                } else if (t.state.equals(r.state())) {
                    remember(r); // the same leaves: nothing to tell, whatever happened in between
                } else {
                    overwritten(r, "rewind");
                }
            }
        }
    }

    /** A record joined the world. */
    void joined(EntityRecord<?> r) {
        if (muted > 0) {
            return; // told at unmute, against what was heard before
        }
        Told t = r.toldOrNew();
        t.entries = r.entries();
        t.state = "";
        t.wait = -1;
        overwritten(r, "spawn");
    }

    /** A record written as a whole ({@code why}: spawn, set, restore): compared with what was told, whatever its entries say. */
    void overwritten(EntityRecord<?> r, String why) {
        if (muted > 0) {
            return;
        }
        String was = cause;
        cause = why;
        try {
            told(r, true);
        } finally {
            cause = was;
        }
    }

    /** Whether a listener is being told something now: what it does is then part of the call that told it, not the game's input. */
    boolean telling() {
        return telling > 0;
    }

    /** A record left the world (detached, despawned, or its entity deleted). */
    void left(EntityRecord<?> r) {
        if (telling > 0) {
            leftLater = StateWorld.push(leftLater, leftLaterCount++, r);
            return;
        }
        Told t = r.told();
        String from = t == null ? null : t.state;
        if (from == null) {
            return; // never told of: nothing to take back
        }
        int wait = t.wait;
        t.state = null;
        t.wait = -1;
        if (wait >= 0) {
            waitEnded(r, r.states.chart().path[wait], false);
        }
        if (!from.isEmpty()) {
            stateChanged(r, from, "", "despawn");
        }
    }

    /** After a move (or an overwrite, when {@code always}): tells the listeners what changed. */
    void told(EntityRecord<?> r, boolean always) {
        Told t = r.told();
        if (t == null || muted > 0) {
            return; // never told of (joined before any listened): nothing to compare with
        }
        MachineRecord rec = r;
        int wait = rec.waitState();
        double waitStart = rec.waitStart();
        boolean waitMoved = wait != t.wait || (wait >= 0 && waitStart != t.waitStart);
        if (waitMoved && t.wait >= 0) {
            int before = t.wait;
            t.wait = -1;
            waitEnded(r, r.states.chart().path[before], "states.wait".equals(cause));
        }
        long entries = rec.entries();
        if ((always || entries != t.entries) && t.state != null) {
            t.entries = entries;
            String now = r.state();
            String before = t.state;
            t.state = now;
            if (!now.equals(before)) {
                stateChanged(r, before, now, cause);
            }
        }
        // a listener told of the change may have taken the record out of the world: then no wait starts
        if (waitMoved && wait >= 0 && r.world == world && t.state != null) {
            t.wait = wait;
            t.waitStart = waitStart;
            waitStarted(r, r.states.chart().path[wait], rec.waitSeconds());
        }
    }

    private static final int REFUSED = 0;
    private static final int CHANGED = 1;
    private static final int WAIT_STARTED = 2;
    private static final int WAIT_ENDED = 3;

    /** An event was sent and no state took it. */
    void refused(EntityRecord<?> r, String event) {
        if (muted > 0) {
            return;
        }
        tellAll(REFUSED, r, event, null, event, 0, false);
    }

    private void stateChanged(EntityRecord<?> r, String from, String to, String event) {
        tellAll(CHANGED, r, from, to, event, 0, false);
    }

    private void waitStarted(EntityRecord<?> r, String state, double seconds) {
        tellAll(WAIT_STARTED, r, state, null, cause, seconds, false);
    }

    private void waitEnded(EntityRecord<?> r, String state, boolean elapsed) {
        tellAll(WAIT_ENDED, r, state, null, cause, 0, elapsed);
    }

    /**
     * Tells every listener of the record's machine one thing ({@code kind}); a listener's failure is
     * its machine's. One loop for the four calls, with no lambda: it runs on the move's path.
     */
    private void tellAll(int kind, EntityRecord<?> r, String a, String b, String event, double seconds, boolean elapsed) {
        telling++;
        try {
            for (Entry e : entries) {
                if (e.machine == null || e.machine == r.states) {
                    jdk.jfr.Event timer = dev.enginestates.algorithm.Flight.timeCode();
                    try {
                        switch (kind) {
                            case REFUSED -> e.listener.eventRefused(r, a);
                            case CHANGED -> e.listener.stateChanged(r, a, b, event);
                            case WAIT_STARTED -> e.listener.waitStarted(r, a, seconds);
                            default -> e.listener.waitEnded(r, a, elapsed);
                        }
                        if (timer != null) {
                            dev.enginestates.algorithm.Flight.timed(timer, r.machineId(), r.self(), kind == CHANGED ? b : a, event,
                                    "listener", e.listener.getClass().getName());
                        }
                    } catch (Throwable x) {
                        failed(r, x, event);
                    }
                }
            }
        } finally {
            doneTelling();
        }
    }

    /** The end of a listener loop: the outermost tells of the records that left during it. */
    private void doneTelling() {
        if (--telling > 0 || leftLaterCount == 0 || draining) {
            return;
        }
        draining = true;
        try {
            for (int i = 0; i < leftLaterCount; i++) { // a listener told of a leaving may despawn more: they join the end
                EntityRecord<?> r = leftLater[i];
                leftLater[i] = null;
                left(r);
            }
        } finally {
            java.util.Arrays.fill(leftLater, 0, leftLaterCount, null);
            leftLaterCount = 0;
            draining = false;
        }
    }

    private void failed(EntityRecord<?> r, Throwable x, String event) {
        Told t = r.told();
        String state = t == null || t.state == null ? "" : t.state;
        UserCodeException u = new UserCodeException(r.machineId(), state, event, "a listener", x);
        if (world.stepping) {
            world.ticks.failed(r, u, event);
        } else if (pending == null) {
            pending = u.on(StateWorld.describe(r.entity));
        } else {
            pending.addSuppressed(u.on(StateWorld.describe(r.entity))); // several records written in one call: none is lost
        }
    }

    /** Hands a failure noted outside a step to {@code e}, which is being thrown instead, as a suppressed one. */
    void addPendingTo(Throwable e) {
        UserCodeException u = pending;
        if (u != null) {
            pending = null;
            if (u != e) {
                e.addSuppressed(u);
            }
        }
    }

    /** Throws a listener's failure noted outside a step, once the call that moved the machine has ended. */
    void throwPending() {
        UserCodeException u = pending;
        if (u != null) {
            pending = null;
            throw u;
        }
    }
}

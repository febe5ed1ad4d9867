package dev.enginestates.ecs;

import dev.enginestates.algorithm.Interpreter;
import dev.enginestates.algorithm.TimeRules;
import dev.enginestates.records.MachineRecord;

/**
 * The waits of a world's XState-style machines: each machine's due times sit in a timing wheel
 * by record slot ({@link Binding#waits}), and each tick takes the waits that fall due within it, in time
 * order, chained ones included, each batch of equal due times in spawn order. A waiting machine
 * costs nothing until its wait is due.
 */
final class DueWaits {
    static {
        if (TimeRules.MAX_WAITS_PER_STEP >= 128) {
            throw new AssertionError("WaitWheel.mark counts a step's waits in 7 bits");
        }
    }

    private static final String WAIT = "states.wait";
    private final StateWorld world;
    /**
     * The machines that hit the cap (or joined or failed) in this binding's pass, out of both wheels
     * until the pass ends: one list for waits and sends, as putting one back reschedules both, and a
     * wait or send put back while the pass runs would be due again at once.
     */
    private EntityRecord<?>[] deferred = new EntityRecord<?>[16];
    private int deferredCount;
    /** The slots of the waits of one due time, in spawn order (slots, not records: no reference stores a wait). */
    private int[] batch = new int[64];

    DueWaits(StateWorld world) {
        this.world = world;
    }

    /** Puts a record's due time in its machine's wheel (or takes it out when nothing counts). */
    void schedule(EntityRecord<?> r) {
        if (r.world != world) {
            return;
        }
        double due = r.waitDue();
        WaitWheel w = r.binding.waits;
        if (due == Double.POSITIVE_INFINITY) {
            w.remove(r.slot);
        } else {
            w.set(r.slot, due);
        }
        double send = r.nextSendDue();
        WaitWheel s = r.binding.sends;
        if (send != Double.POSITIVE_INFINITY) {
            if (s == null) {
                s = r.binding.sends = new WaitWheel();
            }
            s.set(r.slot, send);
        } else if (s != null) {
            s.remove(r.slot);
        }
    }

    /**
     * Takes a machine's waits and delivers its sends to itself that fall due within the tick, in
     * time order: the waits due by a send's time (a wait before a send due with it), then the
     * batch of sends due at that time in slot (spawn) order, each machine's at its own due time,
     * and so on; a machine that sent itself nothing costs nothing more than its waits.
     */
    void endDue(Binding b) {
        try {
            endDueSendsAndWaits(b);
        } finally {
            putBackDeferred();
        }
    }

    private void endDueSendsAndWaits(Binding b) {
        WaitWheel s = b.sends;
        double now = world.clock + TimeRules.TIME_TOLERANCE;
        if (s == null || s.size() == 0) {
            endDueWaits(b, now);
            return;
        }
        s.advance(now);
        while (true) {
            double at = s.peekDue();
            if (at > now) {
                break;
            }
            endDueWaits(b, at);
            int n = takeBatch(s, at);
            int i = 0;
            try {
                for (; i < n; i++) {
                    EntityRecord<?> r = b.at(batch[i]);
                    if (r != null && !deliver(r)) {
                        defer(r);
                    }
                }
            } finally {
                deferRest(b, i, n);
            }
        }
        endDueWaits(b, now);
    }

    private void defer(EntityRecord<?> r) {
        deferred = StateWorld.push(deferred, deferredCount++, r);
    }

    /**
     * What escaped the game's code (an {@code Error}: user code's exceptions are caught per
     * machine) leaves the batch part taken: the machines not reached go back in the wheels with the
     * one it escaped from, so no other machine's wait or send is lost.
     */
    private void deferRest(Binding b, int from, int n) {
        for (int i = from; i < n; i++) {
            EntityRecord<?> r = b.at(batch[i]);
            if (r != null) {
                defer(r);
            }
        }
    }

    /** The deferred machines' waits and sends go back in their wheels, due for the next tick. */
    private void putBackDeferred() {
        int n = deferredCount;
        deferredCount = 0;
        for (int i = 0; i < n; i++) {
            EntityRecord<?> r = deferred[i];
            deferred[i] = null;
            schedule(r);
        }
    }

    /** Delivers a record's due send to itself; false when it is not to move in this tick (joined or failed in it, or hit the cap). */
    private boolean deliver(EntityRecord<?> r) {
        if (!world.registry.alive(r)) {
            return true;
        }
        long steps = world.steps;
        WaitWheel w = r.binding.waits;
        long mark = w.mark(r.slot); // shared with the waits: one cap on a machine's timed moves in a step
        if (mark >> 7 != steps) {
            mark = steps << 7;
        }
        if (r.quietIn(steps) || (mark & 127) >= TimeRules.MAX_WAITS_PER_STEP) {
            w.mark(r.slot, mark);
            return false;
        }
        w.mark(r.slot, mark + 1);
        MachineRecord rec = r;
        double due = rec.nextSendDue();
        if (due > world.clock + TimeRules.TIME_TOLERANCE) {
            schedule(r); // changed since it was queued; keep it current
            return true;
        }
        String type = rec.sendEvent(0).type();
        world.ticks.flight.records++;
        world.listeners.cause = type;
        Interpreter in = world.interpreters.xstate(due);
        if (rec.chart().hasWhen) {
            r.binding.moved(r.slot, world.steps, due); // its when rules are tested from then on in this tick
        }
        try {
            in.deliverSend(rec);
        } catch (RuntimeException e) {
            world.ticks.failed(r, e, type);
        } finally {
            world.moved(r);
        }
        return true;
    }

    /**
     * Takes a machine's waits that fall due within the tick: each batch of equal due times comes
     * out of the wheel in slot order, which within a tick is spawn order (holes are closed up only
     * between ticks), and is taken whole before the waits it chains are looked at.
     */
    private void endDueWaits(Binding b, double now) {
        WaitWheel w = b.waits;
        w.advance(now);
        while (w.peekDue() <= now) {
            double at = w.peekDue();
            int n = takeBatch(w, at);
            int i = 0;
            try {
                for (; i < n; i++) {
                    // a slot keeps its record through the tick, or is a hole once the record left (its code may despawn others)
                    EntityRecord<?> r = b.at(batch[i]);
                    if (r != null && !take(r)) {
                        defer(r); // its wait stays due for the next tick
                    }
                }
            } finally {
                deferRest(b, i, n);
            }
        }
    }

    /** Ends one due wait; false when the machine is not to take it in this tick (it joined or failed in it, or hit the cap). */
    private boolean take(EntityRecord<?> r) {
        if (!world.registry.alive(r)) {
            return true;
        }
        long steps = world.steps;
        WaitWheel w = r.binding.waits;
        long mark = w.mark(r.slot); // the waits it ended in a step, and which step: step * 128 + count
        if (mark >> 7 != steps) {
            mark = steps << 7;
        }
        if (r.quietIn(steps) || (mark & 127) >= TimeRules.MAX_WAITS_PER_STEP) {
            w.mark(r.slot, mark);
            return false;
        }
        w.mark(r.slot, mark + 1);
        Listeners listeners = world.listeners;
        if (listeners.cause != WAIT) {
            listeners.cause = WAIT; // stored only when it changed: a reference store costs a GC barrier
        }
        try {
            end(r);
        } catch (RuntimeException e) {
            world.ticks.failed(r, e, "states.wait");
        }
        return true;
    }

    private void end(EntityRecord<?> r) {
        MachineRecord rec = r;
        int s = rec.waitState();
        double due = rec.waitDue();
        if (s < 0 || due > world.clock + TimeRules.TIME_TOLERANCE) {
            schedule(r); // changed since it was queued; keep it current
            return;
        }
        Interpreter in = world.interpreters.xstate(due);
        if (rec.chart().hasWhen) {
            r.binding.moved(r.slot, world.steps, due); // its when rules are tested from then on in this tick
        }
        WorldFlight flight = world.ticks.flight;
        flight.records++;
        flight.transitions++;
        try {
            TimeRules.endWait(in, rec);
        } finally {
            world.moved(r);
        }
    }

    /** Polls into {@link #batch} every slot of the wheel due exactly at {@code at}, in slot order: how many. */
    private int takeBatch(WaitWheel wheel, double at) {
        int n = 0;
        while (wheel.peekDue() == at) {
            if (n == batch.length) {
                batch = java.util.Arrays.copyOf(batch, n * 2);
            }
            batch[n++] = wheel.poll();
        }
        return n;
    }
}

package dev.enginestates.ecs;

import dev.enginestates.algorithm.Interpreter;
import dev.enginestates.algorithm.TimeRules;
import dev.enginestates.records.MachineRecord;

import java.util.Arrays;

/**
 * The waits of a world's XState-style machines: each machine's due times sit in a heap
 * ({@link Binding#timers}), and each tick takes the waits that fall due within it, in time
 * order, chained ones included, each batch of equal due times in spawn order. A waiting machine
 * costs nothing until its wait is due.
 */
final class DueWaits {
    private final StateWorld world;
    private StateRecord<?>[] deferred = new StateRecord<?>[16];
    /** The waits of one due time, as the heap gives them, then in spawn order. */
    private StateRecord<?>[] batch = new StateRecord<?>[64];
    private StateRecord<?>[] ordered = new StateRecord<?>[64];
    private long[] batchKeys = new long[64];

    DueWaits(StateWorld world) {
        this.world = world;
    }

    /** Puts a record's due time in its machine's heap (or takes it out when nothing counts). */
    void schedule(StateRecord<?> r) {
        if (r.world != world) {
            return;
        }
        double due = r.record.waitDue();
        Binding b = r.binding;
        if (due == Double.POSITIVE_INFINITY) {
            b.timers.remove(r);
        } else {
            b.timers.set(r, due);
        }
    }

    /** Takes a machine's waits that fall due within the tick. */
    void endDue(Binding b) {
        int deferredCount = 0;
        while (b.timers.peekDue() <= world.clock + TimeRules.TIME_TOLERANCE) {
            double at = b.timers.peekDue();
            int n = 0;
            while (b.timers.peekDue() == at) {
                batch = StateWorld.push(batch, n++, b.timers.poll());
            }
            inSpawnOrder(n);
            for (int i = 0; i < n; i++) {
                StateRecord<?> r = ordered[i];
                ordered[i] = null;
                if (!take(r)) {
                    deferred = StateWorld.push(deferred, deferredCount++, r); // its wait stays due for the next tick
                }
            }
        }
        for (int i = 0; i < deferredCount; i++) {
            StateRecord<?> r = deferred[i];
            deferred[i] = null;
            schedule(r);
        }
    }

    /**
     * Puts the first {@code n} records of {@link #batch} into {@link #ordered} in spawn order. Within
     * a tick, slots are in spawn order (holes are closed up only between ticks), so the sort runs
     * on primitive keys (slot, batch index) and reads each record once.
     */
    private void inSpawnOrder(int n) {
        if (batchKeys.length < n) {
            batchKeys = new long[Math.max(n, batchKeys.length * 2)];
        }
        if (ordered.length < n) {
            ordered = new StateRecord<?>[Math.max(n, ordered.length * 2)];
        }
        for (int i = 0; i < n; i++) {
            batchKeys[i] = ((long) batch[i].slot << 32) | i;
        }
        sort(batchKeys, n);
        for (int i = 0; i < n; i++) {
            ordered[i] = batch[(int) batchKeys[i]];
        }
        Arrays.fill(batch, 0, n, null);
    }

    /** In-place heapsort: allocation-free, and the keys are distinct so stability does not matter. */
    private static void sort(long[] a, int n) {
        for (int i = n / 2 - 1; i >= 0; i--) {
            sift(a, i, n);
        }
        for (int end = n - 1; end > 0; end--) {
            long t = a[0];
            a[0] = a[end];
            a[end] = t;
            sift(a, 0, end);
        }
    }

    private static void sift(long[] a, int i, int n) {
        while (true) {
            int l = 2 * i + 1;
            if (l >= n) {
                return;
            }
            int m = l + 1 < n && a[l + 1] > a[l] ? l + 1 : l;
            if (a[i] >= a[m]) {
                return;
            }
            long t = a[i];
            a[i] = a[m];
            a[m] = t;
            i = m;
        }
    }

    /** Ends one due wait; false when the machine is not to take it in this tick (it joined or failed in it, or hit the cap). */
    private boolean take(StateRecord<?> r) {
        if (!world.registry.alive(r)) {
            return true;
        }
        long steps = world.steps;
        if (r.waitsStep != steps) {
            r.waitsStep = steps;
            r.waitsInStep = 0;
        }
        if (r.joinedStep == steps || r.failedStep == steps || r.waitsInStep >= TimeRules.MAX_WAITS_PER_STEP) {
            return false;
        }
        r.waitsInStep++;
        world.listeners.cause = "states.wait";
        try {
            end(r);
        } catch (RuntimeException e) {
            world.ticks.failed(r, e, "states.wait");
        }
        return true;
    }

    private void end(StateRecord<?> r) {
        MachineRecord rec = r.record;
        int s = rec.waitState();
        double due = rec.waitDue();
        if (s < 0 || due > world.clock + TimeRules.TIME_TOLERANCE) {
            schedule(r); // changed since it was queued; keep it current
            return;
        }
        Interpreter in = world.interpreters.xstate(due);
        r.movedAt = due;
        r.movedStep = world.steps;
        try {
            TimeRules.endWait(in, rec);
        } finally {
            world.moved(r);
        }
    }
}

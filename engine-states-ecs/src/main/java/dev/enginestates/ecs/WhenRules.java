package dev.enginestates.ecs;

import dev.enginestates.algorithm.Interpreter;
import dev.enginestates.algorithm.TimeRules;
import dev.enginestates.chart.Chart;
import dev.enginestates.records.MachineRecord;

/**
 * The {@code when} rules of a world's XState-style machines: each tick, after the waits, the
 * machines whose active states have rules test them (a child's before its parent's; the first
 * that holds moves). Only those machines are visited: a binding keeps their slots.
 */
final class WhenRules {
    private static final String WHEN = "states.when";
    private final StateWorld world;
    private int[] scratch = new int[64];

    WhenRules(StateWorld world) {
        this.world = world;
    }

    /** Notes whether a record's active states have rules, after it moved or was set. */
    void update(EntityRecord<?> r) {
        if (r.world != world) {
            return;
        }
        MachineRecord rec = r;
        Chart c = rec.chart();
        if (!c.hasWhen) {
            return; // never has rules active: nothing to note (and its states are not read)
        }
        boolean active = false;
        if (rec.status() == MachineRecord.ACTIVE) {
            for (int i = 0; i < rec.activeCount() && !active; i++) {
                active = c.when[rec.activeAt(i)] != null;
            }
        }
        r.binding.setWhenActive(r, active);
    }

    /** Tests the rules of a machine's records that have them, in spawn order. */
    void run(Binding b) {
        int n = b.whenCount();
        if (scratch.length < n) {
            scratch = new int[Math.max(n, scratch.length * 2)];
        }
        b.copyWhenSlots(scratch);
        int[] slots = scratch;
        long steps = world.steps;
        for (int i = 0; i < n; i++) {
            EntityRecord<?> r = b.at(slots[i]);
            if (r == null || !r.whenActive || r.isHeld() || r.quietIn(steps)
                    || !world.registry.alive(r)) {
                continue;
            }
            if (world.listeners.cause != WHEN) {
                world.listeners.cause = WHEN; // stored only when it changed (a reference store costs a GC barrier)
            }
            try {
                test(r);
            } catch (RuntimeException e) {
                world.ticks.failed(r, e, "states.when");
            }
        }
    }

    private void test(EntityRecord<?> r) {
        WorldFlight flight = world.ticks.flight;
        flight.records++;
        int t = TimeRules.firstWhen(r);
        if (t >= 0 && r.world == world) {
            flight.transitions++; // a test may have despawned its own entity
            // at the tick's start, or later if a wait already moved the machine in this tick
            double moved = r.binding.movedAt(r.slot, world.steps);
            double at = Double.isNaN(moved) ? world.stepStart : Math.max(world.stepStart, moved);
            Interpreter in = world.interpreters.xstate(at);
            try {
                in.take(r, t, r.chart().whenEvent);
            } finally {
                world.moved(r);
            }
        }
    }
}

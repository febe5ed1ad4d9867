package dev.enginestates.ecs;

import dev.enginestates.algorithm.StyleRuntime;

import dev.dominion.ecs.api.Dominion;

import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * A machine's place in one world: its records in spawn order, the slots of those whose active
 * states have {@code when} rules, the due times of their waits, its prepared tag moves.
 *
 * <p>Records keep their spawn order (the order the step runs them in and the order a checkpoint
 * names unkeyed entities): a despawned record leaves a hole, and the holes are closed up
 * between steps once they outnumber the live records, so memory and a pass over the records
 * follow the live count, however many have come and gone.
 */
final class Binding {
    final States<?> states;
    /** The machine's tag moves, and which tags each record's entity carries; {@code null} for a machine without tags. */
    final TagMoves moves;
    final Class<?>[] heldBy;
    /** The machine's style: one whose runtime {@link StyleRuntime#polls polls} has every record stepped, in spawn order. */
    final StyleRuntime runtime;
    /** Whether the machine invokes children: a move of its records has them follow ({@link Children}). */
    final boolean invokes;
    /** The due times of this machine's waits, by slot: each step takes this machine's due waits in time order. */
    final WaitWheel waits = new WaitWheel();
    /** The due time of each record's next send to itself, by slot; made on the first delayed send (machines that send none do without). */
    WaitWheel sends;
    private EntityRecord<?>[] records = new EntityRecord<?>[16];
    private int end;
    private int live;
    /**
     * The names given to this machine's records that have no key ({@link EntityName}), made when
     * the first is named (a failure, an assertion, the devtools page): names cost a record nothing
     * until then. {@code null} until then.
     */
    private Map<EntityRecord<?>, String> names;
    /** The numbers given so far: a number is never given twice in this world. */
    private int named;
    /**
     * By slot, for a machine with {@code when} rules: the step a wait last moved the record in, and
     * the clock time it did (its rules are tested from then in that tick); made on the first such move.
     */
    private long[] movedStep;
    private double[] movedAt;
    /** Slots of the records with {@code when} rules active, ascending (so in spawn order). */
    private int[] when = new int[16];
    private int whenCount;

    Binding(Dominion dominion, States<?> states) {
        this.states = states;
        this.moves = states.machine().tags() ? new TagMoves(dominion, states) : null;
        this.heldBy = states.machine().heldBy().toArray(new Class<?>[0]);
        this.runtime = states.runtime();
        this.invokes = states.chart().invokes != null;
    }

    /** One past the last slot in use. */
    int end() {
        return end;
    }

    /** The record in a slot, or {@code null} for a hole. */
    EntityRecord<?> at(int slot) {
        return records[slot];
    }

    void add(EntityRecord<?> r) {
        if (end == records.length) {
            records = Arrays.copyOf(records, end * 2);
        }
        r.slot = end;
        records[end++] = r;
        live++;
    }

    void remove(EntityRecord<?> r) {
        waits.remove(r.slot);
        if (sends != null) {
            sends.remove(r.slot);
        }
        if (r.whenActive) {
            removeWhen(r.slot);
            r.whenActive = false;
        }
        if (moves != null) {
            moves.forget(r.slot);
        }
        records[r.slot] = null;
        r.slot = -1;
        live--;
        if (names != null) {
            names.remove(r);
        }
    }

    /**
     * The record's {@code machine#n}, given now if it has none: this machine's next number. A game's
     * key may spell it ({@code "guard#3"}), even one given after the number: the record then takes
     * the next number, so two live entities never answer to one name.
     */
    String nameOf(EntityRecord<?> r, StateWorld world) {
        if (names == null) {
            names = new IdentityHashMap<>();
        }
        String name = names.get(r);
        while (name == null || world.keyed(name) != null) {
            name = states.id() + "#" + ++named;
            names.put(r, name);
        }
        return name;
    }

    /** Closes up the holes once they outnumber the live records; never during a step (its passes hold slots). */
    void compactIfSparse() {
        if (end - live <= Math.max(live, 16)) {
            return;
        }
        int w = 0;
        int[] newSlot = waits.size() > 0 || (sends != null && sends.size() > 0) ? new int[end] : null;
        for (int i = 0; i < end; i++) {
            EntityRecord<?> r = records[i];
            if (newSlot != null) {
                newSlot[i] = r == null ? -1 : w;
            }
            if (r != null) {
                if (moves != null && i != w) {
                    moves.moved(i, w);
                }
                r.slot = w;
                records[w++] = r;
            }
        }
        if (newSlot != null) {
            waits.renumber(newSlot, end);
            if (sends != null) {
                sends.renumber(newSlot, end);
            }
        }
        Arrays.fill(records, w, end, null);
        if (movedStep != null) {
            Arrays.fill(movedStep, -1); // between ticks: no tick's moves are live
        }
        end = w;
        whenCount = 0;
        for (int i = 0; i < end; i++) {
            if (records[i].whenActive) {
                pushWhen(i);
            }
        }
        if (records.length > 64 && end < records.length / 4) {
            records = Arrays.copyOf(records, Math.max(64, end * 2));
        }
    }

    /**
     * A rewind puts this machine's records in the order a snapshot holds them: {@code order[from]}
     * to {@code order[from + slots - 1]}, holes ({@code null}) included, hold every record it has now.
     * Its timers are renumbered; the rewind then schedules every record again.
     */
    void relayout(EntityRecord<?>[] order, int from, int slots) {
        int[] newSlot = new int[end];
        Arrays.fill(newSlot, -1);
        EntityRecord<?>[] next = new EntityRecord<?>[Math.max(16, slots)];
        int count = 0;
        for (int i = 0; i < slots; i++) {
            EntityRecord<?> r = order[from + i];
            if (r != null) {
                assert r.binding == this && r.slot >= 0 : "a rewind's record is back in its machine before its order is";
                newSlot[r.slot] = i;
                next[i] = r;
                count++;
            }
        }
        assert count == live : "a rewind's order holds every record of '" + states.id() + "'";
        if (moves != null) {
            moves.relayout(newSlot, end, slots);
        }
        waits.renumber(newSlot, end);
        if (sends != null) {
            sends.renumber(newSlot, end);
        }
        for (int i = 0; i < slots; i++) {
            if (next[i] != null) {
                next[i].slot = i;
            }
        }
        records = next;
        end = slots;
        live = count;
        if (movedStep != null) {
            Arrays.fill(movedStep, -1);
        }
        whenCount = 0;
        for (int i = 0; i < end; i++) {
            if (records[i] != null && records[i].whenActive) {
                pushWhen(i);
            }
        }
    }

    /**
     * Forgets what it noted by step number (waits taken in a step, a wait's move in a step): the
     * clock went back (a rewind, a restore), so a step number may come again.
     */
    void forgetSteps() {
        waits.forgetMarks();
        if (sends != null) {
            sends.forgetMarks();
        }
        if (movedStep != null) {
            Arrays.fill(movedStep, -1);
        }
    }

    /** A wait moved the record in a slot, in step {@code step} at clock time {@code at}. */
    void moved(int slot, long step, double at) {
        if (movedStep == null || slot >= movedStep.length) {
            int n = Math.max(slot + 1, records.length);
            int from = movedStep == null ? 0 : movedStep.length;
            movedStep = movedStep == null ? new long[n] : Arrays.copyOf(movedStep, n);
            movedAt = movedAt == null ? new double[n] : Arrays.copyOf(movedAt, n);
            Arrays.fill(movedStep, from, n, -1);
        }
        movedStep[slot] = step;
        movedAt[slot] = at;
    }

    /** The clock time a wait moved the record in a slot during step {@code step}, or NaN when none did. */
    double movedAt(int slot, long step) {
        return movedStep != null && slot < movedStep.length && movedStep[slot] == step ? movedAt[slot] : Double.NaN;
    }

    /** How many records have active {@code when} rules. */
    int whenCount() {
        return whenCount;
    }

    /** Copies their slots, ascending, into {@code into} (at least {@link #whenCount()} long). */
    void copyWhenSlots(int[] into) {
        System.arraycopy(when, 0, into, 0, whenCount);
    }

    void setWhenActive(EntityRecord<?> r, boolean active) {
        if (active == r.whenActive) {
            return;
        }
        r.whenActive = active;
        if (active) {
            int i = whenCount;
            pushWhen(r.slot);
            while (i > 0 && when[i - 1] > r.slot) { // keep ascending: most records join at the end
                when[i] = when[i - 1];
                i--;
            }
            when[i] = r.slot;
        } else {
            removeWhen(r.slot);
        }
    }

    private void pushWhen(int slot) {
        if (whenCount == when.length) {
            when = Arrays.copyOf(when, whenCount * 2);
        }
        when[whenCount++] = slot;
    }

    private void removeWhen(int slot) {
        int i = Arrays.binarySearch(when, 0, whenCount, slot);
        if (i >= 0) {
            System.arraycopy(when, i + 1, when, i, whenCount - i - 1);
            whenCount--;
        }
    }
}

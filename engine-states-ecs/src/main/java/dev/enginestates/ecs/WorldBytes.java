package dev.enginestates.ecs;

import dev.enginestates.records.RecordBytes;

import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * PROTOTYPE (spike "rewind", not for main as it is): a snapshot of every machine record of a
 * world as compact bytes ({@link RecordBytes}), taken between ticks into buffers it keeps and
 * reuses, and restored into the same records: a rollback's per-tick save. Once its buffers have
 * grown, a snapshot allocates nothing.
 *
 * <p>Same entities only: the snapshot remembers which record was in which slot of which machine,
 * and a restore refuses, changing nothing, a world whose records are not those (a spawn, a
 * despawn, an attach or a detach since, or slots closed up). Contexts are written only for the
 * machines given a {@link ContextBytes}; the others keep the context they have.
 */
public final class WorldBytes {
    private static final int MAGIC = 0x57525345; // "ESRW", little-endian
    private static final int VERSION = 0;

    /** How a machine's context goes into the snapshot and back (a game's own fields, written by hand). */
    public interface ContextBytes<C> {
        /** Appends the context's fields ({@link RecordBytes.Buffer#room} first). */
        void write(C context, RecordBytes.Buffer out);

        /** Reads them back; returns the context the record holds from now on (the same one when it is changed in place). */
        C read(C context, RecordBytes.Buffer in);
    }

    private final RecordBytes.Buffer buffer = new RecordBytes.Buffer(1 << 12);
    private final Map<States<?>, ContextBytes<?>> contexts = new IdentityHashMap<>();
    private final Map<States<?>, Integer> fingerprints = new IdentityHashMap<>();
    /** By machine, in the world's order: its binding's states, and how many slots. */
    private States<?>[] machines = new States<?>[8];
    private int[] ends = new int[8];
    private int machineCount;
    /** The record in each slot, machine after machine ({@code null} for a hole). */
    private EntityRecord<?>[] slots = new EntityRecord<?>[64];
    private int slotCount;
    private boolean taken;

    /** Writes and reads the contexts of {@code machine} with {@code codec}. */
    public <C> WorldBytes contexts(States<C> machine, ContextBytes<C> codec) {
        contexts.put(machine, codec);
        return this;
    }

    /** Bytes of the last snapshot. */
    public int size() {
        return buffer.size();
    }

    /** Records in the last snapshot. */
    public int records() {
        int n = 0;
        for (int i = 0; i < slotCount; i++) {
            n += slots[i] == null ? 0 : 1;
        }
        return n;
    }

    /**
     * Takes a snapshot of every record of the world, replacing the last one.
     *
     * @throws IllegalStateException during a step or a send (from a machine's own code), or between advance and runStates
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void snapshot(StateWorld world) {
        world.checkAtRest("a rewind snapshot");
        RecordBytes.Buffer b = buffer;
        b.clear();
        b.room(32);
        b.putInt(MAGIC);
        b.putByte(VERSION);
        b.putDouble(world.clock);
        b.putLong(world.steps);
        List<Binding> bindings = world.registry.bindings();
        int n = bindings.size();
        b.putInt(n);
        if (machines.length < n) {
            machines = Arrays.copyOf(machines, n);
            ends = Arrays.copyOf(ends, n);
        }
        machineCount = n;
        slotCount = 0;
        for (int m = 0; m < n; m++) {
            Binding binding = bindings.get(m);
            States<?> states = binding.states;
            machines[m] = states;
            int end = binding.end();
            ends[m] = end;
            b.room(8);
            b.putInt(fingerprint(states)); // for a snapshot read elsewhere; here the binding is checked by identity
            b.putInt(end);
            ContextBytes codec = contexts.isEmpty() ? null : contexts.get(states);
            int bound = RecordBytes.bound(states.chart());
            if (slots.length < slotCount + end) {
                slots = Arrays.copyOf(slots, Math.max(slotCount + end, slots.length * 2));
            }
            for (int i = 0; i < end; i++) {
                EntityRecord<?> r = binding.at(i);
                slots[slotCount++] = r;
                if (r != null) {
                    RecordBytes.write(r, b, bound);
                    if (codec != null) {
                        codec.write(r.contextObject(), b);
                    }
                }
            }
        }
        taken = true;
    }

    private int fingerprint(States<?> states) {
        Integer f = fingerprints.get(states);
        if (f == null) {
            f = RecordBytes.fingerprint(states.chart());
            fingerprints.put(states, f); // once per machine: a warm snapshot looks it up
        }
        return f;
    }

    /**
     * Writes the last snapshot back into the world's records and sets its clock; timers, {@code when}
     * rules, holds and tags are derived from the records again, and listeners are told of a restore.
     *
     * @throws IllegalStateException if no snapshot was taken, or the world's records are not the ones it holds
     *         (nothing is changed then); as {@link #snapshot} when the world is not at rest
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void restore(StateWorld world) {
        world.checkAtRest("a rewind");
        String problem = sameRecords(world);
        if (problem != null) {
            throw new IllegalStateException("the snapshot cannot be restored into " + world + ": " + problem
                    + "; this prototype rewinds the same records only (no spawns, despawns, attaches or detaches since). Nothing was changed.");
        }
        boolean began = world.underWay.begin("a rewind", null, null);
        try {
            RecordBytes.Buffer b = buffer;
            b.rewind();
            b.getInt();
            b.getByte();
            double time = b.getDouble();
            long steps = b.getLong();
            b.getInt();
            world.rewindClock(time, steps);
            world.beginWrites();
            int slot = 0;
            for (int m = 0; m < machineCount; m++) {
                b.getInt();
                int end = b.getInt();
                ContextBytes codec = contexts.isEmpty() ? null : contexts.get(machines[m]);
                for (int i = 0; i < end; i++) {
                    EntityRecord<?> r = slots[slot++];
                    if (r != null) {
                        RecordBytes.read(r, b);
                        if (codec != null) {
                            r.context(codec.read(r.contextObject(), b));
                        }
                        world.rewound(r);
                    }
                }
            }
            world.endWrites();
        } finally {
            world.underWay.end(began);
        }
    }

    /** Why the world's records are not the snapshot's, or {@code null}. */
    private String sameRecords(StateWorld world) {
        if (!taken) {
            return "no snapshot was taken";
        }
        List<Binding> bindings = world.registry.bindings();
        if (bindings.size() != machineCount) {
            return "it holds " + machineCount + " machines and the world " + bindings.size();
        }
        int slot = 0;
        for (int m = 0; m < machineCount; m++) {
            Binding binding = bindings.get(m);
            if (binding.states != machines[m]) {
                return "machine " + m + " is '" + binding.states.id() + "', the snapshot's '" + machines[m].id() + "'";
            }
            if (binding.end() != ends[m]) {
                return "machine '" + machines[m].id() + "' has " + binding.end() + " slots, the snapshot " + ends[m];
            }
            for (int i = 0; i < ends[m]; i++) {
                if (binding.at(i) != slots[slot++]) {
                    return "slot " + i + " of machine '" + machines[m].id() + "' holds another record than the snapshot's";
                }
            }
        }
        return null;
    }
}

package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.dominion.ecs.api.Results;
import dev.enginestates.records.RecordBytes;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Every machine record of a world at the start of one tick, as compact bytes ({@link RecordBytes})
 * in buffers kept and reused tick after tick, with which record sat in which slot of which
 * machine, the contexts (written by the game's {@link Rewind.ContextBytes}, or kept by reference) and the
 * hold components on held entities. Once its buffers have grown, taking one allocates nothing.
 *
 * <p>A restore writes it back into the same world: records still there are overwritten in place;
 * records attached or entities spawned since are taken off; records detached or entities
 * despawned since come back (an entity with its key, its machines, their tags and holds); each
 * machine's records take the snapshot's order again, the order the step runs them in.
 */
final class WorldSnapshot {
    private static final int MAGIC = 0x57525345; // "ESRW", little-endian

    final RecordBytes.Buffer bytes = new RecordBytes.Buffer(1 << 12);
    double time;
    long steps;
    /** By machine, in the world's order: its binding's states and its slot count. */
    private States<?>[] machines = new States<?>[8];
    private int[] ends = new int[8];
    /** By machine, its chart's record layout: made when a machine first takes that place, then reused tick after tick. */
    private RecordBytes.Layout[] layouts = new RecordBytes.Layout[8];
    private int machineCount;
    /** The record in each slot, machine after machine ({@code null} for a hole). */
    private EntityRecord<?>[] slots = new EntityRecord<?>[64];
    /** For a record whose context a codec wrote: where its bytes end (a read that takes more or fewer goes on from there). */
    private int[] contextEnd = new int[64];
    /**
     * By slot, the context kept by reference (a machine without a {@link ContextBytes}), or {@code null}:
     * beside the records rather than in the bytes' side table, so that a tick whose records hold
     * the same contexts as the last stores nothing.
     */
    private Object[] kept = new Object[64];
    private int slotCount;
    /**
     * The hold components on the entities of held records: a record on the entity, then the
     * component, pair after pair (a record, not the entity: an entity despawned and brought back by
     * a rewind is a new entity, its records the same).
     */
    private Object[] holds = new Object[8];
    private int holdCount;
    private boolean taken;

    /** Whether a snapshot has been taken into it. */
    boolean taken() {
        return taken;
    }

    /** Forgets the snapshot (its records may then be collected). */
    void clear() {
        Arrays.fill(slots, 0, slotCount, null);
        Arrays.fill(kept, 0, slotCount, null);
        Arrays.fill(holds, 0, holdCount, null);
        slotCount = 0;
        holdCount = 0;
        machineCount = 0;
        bytes.clear();
        taken = false;
    }

    /** Records in it. */
    int records() {
        int n = 0;
        for (int i = 0; i < slotCount; i++) {
            n += slots[i] == null ? 0 : 1;
        }
        return n;
    }

    /**
     * Takes the world's records, replacing what it held. The world is at rest (checked by the caller).
     *
     * @throws IllegalStateException naming the machine and entity, when a record holds a context its machine has no
     *         {@link Rewind.ContextBytes} for and the contexts are not declared shared; nothing is kept then
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    void take(StateWorld world, Contexts contexts) {
        RecordBytes.Buffer b = bytes;
        b.clear();
        b.room(48);
        b.putInt(MAGIC);
        b.putDouble(world.clock);
        b.putLong(world.steps);
        b.putLong(world.randomSeed());
        b.putLong(world.unkeyedDraws);
        time = world.clock;
        steps = world.steps;
        List<Binding> bindings = world.registry.bindings();
        int n = bindings.size();
        if (machines.length < n) {
            machines = Arrays.copyOf(machines, n);
            ends = Arrays.copyOf(ends, n);
            layouts = Arrays.copyOf(layouts, n);
        }
        Arrays.fill(holds, 0, holdCount, null);
        holdCount = 0;
        int oldSlots = slotCount;
        machineCount = n;
        slotCount = 0;
        taken = false;
        for (int m = 0; m < n; m++) {
            Binding binding = bindings.get(m);
            States<?> states = binding.states;
            machines[m] = states;
            int end = binding.end();
            ends[m] = end;
            Rewind.ContextBytes codec = contexts.codec(states);
            boolean shared = codec == null && contexts.isShared(states);
            RecordBytes.Layout layout = layouts[m];
            if (layout == null || layout.chart() != states.chart()) {
                layouts[m] = layout = RecordBytes.layout(states.chart());
            }
            if (slots.length < slotCount + end) {
                slots = Arrays.copyOf(slots, Math.max(slotCount + end, slots.length * 2));
                contextEnd = Arrays.copyOf(contextEnd, slots.length);
                kept = Arrays.copyOf(kept, slots.length);
            }
            for (int i = 0; i < end; i++) {
                EntityRecord<?> r = binding.at(i);
                int slot = slotCount++;
                // tick after tick the same records and contexts: stored only when they differ (a GC barrier each)
                if (slots[slot] != r) {
                    slots[slot] = r;
                }
                Object context = r == null || codec != null ? null : r.contextObject();
                if (kept[slot] != context) {
                    kept[slot] = context;
                }
                if (r == null) {
                    continue;
                }
                RecordBytes.write(r, b, layout);
                if (codec != null) {
                    try {
                        writeContext(b, codec, r.contextObject());
                        contextEnd[slot] = b.size();
                    } catch (RuntimeException e) {
                        slots[slot] = null;
                        slotCount--;
                        throw new IllegalStateException("the ContextBytes of machine '" + states.id() + "' threw writing the context on "
                                + StateWorld.describe(r.entity) + " for a rewind: " + e + ". Nothing was kept, and the tick did not run.", e);
                    }
                } else if (context != null && !shared) {
                    slots[slot] = null;
                    kept[slot] = null;
                    slotCount--;
                    throw new IllegalStateException("cannot keep machine '" + states.id() + "' on " + StateWorld.describe(r.entity)
                            + " for a rewind: its context (" + context.getClass().getName() + ") has no ContextBytes, so a"
                            + " rewind could not put back what its code changes; expected rewind.contexts(machine, codec),"
                            + " or rewind.sharedContexts(machine) if its code never changes the context. Nothing was kept.");
                }
            }
        }
        if (oldSlots > slotCount) {
            Arrays.fill(slots, slotCount, oldSlots, null); // no despawned record kept alive by an old snapshot
            Arrays.fill(kept, slotCount, oldSlots, null);
        }
        keepHolds(world, contexts);
        taken = true;
    }

    /** The most bytes one context's codec may write: a codec that writes without end is refused, not fed memory. */
    static final int MAX_CONTEXT_BYTES = 1 << 20;

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void writeContext(RecordBytes.Buffer b, Rewind.ContextBytes codec, Object context) {
        int room = 64;
        while (true) {
            int at = b.size();
            b.room(room);
            ByteBuffer out = b.view(at);
            out.limit(Math.min(out.limit(), at + MAX_CONTEXT_BYTES));
            try {
                codec.write(context, out);
                b.skipTo(out.position());
                return;
            } catch (BufferOverflowException full) {
                b.truncate(at);
                if (out.limit() - at >= MAX_CONTEXT_BYTES) {
                    throw new IllegalStateException("it wrote more than " + MAX_CONTEXT_BYTES + " bytes, the most a context may take");
                }
                room = Math.max(room, b.capacity() - at) * 2; // the codec writes again into twice the room
            }
        }
    }

    /**
     * Keeps the hold components ({@link MachinePaused} and the machines' {@code heldBy} types) on
     * the entities of this world's records, found by a query per type: skipped while none is on any
     * entity and none has arrived since the last look (Dominion counts their arrivals).
     */
    private void keepHolds(StateWorld world, Contexts watch) {
        long joins = world.repository.watchedJoins();
        if (!watch.holdsSeen && joins == watch.holdJoins) {
            return;
        }
        watch.holdJoins = joins;
        for (Class<?> type : holdTypes(world)) {
            for (Results.With1<?> w : world.dominion().findEntitiesWith(type)) {
                EntityRecord<?> r = recordOn(world, w.entity());
                if (r != null) {
                    keepHold(r, w.comp());
                }
            }
        }
        watch.holdsSeen = holdCount > 0;
    }

    /** The component types that hold machines in this world. */
    private static List<Class<?>> holdTypes(StateWorld world) {
        List<Class<?>> types = new ArrayList<>();
        types.add(MachinePaused.class);
        for (Binding b : world.registry.bindings()) {
            for (Class<?> type : b.heldBy) {
                if (!types.contains(type)) {
                    types.add(type);
                }
            }
        }
        return types;
    }

    /** One of this world's records on the entity, or {@code null}. */
    private static EntityRecord<?> recordOn(StateWorld world, Entity e) {
        for (Binding b : world.registry.all()) {
            EntityRecord<?> r = e.get(b.states.recordClass());
            if (r != null && r.world == world) {
                return r;
            }
        }
        return null;
    }

    /** Whether the snapshot keeps {@code component} on entity {@code e}. */
    private boolean holdKept(Entity e, Object component) {
        for (int i = 0; i < holdCount; i += 2) {
            if (((EntityRecord<?>) holds[i]).entity == e && holds[i + 1] == component) {
                return true;
            }
        }
        return false;
    }

    private void keepHold(EntityRecord<?> r, Object component) {
        if (holdCount + 2 > holds.length) {
            holds = Arrays.copyOf(holds, holds.length * 2);
        }
        holds[holdCount++] = r;
        holds[holdCount++] = component;
    }

    /**
     * Writes the snapshot back into the world (at rest, checked by the caller), under way as one call.
     * {@code spawnedSince} are the records spawned with a new entity since the snapshot was taken:
     * their entities, when they hold none of the snapshot's records, are despawned; other entities
     * that gained a machine only lose it. {@code keyOf} gives the key a despawned entity had.
     */
    void restore(StateWorld world, Contexts contexts, List<EntityRecord<?>> spawnedSince, Function<Entity, EntityKey> keyOf) {
        if (!sameRecords(world)) {
            reshape(world, spawnedSince, keyOf);
        }
        IllegalStateException failed = readInto(world, contexts, slots);
        restoreHolds(world);
        if (failed != null) {
            throw failed;
        }
    }

    /**
     * Sets {@code target}'s clock and seed to the snapshot's, reads each record's bytes and context
     * into {@code records} (the snapshot's own, or their copies, slot for slot) and has
     * {@code target} derive each again (timers, rules, tags).
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private IllegalStateException readInto(StateWorld target, Contexts contexts, EntityRecord<?>[] records) {
        IllegalStateException failed = null;
        RecordBytes.Buffer b = bytes;
        b.rewind();
        b.getInt();
        double clock = b.getDouble();
        long stepCount = b.getLong();
        target.rewindClock(clock, stepCount);
        target.randomSeed(b.getLong());
        target.unkeyedDraws = b.getLong();
        int slot = 0;
        for (int m = 0; m < machineCount; m++) {
            Rewind.ContextBytes codec = contexts.codec(machines[m]);
            RecordBytes.Layout layout = layouts[m];
            for (int i = 0; i < ends[m]; i++) {
                EntityRecord<?> r = records[slot++];
                if (r == null) {
                    continue;
                }
                RecordBytes.read(r, b, layout);
                if (codec != null) {
                    ByteBuffer in = b.view(b.readPosition());
                    try {
                        r.context(codec.read(r.contextObject(), in));
                    } catch (RuntimeException e) {
                        // its record is back, its context as it was; the other records go on being restored
                        IllegalStateException f = new IllegalStateException("the ContextBytes of machine '" + machines[m].id()
                                + "' threw reading the context on " + StateWorld.describe(r.entity) + " back: " + e
                                + "; that record is back at the tick, its context as it was before; every other record is back", e);
                        if (failed == null) {
                            failed = f;
                        } else {
                            failed.addSuppressed(f);
                        }
                    }
                    b.skipReadTo(contextEnd[slot - 1]); // where the codec's write ended, whatever this read took
                } else {
                    r.context(kept[slot - 1]);
                }
                target.rewound(r);
            }
        }
        return failed;
    }

    /**
     * Writes the snapshot into another world that holds no machine yet: its clock set to the
     * snapshot's, an entity spawned for each entity the snapshot's records were on (with its key;
     * the world's own entity's machines on {@code into}'s own), each with new records of the same
     * machines, read from the bytes, in the snapshot's order; and the hold components back on them.
     * Contexts written by a codec are read into fresh contexts; shared ones are the same objects.
     */
    void copyInto(StateWorld into, Contexts contexts, Function<Entity, EntityKey> keyOf) {
        EntityRecord<?>[] copies = new EntityRecord<?>[slotCount];
        Map<Entity, List<Object>> byEntity = new IdentityHashMap<>();
        List<Entity> order = new ArrayList<>();
        for (int i = 0; i < slotCount; i++) {
            EntityRecord<?> r = slots[i];
            if (r == null) {
                continue;
            }
            copies[i] = EntityRecord.of(r.states.trait());
            List<Object> components = byEntity.get(r.entity);
            if (components == null) {
                byEntity.put(r.entity, components = new ArrayList<>());
                order.add(r.entity);
            }
            components.add(copies[i]);
        }
        into.rewindClock(time, steps);
        Map<Entity, Entity> spawned = new IdentityHashMap<>();
        for (Entity old : order) {
            List<Object> components = byEntity.get(old);
            EntityKey key = old.isDeleted() ? keyOf.apply(old) : old.get(EntityKey.class);
            if (key != null && EntityKey.WORLD.equals(key.value())) {
                Entity self = into.entity(EntityKey.WORLD);
                for (Object c : components) {
                    into.attachForRewind(self, (EntityRecord<?>) c);
                }
                spawned.put(old, self);
                continue;
            }
            if (key != null) {
                components.add(key);
            }
            spawned.put(old, into.spawnForCopy(components.toArray()));
        }
        IllegalStateException failed = readInto(into, contexts, copies);
        for (int i = 0; i < holdCount; i += 2) {
            Entity e = spawned.get(((EntityRecord<?>) holds[i]).entity);
            if (e != null && !e.has(holds[i + 1].getClass())) {
                e.add(holds[i + 1]);
            }
        }
        if (failed != null) {
            throw failed;
        }
    }

    /** Whether the world holds exactly the snapshot's records, slot for slot. */
    private boolean sameRecords(StateWorld world) {
        List<Binding> bindings = world.registry.bindings();
        if (bindings.size() != machineCount) {
            return false;
        }
        int slot = 0;
        for (int m = 0; m < machineCount; m++) {
            Binding binding = bindings.get(m);
            if (binding.states != machines[m] || binding.end() != ends[m]) {
                return false;
            }
            for (int i = 0; i < ends[m]; i++) {
                if (binding.at(i) != slots[slot++]) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Brings the world's entities and records to the snapshot's: what came since goes, what went comes back, in its order. */
    private void reshape(StateWorld world, List<EntityRecord<?>> spawnedSince, Function<Entity, EntityKey> keyOf) {
        IdentityHashMap<EntityRecord<?>, Boolean> kept = new IdentityHashMap<>();
        for (int i = 0; i < slotCount; i++) {
            if (slots[i] != null) {
                kept.put(slots[i], Boolean.TRUE);
            }
        }
        // what came since: entities spawned since go whole, other entities lose the machines they gained
        for (EntityRecord<?> r : spawnedSince) {
            Entity e = r.entity;
            if (r.world == world && !kept.containsKey(r) && !e.isDeleted() && !holdsKept(world, e, kept)) {
                world.despawnForRewind(e);
            }
        }
        for (Binding binding : world.registry.all()) {
            for (int i = 0; i < binding.end(); i++) {
                EntityRecord<?> r = binding.at(i);
                if (r != null && !kept.containsKey(r)) {
                    world.detachForRewind(r);
                }
            }
        }
        // what went: back on its entity if it lives, else on a new entity with the old one's key
        Map<Entity, List<EntityRecord<?>>> lost = new IdentityHashMap<>();
        List<Entity> lostOrder = new ArrayList<>();
        for (int i = 0; i < slotCount; i++) {
            EntityRecord<?> r = slots[i];
            if (r != null && r.world != world) {
                List<EntityRecord<?>> group = lost.get(r.entity);
                if (group == null) {
                    lost.put(r.entity, group = new ArrayList<>());
                    lostOrder.add(r.entity);
                }
                group.add(r);
            }
        }
        for (Entity old : lostOrder) {
            List<EntityRecord<?>> group = lost.get(old);
            if (!old.isDeleted() && world.repository.contains(old)) {
                for (EntityRecord<?> r : group) {
                    world.attachForRewind(old, r);
                }
            } else {
                world.respawnForRewind(group, keyOf.apply(old));
            }
        }
        // each machine's records in the snapshot's order: the step runs them in it
        int slot = 0;
        for (int m = 0; m < machineCount; m++) {
            Binding binding = world.registry.of(machines[m]);
            binding.relayout(slots, slot, ends[m]);
            slot += ends[m];
        }
    }

    /** Whether an entity holds one of the snapshot's records (it then stays: it was there before). */
    private static boolean holdsKept(StateWorld world, Entity e, IdentityHashMap<EntityRecord<?>, Boolean> kept) {
        for (Binding b : world.registry.all()) {
            EntityRecord<?> r = e.get(b.states.recordClass());
            if (r != null && kept.containsKey(r)) {
                return true;
            }
        }
        return false;
    }

    /** Hold components back as they were: off the entities of this world's records that did not have them, on those that did. */
    private void restoreHolds(StateWorld world) {
        List<Entity> off = new ArrayList<>();
        List<Class<?>> offType = new ArrayList<>();
        for (Class<?> type : holdTypes(world)) {
            for (Results.With1<?> w : world.dominion().findEntitiesWith(type)) {
                if (!holdKept(w.entity(), w.comp()) && recordOn(world, w.entity()) != null) {
                    off.add(w.entity()); // not while the query runs: a change of composition would move the entity under it
                    offType.add(type);
                }
            }
        }
        for (int i = 0; i < off.size(); i++) {
            off.get(i).removeType(offType.get(i));
        }
        for (int i = 0; i < holdCount; i += 2) {
            Entity e = ((EntityRecord<?>) holds[i]).entity;
            Object c = holds[i + 1];
            if (!e.isDeleted() && e.get(c.getClass()) != c) {
                if (e.get(c.getClass()) != null) {
                    e.removeType(c.getClass());
                }
                e.add(c);
            }
        }
    }

    /**
     * What every snapshot of one rewind shares: the contexts' codecs, the machines whose contexts
     * are kept by reference, and what the last look for hold components found.
     */
    static final class Contexts {
        private final Map<States<?>, Rewind.ContextBytes<?>> codecs = new IdentityHashMap<>();
        private final Map<States<?>, Boolean> shared = new IdentityHashMap<>();
        private States<?> lastMachine;
        private Rewind.ContextBytes<?> lastCodec;
        /** Dominion's count of hold types' arrivals at the last look, and whether that look found any hold. */
        long holdJoins = -1;
        boolean holdsSeen;

        <C> void codec(States<C> machine, Rewind.ContextBytes<C> codec) {
            codecs.put(machine, codec);
            shared.remove(machine);
            lastMachine = null;
        }

        void share(States<?> machine) {
            codecs.remove(machine);
            shared.put(machine, Boolean.TRUE);
            lastMachine = null;
        }

        Rewind.ContextBytes<?> codec(States<?> machine) {
            if (codecs.isEmpty()) {
                return null;
            }
            if (machine != lastMachine) {
                lastCodec = codecs.get(machine);
                lastMachine = machine;
            }
            return lastCodec;
        }

        boolean isShared(States<?> machine) {
            return shared.containsKey(machine);
        }
    }
}

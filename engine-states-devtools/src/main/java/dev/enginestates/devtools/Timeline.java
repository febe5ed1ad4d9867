package dev.enginestates.devtools;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.MachineListener;
import dev.enginestates.ecs.MachinePaused;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.WorldInputs;

/**
 * What happened in the world, for the page's timeline: transitions with their event, refused
 * events, waits ending, holds put on and taken off, spawns and despawns, each with the world's
 * step count and clock. Heard on the world's thread (as a machine listener and an input watcher)
 * into preallocated arrays of the last {@link #CAPACITY} entries: the world's thread stores
 * references it already has and a name, and writes no JSON; a server thread copies the entries
 * it answers with under the same lock and writes them.
 */
final class Timeline implements MachineListener<StateRecord<?>>, WorldInputs {
    /** The entries kept: the oldest is dropped beyond this many. */
    static final int CAPACITY = 10_000;
    /** The most entries one answer carries (the newest that match). */
    static final int MAX_ANSWER = 2_000;

    static final String TRANSITION = "transition";
    static final String REFUSED = "refused";
    static final String WAIT_ENDED = "wait-ended";
    static final String HOLD_ON = "hold-on";
    static final String HOLD_OFF = "hold-off";
    static final String SPAWN = "spawn";
    static final String DESPAWN = "despawn";

    private final StateWorld world;
    private final int capacity;
    // the ring, guarded by this: entry i lives at (i % capacity)
    private final String[] kind;
    private final long[] tick;
    private final double[] time;
    private final String[] entity;
    private final String[] machine;
    private final String[] from;
    private final String[] to;
    private final String[] detail;
    /** How many entries were ever recorded; the oldest kept is {@code max(0, count - capacity)}. */
    private long count;

    Timeline(StateWorld world, int capacity) {
        this.world = world;
        this.capacity = capacity;
        kind = new String[capacity];
        tick = new long[capacity];
        time = new double[capacity];
        entity = new String[capacity];
        machine = new String[capacity];
        from = new String[capacity];
        to = new String[capacity];
        detail = new String[capacity];
    }

    private synchronized void add(String k, Entity e, String m, String f, String t, String d) {
        int i = (int) (count % capacity);
        kind[i] = k;
        tick[i] = world.steps();
        time[i] = world.time();
        entity[i] = e == null ? null : StateWorld.nameOf(e);
        machine[i] = m;
        from[i] = f;
        to[i] = t;
        detail[i] = d;
        count++;
    }

    // ------------------------------------------------------------------ heard on the world's thread

    @Override
    public void stateChanged(StateRecord<?> r, String f, String t, String event) {
        add(TRANSITION, r.entity(), r.machineId(), f, t, event);
    }

    @Override
    public void eventRefused(StateRecord<?> r, String event) {
        add(REFUSED, r.entity(), r.machineId(), null, null, event);
    }

    @Override
    public void waitEnded(StateRecord<?> r, String state, boolean elapsed) {
        add(WAIT_ENDED, r.entity(), r.machineId(), state, null, elapsed ? "elapsed" : "left");
    }

    @Override
    public void holdChanged(Entity e, Class<?> component, boolean on) {
        add(on ? HOLD_ON : HOLD_OFF, e, null, null, null, component == MachinePaused.class ? "MachinePaused" : component.getSimpleName());
    }

    @Override
    public void spawned(Entity e, StateRecord<?>[] records) {
        add(SPAWN, e, records.length == 0 ? null : records[0].machineId(), null, null, null);
    }

    @Override
    public void despawned(Entity e) {
        add(DESPAWN, e, null, null, null, null);
    }

    // ------------------------------------------------------------------ read on a server thread

    /**
     * The newest entries (at most {@code limit}) after entry number {@code after}, of the entity
     * and machine named (either {@code null} for any), as JSON: {@code entries} (oldest first,
     * each with {@code n}, {@code kind}, {@code tick}, {@code time}, {@code entity},
     * {@code machine} and, where they apply, {@code from}, {@code to}, {@code event} or
     * {@code component}), {@code next} (the number to ask after next time), {@code dropped} (entries
     * older than the kept ones) and {@code capacity}.
     */
    ObjectNode read(long after, String entityName, String machineId, int limit) {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        ObjectNode out = nodes.objectNode();
        ArrayNode list = nodes.arrayNode();
        synchronized (this) {
            long first = Math.max(Math.max(0, count - capacity), after + 1);
            // newest first, so the answer keeps the newest when more match than it carries
            int taken = 0;
            for (long n = count - 1; n >= first && taken < limit; n--) {
                int i = (int) (n % capacity);
                if ((entityName != null && !entityName.equals(entity[i])) || (machineId != null && !machineId.equals(machine[i]))) {
                    continue;
                }
                ObjectNode o = nodes.objectNode();
                o.put("n", n);
                o.put("kind", kind[i]);
                o.put("tick", tick[i]);
                o.put("time", Math.round(time[i] * 1000) / 1000.0);
                o.put("entity", entity[i]);
                o.put("machine", machine[i]);
                switch (kind[i]) {
                    case TRANSITION -> {
                        o.put("from", from[i]);
                        o.put("to", to[i]);
                        o.put("event", detail[i]);
                    }
                    case REFUSED -> o.put("event", detail[i]);
                    case WAIT_ENDED -> {
                        o.put("state", from[i]);
                        o.put("how", detail[i]);
                    }
                    case HOLD_ON, HOLD_OFF -> o.put("component", detail[i]);
                    default -> { }
                }
                list.insert(0, o);
                taken++;
            }
            out.put("next", count - 1);
            out.put("dropped", Math.max(0, count - capacity));
        }
        out.set("entries", list);
        out.put("capacity", capacity);
        return out;
    }
}

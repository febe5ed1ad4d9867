package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.dominion.ecs.api.Results;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which machines of a world are held: read once a tick, at its start, from the entities that
 * carry {@link MachinePaused} or one of a machine's {@code heldBy} components. A held machine's
 * wait stops counting; a machine let go counts on from where it stopped. Costs follow the held
 * entities, not the machines: Dominion counts the entities that join a composition holding a
 * hold type (patch 0012, however the component got there: through the world or Dominion
 * directly), so while nothing is held and that count stands still, a tick asks Dominion nothing
 * and allocates nothing.
 */
final class Holds {
    private final StateWorld world;
    /** Dominion's count of arrivals of hold types at the last reading. */
    private long joinsSeen = -1;
    /** Whether the next tick must read the holds whatever the count says (a new listener). */
    private boolean reread = true;
    private EntityRecord<?>[] held = new EntityRecord<?>[16];
    private int heldCount;
    /**
     * The hold components the last tick found, while a listener hears the world's inputs; in the
     * order the queries found them (entities compare by identity), so the same run tells its hold
     * changes in the same order and writes the same input log.
     */
    private Map<Entity, List<Class<?>>> heard = new LinkedHashMap<>();

    Holds(StateWorld world) {
        this.world = world;
    }

    /** A new input recorder: the next tick tells it every hold it finds. */
    void recorderChanged() {
        heard = new LinkedHashMap<>();
        reread = true;
    }

    /** Dominion counts, from now on, the entities that gain one of these types. */
    void watch(Class<?>... types) {
        for (Class<?> type : types) {
            world.repository.watch(type);
        }
    }

    /** A record restored held joins the held list as it is. */
    void restoredHeld(EntityRecord<?> r) {
        if (!r.inHeldList) {
            r.inHeldList = true;
            r.heldMarked = false; // stays held only if the next reading finds its hold
            held = StateWorld.push(held, heldCount++, r);
        }
    }

    /**
     * A record leaves the world: off the held list now, not at the next reading, as it may join
     * another world (or this one again) before then, and its flag says which list it is on.
     */
    void forget(EntityRecord<?> r) {
        if (!r.inHeldList) {
            return;
        }
        for (int i = 0; i < heldCount; i++) {
            if (held[i] == r) {
                System.arraycopy(held, i + 1, held, i, heldCount - i - 1);
                held[--heldCount] = null;
                break;
            }
        }
        r.inHeldList = false;
        r.heldMarked = false;
    }

    /** Reads the holds at the start of a tick: marks the held, lets go of the rest. */
    void update() {
        // read before the query, so a hold put on after it shows in the next tick's count
        long joins = world.repository.watchedJoins();
        if (joins == joinsSeen && heldCount == 0 && !reread && heard.isEmpty()) {
            return; // nothing held, and no entity gained a hold type since the last reading
        }
        joinsSeen = joins;
        reread = false;
        boolean any = false;
        WorldInputs inputs = world.inputs;
        Map<Entity, List<Class<?>>> seen = inputs == null ? null : new LinkedHashMap<>();
        List<Binding> bindings = world.registry.bindings();
        if (!bindings.isEmpty()) {
            for (Results.With1<MachinePaused> w : world.dominion().findEntitiesWith(MachinePaused.class)) {
                Entity e = w.entity();
                for (int bi = 0; bi < bindings.size(); bi++) {
                    EntityRecord<?> r = e.get(bindings.get(bi).states.recordClass());
                    if (r != null && r.world == world) {
                        mark(r);
                        any = true;
                        if (seen != null && !seen.containsKey(e)) {
                            seen.put(e, new ArrayList<>(List.of(MachinePaused.class)));
                        }
                    }
                }
            }
            for (int bi = 0; bi < bindings.size(); bi++) {
                Binding b = bindings.get(bi);
                for (Class<?> type : b.heldBy) {
                    for (Results.With1<?> w : world.dominion().findEntitiesWith(type)) {
                        EntityRecord<?> r = w.entity().get(b.states.recordClass());
                        if (r != null && r.world == world) {
                            mark(r);
                            any = true;
                            if (seen != null) {
                                List<Class<?>> types = seen.computeIfAbsent(w.entity(), x -> new ArrayList<>());
                                if (!types.contains(type)) {
                                    types.add(type);
                                }
                            }
                        }
                    }
                }
            }
        }
        if (seen != null) {
            tell(inputs, seen);
        }
        if (heldCount == 0 && !any) {
            return;
        }
        int w = 0;
        for (int i = 0; i < heldCount; i++) {
            EntityRecord<?> r = held[i];
            boolean marked = r.heldMarked;
            r.heldMarked = false; // every marked record is in the list, so this pass clears every mark
            if (marked && r.world == world) {
                held[w++] = r;
            } else {
                r.inHeldList = false;
                if (r.world == world) {
                    r.release(world.clock);
                    r.clearWaitChanged();
                    world.waits.schedule(r);
                }
            }
        }
        for (int i = w; i < heldCount; i++) {
            held[i] = null;
        }
        heldCount = w;
    }

    private void mark(EntityRecord<?> r) {
        r.heldMarked = true;
        if (!r.inHeldList) {
            r.inHeldList = true;
            held = StateWorld.push(held, heldCount++, r);
        }
        if (!r.isHeld()) { // newly held, or written unheld (a restore) while its hold stayed on
            r.hold(world.clock);
            r.clearWaitChanged();
            world.waits.schedule(r);
        }
    }

    /**
     * Tells the input recorder which hold components the tick found that it did not find at the last
     * one, and which it no longer finds: a replay puts them on and takes them off before the
     * tick, so the replayed tick finds the same holds.
     */
    private void tell(WorldInputs inputs, Map<Entity, List<Class<?>>> seen) {
        for (Map.Entry<Entity, List<Class<?>>> e : heard.entrySet()) {
            List<Class<?>> now = seen.get(e.getKey());
            for (Class<?> type : e.getValue()) {
                if ((now == null || !now.contains(type)) && !e.getKey().isDeleted()) {
                    inputs.holdChanged(e.getKey(), type, false);
                }
            }
        }
        for (Map.Entry<Entity, List<Class<?>>> e : seen.entrySet()) {
            List<Class<?>> before = heard.get(e.getKey());
            for (Class<?> type : e.getValue()) {
                if (before == null || !before.contains(type)) {
                    inputs.holdChanged(e.getKey(), type, true);
                }
            }
        }
        heard = seen;
    }
}

package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.MachineException;
import dev.enginestates.dominion.IntEntity;
import dev.enginestates.fsm.StateContext;
import dev.enginestates.records.MachineRecord;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The machines of a world and their records: a {@link Binding} per machine met, in declaration
 * order (the order a tick runs them), each holding its records in spawn order. A record joins
 * when it is spawned or attached and leaves when its entity is despawned, it is detached, or
 * the game took it off through Dominion directly (noticed when the world next looks at it).
 */
final class Registry {
    private static final System.Logger LOG = System.getLogger("dev.enginestates");
    private final StateWorld world;
    /** The machines met, in declaration order. */
    private final List<Binding> bindings = new ArrayList<>();
    /** Machines met during a tick: they join {@link #bindings} when it ends (its pass holds positions). */
    private final List<Binding> joining = new ArrayList<>();
    private final Map<States<?>, Binding> byStates = new IdentityHashMap<>();

    Registry(StateWorld world) {
        this.world = world;
    }

    /** The machines met, in declaration order, without those met during the tick under way. */
    List<Binding> bindings() {
        return bindings;
    }

    /** Every machine met, those joining at the end of the tick included. */
    List<Binding> all() {
        if (joining.isEmpty()) {
            return bindings;
        }
        List<Binding> all = new ArrayList<>(bindings);
        all.addAll(joining);
        return all;
    }

    /** A machine's binding, or {@code null} if this world has not met it. */
    Binding of(States<?> machine) {
        return byStates.get(machine);
    }

    /** The machines met during a tick take their place once it has ended. */
    void joinLate() {
        if (!joining.isEmpty()) {
            for (Binding b : joining) {
                insertInOrder(b);
            }
            joining.clear();
        }
    }

    void checkFree(EntityRecord<?> r) {
        Objects.requireNonNull(r, "record");
        if (r.world != null) {
            throw new MachineException(r.machineId(), "this '" + r.machineId() + "' record is already spawned on "
                    + StateWorld.describe(r.entity) + "; make a new one with trait()");
        }
    }

    /** A record joins the world on entity {@code e}. */
    void register(EntityRecord<?> r, Entity e) {
        Binding b = bind(r.states);
        r.binding = b;
        r.world = world;
        r.entity = e;
        r.foundIn = -1;
        if (r.context() instanceof StateContext sc) {
            sc.setEntity(e); // a builder-style context knows the entity it lives on
        }
        r.quietStep(world.stepping ? world.steps : -1); // stepped from the next step
        b.add(r);
        MachineRecord rec = r;
        if (r.localClock && rec.waitState() >= 0) {
            // a record made outside a world counted its wait on a clock of its own, from 0
            rec.setWait(rec.waitState(), world.clock + rec.waitStart(), rec.waitSeconds());
        }
        if (r.localClock) {
            rec.shiftSends(world.clock); // sends timed on its own clock from 0, like its wait
            rec.shiftEntryTimes(world.clock); // and its states entered at 0 on that clock were entered now
            if (rec.isHeld()) {
                rec.setHeldSince(rec.heldSince() + world.clock); // held since then on that clock, as its wait stood
            }
        }
        if (rec.isHeld()) {
            world.holds.restoredHeld(r); // held while its new entity carries a hold: the next tick's reading says
        }
        if (r.localClock) {
            r.joinStream(world); // what it drew off any world was its machine's stream: from here, its entity's
        }
        r.localClock = false;
        rec.clearWaitChanged();
        world.waits.schedule(r);
        world.whens.update(r);
        if (world.listeners.any() && !swapping) {
            world.listeners.joined(r);
        }
    }

    /** Set while a record of a swapped machine takes its older record's place: it goes on, it does not join. */
    boolean swapping;

    /** Set while the world despawns an entity: its records' pending sends are dropped. */
    boolean despawning;

    /**
     * A record leaves the world: its wait times count from 0 on a clock of its own again; its
     * sends to itself too when it is detached, and are dropped when its entity is despawned.
     */
    void unregister(EntityRecord<?> r) {
        if (r.world != world) {
            return;
        }
        if (world.listeners.any()) {
            world.listeners.left(r);
        }
        r.binding.remove(r);
        world.holds.forget(r);
        world.children.left(r);
        MachineRecord rec = r;
        if (rec.waitState() >= 0) {
            rec.setWait(rec.waitState(), rec.waitStart() - world.clock, rec.waitSeconds());
        }
        if (rec.isHeld()) {
            rec.setHeldSince(rec.heldSince() - world.clock);
        }
        rec.shiftEntryTimes(-world.clock);
        if (r.entity == null || r.entity.isDeleted() || despawning) {
            rec.clearSends(); // SCXML: a session that ends cancels its delayed events
        } else {
            rec.shiftSends(-world.clock);
        }
        rec.clearWaitChanged();
        r.localClock = true;
        r.world = null;
        if (rec.contextObject() instanceof StateContext sc && sc.entity() == r.entity) {
            sc.setEntity(null);
        }
    }

    /**
     * Whether a record is still in this world on a live entity; one whose entity was deleted, or
     * that was taken off through Dominion directly, leaves now (with its tags).
     */
    boolean alive(EntityRecord<?> r) {
        if (r.world != world) {
            return false;
        }
        if (r.entity.isDeleted()) {
            unregister(r);
            return false;
        }
        // a chunk holds the entities of one composition (one set of components): while the entity
        // is in the chunk the record was last found in, the record is still there, and the lookup
        // (a third of a builder machine's tick) is skipped
        int chunk = r.entity instanceof IntEntity e ? e.chunkNumber() : -1;
        if (chunk != -1 && chunk == r.foundIn) {
            return true;
        }
        if (r.entity.get(r.states.recordClass()) != r) {
            LOG.log(System.Logger.Level.WARNING, () -> "machine '" + r.machineId() + "': its record was taken off "
                    + StateWorld.describe(r.entity) + " through Dominion directly, so " + world + " no longer steps it and took"
                    + " its tags off too; use world.detach(entity, machine) to remove a machine");
            if (r.binding.moves != null) {
                r.binding.moves.removeAll(r.entity, r);
            }
            unregister(r);
            return false;
        }
        r.foundIn = chunk;
        return true;
    }

    /** The live records of a machine, in spawn order. */
    @SuppressWarnings("unchecked")
    <C> List<StateRecord<C>> records(States<C> machine) {
        List<StateRecord<C>> out = new ArrayList<>();
        Binding b = byStates.get(machine);
        if (b != null) {
            for (int i = 0; i < b.end(); i++) {
                EntityRecord<?> r = b.at(i);
                if (r != null && alive(r)) {
                    out.add((EntityRecord<C>) r);
                }
            }
        }
        return out;
    }

    private Binding bind(States<?> states) {
        Binding b = byStates.get(states);
        if (b == null) {
            b = new Binding(world.dominion(), states);
            byStates.put(states, b);
            world.holds.watch(b.heldBy);
            if (world.stepping) {
                joining.add(b);
            } else {
                insertInOrder(b);
            }
        }
        return b;
    }

    private void insertInOrder(Binding b) {
        int i = 0;
        while (i < bindings.size() && bindings.get(i).states.order() < b.states.order()) {
            i++;
        }
        bindings.add(i, b);
    }
}

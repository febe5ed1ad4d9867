package dev.enginestates.io;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.chart.Chart;
import dev.enginestates.chart.Invocation;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.records.Access;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which record runs which as a child, read from each parent's side through the world's public
 * reads ({@link StateRecord#children()}, {@link StateRecord#child(String)}): a child on an entity
 * of its own is the record there whose {@link StateRecord#parent()} is the parent's entity; a child
 * on the parent's own entity is the record of the machine the parent's invoke names. A dump
 * writes each child's link from them; checkpoints hold none (a restore derives the links again).
 */
final class ChildLinks {
    /**
     * One child's place.
     *
     * @param parent the record that invoked or spawned it
     * @param id     its id among the parent's children
     * @param child  its record
     */
    record Link(StateRecord<?> parent, String id, StateRecord<?> child) {
    }

    private final Map<StateRecord<?>, Link> byChild = new IdentityHashMap<>();

    private ChildLinks() {
    }

    /** The links of every live child in {@code world}, whose machines are {@code machines}. */
    static ChildLinks of(StateWorld world, List<States<?>> machines) {
        ChildLinks links = new ChildLinks();
        for (States<?> m : machines) {
            for (StateRecord<?> parent : world.records(m)) {
                List<String> ids = parent.children();
                for (String id : ids) {
                    Entity at = parent.child(id);
                    StateRecord<?> child = at == null ? null : childOn(world, machines, parent, id, at);
                    if (child != null) {
                        links.byChild.put(child, new Link(parent, id, child));
                    }
                }
            }
        }
        return links;
    }

    /** How {@code r} is a child, or {@code null} when it is nobody's. */
    Link parentOf(StateRecord<?> r) {
        return byChild.get(r);
    }

    /** Child {@code id} of {@code parent}, which runs on {@code at}: the record there that names the parent's entity as its parent. */
    private static StateRecord<?> childOn(StateWorld world, List<States<?>> machines, StateRecord<?> parent, String id, Entity at) {
        Entity home = parent.entity();
        String machine = null;
        if (at == home) {
            // on the parent's own entity, every record names it as parent: the invoke says which machine is the child
            Chart c = Access.chart(parent.states().machine());
            for (Invocation[] here : c.invokes == null ? new Invocation[0][] : c.invokes) {
                for (Invocation i : here) {
                    if (i.id.equals(id)) {
                        machine = i.machine.id();
                    }
                }
            }
            if (machine == null) {
                return null;
            }
        }
        for (States<?> m : machines) {
            if (machine != null && !m.id().equals(machine)) {
                continue;
            }
            StateRecord<?> r = at.get(m.recordType());
            if (r != null && r != parent && r.world() == world && r.parent() == home) {
                return r;
            }
        }
        return null;
    }
}

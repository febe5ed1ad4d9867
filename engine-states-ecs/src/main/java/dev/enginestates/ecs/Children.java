package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Machine;
import dev.enginestates.chart.Chart;
import dev.enginestates.chart.Invocation;
import dev.enginestates.declare.ChildMachine;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.InvokeBuilder;
import dev.enginestates.declare.MachineException;
import dev.enginestates.records.MachineRecord;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The child machines of one world: each is an ordinary record on an entity of its own (or on its
 * parent's), linked to the parent record that invoked or spawned it. An invoked child follows its
 * state: it starts when the state is active after a move and stops when it is not; its link is
 * derived again from the parent's configuration and the child's key after a restore, so a
 * checkpoint needs nothing but the records. A spawned child lives until its parent's record
 * leaves the world or the parent stops it.
 *
 * <p>A child's key is {@code "<parent key>/<id>"} when its parent's entity has a key; it has the
 * parent entity's {@link Owner}, so a stream shows it to whom it shows the parent.
 */
final class Children {
    /** How deep children nest: a machine whose children's children... would start a 17th level is refused. */
    static final int MAX_DEPTH = 16;
    /** The most children one parent record has at once. */
    static final int MAX_PER_PARENT = 4096;

    /** One child's place: its parent, its id, and (once started) its record. */
    static final class Link {
        /** The parent record (a swap hands the link to the newer record). */
        EntityRecord<?> parent;
        final String id;
        /** The invoke it runs for, or {@code null} for a spawned child (a swap points it into the newer chart). */
        Invocation invocation;
        final int depth;
        EntityRecord<?> child;
        /** The done event was sent (or the child ended): sent once per start. */
        boolean done;

        Link(EntityRecord<?> parent, String id, Invocation invocation, int depth) {
            this.parent = parent;
            this.id = id;
            this.invocation = invocation;
            this.depth = depth;
        }

        /** The child while its record is in a world (the one it started in: a child moved to another world is the game's). */
        EntityRecord<?> live() {
            EntityRecord<?> c = child;
            return c != null && c.world != null ? c : null;
        }
    }

    /** A record's family: the link that makes it a child, and the links of its own children. */
    static final class Family {
        Link asChild;
        Link[] children = new Link[2];
        int count;
        /** Events sent to it by its parent or children while it was processing one: delivered once it is done. */
        List<Event> inbox;
        /** Following its configuration now; a move during it follows again after. */
        boolean following;
        boolean again;

        Link find(String id) {
            for (int i = 0; i < count; i++) {
                if (children[i].id.equals(id)) {
                    return children[i];
                }
            }
            return null;
        }

        void add(Link l) {
            if (count == children.length) {
                children = Arrays.copyOf(children, count * 2);
            }
            children[count++] = l;
        }

        void remove(Link l) {
            for (int i = 0; i < count; i++) {
                if (children[i] == l) {
                    System.arraycopy(children, i + 1, children, i, count - i - 1);
                    children[--count] = null;
                    return;
                }
            }
        }
    }

    private final StateWorld world;
    /** Parents whose configuration was written whole (a restore, a frame): followed once the writes are done. */
    private final List<EntityRecord<?>> pending = new ArrayList<>();
    /** Children whose parent left: stopped once the call that removed the parent is done. */
    private final List<Link> orphans = new ArrayList<>();
    /** A replica's world: it links children the frames bring and starts or stops none. */
    boolean mirror;
    /**
     * More than 0 while children are started or stopped: those spawns, attaches and despawns follow
     * from a move, which an input log's replay makes again, so they are not the game's inputs.
     */
    int working;

    Children(StateWorld world) {
        this.world = world;
    }

    /** Whether a record's machine invokes children (the one test a move pays). */
    static boolean invokes(EntityRecord<?> r) {
        return r.states.chart().invokes != null;
    }

    // ------------------------------------------------------------------ after moves

    /** After a record moved: its invoked children follow its states; if it is a child and now done, its parent hears it. */
    void moved(EntityRecord<?> r) {
        working++; // what follows from a move (children, done events, queued events) is not the game's input
        try {
            followMove(r);
        } finally {
            working--;
        }
    }

    private void followMove(EntityRecord<?> r) {
        Family f = r.family();
        if (invokes(r)) {
            follow(r);
        }
        if (f != null && f.asChild != null) {
            childMoved(f.asChild, r);
        }
        f = r.family();
        while (f != null && f.inbox != null && !f.inbox.isEmpty() && r.world == world) {
            deliver(r, f.inbox.remove(0));
        }
        drainOutbox();
    }

    /** Delivers what machines sent their parents or children from code whose move is now done. */
    private void drainOutbox() {
        while (!outTargets.isEmpty()) {
            deliver(outTargets.remove(0), outEvents.remove(0));
        }
    }

    /** Events machines sent their parents or children from their own code, delivered once that move is done. */
    private final List<EntityRecord<?>> outTargets = new ArrayList<>();
    private final List<Event> outEvents = new ArrayList<>();

    /**
     * Sends {@code e} from {@code from}'s code to its parent or child {@code to}: once {@code from}'s
     * move is done, as an actor's mailbox takes it (so the receiver's answer, which may stop the
     * sender, never lands in the middle of the sender's transition).
     *
     * @return {@code true} when queued, else whether {@code to} took it
     */
    boolean post(EntityRecord<?> from, EntityRecord<?> to, Event e) {
        MachineRecord sender = from;
        if (sender.processing() != null) {
            outTargets.add(to);
            outEvents.add(e);
            return true;
        }
        return deliver(to, e);
    }

    /**
     * Sends {@code e} to {@code target} (a parent or a child) now, or, while it is processing an
     * event, once that move is done: a machine takes one event at a time, as an actor's mailbox does.
     *
     * @return whether the target took it now, or {@code true} when it is queued
     */
    boolean deliver(EntityRecord<?> target, Event e) {
        if (target.world != world) {
            return false;
        }
        MachineRecord rec = target;
        if (rec.processing() != null) {
            Family f = target.familyOrNew();
            if (f.inbox == null) {
                f.inbox = new ArrayList<>(2);
            }
            f.inbox.add(e);
            return true;
        }
        return target.states.send(target.entity, e);
    }

    /**
     * A record written whole (a restore, a rewind, a frame): its children follow once the writes are
     * done, and, if its key names a parent ({@code "<parent key>/<id>"}) and it is nobody's child yet,
     * it is linked to the parent record whose machine spawns its machine.
     */
    void written(EntityRecord<?> r) {
        Family f = r.family();
        if (invokes(r) || (f != null && f.count > 0)) {
            pending.add(r);
        }
        if ((f == null || f.asChild == null) && r.entity != null) {
            EntityKey key = r.entity.get(EntityKey.class);
            if (key != null && key.value().indexOf('/') > 0) {
                unlinked.add(r);
            }
        }
    }

    /** Records restored on keys that name a parent, to be linked once the writes are done. */
    private final List<EntityRecord<?>> unlinked = new ArrayList<>();

    /** Links a restored record keyed {@code "<parent key>/<id>"} to the parent's record that spawns its machine, if any. */
    private void linkSpawned(EntityRecord<?> r) {
        Family mine = r.family();
        if (r.world != world || r.entity == null || (mine != null && mine.asChild != null)) {
            return;
        }
        EntityKey key = r.entity.get(EntityKey.class);
        if (key == null) {
            return;
        }
        int cut = key.value().lastIndexOf('/');
        Entity home = world.entity(key.value().substring(0, cut));
        String id = key.value().substring(cut + 1);
        if (home == null || home.isDeleted()) {
            return;
        }
        for (Binding b : world.registry.all()) {
            EntityRecord<?> p = home.get(b.states.recordClass());
            if (p == null || p.world != world) {
                continue;
            }
            if (invokes(p, id, r.states.machine())) {
                pending.add(p); // its follow links the child its active state invokes
                return;
            }
            if (!spawns(p, r.states.machine())) {
                continue;
            }
            Family f = p.familyOrNew();
            Link old = f.find(id);
            if (old != null && old.invocation == null && old.live() == null) {
                f.remove(old); // the child the game despawned under this id: the one written now takes its place
                old = null;
            }
            if (old == null) {
                link(f, new Link(p, id, null, f.asChild == null ? 1 : f.asChild.depth + 1), r);
                return;
            }
        }
    }

    /** Whether {@code parent}'s machine invokes {@code machine} on an entity of its own as child {@code id}. */
    private static boolean invokes(EntityRecord<?> parent, String id, Machine<?> machine) {
        Invocation inv = invocation(parent.states.chart(), id);
        return inv != null && inv.machine == machine && !inv.sameEntity;
    }

    /** The invoke of {@code id} in a chart (ids are unique in a machine), or {@code null}. */
    private static Invocation invocation(Chart c, String id) {
        for (int s = 0; c.invokes != null && s < c.invokes.length; s++) {
            for (Invocation inv : c.invokes[s]) {
                if (inv.id.equals(id)) {
                    return inv;
                }
            }
        }
        return null;
    }

    /** An invoked link whose child is gone takes the free record of its machine found where the child lives, if any. */
    private void relink(EntityRecord<?> parent, Link l) {
        if (parent.entity == null || parent.entity.isDeleted()) {
            return;
        }
        Entity there = l.invocation.sameEntity ? parent.entity : keyedChild(parent, l.id);
        EntityRecord<?> found = there == null ? null : (EntityRecord<?>) there.get(States.of(machineOf(l.invocation.machine)).recordClass());
        if (found != null && found.world == world && (found.family() == null || found.family().asChild == null)) {
            l.child = found;
            found.familyOrNew().asChild = l;
            MachineRecord rec = found;
            l.done = rec.isDone(); // a child written done has told its parent where it ran
        }
    }

    private Entity keyedChild(EntityRecord<?> parent, String id) {
        EntityKey key = parent.entity.get(EntityKey.class);
        return key == null ? null : world.entity(key.value() + "/" + id);
    }

    /**
     * Refuses the game's despawn or detach of an invoked child while its parent runs it: an invoked
     * child lives exactly as long as its state, so a checkpoint (which holds records, not links)
     * always tells where one runs.
     */
    void checkNotInvoked(EntityRecord<?> r, Entity going, String call) {
        Family f = r.family();
        Link l = f == null ? null : f.asChild;
        if (l == null || l.invocation == null || mirror || working > 0 || l.parent.world != world || l.parent.entity == going) {
            return;
        }
        String state = l.parent.states.chart().path[l.invocation.state];
        throw new MachineException(r.machineId(), "cannot " + call + " '" + r.machineId() + "' on " + StateWorld.describe(r.entity)
                + ": it is child '" + l.id + "' that machine '" + l.parent.machineId() + "' on " + StateWorld.describe(l.parent.entity)
                + " invokes while in state '" + state + "', and an invoked child lives as long as that state; expected the"
                + " child to reach a final state, or its parent to leave '" + state + "'. Nothing was changed.");
    }

    /** Whether {@code parent}'s machine declares {@code machine} among those it spawns. */
    static boolean spawns(EntityRecord<?> parent, Machine<?> machine) {
        for (ChildMachine<?> m : parent.states.chart().spawns) {
            if (m == machine) {
                return true;
            }
        }
        return false;
    }

    /** Follows the parents written whole, and stops the children whose parents left; called between writes and calls. */
    void settle() {
        stopOrphans(); // first: a parent written anew may start a child under the key an orphan still has
        while (!unlinked.isEmpty()) {
            linkSpawned(unlinked.remove(unlinked.size() - 1));
        }
        while (!pending.isEmpty()) {
            EntityRecord<?> r = pending.remove(pending.size() - 1);
            if (r.world == world) {
                follow(r);
            }
        }
        stopOrphans();
        working++;
        try {
            drainOutbox();
        } finally {
            working--;
        }
    }

    /** Stops the children whose parents left the world. */
    void stopOrphans() {
        while (!orphans.isEmpty()) {
            stop(orphans.remove(orphans.size() - 1));
        }
    }

    /** The invoked children of {@code r}: stopped for states left, started (or found, after a restore) for states active. */
    void follow(EntityRecord<?> r) {
        Family f = r.familyOrNew();
        if (f.following) {
            f.again = true; // a child's start moved its parent: follow again once this pass is done
            return;
        }
        f.following = true;
        working++;
        try {
            do {
                f.again = false;
                followOnce(r, f);
            } while (f.again && r.world == world);
        } finally {
            f.following = false;
            working--;
        }
        working++;
        try {
            drainOutbox(); // what its children's starts sent
        } finally {
            working--;
        }
    }

    private void followOnce(EntityRecord<?> r, Family f) {
        MachineRecord rec = r;
        for (int i = f.count - 1; i >= 0; i--) {
            Link l = f.children[i];
            if (l.invocation != null && !rec.isActive(l.invocation.state)) {
                f.remove(l);
                stop(l);
            }
        }
        Invocation[][] table = r.states.chart().invokes;
        if (table == null || r.world != world) {
            return;
        }
        int n = rec.activeCount();
        for (int a = 0; a < n && r.world == world; a++) {
            Invocation[] here = table[rec.activeAt(a)];
            for (Invocation inv : here) {
                Link l = f.find(inv.id);
                if (l == null && rec.isActive(inv.state)) {
                    start(r, f, inv.id, inv, machineOf(inv.machine), null);
                } else if (l != null && l.live() == null) {
                    relink(r, l); // a frame or a restore wrote the child anew under its key
                }
            }
        }
    }

    // ------------------------------------------------------------------ start and stop

    /**
     * Starts (or, after a restore, finds) a child of {@code parent}: on a new entity keyed from the
     * parent's, or on the parent's entity. {@code context} is the spawned child's context; an invoked
     * child's comes from its input.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    Entity start(EntityRecord<?> parent, Family f, String id, Invocation inv, Machine<?> machine, Object context) {
        int depth = f.asChild == null ? 1 : f.asChild.depth + 1;
        String where = "machine '" + parent.machineId() + "' on " + StateWorld.describe(parent.entity);
        if (depth > MAX_DEPTH) {
            throw new MachineException(parent.machineId(), where + " would start child '" + id + "' (machine '" + machine.id()
                    + "') " + depth + " levels below its first parent; children nest at most " + MAX_DEPTH
                    + " levels, which a machine that starts itself again and again reaches. Nothing was started.");
        }
        if (f.count >= MAX_PER_PARENT) {
            throw new MachineException(parent.machineId(), where + " would start a " + (f.count + 1) + "th child ('" + id
                    + "'); a machine runs at most " + MAX_PER_PARENT + " children at once. Nothing was started.");
        }
        States states = States.of(machine);
        boolean sameEntity = inv != null && inv.sameEntity;
        Entity home = parent.entity;
        EntityKey parentKey = home == null ? null : home.get(EntityKey.class);
        EntityKey key = sameEntity || parentKey == null ? null : EntityKey.of(parentKey.value() + "/" + id);
        Link link = new Link(parent, id, inv, depth);
        // a child restored or brought by a frame is there already: link it
        Entity there = sameEntity ? home : (key == null ? null : world.entity(key.value()));
        EntityRecord<?> found = there == null ? null : (EntityRecord<?>) there.get(states.recordClass());
        if (found != null && found.world == world && (found.family() == null || found.family().asChild == null)) {
            link(f, link, found);
            return there;
        }
        if (mirror) {
            return null; // a replica shows what its room started, and starts nothing
        }
        if (there != null && !sameEntity) {
            throw new MachineException(parent.machineId(), where + " would start child '" + id + "' on a new entity keyed '"
                    + key.value() + "', but " + StateWorld.describe(there) + " has that key already without a free '" + machine.id()
                    + "' record; expected the key free for the child. Nothing was started.");
        }
        Object ctx = context;
        if (inv != null) {
            Object input = parent.contextObject();
            try {
                ctx = inv.input != null ? inv.input.apply(input) : machine.newContext();
            } catch (RuntimeException e) {
                throw new MachineException(parent.machineId(), where + ": the input of child '" + id + "' (machine '" + machine.id()
                        + "') threw " + e + " in state '" + parent.states.chart().path[inv.state] + "'; the parent stays in"
                        + " its state without the child", e);
            }
            if (ctx == null) {
                throw new MachineException(parent.machineId(), where + ": the input of child '" + id + "' gave null; expected a"
                        + " context for machine '" + machine.id() + "'. Nothing was started.");
            }
        }
        EntityRecord<?> child = EntityRecord.of(states.trait(ctx));
        link(f, link, child);
        try {
            if (sameEntity) {
                world.attach(home, child);
                there = home;
            } else {
                List<Object> parts = new ArrayList<>(3);
                parts.add(child);
                if (key != null) {
                    parts.add(key);
                }
                Owner owner = home == null || home.isDeleted() ? null : home.get(Owner.class);
                if (owner != null) {
                    parts.add(owner);
                }
                there = world.spawn(parts.toArray());
            }
        } catch (RuntimeException | Error e) {
            // the child's own children could not start (too deep, a throwing input): none of it stays
            f.remove(link);
            child.familyOrNew().asChild = null;
            link.done = true;
            if (child.world == world && !sameEntity && child.entity != null && !child.entity.isDeleted()) {
                world.despawn(child.entity);
            } else if (child.world == world && sameEntity) {
                world.detach(home, states);
            }
            throw e;
        }
        childMoved(link, child); // a child whose initial state is final is done at once
        return there;
    }

    private static void link(Family f, Link link, EntityRecord<?> child) {
        link.child = child;
        child.familyOrNew().asChild = link;
        f.add(link);
    }

    /** Stops a child: its entity despawned (its own children with it), or its record detached from the parent's entity. */
    void stop(Link l) {
        l.done = true;
        EntityRecord<?> c = l.live();
        if (c == null || c.world != world || mirror) {
            return;
        }
        if (c.family() != null && c.family().asChild == l) {
            c.family().asChild = null;
        }
        working++;
        try {
            if (l.invocation != null && l.invocation.sameEntity) {
                world.detach(c.entity, c.states);
            } else if (c.entity != null && !c.entity.isDeleted()) {
                world.despawn(c.entity);
            }
        } finally {
            working--;
        }
    }

    /**
     * A swap's record {@code to} takes over {@code from}'s family: spawned children stay, invoked
     * ones stay where the newer chart invokes the same id (they stop or start as its states say
     * once the swap is done), and a child swapped itself keeps its parent.
     */
    void carry(EntityRecord<?> from, EntityRecord<?> to) {
        Family f = from.takeFamily();
        if (f == null) {
            return;
        }
        to.family(f);
        if (f.asChild != null) {
            f.asChild.child = to;
        }
        for (int i = f.count - 1; i >= 0; i--) {
            Link l = f.children[i];
            l.parent = to;
            if (l.invocation != null) {
                Invocation same = invocation(to.states.chart(), l.id);
                if (same != null && (same.machine != l.invocation.machine || same.sameEntity != l.invocation.sameEntity)) {
                    same = null;
                }
                if (same == null) {
                    f.remove(l);
                    orphans.add(l); // the newer version invokes no such child
                } else {
                    l.invocation = same;
                }
            }
        }
        pending.add(to);
    }

    /** A record leaves the world: its children stop once the call that removed it is done; as a child, its link ends. */
    void left(EntityRecord<?> r) {
        Family f = r.family();
        if (f == null) {
            return;
        }
        for (int i = 0; i < f.count; i++) {
            orphans.add(f.children[i]);
        }
        Arrays.fill(f.children, 0, f.count, null);
        f.count = 0;
        Link l = f.asChild;
        if (l != null) {
            l.done = true; // an invoked child that went some other way is not started again while its state stays active
            Family parents = l.parent.family();
            if (l.invocation == null && parents != null && parents.find(l.id) == l) {
                parents.remove(l); // a spawned child that went frees its id and its place among the parent's children
            }
            f.asChild = null;
        }
    }

    /** After a child moved: once it is done, its parent hears {@code xstate.done.actor.<id>} with its output, once. */
    private void childMoved(Link l, EntityRecord<?> child) {
        MachineRecord rec = child;
        if (l.done || !rec.isDone() || l.child != child) {
            return;
        }
        l.done = true;
        EntityRecord<?> parent = l.parent;
        if (parent.world != world || mirror) {
            return;
        }
        Chart pc = parent.states.chart();
        String type = InvokeBuilder.doneEvent(l.id);
        if (pc.eventId(type) < 0) {
            return; // the parent declares nothing on it
        }
        Object output = rec.contextObject();
        if (l.invocation != null && l.invocation.output != null) {
            try {
                output = l.invocation.output.apply(output);
            } catch (RuntimeException e) {
                throw new MachineException(parent.machineId(), "machine '" + parent.machineId() + "' on " + StateWorld.describe(parent.entity)
                        + ": the output of child '" + l.id + "' (machine '" + child.machineId() + "') threw " + e
                        + "; its done event was not sent", e);
            }
        }
        Event done = Event.of(type, output == null ? Map.of() : Map.of("output", output));
        deliver(parent, done);
    }

    // ------------------------------------------------------------------ what game code asks

    /** The live child {@code id} of {@code r}, or {@code null}. */
    static EntityRecord<?> child(EntityRecord<?> r, String id) {
        Family f = r.family();
        Link l = f == null ? null : f.find(id);
        return l == null ? null : l.live();
    }

    /** The parent of {@code r}, or {@code null} when it is nobody's child. */
    static EntityRecord<?> parent(EntityRecord<?> r) {
        Family f = r.family();
        return f == null || f.asChild == null || f.asChild.parent.world != r.world ? null : f.asChild.parent;
    }

    /** The ids of {@code r}'s live children, in the order they started. */
    static List<String> ids(EntityRecord<?> r) {
        Family f = r.family();
        List<String> ids = new ArrayList<>();
        for (int i = 0; f != null && i < f.count; i++) {
            if (f.children[i].live() != null) {
                ids.add(f.children[i].id);
            }
        }
        return ids;
    }

    /** A spawned child: refused when the id is taken; stopped with its parent or by {@link #stopSpawned}. */
    Entity spawn(EntityRecord<?> parent, String id, ChildMachine<?> declared, Object context) {
        checkId(parent, id);
        Machine<?> machine = machineOf(declared);
        if (!spawns(parent, machine)) {
            throw new IllegalArgumentException("machine '" + parent.machineId() + "' on " + StateWorld.describe(parent.entity)
                    + " cannot spawn child '" + id + "' of machine '" + machine.id() + "', which it does not declare; expected"
                    + " spawns(" + machine.id().toUpperCase(java.util.Locale.ROOT) + ") in its declaration, so a restore can"
                    + " link the child again. Nothing was started.");
        }
        Family f = parent.familyOrNew();
        Link old = f.find(id);
        if (old != null && old.live() != null) {
            throw new MachineException(parent.machineId(), "machine '" + parent.machineId() + "' on " + StateWorld.describe(parent.entity)
                    + " has a child '" + id + "' already; expected a new id (stop it first)");
        }
        if (old != null) {
            f.remove(old);
        }
        if (invocation(parent.states.chart(), id) != null) {
            throw new MachineException(parent.machineId(), "machine '" + parent.machineId() + "' invokes a child '"
                    + id + "'; a spawned child needs another id");
        }
        working++;
        try {
            return start(parent, f, id, null, machine, context);
        } finally {
            working--;
        }
    }

    /** Stops the spawned child {@code id}; false when there is none. */
    boolean stopSpawned(EntityRecord<?> parent, String id) {
        Family f = parent.family();
        Link l = f == null ? null : f.find(id);
        if (l == null || l.invocation != null) {
            return false;
        }
        f.remove(l);
        boolean live = l.live() != null;
        stop(l);
        return live;
    }

    private void checkId(EntityRecord<?> parent, String id) {
        if (id == null || id.isBlank() || id.contains("/") || id.contains(".") || id.contains("*")) {
            throw new IllegalArgumentException("machine '" + parent.machineId() + "': a child's id must be a plain name, not"
                    + " empty, without '/', '.' or '*'; got '" + id + "'");
        }
    }

    /** The machine a declaration names as a child: a declared {@code Machine}, the one kind there is. */
    static Machine<?> machineOf(ChildMachine<?> m) {
        if (m instanceof Machine<?> machine) {
            return machine;
        }
        throw new IllegalArgumentException("a child machine must be a declared Machine (Machine.define, or a definition's"
                + " machine()); got " + m);
    }
}

package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.Event;
import dev.enginestates.dominion.IntEntity;
import dev.enginestates.declare.Self;

/**
 * The {@link Self} a machine's code receives in the ECS binding: made the first time its record's
 * code asks for it (see {@link EntityRecord#newSelf()}), it reads the record's entity and world
 * as they are now, so it follows the record from spawn to despawn (and to another entity, if the
 * record is detached and attached again). What it does to the machine itself (raise, send to
 * itself, cancel, {@code In}) is the record's.
 */
final class EntitySelf implements Self {
    /** The record on the entity (the component). */
    private final EntityRecord<?> record;

    EntitySelf(EntityRecord<?> record) {
        this.record = record;
    }

    @Override
    public void raise(Event event) {
        record.raise(event);
    }

    @Override
    public void raise(String type) {
        record.raise(type);
    }

    @Override
    public void sendSelf(Event event, double delaySeconds, String id) {
        record.sendSelf(event, delaySeconds, id);
    }

    @Override
    public void cancel(String id) {
        record.cancel(id);
    }

    /** The record: its generator's state is one of its fields. */
    @Override
    public Self.Draws random() {
        return record;
    }

    @Override
    public boolean isIn(String state) {
        return record.isIn(state);
    }

    /** The record's entity while the record is in a world and on that live entity; else {@code null}. */
    private Entity live() {
        Entity e = record.entity;
        if (record.world == null || e == null || e.isDeleted()) {
            return null;
        }
        // while the entity's composition is the one the world last found the record in, the record
        // is there; otherwise look (it may have been removed through Dominion directly)
        int chunk = e instanceof IntEntity ie ? ie.chunkNumber() : -1;
        if (chunk != -1 && chunk == record.foundIn) {
            return e;
        }
        return e.get(record.states.recordClass()) == record ? e : null;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <E> E entity() {
        return (E) live();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <W> W world() {
        return live() == null ? null : (W) record.world;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <M> M machine() {
        return (M) record;
    }

    @Override
    public boolean attached() {
        return live() != null;
    }

    @Override
    public <T> T get(Class<T> type) {
        Entity e = live();
        return e == null ? null : e.get(type);
    }

    @Override
    public boolean has(Class<?> type) {
        Entity e = live();
        return e != null && e.has(type);
    }

    @Override
    public Object handle() {
        return live();
    }

    @Override
    public void add(Object component) {
        if (component instanceof EntityRecord || component instanceof StateTag) {
            throw new IllegalArgumentException("machine '" + record.machineId() + "': self.add(" + component + ") would put a machine's "
                    + (component instanceof StateTag ? "state tag" : "record") + " on the entity by hand; expected another component"
                    + " (attach a machine with world.attach; tags follow their record)");
        }
        entityFor("add " + component).add(component);
    }

    @Override
    public boolean remove(Class<?> type) {
        if (EntityRecord.class.isAssignableFrom(type) || StateTag.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException("machine '" + record.machineId() + "': self.remove(" + type.getSimpleName()
                    + ") would take a machine's " + (StateTag.class.isAssignableFrom(type) ? "state tag" : "record")
                    + " off the entity by hand; expected another component type (detach a machine with world.detach)");
        }
        return entityFor("remove " + type.getSimpleName()).removeType(type);
    }

    @Override
    public boolean send(Object entity, String event) {
        return record.states.send(other(entity, event), event);
    }

    @Override
    public boolean send(Object entity, Event event) {
        return record.states.send(other(entity, event.type()), event);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <K, E> E spawnChild(String id, dev.enginestates.declare.ChildMachine<K> machine, K context) {
        java.util.Objects.requireNonNull(machine, "machine");
        java.util.Objects.requireNonNull(context, "context");
        entityFor("start child '" + id + "'");
        return (E) record.world.children.spawn(record, id, machine, context);
    }

    @Override
    public boolean stopChild(String id) {
        entityFor("stop child '" + id + "'");
        return record.world.children.stopSpawned(record, id);
    }

    @Override
    public boolean sendTo(String id, Event event) {
        java.util.Objects.requireNonNull(event, "event");
        EntityRecord<?> child = Children.child(record, id);
        return child != null && record.world.children.post(record, child, event);
    }

    @Override
    public boolean sendParent(Event event) {
        java.util.Objects.requireNonNull(event, "event");
        EntityRecord<?> parent = Children.parent(record);
        return parent != null && record.world.children.post(record, parent, event);
    }

    private Entity other(Object entity, String event) {
        if (!(entity instanceof Entity)) {
            throw new IllegalArgumentException("machine '" + record.machineId() + "': self.send(" + entity + ", '" + event
                    + "') needs a Dominion Entity to send to; got " + (entity == null ? "null" : entity.getClass().getName()));
        }
        return (Entity) entity;
    }

    private Entity entityFor(String what) {
        Entity e = live();
        if (e == null) {
            throw new IllegalStateException("machine '" + record.machineId() + "' cannot " + what + ": its record is on no live entity"
                    + " (not spawned yet, despawned or detached); expected self.attached() to be true");
        }
        return e;
    }

    @Override
    public String toString() {
        Entity e = live();
        return "Self(" + record.machineId() + " on " + (e == null ? "no entity" : StateWorld.describe(e)) + ")";
    }
}

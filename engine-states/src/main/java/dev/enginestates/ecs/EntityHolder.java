package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.Holder;

/** A machine's entity as its {@code when} tests see it. */
final class EntityHolder implements Holder {
    private final Entity entity;
    private final StateWorld world;

    EntityHolder(Entity entity, StateWorld world) {
        this.entity = entity;
        this.world = world;
    }

    @Override
    public <T> T get(Class<T> type) {
        return entity.get(type);
    }

    @Override
    public boolean has(Class<?> type) {
        return entity.has(type);
    }

    @Override
    public Object handle() {
        return entity;
    }

    @Override
    public Object world() {
        return world;
    }
}

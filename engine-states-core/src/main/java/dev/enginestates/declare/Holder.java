package dev.enginestates.declare;

/**
 * What holds a machine, as a {@code when} test sees it: in the ECS binding the entity (the
 * world's own entity for a world-level machine), whose other components a test may read, as
 * a rider's test reads its speed. Declared here so that declarations need no
 * ECS types. The holder a {@code when} test receives is the machine's {@link Self}, which adds
 * the entity, the machine and changes to the entity's components.
 */
public interface Holder {
    /**
     * The holder's component of that type, or {@code null}.
     *
     * @param <T> the component's type
     * @param type the component's class
     * @return the component, or {@code null} when the holder has none (in the plain face: the context when it
     *         is a {@code type}, else {@code null})
     */
    <T> T get(Class<T> type);

    /**
     * Whether the holder has a component of that type.
     *
     * @param type the component's class
     * @return whether it has one (in the plain face: whether the context is a {@code type})
     */
    boolean has(Class<?> type);

    /**
     * The holder itself: a Dominion {@code Entity} in the ECS binding, the context in the plain face.
     *
     * @return the entity or the context; {@code null} while the machine is on no live entity
     */
    Object handle();

    /**
     * The world the holder lives in: the {@code StateWorld} in the ECS binding (a test
     * on an entity may read the entity and the world), {@code null} in the plain face. Typed by
     * the assignment: {@code StateWorld world = holder.world();}.
     *
     * @param <W> the world's type
     * @return the world, or {@code null}
     */
    default <W> W world() {
        return null;
    }
}

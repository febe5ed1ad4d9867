package dev.enginestates.declare;


/**
 * What a machine's own code sees of the machine it runs for, besides its context and the
 * event: the entity it is on, the world, and the machine itself. Every piece of a machine's
 * code may take it as a third argument, {@code (ctx, event, self)}: actions
 * ({@link SelfAction}), guards and {@code when} tests ({@link SelfGuard}) and wait-seconds
 * functions ({@link SelfSeconds}).
 *
 * <pre>{@code
 * .state("burning", s -> s
 *     .entry((tree, e, self) -> self.add(new OnFire()))                     // a component on its own entity
 *     .on("SPREAD", t -> t.action((tree, e, self) ->
 *             self.send(self.get(Neighbour.class).entity(), "IGNITE")))      // an event to a neighbour
 *     .when((tree, e, self) -> self.get(Health.class).hp <= 0, "ash"))      // a test reading another component
 * }</pre>
 *
 * <p>On an entity ({@code States}, {@code StateWorld}), {@link #entity()} is the Dominion
 * {@code Entity} the machine's record is on (the world's own for a world-level machine) and
 * {@link #world()} the {@code StateWorld}; both are {@code null} before the record is spawned
 * or attached (a wait's seconds function of the initial state runs when {@code trait()} makes
 * the record) and once it has left its entity (despawned, detached, or its entity deleted):
 * {@link #attached()} says which. On a plain machine ({@code plain.StateMachine}) there is no
 * entity and no world: both are {@code null}, {@link #attached()} is {@code false},
 * {@link #add}, {@link #remove} and {@link #send} throw, and {@link #get} and {@link #has} find
 * the context by its type (a plain machine's holder is its context). {@link #machine()} is the
 * machine's own face in either case.
 *
 * <p>The object is the machine's own for its life (one per record, made with it), so reading
 * it allocates nothing; keep it only as long as the machine. Declared here so that
 * declarations and the algorithm need no ECS types: the entity and the world are typed by the
 * assignment ({@code Entity me = self.entity();}, or {@code self.<Entity>entity()} in an
 * expression).
 */
public interface Self extends Holder {
    /**
     * The entity the machine runs on: a Dominion {@code Entity} in a world; {@code null} on a
     * plain machine, and while the machine is on no live entity ({@link #attached()} false).
     *
     * @param <E> the entity type, {@code dev.dominion.ecs.api.Entity} in the ECS binding
     * @return the entity, or {@code null} when there is none
     */
    <E> E entity();

    /**
     * The world the machine's entity lives in: the {@code StateWorld} in the ECS binding;
     * {@code null} on a plain machine, and while the machine is on no live entity.
     *
     * @param <W> the world type, {@code dev.enginestates.ecs.StateWorld} in the ECS binding
     */
    @Override
    <W> W world();

    /**
     * The machine's own face, to read it as a game does: its {@code StateRecord} on an entity,
     * the {@code plain.StateMachine} on a plain object.
     *
     * @param <M> the face's type
     * @return the {@code StateRecord} or the {@code plain.StateMachine}; {@code null} for a record no face runs yet
     */
    <M> M machine();

    /**
     * Whether the machine is on a live entity of a world. {@code false} on a plain machine,
     * before the record is spawned, and after its entity is despawned or the machine detached.
     *
     * @return {@code true} while {@link #entity()} and {@link #world()} are not {@code null}
     */
    boolean attached();

    /**
     * Adds a component to the machine's entity (Dominion's {@code entity.add}). Safe during a
     * step: the world's step walks its own lists, not a Dominion query, so no machine is
     * stepped twice or skipped because its entity changed composition.
     *
     * @param component the component to add; not a machine's record or state tag
     * @throws IllegalStateException    if the machine is on no live entity (a plain machine, or a despawned one)
     * @throws IllegalArgumentException if the component is a machine's record or state tag (use the world's
     *                                  {@code attach}; tags follow their record)
     */
    void add(Object component);

    /**
     * Removes the component of that type from the machine's entity.
     *
     * @param type the component's class; not a machine's record or state tag
     * @return whether the entity had one
     * @throws IllegalStateException    if the machine is on no live entity
     * @throws IllegalArgumentException if the type is a machine's record or state tag (use the world's {@code detach})
     */
    boolean remove(Class<?> type);

    /**
     * Sends an event to this same machine on another entity (a neighbour), now, as the machine's
     * {@code send} does; it moves at once, tags included. For another machine, use that
     * machine's own {@code send}. A machine cannot send to itself from its own code: it takes one
     * event at a time.
     *
     * @param entity the other entity: a Dominion {@code Entity} of the same world
     * @param event the event's type, such as {@code "IGNITE"}
     * @return whether a state of the other machine took the event
     * @throws IllegalStateException    on a plain machine, which has no world to find the entity in
     * @throws IllegalArgumentException if {@code entity} is not an entity
     */
    boolean send(Object entity, String event);

    /**
     * Sends an event with fields to this same machine on another entity; see {@link #send(Object, String)}.
     *
     * @param entity the other entity: a Dominion {@code Entity} of the same world
     * @param event the event, with its fields
     * @return whether a state of the other machine took the event
     */
    boolean send(Object entity, Event event);

    /**
     * Raises an event on the machine's internal queue, from its own code (an entry, exit or
     * transition action): it is processed in the same macrostep, once the eventless transitions
     * have settled, one microstep per event, in the order raised, before any event from outside
     * (SCXML's {@code <raise>}, XState's {@code raise}). An internal event no transition takes is
     * dropped.
     *
     * @param event the event, with its fields; not {@code null}
     * @throws UnknownEventException if no descriptor of the machine matches its type (unless the machine
     *                               accepts unknown events); nothing is raised
     * @throws IllegalStateException if the machine is processing no event now (the code runs outside a
     *                               step of its machine), or runs on no machine
     */
    default void raise(Event event) {
        throw new IllegalStateException(this + " runs no machine, so it cannot raise '" + event.type() + "'");
    }

    /**
     * Raises an event with no fields; see {@link #raise(Event)}. Allocation-free for a type some
     * state names exactly.
     *
     * @param type the event's type
     * @throws UnknownEventException if no descriptor of the machine matches the type (unless the machine accepts
     *                               unknown events)
     * @throws IllegalStateException if the machine is processing no event now
     */
    default void raise(String type) {
        raise(Event.of(type));
    }

    /**
     * Sends an event to the machine's own external queue (SCXML's {@code <send>} with no target,
     * XState's delayed {@code raise} or {@code sendTo(self)}). With no
     * delay it is processed right after the current macrostep, before the next event from
     * outside reaches this machine; with a delay, once the machine's clock (the world's fixed
     * step, or a plain machine's {@code step(dt)}) has advanced that many seconds; sends falling
     * due together are processed in the order sent. A held machine's clock stands still, so its
     * delayed sends wait with it. Pending sends are part of the machine's record: checkpoints,
     * dumps, restores and input logs keep them; a despawned machine's are dropped.
     *
     * @param event        the event, with its fields; not {@code null}
     * @param delaySeconds seconds from now, finite and 0 or more
     * @param id           a name to {@link #cancel} it by, or {@code null}
     * @throws UnknownEventException    if no descriptor of the machine matches its type (unless the machine
     *                                  accepts unknown events); nothing is queued
     * @throws IllegalArgumentException if the delay is negative, NaN or infinite
     * @throws IllegalStateException    if the machine is processing no event now, or runs on no machine
     */
    default void sendSelf(Event event, double delaySeconds, String id) {
        throw new IllegalStateException(this + " runs no machine, so it cannot send '" + event.type() + "' to itself");
    }

    /**
     * Cancels every pending send to itself made with this id (SCXML's {@code <cancel>}, XState's
     * {@code cancel}); a no-op when there is none.
     *
     * @param id the id given to {@link #sendSelf}; not {@code null}
     * @throws IllegalStateException if the machine is processing no event now, or runs on no machine
     */
    default void cancel(String id) {
        throw new IllegalStateException(this + " runs no machine, so it cannot cancel '" + id + "'");
    }

    /**
     * Whether a state of the machine is active now (SCXML's {@code In(id)}, XState's {@code stateIn}).
     *
     * @param state the state's path from the root ({@code "combat.engage"}) or {@code "#id"}
     * @return {@code true} when that state is active
     * @throws IllegalArgumentException if the name names no state of the machine (the message names the closest ones)
     * @throws IllegalStateException    if this object runs no machine
     */
    default boolean isIn(String state) {
        throw new IllegalStateException(this + " runs no machine, so it cannot tell whether '" + state + "' is active");
    }
}

package dev.enginestates.declare;

import java.util.List;

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
     * Starts a child machine that lives until this machine's record leaves its world or
     * {@link #stopChild} stops it, as XState's {@code spawnChild}: a squad's members, a quest's
     * steps. On a world it is a record on a new entity (keyed {@code "<this key>/<id>"} when this
     * entity has a key, with this entity's owner), which a query finds by its tags like any other.
     * When it reaches a final state at its top level, this machine receives
     * {@code "xstate.done.actor.<id>"} with its context as {@code "output"}, if it declares that event.
     *
     * @param <K>     the child's context type
     * @param id      the child's id among this machine's children: a plain name, without {@code '/'}
     * @param machine the child's machine
     * @param context the child's context, used as given
     * @param <E>     the entity type of the face ({@code Entity} on a world)
     * @return the child's entity
     * @throws IllegalStateException on a face without entities (a plain object)
     */
    default <K, E> E spawnChild(String id, ChildMachine<K> machine, K context) {
        throw new IllegalStateException(this + " runs on no world, so it cannot start child '" + id + "'; child machines live on entities");
    }

    /**
     * Stops a child started with {@link #spawnChild}: its entity is despawned, its own children with it.
     *
     * @param id the child's id
     * @return {@code true} if a live child of that id was stopped
     */
    default boolean stopChild(String id) {
        throw new IllegalStateException(this + " runs on no world, so it has no child '" + id + "' to stop");
    }

    /**
     * Sends an event to a child of this machine, invoked or spawned, by its id. From this machine's
     * own code (an action) the child takes it once this move is done, as an actor's mailbox does.
     *
     * @param id    the child's id
     * @param event the event
     * @return whether the child took it, or {@code true} when the event waits for this move or the child's
     *         to be done; {@code false} when no child of that id runs now
     */
    default boolean sendTo(String id, Event event) {
        throw new IllegalStateException(this + " runs on no world, so it has no child '" + id + "' to send '" + event.type() + "' to");
    }

    /**
     * Sends an event to this machine's parent (the machine that invoked or spawned it). From this
     * machine's own code the parent takes it once this move is done, as an actor's mailbox does.
     *
     * @param event the event, of a type the parent knows
     * @return whether the parent took it, or {@code true} when the event waits for this move or the
     *         parent's to be done; {@code false} when this machine is nobody's child
     */
    default boolean sendParent(Event event) {
        throw new IllegalStateException(this + " runs on no world, so it has no parent to send '" + event.type() + "' to");
    }

    /**
     * The machine's own random numbers: {@code self.random().between(2, 5)} for a random wait,
     * {@code self.random().chance(0.3)} in a guard for a random choice between targets. Their
     * generator is kept in the machine's record, so a checkpoint and its restore, the replay of an
     * input log and a replica all draw what a straight run draws; {@code java.util.Random} or
     * {@code Math.random()} in a machine's code would not. The object is the machine's own, read
     * without allocating, and no draw allocates.
     *
     * @return the machine's {@link Draws}
     * @throws IllegalStateException if this object runs no machine
     */
    default Draws random() {
        throw new IllegalStateException(this + " runs no machine, so it has no random numbers of its own to draw");
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

    /**
     * A machine's own random numbers, which its code reaches with {@link Self#random()}: a random
     * wait ({@code waitFor((ctx, e, self) -> self.random().between(2, 5), ...)}), a random choice
     * between targets (guards that draw), a random pick in an action. The generator's state lives in
     * the machine's record, so a checkpoint, a restore, the replay of an input log and a replica
     * carry it: after any of them the machine draws what a straight run would have drawn.
     *
     * <p>Each record draws from a stream of its own, seeded on its first draw from the world's seed
     * ({@code StateWorld.randomSeed}), the entity's key and the machine's id; a plain machine's from
     * its id, or the seed given to its constructor. What a record draws before it is on an entity
     * (its initial state's wait, which {@code trait()} computes) comes from its machine's id alone,
     * the same for every record; its stream is mixed with its entity's when it is spawned. Every
     * method here is built on {@link #nextLong()} and allocates nothing. Not for cryptography.
     */
    interface Draws {
        /**
         * The next 64 random bits; every other draw is made of these.
         *
         * @return any long, each value as likely as another
         */
        long nextLong();

        /**
         * A whole number from 0 up to {@code bound}, not included, each as likely as another.
         *
         * @param bound 1 or more
         * @return 0 to {@code bound - 1}
         * @throws IllegalArgumentException if {@code bound} is 0 or less
         */
        default int nextInt(int bound) {
            if (bound <= 0) {
                throw new IllegalArgumentException("random().nextInt(" + bound + "): expected a bound of 1 or more (the numbers drawn are 0 to"
                        + " bound - 1)");
            }
            // 32 random bits times the bound: the high half is the number; the few low halves that would
            // favour some numbers are drawn again, so each number is exactly as likely
            long m = (nextLong() >>> 32) * bound;
            if ((m & 0xFFFFFFFFL) < bound) {
                long refused = (0x100000000L - bound) % bound; // 2^32 mod bound
                while ((m & 0xFFFFFFFFL) < refused) {
                    m = (nextLong() >>> 32) * bound;
                }
            }
            return (int) (m >>> 32);
        }

        /**
         * A whole number from {@code from} up to {@code to}, not included (as {@code java.util.Random}
         * counts): {@code nextInt(1, 7)} rolls a die.
         *
         * @param from the smallest number drawn
         * @param to   one more than the largest number drawn; greater than {@code from}
         * @return {@code from} to {@code to - 1}
         * @throws IllegalArgumentException if {@code to} is not greater than {@code from}
         */
        default int nextInt(int from, int to) {
            if (to <= from) {
                throw new IllegalArgumentException("random().nextInt(" + from + ", " + to + "): expected 'to' greater than 'from' (the numbers"
                        + " drawn are from to to - 1)");
            }
            long width = (long) to - from;
            if (width <= Integer.MAX_VALUE) {
                return from + nextInt((int) width);
            }
            while (true) { // wider than an int's positive half: draw ints until one falls in the range (more than half do)
                int n = (int) (nextLong() >>> 32);
                if (n >= from && n < to) {
                    return n;
                }
            }
        }

        /**
         * A number from 0 up to 1, not included, on a grid of 2^53 evenly spaced values.
         *
         * @return 0 (included) to 1 (not included)
         */
        default double nextDouble() {
            return (nextLong() >>> 11) * 0x1.0p-53;
        }

        /**
         * A number from {@code min} up to {@code max}: seconds for a random wait,
         * {@code self.random().between(2, 5)}.
         *
         * @param min the smallest value, finite
         * @param max the largest, finite and not less than {@code min}
         * @return {@code min} (included) to {@code max} (not included), or {@code min} when they are equal
         * @throws IllegalArgumentException if either is not finite, or {@code max} is less than {@code min}
         */
        default double between(double min, double max) {
            if (!(min <= max) || Double.isInfinite(min) || Double.isInfinite(max)) {
                throw new IllegalArgumentException("random().between(" + min + ", " + max + "): expected finite numbers with min <= max");
            }
            double v = min + nextDouble() * (max - min);
            return v < max ? v : min; // rounding can reach max; it stays out, as the other draws keep their upper end out
        }

        /**
         * Whether a thing that happens with probability {@code p} happens this time:
         * {@code chance(0.25)} holds one time in four.
         *
         * @param p 0 (never) to 1 (always)
         * @return {@code true} with probability {@code p}
         * @throws IllegalArgumentException if {@code p} is below 0, above 1 or NaN
         */
        default boolean chance(double p) {
            if (!(p >= 0 && p <= 1)) {
                throw new IllegalArgumentException("random().chance(" + p + "): expected a probability from 0 to 1");
            }
            return nextDouble() < p;
        }

        /**
         * One of the options, each as likely as another. Keep the array in a constant: an array
         * written in the call ({@code new String[] {...}}) is made again on every call.
         *
         * @param <T>     the options' type
         * @param options one or more options
         * @return one of them
         * @throws IllegalArgumentException if there are none
         */
        default <T> T pick(T[] options) {
            if (options.length == 0) {
                throw new IllegalArgumentException("random().pick(...): expected one or more options, got none");
            }
            return options[nextInt(options.length)];
        }

        /**
         * One element of the list, each as likely as another.
         *
         * @param <T>     the elements' type
         * @param options one or more options
         * @return one of them
         * @throws IllegalArgumentException if the list is empty
         */
        default <T> T pick(List<T> options) {
            if (options.isEmpty()) {
                throw new IllegalArgumentException("random().pick(...): expected one or more options, got an empty list");
            }
            return options.get(nextInt(options.size()));
        }
    }
}

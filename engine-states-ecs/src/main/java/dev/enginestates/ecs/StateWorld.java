package dev.enginestates.ecs;

import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.dominion.ecs.api.Scheduler;
import dev.enginestates.dominion.EntityRepository;
import dev.enginestates.declare.Event;
import dev.enginestates.MachineListener;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.UserCodeException;
import dev.enginestates.Machine;
import dev.enginestates.algorithm.Migrator;
import dev.enginestates.algorithm.RecordImage;
import dev.enginestates.algorithm.Scratch;
import dev.enginestates.declare.Migration;
import dev.enginestates.algorithm.Interpreter;
import dev.enginestates.algorithm.TimeRules;
import dev.enginestates.chart.Chart;
import dev.enginestates.records.MachineRecord;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * One room: a thin facade over a Dominion world that spawns entities with machines, keeps
 * their tags in line with their records, finds entities by state, and runs the fixed step.
 *
 * <p>The step ({@link #step(double)}), for each machine in the order machines were declared:
 * first the waits that fall due within the step, in time order, then the {@code when} rules of
 * the states that have them (a child's before its parent's; the first that holds moves). A
 * machine's tags move with its record, at once, so a later machine's {@code when} test sees
 * them. Costs follow what happens: a machine with no wait and no {@code when} costs nothing per
 * step, a waiting machine nothing until its wait is due (due times sit in a heap per machine),
 * and holds cost in proportion to the held entities.
 *
 * <p>Time: a wait entered by a send before a step, or by a {@code when} during it, counts
 * that step's seconds (a {@code when} that moves a machine which a wait already moved in the
 * same step counts from that move, so no second is counted twice). A wait ends at its due time:
 * the state it leads to starts its own wait then, not at the end of the step, and if that wait
 * falls due within the same step it ends in it too, so a long step takes every wait due within
 * it, in time order, up to {@link #MAX_WAITS_PER_STEP} per machine, waits and due sends to itself
 * together (the rest follow on the next steps, each at its own due time). A due time within
 * {@link #TIME_TOLERANCE} of the clock counts as reached.
 *
 * <p>Game code during a step (actions, guards, {@code when} tests, seconds functions) may spawn,
 * despawn, attach, detach and hold, its own entity included; a machine that joins during a step
 * is stepped from the next one, and each machine is stepped at most once per step. If game code
 * throws, only its own machine is affected (its record stays a valid configuration): the step
 * goes on with every other machine, and the failures reach the game after the step, each naming
 * the machine, the entity's key, the state and the event, through {@link #onFailure} or, by
 * default, as one {@link StepFailedException}.
 *
 * <p>A world belongs to one thread at a time, the one that made it: a call from another thread
 * fails at once with {@link IllegalStateException} and changes nothing. To hand a world to another
 * thread (a room moving between an actor system's threads), call {@link #release()} on the owning
 * thread; the next thread to use it takes it. Worlds are independent; machine definitions are
 * shared by all of them.
 *
 * <p>This class is the facade (spawning, keys, moves from outside a tick, the clock, hand-over
 * between threads); its parts each have a file and one job: {@code Registry} (the machines and
 * their records), {@code Ticks} (the fixed step), {@code DueWaits}, {@code WhenRules},
 * {@code Holds}, {@code Interpreters} (one per nesting depth of moves) and {@code TagMoves}.
 */
public final class StateWorld implements AutoCloseable {
    /**
     * A due time within this many seconds of the clock counts as reached: floating-point sums
     * of steps such as 1/60 s fall a hair short of round numbers, and a 4-second wait at 60 Hz
     * must end on step 240, not 241.
     */
    public static final double TIME_TOLERANCE = TimeRules.TIME_TOLERANCE;

    /**
     * The most wait transitions one machine takes in one step. A long step takes every wait that
     * falls due within it, chained ones included, up to this many; the rest follow on the next
     * steps, each at its own due time (a cycle of zero-second waits moves this many times a step).
     */
    public static final int MAX_WAITS_PER_STEP = TimeRules.MAX_WAITS_PER_STEP;

    /**
     * The longest step, in seconds (1e12, 31,700 years), on a world and on the plain machines
     * alike: it is the most a checkpoint keeps in any clock or wait, so every state a step leaves
     * can be saved and restored. A longer {@code dt} is refused.
     */
    public static final double MAX_STEP_SECONDS = TimeRules.MAX_SECONDS;

    /** Worlds are made by the patched engine directly, never through ServiceLoader, which could pick the official jar. */
    private static final Dominion.Factory PATCHED_DOMINION = new EntityRepository.Factory();
    private static final VarHandle OWNER;

    static {
        try {
            OWNER = MethodHandles.lookup().findVarHandle(StateWorld.class, "owner", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Dominion dominion;
    final EntityRepository repository;
    private final Entity self;
    /** The thread this world belongs to, or {@code null} once released (the next thread to use it takes it). */
    @SuppressWarnings("unused") // read and written through OWNER too
    private volatile Thread owner = Thread.currentThread();
    private final Map<String, Entity> byKey = new HashMap<>();
    private Consumer<MachineFailure> onFailure;

    // the world's state, shared with its parts (each in a file of its own, one job each)
    /** Seconds of fixed steps so far. */
    double clock;
    /** The clock at the start of the tick under way. */
    double stepStart;
    long steps;
    /** The seed of its records' random numbers ({@link #randomSeed(long)}). */
    private long randomSeed;
    /** How many records on entities without a key have seeded their random numbers. */
    long unkeyedDraws;
    /** Whether a tick is under way. */
    boolean stepping;
    /** Above 0 while {@link #writeAll} runs: listener failures wait for its end. */
    private int batch;
    /** How deep the listeners are being told of records a restore or a replica's frame overwrote, while more are still to be written. */
    private int tellingWrites;
    /** Who hears the world's inputs: the recorder, a fan-out to it and the watchers, or {@code null} for nobody. */
    WorldInputs inputs;
    /** The game's one input recorder (an input log), or {@code null}. */
    private WorldInputs recorder;
    /** The tools that watch the inputs beside the recorder (a devtools page's timeline). */
    private final InputWatchers watchers = new InputWatchers();
    final Interpreters interpreters = new Interpreters();
    final Registry registry = new Registry(this);
    final Holds holds = new Holds(this);
    final DueWaits waits = new DueWaits(this);
    final WhenRules whens = new WhenRules(this);
    /** The child machines' links: started and stopped with their states or parents. */
    final Children children = new Children(this);
    final Ticks ticks = new Ticks(this);
    final Listeners listeners = new Listeners(this);
    /** The outermost call under way, inside which game code may run: close, release and restores wait for its end. */
    final UnderWay underWay = new UnderWay();

    private static final System.Logger LOG = System.getLogger("dev.enginestates");

    private StateWorld(Dominion dominion) {
        this.dominion = dominion;
        this.repository = (EntityRepository) dominion;
        holds.watch(MachinePaused.class);
        this.self = dominion.createEntity(WorldEntity.INSTANCE, EntityKey.world());
        LOG.log(System.Logger.Level.DEBUG, () -> "created " + this + " over the patched Dominion engine");
    }

    /**
     * A new world over a new embedded Dominion (engine-states' patched engine, whatever else is on the class path).
     * It belongs to the calling thread.
     *
     * @return the new world, at time 0 with no steps taken
     */
    public static StateWorld create() {
        return new StateWorld(PATCHED_DOMINION.create());
    }

    /**
     * A new world over a new embedded Dominion with a name.
     *
     * @param name the Dominion's name, which the world's {@code toString()} and messages show
     * @return the new world, at time 0 with no steps taken, belonging to the calling thread
     */
    public static StateWorld create(String name) {
        return new StateWorld(PATCHED_DOMINION.create(name));
    }

    /**
     * A world over an existing Dominion (the world adds one entity of its own to it). The Dominion
     * must come from engine-states' patched engine: {@code Dominion.create()} makes one, as does another
     * world's {@link #dominion()}. The official 0.9.0 engine loses entities from queries and mixes
     * components up, and is refused.
     *
     * @param dominion a Dominion of engine-states' patched engine; not {@code null}
     * @return the new world, at time 0 with no steps taken, belonging to the calling thread
     * @throws IllegalArgumentException if the Dominion is not of the patched engine
     */
    public static StateWorld over(Dominion dominion) {
        Objects.requireNonNull(dominion, "dominion");
        if (!(dominion instanceof EntityRepository)) {
            // the official engine comes from Dominion.create() only when its jar is a module beside ours
            String official = dominion.getClass().getName().startsWith("dev.dominion.ecs.engine.")
                    ? " Dominion.create() returns it when the official engine's jar (dev.dominion.ecs:dominion-ecs-engine)"
                    + " is on the module path too: remove that dependency, engine-states brings its own engine."
                    : "";
            throw new IllegalArgumentException("StateWorld.over(" + dominion + "): this Dominion is a "
                    + dominion.getClass().getName() + ", not one of engine-states' patched engine "
                    + "(Dominion 0.9.0 itself loses entities from queries after churn and mixes components up "
                    + "on create)." + official + " Or make the world with StateWorld.create(name) and use"
                    + " world.dominion() for the game's own entities.");
        }
        return new StateWorld(dominion);
    }

    /**
     * The Dominion underneath, for everything this facade does not cover.
     *
     * @return the Dominion this world runs over, which holds the world's entities and the game's own
     */
    public Dominion dominion() {
        return dominion;
    }

    /**
     * The world's own entity, which holds world-level machines (a game's phases).
     *
     * @return the entity, whose key is {@link EntityKey#WORLD}; it lives as long as the world
     */
    public Entity entity() {
        return self;
    }

    /**
     * Seconds of fixed steps so far.
     *
     * @return the clock in seconds: the sum of every step's {@code dt}, or what {@link #restoreClock} set plus the steps since
     */
    public double time() {
        return clock;
    }

    /**
     * Steps so far.
     *
     * @return how many steps (or advances of a split tick) the world has taken, or what {@link #restoreClock} set plus those since
     */
    public long steps() {
        return steps;
    }

    /**
     * The seed of the machines' random numbers ({@code self.random()}): each record's stream is
     * seeded, on its first draw, from this seed, its entity's key and its machine's id, so the same
     * seed and keys draw the same numbers in every run. 0 unless set; a checkpoint keeps it, and
     * its restore sets it.
     *
     * @return the seed
     */
    public long randomSeed() {
        return randomSeed;
    }

    /**
     * Sets the seed of the machines' random numbers (see {@link #randomSeed()}): records that have
     * drawn already keep their streams; the others seed theirs from it. Set it as the game starts,
     * before the machines draw and before an input log starts (the log's checkpoint keeps it).
     *
     * @param seed any long; two worlds with the same seed, keys and inputs draw the same numbers
     * @return this world
     */
    public StateWorld randomSeed(long seed) {
        checkThread();
        this.randomSeed = seed;
        return this;
    }

    /**
     * Sets what happens to the machines that fail during a step: each failure is handed to
     * {@code handler} once the step has completed, in the order they happened, instead of being
     * thrown as one {@link StepFailedException} (the default, with {@code null}). If the handler
     * throws, it is still handed every other failure of the step, and then the step throws the
     * handler's first exception (the later ones suppressed in it).
     *
     * @param handler takes each failure, on the thread that stepped; {@code null} to have them
     *                thrown as one {@link StepFailedException} again
     */
    public void onFailure(Consumer<MachineFailure> handler) {
        checkThread();
        this.onFailure = handler;
    }

    /**
     * Lets go of this world on the thread that owns it, so that another thread may take it over:
     * the next thread to call it owns it from then on. A room handed between an actor system's
     * threads does this at the end of each message.
     *
     * @throws IllegalStateException if called from a thread that does not own the world, or during a step
     */
    public void release() {
        checkThread();
        if (underWay.any() || stepping || interpreters.depth() > 0) {
            throw new IllegalStateException(this + " cannot be released during " + underWay.describe() + ": the call must end"
                    + " on the thread that began it; expected a release between calls. Nothing was changed.");
        }
        OWNER.setVolatile(this, null);
    }

    /** Fails fast when another thread uses this world; takes a released world over. */
    void checkThread() {
        Thread current = Thread.currentThread();
        Thread o = owner;
        if (o == current || (o == null && OWNER.compareAndSet(this, null, current))) {
            if (repository.isClosed()) {
                throw closedWorld();
            }
            return;
        }
        Thread holder = owner;
        String name = holder == null ? "another thread" : "'" + holder.getName() + "'";
        throw new IllegalStateException(this + " belongs to " + name + ", and '" + current.getName()
                + "' used it: a world belongs to one thread at a time. Call world.release() on " + name
                + " to hand it over; the next thread to use it then takes it. Nothing was changed.");
    }

    /** The refusal of every call on a closed world. */
    private IllegalStateException closedWorld() {
        return new IllegalStateException(this + " is closed (its Dominion is closed): it refuses every call, and its records and"
                + " tags stay as they were when it closed; expected an open world (restore a checkpoint into a new one to go on)");
    }

    // ------------------------------------------------------------------ spawning

    /**
     * Creates an entity with the given components. Machine records among them
     * ({@link States#trait()}) join this world, and the entity is created with the tags of
     * their states, so a query finds it in its state from its spawn. An {@link EntityKey}
     * among them names the entity: {@link #entity(String)} finds it.
     *
     * @param components the entity's components: any of the game's, at most one record per machine
     *                   (each not spawned before), and at most one {@link EntityKey}
     * @return the new entity
     * @throws MachineException if a record is already spawned, or two records of one machine are given
     * @throws IllegalArgumentException if two keys are given, or another live entity of this world has the same key;
     *                                  nothing is spawned
     */
    public Entity spawn(Object... components) {
        checkThread();
        checkNotTellingWrites("spawn an entity");
        boolean began = underWay.begin(UnderWay.SPAWN, null, null);
        try {
            return spawnNow(components);
        } finally {
            underWay.end(began);
        }
    }

    private Entity spawnNow(Object... components) {
        List<EntityRecord<?>> records = new ArrayList<>();
        EntityKey key = null;
        for (Object c : components) {
            if (c instanceof EntityRecord) {
                EntityRecord<?> r = (EntityRecord<?>) c;
                registry.checkFree(r);
                for (EntityRecord<?> other : records) {
                    if (other.states == r.states) {
                        throw new MachineException(r.machineId(), "two '" + r.machineId()
                                + "' records given to one spawn; an entity holds one record per machine");
                    }
                    if (other == r) {
                        throw new MachineException(r.machineId(), "the same '" + r.machineId() + "' record is given twice to one spawn");
                    }
                }
                records.add(r);
            } else if (c instanceof EntityKey) {
                if (key != null) {
                    // Dominion would refuse it too, but without naming the keys
                    throw new IllegalArgumentException("cannot spawn an entity with two keys, '" + key.value() + "' and '"
                            + ((EntityKey) c).value() + "', in " + this + "; expected one EntityKey per entity");
                }
                key = (EntityKey) c;
                Entity other = entity(key.value());
                if (other != null) {
                    throw new IllegalArgumentException("cannot spawn a second entity with key '" + key.value() + "' in " + this
                            + ": " + describe(other) + " has it; keys name one entity each (despawn it first)");
                }
            }
        }
        List<Object> all = new ArrayList<>(Arrays.asList(components));
        for (EntityRecord<?> r : records) {
            StateTag[] tags = r.states.tagInstances();
            for (int s = 1; s < tags.length; s++) {
                if (tags[s] != null && r.isActive(s)) {
                    all.add(tags[s]);
                }
            }
        }
        Entity e = dominion.createEntity(all.toArray());
        if (key != null) {
            byKey.put(key.value(), e);
        }
        for (EntityRecord<?> r : records) {
            registry.register(r, e);
            if (r.binding.moves != null) {
                r.binding.moves.spawned(r); // the entity was made with the tags of its active states
            }
        }
        if (rewind != null && !records.isEmpty()) {
            rewind.spawned(records);
        }
        if (hearsInputs()) {
            inputs.spawned(e, records.toArray(new EntityRecord<?>[0]));
        }
        for (EntityRecord<?> r : records) {
            joined(r);
        }
        throwListenerFailure();
        return e;
    }

    /**
     * Adds a world-level machine in its initial state with a fresh context, on the world's own entity.
     *
     * @param <C>     the machine's context type
     * @param machine the machine to add
     * @return the new record, as {@link States#trait()} made it
     * @throws MachineException if the world's own entity already holds that machine
     */
    public <C> StateRecord<C> add(States<C> machine) {
        return attach(self, machine.trait());
    }

    /**
     * Adds a world-level machine record (made with {@link States#trait(Object)}, possibly set to a state).
     *
     * @param <C>    the machine's context type
     * @param record a record not yet spawned
     * @return the same record, now in this world
     * @throws MachineException as {@link #attach} does
     */
    public <C> StateRecord<C> add(StateRecord<C> record) {
        return attach(self, record);
    }

    /**
     * Adds a machine record to an existing entity of this world; its tags are added with it.
     *
     * @throws MachineException if the entity already holds that machine, was deleted, belongs to
     *                          another world, or the record is spawned elsewhere
     *
     * @param <C>    the machine's context type
     * @param entity a live entity of this world
     * @param record a record not yet spawned
     * @return the same record, now in this world on that entity
     */
    public <C> StateRecord<C> attach(Entity entity, StateRecord<C> record) {
        checkThread();
        checkNotTellingWrites("attach a machine");
        EntityRecord<C> r = EntityRecord.of(java.util.Objects.requireNonNull(record, "record"));
        boolean began = underWay.begin(UnderWay.ATTACH, r, null);
        try {
            return attachNow(entity, r);
        } finally {
            underWay.end(began);
        }
    }

    private <C> StateRecord<C> attachNow(Entity entity, EntityRecord<C> r) {
        registry.checkFree(r);
        if (entity.isDeleted()) {
            throw new MachineException(r.machineId(), "cannot attach '" + r.machineId() + "' to " + describe(entity)
                    + "; expected a live entity");
        }
        if (!repository.contains(entity)) {
            throw new MachineException(r.machineId(), "cannot attach '" + r.machineId() + "' to " + describe(entity)
                    + ", which is not an entity of " + this + "; expected one of this world's entities");
        }
        if (entity.has(r.states.recordClass())) {
            throw new MachineException(r.machineId(), describe(entity) + " already holds a '" + r.machineId()
                    + "' machine; an entity holds one record per machine");
        }
        refuseDisabled(entity, r.machineId(), "attach");
        entity.add(r);
        registry.register(r, entity);
        applyTags(r);
        if (hearsInputs()) {
            inputs.attached(entity, r);
        }
        joined(r);
        throwListenerFailure();
        return r;
    }

    /**
     * Removes a machine (record and tags) from an entity; false when it held none of this world's.
     * The record may then be attached again, here or to another world.
     *
     * @param entity  the entity; a deleted one holds nothing, so gives {@code false}
     * @param machine the machine to take off
     * @return {@code true} if the machine was removed, {@code false} if the entity held no record of it in this world
     * @throws IllegalArgumentException if the entity belongs to another world
     */
    public boolean detach(Entity entity, States<?> machine) {
        checkThread();
        checkNotTellingWrites("detach a machine");
        EntityRecord<?> held = entity.isDeleted() ? null : entity.get(machine.recordClass());
        if (held != null && held.world == this) {
            children.checkNotInvoked(held, null, "detach");
        }
        boolean began = underWay.begin(UnderWay.DETACH, null, null);
        try {
            return detachNow(entity, machine);
        } finally {
            underWay.end(began);
        }
    }

    private boolean detachNow(Entity entity, States<?> machine) {
        checkOwn(entity, "detach");
        EntityRecord<?> r = entity.isDeleted() ? null : entity.get(machine.recordClass());
        if (r == null || r.world != this) {
            return false;
        }
        refuseDisabled(entity, r.machineId(), "detach");
        if (r.binding.moves != null) {
            r.binding.moves.removeAll(entity, r);
        }
        registry.unregister(r);
        entity.removeType(machine.recordClass());
        if (hearsInputs()) {
            inputs.detached(entity, machine);
        }
        if (batch == 0) {
            children.stopOrphans();
        }
        throwListenerFailure();
        return true;
    }

    /**
     * Deletes an entity and forgets its machines; false if it was deleted already.
     *
     * @param entity an entity of this world
     * @return {@code true} if the entity was deleted now, {@code false} if it was deleted already
     * @throws IllegalArgumentException if the entity belongs to another world, or is the world's own (nothing changes)
     */
    public boolean despawn(Entity entity) {
        checkThread();
        checkNotTellingWrites("despawn an entity");
        if (entity.isDeleted()) {
            return false;
        }
        if (repository.contains(entity)) {
            for (Binding b : registry.all()) {
                EntityRecord<?> held = entity.get(b.states.recordClass());
                if (held != null && held.world == this) {
                    children.checkNotInvoked(held, entity, "despawn");
                }
            }
        }
        boolean began = underWay.begin(UnderWay.DESPAWN, null, null);
        try {
            return despawnNow(entity);
        } finally {
            underWay.end(began);
        }
    }

    private boolean despawnNow(Entity entity) {
        checkOwn(entity, "despawn");
        if (entity == self) {
            throw new IllegalArgumentException("the world's own entity cannot be despawned; detach its machines instead");
        }
        registry.despawning = true;
        try {
            for (Binding b : registry.all()) {
                EntityRecord<?> r = entity.get(b.states.recordClass());
                if (r != null && r.world == this) {
                    registry.unregister(r);
                }
            }
        } finally {
            registry.despawning = false;
        }
        if (hearsInputs()) {
            inputs.despawned(entity); // while the entity can still say its key
        }
        EntityKey key = entity.get(EntityKey.class);
        if (rewind != null && key != null) {
            rewind.despawned(entity, key);
        }
        if (key != null && byKey.get(key.value()) == entity) {
            byKey.remove(key.value());
        }
        boolean deleted = dominion.deleteEntity(entity);
        if (batch == 0) {
            children.stopOrphans();
        }
        throwListenerFailure();
        return deleted;
    }

    /** A record joined: the children its states invoke start now, or once the writes under way (a restore) are done. */
    private void joined(EntityRecord<?> r) {
        if (r.world != this) {
            return;
        }
        if (batch > 0) {
            children.written(r);
        } else if (r.binding.invokes) {
            children.follow(r);
        }
    }

    /** From outside a step and a move, a listener's failure during this call is thrown once the call has done its work. */
    private void throwListenerFailure() {
        if (listeners.any() && startsFromOutside() && batch == 0) {
            listeners.throwPending();
        }
    }

    private void checkOwn(Entity entity, String operation) {
        if (!entity.isDeleted() && !repository.contains(entity)) {
            throw new IllegalArgumentException(operation + "(" + describe(entity) + "): that entity is not one of " + this
                    + "; expected one of this world's entities. Nothing was changed.");
        }
    }

    /**
     * The live records of a machine in this world, in spawn order.
     *
     * @param <C>     the machine's context type
     * @param machine the machine
     * @return a new list of the records; empty if the world holds none
     */
    public <C> List<StateRecord<C>> records(States<C> machine) {
        checkThread();
        boolean began = underWay.begin(UnderWay.RECORDS, null, null);
        try {
            List<StateRecord<C>> out = registry.records(machine);
            throwListenerFailure(); // a record taken off through Dominion is noticed (and its listeners told) here
            return out;
        } finally {
            underWay.end(began);
        }
    }

    /** How many record slots a machine takes in this world, live or not yet reused (for tests of memory). */
    int recordSlots(States<?> machine) {
        Binding b = registry.of(machine);
        return b == null ? 0 : b.end();
    }

    /**
     * The machines this world has met, in the order they were declared (the order the step runs them).
     *
     * @return a new list; a machine stays in it once met, even after its last record is gone
     */
    public List<States<?>> machines() {
        List<States<?>> out = new ArrayList<>();
        for (Binding b : registry.all()) {
            out.add(b.states);
        }
        return out;
    }

    /**
     * The entities that have all these components (a state's tag is one:
     * {@code query(GUARD.is("answer"))}); add {@code .without(...)} for the "not" form.
     *
     * @param with the component or tag classes every entity found has; at least one
     * @return the query, which looks each time it is read, not now
     * @throws IllegalArgumentException if no class is given
     */
    public Query query(Class<?>... with) {
        checkThread();
        return new Query(dominion, with, new Class<?>[0]);
    }

    /**
     * Adds a listener that hears every machine of this world: state changes, waits started and
     * ended, events refused (see {@link MachineListener}). Listeners run in the order added,
     * after each move, on the world's thread; any number may listen. A record already in the
     * world is heard from its state now on.
     *
     * @param listener the listener; it may be added more than once, and then hears each thing once per addition
     * @throws IllegalStateException if called from a thread that does not own the world
     */
    public void addListener(MachineListener<? super StateRecord<?>> listener) {
        checkThread();
        listeners.add(null, listener);
    }

    /**
     * Adds a listener that hears one machine of this world, on every entity that holds it.
     *
     * @param <C>      the machine's context type
     * @param machine  the machine to hear
     * @param listener the listener
     * @throws IllegalStateException if called from a thread that does not own the world
     */
    public <C> void addListener(States<C> machine, MachineListener<? super StateRecord<C>> listener) {
        checkThread();
        listeners.add(Objects.requireNonNull(machine, "machine"), listener);
    }

    /**
     * Removes a listener added with {@link #addListener} (its first addition, when added several times).
     *
     * @param listener the same object that was added
     * @return {@code true} if it was there
     */
    public boolean removeListener(MachineListener<?> listener) {
        checkThread();
        return listeners.remove(listener);
    }

    /**
     * Sets what records this world's inputs (an input log, or a tool of the game's), or
     * {@code null} for none. It is told each input after the input is applied; listeners added
     * with {@link #addListener} hear machines instead, and any number of them may.
     *
     * @param recorder the recorder, which replaces any before it; {@code null} for none
     */
    public void recordInputs(WorldInputs recorder) {
        checkThread();
        this.recorder = recorder;
        this.inputs = watchers.around(recorder);
        holds.recorderChanged(); // the next step tells the new recorder every hold it finds
    }

    /**
     * Adds a tool that watches this world's inputs beside its one recorder, such as a devtools
     * page's timeline: it hears each input after the recorder, never replaces it, and
     * {@link #inputRecorder()} never returns it, so an input log started or stopped later works
     * as it would without the watcher. A watcher added while nothing heard the inputs hears every
     * hold the next step finds; one added beside a recorder hears holds as they change from then
     * on, and hears the holds in force again when the recorder is replaced.
     *
     * @param watcher the watcher; any number may watch
     * @throws IllegalStateException if called from a thread that does not own the world
     */
    public void watchInputs(WorldInputs watcher) {
        checkThread();
        Objects.requireNonNull(watcher, "watcher");
        boolean nobody = inputs == null;
        watchers.add(watcher);
        this.inputs = watchers.around(recorder);
        if (nobody) {
            holds.recorderChanged(); // nobody heard the holds in force: the next step tells them
        }
    }

    /**
     * Removes a watcher added with {@link #watchInputs} (its first addition).
     *
     * @param watcher the same object that was added
     * @return {@code true} if it was there
     * @throws IllegalStateException if called from a thread that does not own the world
     */
    public boolean unwatchInputs(WorldInputs watcher) {
        checkThread();
        boolean removed = watchers.remove(watcher);
        this.inputs = watchers.around(recorder);
        return removed;
    }

    /**
     * What records this world's inputs, as {@link #recordInputs} last set it.
     *
     * @return the recorder, or {@code null} for none
     */
    public WorldInputs inputRecorder() {
        checkThread();
        return recorder;
    }

    /**
     * Sets what records this world's inputs.
     *
     * @param inputs the recorder, or {@code null} for none
     * @deprecated the word "listen" is for {@link #addListener}: use {@link #recordInputs}, which this calls
     */
    @Deprecated(forRemoval = true)
    public void listen(WorldInputs inputs) {
        recordInputs(inputs);
    }

    /**
     * What records this world's inputs.
     *
     * @return the recorder, or {@code null} for none
     * @deprecated the word "listener" is for {@link #addListener}: use {@link #inputRecorder}, which this calls
     */
    @Deprecated(forRemoval = true)
    public WorldInputs listener() {
        return inputRecorder();
    }

    /**
     * The live entity spawned with this key, or {@code null}: {@link EntityKey#WORLD} is the
     * world's own. Keys are given at spawn ({@code spawn(EntityKey.of("guard-7"), ...)}); the
     * lookup is a hash map's.
     *
     * @param key the key's text, such as {@code "guard-7"}
     * @return the entity, or {@code null} if no live entity of this world has that key
     */
    public Entity entity(String key) {
        checkThread();
        return keyed(key);
    }

    /** {@link #entity(String)} without the thread check: the names in messages ask it. */
    Entity keyed(String key) {
        if (EntityKey.WORLD.equals(key)) {
            return self;
        }
        Entity e = byKey.get(key);
        if (e == null) {
            return null;
        }
        EntityKey k = e.isDeleted() ? null : e.get(EntityKey.class);
        if (k == null || !k.value().equals(key)) {
            byKey.remove(key); // deleted, or its key taken off, through Dominion directly
            return null;
        }
        return e;
    }

    /**
     * The live entity spawned with this key, or {@code null}: the key as {@link #spawn} takes it,
     * so a game that keeps its keys need not spell them out again.
     *
     * @param key the key, such as {@code EntityKey.of("guard-7")}
     * @return the entity, or {@code null} if no live entity of this world has that key
     */
    public Entity entity(EntityKey key) {
        return entity(Objects.requireNonNull(key, "key").value());
    }

    /** An entity for messages, as {@link EntityName} names it; safe on a deleted entity. */
    static String describe(Entity e) {
        return EntityName.describe(e);
    }

    /**
     * The key of an entity: its {@link EntityKey}'s text, or {@code null} when it has none.
     *
     * @param entity the entity; not {@code null}
     * @return the key's text, such as {@code "guard-7"}, or {@code null}
     */
    public static String keyOf(Entity entity) {
        EntityKey k = entity.get(EntityKey.class);
        return k == null ? null : k.value();
    }

    /**
     * The name messages, test failures, dumps and the devtools page give an entity: its key's text
     * ({@code "guard-7"}, {@code "world"} for the world's own), or, for an entity without a key, the
     * first machine it holds (in declaration order) and a number: {@code "guard#3"}. The machine
     * numbers its records from 1 in the order the world first names them (this method, a failure,
     * the devtools page); a record keeps its number while it stays in the world, a number is never
     * given twice in a world, and one that a game's key spells is passed over.
     *
     * @param entity the entity, or {@code null}
     * @return the name, or {@code null} for {@code null}, a deleted entity, or one with neither a key nor a machine in a world
     */
    public static String nameOf(Entity entity) {
        return EntityName.of(entity);
    }

    /**
     * Sets the clock, as a restore does: seconds of fixed steps so far and the step count.
     * The records already in the world keep the seconds they have waited (and been held): their
     * start times move with the clock. So set the clock before writing restored records.
     *
     * @param time  the clock in seconds, finite and 0 or more
     * @param steps the step count, 0 or more
     *
     * @throws IllegalStateException from the game's code during a call of this world (a step, a send, a spawn, ...)
     * @throws IllegalArgumentException if the time is negative or not finite, or the count negative
     */
    public void restoreClock(double time, long steps) {
        checkThread();
        if (underWay.busy() || stepping) {
            throw new IllegalStateException("the clock of " + this + " cannot be set during " + underWay.describe() + ", where"
                    + " records may be half-way through a move; expected a call between steps. Nothing was changed.");
        }
        setClock(time, steps);
    }

    /** Sets the clock as {@link #restoreClock} does, for a restore under way (reached through {@code Access}). */
    void setClock(double time, long steps) {
        checkThread();
        if (!(time >= 0) || Double.isInfinite(time) || steps < 0) {
            throw new IllegalArgumentException("a world clock needs finite seconds, 0 or more, and a step count, 0 or more; got "
                    + time + " s and " + steps + " steps");
        }
        double shift = time - clock;
        // records the restore does not name keep the seconds they had waited
        for (Binding b : registry.bindings()) {
            for (int i = 0; i < b.end(); i++) {
                EntityRecord<?> r = b.at(i);
                if (r == null) {
                    continue;
                }
                MachineRecord rec = r;
                if (rec.waitState() >= 0) {
                    rec.setWait(rec.waitState(), rec.waitStart() + shift, rec.waitSeconds());
                }
                if (rec.isHeld()) {
                    rec.setHeldSince(rec.heldSince() + shift);
                }
                rec.shiftEntryTimes(shift);
                rec.shiftSends(shift); // a send due 0.5 s from now is still due 0.5 s from now, as a wait keeps its seconds left
                rec.clearWaitChanged();
                waits.schedule(r);
            }
        }
        if (steps < this.steps) {
            forgetSteps();
        }
        this.clock = time;
        this.steps = steps;
        if (hearsInputs()) {
            inputs.clockSet(time, steps);
        }
    }

    /** The step count goes back: what the world noted by step number may not match the steps that come again. */
    private void forgetSteps() {
        for (Binding b : registry.all()) {
            b.forgetSteps();
            for (int i = 0; i < b.end(); i++) {
                EntityRecord<?> r = b.at(i);
                if (r != null) {
                    r.quietStep(-1);
                }
            }
        }
    }

    /**
     * Refuses {@code what} (a checkpoint, a restore, an input log's start) unless the world is
     * between ticks: during a step or a send a record may be half-way through a move (a wait not
     * started yet, a clock already advanced for some machines only), and between
     * {@link #advance} and {@link #runStates} the builder-style machines owe the tick's second
     * half, which no checkpoint carries.
     */
    void checkAtRest(String what) {
        checkOutsideCalls(what);
        if (ticks.splitPending()) {
            throw new IllegalStateException(what + " of " + this + " was asked for between advance(dt) and runStates(), where the"
                    + " builder-style machines have not run the tick's second half; expected a call after runStates()");
        }
    }

    /**
     * Refuses {@code what} (a devtools publish, a stream's frame) from the game's code inside one of
     * the world's calls, where a record may be half-way through a move; unlike
     * {@link #checkAtRest}, the builder-style machines' half tick between {@link #advance} and
     * {@link #runStates} is allowed.
     */
    void checkOutsideCalls(String what) {
        checkThread();
        if (underWay.any() || stepping || interpreters.depth() > 0) {
            throw new IllegalStateException(what + " of " + this + " was asked for from the game's code during "
                    + underWay.describe() + ", where a record may be half-way through a move; expected a call between steps"
                    + " (keep a flag in the action or listener and take it after the call returns). Nothing was changed.");
        }
    }

    /**
     * Runs {@code work} (a checkpoint, a restore, a replica's frame: {@code what}) once the world is
     * at rest, as the call under way: the game's code it runs (context hooks, listeners) cannot
     * close the world or start another such call inside it.
     */
    <T> T during(String what, java.util.function.Supplier<T> work) {
        checkAtRest(what);
        boolean began = underWay.begin(what, null, null);
        try {
            return work.get();
        } finally {
            underWay.end(began);
        }
    }

    /**
     * Replays an input log: {@code start} (its checkpoint's restore) once the world is at rest,
     * then {@code inputs}, each a call of its own; between them the world is not at rest, so the
     * game's code (a failure handler) cannot close it or restore into it half-way.
     */
    void replay(Runnable start, Runnable inputs) {
        checkAtRest("a replay");
        start.run();
        underWay.replaying(true);
        try {
            inputs.run();
        } finally {
            underWay.replaying(false);
        }
    }

    /**
     * Sets the clock as a replica follows its room's ({@code io.Replica}): unlike
     * {@link #restoreClock}, every record keeps its times on the clock, so a wait that started
     * at 3 s has now counted the seconds up to the new clock, as it has on the room. Not an
     * input: a replica's records are written by its room's frames, not by its own inputs.
     */
    void followClock(double time, long steps) {
        checkThread();
        if (stepping) {
            throw new IllegalStateException("the clock cannot be set during a step");
        }
        if (!(time >= 0) || Double.isInfinite(time) || steps < 0) {
            throw new IllegalArgumentException("a world clock needs finite seconds, 0 or more, and a step count, 0 or more; got "
                    + time + " s and " + steps + " steps");
        }
        this.clock = time;
        this.steps = steps;
    }

    /**
     * A record of this world was overwritten as a whole (a restore, or a test arranging a
     * starting state): its timer, its {@code when} rules and its entity's tags are derived from
     * it again, now, rather than at the next step.
     *
     * @param face the record that was overwritten
     * @throws IllegalArgumentException if the record is not in this world
     */
    public void restored(StateRecord<?> face) {
        checkThread();
        EntityRecord<?> r = EntityRecord.of(face);
        if (r.world != this) {
            throw new IllegalArgumentException("the '" + r.machineId() + "' record does not belong to this world");
        }
        boolean began = underWay.begin(UnderWay.RESTORED, r, null);
        try {
            restoredNow(r);
        } finally {
            underWay.end(began);
        }
    }

    // ------------------------------------------------------------------ swap: another definition of a machine, live

    /**
     * Moves every record of {@code from} in this world to {@code to}, another definition (a newer
     * version, or the same version edited) of the same machine id, between steps. The records go
     * through the migrations {@code to} declares from {@code from}'s version (none when the
     * versions are equal: every state keeps its path). A state that keeps its place keeps its
     * entry time, clocks, wait (so its seconds left) and history; no code of the machine runs and
     * listeners hear only the records whose states changed (cause {@code "swap"}). A state newly
     * entered (a split's initial child, a removed state's target) is entered without its entry
     * actions, and its wait starts now. Pending sends stay pending. Tags follow: the entity carries
     * {@code to}'s tag of each active state, and none of {@code from}'s. Listeners added for
     * {@code from} hear {@code to} from now on.
     *
     * <p>All or nothing: every record is placed first, and if one cannot be (a state the
     * migrations do not place, a remembered state with no place, a pending event the newer
     * definition does not know), nothing changes and the refusal names every machine, state and
     * entity concerned. A {@link Rewind} keeping this world forgets the ticks before the swap.
     *
     * @param from the definition the world's records have now
     * @param to   the definition they move to: the same id, the same version or a newer one
     * @return how many records moved
     * @throws MachineException if the ids differ, {@code to} is older, a migration is missing, or a record cannot be placed
     * @throws IllegalStateException during a step or from the game's code inside one of the world's calls
     */
    public int swap(States<?> from, States<?> to) {
        Objects.requireNonNull(to, "to");
        return swap(from, to, null);
    }

    /**
     * Moves every record of {@code from} to {@code to} as {@link #swap(States, States)} does, through
     * the one {@code mapping} given instead of the migrations {@code to} declares: for a definition
     * edited while the game runs, whose version did not change ({@code Migration.from(v)} of
     * {@code from}'s version {@code v}).
     *
     * @param from    the definition the world's records have now
     * @param to      the definition they move to, with the same id
     * @param mapping how {@code from}'s states map to {@code to}'s; {@code null}: {@code to}'s declared migrations
     * @return how many records moved
     * @throws MachineException if the ids differ, the mapping is from another version, or a record cannot be placed
     * @throws IllegalStateException during a step or from the game's code inside one of the world's calls
     */
    public int swap(States<?> from, States<?> to, Migration mapping) {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        checkNotTellingWrites("swap a machine");
        return during("a swap", () -> swapNow(from, to, mapping));
    }

    private int swapNow(States<?> from, States<?> to, Migration mapping) {
        Machine<?> older = from.machine();
        Machine<?> newer = to.machine();
        String id = older.id();
        if (from == to) {
            throw new IllegalArgumentException("swap of machine '" + id + "' to itself; expected another definition of it");
        }
        if (!id.equals(newer.id())) {
            throw new MachineException(id, "a swap moves records of machine '" + id + "' to machine '" + newer.id() + "'; expected"
                    + " another definition of '" + id + "' (checkpoints name records by machine id)");
        }
        List<Migration> chain;
        if (mapping != null) {
            if (mapping.fromVersion() != older.version()) {
                throw new MachineException(id, "the mapping of the swap of machine '" + id + "' is a migration from version "
                        + mapping.fromVersion() + ", but the records are version " + older.version() + "; expected Migration.from("
                        + older.version() + ")");
            }
            chain = List.of(mapping);
        } else {
            chain = newer.migrationsFrom(older.version());
        }
        String version = "version " + newer.version() + " (fingerprint " + newer.fingerprint() + ")";
        List<EntityRecord<?>> olds = new ArrayList<>();
        for (StateRecord<?> r : registry.records(from)) {
            olds.add(EntityRecord.of(r));
        }
        Class<?> contextType = contextType(newer);
        List<String> problems = new ArrayList<>();
        int refused = 0;
        MachineRecord[] staged = new MachineRecord[olds.size()];
        Scratch scratch = interpreters.take(clock);
        try {
            for (int i = 0; i < olds.size(); i++) {
                EntityRecord<?> r = olds.get(i);
                String where = "'" + id + "' on " + describe(r.entity);
                List<String> own = new ArrayList<>();
                if (!r.entity.isEnabled()) {
                    own.add(where + ": the entity is disabled, and Dominion changes no component of a disabled entity; expected it"
                            + " enabled (setEnabled(true)) for the swap");
                } else if (r.entity.has(to.recordClass())) {
                    own.add(where + ": the entity holds a record of the newer definition already; expected one record of '" + id
                            + "' per entity");
                } else {
                    RecordImage img = RecordImage.of(r);
                    Object context = img.context;
                    try {
                        context = Migrator.context(chain, 0, context);
                    } catch (RuntimeException e) {
                        own.add(where + ": the migration's context change threw " + e);
                    }
                    if (own.isEmpty() && context != null && contextType != null && !contextType.isInstance(context)) {
                        own.add(where + ": its context is a " + context.getClass().getName() + ", but " + version + " makes a "
                                + contextType.getName() + "; expected a migration that changes the context (Migration.context(...))");
                    }
                    if (own.isEmpty()) {
                        staged[i] = Migrator.migrate(img, chain, to.chart(), version, context, scratch.at(clock, 0), where, own);
                    }
                }
                if (!own.isEmpty()) {
                    refused++;
                    if (problems.size() < MAX_SWAP_PROBLEMS) {
                        problems.addAll(own.subList(0, Math.min(own.size(), MAX_SWAP_PROBLEMS - problems.size())));
                    }
                }
            }
        } finally {
            interpreters.release();
        }
        if (refused > 0) {
            throw new MachineException(id, "machine '" + id + "' cannot be swapped from version " + older.version() + " (fingerprint "
                    + older.fingerprint() + ") to " + version + ": " + refused + " of its " + olds.size() + " records cannot be placed,"
                    + " so nothing was changed:\n  - " + String.join("\n  - ", problems)
                    + (refused > problems.size() ? "\n  (only the first " + problems.size() + " problems are listed)" : ""));
        }
        batch++;
        try {
            listeners.machineSwapped(from, to);
            for (int i = 0; i < olds.size(); i++) {
                swapOne(olds.get(i), to, staged[i], chain);
            }
        } finally {
            batch--;
        }
        if (batch == 0) {
            children.settle();
        }
        if (rewind != null) {
            rewind.swapped();
        }
        if (hearsInputs()) {
            inputs.swapped(from, to, mapping);
        }
        if (batch == 0 && listeners.any()) {
            listeners.throwPending();
        }
        return olds.size();
    }

    /** The class of the contexts a definition makes, or {@code null} when it makes none (or none without an instance's). */
    private static Class<?> contextType(Machine<?> m) {
        try {
            Object fresh = m.newContext();
            return fresh == null ? null : fresh.getClass();
        } catch (RuntimeException noFactory) {
            return null; // a polled or builder machine given its contexts one by one: nothing to compare with
        }
    }

    /**
     * A swap an input log names, as the replay's input: between two inputs the world is not at rest
     * for the game's code (a failure handler), but the replay itself may take its next input. Only
     * between inputs: inside a call, {@link #swap} refuses as ever.
     */
    int swapReplayed(States<?> from, States<?> to) {
        checkThread();
        boolean between = underWay.replaying() && !underWay.busy() && !stepping && interpreters.depth() == 0;
        if (between) {
            underWay.replaying(false);
        }
        try {
            return swap(from, to);
        } finally {
            if (between) {
                underWay.replaying(true);
            }
        }
    }

    /** More problems than this in a refused swap are counted, not listed. */
    private static final int MAX_SWAP_PROBLEMS = 20;

    /** One record's move to the newer definition, on its entity: the listeners' memory of it carried over. */
    private void swapOne(EntityRecord<?> r, States<?> to, MachineRecord staged, List<Migration> chain) {
        Entity e = r.entity;
        int toldWait = -1;
        Listeners.Told told = r.told();
        if (told != null && told.wait >= 0) {
            boolean[] moved = new boolean[1];
            String p = Migrator.pathOf(chain, r.states.chart().path[told.wait], moved);
            toldWait = p == null || moved[0] ? -1 : to.chart().stateAt(p);
        }
        if (r.binding.moves != null) {
            r.binding.moves.removeAll(e, r);
        }
        r.forgetTold(); // the machine goes on in the newer record: its leaving is not told
        EntityRecord<?> n = to.trait(staged);
        children.carry(r, n); // and so do its children, and its place as a child
        registry.unregister(r);
        e.removeType(r.states.recordClass());
        e.add(n);
        registry.swapping = true;
        try {
            registry.register(n, e);
        } finally {
            registry.swapping = false;
        }
        if (told != null) {
            listeners.carried(told, n, toldWait);
        }
        MachineRecord rec = n;
        rec.clearWaitChanged();
        if (rec.contextObject() instanceof dev.enginestates.fsm.StateContext sc) {
            sc.setEntity(e);
        }
        waits.schedule(n);
        whens.update(n);
        if (rec.isHeld()) {
            holds.restoredHeld(n);
        }
        applyTags(n);
        tell(n, "swap");
        children.written(n); // its children follow its states once the swap is done
    }

    // ------------------------------------------------------------------ rewind (a Rewind's restore, under way as its call)

    /** Sets the clock as a rewind does: no record's times shift, as every record is about to be overwritten on that clock. */
    void rewindClock(double time, long steps) {
        forgetSteps();
        this.clock = time;
        this.steps = steps;
        if (hearsInputs()) {
            inputs.clockSet(time, steps);
        }
    }

    /** A record a rewind overwrote in place: derived from it again, as {@link #restored}. */
    void rewound(EntityRecord<?> r) {
        r.localClock = false;
        r.quietStep(-1); // a step it sat out is in the ticks the rewind undid, or before them
        restoredNow(r);
    }

    /** An entity spawned since the tick a rewind goes back to. */
    void despawnForRewind(Entity entity) {
        despawnNow(entity);
    }

    /** A machine attached since the tick a rewind goes back to. */
    void detachForRewind(EntityRecord<?> r) {
        detachNow(r.entity, r.states);
    }

    /** A machine detached since the tick a rewind goes back to, back on its entity. */
    void attachForRewind(Entity entity, EntityRecord<?> r) {
        attachNow(entity, r);
    }

    /** The records of an entity despawned since the tick a rewind goes back to, on a new entity with its key. */
    Entity respawnForRewind(List<EntityRecord<?>> records, EntityKey key) {
        Object[] components = new Object[records.size() + (key == null ? 0 : 1)];
        for (int i = 0; i < records.size(); i++) {
            components[i] = records.get(i);
        }
        if (key != null) {
            components[records.size()] = key;
        }
        return spawnNow(components);
    }

    /** An entity a kept tick is copied onto ({@link Rewind#copyTo}). */
    Entity spawnForCopy(Object[] components) {
        return spawnNow(components);
    }

    /** The rewind that keeps this world's ticks, told of spawns and despawns; {@code null} when none. */
    Rewind rewind;

    private void restoredNow(EntityRecord<?> r) {
        MachineRecord rec = r;
        rec.clearWaitChanged();
        r.states.runtime().restored(rec);
        if (rec.contextObject() instanceof dev.enginestates.fsm.StateContext sc) {
            sc.setEntity(r.entity); // a builder-style context knows the entity it lives on
        }
        waits.schedule(r);
        whens.update(r);
        if (rec.isHeld()) {
            holds.restoredHeld(r);
        }
        applyTags(r);
        if (hearsInputs()) {
            inputs.edited(r);
        }
        tell(r, "restore");
        children.written(r);
        if (batch == 0) {
            children.settle();
        }
    }

    /**
     * Runs {@code writes} (a restore's or a replica frame's records) with the listeners' failures
     * held until all of it is done, then throws the first (the others suppressed in it): a
     * listener that throws must not leave a restore half-written.
     */
    void writeAll(Runnable writes) {
        checkThread();
        boolean began = underWay.begin(UnderWay.WRITES, null, null);
        try {
            batch++;
            try {
                writes.run();
            } catch (RuntimeException | Error e) {
                batch--;
                if (batch == 0) {
                    listeners.addPendingTo(e); // reported with the failure that stopped the writes, not at some later call
                }
                throw e;
            }
            batch--;
            if (batch == 0) {
                children.settle();
            }
            if (batch == 0 && listeners.any()) {
                listeners.throwPending();
            }
        } finally {
            underWay.end(began);
        }
    }

    /**
     * Refuses {@code what} (a spawn, a despawn, an attach, a detach) from a listener told of a
     * record that a restore or a replica's frame wrote while others are still to be written: the
     * writes are all-or-nothing over the entities they name, and an entity despawned under them
     * left the world half-restored.
     */
    private void checkNotTellingWrites(String what) {
        if (tellingWrites > 0) {
            throw new IllegalStateException("a listener cannot " + what + " of " + this + " while it is told of the records "
                    + underWay.describe() + " writes, some still to be written; expected the change after that call returns"
                    + " (keep a flag in the listener). Nothing was changed.");
        }
    }

    /** Tells the listeners, if any, about a record overwritten as a whole ({@code cause}: why); outside a step a listener's failure is thrown now. */
    private void tell(EntityRecord<?> r, String cause) {
        if (listeners.any()) {
            int writing = batch > 0 ? 1 : 0;
            tellingWrites += writing;
            try {
                listeners.overwritten(r, cause);
            } finally {
                tellingWrites -= writing;
            }
            if (startsFromOutside() && batch == 0) {
                listeners.throwPending();
            }
        }
    }

    /** A record's wait, history or paused seconds were set by hand: its timer follows now. */
    void edited(EntityRecord<?> r) {
        checkThread();
        MachineRecord rec = r;
        rec.clearWaitChanged();
        waits.schedule(r);
        if (hearsInputs()) {
            boolean began = underWay.begin(UnderWay.EDIT, r, null);
            try {
                inputs.edited(r);
            } finally {
                underWay.end(began);
            }
        }
    }

    /**
     * Whether a change now is an input of the world: made by the game from outside, not by a
     * machine's own code during a step or a send (which a replay runs again).
     */
    private boolean hearsInputs() {
        return inputs != null && !stepping && interpreters.depth() == 0 && !listeners.telling() && children.working == 0;
    }

    // ------------------------------------------------------------------ moves from outside a tick

    private void checkAlive(EntityRecord<?> r) {
        if (!registry.alive(r)) {
            throw new MachineException(r.machineId(), "the '" + r.machineId() + "' record's entity was deleted or the record removed");
        }
    }

    /** Whether a move starting now is the game's input (from outside a tick and outside another move). */
    private boolean startsFromOutside() {
        return !stepping && interpreters.depth() == 0;
    }

    /** A move starts: from outside a tick and another move, it is the game's input and a new call (one SCXML budget). */
    private boolean moveStarts() {
        boolean input = startsFromOutside();
        if (input) {
            interpreters.newCall();
        }
        return input;
    }

    /**
     * Whether a move that started as the game's input ({@code input}) is logged: not when a listener
     * told of another call made it, which a replay with that listener makes again.
     */
    private boolean logsInput(boolean input) {
        return input && inputs != null && !listeners.telling() && children.working == 0;
    }

    /**
     * Sends an event: its type, the arguments a handler receives where the style takes them, and
     * {@code event}, the event with its fields where it was sent as one (what the input log keeps).
     */
    boolean send(EntityRecord<?> r, int eventId, String type, Object[] args, Event event) {
        checkThread();
        checkAlive(r);
        boolean input = moveStarts();
        boolean began = underWay.begin(UnderWay.SEND, r, type);
        try {
            String cause = listeners.cause;
            listeners.cause = type;
            Scratch scratch = interpreters.take(stepping ? stepStart : clock);
            boolean took;
            try {
                took = r.states.runtime().send(scratch, r, eventId, type, args, event);
            } catch (UserCodeException e) {
                throw e.on(describe(r.entity));
            } finally {
                // logged before the move's consequences: they may despawn the entity (a child whose
                // parent left the state that runs it), which could then not be named
                if (logsInput(input)) {
                    if (event != null) {
                        inputs.sent(r, event);
                    } else {
                        inputs.sent(r, type, args);
                    }
                }
                moved(r);
                listeners.cause = cause;
            }
            heard(r, took, type, input);
            return took;
        } finally {
            underWay.end(began);
        }
    }

    /**
     * Whether a send would now be taken ({@code StyleRuntime.can}): on this world's thread, as a
     * send; from outside, during a step or from a listener alike, on a scratch of its own nesting
     * level (a machine's code may ask another machine). No move: nothing is logged or told.
     */
    boolean can(EntityRecord<?> r, int eventId, String type, Object[] args, Event event) {
        long draws = unkeyedDraws;
        Scratch scratch = askScratch(r);
        try {
            return r.states.runtime().can(scratch, r, eventId, type, args, event);
        } catch (UserCodeException e) {
            throw e.on(describe(r.entity));
        } finally {
            answered(draws);
        }
    }

    /** The event types the record would take now. */
    List<String> permittedEvents(EntityRecord<?> r) {
        long draws = unkeyedDraws;
        Scratch scratch = askScratch(r);
        try {
            return r.states.runtime().permittedEvents(scratch, r);
        } catch (UserCodeException e) {
            throw e.on(describe(r.entity));
        } finally {
            answered(draws);
        }
    }

    /** The constants of the record's event enum whose events it would take now. */
    <E extends Enum<E>> java.util.Set<E> permittedEvents(EntityRecord<?> r, Class<E> events) {
        long draws = unkeyedDraws;
        Scratch scratch = askScratch(r);
        try {
            return r.states.runtime().permittedEvents(scratch, r, events);
        } catch (UserCodeException e) {
            throw e.on(describe(r.entity));
        } finally {
            answered(draws);
        }
    }

    /**
     * A question is answered: its scratch is given back, and so is the number of unkeyed records
     * seeded, which a guard's first draw on such a record took (the record's stream was put back
     * unseeded, so it seeds again with that number when it first draws for real).
     */
    private void answered(long draws) {
        unkeyedDraws = draws;
        interpreters.release();
    }

    /** The scratch a question to a record is answered on, taken after the checks a send makes; give it back with {@link #answered}. */
    private Scratch askScratch(EntityRecord<?> r) {
        checkThread();
        checkAlive(r);
        return interpreters.take(stepping ? stepStart : clock);
    }

    /** After a send: a refusal told to the listeners; from outside, a listener's failure thrown now. */
    private void heard(EntityRecord<?> r, boolean took, String event, boolean fromOutside) {
        if (listeners.any()) {
            if (!took) {
                listeners.refused(r, event);
            }
            if (fromOutside) {
                listeners.throwPending();
            }
        }
    }

    /** Forces a polled ({@code go}) or builder-style ({@code transitionTo}) machine into a state. */
    void go(EntityRecord<?> r, int state, String name) {
        checkThread();
        checkAlive(r);
        boolean began = underWay.begin(UnderWay.GO, r, name);
        try {
            goNow(r, state, name);
        } finally {
            underWay.end(began);
        }
    }

    private void goNow(EntityRecord<?> r, int state, String name) {
        boolean input = moveStarts();
        String cause = listeners.cause;
        listeners.cause = "go";
        try {
            r.states.runtime().force(interpreters.take(stepping ? stepStart : clock), r, state);
        } catch (UserCodeException e) {
            throw e.on(describe(r.entity));
        } finally {
            if (logsInput(input)) {
                inputs.went(r, name); // before the move's consequences, as a send's
            }
            moved(r);
            listeners.cause = cause;
        }
        if (input && listeners.any()) {
            listeners.throwPending();
        }
    }

    /** Puts a record in a state by hand, no code run; its tags move at the start of the next tick. */
    void place(EntityRecord<?> r, int[] targets, String[] paths) {
        checkThread();
        boolean began = underWay.begin(UnderWay.SET_STATE, r, null);
        try {
            placeNow(r, targets, paths);
        } finally {
            underWay.end(began);
        }
    }

    private void placeNow(EntityRecord<?> r, int[] targets, String[] paths) {
        Scratch scratch = interpreters.take(stepping ? stepStart : clock);
        try {
            r.states.runtime().place(scratch, r, targets);
        } finally {
            interpreters.release();
        }
        MachineRecord rec = r;
        if (rec.waitChanged()) {
            rec.clearWaitChanged();
            waits.schedule(r);
        }
        whens.update(r);
        ticks.pendTags(r);
        if (hearsInputs()) {
            inputs.stateSet(r, paths);
        }
        tell(r, "set");
    }

    /** The end of every move: the interpreter given back, then the record's timer, rules and tags brought in line. */
    void moved(EntityRecord<?> r) {
        interpreters.release();
        afterMove(r);
    }

    // ------------------------------------------------------------------ the step

    /**
     * Advances the world by {@code dt} seconds: moves the tags of states set by hand, updates
     * holds, then for each machine in declaration order takes the waits that fall due within the
     * step, in time order, and tests the {@code when} rules.
     *
     * <p>If a game's code throws, only its machine is affected: the step goes on with every other
     * machine, no wait is lost, and once the step has completed the failures go to the
     * {@link #onFailure} handler or, without one, are thrown as one {@link StepFailedException}.
     *
     * @param dt the step's length in seconds, 0 to {@link #MAX_STEP_SECONDS}
     * @throws IllegalArgumentException if {@code dt} is negative, NaN, infinite or more than
     *                                  {@link #MAX_STEP_SECONDS}, or so small that the clock would
     *                                  not advance (nothing changes)
     * @throws IllegalStateException    if called from inside a step, or from a thread that does not own the world
     * @throws StepFailedException      after the step, if machines failed and no handler is set
     */
    public void step(double dt) {
        checkThread();
        refuseTickWhileBusy("step(dt)");
        underWay.begin(UnderWay.STEP, null, null);
        try {
            ticks.tick(dt, Ticks.ADVANCE | Ticks.RUN, "step");
            if (inputs != null) {
                inputs.stepped(dt);
            }
        } finally {
            underWay.end(true);
        }
        ticks.handOver(onFailure); // the step has ended: the handler may close the world
    }

    /** A tick from the game's code inside another call would run every machine while that call is half done. */
    private void refuseTickWhileBusy(String call) {
        if (underWay.busy() || stepping) {
            throw new IllegalStateException(call + " called on " + this + " from the game's code during " + underWay.describe()
                    + "; expected a call between steps (set a flag and step after the call returns). Nothing was changed.");
        }
    }

    /**
     * The first half of a split tick (the builder style's {@code advance}, for games that
     * read the clock between the halves): the same as {@link #step} for XState-style and polled
     * machines, while builder-style machines only advance their time in state. Their handlers run
     * at {@link #runStates()}, with these seconds.
     *
     * @param dt the tick's length in seconds, 0 to {@link #MAX_STEP_SECONDS}
     * @throws IllegalArgumentException as {@link #step} does
     * @throws StepFailedException      after the pass, if machines failed and no handler is set
     */
    public void advance(double dt) {
        checkThread();
        refuseTickWhileBusy("advance(dt)");
        underWay.begin(UnderWay.ADVANCE, null, null);
        try {
            ticks.tick(dt, Ticks.ADVANCE, "advance");
            if (inputs != null) {
                inputs.advanced(dt);
            }
        } finally {
            underWay.end(true);
        }
        ticks.handOver(onFailure);
    }

    /**
     * The second half of a split tick (the builder style's {@code runState}): every
     * builder-style machine runs its state's handler, with the seconds of the last
     * {@link #advance}, in declaration and spawn order; the clock does not move. A machine the
     * advance found held does not run (holds are read once a tick, at its start).
     *
     * @throws IllegalStateException if no {@link #advance} came before it since the last tick
     * @throws StepFailedException   after the pass, if machines failed and no handler is set
     */
    public void runStates() {
        checkThread();
        refuseTickWhileBusy("runStates()");
        underWay.begin(UnderWay.RUN_STATES, null, null);
        try {
            ticks.runStates();
            if (inputs != null) {
                inputs.ranStates();
            }
        } finally {
            underWay.end(true);
        }
        ticks.handOver(onFailure);
    }

    /**
     * A system for Dominion's scheduler: each tick steps this world by the scheduler's delta time.
     * The scheduler runs systems on its own threads, so this hands the world over: it is released
     * now and after every tick, and whichever thread ticks takes it for that tick.
     *
     * @param scheduler the scheduler whose {@code deltaTime()} gives each step's seconds
     * @return the system to schedule; it does not add itself to the scheduler
     * @throws IllegalStateException as {@link #release()} does
     */
    public Runnable system(Scheduler scheduler) {
        release();
        return () -> {
            try {
                step(scheduler.deltaTime());
            } finally {
                OWNER.compareAndSet(this, Thread.currentThread(), null);
            }
        };
    }

    /** After a machine moved: its timer, its {@code when} rules and its tags follow its record, now. */
    void afterMove(EntityRecord<?> r) {
        if (r.world != this) {
            return; // its own code despawned its entity or detached it
        }
        MachineRecord rec = r;
        if (rec.waitChanged()) {
            rec.clearWaitChanged();
            waits.schedule(r);
        }
        whens.update(r);
        applyTags(r);
        if (listeners.any()) {
            listeners.told(r, false);
        }
        if (r.binding.invokes || r.family() != null) {
            children.moved(r);
        }
    }

    /** A record's entity carries the tags of its active states, now. */
    void applyTags(EntityRecord<?> r) {
        TagMoves moves = r.binding == null ? null : r.binding.moves; // null for tags(false)
        if (moves == null || r.slot < 0 || r.entity == null || r.entity.isDeleted()) { // slot -1: no longer in the world
            return;
        }
        if (!r.entity.isEnabled()) {
            ticks.pendTags(r); // Dominion changes no component of a disabled entity: its tags follow once it is enabled
            return;
        }
        if (moves.apply(r.entity, r) && r.entity instanceof dev.enginestates.dominion.IntEntity e) {
            // the tags moved the entity to another composition, with the record still on it: the
            // world's next look at the record need not search the entity for it (Registry.alive)
            r.foundIn = e.chunkNumber();
        }
    }

    static EntityRecord<?>[] push(EntityRecord<?>[] a, int at, EntityRecord<?> r) {
        if (at == a.length) {
            a = Arrays.copyOf(a, a.length * 2);
        }
        a[at] = r;
        return a;
    }

    /** Dominion adds and removes no component of a disabled entity (silently): a machine cannot join or leave one. */
    private void refuseDisabled(Entity entity, String machineId, String call) {
        if (!entity.isEnabled()) {
            throw new MachineException(machineId, "cannot " + call + " '" + machineId + "' on " + describe(entity) + ", which is disabled"
                    + " (Dominion changes no component of a disabled entity); expected an enabled entity: setEnabled(true) first");
        }
    }

    /**
     * Closes the world and the Dominion underneath. From then on the world refuses every call that
     * would use or change it (a step, a send, a spawn, a setter of a record, a checkpoint) with an
     * {@link IllegalStateException}; reads of a record and of the clock still answer. Closing a
     * closed world does nothing.
     *
     * <p>A world is closed between calls. Closing it from the game's code while one of its calls
     * is under way (an action, a guard, a {@code when} test, a seconds function, a listener, a
     * context's save or restore hook, an input recorder, during a step, a send, a {@code go} or
     * {@code transitionTo}, a {@code setState}, a spawn, attach, detach or despawn, a checkpoint,
     * a restore, a replica's frame or an input log's replay) is refused with an
     * {@link IllegalStateException} naming the call, and the world stays open and whole: the
     * refusal is that code's failure, reported as any other (after the step, or thrown by the
     * call once its work is done). It is refused rather than put off to the end of the call so
     * that a world is always either open, with its tags on its records, or closed: code after
     * the {@code close()} never runs on a world that has not closed yet. To close from inside,
     * set a flag and close once the call returns. The {@link #onFailure} handler runs once the
     * step has ended, so it may close the world (except during a replay).
     *
     * @throws IllegalStateException if a call of this world is under way (nothing is closed), or
     *                               from a thread that does not own the world
     */
    @Override
    public void close() {
        if (repository.isClosed()) {
            return;
        }
        checkThread();
        if (underWay.any() || stepping || interpreters.depth() > 0) {
            throw new IllegalStateException(this + " cannot be closed from the game's code during " + underWay.describe()
                    + ": that call would go on over a closed world; expected a close between calls (set a flag and close the"
                    + " world once the call returns). The world is still open and unchanged.");
        }
        LOG.log(System.Logger.Level.DEBUG, () -> "closing " + this);
        dominion.close();
    }

    @Override
    public String toString() {
        return "StateWorld(" + dominion.getName() + ", t=" + clock + " s, " + steps + " steps)";
    }

    /** The marker component of the world's own entity. */
    public static final class WorldEntity {
        static final WorldEntity INSTANCE = new WorldEntity();

        private WorldEntity() {
        }

        @Override
        public String toString() {
            return "WorldEntity";
        }
    }
}

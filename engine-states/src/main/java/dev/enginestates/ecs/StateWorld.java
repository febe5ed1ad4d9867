package dev.enginestates.ecs;

import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.dominion.ecs.api.Results;
import dev.dominion.ecs.api.Scheduler;
import dev.enginestates.dominion.EntityRepository;
import dev.enginestates.dominion.IntEntity;
import dev.enginestates.Event;
import dev.enginestates.MachineException;
import dev.enginestates.UserCodeException;
import dev.enginestates.algorithm.BuilderInterpreter;
import dev.enginestates.algorithm.Interpreter;
import dev.enginestates.algorithm.PolledInterpreter;
import dev.enginestates.algorithm.TimeRules;
import dev.enginestates.chart.Chart;
import dev.enginestates.records.MachineRecord;
import dev.enginestates.records.StateValue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
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
 * it, in time order, up to {@link #MAX_WAITS_PER_STEP} per machine (the rest follow on the next
 * steps, each at its own due time). A due time within {@link #TIME_TOLERANCE} of the clock counts
 * as reached.
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
    private final EntityRepository repository;
    private final Entity self;
    /** The thread this world belongs to, or {@code null} once released (the next thread to use it takes it). */
    @SuppressWarnings("unused") // read and written through OWNER too
    private volatile Thread owner = Thread.currentThread();
    /** Interpreters by nesting depth: a game's action may send to another machine while one is processing. */
    private Interpreter[] interpreters = {new Interpreter()};
    /** The same for polled machines (the {@code 000} style); both share {@link #depth}. */
    private PolledInterpreter[] polledInterpreters = {new PolledInterpreter()};
    private int depth;
    /** The machines met, in declaration order: the order the step runs them. */
    private final List<Binding> bindings = new ArrayList<>();
    /** Machines met during a step: they join {@link #bindings} when it ends. */
    private final List<Binding> joining = new ArrayList<>();
    private final Map<States<?>, Binding> byStates = new IdentityHashMap<>();
    private final Map<String, Entity> byKey = new HashMap<>();
    private long nextSeq;
    private double clock;
    private double stepStart;
    private long steps;
    private boolean stepping;
    /** The seconds of the last {@link #advance}, which {@link #runStates} hands the builder-style handlers; NaN when none is pending. */
    private float advanced = Float.NaN;
    private static final int ADVANCE = 1;
    private static final int RUN = 2;

    private StateRecord<?>[] pendingTags = new StateRecord<?>[16];
    private int pendingCount;
    private StateRecord<?>[] held = new StateRecord<?>[16];
    private int heldCount;
    private StateRecord<?>[] deferred = new StateRecord<?>[16];
    /** The waits of one due time, as the heap gives them, then in spawn order. */
    private StateRecord<?>[] batch = new StateRecord<?>[64];
    private StateRecord<?>[] ordered = new StateRecord<?>[64];
    private long[] batchKeys = new long[64];
    private WorldInputs inputs;
    /** The hold components the last step found, while a listener hears the world's inputs. */
    private Map<Entity, List<Class<?>>> heardHolds = new IdentityHashMap<>();
    private int[] whenScratch = new int[64];
    private final List<MachineFailure> failures = new ArrayList<>();
    private Consumer<MachineFailure> onFailure;

    private StateWorld(Dominion dominion) {
        this.dominion = dominion;
        this.repository = (EntityRepository) dominion;
        this.self = dominion.createEntity(WorldEntity.INSTANCE, EntityKey.world());
    }

    /** A new world over a new embedded Dominion (engine-states' patched engine, whatever else is on the class path). */
    public static StateWorld create() {
        return new StateWorld(PATCHED_DOMINION.create());
    }

    /** A new world over a new embedded Dominion with a name. */
    public static StateWorld create(String name) {
        return new StateWorld(PATCHED_DOMINION.create(name));
    }

    /**
     * A world over an existing Dominion (the world adds one entity of its own to it). The Dominion
     * must come from engine-states' patched engine, such as another world's {@link #dominion()}:
     * the official 0.9.0 engine loses entities from queries and mixes components up, and is refused.
     */
    public static StateWorld over(Dominion dominion) {
        Objects.requireNonNull(dominion, "dominion");
        if (!(dominion instanceof EntityRepository)) {
            throw new IllegalArgumentException("StateWorld.over(" + dominion + "): this Dominion is a "
                    + dominion.getClass().getName() + ", not one of engine-states' patched engine "
                    + "(Dominion 0.9.0 itself loses entities from queries after churn and mixes components up "
                    + "on create). Make the world with StateWorld.create(name) and use world.dominion() for "
                    + "the game's own entities.");
        }
        return new StateWorld(dominion);
    }

    /** The Dominion underneath, for everything this facade does not cover. */
    public Dominion dominion() {
        return dominion;
    }

    /** The world's own entity, which holds world-level machines (a game's phases). */
    public Entity entity() {
        return self;
    }

    /** Seconds of fixed steps so far. */
    public double time() {
        return clock;
    }

    /** Steps so far. */
    public long steps() {
        return steps;
    }

    /**
     * Sets what happens to the machines that fail during a step: each failure is handed to
     * {@code handler} once the step has completed, in the order they happened, instead of being
     * thrown as one {@link StepFailedException} (the default, with {@code null}).
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
        if (stepping || depth > 0) {
            throw new IllegalStateException(this + " cannot be released during a step or a send");
        }
        OWNER.setVolatile(this, null);
    }

    /** Fails fast when another thread uses this world; takes a released world over. */
    private void checkThread() {
        Thread current = Thread.currentThread();
        Thread o = owner;
        if (o == current) {
            return;
        }
        if (o == null && OWNER.compareAndSet(this, null, current)) {
            return;
        }
        Thread holder = owner;
        String name = holder == null ? "another thread" : "'" + holder.getName() + "'";
        throw new IllegalStateException(this + " belongs to " + name + ", and '" + current.getName()
                + "' used it: a world belongs to one thread at a time. Call world.release() on " + name
                + " to hand it over; the next thread to use it then takes it. Nothing was changed.");
    }

    // ------------------------------------------------------------------ spawning

    /**
     * Creates an entity with the given components. Machine records among them
     * ({@link States#trait()}) join this world, and the entity is created with the tags of
     * their states, so a query finds it in its state from its spawn. An {@link EntityKey}
     * among them names the entity: {@link #entity(String)} finds it.
     *
     * @throws MachineException if a record is already spawned, or two records of one machine are given
     * @throws IllegalArgumentException if another live entity of this world has the same key
     */
    public Entity spawn(Object... components) {
        checkThread();
        List<StateRecord<?>> records = new ArrayList<>();
        EntityKey key = null;
        for (Object c : components) {
            if (c instanceof StateRecord) {
                StateRecord<?> r = (StateRecord<?>) c;
                checkFree(r);
                for (StateRecord<?> other : records) {
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
                key = (EntityKey) c;
                Entity other = entity(key.value());
                if (other != null) {
                    throw new IllegalArgumentException("cannot spawn a second entity with key '" + key.value() + "' in " + this
                            + ": " + describe(other) + " has it; keys name one entity each (despawn it first)");
                }
            }
        }
        List<Object> all = new ArrayList<>(Arrays.asList(components));
        for (StateRecord<?> r : records) {
            StateTag[] tags = r.states.tagInstances();
            for (int s = 1; s < tags.length; s++) {
                if (tags[s] != null && r.record.isActive(s)) {
                    all.add(tags[s]);
                }
            }
        }
        Entity e = dominion.createEntity(all.toArray());
        if (key != null) {
            byKey.put(key.value(), e);
        }
        for (StateRecord<?> r : records) {
            StateTag[] tags = r.states.tagInstances();
            for (int s = 1; s < tags.length; s++) {
                r.tagged[s] = tags[s] != null && r.record.isActive(s);
            }
            register(r, e);
        }
        if (hearsInputs()) {
            inputs.spawned(e, records.toArray(new StateRecord<?>[0]));
        }
        return e;
    }

    /** Adds a world-level machine in its initial state with a fresh context, on the world's own entity. */
    public <C> StateRecord<C> add(States<C> machine) {
        return attach(self, machine.trait());
    }

    /** Adds a world-level machine record (made with {@link States#trait(Object)}, possibly set to a state). */
    public <C> StateRecord<C> add(StateRecord<C> record) {
        return attach(self, record);
    }

    /**
     * Adds a machine record to an existing entity of this world; its tags are added with it.
     *
     * @throws MachineException if the entity already holds that machine, was deleted, belongs to
     *                          another world, or the record is spawned elsewhere
     */
    public <C> StateRecord<C> attach(Entity entity, StateRecord<C> record) {
        checkThread();
        checkFree(record);
        if (entity.isDeleted()) {
            throw new MachineException(record.machineId(), "cannot attach '" + record.machineId() + "' to " + describe(entity)
                    + "; expected a live entity");
        }
        if (!repository.contains(entity)) {
            throw new MachineException(record.machineId(), "cannot attach '" + record.machineId() + "' to " + describe(entity)
                    + ", which is not an entity of " + this + "; expected one of this world's entities");
        }
        if (entity.has(record.states.recordType())) {
            throw new MachineException(record.machineId(), describe(entity) + " already holds a '" + record.machineId()
                    + "' machine; an entity holds one record per machine");
        }
        entity.add(record);
        register(record, entity);
        applyTags(record);
        if (hearsInputs()) {
            inputs.attached(entity, record);
        }
        return record;
    }

    /**
     * Removes a machine (record and tags) from an entity; false when it held none of this world's.
     *
     * @throws IllegalArgumentException if the entity belongs to another world
     */
    public boolean detach(Entity entity, States<?> machine) {
        checkThread();
        checkOwn(entity, "detach");
        StateRecord<?> r = entity.isDeleted() ? null : entity.get(machine.recordType());
        if (r == null || r.world != this) {
            return false;
        }
        binding(r).moves.removeAll(entity, r);
        unregister(r);
        entity.removeType(machine.recordType());
        if (hearsInputs()) {
            inputs.detached(entity, machine);
        }
        return true;
    }

    /**
     * Deletes an entity and forgets its machines; false if it was deleted already.
     *
     * @throws IllegalArgumentException if the entity belongs to another world (nothing changes)
     */
    public boolean despawn(Entity entity) {
        checkThread();
        if (entity.isDeleted()) {
            return false;
        }
        checkOwn(entity, "despawn");
        if (entity == self) {
            throw new IllegalArgumentException("the world's own entity cannot be despawned; detach its machines instead");
        }
        for (Binding b : allBindings()) {
            StateRecord<?> r = entity.get(b.states.recordType());
            if (r != null && r.world == this) {
                unregister(r);
            }
        }
        if (hearsInputs()) {
            inputs.despawned(entity); // while the entity can still say its key
        }
        EntityKey key = entity.get(EntityKey.class);
        if (key != null && byKey.get(key.value()) == entity) {
            byKey.remove(key.value());
        }
        return dominion.deleteEntity(entity);
    }

    private void checkOwn(Entity entity, String operation) {
        if (!entity.isDeleted() && !repository.contains(entity)) {
            throw new IllegalArgumentException(operation + "(" + describe(entity) + "): that entity is not one of " + this
                    + "; expected one of this world's entities. Nothing was changed.");
        }
    }

    /** The live records of a machine in this world, in spawn order. */
    @SuppressWarnings("unchecked")
    public <C> List<StateRecord<C>> records(States<C> machine) {
        checkThread();
        List<StateRecord<C>> out = new ArrayList<>();
        Binding b = byStates.get(machine);
        if (b != null) {
            for (int i = 0; i < b.end(); i++) {
                StateRecord<?> r = b.at(i);
                if (r != null && alive(r)) {
                    out.add((StateRecord<C>) r);
                }
            }
        }
        return out;
    }

    /** How many record slots a machine takes in this world, live or not yet reused (for tests of memory). */
    int recordSlots(States<?> machine) {
        Binding b = byStates.get(machine);
        return b == null ? 0 : b.end();
    }

    /** The machines this world has met, in the order they were declared (the order the step runs them). */
    public List<States<?>> machines() {
        List<States<?>> out = new ArrayList<>();
        for (Binding b : allBindings()) {
            out.add(b.states);
        }
        return out;
    }

    /**
     * The entities that have all these components (a state's tag is one:
     * {@code query(GUARD.is("answer"))}); add {@code .without(...)} for the "not" form.
     */
    public Query query(Class<?>... with) {
        checkThread();
        return new Query(dominion, with, new Class<?>[0]);
    }

    /** Sets the listener that hears this world's inputs (an input log), or {@code null} for none. */
    public void listen(WorldInputs inputs) {
        checkThread();
        this.inputs = inputs;
        this.heardHolds = new IdentityHashMap<>(); // the next step tells the new listener every hold it finds
    }

    /**
     * The live entity spawned with this key, or {@code null}: {@link EntityKey#WORLD} is the
     * world's own. Keys are given at spawn ({@code spawn(EntityKey.of("guard-7"), ...)}); the
     * lookup is a hash map's.
     */
    public Entity entity(String key) {
        checkThread();
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

    /** An entity for messages: its key when it has one; safe on a deleted entity. */
    static String describe(Entity e) {
        if (e == null) {
            return "no entity";
        }
        if (e.isDeleted()) {
            return "a deleted entity";
        }
        EntityKey k = e.get(EntityKey.class);
        return k != null ? "entity '" + k.value() + "'" : "entity " + e;
    }

    /** The key of an entity: its {@link EntityKey}'s text, or {@code null} when it has none. */
    public static String keyOf(Entity entity) {
        EntityKey k = entity.get(EntityKey.class);
        return k == null ? null : k.value();
    }

    /**
     * Sets the clock, as a restore does: seconds of fixed steps so far and the step count.
     * Waits keep their start times, so set the clock before writing records.
     *
     * @throws IllegalStateException during a step
     * @throws IllegalArgumentException if the time is negative or not finite, or the count negative
     */
    public void restoreClock(double time, long steps) {
        checkThread();
        if (stepping) {
            throw new IllegalStateException("the clock cannot be set during a step");
        }
        if (!(time >= 0) || Double.isInfinite(time) || steps < 0) {
            throw new IllegalArgumentException("a world clock needs finite seconds, 0 or more, and a step count, 0 or more; got "
                    + time + " s and " + steps + " steps");
        }
        double shift = time - clock;
        // records the restore does not name keep the seconds they had waited
        for (Binding b : bindings) {
            for (int i = 0; i < b.end(); i++) {
                StateRecord<?> r = b.at(i);
                if (r == null) {
                    continue;
                }
                MachineRecord rec = r.record;
                if (rec.waitState() >= 0) {
                    rec.setWait(rec.waitState(), rec.waitStart() + shift, rec.waitSeconds());
                }
                if (rec.isHeld()) {
                    rec.setHeldSince(rec.heldSince() + shift);
                }
                rec.clearWaitChanged();
                schedule(r);
            }
        }
        this.clock = time;
        this.steps = steps;
        if (hearsInputs()) {
            inputs.clockSet(time, steps);
        }
    }

    /**
     * A record of this world was overwritten as a whole (a restore, or a test arranging a
     * starting state): its timer, its {@code when} rules and its entity's tags are derived from
     * it again, now, rather than at the next step.
     */
    public void restored(StateRecord<?> r) {
        checkThread();
        if (r.world != this) {
            throw new IllegalArgumentException("the '" + r.machineId() + "' record does not belong to this world");
        }
        MachineRecord rec = r.record;
        rec.clearWaitChanged();
        if (rec.chart().builder != null) {
            BuilderInterpreter.writeContext(rec); // the context mirrors the record it was restored into
            if (rec.context() instanceof dev.enginestates.fsm.StateContext sc) {
                sc.setEntity(r.entity);
            }
        }
        schedule(r);
        updateWhen(r);
        boolean held = rec.isHeld();
        if (held && !r.inHeldList) {
            r.inHeldList = true;
            r.heldStamp = steps;
            held(r);
        }
        applyTags(r);
        if (hearsInputs()) {
            inputs.edited(r);
        }
    }

    /** A record's wait, history or paused seconds were set by hand: its timer follows now. */
    void edited(StateRecord<?> r) {
        checkThread();
        MachineRecord rec = r.record;
        rec.clearWaitChanged();
        schedule(r);
        if (hearsInputs()) {
            inputs.edited(r);
        }
    }

    /**
     * Whether a change now is an input of the world: made by the game from outside, not by a
     * machine's own code during a step or a send (which a replay runs again).
     */
    private boolean hearsInputs() {
        return inputs != null && !stepping && depth == 0;
    }

    private void held(StateRecord<?> r) {
        this.held = push(this.held, heldCount++, r);
    }

    // ------------------------------------------------------------------ sending

    private void checkAlive(StateRecord<?> r) {
        if (!alive(r)) {
            throw new MachineException(r.machineId(), "the '" + r.machineId() + "' record's entity was deleted or the record removed");
        }
    }

    boolean send(StateRecord<?> r, int eventId, Event event) {
        checkThread();
        checkAlive(r);
        boolean input = !stepping && depth == 0;
        Interpreter in = acquire(stepping ? stepStart : clock);
        try {
            return in.send(r.record, eventId, event);
        } catch (UserCodeException e) {
            throw e.on(describe(r.entity));
        } finally {
            depth--;
            afterMove(r);
            if (input && inputs != null) {
                inputs.sent(r, event);
            }
        }
    }

    /** Sends a polled machine's event; {@code asEvent} is the {@link Event} its handler receives as its one argument, if it was sent as one. */
    boolean sendPolled(StateRecord<?> r, int eventId, String event, Object[] args, Event asEvent) {
        checkThread();
        checkAlive(r);
        boolean input = !stepping && depth == 0;
        PolledInterpreter in = acquirePolled();
        try {
            return in.send(r.record, eventId, event, args);
        } catch (UserCodeException e) {
            throw e.on(describe(r.entity));
        } finally {
            depth--;
            afterMove(r);
            if (input && inputs != null) {
                if (asEvent != null) {
                    inputs.sent(r, asEvent);
                } else {
                    inputs.sent(r, event, args);
                }
            }
        }
    }

    /** Forces a polled ({@code go}) or builder-style ({@code transitionTo}) machine into a state. */
    void go(StateRecord<?> r, int state, String name) {
        checkThread();
        checkAlive(r);
        boolean input = !stepping && depth == 0;
        boolean polled = r.record.chart().polled != null;
        PolledInterpreter in = polled ? acquirePolled() : null;
        if (!polled) {
            depth++; // the builder's interpreter is stateless: only the nesting is counted
        }
        try {
            if (polled) {
                in.go(r.record, state);
            } else {
                BuilderInterpreter.transitionTo(r.record, state);
            }
        } catch (UserCodeException e) {
            throw e.on(describe(r.entity));
        } finally {
            depth--;
            afterMove(r);
            if (input && inputs != null) {
                inputs.went(r, name);
            }
        }
    }

    void place(StateRecord<?> r, int[] targets, String[] paths) {
        checkThread();
        if (r.record.chart().polled != null) {
            PolledInterpreter in = acquirePolled();
            try {
                in.place(r.record, targets[0]);
            } finally {
                depth--;
            }
        } else if (r.record.chart().builder != null) {
            BuilderInterpreter.place(r.record, targets[0], 0f, 0f);
        } else {
            Interpreter in = acquire(stepping ? stepStart : clock);
            try {
                in.place(r.record, targets);
            } finally {
                depth--;
            }
        }
        MachineRecord rec = r.record;
        if (rec.waitChanged()) {
            rec.clearWaitChanged();
            schedule(r);
        }
        updateWhen(r);
        if (!r.tagsPending) {
            r.tagsPending = true;
            pendingTags = push(pendingTags, pendingCount++, r);
        }
        if (hearsInputs()) {
            inputs.stateSet(r, paths);
        }
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
     * @throws IllegalArgumentException if {@code dt} is negative, NaN or infinite, or so small that
     *                                  the clock would not advance (nothing changes)
     * @throws IllegalStateException    if called from inside a step, or from a thread that does not own the world
     * @throws StepFailedException      after the step, if machines failed and no handler is set
     */
    public void step(double dt) {
        tick(dt, ADVANCE | RUN, "step");
        if (inputs != null) {
            inputs.stepped(dt);
        }
        throwFailures();
    }

    /**
     * The first half of a split tick (the {@code 002} document's {@code Advance}, for games that
     * read the clock between the halves): the same as {@link #step} for XState-style and polled
     * machines, while builder-style machines only advance their time in state. Their handlers run
     * at {@link #runStates()}, with these seconds.
     *
     * @throws IllegalArgumentException as {@link #step} does
     * @throws StepFailedException      after the pass, if machines failed and no handler is set
     */
    public void advance(double dt) {
        tick(dt, ADVANCE, "advance");
        advanced = (float) dt;
        if (inputs != null) {
            inputs.advanced(dt);
        }
        throwFailures();
    }

    /**
     * The second half of a split tick (the {@code 002} document's {@code RunState}): every
     * builder-style machine runs its state's handler, with the seconds of the last
     * {@link #advance}, in declaration and spawn order; the clock does not move. A machine the
     * advance found held does not run (holds are read once a tick, at its start).
     *
     * @throws IllegalStateException if no {@link #advance} came before it since the last tick
     * @throws StepFailedException   after the pass, if machines failed and no handler is set
     */
    public void runStates() {
        checkThread();
        if (stepping) {
            throw new IllegalStateException("runStates() called from inside a step");
        }
        if (Float.isNaN(advanced)) {
            throw new IllegalStateException("runStates() without an advance(dt) before it; a split tick is advance(dt), the"
                    + " tick's work, then runStates()");
        }
        float dt = advanced;
        advanced = Float.NaN;
        stepping = true;
        failures.clear();
        try {
            // holds stand as the advance found them: they are read once a tick, at its start
            for (int bi = 0; bi < bindings.size(); bi++) {
                Binding b = bindings.get(bi);
                if (b.builder) {
                    stepBuilder(b, dt, RUN);
                }
            }
        } finally {
            stepping = false;
            joinLate();
        }
        if (inputs != null) {
            inputs.ranStates();
        }
        throwFailures();
    }

    private void tick(double dt, int builderPhases, String call) {
        checkThread();
        if (!(dt >= 0) || Double.isInfinite(dt)) {
            throw new IllegalArgumentException(call + " needs a finite number of seconds, 0 or more; got " + dt);
        }
        if (dt > 0 && !(clock + dt > clock && clock + dt < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException(call + "(" + dt + ") would not advance the clock at t=" + clock
                    + " s (too small a step for a double this large); expected a step the clock can add");
        }
        if (stepping) {
            throw new IllegalStateException(call + "(dt) called from inside a step");
        }
        for (int bi = 0; bi < bindings.size(); bi++) {
            bindings.get(bi).compactIfSparse();
        }
        stepping = true;
        advanced = Float.NaN;
        failures.clear();
        try {
            for (int i = 0; i < pendingCount; i++) {
                StateRecord<?> r = pendingTags[i];
                pendingTags[i] = null;
                r.tagsPending = false;
                if (r.world == this) {
                    applyTags(r);
                }
            }
            pendingCount = 0;
            updateHolds();
            stepStart = clock;
            clock += dt;
            steps++;
            for (int bi = 0; bi < bindings.size(); bi++) {
                Binding b = bindings.get(bi);
                if (b.polled) {
                    stepPolled(b, dt);
                    continue;
                }
                if (b.builder) {
                    stepBuilder(b, (float) dt, builderPhases);
                    continue;
                }
                endDueWaits(b);
                if (b.whenCount() > 0) {
                    runWhens(b);
                }
            }
        } finally {
            stepping = false;
            joinLate();
        }
    }

    private void joinLate() {
        if (!joining.isEmpty()) {
            for (Binding b : joining) {
                insertInOrder(b);
            }
            joining.clear();
        }
    }

    private void throwFailures() {
        if (!failures.isEmpty()) {
            List<MachineFailure> failed = new ArrayList<>(failures);
            failures.clear();
            if (onFailure == null) {
                throw new StepFailedException(steps, clock, failed);
            }
            for (MachineFailure f : failed) {
                onFailure.accept(f);
            }
        }
    }

    /**
     * A system for Dominion's scheduler: each tick steps this world by the scheduler's delta time.
     * The scheduler runs systems on its own threads, so this hands the world over: it is released
     * now and after every tick, and whichever thread ticks takes it for that tick.
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

    /**
     * Steps every polled machine of a binding in spawn order (the {@code 000} document's step:
     * clocks, guards outermost first, {@code after}, updates). A held machine's clocks stop and
     * nothing of it is tested; a machine that joined or failed in this step waits for the next.
     */
    private void stepPolled(Binding b, double dt) {
        for (int slot = 0; slot < b.end(); slot++) {
            StateRecord<?> r = b.at(slot);
            if (r == null || r.joinedStep == steps || r.failedStep == steps || r.record.isHeld() || !alive(r)) {
                continue;
            }
            PolledInterpreter in = acquirePolled();
            boolean moved = true;
            try {
                moved = in.step(r.record, dt);
            } catch (RuntimeException e) {
                failed(r, e, "step");
            } finally {
                depth--;
                if (moved) {
                    afterMove(r);
                }
            }
        }
    }

    /**
     * Runs every builder-style machine of a binding in spawn order: {@code advance} then
     * {@code runState} each (the {@code 002} document's {@code update}), or one of the halves. A
     * held machine neither advances nor runs; a machine that joined or failed in this step waits
     * for the next.
     */
    private void stepBuilder(Binding b, float dt, int phases) {
        for (int slot = 0; slot < b.end(); slot++) {
            StateRecord<?> r = b.at(slot);
            if (r == null || r.joinedStep == steps || r.failedStep == steps || r.record.isHeld() || !alive(r)) {
                continue;
            }
            boolean moved = false;
            try {
                if (phases == (ADVANCE | RUN)) {
                    moved = BuilderInterpreter.update(r.record, dt);
                } else if (phases == ADVANCE) {
                    BuilderInterpreter.advance(r.record, dt);
                } else {
                    moved = BuilderInterpreter.runState(r.record, dt);
                }
            } catch (RuntimeException e) {
                moved = true; // a hook may have thrown after the record moved: its tags follow it
                failed(r, e, (phases & RUN) != 0 ? "runState" : "advance");
            } finally {
                if (moved) {
                    afterMove(r);
                }
            }
        }
    }

    /**
     * Takes a machine's waits that fall due within the step, in time order, chained ones included:
     * each batch of equal due times in spawn order (the heap leaves ties in no order).
     */
    private void endDueWaits(Binding b) {
        int deferredCount = 0;
        while (b.timers.peekDue() <= clock + TIME_TOLERANCE) {
            double at = b.timers.peekDue();
            int n = 0;
            while (b.timers.peekDue() == at) {
                batch = push(batch, n++, b.timers.poll());
            }
            inSpawnOrder(n);
            for (int i = 0; i < n; i++) {
                StateRecord<?> r = ordered[i];
                ordered[i] = null;
                if (!takeDueWait(r)) {
                    deferred = push(deferred, deferredCount++, r); // its wait stays due for the next step
                }
            }
        }
        for (int i = 0; i < deferredCount; i++) {
            StateRecord<?> r = deferred[i];
            deferred[i] = null;
            schedule(r);
        }
    }

    /**
     * Puts the first {@code n} records of {@link #batch} into {@link #ordered} in spawn order. Within
     * a step, slots are in spawn order (holes are closed up only between steps), so the sort runs
     * on primitive keys (slot, batch index) and reads each record once.
     */
    private void inSpawnOrder(int n) {
        if (batchKeys.length < n) {
            batchKeys = new long[Math.max(n, batchKeys.length * 2)];
        }
        if (ordered.length < n) {
            ordered = new StateRecord<?>[Math.max(n, ordered.length * 2)];
        }
        for (int i = 0; i < n; i++) {
            batchKeys[i] = ((long) batch[i].slot << 32) | i;
        }
        sort(batchKeys, n);
        for (int i = 0; i < n; i++) {
            ordered[i] = batch[(int) batchKeys[i]];
        }
        Arrays.fill(batch, 0, n, null);
    }

    /** In-place heapsort: allocation-free, and the keys are distinct so stability does not matter. */
    private static void sort(long[] a, int n) {
        for (int i = n / 2 - 1; i >= 0; i--) {
            sift(a, i, n);
        }
        for (int end = n - 1; end > 0; end--) {
            long t = a[0];
            a[0] = a[end];
            a[end] = t;
            sift(a, 0, end);
        }
    }

    private static void sift(long[] a, int i, int n) {
        while (true) {
            int l = 2 * i + 1;
            if (l >= n) {
                return;
            }
            int m = l + 1 < n && a[l + 1] > a[l] ? l + 1 : l;
            if (a[i] >= a[m]) {
                return;
            }
            long t = a[i];
            a[i] = a[m];
            a[m] = t;
            i = m;
        }
    }

    /** Ends one due wait; false when the machine is not to take it in this step (it joined or failed in it, or hit the cap). */
    private boolean takeDueWait(StateRecord<?> r) {
        if (!alive(r)) {
            return true;
        }
        if (r.waitsStep != steps) {
            r.waitsStep = steps;
            r.waitsInStep = 0;
        }
        if (r.joinedStep == steps || r.failedStep == steps || r.waitsInStep >= MAX_WAITS_PER_STEP) {
            return false;
        }
        r.waitsInStep++;
        try {
            endWait(r);
        } catch (RuntimeException e) {
            failed(r, e, "states.wait");
        }
        return true;
    }

    private void endWait(StateRecord<?> r) {
        MachineRecord rec = r.record;
        int s = rec.waitState();
        double due = rec.waitDue();
        if (s < 0 || due > clock + TIME_TOLERANCE) {
            schedule(r); // changed since it was queued; keep it current
            return;
        }
        Interpreter in = acquire(due);
        r.movedAt = due;
        r.movedStep = steps;
        try {
            TimeRules.endWait(in, rec);
        } finally {
            depth--;
            afterMove(r);
        }
    }

    private void runWhens(Binding b) {
        int n = b.whenCount();
        if (whenScratch.length < n) {
            whenScratch = new int[Math.max(n, whenScratch.length * 2)];
        }
        b.copyWhenSlots(whenScratch);
        int[] slots = whenScratch;
        for (int i = 0; i < n; i++) {
            StateRecord<?> r = b.at(slots[i]);
            if (r == null || !r.whenActive || r.record.isHeld() || r.joinedStep == steps || r.failedStep == steps || !alive(r)) {
                continue;
            }
            try {
                runWhen(r);
            } catch (RuntimeException e) {
                failed(r, e, "states.when");
            }
        }
    }

    private void runWhen(StateRecord<?> r) {
        int t = TimeRules.firstWhen(r.record, r.holder);
        if (t >= 0 && r.world == this) { // a test may have despawned its own entity
            // at the step's start, or later if a wait already moved the machine in this step
            Interpreter in = acquire(r.movedStep == steps ? Math.max(stepStart, r.movedAt) : stepStart);
            try {
                in.take(r.record, t, r.record.chart().whenEvent);
            } finally {
                depth--;
                afterMove(r);
            }
        }
    }

    /** Notes a machine's failure: it is stepped no further in this step, and the step goes on. */
    private void failed(StateRecord<?> r, RuntimeException e, String eventType) {
        r.failedStep = steps;
        MachineException cause = e instanceof MachineException ? (MachineException) e
                : new MachineException(r.machineId(), "machine '" + r.machineId() + "' failed: " + e, e);
        String state = StateValue.describe(r.record);
        String event = eventType;
        if (e instanceof UserCodeException) {
            UserCodeException u = (UserCodeException) e;
            state = u.statePath();
            event = u.eventType();
        }
        String entity = r.entity == null ? "no entity" : r.entity.isDeleted() ? "a despawned entity" : describe(r.entity);
        failures.add(new MachineFailure(r.machineId(), entity, state, event, cause));
    }

    private void updateHolds() {
        long stamp = steps + 1;
        boolean any = false;
        Map<Entity, List<Class<?>>> seen = inputs == null ? null : new IdentityHashMap<>();
        if (!bindings.isEmpty()) {
            for (Results.With1<MachinePaused> w : dominion.findEntitiesWith(MachinePaused.class)) {
                Entity e = w.entity();
                for (int bi = 0; bi < bindings.size(); bi++) {
                    StateRecord<?> r = e.get(bindings.get(bi).states.recordType());
                    if (r != null && r.world == this) {
                        markHeld(r, stamp);
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
                    for (Results.With1<?> w : dominion.findEntitiesWith(type)) {
                        StateRecord<?> r = w.entity().get(b.states.recordType());
                        if (r != null && r.world == this) {
                            markHeld(r, stamp);
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
            heardHolds(seen);
        }
        if (heldCount == 0 && !any) {
            return;
        }
        int w = 0;
        for (int i = 0; i < heldCount; i++) {
            StateRecord<?> r = held[i];
            if (r.heldStamp == stamp && r.world == this) {
                held[w++] = r;
            } else {
                r.inHeldList = false;
                if (r.world == this) {
                    r.record.release(clock);
                    r.record.clearWaitChanged();
                    schedule(r);
                }
            }
        }
        for (int i = w; i < heldCount; i++) {
            held[i] = null;
        }
        heldCount = w;
    }

    /**
     * Tells the listener which hold components the step found that it did not find at the last
     * step, and which it no longer finds: a replay puts them on and takes them off before the
     * step, so the replayed step finds the same holds.
     */
    private void heardHolds(Map<Entity, List<Class<?>>> seen) {
        for (Map.Entry<Entity, List<Class<?>>> e : heardHolds.entrySet()) {
            List<Class<?>> now = seen.get(e.getKey());
            for (Class<?> type : e.getValue()) {
                if ((now == null || !now.contains(type)) && !e.getKey().isDeleted()) {
                    inputs.holdChanged(e.getKey(), type, false);
                }
            }
        }
        for (Map.Entry<Entity, List<Class<?>>> e : seen.entrySet()) {
            List<Class<?>> before = heardHolds.get(e.getKey());
            for (Class<?> type : e.getValue()) {
                if (before == null || !before.contains(type)) {
                    inputs.holdChanged(e.getKey(), type, true);
                }
            }
        }
        heardHolds = seen;
    }

    private Interpreter acquire(double at) {
        if (depth == interpreters.length) {
            interpreters = Arrays.copyOf(interpreters, depth + 1);
            interpreters[depth] = new Interpreter();
        }
        Interpreter in = interpreters[depth++];
        in.clock(at);
        return in;
    }

    private PolledInterpreter acquirePolled() {
        if (depth >= polledInterpreters.length) {
            int from = polledInterpreters.length;
            polledInterpreters = Arrays.copyOf(polledInterpreters, depth + 1);
            for (int i = from; i <= depth; i++) {
                polledInterpreters[i] = new PolledInterpreter();
            }
        }
        if (depth == interpreters.length) {
            interpreters = Arrays.copyOf(interpreters, depth + 1);
            interpreters[depth] = new Interpreter();
        }
        return polledInterpreters[depth++];
    }

    private void markHeld(StateRecord<?> r, long stamp) {
        r.heldStamp = stamp;
        if (!r.inHeldList) {
            r.inHeldList = true;
            held = push(held, heldCount++, r);
            r.record.hold(clock);
            r.record.clearWaitChanged();
            schedule(r);
        }
    }

    // ------------------------------------------------------------------ bookkeeping

    private void register(StateRecord<?> r, Entity e) {
        Binding b = bind(r.states);
        r.binding = b;
        r.world = this;
        r.entity = e;
        r.foundIn = null;
        r.holder = new EntityHolder(e, this);
        if (r.record.context() instanceof dev.enginestates.fsm.StateContext sc) {
            sc.setEntity(e); // a builder-style context knows the entity it lives on
        }
        r.joinedStep = stepping ? steps : -1;
        r.failedStep = -1;
        r.seq = nextSeq++;
        b.add(r);
        MachineRecord rec = r.record;
        if (r.localClock && rec.waitState() >= 0) {
            // a record made outside a world counted its wait on a clock of its own, from 0
            rec.setWait(rec.waitState(), clock - rec.waited(0), rec.waitSeconds());
        }
        r.localClock = false;
        rec.clearWaitChanged();
        schedule(r);
        updateWhen(r);
    }

    private void unregister(StateRecord<?> r) {
        if (r.world != this) {
            return;
        }
        binding(r).remove(r);
        // the record leaves this world's clock: its wait times count from 0 on its own again
        MachineRecord rec = r.record;
        if (rec.waitState() >= 0) {
            rec.setWait(rec.waitState(), rec.waitStart() - clock, rec.waitSeconds());
        }
        if (rec.isHeld()) {
            rec.setHeldSince(rec.heldSince() - clock);
        }
        rec.clearWaitChanged();
        r.localClock = true;
        r.world = null;
        if (rec.context() instanceof dev.enginestates.fsm.StateContext sc && sc.entity() == r.entity) {
            sc.setEntity(null);
        }
    }

    private void checkFree(StateRecord<?> r) {
        Objects.requireNonNull(r, "record");
        if (r.world != null) {
            throw new MachineException(r.machineId(), "this '" + r.machineId() + "' record is already spawned on " + describe(r.entity)
                    + "; make a new one with trait()");
        }
    }

    private boolean alive(StateRecord<?> r) {
        if (r.world != this) {
            return false;
        }
        if (r.entity.isDeleted()) {
            unregister(r);
            return false;
        }
        // the entity's component set is its composition: while it is the one the record was last
        // found in, the record is still there, and the lookup (a third of a machine's step) is skipped
        Object composition = r.entity instanceof IntEntity e ? e.getChunk() : null; // a chunk holds one composition's entities
        if (composition != null && composition == r.foundIn) {
            return true;
        }
        if (r.entity.get(r.states.recordType()) != r) {
            // the record was removed through Dominion directly: its tags go with it
            binding(r).moves.removeAll(r.entity, r);
            unregister(r);
            return false;
        }
        r.foundIn = composition;
        return true;
    }

    /** After a machine moved: its timer, its {@code when} rules and its tags follow its record, now. */
    private void afterMove(StateRecord<?> r) {
        if (r.world != this) {
            return; // its own code despawned its entity or detached it
        }
        MachineRecord rec = r.record;
        if (rec.waitChanged()) {
            rec.clearWaitChanged();
            schedule(r);
        }
        updateWhen(r);
        applyTags(r);
    }

    private void schedule(StateRecord<?> r) {
        if (r.world != this) {
            return;
        }
        double due = r.record.waitDue();
        Binding b = binding(r);
        if (due == Double.POSITIVE_INFINITY) {
            b.timers.remove(r);
        } else {
            b.timers.set(r, due);
        }
    }

    private void applyTags(StateRecord<?> r) {
        if (!r.states.machine().tags() || r.entity == null || r.entity.isDeleted()) {
            return;
        }
        binding(r).moves.apply(r.entity, r);
    }

    private void updateWhen(StateRecord<?> r) {
        if (r.world != this) {
            return;
        }
        MachineRecord rec = r.record;
        Chart c = rec.chart();
        boolean active = false;
        if (rec.status() == MachineRecord.ACTIVE) {
            for (int i = 0; i < rec.activeCount() && !active; i++) {
                active = c.when[rec.activeAt(i)] != null;
            }
        }
        binding(r).setWhenActive(r, active);
    }

    private Binding bind(States<?> states) {
        Binding b = byStates.get(states);
        if (b == null) {
            b = new Binding(dominion, states);
            byStates.put(states, b);
            if (stepping) {
                joining.add(b); // the step's pass holds positions in bindings: it joins when the step ends
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

    private List<Binding> allBindings() {
        if (joining.isEmpty()) {
            return bindings;
        }
        List<Binding> all = new ArrayList<>(bindings);
        all.addAll(joining);
        return all;
    }

    /** The record's machine in this world (kept on the record while it is in the world: no map lookup on the hot path). */
    private Binding binding(StateRecord<?> r) {
        return r.binding;
    }

    private static StateRecord<?>[] push(StateRecord<?>[] a, int at, StateRecord<?> r) {
        if (at == a.length) {
            a = Arrays.copyOf(a, a.length * 2);
        }
        a[at] = r;
        return a;
    }

    /** Closes the Dominion underneath. */
    @Override
    public void close() {
        checkThread();
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

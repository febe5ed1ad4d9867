package dev.enginestates.ecs;

import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.dominion.ecs.api.Results;
import dev.dominion.ecs.api.Scheduler;
import dev.enginestates.dominion.EntityRepository;
import dev.enginestates.Event;
import dev.enginestates.MachineException;
import dev.enginestates.UserCodeException;
import dev.enginestates.algorithm.Interpreter;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.HolderCondition;
import dev.enginestates.record.MachineRecord;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One room: a thin facade over a Dominion world that spawns entities with machines, keeps
 * their tags in line with their records, finds entities by state, and runs the fixed step.
 *
 * <p>The step ({@link #step(double)}), for each machine in the order machines were declared:
 * first the waits that are due, then the {@code when} rules of the states that have them (a
 * child's before its parent's; the first that holds moves). Tag changes made during the step
 * are applied after the pass, so no Dominion iteration ever sees an entity change composition
 * under it. Costs follow what happens: a machine with no wait and no {@code when} costs
 * nothing per step, a waiting machine nothing until its wait is due (due times sit in a
 * heap), and holds cost in proportion to the held entities.
 *
 * <p>Time: a wait entered by a send before a step, or by a {@code when} during it, counts
 * that step's seconds (a {@code when} that moves a machine which a wait already moved in the
 * same step counts from that move, so no second is counted twice). A wait whose seconds run out ends at the first step whose end reaches
 * its due time; the state it leads to starts its own wait at that due time, not at the end of
 * the step, so chained waits keep exact time (a due time within {@link #TIME_TOLERANCE} of
 * the clock counts as reached). A machine takes at most one wait's transition
 * per step: a wait that is already due when it is entered ends at the next step.
 *
 * <p>Not thread-safe: a world is stepped by one thread. Worlds are independent; machine
 * definitions are shared by all of them.
 */
public final class StateWorld implements AutoCloseable {
    /**
     * A due time within this many seconds of the clock counts as reached: floating-point sums
     * of steps such as 1/60 s fall a hair short of round numbers, and a 4-second wait at 60 Hz
     * must end on step 240, not 241.
     */
    public static final double TIME_TOLERANCE = 1e-9;

    /** Worlds are made by the patched engine directly, never through ServiceLoader, which could pick the official jar. */
    private static final Dominion.Factory PATCHED_DOMINION = new EntityRepository.Factory();

    private final Dominion dominion;
    private final Entity self;
    /** Interpreters by nesting depth: a game's action may send to another machine while one is processing. */
    private Interpreter[] interpreters = {new Interpreter()};
    private int depth;
    private final TimerHeap timers = new TimerHeap();
    private final List<Binding> bindings = new ArrayList<>();
    private final Map<States<?>, Binding> byStates = new IdentityHashMap<>();
    private double clock;
    private double stepStart;
    private long steps;
    private boolean stepping;

    private StateRecord<?>[] dirty = new StateRecord<?>[64];
    private int dirtyCount;
    private StateRecord<?>[] pendingTags = new StateRecord<?>[16];
    private int pendingCount;
    private StateRecord<?>[] held = new StateRecord<?>[16];
    private int heldCount;
    private long[] dueKeys = new long[64];
    private WorldInputs inputs;
    private int[] whenScratch = new int[64];

    /** A machine's place in this world: its records in spawn order, its prepared tag moves. */
    static final class Binding {
        final States<?> states;
        final TagMoves moves;
        final Class<?>[] heldBy;
        StateRecord<?>[] records = new StateRecord<?>[16];
        int count;
        int[] when = new int[16];
        int whenCount;

        Binding(Dominion dominion, States<?> states) {
            this.states = states;
            this.moves = new TagMoves(dominion, states);
            this.heldBy = states.machine().heldBy().toArray(new Class<?>[0]);
        }
    }

    private StateWorld(Dominion dominion) {
        this.dominion = dominion;
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

    // ------------------------------------------------------------------ spawning

    /**
     * Creates an entity with the given components. Machine records among them
     * ({@link States#trait()}) join this world, and the entity is created with the tags of
     * their states, so a query finds it in its state from its spawn.
     *
     * @throws MachineException if a record is already spawned, or two records of one machine are given
     */
    public Entity spawn(Object... components) {
        List<StateRecord<?>> records = new ArrayList<>();
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
        for (StateRecord<?> r : records) {
            StateTag[] tags = r.states.tagInstances();
            for (int s = 1; s < tags.length; s++) {
                r.tagged[s] = tags[s] != null && r.record.isActive(s);
            }
            register(r, e);
        }
        if (inputs != null) {
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
     * Adds a machine record to an existing entity; its tags are added with it.
     *
     * @throws MachineException if the entity already holds that machine, was deleted, or the record is spawned elsewhere
     */
    public <C> StateRecord<C> attach(Entity entity, StateRecord<C> record) {
        checkFree(record);
        if (entity.isDeleted()) {
            throw new MachineException(record.machineId(), "cannot attach '" + record.machineId() + "' to " + describe(entity)
                    + "; expected a live entity");
        }
        if (entity.has(record.states.recordType())) {
            throw new MachineException(record.machineId(), describe(entity) + " already holds a '" + record.machineId()
                    + "' machine; an entity holds one record per machine");
        }
        entity.add(record);
        register(record, entity);
        applyTags(record);
        if (inputs != null) {
            inputs.attached(entity, record);
        }
        return record;
    }

    /** Removes a machine (record and tags) from an entity; false when it held none of this world's. */
    public boolean detach(Entity entity, States<?> machine) {
        StateRecord<?> r = entity.isDeleted() ? null : entity.get(machine.recordType());
        if (r == null || r.world != this) {
            return false;
        }
        binding(r).moves.removeAll(entity, r);
        unregister(r);
        entity.removeType(machine.recordType());
        if (inputs != null) {
            inputs.detached(entity, machine);
        }
        return true;
    }

    /** Deletes an entity and forgets its machines. */
    public boolean despawn(Entity entity) {
        if (entity.isDeleted()) {
            return false;
        }
        for (Binding b : bindings) {
            StateRecord<?> r = entity.get(b.states.recordType());
            if (r != null && r.world == this) {
                unregister(r);
            }
        }
        if (inputs != null) {
            inputs.despawned(entity); // while the entity can still say its key
        }
        return dominion.deleteEntity(entity);
    }

    /** The live records of a machine in this world, in spawn order. */
    @SuppressWarnings("unchecked")
    public <C> List<StateRecord<C>> records(States<C> machine) {
        List<StateRecord<C>> out = new ArrayList<>();
        Binding b = byStates.get(machine);
        if (b != null) {
            for (int i = 0; i < b.count; i++) {
                StateRecord<?> r = b.records[i];
                if (r != null && alive(r)) {
                    out.add((StateRecord<C>) r);
                }
            }
        }
        return out;
    }

    /** The machines this world has met, in the order they were declared (the order the step runs them). */
    public List<States<?>> machines() {
        List<States<?>> out = new ArrayList<>();
        for (Binding b : bindings) {
            out.add(b.states);
        }
        return out;
    }

    /**
     * The entities that have all these components (a state's tag is one:
     * {@code query(GUARD.is("answer"))}); add {@code .without(...)} for the "not" form.
     */
    public Query query(Class<?>... with) {
        return new Query(dominion, with, new Class<?>[0]);
    }

    /** Sets the listener that hears this world's inputs (an input log), or {@code null} for none. */
    public void listen(WorldInputs inputs) {
        this.inputs = inputs;
    }

    /** The entity with this key, or {@code null}: {@link EntityKey#WORLD} is the world's own. */
    public Entity entity(String key) {
        if (EntityKey.WORLD.equals(key)) {
            return self;
        }
        for (Results.With1<EntityKey> w : dominion.findEntitiesWith(EntityKey.class)) {
            if (w.comp().value().equals(key)) {
                return w.entity();
            }
        }
        return null;
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
            for (int i = 0; i < b.count; i++) {
                StateRecord<?> r = b.records[i];
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
    }

    /**
     * A record of this world was overwritten as a whole (a restore, or a test arranging a
     * starting state): its timer, its {@code when} rules and its entity's tags are derived from
     * it again, now, rather than at the next step.
     */
    public void restored(StateRecord<?> r) {
        if (r.world != this) {
            throw new IllegalArgumentException("the '" + r.machineId() + "' record does not belong to this world");
        }
        MachineRecord rec = r.record;
        rec.clearWaitChanged();
        schedule(r);
        updateWhen(r);
        boolean held = rec.isHeld();
        if (held && !r.inHeldList) {
            r.inHeldList = true;
            r.heldStamp = steps;
            held(r);
        }
        applyTags(r);
    }

    /** A record's wait, history or paused seconds were set by hand: its timer follows now. */
    void edited(StateRecord<?> r) {
        MachineRecord rec = r.record;
        rec.clearWaitChanged();
        schedule(r);
        if (inputs != null && !stepping) {
            inputs.edited(r);
        }
    }

    private void held(StateRecord<?> r) {
        this.held = push(this.held, heldCount++, r);
    }

    // ------------------------------------------------------------------ sending

    boolean send(StateRecord<?> r, int eventId, Event event) {
        if (!alive(r)) {
            throw new MachineException(r.machineId(), "the '" + r.machineId() + "' record's entity was deleted or the record removed");
        }
        boolean input = !stepping && depth == 0;
        Interpreter in = acquire(stepping ? stepStart : clock);
        try {
            return in.send(r.record, eventId, event);
        } finally {
            depth--;
            afterMove(r);
            if (input && inputs != null) {
                inputs.sent(r, event);
            }
        }
    }

    void place(StateRecord<?> r, int[] targets, String[] paths) {
        Interpreter in = acquire(stepping ? stepStart : clock);
        try {
            in.place(r.record, targets);
        } finally {
            depth--;
        }
        MachineRecord rec = r.record;
        if (rec.waitChanged()) {
            rec.clearWaitChanged();
            schedule(r);
        }
        updateWhen(r);
        if (!r.dirty) {
            r.dirty = true;
            pendingTags = push(pendingTags, pendingCount++, r);
        }
        if (inputs != null && !stepping) {
            inputs.stateSet(r, paths);
        }
    }

    // ------------------------------------------------------------------ the step

    /**
     * Advances the world by {@code dt} seconds: moves the tags of states set by hand, updates
     * holds, then for each machine in declaration order takes the waits that are due and
     * tests the {@code when} rules; tag changes are applied after the pass.
     *
     * <p>If a game's code throws during the step, the step ends there: the machines after it
     * are not stepped this time, tags of the machines moved so far are applied, and the
     * exception ({@link UserCodeException}) propagates.
     *
     * @throws IllegalArgumentException if {@code dt} is negative, NaN or infinite
     */
    public void step(double dt) {
        if (!(dt >= 0) || Double.isInfinite(dt)) {
            throw new IllegalArgumentException("step needs a finite number of seconds, 0 or more; got " + dt);
        }
        if (stepping) {
            throw new IllegalStateException("step(dt) called from inside a step");
        }
        stepping = true;
        try {
            for (int i = 0; i < pendingCount; i++) {
                StateRecord<?> r = pendingTags[i];
                pendingTags[i] = null;
                r.dirty = false;
                if (r.world == this) {
                    applyTags(r);
                }
            }
            pendingCount = 0;
            updateHolds();
            stepStart = clock;
            clock += dt;
            steps++;
            int dueCount = 0;
            while (timers.peekDue() <= clock + TIME_TOLERANCE) {
                StateRecord<?> r = timers.poll();
                if (dueCount == dueKeys.length) {
                    dueKeys = Arrays.copyOf(dueKeys, dueCount * 2);
                }
                dueKeys[dueCount++] = ((long) bindingIndex(r) << 32) | r.slot;
            }
            sort(dueKeys, dueCount);
            int k = 0;
            for (int bi = 0; bi < bindings.size(); bi++) {
                Binding b = bindings.get(bi);
                while (k < dueCount && (int) (dueKeys[k] >>> 32) == bi) {
                    StateRecord<?> r = b.records[(int) dueKeys[k]];
                    k++;
                    if (r != null && alive(r)) {
                        endWait(r);
                    }
                }
                if (b.whenCount > 0) {
                    runWhens(b);
                }
            }
        } finally {
            for (int i = 0; i < dirtyCount; i++) {
                StateRecord<?> r = dirty[i];
                dirty[i] = null;
                r.dirty = false;
                if (r.world == this) {
                    applyTags(r);
                }
            }
            dirtyCount = 0;
            stepping = false;
        }
        if (inputs != null) {
            inputs.stepped(dt);
        }
    }

    /** A system for Dominion's scheduler: each tick steps this world by the scheduler's delta time. */
    public Runnable system(Scheduler scheduler) {
        return () -> step(scheduler.deltaTime());
    }

    private void endWait(StateRecord<?> r) {
        MachineRecord rec = r.record;
        int s = rec.waitState();
        double due = rec.waitDue();
        if (s < 0 || due > clock + TIME_TOLERANCE) {
            schedule(r); // changed since it was queued; keep it current
            return;
        }
        Chart c = rec.chart();
        rec.clearWait(); // the wait ended: no paused seconds are kept for it
        Interpreter in = acquire(due);
        r.movedAt = due;
        r.movedStep = steps;
        try {
            in.take(rec, c.waitTransition[s], c.waitEvent);
        } finally {
            depth--;
            afterMove(r);
        }
    }

    private void runWhens(Binding b) {
        int n = b.whenCount;
        if (whenScratch.length < n) {
            whenScratch = new int[Math.max(n, whenScratch.length * 2)];
        }
        System.arraycopy(b.when, 0, whenScratch, 0, n);
        int[] slots = whenScratch;
        for (int i = 0; i < n; i++) {
            StateRecord<?> r = b.records[slots[i]];
            if (r == null || !r.whenActive || r.record.isHeld() || !alive(r)) {
                continue;
            }
            int t = firstWhen(r);
            if (t >= 0) {
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
    }

    /**
     * The first {@code when} rule that holds, testing each active state's rules once: a child's
     * before its parent's (the {@code 003} document), regions of a parallel state in document
     * order (a post-order walk of the active states).
     */
    private int firstWhen(StateRecord<?> r) {
        return firstWhen(r, r.record.chart(), 0);
    }

    private int firstWhen(StateRecord<?> r, Chart c, int s) {
        MachineRecord rec = r.record;
        for (int child : c.regularChildren[s]) {
            if (rec.isActive(child)) {
                int t = firstWhen(r, c, child);
                if (t >= 0) {
                    return t;
                }
            }
        }
        int[] rules = c.when[s];
        if (rules != null) {
            for (int t : rules) {
                HolderCondition<Object> test = c.whenTest[t];
                boolean holds;
                try {
                    holds = test.test(rec.context(), r.holder);
                } catch (RuntimeException | Error e) {
                    throw new UserCodeException(c.machineId, c.path[s], c.whenEvent.type(), "a when test", e);
                }
                if (holds) {
                    return t;
                }
            }
        }
        return -1;
    }

    private void updateHolds() {
        long stamp = steps + 1;
        boolean any = false;
        if (!bindings.isEmpty()) {
            for (Results.With1<MachinePaused> w : dominion.findEntitiesWith(MachinePaused.class)) {
                Entity e = w.entity();
                for (int bi = 0; bi < bindings.size(); bi++) {
                    StateRecord<?> r = e.get(bindings.get(bi).states.recordType());
                    if (r != null && r.world == this) {
                        markHeld(r, stamp);
                        any = true;
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
                        }
                    }
                }
            }
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

    private Interpreter acquire(double at) {
        if (depth == interpreters.length) {
            interpreters = Arrays.copyOf(interpreters, depth + 1);
            interpreters[depth] = new Interpreter();
        }
        Interpreter in = interpreters[depth++];
        in.clock(at);
        return in;
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
        r.world = this;
        r.entity = e;
        r.holder = new EntityHolder(e);
        if (b.count == b.records.length) {
            b.records = Arrays.copyOf(b.records, b.count * 2);
        }
        r.slot = b.count;
        b.records[b.count++] = r;
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
        Binding b = binding(r);
        timers.remove(r);
        if (r.whenActive) {
            removeWhen(b, r.slot);
            r.whenActive = false;
        }
        b.records[r.slot] = null;
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
        r.slot = -1;
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
        if (r.entity.get(r.states.recordType()) != r) {
            // the record was removed through Dominion directly: its tags go with it
            binding(r).moves.removeAll(r.entity, r);
            unregister(r);
            return false;
        }
        return true;
    }

    private void afterMove(StateRecord<?> r) {
        MachineRecord rec = r.record;
        if (rec.waitChanged()) {
            rec.clearWaitChanged();
            schedule(r);
        }
        updateWhen(r);
        if (stepping) {
            if (!r.dirty) {
                r.dirty = true;
                dirty = push(dirty, dirtyCount++, r);
            }
        } else {
            applyTags(r);
        }
    }

    private void schedule(StateRecord<?> r) {
        double due = r.record.waitDue();
        if (due == Double.POSITIVE_INFINITY || r.world != this) {
            timers.remove(r);
        } else {
            timers.set(r, due);
        }
    }

    private void applyTags(StateRecord<?> r) {
        if (!r.states.machine().tags() || r.entity == null || r.entity.isDeleted()) {
            return;
        }
        binding(r).moves.apply(r.entity, r);
    }

    private void updateWhen(StateRecord<?> r) {
        MachineRecord rec = r.record;
        Chart c = rec.chart();
        boolean active = false;
        if (rec.status() == MachineRecord.ACTIVE) {
            for (int i = 0; i < rec.activeCount() && !active; i++) {
                active = c.when[rec.activeAt(i)] != null;
            }
        }
        if (active != r.whenActive) {
            r.whenActive = active;
            Binding b = binding(r);
            if (active) {
                addWhen(b, r.slot);
            } else {
                removeWhen(b, r.slot);
            }
        }
    }

    private static void addWhen(Binding b, int slot) {
        if (b.whenCount == b.when.length) {
            b.when = Arrays.copyOf(b.when, b.whenCount * 2);
        }
        int i = b.whenCount;
        while (i > 0 && b.when[i - 1] > slot) {
            b.when[i] = b.when[i - 1];
            i--;
        }
        b.when[i] = slot;
        b.whenCount++;
    }

    private static void removeWhen(Binding b, int slot) {
        for (int i = 0; i < b.whenCount; i++) {
            if (b.when[i] == slot) {
                System.arraycopy(b.when, i + 1, b.when, i, b.whenCount - i - 1);
                b.whenCount--;
                return;
            }
        }
    }

    private Binding bind(States<?> states) {
        Binding b = byStates.get(states);
        if (b == null) {
            if (stepping) {
                throw new IllegalStateException("a new machine type cannot join the world during a step");
            }
            b = new Binding(dominion, states);
            byStates.put(states, b);
            int i = 0;
            while (i < bindings.size() && bindings.get(i).states.order() < states.order()) {
                i++;
            }
            bindings.add(i, b);
        }
        return b;
    }

    private Binding binding(StateRecord<?> r) {
        return byStates.get(r.states);
    }

    private int bindingIndex(StateRecord<?> r) {
        States<?> s = r.states;
        for (int i = 0; i < bindings.size(); i++) {
            if (bindings.get(i).states == s) {
                return i;
            }
        }
        throw new IllegalStateException("unbound machine " + s);
    }

    private static StateRecord<?>[] push(StateRecord<?>[] a, int at, StateRecord<?> r) {
        if (at == a.length) {
            a = Arrays.copyOf(a, a.length * 2);
        }
        a[at] = r;
        return a;
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

    /** Closes the Dominion underneath. */
    @Override
    public void close() {
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

package dev.enginestates.ecs;

import dev.enginestates.records.Access;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.Event;
import dev.enginestates.Machine;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.UnknownEventException;
import dev.enginestates.StatesDef;
import dev.enginestates.algorithm.Scratch;
import dev.enginestates.algorithm.StyleRuntime;
import dev.enginestates.chart.Chart;
import dev.enginestates.chart.Names;
import dev.enginestates.declare.MachineBuilder;
import dev.enginestates.declare.StateType;
import dev.enginestates.declare.UnknownEvents;
import dev.enginestates.fsm.StateMachineDefinition;
import dev.enginestates.records.MachineRecord;
import dev.enginestates.records.StateValue;

import java.lang.invoke.MethodHandle;
import java.lang.ref.WeakReference;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A machine as ECS components: its record
 * component type, one tag component type per state, and the calls a system makes on it.
 *
 * <pre>{@code
 * static final States<Guard> GUARD = States.define("guard", Guard::new, m -> m ...);
 *
 * Entity guard = world.spawn(GUARD.trait(), new Transform());
 * world.query(GUARD.is("answer"));          // every guard answering the bell
 * GUARD.send(guard, "BELL");                // true: a state took it; its tags move with it
 * GUARD.read(guard).secondsLeft();          // the wait's seconds left
 * }</pre>
 *
 * <p>Immutable and shared by every world on every thread; machines are stepped in the order
 * they were declared.
 *
 * @param <C> the context type
 */
public final class States<C> {
    static {
        // I/O and the test kit restore records through Access; game code never hands one in
        Access.register(new Access.EcsSide() {
            @Override
            public Object trait(Object states, MachineRecord snapshot) {
                return ((States<?>) states).trait(snapshot);
            }

            @Override
            public void restore(Object stateRecord, MachineRecord snapshot) {
                ((EntityRecord<?>) stateRecord).restoreFrom(snapshot);
            }

            @Override
            public void followClock(Object world, double time, long steps) {
                ((StateWorld) world).followClock(time, steps);
            }

            @Override
            public void checkAtRest(Object world, String what) {
                ((StateWorld) world).checkAtRest(what);
            }

            @Override
            public void checkOutsideCalls(Object world, String what) {
                ((StateWorld) world).checkOutsideCalls(what);
            }

            @Override
            public void writeAll(Object world, Runnable writes) {
                ((StateWorld) world).writeAll(writes);
            }

            @Override
            public <T> T during(Object world, String what, Supplier<T> work) {
                return ((StateWorld) world).during(what, work);
            }

            @Override
            public void replay(Object world, Runnable start, Runnable inputs) {
                ((StateWorld) world).replay(start, inputs);
            }

            @Override
            public void restoreClock(Object world, double time, long steps) {
                ((StateWorld) world).setClock(time, steps);
            }

            @Override
            public int swapReplayed(Object world, Object from, Object to) {
                return ((StateWorld) world).swapReplayed((States<?>) from, (States<?>) to);
            }

            @Override
            public void mirrorChildren(Object world) {
                ((StateWorld) world).children.mirror = true;
            }
        });
    }

    private static final AtomicInteger DECLARED = new AtomicInteger();
    /**
     * The binding of each machine, held weakly both ways: a machine and its binding (its hidden
     * classes included) are collected once no world and no game code refers to them.
     */
    private static final Map<Machine<?>, WeakReference<States<?>>> BY_MACHINE = new WeakHashMap<>();
    private static final byte[] RECORD_BYTES = HiddenClasses.bytesOf(RecordTemplate.class);
    private static final byte[] TAG_BYTES = HiddenClasses.bytesOf(TagTemplate.class);
    /** Scratch for records made off a world's move (a new record's start), one per thread: many rooms share one definition. */
    private static final ThreadLocal<Scratch> STARTER = ThreadLocal.withInitial(Scratch::new);
    /** "No arguments", one way for every overload: handlers and input recorders never see {@code null}. */
    private static final Object[] NO_ARGS = new Object[0];

    private final Machine<C> machine;
    private final Chart chart;
    private final StyleRuntime runtime;
    private final int order;
    private final MethodHandle newRecord;
    private final Class<EntityRecord<C>> recordType;
    private final StateTag[] tags;

    @SuppressWarnings("unchecked")
    private States(Machine<C> machine) {
        this.machine = machine;
        this.chart = Access.chart(machine);
        this.runtime = StyleRuntime.of(chart);
        this.order = DECLARED.getAndIncrement();
        this.newRecord = HiddenClasses.newClassConstructor(RecordTemplate.class, RECORD_BYTES, States.class, Object.class);
        this.recordType = (Class<EntityRecord<C>>) newRecord.type().returnType();
        this.tags = new StateTag[chart.size];
        if (machine.tags()) {
            for (int s = 1; s < chart.size; s++) {
                if (chart.type[s] != StateType.HISTORY) {
                    StateTag tag = (StateTag) HiddenClasses.instantiate(HiddenClasses.newClassConstructor(TagTemplate.class, TAG_BYTES));
                    tag.init(chart.machineId, chart.path[s]);
                    tags[s] = tag;
                }
            }
        }
    }

    /**
     * The ECS binding of a machine: the same {@code Machine} gives the same {@code States} for as
     * long as anything (a world with its records, a game's constant) holds it.
     *
     * @param <C>     the machine's context type
     * @param machine the declared machine; not {@code null}
     * @return the machine's binding, made on the first call and shared by every world
     */
    @SuppressWarnings("unchecked")
    public static <C> States<C> of(Machine<C> machine) {
        Objects.requireNonNull(machine, "machine");
        synchronized (BY_MACHINE) {
            WeakReference<States<?>> known = BY_MACHINE.get(machine);
            States<?> states = known == null ? null : known.get();
            if (states == null) {
                states = new States<>(machine);
                BY_MACHINE.put(machine, new WeakReference<>(states));
            }
            return (States<C>) states;
        }
    }

    /**
     * The ECS binding of a polled machine: its record is a component, each
     * state a tag, and {@code world.step(dt)} runs its guards, {@code after} and updates, in
     * declaration order with the other machines.
     *
     * @param <C>        the machine's context type
     * @param definition the table made with {@code StatesDef.define}; not {@code null}
     * @return the binding of the table's machine, the same as {@code of(definition.machine())}
     */
    public static <C> States<C> of(StatesDef<C> definition) {
        return of(Objects.requireNonNull(definition, "definition").machine());
    }

    /**
     * The ECS binding of a builder-style machine: its record is a
     * component, each state a tag, and {@code world.step(dt)} runs {@code update} (advance then
     * runState) on each, in declaration order with the other machines; {@link StateWorld#advance}
     * and {@link StateWorld#runStates} split the tick.
     *
     * @param <C>        the machine's context type
     * @param definition the built machine, from {@code StateMachineBuilder}; not {@code null}
     * @return the binding of the definition's machine, the same as {@code of(definition.machine())}
     */
    public static <C extends dev.enginestates.declare.StateContextCore> States<C> of(StateMachineDefinition<C> definition) {
        return of(Objects.requireNonNull(definition, "definition").machine());
    }

    /**
     * Declares a machine and binds it: {@code Machine.define} then {@link #of}.
     *
     * @param <C>     the machine's context type
     * @param id      the machine's name, used by dumps, tags, checkpoints and error messages
     * @param context makes a fresh context for each record {@link #trait()} makes, and for restores
     * @param body    declares the root's states and transitions
     * @return the new machine's binding
     * @throws dev.enginestates.declare.InvalidMachineException listing every problem of the declaration
     */
    public static <C> States<C> define(String id, Supplier<? extends C> context, Consumer<MachineBuilder<C>> body) {
        return of(Machine.define(id, context, body));
    }

    /**
     * Declares a typed machine and binds it: {@link Machine#define(String, Supplier, Class, Class, Consumer)}
     * then {@link #of}. Its states are named by the constants of {@code states}, its events by
     * those of {@code events}.
     *
     * @param <C>     the machine's context type
     * @param <S>     the game's enum of states
     * @param <E>     the game's enum of events
     * @param id      the machine's name, used by dumps, tags, checkpoints and error messages
     * @param context makes a fresh context for each record {@link #trait()} makes, and for restores
     * @param states  the enum whose constants name the states, one state each
     * @param events  the enum whose constants name the events
     * @param body    declares the root's states and transitions
     * @return the new machine's binding
     * @throws dev.enginestates.declare.InvalidMachineException listing every problem of the declaration
     */
    public static <C, S extends Enum<S>, E extends Enum<E>> States<C> define(String id, Supplier<? extends C> context,
            Class<S> states, Class<E> events, Consumer<MachineBuilder<C>> body) {
        return of(Machine.define(id, context, states, events, body));
    }

    /**
     * Declares a typed machine that takes no events and binds it; see
     * {@link Machine#define(String, Supplier, Class, Consumer)}.
     *
     * @param <C>     the machine's context type
     * @param <S>     the game's enum of states
     * @param id      the machine's name, used by dumps, tags, checkpoints and error messages
     * @param context makes a fresh context for each record {@link #trait()} makes, and for restores
     * @param states  the enum whose constants name the states, one state each
     * @param body    declares the root's states and transitions
     * @return the new machine's binding
     * @throws dev.enginestates.declare.InvalidMachineException listing every problem of the declaration
     */
    public static <C, S extends Enum<S>> States<C> define(String id, Supplier<? extends C> context, Class<S> states,
            Consumer<MachineBuilder<C>> body) {
        return of(Machine.define(id, context, states, body));
    }

    /**
     * The machine definition.
     *
     * @return the machine this binding was made for
     */
    public Machine<C> machine() {
        return machine;
    }

    /**
     * The machine's id.
     *
     * @return the id the machine was declared with, such as {@code "guard"}
     */
    public String id() {
        return chart.machineId;
    }

    Chart chart() {
        return chart;
    }

    int order() {
        return order;
    }

    StateTag[] tagInstances() {
        return tags;
    }

    /**
     * The record component's class: {@code entity.get(GUARD.recordType())} is the guard's record.
     *
     * @return the record class, a class of this machine's own (each machine's records have a distinct class)
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public Class<StateRecord<C>> recordType() {
        return (Class) recordType;
    }

    /** The record component's class as the engine's own type. */
    Class<EntityRecord<C>> recordClass() {
        return recordType;
    }

    /**
     * A new record in the initial state with a fresh context, ready to spawn or add; no actions have run.
     * Polled and builder-style machines start as their styles do: see {@link #trait(Object)}.
     *
     * @return a new record on no entity yet
     * @throws MachineException if the machine was defined without a context factory: give each
     *                          record its context with {@link #trait(Object)} instead
     */
    public StateRecord<C> trait() {
        return trait(machine.newContext());
    }

    /**
     * A new record in the initial state with the given context. The initial state's entry
     * actions do not run: what a game wants done at the start
     * goes in the system that adds the record. A polled machine's initial branch is entered now
     * ({@code enter} runs, outermost first), and a builder-style machine's initial state gets its
     * metadata, {@code onStateEnter} and enter hook, as their own styles start.
     *
     * @param context the record's context, used as given (not copied)
     * @return a new record on no entity yet
     */
    public StateRecord<C> trait(C context) {
        @SuppressWarnings("unchecked")
        EntityRecord<C> r = (EntityRecord<C>) HiddenClasses.instantiate(newRecord, this, context);
        runtime.startOnEntity(STARTER.get(), r);
        r.clearWaitChanged();
        return r;
    }

    /**
     * A new record holding a copy of a snapshot of this machine, as a restore or a replay makes
     * one: no code of the machine runs (a polled machine's initial {@code enter} does not).
     * Reached through {@link Access#trait}.
     *
     * @throws IllegalArgumentException if the snapshot is of another machine
     */
    EntityRecord<C> trait(MachineRecord snapshot) {
        @SuppressWarnings("unchecked")
        EntityRecord<C> r = (EntityRecord<C>) HiddenClasses.instantiate(newRecord, this, null);
        r.restoreFrom(snapshot);
        runtime.restored(r);
        return r;
    }

    /**
     * The tag component class of a state, for queries: {@code world.query(GUARD.is("answer"))},
     * {@code entity.has(GUARD.is("patrol.watch"))}, or Dominion's own {@code findEntitiesWith}.
     *
     * @param path the state's dotted path from the root, such as {@code "patrol.watch"}
     * @return the state's tag class, the same class on every call
     * @throws MachineException if the path names no state, or the machine was declared with {@code tags(false)}
     */
    public Class<? extends StateTag> is(String path) {
        int s = path == null ? -1 : chart.stateAt(path);
        if (s <= 0 || chart.type[s] == StateType.HISTORY) {
            throw new MachineException(chart.machineId, "machine '" + chart.machineId + "' has no state '" + path
                    + "' to query" + (s > 0 ? " ('" + path + "' is a history state, never active)" : "") + "; expected one of "
                    + statePathsToQuery() + (s > 0 ? "" : StateValue.suggestion(chart, path)));
        }
        if (tags[s] == null) {
            throw new MachineException(chart.machineId, "machine '" + chart.machineId + "' was declared with tags(false), so state '"
                    + path + "' has no tag; read the state with read(...).matches(\"" + path + "\")");
        }
        return tags[s].getClass();
    }

    /**
     * The tag component class of the state declared with a constant of the machine's state enum:
     * {@code world.query(GUARD.is(ANSWER))}, {@code entity.has(GUARD.is(WATCH))}. Allocation-free.
     *
     * @param state a constant of the machine's state enum; not {@code null}
     * @return the state's tag class, the same class on every call
     * @throws MachineException if the constant is not of the machine's state enum, it is a history state, or the machine
     *                          was declared with {@code tags(false)}
     */
    public Class<? extends StateTag> is(Enum<?> state) {
        int s = stateOf(state, "is");
        if (chart.type[s] == StateType.HISTORY || tags[s] == null) {
            return is(chart.path[s]); // throws, saying why
        }
        return tags[s].getClass();
    }

    /**
     * The dotted path of the state a constant declares ({@code path(WATCH)} is
     * {@code "PATROL.WATCH"}): the name dumps, checkpoints and string reads use.
     *
     * @param state a constant of the machine's state enum; not {@code null}
     * @return the state's path from the root, its constants' names joined by dots
     * @throws MachineException if the constant is not of the machine's state enum
     */
    public String path(Enum<?> state) {
        return chart.path[stateOf(state, "path")];
    }

    /** The state a constant declares; throws when it is not of the machine's state enum. */
    int stateOf(Enum<?> state, String call) {
        int s = chart.enumNames().state(Objects.requireNonNull(state, "state"));
        if (s < 0) {
            throw new MachineException(chart.machineId, chart.enumNames().stateProblem(chart.machineId, state, call));
        }
        return s;
    }

    private List<String> statePathsToQuery() {
        java.util.ArrayList<String> out = new java.util.ArrayList<>();
        for (int s = 1; s < chart.size; s++) {
            if (chart.type[s] != StateType.HISTORY) {
                out.add(chart.path[s]);
            }
        }
        return out;
    }

    /**
     * The states' tag classes, by path, for tools; empty with {@code tags(false)}.
     *
     * @return a new list of the tag classes, in the states' document order (history states have none)
     */
    public List<Class<? extends StateTag>> tagTypes() {
        java.util.ArrayList<Class<? extends StateTag>> out = new java.util.ArrayList<>();
        for (StateTag t : tags) {
            if (t != null) {
                out.add(t.getClass());
            }
        }
        return out;
    }

    /**
     * Sends an event to the machine on an entity; it moves now, and its tags with it.
     *
     * @param entity the entity holding this machine's record
     * @param event  the event's type, such as {@code "BELL"}
     * @return whether a state took the event (an action-only transition counts)
     * @throws UnknownEventException if no state names the event (and the machine rejects unknown
     *                               events, the default); nothing changes
     * @throws MachineException if the entity holds no record of this machine, or it was not spawned through a {@link StateWorld},
     *                          or the machine is builder-style (it takes no events)
     */
    public boolean send(Entity entity, String event) {
        EntityRecord<C> r = EntityRecord.of(read(entity));
        runtime.checkTakesEvents(chart);
        int id = eventId(event);
        return r.world.send(r, id, event, NO_ARGS, runtime.event(chart, id, event));
    }

    /**
     * Sends the event named by a constant of the machine's event enum to the machine on an
     * entity; it moves now, and its tags with it. Allocation-free once warm.
     *
     * @param entity the entity holding this machine's record
     * @param event  a constant of the machine's event enum; not {@code null}
     * @return whether a state took the event (an action-only transition counts)
     * @throws MachineException if the constant is not of the machine's event enum, or the entity holds no record of this machine
     */
    public boolean send(Entity entity, Enum<?> event) {
        EntityRecord<C> r = EntityRecord.of(read(entity));
        runtime.checkTakesEvents(chart);
        int id = eventOf(event, "send");
        return r.world.send(r, id, chart.eventObjects[id].type(), NO_ARGS, chart.eventObjects[id]);
    }

    /**
     * Sends the event named by a constant to the world's own machine (a game's phases).
     *
     * @param world the world whose own entity holds this machine
     * @param event a constant of the machine's event enum
     * @return whether a state took the event, as {@link #send(Entity, Enum)}
     */
    public boolean send(StateWorld world, Enum<?> event) {
        return send(world.entity(), event);
    }

    /** The id of the event a constant names; throws when it is not of the machine's event enum. */
    private int eventOf(Enum<?> event, String call) {
        int id = chart.enumNames().event(Objects.requireNonNull(event, "event"));
        if (id < 0) {
            throw new MachineException(chart.machineId, chart.enumNames().eventProblem(chart.machineId, event, call));
        }
        return id;
    }

    /**
     * Sends a polled machine's event with arguments, which its handler receives (as
     * the plain machine's {@code send(event, args...)} does). For an XState-style machine with no
     * arguments this is {@link #send(Entity, String)}.
     *
     * @param entity the entity holding this machine's record
     * @param event  the event's name
     * @param args   the handler's arguments, copied; {@code null} for none
     * @return whether a state took the event
     * @throws MachineException for an XState-style machine, whose events carry named fields: send an {@link Event}
     */
    public boolean send(Entity entity, String event, Object... args) {
        runtime.checkArguments(chart, event, args);
        EntityRecord<C> r = EntityRecord.of(read(entity));
        runtime.checkTakesEvents(chart);
        int id = eventId(event);
        return r.world.send(r, id, event, args == null || args.length == 0 ? NO_ARGS : args.clone(), runtime.event(chart, id, event));
    }

    /**
     * Sends an event with fields (which guards read) to the machine on an entity; a polled machine's handler receives the event as its argument.
     *
     * @param entity the entity holding this machine's record
     * @param event  the event, with its type and fields
     * @return whether a state took the event (an action-only transition counts)
     * @throws MachineException if the entity holds no record of this machine, the event is named by a constant of
     *                          another enum, or the machine is builder-style
     */
    public boolean send(Entity entity, Event event) {
        EntityRecord<C> r = EntityRecord.of(read(entity));
        runtime.checkTakesEvents(chart);
        if (event.constant() != null) {
            eventOf(event.constant(), "send"); // an event named by a constant of another enum is refused
        }
        return r.world.send(r, eventId(event.type()), event.type(), NO_ARGS, event);
    }

    /**
     * Forces a polled machine on an entity into a state (the polled style's {@code go}):
     * the name resolves from the active leaf, an active state is exited and entered again; its
     * tags move with it. On a builder-style machine this is {@link #transitionTo}.
     *
     * @param entity the entity holding this machine's record
     * @param name   the state's name, resolved from the active leaf as a declared target is, or
     *               {@code "$back"} for the previous leaf (nothing happens when there is none)
     * @throws MachineException if the machine is XState-style (it moves by events; set a state by hand with
     *                          {@code setState}), or the name names no state; nothing changes
     */
    public void go(Entity entity, String name) {
        force(entity, "go", name);
    }

    /**
     * Forces a builder-style machine on an entity into a state (the builder style's
     * {@code transitionTo}): exit, the new state's metadata, {@code onStateEnter}, enter, time 0;
     * to the current state it re-enters. Its tags move with it. On a polled machine this is
     * {@link #go}: both words force a state the same way.
     *
     * @param entity the entity holding this machine's record
     * @param name   the state's name, as the builder declared it
     * @throws MachineException if the machine is XState-style (it moves by events; set a state by hand with
     *                          {@code setState}), or the name names no state; nothing changes
     */
    public void transitionTo(Entity entity, String name) {
        force(entity, "transitionTo", name);
    }

    private void force(Entity entity, String call, String name) {
        EntityRecord<C> r = EntityRecord.of(read(entity));
        int s = runtime.forceTarget(r, call, name);
        if (s > 0) { // 0: "$back" with nothing before it
            r.world.go(r, s, name);
        }
    }

    /**
     * Sends an event to the world's own machine (a game's phases).
     *
     * @param world the world whose own entity holds this machine
     * @param event the event's type
     * @return whether a state took the event, as {@link #send(Entity, String)}
     */
    public boolean send(StateWorld world, String event) {
        return send(world.entity(), event);
    }

    /**
     * Sends an event with fields to the world's own machine.
     *
     * @param world the world whose own entity holds this machine
     * @param event the event, with its type and fields
     * @return whether a state took the event, as {@link #send(Entity, Event)}
     */
    public boolean send(StateWorld world, Event event) {
        return send(world.entity(), event);
    }

    /**
     * Whether the machine on an entity would take the event now: true exactly when
     * {@link #send(Entity, String)} would return true. Its guards are evaluated and nothing else
     * runs: no action, entry, exit, send to itself or listener; the record, its tags and its
     * random numbers' state stay as they were, and nothing is logged. A guard that is not pure is
     * the game's problem. Asked as a send may be: between steps, from a listener, or from another
     * machine's code during a step; from another thread it fails fast, and from the machine's own
     * code it is refused as a send from there is. Allocation-free once warm. The record answers
     * the same ({@link StateRecord#can(String)}).
     *
     * @param entity the entity holding this machine's record
     * @param event  the event's type, such as {@code "BELL"}
     * @return whether a state would take it now
     * @throws UnknownEventException if no state names the event (and the machine rejects unknown events, the default); nothing changes
     * @throws MachineException if the entity holds no record of this machine in a world, or the machine is builder-style
     * @throws dev.enginestates.declare.UserCodeException if a guard threw, naming the machine, the entity, the state and the event;
     *                                                     nothing changes
     */
    public boolean can(Entity entity, String event) {
        return can(EntityRecord.of(read(entity)), event, null);
    }

    /**
     * Whether the machine on an entity would take the event of a constant of its event enum now,
     * as {@link #can(Entity, String)}. Allocation-free once warm.
     *
     * @param entity the entity holding this machine's record
     * @param event  a constant of the machine's event enum; not {@code null}
     * @return whether a state would take it now
     * @throws MachineException if the constant is not of the machine's event enum, or as {@link #can(Entity, String)}
     */
    public boolean can(Entity entity, Enum<?> event) {
        return can(EntityRecord.of(read(entity)), event);
    }

    /**
     * Whether the polled machine on an entity would take its event with arguments now, as
     * {@link #can(Entity, String)}; its handler does not run.
     *
     * @param entity the entity holding this machine's record
     * @param event  the event's name
     * @param args   the arguments a send would give the handler
     * @return whether a state would take it now
     * @throws MachineException for an XState-style machine given arguments (ask with an {@link Event}), or as {@link #can(Entity, String)}
     */
    public boolean can(Entity entity, String event, Object... args) {
        return can(EntityRecord.of(read(entity)), event, args);
    }

    /**
     * Whether the machine on an entity would take the event, with the fields its guards read,
     * now, as {@link #can(Entity, String)}.
     *
     * @param entity the entity holding this machine's record
     * @param event  the event, with its type and fields
     * @return whether a state would take it now
     * @throws MachineException if the event is named by a constant of another enum, or as {@link #can(Entity, String)}
     */
    public boolean can(Entity entity, Event event) {
        return can(EntityRecord.of(read(entity)), event);
    }

    /**
     * Whether the world's own machine (a game's phases) would take the event now, as {@link #can(Entity, String)}.
     *
     * @param world the world whose own entity holds this machine
     * @param event the event's type
     * @return whether a state would take it now
     */
    public boolean can(StateWorld world, String event) {
        return can(world.entity(), event);
    }

    /**
     * Whether the world's own machine would take the event of a constant now, as {@link #can(Entity, Enum)}.
     *
     * @param world the world whose own entity holds this machine
     * @param event a constant of the machine's event enum
     * @return whether a state would take it now
     */
    public boolean can(StateWorld world, Enum<?> event) {
        return can(world.entity(), event);
    }

    /**
     * Whether the world's own machine would take the event, with its fields, now, as {@link #can(Entity, Event)}.
     *
     * @param world the world whose own entity holds this machine
     * @param event the event, with its type and fields
     * @return whether a state would take it now
     */
    public boolean can(StateWorld world, Event event) {
        return can(world.entity(), event);
    }

    /**
     * The events the machine on an entity would take now, by type, in the machine's event order:
     * see {@link dev.enginestates.MachineView#permittedEvents()}.
     *
     * @param entity the entity holding this machine's record
     * @return a new list of event types
     * @throws MachineException if the entity holds no record of this machine in a world
     */
    public List<String> permittedEvents(Entity entity) {
        EntityRecord<C> r = EntityRecord.of(read(entity));
        return r.world.permittedEvents(r);
    }

    /**
     * The constants of the machine's event enum whose events the machine on an entity would take now.
     *
     * @param <E>    the game's enum of events
     * @param entity the entity holding this machine's record
     * @param events the enum the machine was declared with
     * @return a new set of the constants
     * @throws MachineException if the machine's events are not named by {@code events}, or the entity holds no record of this machine
     */
    public <E extends Enum<E>> java.util.Set<E> permittedEvents(Entity entity, Class<E> events) {
        EntityRecord<C> r = EntityRecord.of(read(entity));
        return r.world.permittedEvents(r, events);
    }

    // ---- the record's own can and permittedEvents, which the methods above call too

    boolean can(EntityRecord<C> r, String event, Object[] args) {
        runtime.checkArguments(chart, event, args);
        StateWorld w = worldOf(r, "can");
        runtime.checkTakesEvents(chart);
        int id = eventId(event);
        return w.can(r, id, event, args, runtime.event(chart, id, event));
    }

    boolean can(EntityRecord<C> r, Enum<?> event) {
        StateWorld w = worldOf(r, "can");
        runtime.checkTakesEvents(chart);
        int id = eventOf(event, "can");
        return w.can(r, id, chart.eventObjects[id].type(), NO_ARGS, chart.eventObjects[id]);
    }

    boolean can(EntityRecord<C> r, Event event) {
        Objects.requireNonNull(event, "event");
        StateWorld w = worldOf(r, "can");
        runtime.checkTakesEvents(chart);
        if (event.constant() != null) {
            eventOf(event.constant(), "can");
        }
        return w.can(r, eventId(event.type()), event.type(), NO_ARGS, event);
    }

    /** The world a record is in, for a question that runs its guards ({@code call}); refuses a record in none. */
    StateWorld worldOf(EntityRecord<C> r, String call) {
        StateWorld w = r.world;
        if (w == null) {
            throw new MachineException(chart.machineId, "the '" + chart.machineId + "' record is in no world (made by trait() and not"
                    + " spawned, or detached), so " + call + " has no world to run its guards in; spawn or attach it through"
                    + " StateWorld first");
        }
        return w;
    }

    /**
     * The machine's record on an entity: value, seconds left, {@code matches(path)}, context.
     *
     * @param entity the entity; not {@code null}
     * @return the live record itself, not a copy
     * @throws MachineException if the entity holds no record of this machine or was not spawned through a {@link StateWorld}
     */
    public StateRecord<C> read(Entity entity) {
        Objects.requireNonNull(entity, "entity");
        EntityRecord<C> r = entity.isDeleted() ? null : entity.get(recordType);
        if (r == null) {
            throw new MachineException(chart.machineId, StateWorld.describe(entity) + (entity.isDeleted() ? "" : " holds no '"
                    + chart.machineId + "' machine") + "; expected an entity spawned with " + chart.machineId + ".trait()");
        }
        if (r.world == null) {
            throw new MachineException(chart.machineId, "the '" + chart.machineId + "' record on " + StateWorld.describe(entity)
                    + " was added through Dominion directly; spawn or attach it through StateWorld so it can be stepped and its tags kept");
        }
        return r;
    }

    /**
     * The world's own machine's record.
     *
     * @param world the world whose own entity holds this machine
     * @return the live record, as {@link #read(Entity)}
     * @throws MachineException if the world's own entity holds no record of this machine
     */
    public StateRecord<C> read(StateWorld world) {
        return read(world.entity());
    }

    /**
     * The machine's top state on an entity, as a page shows a phase: the state directly under
     * the root ({@code "patrol"} while the guard is in {@code patrol.watch}), or {@code ""} while
     * the entity is {@code null}, deleted, or holds no record of this machine in a world. Hear it
     * change with {@code world.addListener(MACHINE, MachineListener.onTopState(...))}.
     *
     * @param entity the entity, or {@code null}
     * @return the top state's name, or {@code ""}
     */
    public String topState(Entity entity) {
        if (entity == null || entity.isDeleted()) {
            return "";
        }
        EntityRecord<C> r = entity.get(recordType);
        return r == null || r.world == null ? "" : r.topState();
    }

    /**
     * The world's own machine's top state, or {@code ""} when the world holds none.
     *
     * @param world the world
     * @return the top state's name, or {@code ""}
     */
    public String topState(StateWorld world) {
        return topState(world.entity());
    }

    /**
     * The top state as a constant of the machine's state enum (a machine declared with typed
     * names), or {@code null} when {@link #topState(Entity)} is {@code ""}.
     *
     * @param <S>    the state enum
     * @param entity the entity, or {@code null}
     * @param states the state enum the machine was declared with
     * @return the constant, or {@code null}
     * @throws MachineException if the machine was not declared with {@code states}
     */
    public <S extends Enum<S>> S topState(Entity entity, Class<S> states) {
        Objects.requireNonNull(states, "states");
        Class<?> declared = chart.enumNames().stateEnum();
        if (declared != states) {
            throw new MachineException(chart.machineId, "machine '" + chart.machineId + "' was not declared with "
                    + states.getSimpleName() + " for its state names" + (declared == null ? "; it names its states with strings"
                    : "; it uses " + declared.getSimpleName()));
        }
        String top = topState(entity);
        return top.isEmpty() ? null : states.cast(chart.enumNames().constantOf(chart.stateAt(top)));
    }

    /** The runtime of this machine's style, which the world's moves and reads call. */
    StyleRuntime runtime() {
        return runtime;
    }

    int eventId(String type) {
        Objects.requireNonNull(type, "event type");
        int id = chart.styleEventId(type);
        if (id < 0 && chart.unknownEvents == UnknownEvents.REJECT) {
            throw new UnknownEventException(chart.machineId, type, chart.knownEvents(), Names.closest(type, chart.knownEvents()));
        }
        return id;
    }

    @Override
    public String toString() {
        return "States(" + chart.machineId + ")";
    }
}

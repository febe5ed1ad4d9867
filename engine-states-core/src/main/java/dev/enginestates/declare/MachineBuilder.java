package dev.enginestates.declare;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Declares a machine: its root's children and transitions (as {@link NodeBuilder}) and the
 * options that belong to the machine as a whole.
 *
 * @param <C> the machine's context type
 */
public final class MachineBuilder<C> extends NodeBuilder<C, MachineBuilder<C>> {
    private UnknownEvents unknownEvents = UnknownEvents.REJECT;
    private Semantics semantics = Semantics.XSTATE;
    private boolean tags = true;
    private final List<Class<?>> heldBy = new ArrayList<>();
    private boolean ownerOnly;
    private int version;
    private java.util.List<dev.enginestates.declare.Migration> migrations = java.util.List.of();
    private final Class<? extends Enum<?>> stateNames;
    private final Class<? extends Enum<?>> eventNames;

    /** Starts the declaration of a machine whose states and events are named by strings (use {@code Machine.define}). */
    public MachineBuilder() {
        this(null, null);
    }

    /**
     * Starts the declaration of a typed machine (use {@code Machine.define(id, context,
     * GuardState.class, GuardEvent.class, body)}): its states are named by the constants of
     * {@code states}, its events by those of {@code events} ({@code null}: the machine takes
     * no events).
     *
     * @param states the enum whose constants name the states
     * @param events the enum whose constants name the events, or {@code null}
     */
    public MachineBuilder(Class<? extends Enum<?>> states, Class<? extends Enum<?>> events) {
        super("");
        this.stateNames = states;
        this.eventNames = events;
    }

    /**
     * The enum whose constants name the states, or {@code null} when states are named by strings.
     *
     * @return the state enum, or {@code null}
     */
    public Class<? extends Enum<?>> stateNames() {
        return stateNames;
    }

    /**
     * The enum whose constants name the events, or {@code null} (strings, or no events in a typed machine).
     *
     * @return the event enum, or {@code null}
     */
    public Class<? extends Enum<?>> eventNames() {
        return eventNames;
    }

    /**
     * What {@code send} does with an event that no state names; {@link UnknownEvents#REJECT} by default.
     *
     * @param policy {@link UnknownEvents#REJECT} to throw, {@link UnknownEvents#ACCEPT} to process it as XState
     *               does; not {@code null}
     * @return this builder, for chaining
     */
    public MachineBuilder<C> unknownEvents(UnknownEvents policy) {
        this.unknownEvents = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /**
     * Whose rules the machine follows where XState v5 and SCXML differ: the order a state's
     * transitions are tried for an event (exact type first, then the longer wildcard, or document
     * order) and when eventless transitions are looked for again; {@link Semantics} says exactly
     * what differs. {@link Semantics#XSTATE} by default; the SCXML import declares
     * {@link Semantics#SCXML}.
     *
     * @param semantics the rules; not {@code null}
     * @return this builder, for chaining
     * @throws NullPointerException if {@code semantics} is {@code null}
     */
    public MachineBuilder<C> semantics(Semantics semantics) {
        this.semantics = Objects.requireNonNull(semantics, "semantics");
        return this;
    }

    /**
     * Whose rules the machine follows.
     *
     * @return the rules declared with {@link #semantics(Semantics)}, {@link Semantics#XSTATE} if none
     */
    public Semantics semantics() {
        return semantics;
    }

    /**
     * Whether the ECS binding gives each state a tag component ({@code true} by default). A
     * machine that many kinds of entity declare their own of can turn them off; its state is
     * then read through its record.
     *
     * @param tags {@code false} to give the states no tag components
     * @return this builder, for chaining
     */
    public MachineBuilder<C> tags(boolean tags) {
        this.tags = tags;
        return this;
    }

    /**
     * Whether states get tag components.
     *
     * @return {@code true} unless {@code tags(false)} was declared
     */
    public boolean hasTags() {
        return tags;
    }

    /**
     * Component types that hold this machine alone while its entity has any of them: its wait
     * counts no seconds and its {@code when} rules are not tested; events still move it.
     *
     * @param componentTypes the component classes, none {@code null}; several calls add to them
     * @return this builder, for chaining
     */
    public MachineBuilder<C> heldBy(Class<?>... componentTypes) {
        for (Class<?> t : componentTypes) {
            heldBy.add(Objects.requireNonNull(t, "heldBy component type"));
        }
        return this;
    }

    /**
     * The machines this machine's code may start with {@code self.spawnChild(id, machine, context)},
     * as XState's {@code setup({ actors })}: a restore links each such child, found by its key
     * {@code "<parent key>/<id>"}, to the record of the machine that declares its machine, and saves
     * of this machine save them too.
     *
     * @param children the child machines, none {@code null}; several calls add to them
     * @return this builder, for chaining
     */
    public MachineBuilder<C> spawns(ChildMachine<?>... children) {
        for (ChildMachine<?> m : children) {
            spawns.add(Objects.requireNonNull(m, "spawned machine"));
        }
        return this;
    }

    /**
     * Declares the machine its owner's alone (the config's {@code ownerOnly: true}):
     * a {@code RoomStream} sends its records to the player the entity's {@code Owner} component
     * names and to nobody else (an entity without an owner sends them to nobody), and the dump
     * shows {@code "ownerOnly": true}.
     *
     * @return this builder, for chaining
     */
    public MachineBuilder<C> ownerOnly() {
        this.ownerOnly = true;
        return this;
    }

    /**
     * Whether the machine is its owner's alone.
     *
     * @return {@code true} if {@code ownerOnly()} was declared
     */
    public boolean isOwnerOnly() {
        return ownerOnly;
    }

    /**
     * The component types that hold this machine.
     *
     * @return a copy, in the order declared; empty when none is
     */
    public List<Class<?>> heldByTypes() {
        return List.copyOf(heldBy);
    }

    /**
     * The policy for unknown events.
     *
     * @return the policy declared, {@link UnknownEvents#REJECT} when none is
     */
    public UnknownEvents unknownEventPolicy() {
        return unknownEvents;
    }

    /**
     * The immutable definition tree declared so far.
     *
     * @return the root's definition, with its children; each call builds it anew from what is declared now
     */
    public StateDefinition<C> definition() {
        return build();
    }

    /**
     * Declares the machine's version, which checkpoints, snapshots, streams and input logs record,
     * and how records of older versions become records of this one. A machine that declares none
     * is version 0. Migrations from a version to the next chain: a checkpoint of version 1 restored
     * by version 3 goes through the migrations from 1 and from 2.
     *
     * @param version this definition's version, 0 or more
     * @param migrations how each older version's records become the next's, each from a version below {@code version}
     * @return this builder, for chaining
     */
    public MachineBuilder<C> version(int version, dev.enginestates.declare.Migration... migrations) {
        this.version = version;
        this.migrations = java.util.List.of(migrations);
        return this;
    }

    /**
     * The version declared, 0 when none was.
     *
     * @return the version
     */
    public int declaredVersion() {
        return version;
    }

    /**
     * The migrations declared with the version.
     *
     * @return the migrations, unmodifiable
     */
    public java.util.List<dev.enginestates.declare.Migration> migrations() {
        return migrations;
    }

}

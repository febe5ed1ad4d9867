package dev.enginestates.testing;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;

import java.util.ArrayList;
import java.util.List;

/**
 * Assertions on one entity's machines; {@link #machine} picks the machine to assert on. Made by
 * {@link StateAssertions#assertThat(WorldFixture, Entity)}.
 */
public final class EntityAssert {
    private final StateWorld world;
    private final Entity entity;

    EntityAssert(StateWorld world, Entity entity) {
        this.world = world;
        this.entity = entity;
    }

    /**
     * Assertions on the entity's record of this machine.
     *
     * @param <C> the machine's context type
     * @param machine the machine whose record to assert on
     * @return assertions on the entity's record of that machine
     * @throws AssertionError if the entity is deleted or holds no such machine (the message lists the ones it holds)
     */
    public <C> MachineAssert<C> machine(States<C> machine) {
        StateRecord<C> r = record(machine);
        if (r == null) {
            StateRecord<C> elsewhere = entity.isDeleted() ? null : entity.get(machine.recordType());
            String why = elsewhere != null && elsewhere.world() != null
                    ? ", but its '" + machine.id() + "' record belongs to another world, " + elsewhere.world()
                            + "; assert on that world's fixture"
                    : elsewhere != null ? ", but its '" + machine.id() + "' record is detached from every world"
                    : ", but it holds " + held();
            throw new AssertionError("expected " + EntityDump.name(world, entity) + " to hold a '" + machine.id()
                    + "' machine" + why + "\n" + EntityDump.of(world, entity));
        }
        return new MachineAssert<>(world, entity, machine, r);
    }

    /**
     * Asserts that the entity holds this machine.
     *
     * @param machine the machine the entity should hold
     * @return this assertion, for chaining
     */
    public EntityAssert hasMachine(States<?> machine) {
        machine(machine);
        return this;
    }

    /**
     * Asserts that the entity holds no record of this machine in this world (a record another
     * world holds is not this world's machine, as for {@link #hasMachine}).
     *
     * @param machine the machine the entity should not hold
     * @return this assertion, for chaining
     */
    public EntityAssert hasNoMachine(States<?> machine) {
        if (record(machine) != null) {
            throw new AssertionError("expected " + EntityDump.name(world, entity) + " to hold no '" + machine.id()
                    + "' machine, but it holds one\n" + EntityDump.of(world, entity, machine));
        }
        return this;
    }

    /**
     * Asserts that the entity has a component of this type (a hold such as {@code Talking}, or a state's tag).
     *
     * @param type the component's class, such as {@code Talking.class} or {@code GUARD.is("answer")}
     * @return this assertion, for chaining
     */
    public EntityAssert hasComponent(Class<?> type) {
        if (entity.isDeleted() || !entity.has(type)) {
            throw new AssertionError("expected " + EntityDump.name(world, entity) + " to have a " + type.getSimpleName()
                    + " component, but it has none\n" + EntityDump.of(world, entity));
        }
        return this;
    }

    /** The entity's record of the machine in this world, or {@code null}: every assertion here reads a record this way. */
    private <C> StateRecord<C> record(States<C> machine) {
        StateRecord<C> r = entity.isDeleted() ? null : entity.get(machine.recordType());
        return r != null && r.world() == world ? r : null;
    }

    private List<String> held() {
        List<String> ids = new ArrayList<>();
        for (States<?> m : world.machines()) {
            if (record(m) != null) {
                ids.add(m.id());
            }
        }
        return ids;
    }
}

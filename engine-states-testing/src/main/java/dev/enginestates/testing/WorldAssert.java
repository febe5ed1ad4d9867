package dev.enginestates.testing;

import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Assertions on a whole world: its world-level machines (on the world's own entity) and how
 * many entities are in a state. Made by {@link StateAssertions#assertThat(WorldFixture)}.
 */
public final class WorldAssert {
    private final StateWorld world;

    WorldAssert(StateWorld world) {
        this.world = world;
    }

    /**
     * Assertions on a world-level machine (a game's phases).
     *
     * @param <C> the machine's context type
     * @param machine the world-level machine
     * @return assertions on its record on the world's own entity
     * @throws AssertionError if the world holds no record of that machine
     */
    public <C> MachineAssert<C> machine(States<C> machine) {
        return new EntityAssert(world, world.entity()).machine(machine);
    }

    /**
     * Asserts how many entities hold this machine in a state (the state or one of its
     * descendants active). Counted with the state's tag query, and checked against the
     * records, so a tag out of line with its record fails too; a machine declared with
     * {@code tags(false)} is counted through its records. The state is the one declared with
     * a constant of the machine's state enum.
     *
     * @param machine the machine to count
     * @param state a constant of the machine's state enum
     * @param expected how many entities should be in the state
     * @return this assertion, for chaining
     * @throws dev.enginestates.declare.MachineException if the constant is not of the machine's state enum
     */
    public WorldAssert hasCountIn(States<?> machine, Enum<?> state, int expected) {
        return hasCountIn(machine, machine.path(state), expected);
    }

    /**
     * Asserts how many entities hold this machine in a state (the state or one of its
     * descendants active). Counted with the state's tag query, and checked against the
     * records, so a tag out of line with its record fails too; a machine declared with
     * {@code tags(false)} is counted through its records.
     *
     * @param machine the machine to count
     * @param path the state's dotted path, such as {@code "answer"}
     * @param expected how many entities should be in the state
     * @return this assertion, for chaining
     */
    public WorldAssert hasCountIn(States<?> machine, String path, int expected) {
        int byRecords = 0;
        Map<String, Integer> byValue = new TreeMap<>();
        for (StateRecord<?> r : world.records(machine)) {
            if (r.matches(path)) {
                byRecords++;
            }
            byValue.merge(EntityDump.value(r.value()), 1, Integer::sum);
        }
        int byTags = byRecords;
        if (machine.machine().tags()) {
            byTags = world.query(machine.is(path)).count();
        }
        if (byTags != expected || byRecords != expected) {
            String counted = machine.machine().tags()
                    ? String.format(Locale.ROOT, "%d by tag query and %d by records", byTags, byRecords)
                    : byRecords + " by records";
            throw new org.opentest4j.AssertionFailedError(String.format(Locale.ROOT,
                    "expected %d entities with machine '%s' in '%s' at t=%.3f s (step %d), but counted %s; the '%s' machines are in %s",
                    expected, machine.id(), path, world.time(), world.steps(), counted, machine.id(), byValue), expected,
                    byTags != expected ? byTags : byRecords); // the count that is wrong, so the actual is never the expected
        }
        return this;
    }
}

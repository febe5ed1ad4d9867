package dev.enginestates.io;

import dev.dominion.ecs.api.Entity;
import dev.dominion.ecs.api.Results;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DESIGN.md, "each state is also a tag component that the ECS query finds; a compound state's tag
 * stays while its children change": over random worlds of tagged machines (compound and parallel
 * states, history, waits, {@code when} rules, holds, spawns and despawns), after every input, each
 * keyed entity carries the tag of a state exactly when its record has that state active, and
 * Dominion's query for a state's tag finds exactly the entities in that state, each once. States
 * set by hand move their tags at the start of the next step (DESIGN.md), so the check waits for
 * that step after a hand-set state. Pins the ECS face's tag moves, which compare whole words of
 * active states and reuse the last move when the next record makes the same change.
 */
class TagsFollowActiveStatesPropertyTest {
    static final int WORLDS = Integer.getInteger("tagsFollow.worlds", 120);

    @Test
    void everyEntityCarriesTheTagsOfItsActiveStatesAndQueriesFindThem() {
        RandomWorlds.quiet();
        RandomWorlds.Options o = new RandomWorlds.Options();
        o.tagsOneIn = 1; // every machine tagged
        int checks = 0;
        for (long seed = 1; seed <= WORLDS; seed++) {
            RandomWorlds.Spec spec = RandomWorlds.generate(seed * 7_919L, o);
            try (StateWorld world = spec.newWorld()) {
                boolean handSetPending = false;
                for (int i = 0; i < spec.inputs.size(); i++) {
                    RandomWorlds.Input in = spec.inputs.get(i);
                    spec.apply(world, i, i + 1);
                    if (in instanceof RandomWorlds.SetState) {
                        handSetPending = true;
                    } else if (in instanceof RandomWorlds.Step) {
                        handSetPending = false;
                    }
                    if (!handSetPending) {
                        checks += check(spec, world, "input " + i + " " + in);
                    }
                }
            }
        }
        assertTrue(checks > 10_000, "the random worlds checked only " + checks + " (entity, state) pairs");
    }

    /** Checks every (entity, state) pair of the world; returns how many were checked. */
    private static int check(RandomWorlds.Spec spec, StateWorld world, String after) {
        int checked = 0;
        for (RandomWorlds.RandomMachine m : spec.machines) {
            States<RandomWorlds.Ctx> machine = m.states;
            List<Entity> holders = new ArrayList<>();
            for (Results.With1<EntityKey> w : world.dominion().findEntitiesWith(EntityKey.class)) {
                if (w.entity().has(machine.recordType())) {
                    holders.add(w.entity());
                }
            }
            for (RandomWorlds.Node n : m.regular()) {
                if (n.path.isEmpty()) {
                    continue; // the root has no tag
                }
                String path = n.path;
                Class<?> tag = machine.is(path);
                int active = 0;
                for (Entity e : holders) {
                    StateRecord<RandomWorlds.Ctx> r = machine.read(e);
                    boolean in = r.matches(path);
                    active += in ? 1 : 0;
                    assertEquals(in, e.has(tag), () -> spec + ", after " + after + ": machine '" + machine.id() + "' on "
                            + e.get(EntityKey.class) + " in " + r.state() + ": tag of '" + path + "'");
                    checked++;
                }
                int found = 0;
                for (Results.With1<?> w : world.dominion().findEntitiesWith(tag)) {
                    assertTrue(w.entity().has(EntityKey.class) && holders.contains(w.entity()) || !w.entity().has(EntityKey.class),
                            () -> spec + ", after " + after + ": a query for '" + path + "' found " + w.entity());
                    if (w.entity().has(EntityKey.class)) {
                        found++;
                    }
                }
                int expected = active;
                int got = found;
                assertEquals(expected, got, () -> spec + ", after " + after + ": machine '" + machine.id() + "': the query for '"
                        + path + "' found " + got + " keyed entities; " + expected + " are in it");
            }
        }
        return checked;
    }
}

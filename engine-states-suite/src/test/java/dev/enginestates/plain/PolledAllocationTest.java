package dev.enginestates.plain;

import dev.enginestates.Allocations;
import dev.enginestates.StatesDef;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The design's "a transition allocates nothing once warm", for the polled style: stepping
 * machines that only test guards, and machines that move every second through {@code after}
 * and guards, on a plain object and on entities without tags. Counted with this thread's
 * allocated bytes; the margin covers the measurement itself, not the work.
 */
class PolledAllocationTest {
    static final long MEASUREMENT_MARGIN = Allocations.MEASUREMENT_MARGIN;

    static final class Ctx {
        boolean a;
        boolean b;
        boolean c;
        int moves;
    }

    static final StatesDef<Ctx> POLLING = StatesDef.define("alloc-polling", d -> d
            .state("idle", s -> s.to("x", (c, t) -> c.a).to("y", (c, t) -> c.b).to("z", (c, t) -> c.c))
            .state("x").state("y").state("z"));

    static final StatesDef<Ctx> MOVING = StatesDef.define("alloc-moving", d -> d
            .tags(false)
            .state("on", s -> s.after(1, "off").exit((c, to) -> c.moves++))
            .state("off", s -> s.to("on", (c, t) -> t >= 1).update((c, dt, t) -> null)));



    @Test
    void stepping_plain_machines_that_only_test_guards_allocates_nothing() {
        List<StateMachine<Ctx>> machines = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            machines.add(new StateMachine<>(POLLING, new Ctx()));
        }
        long bytes = Allocations.warmThenMeasure(() -> {
            for (int step = 0; step < 600; step++) {
                for (int i = 0; i < machines.size(); i++) {
                    machines.get(i).step(1 / 60.0);
                }
            }
        });
        assertTrue(bytes <= MEASUREMENT_MARGIN, "600 steps of 1,000 polling machines allocated " + bytes + " B");
    }

    @Test
    void plain_transitions_through_after_guards_and_exits_allocate_nothing() {
        List<StateMachine<Ctx>> machines = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            machines.add(new StateMachine<>(MOVING, new Ctx()));
        }
        long bytes = Allocations.warmThenMeasure(() -> {
            for (int step = 0; step < 600; step++) {
                for (int i = 0; i < machines.size(); i++) {
                    machines.get(i).step(1 / 60.0);
                }
            }
        });
        assertTrue(machines.get(0).ctx().moves > 100, "the machines moved");
        assertTrue(bytes <= MEASUREMENT_MARGIN, "600 steps with 10,000 transitions allocated " + bytes + " B");
    }

    @Test
    void a_world_of_polled_machines_without_tags_and_nothing_held_allocates_nothing() {
        States<Ctx> moving = States.of(MOVING);
        long idle;
        try (StateWorld world = StateWorld.create()) {
            world.spawn(moving.trait(new Ctx())); // nothing held: the step asks Dominion nothing (patch 0012)
            idle = Allocations.warmThenMeasure(Allocations.steps(world));
            assertTrue(idle <= MEASUREMENT_MARGIN, "600 steps of one machine allocated " + idle + " B");
        }
        try (StateWorld world = StateWorld.create()) {
            List<Ctx> contexts = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                Ctx c = new Ctx();
                contexts.add(c);
                world.spawn(moving.trait(c));
            }
            long bytes = Allocations.warmThenMeasure(Allocations.steps(world));
            assertTrue(contexts.get(0).moves > 100, "the machines moved");
            assertTrue(bytes <= MEASUREMENT_MARGIN, "600 steps with 10,000 transitions allocated " + bytes + " B; a world of one machine "
                    + idle + " B");
        }
    }
}

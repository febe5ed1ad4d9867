package dev.enginestates.fsm;

import dev.enginestates.declare.StateMotionProfile;
import dev.enginestates.Allocations;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The design's "no allocation once warm", for the builder style: machines whose handlers return
 * null, and machines that move every second with metadata (duration, tag, windows, data) and
 * hooks, on a plain object and on entities without tags. Counted with this thread's allocated
 * bytes; the margin covers the measurement itself, not the work.
 */
class BuilderAllocationTest {
    static final long MEASUREMENT_MARGIN = Allocations.MEASUREMENT_MARGIN;

    static final class Ctx extends AIContext {
        int moves;
        int hits;
    }

    static final StateMachineDefinition<Ctx> IDLE = new StateMachineBuilder<Ctx>("alloc-idle", Ctx::new)
            .configureState("Idle").asInitial().handler((c, dt) -> null)
            .build();

    static final StateMachineDefinition<Ctx> MOVING = new StateMachineBuilder<Ctx>("alloc-moving", Ctx::new)
            .tags(false)
            .onStateEnter((c, s) -> c.moves++)
            .configureState("On").asInitial().duration(1f).tag("on").window("hit", 0.25f, 0.5f).data("payload")
            .motion(new StateMotionProfile(0.5f, 1f))
            .handler((c, dt) -> {
                if (c.windowEntered("hit")) {
                    c.hits++;
                }
                return c.progress() >= 1f ? "Off" : null;
            })
            .exit(c -> c.hits += 0)
            .configureState("Off").duration(1f).handler((c, dt) -> c.timeInState() >= 1f ? "On" : "Off")
            .enter(c -> c.hits += 0)
            .build();



    private static List<StateMachine<Ctx>> plain(StateMachineDefinition<Ctx> def, List<Ctx> contexts) {
        List<StateMachine<Ctx>> machines = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            Ctx c = new Ctx();
            contexts.add(c);
            StateMachine<Ctx> m = new StateMachine<>(def);
            m.initialize(c);
            machines.add(m);
        }
        return machines;
    }

    @Test
    void updating_plain_machines_whose_handlers_return_null_allocates_nothing() {
        List<Ctx> contexts = new ArrayList<>();
        List<StateMachine<Ctx>> machines = plain(IDLE, contexts);
        long bytes = Allocations.warmThenMeasure(() -> {
            for (int step = 0; step < 600; step++) {
                for (int i = 0; i < machines.size(); i++) {
                    machines.get(i).update(contexts.get(i), 1f / 60f);
                }
            }
        });
        assertTrue(bytes <= MEASUREMENT_MARGIN, "600 updates of 1,000 idle machines allocated " + bytes + " B");
    }

    @StateBehavior("alloc-annotated")
    static final class Annotated {
        @State(value = "A", initial = true)
        String a(Ctx c, float dt) {
            return c.timeInState() >= 0.5f ? "B" : null;
        }

        @State("B")
        String b(Ctx c, float dt) {
            return c.timeInState() >= 0.5f ? "A" : null;
        }

        @StateEnter("B")
        void enterB(Ctx c) {
            c.moves++;
        }
    }

    @Test
    void annotated_handlers_are_called_without_reflection_or_boxing() {
        StateMachineDefinition<Ctx> def = new StateMachineBuilder<Ctx>().registerHandlers(Annotated.class).build();
        List<Ctx> contexts = new ArrayList<>();
        List<StateMachine<Ctx>> machines = plain(def, contexts);
        long bytes = Allocations.warmThenMeasure(() -> {
            for (int step = 0; step < 600; step++) {
                for (int i = 0; i < machines.size(); i++) {
                    machines.get(i).update(contexts.get(i), 1f / 60f);
                }
            }
        });
        assertTrue(contexts.get(0).moves > 100, "the machines moved");
        assertTrue(bytes <= MEASUREMENT_MARGIN, "600 updates of 1,000 annotated machines allocated " + bytes + " B");
    }

    @Test
    void plain_transitions_with_metadata_windows_and_hooks_allocate_nothing() {
        List<Ctx> contexts = new ArrayList<>();
        List<StateMachine<Ctx>> machines = plain(MOVING, contexts);
        long bytes = Allocations.warmThenMeasure(() -> {
            for (int step = 0; step < 600; step++) {
                for (int i = 0; i < machines.size(); i++) {
                    machines.get(i).update(contexts.get(i), 1f / 60f);
                }
            }
        });
        assertTrue(contexts.get(0).moves > 100 && contexts.get(0).hits > 50, "the machines moved and hit");
        assertTrue(bytes <= MEASUREMENT_MARGIN, "600 updates with 10,000 transitions allocated " + bytes + " B");
    }

    @Test
    void a_world_of_builder_machines_without_tags_and_nothing_held_allocates_nothing() {
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
            assertTrue(bytes <= MEASUREMENT_MARGIN, "600 steps with 10,000 transitions allocated " + bytes
                    + " B; a world of one machine " + idle + " B");
        }
    }
}

package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Allocations;
import dev.enginestates.Machine;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.plain.StateMachine;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code can(event)} allocates nothing once warm, on a plain machine and on an entity: its scratch
 * arrays are the machine's or the world's, never made per call. Counts this thread's allocated
 * bytes with {@code com.sun.management.ThreadMXBean}: bytes are exact, so the assertion is strict.
 */
class CanAllocationTest {
    static final class Ctx {
        int hp = 10;
    }

    enum Lamp { OFF, ON }

    enum Flip { TOGGLE, BREAK }

    static final Machine<Ctx> LAMP = Machine.define("can-lamp", Ctx::new, Lamp.class, Flip.class, m -> m
            .initial(Lamp.OFF)
            .state(Lamp.OFF, s -> s.on(Flip.TOGGLE, t -> t.target(Lamp.ON).guard((c, e) -> c.hp > 0)))
            .state(Lamp.ON, s -> s.on(Flip.TOGGLE, Lamp.OFF).on(Flip.BREAK, Lamp.OFF)));

    /** Nested states with a history, guards reading the context and the event, and a parallel state. */
    static final Machine<Ctx> GUARD = Machine.define("can-guard", Ctx::new, m -> m
            .initial("patrol")
            .state("patrol", p -> p
                    .initial("walking")
                    .state("walking", w -> w
                            .initial("north")
                            .state("north", s -> s.on("TURN", t -> t.target("south").guard((c, e) -> c.hp > 5)))
                            .state("south", s -> s.on("TURN", "north")))
                    .history("resume", HistoryDepth.DEEP)
                    .on("ALARM", t -> t.target("alert").guard((c, e) -> e.isTrue("loud") || c.hp > 0)))
            .state("alert", a -> a
                    .parallel()
                    .state("eyes", r -> r.initial("search").state("search", s -> s.on("GO", t -> t.action((c, e) -> c.hp--))))
                    .state("feet", r -> r.initial("still").state("still", s -> s.on("GO", t -> t.target("running").guard((c, e) -> c.hp < 0)))
                            .state("running"))
                    .on("CALM", "patrol.resume")));

    static final States<Ctx> ON_ENTITY = States.define("can-guard", Ctx::new, m -> m
            .initial("patrol")
            .state("patrol", p -> p
                    .initial("north")
                    .state("north", s -> s.on("TURN", t -> t.target("south").guard((c, e) -> c.hp > 5)))
                    .state("south", s -> s.on("TURN", "north"))
                    .on("ALARM", t -> t.target("alert").guard((c, e) -> e.isTrue("loud") || c.hp > 0)))
            .state("alert", s -> s.on("CALM", "patrol")));

    @Test
    void canAllocatesNothingOnceWarm_onAPlainMachine_byTypeByEventAndInEveryState() {
        StateMachine<Ctx> m = new StateMachine<>(GUARD);
        StateMachine<Ctx> alert = new StateMachine<>(GUARD);
        alert.send("ALARM");
        StateMachine<Ctx> lamp = new StateMachine<>(LAMP);
        Event loud = Event.of("ALARM", Map.of("loud", true));
        boolean[] sink = new boolean[1];
        Runnable work = () -> {
            for (int i = 0; i < 1_000; i++) {
                sink[0] ^= m.can("TURN");
                sink[0] ^= m.can("ALARM");
                sink[0] ^= m.can(loud);
                sink[0] ^= m.can("CALM");
                sink[0] ^= alert.can("GO");
                sink[0] ^= alert.can("CALM");
                sink[0] ^= alert.can("TURN");
                sink[0] ^= lamp.can(Flip.TOGGLE);
                sink[0] ^= lamp.can(Flip.BREAK);
            }
        };
        long allocated = Allocations.warmThenMeasure(work);
        assertTrue(m.matches("patrol.walking.north") && alert.matches("alert.feet.still"), "asking moved nothing");
        assertEquals(0, allocated, "bytes allocated by 9,000 questions once warm (fewest of 5 runs)");
    }

    @Test
    void canAllocatesNothingOnceWarm_onAnEntity() {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(ON_ENTITY.trait());
            StateRecord<Ctx> r = ON_ENTITY.read(e);
            Event loud = Event.of("ALARM", Map.of("loud", true));
            boolean[] sink = new boolean[1];
            Runnable work = () -> {
                for (int i = 0; i < 1_000; i++) {
                    sink[0] ^= ON_ENTITY.can(e, "TURN");
                    sink[0] ^= ON_ENTITY.can(e, loud);
                    sink[0] ^= ON_ENTITY.can(e, "CALM");
                    sink[0] ^= r.can("ALARM");
                }
            };
            long allocated = Allocations.warmThenMeasure(work);
            assertFalse(r.matches("alert"), "asking moved nothing");
            assertEquals(0, allocated, "bytes allocated by 4,000 questions once warm (fewest of 5 runs)");
        }
    }
}

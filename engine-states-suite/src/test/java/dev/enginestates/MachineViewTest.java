package dev.enginestates;

import dev.enginestates.declare.MachineException;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.AIContext;
import dev.enginestates.fsm.StateMachineBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One read-only view of a running machine, whatever the face: on an entity, on a plain object, builder-style. */
class MachineViewTest {
    static final class Lamp {
    }

    static final class Bulb extends AIContext {
    }

    static final Machine<Lamp> LAMP = Machine.define("view-lamp", Lamp::new, m -> m
            .initial("off")
            .state("off", s -> s.on("FLIP", "on"))
            .state("on", s -> s.waitFor(2, "off")));

    private static void saysOn(MachineView<?> view, double time, double left) {
        assertEquals("view-lamp", view.machineId().replace("view-bulb", "view-lamp"));
        assertEquals("on", view.state());
        assertEquals(List.of("on"), view.leaves());
        assertEquals("on", view.value());
        assertTrue(view.matches("on"));
        assertFalse(view.matches("off"));
        assertFalse(view.isDone());
        assertEquals(time, view.time(), 1e-6);
        assertEquals(left, view.secondsLeft(), 1e-6);
        MachineException x = assertThrows(MachineException.class, () -> view.matches("onn"));
        assertTrue(x.getMessage().contains("did you mean 'on'"), x.getMessage());
    }

    @Test
    void every_face_reads_alike_through_the_view() {
        try (StateWorld world = StateWorld.create()) {
            States<Lamp> lamps = States.of(LAMP);
            var e = world.spawn(lamps.trait());
            lamps.send(e, "FLIP");
            world.step(0.5);
            saysOn(lamps.read(e), 0.5, 1.5);
        }
        var plain = new dev.enginestates.plain.StateMachine<>(LAMP, new Lamp());
        plain.send("FLIP");
        plain.step(0.5);
        saysOn(plain, 0.5, 1.5);

        var bulbs = new StateMachineBuilder<Bulb>("view-bulb");
        bulbs.configureState("off").asInitial().handler((b, dt) -> "on");
        bulbs.configureState("on").handler((b, dt) -> null);
        var fsm = new dev.enginestates.fsm.StateMachine<>(bulbs.build());
        Bulb bulb = new Bulb();
        fsm.initialize(bulb);
        fsm.update(bulb, 0.25f);
        fsm.update(bulb, 0.5f);
        saysOn(fsm, 0.5, 0);
        assertEquals(bulb, fsm.context());
    }
}

package dev.enginestates.plain;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Machine;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.declare.MachineException;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One plain class serves both declaration styles: an XState-style machine on a plain object
 * steps by the world's time rules (waits end at their own time within a step, chained waits
 * keep exact time, then the {@code when} rules, a child's before its parent's), and has the
 * same reads as a polled one.
 */
class PlainXStateStepTest {
    static final double DT = 1 / 60.0;

    public static final class Guard {
        public boolean alarm;
        public int bells;
        public double rest = 10;
    }

    static final Machine<Guard> GUARD = Machine.define("plain-guard", Guard::new, m -> m
            .initial("patrol")
            .state("patrol", s -> s
                    .initial("watch")
                    .on("BELL", t -> t.target("answer").action((g, e) -> g.bells++))
                    .state("watch", w -> w.waitFor(4, "rest").when(g -> g.alarm, "alert"))
                    .state("alert", w -> w.waitFor(0.5, "watch"))
                    .state("rest", w -> w.waitFor(g -> g.rest, "watch"))
                    .history("resumed", HistoryDepth.DEEP))
            .state("answer", s -> s.on("RESUME", "patrol.resumed").waitFor(3, "patrol")));

    @Test
    void a_plain_xstate_machine_steps_exactly_as_the_world_does() {
        States<Guard> onEntity = States.of(GUARD);
        try (StateWorld world = StateWorld.create()) {
            Guard a = new Guard();
            Guard b = new Guard();
            Entity e = world.spawn(onEntity.trait(a));
            StateMachine<Guard> plain = new StateMachine<>(GUARD, b);
            SplittableRandom rnd = new SplittableRandom(11);
            for (int i = 0; i < 5_000; i++) {
                boolean alarm = rnd.nextInt(50) == 0;
                a.alarm = alarm;
                b.alarm = alarm;
                int r = rnd.nextInt(100);
                if (r == 0) {
                    assertEquals(onEntity.send(e, "BELL"), plain.send("BELL"));
                } else if (r == 1) {
                    assertEquals(onEntity.send(e, "RESUME"), plain.send("RESUME"));
                }
                double dt = rnd.nextInt(10) == 0 ? 2.5 : DT; // a long step takes several waits in order
                world.step(dt);
                plain.step(dt);
                assertEquals(onEntity.read(e).value(), plain.value(), "step " + i);
                assertEquals(onEntity.read(e).secondsLeft(), plain.secondsLeft(), 1e-9, "step " + i + " " + plain + " " + onEntity.read(e));
                assertEquals(onEntity.read(e).time(), plain.time(), 1e-9, "step " + i);
            }
            assertTrue(b.bells > 10);
        }
    }

    @Test
    void step_takes_chained_waits_within_one_step_at_their_own_times() {
        StateMachine<Guard> fsm = new StateMachine<>(GUARD, new Guard());
        fsm.step(4 + 10 + 1); // watch 4 s, rest 10 s, then watch again for 1 s
        assertEquals("patrol.watch", fsm.state());
        assertEquals(1, fsm.time(), 1e-9);
        assertEquals("patrol.watch", fsm.previous(), "an XState-style machine's previous is per step: the chain began in watch");
    }

    @Test
    void when_rules_are_tested_each_step() {
        Guard g = new Guard();
        StateMachine<Guard> fsm = new StateMachine<>(GUARD, g);
        fsm.step(DT);
        g.alarm = true;
        fsm.step(DT);
        assertEquals("patrol.alert", fsm.state());
        assertTrue(fsm.is("patrol") && fsm.is("alert"));
        assertEquals(List.of("patrol", "patrol.alert"), fsm.branch());
    }

    @Test
    void change_listeners_hear_xstate_moves_too() {
        List<String> seen = new ArrayList<>();
        StateMachine<Guard> fsm = new StateMachine<>(GUARD, new Guard());
        fsm.on("change", (to, from) -> seen.add(from + ">" + to));
        fsm.send("BELL");
        fsm.step(3);
        assertEquals(List.of("patrol.watch>answer", "answer>patrol.watch"), seen);
        assertEquals(0, fsm.timeIn("answer"));
    }

    @Test
    void aNameThatNamesNoStateIsAMachineExceptionAsOnAnEntity() {
        StateMachine<Guard> fsm = new StateMachine<>(GUARD, new Guard());
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(States.of(GUARD).trait());
            assertThrows(MachineException.class, () -> States.of(GUARD).read(e).is("answr"), "the ECS face's error");
        }
        for (Executable bad : List.<Executable>of(() -> fsm.is("answr"), () -> fsm.timeIn("answr"), () -> fsm.go("answr"),
                () -> fsm.withTime("answr", 1), () -> StateMachine.startIn(GUARD, new Guard(), "answr"))) {
            MachineException x = assertThrows(MachineException.class, bad);
            assertEquals("plain-guard", x.machineId());
            assertTrue(x.getMessage().contains("machine 'plain-guard'") && x.getMessage().contains("'answr'")
                    && x.getMessage().contains("did you mean 'answer'?"), x.getMessage());
        }
        assertEquals("patrol.watch", fsm.state(), "nothing changed");
    }

    /** Arguments to an XState-style machine's send are refused as on an entity: a MachineException, nothing changed. */
    @Test
    void argumentsToAnXStateStyleSendAreAMachineExceptionAsOnAnEntity() {
        StateMachine<Guard> fsm = new StateMachine<>(GUARD, new Guard());
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(States.of(GUARD).trait());
            assertThrows(MachineException.class, () -> States.of(GUARD).send(e, "BELL", 3), "the ECS face's error");
        }
        MachineException x = assertThrows(MachineException.class, () -> fsm.send("BELL", 3));
        assertTrue(x.getMessage().contains("machine 'plain-guard' is XState-style") && x.getMessage().contains("Event.of(\"BELL\""),
                x.getMessage());
        assertEquals("patrol.watch", fsm.state(), "nothing changed");
    }
}

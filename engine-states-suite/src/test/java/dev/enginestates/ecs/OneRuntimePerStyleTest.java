package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.StatesDef;
import dev.enginestates.declare.MachineException;
import dev.enginestates.fsm.AIContext;
import dev.enginestates.fsm.StateMachineBuilder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The three styles run through one runtime contract (DESIGN, "Three styles, one machine model":
 * start, send, step, force a state, the reads that differ), so what the entity face offers
 * holds for each style by that style's own document, with no face testing which style it is.
 */
class OneRuntimePerStyleTest {
    static final class Door extends AIContext {
        boolean open;
    }

    /** The 000 document's table: guards polled every step; {@code go} forces a state. */
    static final States<int[]> POLLED = States.of(StatesDef.define("one-runtime-polled", () -> new int[1], d -> d
            .initial("idle")
            .state("idle", s -> s.to("busy", (c, t) -> c[0] > 0))
            .state("busy", s -> s.to("idle", (c, t) -> c[0] == 0))));

    /** The 002 document's builder: handlers return the next state; {@code transitionTo} forces one. */
    static final States<Door> BUILDER = States.of(new StateMachineBuilder<Door>("one-runtime-door", Door::new)
            .configureState("Closed").asInitial().handler((c, dt) -> c.open ? "Open" : null)
            .configureState("Open").duration(2f).handler((c, dt) -> c.open ? null : "Closed")
            .build());

    /** The 003 document's machine: events move it; there is no forced move, only setState by hand. */
    static final States<int[]> XSTATE = States.define("one-runtime-xstate", () -> new int[1], m -> m
            .initial("idle")
            .state("idle", s -> s.on("GO", "busy"))
            .state("busy", s -> s.on("STOP", "idle")));

    @Test
    void goAndTransitionToForceAPolledOrABuilderMachineAlike() {
        try (StateWorld world = StateWorld.create()) {
            Entity p = world.spawn(POLLED.trait(new int[1]));
            Entity b = world.spawn(BUILDER.trait());
            POLLED.go(p, "busy");
            assertEquals("busy", POLLED.read(p).state(), "000: go(name) forces the state");
            POLLED.transitionTo(p, "idle");
            assertEquals("idle", POLLED.read(p).state(), "transitionTo forces a polled machine's state as go does");
            assertEquals("busy", POLLED.read(p).previous(), "the forced move is a transition: previous is the leaf before it");
            BUILDER.transitionTo(b, "Open");
            assertEquals("Open", BUILDER.read(b).state(), "002: transitionTo(name) forces the state");
            BUILDER.go(b, "Closed");
            assertEquals("Closed", BUILDER.read(b).state(), "go forces a builder-style machine's state as transitionTo does");
            assertEquals("Open", BUILDER.read(b).previous());
            assertTrue(p.has(POLLED.is("idle")) && !p.has(POLLED.is("busy")), "the forced move's tags moved with it");
        }
    }

    @Test
    void anXStateMachineRefusesAForcedMoveNamingWhatToDoInsteadAndChangesNothing() {
        try (StateWorld world = StateWorld.create()) {
            Entity x = world.spawn(XSTATE.trait(new int[1]));
            for (String call : List.of("go", "transitionTo")) {
                MachineException e = assertThrows(MachineException.class,
                        () -> { if (call.equals("go")) XSTATE.go(x, "busy"); else XSTATE.transitionTo(x, "busy"); });
                assertTrue(e.getMessage().contains("one-runtime-xstate") && e.getMessage().contains("XState-style")
                        && e.getMessage().contains(call) && e.getMessage().contains("setState"), e.getMessage());
                assertEquals("idle", XSTATE.read(x).state(), call + " refused changes nothing");
            }
        }
    }

    @Test
    void aBuilderMachineRefusesEventsBeforeAnythingIsReadOrChanged() {
        try (StateWorld world = StateWorld.create()) {
            Entity b = world.spawn(BUILDER.trait());
            MachineException e = assertThrows(MachineException.class, () -> BUILDER.send(b, "OPEN"));
            assertTrue(e.getMessage().contains("one-runtime-door") && e.getMessage().contains("takes no events")
                    && e.getMessage().contains("transitionTo"), e.getMessage());
            assertEquals("Closed", BUILDER.read(b).state());
        }
    }

    @Test
    void aStepMovesEachStyleByItsOwnRulesAndTheReadsFollowEachStylesClock() {
        try (StateWorld world = StateWorld.create()) {
            int[] flag = {0};
            Entity p = world.spawn(POLLED.trait(flag));
            Entity b = world.spawn(BUILDER.trait());
            Entity x = world.spawn(XSTATE.trait(new int[1]));
            List<String> heard = new ArrayList<>();
            world.addListener(new dev.enginestates.MachineListener<StateRecord<?>>() {
                @Override
                public void stateChanged(StateRecord<?> r, String from, String to, String event) {
                    heard.add(r.machineId() + " " + from + ">" + to);
                }
            });
            flag[0] = 1;
            BUILDER.read(b).context().open = true;
            XSTATE.send(x, "GO");
            world.step(0.5);
            assertEquals("busy", POLLED.read(p).state(), "000: a guard that holds at a step moves the machine");
            assertEquals("Open", BUILDER.read(b).state(), "002: the handler's returned name is the next state");
            assertEquals("busy", XSTATE.read(x).state(), "003: the event moved it at once");
            world.step(0.5);
            assertEquals(0.5, POLLED.read(p).time(), 1e-9, "000: the polled clock counts the steps in the state");
            assertEquals(0.5, BUILDER.read(b).time(), 1e-6, "002: time in state, the float clock");
            assertEquals(0.25f, BUILDER.read(b).progress(), 1e-6f, "002: progress is time over the state's duration");
            assertEquals(1.0, XSTATE.read(x).time(), 1e-9, "003: seconds since entry on the world's clock");
            assertEquals(0f, POLLED.read(p).progress(), "a style without durations has no progress");
            assertEquals("", XSTATE.read(x).previous(), "the XState style keeps no previous leaf");
            assertTrue(heard.contains("one-runtime-polled idle>busy") && heard.contains("one-runtime-door Closed>Open")
                    && heard.contains("one-runtime-xstate idle>busy"), heard::toString);
        }
    }
}

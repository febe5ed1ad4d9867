package dev.enginestates.records;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Machine;
import dev.enginestates.StatesDef;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.Semantics;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Saves;
import dev.enginestates.plain.StateMachine;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 14, memory per machine: a record keeps its times (the XState style's entry times, the
 * polled style's clocks) by {@link Chart#timeSlot}. In a chart without parallel states the active
 * states are one chain from the root, one per depth, so the states of a depth share a slot; a
 * parallel chart, or one under SCXML's semantics, keeps one per state. Whatever the slots, the
 * time read for an active state is its own, and a state not active reads none.
 */
class TimesByDepthTest {
    static final Machine<Object> NESTED = Machine.define("times-nested", Object::new, m -> m
            .initial("idle")
            .state("idle", s -> s.on("GO", "p"))
            .state("p", s -> s
                    .initial("a")
                    .on("OUT", "idle")
                    .on("AGAIN", ".a")
                    .state("a", c -> c.on("NEXT", "b").on("SELF", t -> t.target("a").reenter()))
                    .state("b", c -> c.on("NEXT", "a"))));

    static final Machine<Object> PARALLEL = Machine.define("times-parallel", Object::new, m -> m
            .initial("p")
            .state("p", s -> s.parallel()
                    .state("x", r -> r.initial("x1").state("x1", c -> c.on("X", "x2")).state("x2", c -> c.on("X", "x1")))
                    .state("y", r -> r.initial("y1").state("y1", c -> c.on("Y", "y2")).state("y2", c -> c.on("Y", "y1")))));

    @Test
    void aChartWithoutParallelStatesKeepsOneTimeSlotPerDepthAndAParallelOrScxmlChartOnePerState() {
        Chart nested = Access.chart(NESTED);
        assertEquals(3, nested.timeRoom, "root, p, a: three depths");
        assertEquals(nested.configRoom, nested.timeRoom);
        for (int s = 0; s < nested.size; s++) {
            assertEquals(nested.depth[s], nested.timeSlot[s], nested.describe(s));
        }
        assertEquals(3, new MachineRecord(nested, null).times.length, "the record's times are sized by depths, not states");
        Chart parallel = Access.chart(PARALLEL);
        assertEquals(parallel.size, parallel.timeRoom, "regions' states share depths: one slot each");
        for (int s = 0; s < parallel.size; s++) {
            assertEquals(s, parallel.timeSlot[s]);
        }
        Chart scxml = Access.chart(Machine.define("times-scxml", Object::new, m -> m
                .semantics(Semantics.SCXML).initial("a").state("a", s -> s.on("GO", "b")).state("b", s -> { })));
        assertEquals(scxml.size, scxml.timeRoom, "a state's exit actions see it active after its depth's new state was entered");
        Chart polled = Access.chart(Polled.DEF.machine());
        assertEquals(3, polled.timeRoom);
        MachineRecord p = new MachineRecord(polled, null);
        assertEquals(2 * 3, p.times.length, "a polled record's clocks by depth, then their carries");
    }

    @Test
    void anActiveAncestorsTimeSurvivesItsChildsTransitions() {
        // the parent entered at 1 s, its child changes at 2 s: the parent still counts from 1 s
        StateMachine<Object> m = new StateMachine<>(NESTED);
        m.step(1);
        m.send("GO");
        m.step(1);
        m.send("NEXT");
        m.step(0.5);
        assertEquals(1.5, m.timeIn("p"));
        assertEquals(0.5, m.timeIn("p.b"));
        assertEquals(0.0, m.timeIn("p.a"), "a state left reads no time, though its depth's slot holds b's");
        assertEquals(0.0, m.timeIn("idle"), "nor does one left earlier at p's depth");
        assertTrue(Double.isNaN(Access.record(m).enteredAt(Access.chart(NESTED).stateAt("p.a"))), "no entry time for a state not active");
        m.send("NEXT");
        m.step(0.25);
        assertEquals(1.75, m.timeIn("p"), "two changes of the child later");
        assertEquals(0.25, m.timeIn("p.a"));
    }

    @Test
    void anActiveAncestorsTimeSurvivesItsChildsTransitionsOnAnEntity() {
        States<Object> states = States.of(NESTED);
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(states.trait());
            world.step(1);
            states.send(e, "GO");
            world.step(1);
            states.send(e, "NEXT");
            world.step(0.5);
            StateRecord<Object> r = states.read(e);
            assertEquals(1.5, r.timeIn("p"));
            assertEquals(0.5, r.timeIn("p.b"));
            assertEquals(0.5, r.time(), "the leaf's time");
            assertEquals(0.0, r.timeIn("p.a"));
            assertEquals(0.0, r.timeIn("idle"));
        }
    }

    @Test
    void aStateEnteredAgainAtItsDepthCountsFromZero() {
        StateMachine<Object> m = new StateMachine<>(NESTED);
        m.send("GO");
        m.step(1);
        m.send("NEXT");
        m.step(1);
        m.send("NEXT"); // back to a: b's slot is a's again, from now
        m.step(0.5);
        assertEquals(0.5, m.timeIn("p.a"));
        assertEquals(2.5, m.timeIn("p"));
        m.send("SELF"); // a re-entered by itself
        assertEquals(0.0, m.timeIn("p.a"));
        assertEquals(2.5, m.timeIn("p"), "the parent is not left by its child's re-entry");
        m.step(0.25);
        m.send("AGAIN"); // the parent's own transition to its child: the child is left and entered again, p stays
        m.step(0.25);
        assertEquals(0.25, m.timeIn("p.a"));
        assertEquals(3.0, m.timeIn("p"));
        m.send("OUT");
        m.step(0.5);
        m.send("GO"); // p left and entered again: it counts from 0, and so does a
        m.step(0.125);
        assertEquals(0.125, m.timeIn("p"));
        assertEquals(0.125, m.timeIn("p.a"));
    }

    @Test
    void aParallelChartsRegionsKeepSeparateTimes() {
        StateMachine<Object> m = new StateMachine<>(PARALLEL);
        m.step(1);
        m.send("X");
        m.step(1);
        m.send("Y");
        m.step(0.5);
        assertEquals(2.5, m.timeIn("p"));
        assertEquals(2.5, m.timeIn("p.x"));
        assertEquals(1.5, m.timeIn("p.x.x2"), "x moved at 1 s");
        assertEquals(0.5, m.timeIn("p.y.y2"), "y moved at 2 s, at the same depth as x2");
        assertEquals(0.0, m.timeIn("p.x.x1"));
    }

    @Test
    void underScxmlSemanticsAStatesExitActionsReadItsOwnTime() {
        // SCXML 3.13 exitStates: a state's exit actions still see it active; the state entered in its
        // place at the same depth has its entry time already, so each keeps a slot of its own
        List<Double> seen = new ArrayList<>();
        List<StateMachine<Object>> self = new ArrayList<>();
        for (Semantics semantics : Semantics.values()) {
            Machine<Object> m = Machine.define("times-exit-" + semantics, Object::new, d -> d
                    .semantics(semantics)
                    .initial("a")
                    .state("a", s -> s.on("GO", "b").exit((c, e, me) -> seen.add(self.get(0).timeIn("a"))))
                    .state("b", s -> { }));
            self.clear();
            StateMachine<Object> machine = new StateMachine<>(m);
            self.add(machine);
            machine.step(1.5);
            machine.send("GO");
            assertEquals(0.0, machine.timeIn("a"));
        }
        assertEquals(List.of(0.0, 1.5), List.of(seen.get(Semantics.XSTATE.ordinal()), seen.get(Semantics.SCXML.ordinal())),
                "XState: a is gone before its exit actions (0 s); SCXML: a is still active and has been for 1.5 s");
    }

    /** A polled table with a nested branch: clocks by depth. */
    static final class Polled {
        /** The context: what the guards read. */
        public static final class Bot {
            public boolean target;
            public boolean close;
        }

        static final StatesDef<Bot> DEF = StatesDef.define("times-polled", Bot::new, d -> d
                .initial("patrol")
                .state("patrol", s -> s.to("combat", (b, t) -> b.target))
                .state("combat", s -> s
                        .initial("engage")
                        .to("patrol", (b, t) -> !b.target)
                        .state("engage", e -> e.to("shoot", (b, t) -> b.close && t >= 1))
                        .state("shoot", e -> e.to("engage", (b, t) -> !b.close).after(3, "engage"))));
    }

    @Test
    void polledClocksOfNestedStatesSurviveTransitionsAndACheckpoint() throws Exception {
        States<Polled.Bot> states = States.of(Polled.DEF);
        Saves saves = Saves.of(states);
        try (StateWorld world = StateWorld.create(); StateWorld restored = StateWorld.create()) {
            Polled.Bot bot = new Polled.Bot();
            Entity e = world.spawn(EntityKey.of("bot"), states.trait(bot));
            world.step(0.5);
            bot.target = true;
            world.step(0.25); // combat and engage entered in this step: their clocks start at 0
            world.step(1);
            bot.close = true;
            world.step(0.5); // engage -> shoot at depth 2: combat keeps counting
            world.step(0.25);
            StateRecord<Polled.Bot> r = states.read(e);
            assertEquals("combat.shoot", r.state());
            assertEquals(1.75, r.timeIn("combat"));
            assertEquals(0.25, r.timeIn("combat.shoot"));
            assertEquals(0.0, r.timeIn("combat.engage"), "left: no clock, though shoot's is in its slot");
            assertEquals(0.0, r.timeIn("patrol"), "left: no clock, though combat's is in its slot");
            assertEquals(2.5, Access.record(r).clock(0), "the root's clock is the total");
            String checkpoint = saves.checkpoint(world);
            com.fasterxml.jackson.databind.JsonNode clocks = new com.fasterxml.jackson.databind.ObjectMapper().readTree(checkpoint)
                    .path("entities").path("bot").path("times-polled").path("clocks");
            assertEquals("{\"combat\":1.75,\"combat.shoot\":0.25}", clocks.toString(), "a clock per active state, by path: " + checkpoint);
            saves.restoreSpawningMissing(restored, checkpoint);
            assertEquals(checkpoint, saves.checkpoint(restored), "the clocks read back as they were written");
            Polled.Bot twin = states.read(restored.entity("bot")).context();
            for (int i = 0; i < 12; i++) { // shoot's after(3) ends at its 3 s: back to engage, combat keeps counting
                world.step(0.25);
                restored.step(0.25);
            }
            StateRecord<Polled.Bot> back = states.read(restored.entity("bot"));
            assertEquals("combat.engage", back.state());
            assertEquals(4.75, back.timeIn("combat"));
            assertEquals(states.read(e).timeIn("combat.engage"), back.timeIn("combat.engage"));
            assertEquals(saves.checkpoint(world), saves.checkpoint(restored));
            twin.target = false;
            restored.step(0.25);
            assertEquals(0.0, back.timeIn("combat"));
            assertEquals(0.0, back.timeIn("patrol"), "entered in this step: from 0");
            restored.step(0.5);
            assertEquals(0.5, back.timeIn("patrol"));
        }
    }
}

package dev.enginestates.plain;

import dev.enginestates.declare.InvalidMachineException;
import dev.enginestates.declare.MachineException;
import dev.enginestates.StatesDef;
import dev.enginestates.declare.UnknownEventException;
import dev.enginestates.declare.UserCodeException;
import dev.enginestates.declare.UnknownEvents;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad input to the polled face: the {@code 000} document's "An unknown name in to, after or a
 * string on throws when the machine is built, so a typo is a startup error, not a silent
 * no-op; a name a function returns resolves (and throws) when it is returned", and the
 * design's "bad input gets a clear error and changes nothing".
 */
class PolledBadInputTest {
    static final class Ctx {
        boolean go;
        boolean boom;
        final List<String> calls = new ArrayList<>();
    }

    @Test
    void unknown_names_in_to_after_and_a_string_on_are_one_build_time_error_listing_every_problem() {
        InvalidMachineException e = assertThrows(InvalidMachineException.class, () -> StatesDef.<Ctx>define("guard", d -> d
                .on("hit", "flinsh")
                .state("patrol", s -> s.to("combt", (c, t) -> true))
                .state("combat", s -> s.after(2, "patroll"))
                .state("flinch")));
        assertEquals(3, e.problems().size(), e.getMessage());
        assertTrue(e.getMessage().contains("machine 'guard'"), e.getMessage());
        assertTrue(e.problems().get(0).contains("the root has on 'hit' going to 'flinsh', which names no state")
                && e.problems().get(0).contains("did you mean 'flinch'?"), e.problems().get(0));
        assertTrue(e.problems().get(1).contains("state 'patrol' has to 'combt'") && e.problems().get(1).contains("did you mean 'combat'?"),
                e.problems().get(1));
        assertTrue(e.problems().get(2).contains("state 'combat' has after 'patroll'"), e.problems().get(2));
    }

    @Test
    void a_null_target_of_after_or_on_is_refused_when_the_machine_is_built_even_beside_a_state_named_null() {
        InvalidMachineException e = assertThrows(InvalidMachineException.class, () -> StatesDef.<Ctx>define("guard", d -> d
                .state("a", s -> s.after(1, null).on("hit", (String) null))
                .state("null")));
        assertEquals(2, e.problems().size(), e.getMessage());
        assertTrue(e.problems().get(0).contains("state 'a' has after 1.0 seconds with a null target"), e.problems().get(0));
        assertTrue(e.problems().get(1).contains("state 'a' has on 'hit' with a null target"), e.problems().get(1));
        assertTrue(e.getMessage().contains("machine 'guard'") && e.getMessage().contains("expected a state's name or path, or '$back'"),
                e.getMessage());
    }

    @Test
    void back_is_refused_as_a_to_key() {
        InvalidMachineException e = assertThrows(InvalidMachineException.class, () -> StatesDef.<Ctx>define("m", d -> d
                .state("a", s -> s.to("$back", (c, t) -> true))));
        assertTrue(e.getMessage().contains("state 'a' has to '$back'"), e.getMessage());
        assertTrue(e.getMessage().contains("not a to key"), e.getMessage());
    }

    @Test
    void a_state_with_a_null_name_is_refused_naming_the_machine() {
        InvalidMachineException e = assertThrows(InvalidMachineException.class, () -> StatesDef.<Ctx>define("guard", d -> d
                .state("a", s -> s.state("a1"))
                .state("b", s -> s.after(1, "a.a1").state((String) null)))); // resolving from b walks b's children
        assertEquals("guard", e.machineId());
        assertTrue(e.getMessage().contains("machine 'guard'") && e.getMessage().contains("state 'b' declares a state with a null name"),
                e.getMessage());
    }

    @Test
    void a_state_named_back_is_refused_as_back_always_means_the_previous_leaf() {
        // the 000 document: "'$back' = the leaf active before the last transition"; a state of that name is unreachable
        InvalidMachineException e = assertThrows(InvalidMachineException.class, () -> StatesDef.<Ctx>define("guard", d -> d
                .state("a", s -> s.after(1, "$back"))
                .state("$back", s -> s.after(-1, "a"))));
        assertTrue(e.getMessage().contains("machine 'guard'") && e.getMessage().contains("the root declares a state named '$back'"),
                e.getMessage());
        assertTrue(e.getMessage().contains("after -1.0 seconds"), "what else is wrong in the refused state is still said: " + e.getMessage());
    }

    @Test
    void an_after_deeper_than_a_record_keeps_bits_for_is_refused() {
        InvalidMachineException e = assertThrows(InvalidMachineException.class, () -> StatesDef.<Ctx>define("deep", d -> d
                .state("s1", s -> nest(s, 1))));
        assertTrue(e.getMessage().contains("machine 'deep'") && e.getMessage().contains("has an after 32 levels deep"), e.getMessage());
        StatesDef.<Ctx>define("deep", d -> d.state("s1", s -> nest(s, 2))); // 31 levels: accepted
    }

    private static void nest(dev.enginestates.declare.StatesBuilder<Ctx> s, int level) {
        if (level == 32) {
            s.after(1, "$back");
        } else {
            s.state("s" + level, x -> nest(x, level + 1));
        }
    }

    /** A context a checkpoint can save: public fields. */
    public static final class Saved {
        public int n;
    }

    @Test
    void a_checkpoint_whose_after_fired_names_no_active_state_with_an_after_or_one_not_yet_due_is_refused_whole() throws Exception {
        StatesDef<Saved> def = StatesDef.<Saved>define("spent", Saved::new, d -> d
                .state("a", a -> a.after(1, "c2").state("c1").state("c2")));
        dev.enginestates.ecs.States<Saved> states = dev.enginestates.ecs.States.of(def);
        dev.enginestates.io.Saves saves = dev.enginestates.io.Saves.of(states);
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        try (dev.enginestates.ecs.StateWorld world = dev.enginestates.ecs.StateWorld.create();
                dev.enginestates.ecs.StateWorld target = dev.enginestates.ecs.StateWorld.create()) {
            world.spawn(dev.enginestates.ecs.EntityKey.of("x"), states.trait(new Saved()));
            world.step(0.5);
            String good = saves.checkpoint(world);
            for (String fired : new String[] {"[\"a.c1\"]", "[\"a\"]", "[\"a\", \"a\"]", "\"a\""}) {
                com.fasterxml.jackson.databind.JsonNode bad = json.readTree(good);
                ((com.fasterxml.jackson.databind.node.ObjectNode) bad.path("entities").path("x").path("spent"))
                        .set("afterFired", json.readTree(fired));
                dev.enginestates.io.CheckpointException e = assertThrows(dev.enginestates.io.CheckpointException.class,
                        () -> saves.restoreSpawningMissing(target, json.writeValueAsString(bad)), fired);
                assertTrue(e.getMessage().contains("afterFired"), e.getMessage());
                assertTrue(target.entity("x") == null, "refused whole: nothing spawned");
            }
        }
    }

    @Test
    void when_an_exit_throws_and_then_the_change_listener_throws_the_exit_fault_is_thrown_with_the_listeners_suppressed() {
        // the design: a game's exception "reaches the game naming the machine ... the state and the event"; the
        // listener, told of the change in any case, must not replace it
        StatesDef<Ctx> def = StatesDef.<Ctx>define("m", d -> d
                .state("a", s -> s.on("go", "b").exit((c, to) -> {
                    throw new IllegalStateException("exit broke");
                }))
                .state("b"));
        StateMachine<Ctx> fsm = new StateMachine<>(def, new Ctx());
        fsm.on("change", (to, from) -> {
            throw new IllegalArgumentException("listener broke");
        });
        UserCodeException e = assertThrows(UserCodeException.class, () -> fsm.send("go"));
        assertEquals("a", e.statePath());
        assertEquals("exit broke", e.getCause().getMessage());
        assertEquals(1, e.getSuppressed().length, "the listener's failure rides along");
        assertTrue(e.getSuppressed()[0].getMessage().contains("listener broke"), e.getSuppressed()[0].getMessage());
        assertEquals(1, e.on("bot-1").getSuppressed().length, "naming the entity (a world does) keeps it");
        assertEquals("b", fsm.state());
        UserCodeException alone = assertThrows(UserCodeException.class, () -> fsm.go("a"));
        assertEquals("listener broke", alone.getCause().getMessage(), "no fault before it: the listener's is thrown");
    }

    @Test
    void duplicate_names_an_unknown_initial_and_bad_seconds_are_reported_together() {
        InvalidMachineException e = assertThrows(InvalidMachineException.class, () -> StatesDef.<Ctx>define("m", d -> d
                .initial("nowhere")
                .state("a", s -> s.after(-1, "b").to("b", (c, t) -> true).to("b", (c, t) -> false))
                .state("a")
                .state("b", s -> s.initial("x").state("y"))));
        String m = e.getMessage();
        assertTrue(m.contains("has initial 'nowhere', which names no child"), m);
        assertTrue(m.contains("declares child 'a' twice"), m);
        assertTrue(m.contains("has initial 'x', which names no child"), m);
        assertTrue(m.contains("after -1.0 seconds"), m);
        assertTrue(m.contains("declares to 'b' twice"), m);
    }

    @Test
    void a_machine_with_no_states_is_refused() {
        InvalidMachineException e = assertThrows(InvalidMachineException.class, () -> StatesDef.<Ctx>define("m", d -> { }));
        assertTrue(e.getMessage().contains("no states"), e.getMessage());
    }

    @Test
    void root_only_options_and_root_enter_after_are_refused_where_they_do_not_belong() {
        InvalidMachineException e = assertThrows(InvalidMachineException.class, () -> StatesDef.<Ctx>define("m", d -> d
                .enter((c, f) -> { })
                .state("a", s -> s.tags(false))));
        assertTrue(e.getMessage().contains("the root has no enter"), e.getMessage());
        assertTrue(e.getMessage().contains("state 'a' declares tags"), e.getMessage());
    }

    @Test
    void a_name_an_update_returns_that_names_nothing_throws_naming_machine_state_and_name_and_the_machine_stays() {
        StatesDef<Ctx> def = StatesDef.<Ctx>define("m", d -> d
                .state("a", s -> s.update((c, dt, t) -> c.go ? "nowhere" : null).to("b", (c, t) -> t > 5))
                .state("b"));
        Ctx ctx = new Ctx();
        StateMachine<Ctx> fsm = new StateMachine<>(def, ctx);
        ctx.go = true;
        MachineException e = assertThrows(MachineException.class, () -> fsm.step(1));
        assertTrue(e.getMessage().contains("machine 'm'") && e.getMessage().contains("state 'a'")
                && e.getMessage().contains("returned 'nowhere'"), e.getMessage());
        assertEquals("a", fsm.state());
        ctx.go = false;
        for (int i = 0; i < 5; i++) {
            fsm.step(1);
        }
        assertEquals("b", fsm.state(), "the machine steps on");
    }

    @Test
    void a_handler_returning_an_unknown_name_throws_and_changes_nothing() {
        StatesDef<Ctx> def = StatesDef.<Ctx>define("m", d -> d.state("a", s -> s.on("e", (c, args) -> "nowhere")).state("b"));
        StateMachine<Ctx> fsm = new StateMachine<>(def, new Ctx());
        MachineException e = assertThrows(MachineException.class, () -> fsm.send("e"));
        assertTrue(e.getMessage().contains("'e' handler of state 'a' returned 'nowhere'"), e.getMessage());
        assertEquals("a", fsm.state());
    }

    @Test
    void a_guard_that_throws_names_machine_state_and_event_and_the_step_can_continue() {
        StatesDef<Ctx> def = StatesDef.<Ctx>define("m", d -> d
                .state("a", s -> s.to("b", (c, t) -> {
                    if (c.boom) {
                        throw new IllegalStateException("sensor broke");
                    }
                    return t >= 2;
                }))
                .state("b"));
        Ctx ctx = new Ctx();
        StateMachine<Ctx> fsm = new StateMachine<>(def, ctx);
        ctx.boom = true;
        UserCodeException e = assertThrows(UserCodeException.class, () -> fsm.step(1));
        assertEquals("a", e.statePath());
        assertEquals("step", e.eventType());
        assertTrue(e.getMessage().contains("machine 'm'") && e.getMessage().contains("sensor broke"), e.getMessage());
        ctx.boom = false;
        fsm.step(1);
        assertEquals("b", fsm.state());
    }

    @Test
    void an_enter_that_throws_leaves_the_new_branch_whole_and_the_machine_usable() {
        StatesDef<Ctx> def = StatesDef.<Ctx>define("m", d -> d
                .state("a", s -> s.on("go", "b"))
                .state("b", s -> s
                        .enter((c, f) -> {
                            c.calls.add("enter b");
                            throw new IllegalArgumentException("bad asset");
                        })
                        .state("b1", x -> x.enter((c, f) -> c.calls.add("enter b1")))
                        .on("back", "a")));
        Ctx ctx = new Ctx();
        StateMachine<Ctx> fsm = new StateMachine<>(def, ctx);
        UserCodeException e = assertThrows(UserCodeException.class, () -> fsm.send("go"));
        assertEquals("b", e.statePath());
        assertEquals("go", e.eventType());
        assertEquals("b.b1", fsm.state(), "no half-entered branch: the record holds b and b1");
        assertEquals(List.of("b", "b.b1"), fsm.branch());
        assertEquals(List.of("enter b"), ctx.calls, "the callbacks after the one that threw do not run");
        assertTrue(fsm.send("back"));
        assertEquals("a", fsm.state());
    }

    @Test
    void an_event_no_state_names_is_refused_listing_the_known_events_unless_the_machine_accepts_them() {
        StatesDef<Ctx> strict = StatesDef.<Ctx>define("m", d -> d.on("hit", "a").state("a", s -> s.on("use", "a")));
        StateMachine<Ctx> fsm = new StateMachine<>(strict, new Ctx());
        UnknownEventException e = assertThrows(UnknownEventException.class, () -> fsm.send("hti"));
        assertTrue(e.getMessage().contains("hit") && e.getMessage().contains("use"), e.getMessage());
        StatesDef<Ctx> lenient = StatesDef.<Ctx>define("m", d -> d.unknownEvents(UnknownEvents.ACCEPT).state("a"));
        assertFalse(new StateMachine<>(lenient, new Ctx()).send("anything"), "the document's send: false when nobody handled it");
    }

    @Test
    void go_to_an_unknown_name_is_refused_and_changes_nothing() {
        StatesDef<Ctx> def = StatesDef.<Ctx>define("m", d -> d.state("patrol").state("combat"));
        StateMachine<Ctx> fsm = new StateMachine<>(def, new Ctx());
        MachineException e = assertThrows(MachineException.class, () -> fsm.go("combta"));
        assertEquals("m", e.machineId());
        assertTrue(e.getMessage().contains("did you mean 'combat'?"), e.getMessage());
        assertEquals("patrol", fsm.state());
    }

    @Test
    void is_and_time_in_refuse_a_name_that_names_no_state() {
        StateMachine<Ctx> fsm = new StateMachine<>(StatesDef.<Ctx>define("m", d -> d.state("patrol")), new Ctx());
        MachineException e = assertThrows(MachineException.class, () -> fsm.is("patrl"));
        assertEquals("m", e.machineId());
        assertTrue(e.getMessage().contains("machine 'm'") && e.getMessage().contains("did you mean 'patrol'?"), e.getMessage());
        assertThrows(MachineException.class, () -> fsm.timeIn("x"));
        assertThrows(MachineException.class, () -> StateMachine.startIn(StatesDef.<Ctx>define("m", d -> d.state("patrol")), new Ctx(), "x"));
    }

    @Test
    void a_bad_step_is_refused_and_changes_nothing() {
        StateMachine<Ctx> fsm = new StateMachine<>(StatesDef.<Ctx>define("m", d -> d.state("a", s -> s.after(1, "b")).state("b")), new Ctx());
        for (double dt : new double[] {-1, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThrows(IllegalArgumentException.class, () -> fsm.step(dt));
        }
        assertEquals(0, fsm.time());
    }

    @Test
    void a_step_longer_than_the_checkpoints_limit_is_refused_and_changes_nothing() {
        StateMachine<Ctx> polled = new StateMachine<>(StatesDef.<Ctx>define("m", d -> d.state("a", s -> s.after(1, "b")).state("b")), new Ctx());
        StateMachine<Object> xstate = new StateMachine<>(dev.enginestates.Machine.define("x", () -> null, m -> m
                .initial("a").state("a", s -> s.waitFor(1, "b")).state("b")));
        for (StateMachine<?> fsm : List.<StateMachine<?>>of(polled, xstate)) {
            for (double dt : new double[] {1e13, Math.nextUp(1e12), Double.MAX_VALUE, Double.MAX_VALUE}) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> fsm.step(dt));
                assertTrue(e.getMessage().contains("machine '" + fsm.machineId() + "'") && e.getMessage().contains("step(" + dt + ")")
                        && e.getMessage().contains("1.0E12"), e.getMessage());
            }
            assertEquals(0, fsm.totalTime(), "nothing changed");
            assertEquals("a", fsm.state());
            fsm.step(1e12); // the bound itself is a step
            assertEquals(1e12, fsm.totalTime());
            assertEquals("b", fsm.state());
        }
    }

    @Test
    void moving_the_machine_from_its_own_code_is_refused_with_a_hint() {
        StateMachine<?>[] self = new StateMachine<?>[1];
        StatesDef<Ctx> def = StatesDef.<Ctx>define("m", d -> d
                .state("a", s -> s.on("go", "b"))
                .state("b", s -> s.enter((c, f) -> self[0].go("a"))));
        StateMachine<Ctx> fsm = new StateMachine<>(def, new Ctx());
        self[0] = fsm;
        UserCodeException e = assertThrows(UserCodeException.class, () -> fsm.send("go"));
        assertTrue(e.getCause() instanceof IllegalStateException && e.getCause().getMessage().contains("return a state name"),
                String.valueOf(e.getCause()));
        assertEquals("b", fsm.state());
    }
}

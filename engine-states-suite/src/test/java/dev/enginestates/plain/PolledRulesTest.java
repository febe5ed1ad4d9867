package dev.enginestates.plain;

import dev.enginestates.StatesDef;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every rule of the {@code 000} document ({@code ../shared/seeds/000_*.txt}), each in a test
 * named after it, on the plain face. Quotes are the document's.
 */
class PolledRulesTest {
    static final double DT = 1 / 60.0;

    /** The document's "At a glance" bot. */
    static final class Bot {
        int hp = 100;
        boolean target;
        boolean visible;
        double dist = 99;
        double lostFor;
        boolean fire;
        final List<String> log = new ArrayList<>();
    }

    static final StatesDef<Bot> GUARD = StatesDef.<Bot>define("guard", d -> d
            .initial("patrol")
            .on("hit", "flinch")
            .to("dead", (b, t) -> b.hp <= 0)
            .state("patrol", s -> s.to("combat", (b, t) -> b.target))
            .state("combat", s -> s
                    .initial("engage")
                    .to("search", (b, t) -> b.lostFor > 4)
                    .state("engage", e -> e.to("shoot", (b, t) -> b.visible && b.dist < 12))
                    .state("shoot", e -> e
                            .enter((b, from) -> b.fire = true)
                            .exit((b, to) -> b.fire = false)
                            .to("engage", (b, t) -> !b.visible)))
            .state("search", s -> s.after(6, "patrol"))
            .state("flinch", s -> s.after(0.2, "$back"))
            .state("dead", s -> s.enter((b, from) -> b.log.add("down"))));

    /** Records every call a machine makes, in order. */
    static final class Trace {
        final List<String> calls = new ArrayList<>();
    }

    @Nested
    class AtAGlance {
        @Test
        void the_documents_bot_gives_the_documents_results() {
            Bot bot = new Bot();
            StateMachine<Bot> fsm = new StateMachine<>(GUARD, bot);
            List<String> changes = new ArrayList<>();
            fsm.on("change", (to, from) -> changes.add(from + ">" + to));
            assertEquals("patrol", fsm.state(), "enters 'patrol' now");

            bot.target = true;
            fsm.step(1 / 60.0);
            assertEquals("combat.engage", fsm.state());
            assertTrue(fsm.is("combat"), "true while any combat child is active");

            assertTrue(fsm.send("hit"));
            assertEquals("flinch", fsm.state(), "→ 'flinch'");
            for (int i = 0; i < 12; i++) {
                fsm.step(1 / 60.0);
            }
            assertEquals("combat.engage", fsm.state(), "back to 'combat.engage' 0.2 s later");
            assertEquals(List.of("patrol>combat.engage", "combat.engage>flinch", "flinch>combat.engage"), changes);
        }

        @Test
        void shoot_sets_fire_on_enter_and_clears_it_on_exit() {
            Bot bot = new Bot();
            StateMachine<Bot> fsm = new StateMachine<>(GUARD, bot);
            bot.target = true;
            bot.visible = true;
            bot.dist = 5;
            fsm.step(DT);
            assertEquals("combat.shoot", fsm.state(), "patrol → combat.engage → combat.shoot chain in one step");
            assertTrue(bot.fire);
            bot.visible = false;
            fsm.step(DT);
            assertEquals("combat.engage", fsm.state());
            assertFalse(bot.fire);
        }

        @Test
        void any_state_guard_dead_fires_once_and_logs_down_once() {
            Bot bot = new Bot();
            StateMachine<Bot> fsm = new StateMachine<>(GUARD, bot);
            bot.hp = 0;
            for (int i = 0; i < 10; i++) {
                fsm.step(DT);
            }
            assertEquals("dead", fsm.state());
            assertEquals(List.of("down"), bot.log, "fires once, not every step while it stays true");
        }

        @Test
        void combat_to_search_leaves_whichever_child_is_active() {
            Bot bot = new Bot();
            StateMachine<Bot> fsm = StateMachine.startIn(GUARD, bot, "combat.shoot");
            bot.fire = true;
            bot.visible = true;
            bot.lostFor = 5;
            fsm.step(DT);
            assertEquals("search", fsm.state());
            assertFalse(bot.fire, "shoot's exit ran on the way out of combat");
        }

        @Test
        void search_goes_back_to_patrol_after_6_seconds() {
            Bot bot = new Bot();
            StateMachine<Bot> fsm = StateMachine.startIn(GUARD, bot, "search");
            for (int i = 0; i < 359; i++) {
                fsm.step(DT);
            }
            assertEquals("search", fsm.state());
            fsm.step(DT);
            assertEquals("patrol", fsm.state(), "360 steps of 1/60 s make 6 s");
        }
    }

    @Nested
    class Construction {
        @Test
        void construction_enters_the_initial_branch_outermost_first_with_from_empty_and_no_change_event() {
            Trace tr = new Trace();
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .state("a", s -> s
                            .enter((c, from) -> c.calls.add("enter a from '" + from + "'"))
                            .state("b", b -> b.enter((c, from) -> c.calls.add("enter b from '" + from + "'")))));
            StateMachine<Trace> fsm = new StateMachine<>(def, tr);
            assertEquals(List.of("enter a from ''", "enter b from ''"), tr.calls);
            assertEquals("a.b", fsm.state(), "initial children default to the first");
            assertEquals("", fsm.previous(), "'' at start");
        }

        @Test
        void on_change_is_not_called_for_construction() {
            // the plain face cannot listen before its constructor returns; what shows is that construction left no
            // change behind: a listener added after it hears nothing until the first transition, and then only that one
            List<String> seen = new ArrayList<>();
            StateMachine<Trace> fsm = new StateMachine<>(StatesDef.<Trace>define("m", d -> d.state("a").state("b")), new Trace());
            fsm.on("change", (to, from) -> seen.add(from + ">" + to));
            fsm.step(0.1);
            assertTrue(seen.isEmpty(), "heard " + seen + " before any transition");
            fsm.go("b");
            assertEquals(List.of("a>b"), seen);
        }
    }

    @Nested
    class StepOrder {
        @Test
        void every_active_states_clock_advances_then_guards_see_it() {
            List<Double> seen = new ArrayList<>();
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .to("x", (c, t) -> { seen.add(t); return false; })
                    .state("a", s -> s
                            .to("x", (c, t) -> { seen.add(t); return false; })
                            .state("b", b -> b.to("x", (c, t) -> { seen.add(t); return false; })))
                    .state("x"));
            StateMachine<Trace> fsm = new StateMachine<>(def, new Trace());
            fsm.step(0.5);
            fsm.step(0.25);
            assertEquals(List.of(0.5, 0.5, 0.5, 0.75, 0.75, 0.75), seen, "root, a and a.b each saw its own clock");
            assertEquals(0.75, fsm.time());
            assertEquals(0.75, fsm.timeIn("a"));
            assertEquals(0.75, fsm.totalTime(), "the root's t is the total");
        }

        @Test
        void transitions_are_tested_outermost_first_the_roots_to_then_each_state_in_declaration_order_and_its_after() {
            Trace tr = new Trace();
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .to("r", (c, t) -> { c.calls.add("root"); return false; })
                    .state("a", s -> s
                            .to("p", (c, t) -> { c.calls.add("a.1"); return false; })
                            .to("q", (c, t) -> { c.calls.add("a.2"); return false; })
                            .state("b", b -> b.to("p", (c, t) -> { c.calls.add("b"); return true; })))
                    .state("p").state("q").state("r"));
            StateMachine<Trace> fsm = new StateMachine<>(def, tr);
            fsm.step(DT);
            assertEquals(List.of("root", "a.1", "a.2", "b", "root"), tr.calls,
                    "a parent's guards before its child's (unlike the 003 document), then the new branch is tested again");
            assertEquals("p", fsm.state());
        }

        @Test
        void after_is_due_on_the_step_that_completes_its_seconds_at_60_hz() {
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d.state("a", s -> s.after(0.2, "b")).state("b"));
            StateMachine<Trace> fsm = new StateMachine<>(def, new Trace());
            for (int i = 0; i < 11; i++) {
                fsm.step(1 / 60.0);
            }
            assertEquals("a", fsm.state());
            fsm.step(1 / 60.0);
            assertEquals("b", fsm.state(), "the twelfth step, though twelve sixtieths sum a hair below 0.2");
        }

        @Test
        void t_is_the_sum_of_the_steps_as_exactly_as_a_double_holds_it_so_a_guard_on_t_fires_on_time() {
            // the document's Note: "a per-instance duration is a guard on t (to: { ready: (g, t) => t >= g.cooldown })"
            for (double hz : new double[] {30, 60, 144}) {
                for (double seconds : new double[] {0.25, 0.5, 1, 2, 3, 5, 7, 8, 10}) {
                    StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                            .state("cooldown", s -> s.to("ready", (c, t) -> t >= seconds)).state("ready"));
                    StateMachine<Trace> fsm = new StateMachine<>(def, new Trace());
                    long steps = Math.round(seconds * hz);
                    for (long i = 1; i < steps; i++) {
                        fsm.step(1 / hz);
                    }
                    assertEquals("cooldown", fsm.state(), seconds + " s at " + hz + " Hz, one step early");
                    fsm.step(1 / hz);
                    assertEquals("ready", fsm.state(), seconds + " s at " + hz + " Hz: on step " + steps);
                }
            }
        }

        @Test
        void a_states_to_guards_come_before_its_after() {
            Trace tr = new Trace();
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .state("a", s -> s.after(0, "late").to("early", (c, t) -> true))
                    .state("early").state("late"));
            StateMachine<Trace> fsm = new StateMachine<>(def, tr);
            fsm.step(DT);
            assertEquals("early", fsm.state());
        }

        @Test
        void the_first_true_guard_wins() {
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .state("a", s -> s.to("b", (c, t) -> true).to("c", (c, t) -> true))
                    .state("b").state("c"));
            StateMachine<Trace> fsm = new StateMachine<>(def, new Trace());
            fsm.step(DT);
            assertEquals("b", fsm.state());
        }

        @Test
        void a_taken_transition_is_retested_from_the_new_state_pass_through_states_chain_in_one_step() {
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .state("a", s -> s.to("b", (c, t) -> true))
                    .state("b", s -> s.after(0, "c"))
                    .state("c", s -> s.to("d", (c, t) -> true))
                    .state("d"));
            StateMachine<Trace> fsm = new StateMachine<>(def, new Trace());
            List<String> changes = new ArrayList<>();
            fsm.on("change", (to, from) -> changes.add(to));
            fsm.step(DT);
            assertEquals("d", fsm.state());
            assertEquals(List.of("b", "c", "d"), changes);
        }

        @Test
        void at_most_8_hops_a_step_the_rest_waits_for_the_next_step() {
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> {
                for (int i = 0; i < 20; i++) {
                    String next = "s" + (i + 1);
                    d.state("s" + i, s -> s.to(next, (c, t) -> true));
                }
                d.state("s20");
            });
            StateMachine<Trace> fsm = new StateMachine<>(def, new Trace());
            fsm.step(DT);
            assertEquals("s8", fsm.state(), "8 hops");
            fsm.step(DT);
            assertEquals("s16", fsm.state());
            fsm.step(DT);
            assertEquals("s20", fsm.state());
        }

        @Test
        void update_runs_outermost_to_innermost_after_the_guards() {
            Trace tr = new Trace();
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .update((c, dt, t) -> { c.calls.add("root " + t); return null; })
                    .state("a", s -> s
                            .to("a.c", (c, t) -> { c.calls.add("guard"); return true; })
                            .update((c, dt, t) -> { c.calls.add("a " + t); return null; })
                            .state("b")
                            .state("c", x -> x.update((c, dt, t) -> { c.calls.add("c " + t + " dt " + dt); return null; }))));
            StateMachine<Trace> fsm = new StateMachine<>(def, tr);
            fsm.step(0.5);
            assertEquals(List.of("guard", "root 0.5", "a 0.5", "c 0.0 dt 0.5"), tr.calls,
                    "the states a guard entered in this step update in it, their t starting at 0");
        }

        @Test
        void an_update_that_returns_a_name_transitions_there_and_ends_the_pass() {
            Trace tr = new Trace();
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .update((c, dt, t) -> { c.calls.add("root"); return "b"; })
                    .state("a", s -> s.update((c, dt, t) -> { c.calls.add("a"); return null; }))
                    .state("b", s -> s
                            .to("a", (c, t) -> { c.calls.add("b guard"); return false; })
                            .update((c, dt, t) -> { c.calls.add("b"); return null; })));
            StateMachine<Trace> fsm = new StateMachine<>(def, tr);
            fsm.step(DT);
            assertEquals("b", fsm.state());
            assertEquals(List.of("root"), tr.calls, "a's update did not run; the states it entered update next step");
            tr.calls.clear();
            fsm.step(DT);
            assertEquals(List.of("b guard", "root", "b"), tr.calls,
                    "the root update names 'b' again, which is active: only go() and events re-enter, so it stays and b's update runs");
            assertEquals(DT, fsm.time(), 1e-12, "b was not re-entered: its clock runs on");
        }

        @Test
        void update_gets_dt_and_the_declaring_states_t() {
            List<String> seen = new ArrayList<>();
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .state("a", s -> s.update((c, dt, t) -> { seen.add(dt + "/" + t); return null; })));
            StateMachine<Trace> fsm = new StateMachine<>(def, new Trace());
            fsm.step(0.25);
            fsm.step(0.5);
            assertEquals(List.of("0.25/0.25", "0.5/0.75"), seen);
        }
    }

    @Nested
    class Reentry {
        @Test
        void a_guard_never_reenters_a_state_that_is_already_active() {
            Trace tr = new Trace();
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .to("a", (c, t) -> true)
                    .state("a", s -> s.enter((c, from) -> c.calls.add("enter a")).exit((c, to) -> c.calls.add("exit a"))));
            StateMachine<Trace> fsm = new StateMachine<>(def, tr);
            for (int i = 0; i < 5; i++) {
                fsm.step(DT);
            }
            assertEquals(List.of("enter a"), tr.calls);
            assertEquals(5 * DT, fsm.time(), 1e-12, "its clock was never reset");
        }

        @Test
        void a_guard_whose_target_is_an_active_ancestor_is_skipped() {
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .state("combat", s -> s.state("engage", e -> e.to("combat", (c, t) -> true)).state("shoot")));
            StateMachine<Trace> fsm = new StateMachine<>(def, new Trace());
            fsm.step(DT);
            assertEquals("combat.engage", fsm.state());
            assertEquals(DT, fsm.time());
        }

        @Test
        void go_to_the_active_state_runs_exit_then_enter() {
            Trace tr = new Trace();
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .state("patrol", s -> s.enter((c, from) -> c.calls.add("enter from " + from)).exit((c, to) -> c.calls.add("exit to " + to))));
            StateMachine<Trace> fsm = new StateMachine<>(def, tr);
            fsm.step(1);
            tr.calls.clear();
            fsm.go("patrol");
            assertEquals(List.of("exit to patrol", "enter from patrol"), tr.calls);
            assertEquals(0, fsm.time(), "re-entered: its clock starts again");
            assertEquals("patrol", fsm.previous());
        }

        @Test
        void events_reenter_the_active_state() {
            Trace tr = new Trace();
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .state("a", s -> s.on("again", "a").enter((c, from) -> c.calls.add("enter"))));
            StateMachine<Trace> fsm = new StateMachine<>(def, tr);
            fsm.step(1);
            assertTrue(fsm.send("again"));
            assertEquals(List.of("enter", "enter"), tr.calls);
            assertEquals(0, fsm.time());
        }

        @Test
        void go_to_an_active_compound_exits_and_reenters_it_into_its_initial_child() {
            Trace tr = new Trace();
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .state("combat", s -> s
                            .enter((c, f) -> c.calls.add("enter combat")).exit((c, t) -> c.calls.add("exit combat"))
                            .state("engage", e -> e.enter((c, f) -> c.calls.add("enter engage")).exit((c, t) -> c.calls.add("exit engage")))
                            .state("shoot", e -> e.enter((c, f) -> c.calls.add("enter shoot")).exit((c, t) -> c.calls.add("exit shoot")))));
            StateMachine<Trace> fsm = StateMachine.startIn(def, tr, "combat.shoot");
            fsm.go("combat");
            assertEquals(List.of("exit shoot", "exit combat", "enter combat", "enter engage"), tr.calls);
        }
    }

    @Nested
    class EntryAndExit {
        @Test
        void exits_run_innermost_first_up_to_the_common_ancestor_entries_outermost_first_into_initial_children() {
            Trace tr = new Trace();
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .state("a", s -> s
                            .exit((c, to) -> c.calls.add("exit a to " + to))
                            .state("a1", x -> x
                                    .exit((c, to) -> c.calls.add("exit a1 to " + to))
                                    .state("a11", y -> y.exit((c, to) -> c.calls.add("exit a11 to " + to))
                                            .to("b", (c, t) -> true))))
                    .state("b", s -> s
                            .enter((c, from) -> c.calls.add("enter b from " + from))
                            .initial("b2")
                            .state("b1", x -> x.enter((c, from) -> c.calls.add("enter b1")))
                            .state("b2", x -> x.enter((c, from) -> c.calls.add("enter b2 from " + from)))));
            StateMachine<Trace> fsm = new StateMachine<>(def, tr);
            fsm.step(DT);
            assertEquals(List.of("exit a11 to b.b2", "exit a1 to b.b2", "exit a to b.b2", "enter b from a.a1.a11", "enter b2 from a.a1.a11"),
                    tr.calls);
            assertEquals("b.b2", fsm.state());
        }

        @Test
        void the_common_ancestor_is_neither_exited_nor_entered() {
            Trace tr = new Trace();
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .state("combat", s -> s
                            .enter((c, f) -> c.calls.add("enter combat")).exit((c, t) -> c.calls.add("exit combat"))
                            .state("engage", e -> e.to("shoot", (c, t) -> true))
                            .state("shoot")));
            StateMachine<Trace> fsm = new StateMachine<>(def, tr);
            tr.calls.clear();
            fsm.step(DT);
            assertEquals("combat.shoot", fsm.state());
            assertEquals(List.of(), tr.calls);
            assertEquals(DT, fsm.timeIn("combat"), "combat's clock kept running");
            assertEquals(0, fsm.time());
        }

        @Test
        void a_compound_states_exit_is_the_one_place_to_undo_what_its_children_set() {
            Bot bot = new Bot();
            StatesDef<Bot> def = StatesDef.<Bot>define("m", d -> d
                    .on("stop", "idle")
                    .state("combat", s -> s.exit((b, to) -> b.fire = false)
                            .state("shoot", x -> x.enter((b, f) -> b.fire = true)))
                    .state("idle"));
            StateMachine<Bot> fsm = new StateMachine<>(def, bot);
            assertTrue(bot.fire);
            fsm.send("stop");
            assertFalse(bot.fire);
        }
    }

    @Nested
    class After {
        @Test
        void after_leaves_after_that_many_seconds_in_the_state() {
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .state("a", s -> s.after(1, "b")).state("b"));
            StateMachine<Trace> fsm = new StateMachine<>(def, new Trace());
            fsm.step(0.5);
            assertEquals("a", fsm.state());
            fsm.step(0.49);
            assertEquals("a", fsm.state());
            fsm.step(0.01);
            assertEquals("b", fsm.state());
        }

        @Test
        void after_counts_time_in_its_own_state_so_a_compound_after_spans_its_children() {
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .state("round", s -> s.after(3, "over")
                            .state("a", x -> x.after(1, "b"))
                            .state("b", x -> x.after(1, "a")))
                    .state("over"));
            StateMachine<Trace> fsm = new StateMachine<>(def, new Trace());
            for (int i = 0; i < 5; i++) {
                fsm.step(0.5);
            }
            assertTrue(fsm.is("round"));
            fsm.step(0.5);
            assertEquals("over", fsm.state());
        }

        // The 000 document's after: [seconds, target] "leave after `seconds` in this state", read as the
        // 003 document's (XState's) delayed transition: scheduled when its state is entered, fired once.

        @Test
        void an_after_fires_once_per_stay_so_a_target_inside_its_own_state_does_not_fire_it_again() {
            Trace tr = new Trace();
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .state("a", a -> a.after(1, "c2")
                            .state("c1")
                            .state("c2", c -> c.enter((x, from) -> x.calls.add("enter c2 from " + from)))));
            StateMachine<Trace> fsm = new StateMachine<>(def, tr);
            for (int i = 0; i < 120; i++) {
                fsm.step(DT);
            }
            assertEquals("a.c2", fsm.state());
            assertEquals(List.of("enter c2 from a.c1"), tr.calls, "a stays active, so its after does not fire again");
            assertEquals(1.0, fsm.time(), 1e-9, "c2 entered once, at a's 1 s");
        }

        @Test
        void seconds_left_skips_a_spent_after_for_the_next_one_out() {
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .state("round", r -> r.after(10, "over")
                            .state("a", a -> a.after(1, "c2").state("c1").state("c2")))
                    .state("over"));
            StateMachine<Trace> fsm = new StateMachine<>(def, new Trace());
            fsm.step(0.5);
            assertEquals(0.5, fsm.secondsLeft(), 1e-9, "a's after counts");
            fsm.step(1);
            assertEquals("round.a.c2", fsm.state());
            assertEquals(8.5, fsm.secondsLeft(), 1e-9, "a's after is spent: round's counts");
        }

        /**
         * The 000 document: "a guard never re-enters a state that is already active ... Only go() and events
         * re-enter (go('patrol') from patrol runs exit then enter)." An after naming its own state is spent and
         * moves nothing; go() re-enters, and then the after counts again.
         */
        @Test
        void a_self_targeting_after_does_not_reenter_only_go_and_events_do() {
            Trace tr = new Trace();
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .state("a", a -> a.after(2, "a").enter((x, from) -> x.calls.add("enter a")).exit((x, to) -> x.calls.add("exit a"))));
            StateMachine<Trace> fsm = new StateMachine<>(def, tr);
            for (int i = 0; i < 12; i++) {
                fsm.step(0.5);
            }
            assertEquals(List.of("enter a"), tr.calls, "entered at the start only");
            assertEquals(6, fsm.time(), 1e-9, "a's clock ran on through its after");
            fsm.go("a");
            assertEquals(List.of("enter a", "exit a", "enter a"), tr.calls, "go() re-enters");
            assertEquals(0, fsm.time());
        }

        /** The same rule for an after naming an active ancestor, or $back when the previous leaf is the active one. */
        @Test
        void an_after_naming_an_active_ancestor_or_back_to_the_active_leaf_moves_nothing() {
            Trace tr = new Trace();
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .state("p", p -> p
                            .state("x", x -> x.after(1, "p").enter((c, from) -> c.calls.add("enter x")))
                            .state("y", y -> y.after(1, "$back").enter((c, from) -> c.calls.add("enter y")))));
            StateMachine<Trace> fsm = new StateMachine<>(def, tr);
            fsm.step(1.5);
            assertEquals("p.x", fsm.state());
            assertEquals(List.of("enter x"), tr.calls, "x's after names p, active: nothing moves");
            fsm.go("p.y");
            fsm.go("p.y"); // re-entered by go: the previous leaf is p.y itself
            assertEquals("p.y", fsm.previous());
            tr.calls.clear();
            fsm.step(1.5);
            assertEquals("p.y", fsm.state());
            assertEquals(List.of(), tr.calls, "$back names p.y, the active leaf: nothing moves");
        }

        @Test
        void a_compound_after_to_back_with_the_previous_leaf_inside_it_moves_once_and_does_not_bounce() {
            final class Bot {
                boolean see = true;
            }
            StatesDef<Bot> def = StatesDef.<Bot>define("m", d -> d
                    .state("combat", c -> c.after(3, "$back")
                            .state("engage", e -> e.to("shoot", (b, t) -> b.see && t >= 1))
                            .state("shoot")));
            Bot bot = new Bot();
            StateMachine<Bot> fsm = new StateMachine<>(def, bot);
            List<String> changes = new ArrayList<>();
            fsm.on("change", (to, from) -> changes.add(from + ">" + to));
            fsm.step(1);
            bot.see = false;
            for (int i = 0; i < 10; i++) {
                fsm.step(0.5);
            }
            assertEquals(List.of("combat.engage>combat.shoot", "combat.shoot>combat.engage"), changes,
                    "$back to engage at combat's 3 s, once: combat stays active, so its after is spent");
            assertEquals("combat.engage", fsm.state());
        }

        /** A context a checkpoint can save: public fields. */
        public static final class Count {
            public int c2;
        }

        @Test
        void a_spent_after_stays_spent_through_a_checkpoint_so_checkpoint_and_go_on_equals_run_straight_through() throws Exception {
            StatesDef<Count> def = StatesDef.<Count>define("spent", Count::new, d -> d
                    .state("a", a -> a.after(1, "c2")
                            .state("c1")
                            .state("c2", c -> c.enter((x, from) -> x.c2++))));
            dev.enginestates.ecs.States<Count> states = dev.enginestates.ecs.States.of(def);
            dev.enginestates.io.Saves saves = dev.enginestates.io.Saves.of(states);
            try (dev.enginestates.ecs.StateWorld straight = dev.enginestates.ecs.StateWorld.create();
                    dev.enginestates.ecs.StateWorld before = dev.enginestates.ecs.StateWorld.create();
                    dev.enginestates.ecs.StateWorld after = dev.enginestates.ecs.StateWorld.create();
                    dev.enginestates.ecs.StateWorld old = dev.enginestates.ecs.StateWorld.create()) {
                straight.spawn(dev.enginestates.ecs.EntityKey.of("x"), states.trait(new Count()));
                before.spawn(dev.enginestates.ecs.EntityKey.of("x"), states.trait(new Count()));
                for (int i = 0; i < 90; i++) {
                    straight.step(DT);
                    before.step(DT);
                }
                String checkpoint = saves.checkpoint(before);
                com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
                com.fasterxml.jackson.databind.node.ObjectNode record = (com.fasterxml.jackson.databind.node.ObjectNode) json
                        .readTree(checkpoint).path("entities").path("x").path("spent");
                assertEquals("[\"a\"]", record.path("afterFired").toString(), checkpoint);
                saves.restoreSpawningMissing(after, checkpoint);
                for (int i = 0; i < 90; i++) {
                    straight.step(DT);
                    after.step(DT);
                }
                assertEquals(1, states.read(after.entity("x")).context().c2, "restored, the spent after does not fire again");
                assertEquals(saves.checkpoint(straight), saves.checkpoint(after));

                // a checkpoint written before the field was: the after reads as not fired yet
                com.fasterxml.jackson.databind.JsonNode older = json.readTree(checkpoint);
                ((com.fasterxml.jackson.databind.node.ObjectNode) older.path("entities").path("x").path("spent")).remove("afterFired");
                saves.restoreSpawningMissing(old, json.writeValueAsString(older));
                assertEquals("a.c2", states.read(old.entity("x")).state());
            }
        }

        @Test
        void a_per_instance_duration_is_a_guard_on_t() {
            final class Gun {
                double cooldown = 0.3;
            }
            StatesDef<Gun> def = StatesDef.<Gun>define("gun", d -> d
                    .state("cooldown", s -> s.to("ready", (g, t) -> t >= g.cooldown))
                    .state("ready"));
            StateMachine<Gun> fsm = new StateMachine<>(def, new Gun());
            fsm.step(0.2);
            assertEquals("cooldown", fsm.state());
            fsm.step(0.1);
            assertEquals("ready", fsm.state());
        }
    }

    @Nested
    class Events {
        @Test
        void events_go_to_the_innermost_active_state_first_and_the_roots_on_last() {
            Trace tr = new Trace();
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .on("e", (c, args) -> { c.calls.add("root"); return null; })
                    .state("a", s -> s
                            .on("e", (c, args) -> { c.calls.add("a"); return null; })
                            .state("b", x -> x.on("e", (c, args) -> { c.calls.add("b"); return null; }))
                            .state("c")));
            StateMachine<Trace> fsm = new StateMachine<>(def, tr);
            assertTrue(fsm.send("e"));
            assertEquals(List.of("b"), tr.calls, "the event stops at the innermost state that names it");
            fsm.go("c");
            assertTrue(fsm.send("e"));
            assertEquals(List.of("b", "a"), tr.calls);
        }

        @Test
        void a_handler_that_returns_nothing_still_handles_the_event_and_a_state_can_swallow_one_the_root_would_act_on() {
            StatesDef<Bot> def = StatesDef.<Bot>define("m", d -> d
                    .on("hit", "flinch")
                    .state("alive")
                    .state("dead", s -> s.on("hit", (b, args) -> null))
                    .state("flinch"));
            StateMachine<Bot> fsm = StateMachine.startIn(def, new Bot(), "dead");
            assertTrue(fsm.send("hit"), "true = handled");
            assertEquals("dead", fsm.state());
        }

        @Test
        void a_handler_that_returns_a_name_transitions_there_and_receives_the_arguments() {
            Bot bot = new Bot();
            StatesDef<Bot> def = StatesDef.<Bot>define("m", d -> d
                    .on("hit", (b, args) -> {
                        b.hp -= (Integer) args[0];
                        return b.hp <= 0 ? "dead" : null;
                    })
                    .state("alive").state("dead"));
            StateMachine<Bot> fsm = new StateMachine<>(def, bot);
            assertTrue(fsm.send("hit", 60));
            assertEquals("alive", fsm.state());
            assertTrue(fsm.send("hit", 60));
            assertEquals("dead", fsm.state());
            assertEquals(-20, bot.hp);
        }

        @Test
        void send_returns_false_when_no_active_state_names_the_event() {
            StatesDef<Bot> def = StatesDef.<Bot>define("m", d -> d
                    .state("a").state("b", s -> s.on("e", "a")));
            StateMachine<Bot> fsm = new StateMachine<>(def, new Bot());
            assertFalse(fsm.send("e"));
            assertEquals("a", fsm.state());
        }

        @Test
        void a_string_on_target_resolves_relative_to_the_declaring_state() {
            StatesDef<Bot> def = StatesDef.<Bot>define("m", d -> d
                    .state("combat", s -> s.state("engage", e -> e.on("aim", "shoot")).state("shoot")));
            StateMachine<Bot> fsm = new StateMachine<>(def, new Bot());
            assertTrue(fsm.send("aim"));
            assertEquals("combat.shoot", fsm.state());
        }
    }

    @Nested
    class Back {
        @Test
        void back_is_the_leaf_active_before_the_last_transition() {
            StatesDef<Bot> def = StatesDef.<Bot>define("m", d -> d
                    .on("hit", "flinch")
                    .state("a", s -> s.on("next", "b"))
                    .state("b")
                    .state("flinch", s -> s.on("done", "$back")));
            StateMachine<Bot> fsm = new StateMachine<>(def, new Bot());
            fsm.send("next");
            fsm.send("hit");
            assertEquals("b", fsm.previous());
            fsm.send("done");
            assertEquals("b", fsm.state());
            assertEquals("flinch", fsm.previous());
        }

        @Test
        void back_into_a_compound_state_reruns_its_enter_and_lands_on_the_same_leaf() {
            Trace tr = new Trace();
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .on("hit", "flinch")
                    .state("combat", s -> s.enter((c, from) -> c.calls.add("enter combat from " + from))
                            .state("engage", e -> e.to("shoot", (c, t) -> true))
                            .state("shoot"))
                    .state("flinch", s -> s.after(0.2, "$back")));
            StateMachine<Trace> fsm = new StateMachine<>(def, tr);
            fsm.step(DT);
            assertEquals("combat.shoot", fsm.state());
            fsm.send("hit");
            fsm.step(0.1);
            fsm.step(0.1);
            assertEquals("combat.shoot", fsm.state(), "the leaf itself, not combat's initial child");
            assertEquals(List.of("enter combat from ", "enter combat from flinch"), tr.calls);
        }

        @Test
        void an_update_may_return_back() {
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .state("a", s -> s.to("b", (c, t) -> t > 0.5))
                    .state("b", s -> s.update((c, dt, t) -> t >= 1 ? "$back" : null)));
            StateMachine<Trace> fsm = new StateMachine<>(def, new Trace());
            fsm.step(0.6);
            assertEquals("b", fsm.state());
            fsm.step(1);
            assertEquals("a", fsm.state());
        }
    }

    @Nested
    class Names {
        @Test
        void names_resolve_relative_first_siblings_before_ancestors_siblings() {
            // 'x' is both a sibling of a1 (inside a) and a top-level state: the sibling wins
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .state("a", s -> s.state("a1", x -> x.to("x", (c, t) -> true)).state("x"))
                    .state("x"));
            StateMachine<Trace> fsm = new StateMachine<>(def, new Trace());
            fsm.step(DT);
            assertEquals("a.x", fsm.state());
        }

        @Test
        void a_compound_state_may_name_its_own_children() {
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .state("combat", s -> s.to("shoot", (c, t) -> t > 0.5).state("engage").state("shoot")));
            StateMachine<Trace> fsm = new StateMachine<>(def, new Trace());
            fsm.step(1);
            assertEquals("combat.shoot", fsm.state());
        }

        @Test
        void then_each_ancestors_siblings() {
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .state("a", s -> s.state("b", x -> x.state("c", y -> y.to("z", (ctx, t) -> true))))
                    .state("z"));
            StateMachine<Trace> fsm = new StateMachine<>(def, new Trace());
            fsm.step(DT);
            assertEquals("z", fsm.state());
        }

        @Test
        void then_a_dotted_path_from_the_root() {
            StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                    .state("patrol", s -> s.to("combat.shoot", (c, t) -> true))
                    .state("combat", s -> s.state("engage").state("shoot")));
            StateMachine<Trace> fsm = new StateMachine<>(def, new Trace());
            fsm.step(DT);
            assertEquals("combat.shoot", fsm.state());
        }
    }

    @Nested
    class Reads {
        @Test
        void state_is_the_leaf_path_branch_every_active_state_outermost_first() {
            StateMachine<Bot> fsm = StateMachine.startIn(GUARD, new Bot(), "combat.shoot");
            assertEquals("combat.shoot", fsm.state());
            assertEquals(List.of("combat", "combat.shoot"), fsm.branch());
        }

        @Test
        void is_is_true_for_the_leaf_or_an_ancestor_by_name_or_path() {
            StateMachine<Bot> fsm = StateMachine.startIn(GUARD, new Bot(), "combat.shoot");
            assertTrue(fsm.is("combat"));
            assertTrue(fsm.is("shoot"));
            assertTrue(fsm.is("combat.shoot"));
            assertFalse(fsm.is("engage"));
            assertFalse(fsm.is("patrol"));
        }

        @Test
        void time_in_is_0_for_inactive_states() {
            StateMachine<Bot> fsm = StateMachine.startIn(GUARD, new Bot(), "search");
            fsm.step(1);
            assertEquals(1, fsm.timeIn("search"));
            assertEquals(0, fsm.timeIn("patrol"));
            assertEquals(0, fsm.timeIn("combat.engage"));
        }

        @Test
        void ctx_is_the_context() {
            Bot bot = new Bot();
            assertTrue(new StateMachine<>(GUARD, bot).ctx() == bot);
        }

        @Test
        void off_removes_a_change_listener() {
            List<String> seen = new ArrayList<>();
            StateMachine.ChangeListener l = (to, from) -> seen.add(to);
            StateMachine<Bot> fsm = new StateMachine<>(GUARD, new Bot());
            fsm.on("change", l);
            fsm.send("hit");
            fsm.off("change", l);
            fsm.go("patrol");
            assertEquals(List.of("flinch"), seen);
        }

        @Test
        void start_in_sets_clocks_for_tests() {
            StateMachine<Bot> fsm = StateMachine.startIn(GUARD, new Bot(), "search").withTime("search", 5.99);
            fsm.step(0.01);
            assertEquals("patrol", fsm.state());
        }
    }
}

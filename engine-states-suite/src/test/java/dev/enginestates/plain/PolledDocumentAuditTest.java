package dev.enginestates.plain;

import dev.enginestates.StatesDef;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rules of the {@code 000} document ({@code ../shared/seeds/000_*.txt}) that
 * {@link PolledRulesTest} did not pin yet, found by reading the document sentence by sentence.
 * Each test quotes the sentence it holds the plain face to.
 */
class PolledDocumentAuditTest {
    static final double DT = 1 / 60.0;

    /** Records every call a machine makes, in order. */
    static final class Trace {
        final List<String> calls = new ArrayList<>();
    }

    /**
     * "t is seconds spent in that state (the root's t = total)": a transition restarts the
     * clocks of the states it enters, never the root's, which its guards and update read.
     */
    @Test
    void the_roots_t_is_the_total_and_no_transition_resets_it() {
        List<String> seen = new ArrayList<>();
        StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                .to("never", (c, t) -> { seen.add("root to " + t); return false; })
                .update((c, dt, t) -> { seen.add("root update " + t); return null; })
                .state("a", s -> s.to("b", (c, t) -> t >= 1))
                .state("b", s -> s.update((c, dt, t) -> { seen.add("b update " + t); return null; }))
                .state("never"));
        StateMachine<Trace> fsm = new StateMachine<>(def, new Trace());
        fsm.step(1);
        seen.clear();
        fsm.step(0.5);
        assertEquals("b", fsm.state());
        assertEquals(List.of("root to 1.5", "root update 1.5", "b update 0.5"), seen);
        assertEquals(1.5, fsm.totalTime());
    }

    /**
     * "Transitions are tested outermost first: the root's to, then each active state's to guards
     * in declaration order and its after": a compound state's due after is taken before its
     * active child's guards are asked.
     */
    @Test
    void an_outer_states_after_is_tested_before_an_inner_states_to_guards() {
        Trace tr = new Trace();
        StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                .state("round", r -> r.after(1, "over")
                        .state("play", p -> p.to("pause", (c, t) -> { c.calls.add("play guard"); return t >= 1; }))
                        .state("pause"))
                .state("over"));
        StateMachine<Trace> fsm = new StateMachine<>(def, tr);
        fsm.step(0.5);
        assertEquals(List.of("play guard"), tr.calls);
        tr.calls.clear();
        fsm.step(0.5);
        assertEquals("over", fsm.state(), "round's after, not play's guard");
        assertEquals(List.of(), tr.calls, "play's guard was not asked on the step round's after fired");
    }

    /**
     * The document's bot: "to: { dead: (b) => b.hp <= 0 }, // tested in every state, first".
     * Deep in combat.shoot, with combat's own search guard true as well, the root's dead wins,
     * and shoot's exit clears fire on the way out.
     */
    @Test
    void the_bots_dead_guard_is_tested_in_every_state_first() {
        PolledRulesTest.Bot bot = new PolledRulesTest.Bot();
        StateMachine<PolledRulesTest.Bot> fsm = StateMachine.startIn(PolledRulesTest.GUARD, bot, "combat.shoot");
        bot.fire = true;
        bot.visible = true;
        bot.lostFor = 5;
        bot.hp = 0;
        fsm.step(DT);
        assertEquals("dead", fsm.state(), "the root's guard before combat's search");
        assertEquals(List.of("down"), bot.log);
        assertFalse(bot.fire);
    }

    /**
     * "1. Every active state's clock advances. 2. Transitions are tested": the clocks move before
     * any transition, so a state entered during a step starts at 0 and counts from the next step.
     */
    @Test
    void a_state_entered_during_a_step_starts_at_0_and_counts_from_the_next_step() {
        List<Double> seen = new ArrayList<>();
        StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                .state("a", s -> s.to("b", (c, t) -> true))
                .state("b", s -> s.to("c", (c, t) -> { seen.add(t); return t > 0; }))
                .state("c"));
        StateMachine<Trace> fsm = new StateMachine<>(def, new Trace());
        fsm.step(0.5);
        assertEquals("b", fsm.state(), "b's guard saw t = 0 on the hop that entered it");
        fsm.step(0.25);
        assertEquals("c", fsm.state());
        assertEquals(List.of(0.0, 0.25), seen);
    }

    /**
     * "Only go() and events re-enter", and a transition "enters the new branch outermost-first,
     * descending into initial children": an event naming the active compound state exits its
     * child and itself, then enters both again, into the initial child.
     */
    @Test
    void an_event_naming_the_active_compound_state_reenters_it_into_its_initial_child() {
        Trace tr = new Trace();
        StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                .on("reset", "combat")
                .state("combat", s -> s
                        .enter((c, f) -> c.calls.add("enter combat from " + f)).exit((c, t) -> c.calls.add("exit combat to " + t))
                        .state("engage", e -> e.enter((c, f) -> c.calls.add("enter engage")))
                        .state("shoot", e -> e.exit((c, t) -> c.calls.add("exit shoot to " + t)))));
        StateMachine<Trace> fsm = StateMachine.startIn(def, tr, "combat.shoot");
        fsm.step(1);
        assertTrue(fsm.send("reset"));
        assertEquals(List.of("exit shoot to combat.engage", "exit combat to combat.engage",
                "enter combat from combat.shoot", "enter engage"), tr.calls);
        assertEquals("combat.engage", fsm.state());
        assertEquals(0, fsm.timeIn("combat"), "combat was entered anew");
    }

    /**
     * "A transition exits states innermost-first up to the common ancestor": an event naming a
     * child of the active compound state moves between the children and leaves the compound
     * state, its enter and its clock alone.
     */
    @Test
    void an_event_naming_a_child_of_the_active_compound_state_neither_exits_nor_enters_the_compound() {
        Trace tr = new Trace();
        StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                .state("combat", s -> s
                        .on("aim", "shoot")
                        .enter((c, f) -> c.calls.add("enter combat")).exit((c, t) -> c.calls.add("exit combat"))
                        .state("engage", e -> e.exit((c, t) -> c.calls.add("exit engage to " + t)))
                        .state("shoot", e -> e.enter((c, f) -> c.calls.add("enter shoot from " + f)))));
        StateMachine<Trace> fsm = new StateMachine<>(def, tr);
        fsm.step(1);
        tr.calls.clear();
        assertTrue(fsm.send("aim"));
        assertEquals(List.of("exit engage to combat.shoot", "enter shoot from combat.engage"), tr.calls);
        assertEquals(1, fsm.timeIn("combat"), "combat's clock kept running");
    }

    /**
     * "Only go() and events re-enter": an event naming the active leaf runs its exit, then its
     * enter, and restarts its clock.
     */
    @Test
    void an_event_naming_the_active_leaf_runs_exit_then_enter() {
        Trace tr = new Trace();
        StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                .state("patrol", s -> s.on("again", "patrol")
                        .enter((c, f) -> c.calls.add("enter from " + f)).exit((c, t) -> c.calls.add("exit to " + t))));
        StateMachine<Trace> fsm = new StateMachine<>(def, tr);
        fsm.step(1);
        tr.calls.clear();
        assertTrue(fsm.send("again"));
        assertEquals(List.of("exit to patrol", "enter from patrol"), tr.calls);
        assertEquals(0, fsm.time());
    }

    /**
     * "Names resolve relative first — the declaring state's siblings ...; a name a function
     * returns resolves (and throws) when it is returned": a handler returns a name that is a
     * sibling of its state, not of the machine's root.
     */
    @Test
    void a_name_a_handler_returns_resolves_relative_to_the_declaring_state() {
        StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                .state("combat", s -> s
                        .state("engage", e -> e.on("aim", (c, args) -> "shoot"))
                        .state("shoot"))
                .state("shoot"));
        StateMachine<Trace> fsm = new StateMachine<>(def, new Trace());
        assertTrue(fsm.send("aim"));
        assertEquals("combat.shoot", fsm.state(), "engage's sibling, not the top-level 'shoot'");
    }

    /**
     * "the table is shared by every instance — a per-instance duration is a guard on t
     * (to: { ready: (g, t) => t >= g.cooldown }), not an after": two machines on one table keep
     * their own states and clocks and read their own contexts.
     */
    @Test
    void the_table_is_shared_by_every_instance_and_each_keeps_its_own_state_and_clocks() {
        final class Gun {
            final double cooldown;

            Gun(double cooldown) {
                this.cooldown = cooldown;
            }
        }
        StatesDef<Gun> def = StatesDef.<Gun>define("gun", d -> d
                .state("cooldown", s -> s.to("ready", (g, t) -> t >= g.cooldown))
                .state("ready"));
        StateMachine<Gun> fast = new StateMachine<>(def, new Gun(0.25));
        StateMachine<Gun> slow = new StateMachine<>(def, new Gun(1));
        fast.step(0.5);
        assertEquals("ready", fast.state());
        assertEquals("cooldown", slow.state());
        slow.step(0.5);
        assertEquals("cooldown", slow.state(), "slow's clock is its own: 0.5 s, not 1");
        slow.step(0.5);
        assertEquals("ready", slow.state());
    }

    /**
     * "3. update runs outermost → innermost": it runs also on a step whose transitions used all
     * 8 hops, in the branch they reached.
     */
    @Test
    void update_runs_after_the_guards_even_when_they_used_all_8_hops() {
        List<String> seen = new ArrayList<>();
        StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> {
            d.update((c, dt, t) -> { seen.add("root"); return null; });
            for (int i = 0; i < 10; i++) {
                String next = "s" + (i + 1);
                String self = "s" + i;
                d.state(self, s -> s.to(next, (c, t) -> true).update((c, dt, t) -> { seen.add(self); return null; }));
            }
            d.state("s10");
        });
        StateMachine<Trace> fsm = new StateMachine<>(def, new Trace());
        fsm.step(DT);
        assertEquals("s8", fsm.state());
        assertEquals(List.of("root", "s8"), seen);
    }

    /**
     * "a guard never re-enters a state that is already active": the guard whose target is
     * active is skipped, and the guards after it are still asked ("first true wins" among the
     * rest).
     */
    @Test
    void a_guard_on_an_active_target_is_skipped_and_the_next_guard_may_win() {
        StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                .state("a", s -> s.to("a", (c, t) -> true).to("b", (c, t) -> t >= 1))
                .state("b"));
        StateMachine<Trace> fsm = new StateMachine<>(def, new Trace());
        fsm.step(0.5);
        assertEquals("a", fsm.state());
        assertEquals(0.5, fsm.time(), "the 'a' guard held but did not re-enter a");
        fsm.step(0.5);
        assertEquals("b", fsm.state(), "the guard after it was asked and won");
    }

    /**
     * "'$back' = the leaf active before the last transition" and "fsm.previous: the leaf before
     * the last transition": every kind of transition sets it (a guard, an after, an update, go),
     * and within a step that chains through a pass-through state it is the last hop's source,
     * not the leaf the step started in.
     */
    @Test
    void previous_and_back_follow_the_last_transition_whatever_took_it() {
        StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                .state("a", s -> s.to("b", (c, t) -> t >= 1))
                .state("b", s -> s.after(0, "c"))
                .state("c", s -> s.update((c, dt, t) -> t >= 1 ? "d" : null))
                .state("d", s -> s.on("back", "$back")));
        StateMachine<Trace> fsm = new StateMachine<>(def, new Trace());
        fsm.step(1);
        assertEquals("c", fsm.state());
        assertEquals("b", fsm.previous(), "the pass-through state, not 'a'");
        fsm.step(1);
        assertEquals("d", fsm.state());
        assertEquals("c", fsm.previous(), "set by the update's transition");
        assertTrue(fsm.send("back"));
        assertEquals("c", fsm.state());
        assertEquals("d", fsm.previous());
        fsm.go("a");
        assertEquals("c", fsm.previous(), "set by go");
    }

    /** "fsm.on('change', (to, from) => void): this" and "fsm.off('change', fn): this". */
    @Test
    void on_and_off_return_the_machine_for_chaining() {
        StateMachine<Trace> fsm = new StateMachine<>(StatesDef.<Trace>define("m", d -> d.state("a")), new Trace());
        StateMachine.ChangeListener l = (to, from) -> { };
        assertSame(fsm, fsm.on("change", l));
        assertSame(fsm, fsm.off("change", l));
    }

    /**
     * "fsm.is(name): active as the leaf OR an ancestor" and "fsm.time: seconds in the active
     * leaf": after the document's bot leaves combat, combat is no longer active.
     */
    @Test
    void is_turns_false_for_a_compound_state_once_its_branch_is_left() {
        StatesDef<Trace> def = StatesDef.<Trace>define("m", d -> d
                .state("combat", s -> s.to("search", (c, t) -> t >= 1).state("engage"))
                .state("search"));
        StateMachine<Trace> fsm = new StateMachine<>(def, new Trace());
        assertTrue(fsm.is("combat"));
        fsm.step(1);
        assertFalse(fsm.is("combat"));
        assertFalse(fsm.is("combat.engage"));
        assertEquals(List.of("search"), fsm.branch());
    }
}

package dev.enginestates.fsm;

import dev.enginestates.declare.Window;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Claims of the {@code 002} document that no other test pinned, found by reading it sentence by
 * sentence. Each test quotes the sentence it holds the library to. The rest of the document is
 * pinned by {@link BuilderRulesTest} and {@link Document002ExamplesTest}.
 */
class Document002ConformanceTest {
    static final class Ctx extends AIContext {
        final List<String> log = new ArrayList<>();
        String next;
    }

    /**
     * "StateMachineBuilder&lt;TContext&gt; builds an immutable machine definition": using the
     * builder again after {@code build()} (other metadata, another state, another hook) leaves the
     * definition already built as it was.
     */
    @Test
    void a_built_definition_is_immutable_and_later_builder_calls_do_not_reach_it() {
        StateMachineBuilder<Ctx> b = new StateMachineBuilder<>("swing");
        b.configureState("Swing").asInitial().duration(1f).tag("light").window("hit", 0.25f, 0.5f).handler((c, dt) -> c.next);
        b.configureState("Rest").handler((c, dt) -> null);
        StateMachineDefinition<Ctx> first = b.build();

        b.configureState("Swing").duration(4f).tag("heavy").window("late", 0.75f, 1f).exit(c -> c.log.add("exit Swing"));
        b.configureState("Rest").enter(c -> c.log.add("enter Rest"));
        b.configureState("Extra").handler((c, dt) -> null);
        b.onStateEnter((c, s) -> c.log.add("onStateEnter " + s));
        StateMachineDefinition<Ctx> second = b.build();

        assertEquals(List.of("Swing", "Rest"), first.states());
        assertEquals(List.of("Swing", "Rest", "Extra"), second.states());
        Ctx c = new Ctx();
        StateMachine<Ctx> m = new StateMachine<>(first);
        m.initialize(c);
        assertEquals(1f, c.stateDuration());
        assertEquals("light", c.currentStateTag());
        assertEquals(List.of("hit"), List.copyOf(c.activeWindows().keySet()));
        c.next = "Rest";
        m.update(c, 0.1f);
        assertEquals("Rest", m.state());
        assertEquals(List.of(), c.log, "no hook added after build() runs on the first definition");
        try {
            first.states().add("Extra");
        } catch (UnsupportedOperationException fine) {
            // an unmodifiable list is immutable too
        }
        assertEquals(List.of("Swing", "Rest"), first.states(), "the list it hands out is no way into the definition");

        Ctx d = new Ctx();
        StateMachine<Ctx> later = new StateMachine<>(second);
        later.initialize(d);
        assertEquals(4f, d.stateDuration(), "the second build() sees the new calls: the test can tell them apart");
        assertEquals("heavy", d.currentStateTag());
    }

    /**
     * "The generic layer does not auto-discover behaviors or tick them by itself. Consumer code
     * decides when to build definitions, create instances, and call Update(...)." Building a
     * definition and creating a machine run no game code; only {@code initialize} enters, and the
     * clock moves only when the consumer calls {@code update}.
     */
    @Test
    void nothing_runs_or_ticks_until_the_consumer_calls_initialize_and_update() throws Exception {
        List<String> log = new ArrayList<>();
        StateMachineBuilder<Ctx> b = new StateMachineBuilder<>("quiet");
        b.onStateEnter((c, s) -> log.add("onStateEnter " + s));
        b.configureState("A").asInitial().enter(c -> log.add("enter A")).handler((c, dt) -> {
            log.add("handler A");
            return null;
        });
        StateMachineDefinition<Ctx> def = b.build();
        StateMachine<Ctx> m = new StateMachine<>(def);
        assertEquals(List.of(), log, "building and creating run nothing");
        assertEquals("", m.state(), "and do not enter the initial state");
        Ctx c = new Ctx();
        m.initialize(c);
        assertEquals(List.of("onStateEnter A", "enter A"), log);
        Thread.sleep(20);
        assertEquals(0f, m.timeInState(), "wall-clock time does not tick the machine");
        assertEquals(0f, c.timeInState());
        m.update(c, 0.25f);
        assertEquals(List.of("onStateEnter A", "enter A", "handler A"), log);
        assertEquals(0.25f, c.timeInState());
    }

    /**
     * "Your handlers usually read: [...] CurrentStateTag when one method backs multiple states".
     * One method registered as the handler of two states tells them apart by the tag each state
     * is configured with, and the tag follows the machine from state to state.
     */
    @Test
    void one_method_backing_several_states_tells_them_apart_by_currentStateTag() {
        StateMachineBuilder<Ctx> b = new StateMachineBuilder<>("combo");
        StateHandlerHolder one = new StateHandlerHolder();
        b.configureState("Light").asInitial().tag("light").handler(one::step);
        b.configureState("Heavy").tag("heavy").handler(one::step);
        Ctx c = new Ctx();
        StateMachine<Ctx> m = new StateMachine<>(b.build());
        m.initialize(c);
        m.update(c, 0.1f);
        m.update(c, 0.1f);
        m.update(c, 0.1f);
        assertEquals(List.of("light", "heavy", "light"), c.log);
        assertEquals("Heavy", m.state());
        assertEquals("heavy", c.currentStateTag());
    }

    /** The one method behind both states: it reads the tag, logs it and goes to the other state. */
    static final class StateHandlerHolder {
        String step(Ctx c, float dt) {
            c.log.add(c.currentStateTag());
            return c.currentStateTag().equals("light") ? "Heavy" : "Light";
        }
    }

    /**
     * The document's "Enter and Exit Hooks" example: {@code [StateExit("Attack")]} clears the
     * attack's flags when the machine leaves Attack, {@code [StateEnter("Attack")]} starts its
     * animation when it enters. The annotated exit hook runs on a handler's transition and on a
     * forced one, before the next state's enter hook, and not while the machine stays.
     */
    @Test
    void an_annotated_StateExit_hook_runs_when_its_state_is_left() {
        StateMachine<Ctx> m = new StateMachine<>(new StateMachineBuilder<Ctx>().registerHandlers(AttackBehavior.class).build());
        Ctx c = new Ctx();
        m.initialize(c);
        assertEquals(List.of("AttackEnter"), c.log);
        m.update(c, 0.1f);
        assertEquals(List.of("AttackEnter"), c.log, "staying runs no exit");
        c.next = "Idle";
        m.update(c, 0.1f);
        assertEquals(List.of("AttackEnter", "AttackExit", "IdleEnter"), c.log);
        m.transitionTo(c, "Attack");
        m.transitionTo(c, "Attack");
        assertEquals(List.of("AttackEnter", "AttackExit", "IdleEnter", "AttackEnter", "AttackExit", "AttackEnter"), c.log,
                "re-entering Attack runs its exit hook, then its enter hook");
    }

    @StateBehavior("attacker")
    static final class AttackBehavior {
        @State(value = "Attack", initial = true, delay = 0.2f)
        String attack(Ctx c, float dt) {
            return c.next;
        }

        @State("Idle")
        String idle(Ctx c, float dt) {
            return null;
        }

        @StateEnter("Attack")
        void attackEnter(Ctx c) {
            c.log.add("AttackEnter");
        }

        @StateExit("Attack")
        void attackExit(Ctx c) {
            c.log.add("AttackExit");
            c.next = null; // the document's ClearAttackFlags
        }

        @StateEnter("Idle")
        void idleEnter(Ctx c) {
            c.log.add("IdleEnter");
        }
    }

    /**
     * "TransitionTo(context, name) forces a transition", and "A transition runs the old state's
     * exit hook, sets the new state's metadata, the builder's OnStateEnter hook, the new state's
     * enter hook, and resets the time in state to 0." Forced to another state, whatever the
     * current handler would say, the machine runs that whole order at once, without a tick.
     */
    @Test
    void transitionTo_another_state_forces_the_whole_transition_at_once() {
        StateMachineBuilder<Ctx> b = new StateMachineBuilder<>("roles");
        b.onStateEnter((c, s) -> c.log.add("onStateEnter " + s + " tag=" + c.currentStateTag() + " d=" + c.stateDuration()));
        b.configureState("kickoff").asInitial().duration(1f).tag("k").handler((c, dt) -> {
            c.log.add("kickoff runs");
            return null;
        }).exit(c -> c.log.add("exit kickoff t=" + c.timeInState() + " tag=" + c.currentStateTag()));
        b.configureState("attack").duration(2f).tag("a").window("strike", 0.5f, 1f).handler((c, dt) -> null)
                .enter(c -> c.log.add("enter attack tag=" + c.currentStateTag()));
        Ctx c = new Ctx();
        StateMachine<Ctx> m = new StateMachine<>(b.build());
        m.initialize(c);
        m.update(c, 0.5f);
        c.log.clear();
        m.transitionTo(c, "attack");
        assertEquals(List.of("exit kickoff t=0.5 tag=k", "onStateEnter attack tag=a d=2.0", "enter attack tag=a"), c.log,
                "the exit hook still sees the old metadata; no handler ran: the move is forced");
        assertEquals("attack", m.state());
        assertEquals("kickoff", m.previous());
        assertEquals(0f, c.timeInState());
        assertEquals(0f, c.progress());
        assertEquals(new Window("strike", 0.5f, 1f), c.activeWindows().get("strike"));
    }

    /**
     * "TypeScript Twin [...] the context helpers in StateContext (progress, inWindow,
     * windowEntered, windowExited). The semantics are the same as above, operation for
     * operation." The static helpers give what the context's own reads give, tick by tick, through
     * the bot's {@code defend} state of the document ({@code duration(0.5).window('commit', 0.2, 0.4)}).
     */
    @Test
    void the_static_StateContext_helpers_read_what_the_context_reads() {
        StateMachineBuilder<Ctx> b = new StateMachineBuilder<>("bot");
        b.configureState("defend").asInitial().duration(0.5f).window("commit", 0.2f, 0.4f).handler((c, dt) -> {
            assertEquals(c.progress(), StateContext.progress(c));
            assertEquals(c.inWindow("commit"), StateContext.inWindow(c, "commit"));
            assertEquals(c.windowEntered("commit"), StateContext.windowEntered(c, "commit"));
            assertEquals(c.windowExited("commit"), StateContext.windowExited(c, "commit"));
            c.log.add(StateContext.progress(c) + (StateContext.inWindow(c, "commit") ? " in" : " out")
                    + (StateContext.windowEntered(c, "commit") ? " entered" : "")
                    + (StateContext.windowExited(c, "commit") ? " exited" : ""));
            return null;
        });
        Ctx c = new Ctx();
        StateMachine<Ctx> m = new StateMachine<>(b.build());
        m.initialize(c);
        for (int i = 0; i < 5; i++) {
            m.update(c, 0.0625f);
        }
        // commit spans 0.1 s to 0.2 s of the 0.5 s state
        assertEquals(List.of("0.125 out", "0.25 in entered", "0.375 in", "0.5 out exited", "0.625 out"), c.log);
        assertFalse(StateContext.inWindow(c, "nope"));
        assertTrue(StateContext.progress(c) > 0.5f);
    }
}

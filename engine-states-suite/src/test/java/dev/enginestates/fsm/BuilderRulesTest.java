package dev.enginestates.fsm;

import dev.enginestates.records.Access;
import dev.enginestates.declare.StateMotionProfile;
import dev.enginestates.declare.Window;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.UserCodeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rules of the {@code 002} document's "State Lifecycle" and "Time Accounting and
 * Transitions", one test each, named after the rule.
 */
class BuilderRulesTest {
    /** A context that logs what the machine does to it. */
    static final class Ctx extends AIContext {
        final List<String> log = new ArrayList<>();
        String next;
        int runs;
    }

    private final List<LogRecord> logged = new ArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private static final Logger LIBRARY = Logger.getLogger("dev.enginestates");

    @BeforeEach
    void listen() {
        LIBRARY.addHandler(capture);
        LIBRARY.setUseParentHandlers(false); // heard here, not printed
    }

    @AfterEach
    void stopListening() {
        LIBRARY.removeHandler(capture);
        LIBRARY.setUseParentHandlers(true);
    }

    /** Two states A and B whose handlers return {@code ctx.next} and count runs. */
    private static StateMachineBuilder<Ctx> ab() {
        StateMachineBuilder<Ctx> b = new StateMachineBuilder<>("ab");
        b.configureState("A").asInitial().duration(1f).handler((c, dt) -> {
            c.runs++;
            return c.next;
        }).enter(c -> c.log.add("enter A t=" + c.timeInState() + " d=" + c.stateDuration()))
                .exit(c -> c.log.add("exit A t=" + c.timeInState()));
        b.configureState("B").duration(2f).tag("b").handler((c, dt) -> {
            c.runs++;
            return null;
        }).enter(c -> c.log.add("enter B t=" + c.timeInState() + " d=" + c.stateDuration() + " tag=" + c.currentStateTag()))
                .exit(c -> c.log.add("exit B"));
        b.onStateEnter((c, s) -> c.log.add("onStateEnter " + s + " d=" + c.stateDuration()));
        return b;
    }

    private static StateMachine<Ctx> started(StateMachineBuilder<Ctx> b, Ctx c) {
        StateMachine<Ctx> m = new StateMachine<>(b.build());
        m.initialize(c);
        c.log.clear();
        return m;
    }

    @Test
    void a_handler_returning_null_stays() {
        Ctx c = new Ctx();
        StateMachine<Ctx> m = started(ab(), c);
        m.update(c, 0.1f);
        m.update(c, 0.1f);
        assertEquals("A", m.state());
        assertEquals(0.2f, c.timeInState(), 1e-7f);
        assertEquals(List.of(), c.log);
    }

    @Test
    void a_handler_returning_its_own_name_stays_without_exit_or_enter() {
        Ctx c = new Ctx();
        StateMachine<Ctx> m = started(ab(), c);
        c.next = "A";
        m.update(c, 0.25f);
        m.update(c, 0.25f);
        assertEquals("A", m.state());
        assertEquals(0.5f, c.timeInState(), "time keeps counting");
        assertEquals(List.of(), c.log);
    }

    @Test
    void a_handler_returning_an_unknown_name_stays_and_it_is_reported_once_through_the_logger() {
        Ctx c = new Ctx();
        StateMachine<Ctx> m = started(ab(), c);
        Ctx other = new Ctx();
        StateMachine<Ctx> second = new StateMachine<>(m.definition());
        second.initialize(other);
        c.next = "BB";
        other.next = "BB";
        for (int i = 0; i < 10; i++) {
            m.update(c, 0.1f);
            second.update(other, 0.1f);
        }
        assertEquals("A", m.state());
        assertEquals(10, c.runs);
        List<String> warnings = new ArrayList<>();
        for (LogRecord r : logged) {
            String text = java.text.MessageFormat.format(r.getMessage(), r.getParameters());
            if (text.contains("'BB'")) {
                warnings.add(text);
            }
        }
        assertEquals(1, warnings.size(), "once per definition, not per tick or instance: " + warnings);
        String w = warnings.get(0);
        assertTrue(w.contains("machine 'ab'") && w.contains("state 'A'") && w.contains("[A, B]") && w.contains("did you mean 'B'"), w);
        c.next = "Cee";
        m.update(c, 0.1f);
        assertEquals(2, logged.stream().filter(r -> r.getLevel() == java.util.logging.Level.WARNING).count(),
                "another unknown name is reported too");
    }

    @Test
    void the_names_a_state_reports_are_bounded_against_a_handler_returning_endless_names() {
        Ctx c = new Ctx();
        StateMachine<Ctx> m = started(ab(), c);
        for (int i = 0; i < 1000; i++) {
            c.next = "x" + i;
            m.update(c, 0.01f);
        }
        assertTrue(logged.size() <= dev.enginestates.chart.BuilderChart.MAX_REPORTED_NAMES + 1, "reports: " + logged.size());
        assertEquals("A", m.state());
    }

    @Test
    void a_state_without_a_handler_does_nothing_and_its_time_does_not_advance() {
        StateMachineBuilder<Ctx> b = new StateMachineBuilder<>("idle");
        b.configureState("Dead").asInitial().tag("dead");
        Ctx c = new Ctx();
        StateMachine<Ctx> m = new StateMachine<>(b.build());
        m.initialize(c);
        c.setPreviousProgress(0.5f);
        for (int i = 0; i < 5; i++) {
            m.update(c, 0.1f);
            m.advance(c, 0.1f);
            m.runState(c, 0.1f);
        }
        assertEquals(0f, c.timeInState());
        assertEquals(0f, m.timeInState());
        assertEquals(0.5f, c.previousProgress(), "advance wrote nothing");
        assertEquals("Dead", m.state());
    }

    @Test
    void a_transition_runs_exit_then_metadata_then_onStateEnter_then_enter_then_resets_time() {
        Ctx c = new Ctx();
        StateMachine<Ctx> m = started(ab(), c);
        m.update(c, 0.5f);
        c.next = "B";
        m.update(c, 0.25f);
        assertEquals("B", m.state());
        assertEquals(List.of(
                "exit A t=0.75",
                "onStateEnter B d=2.0",        // the new state's metadata is written before the builder's hook
                "enter B t=0.75 d=2.0 tag=b"), // time is reset after the enter hook, as the document orders it
                c.log);
        assertEquals(0f, c.timeInState());
        assertEquals(0f, c.previousProgress());
        assertEquals(0f, c.progress());
        assertEquals("A", m.previous());
    }

    @Test
    void enter_hooks_fire_at_once_even_with_a_delay_and_the_delay_holds_the_handler_back() {
        StateMachineBuilder<Ctx> b = new StateMachineBuilder<>("delayed");
        b.configureState("Idle").asInitial().handler((c, dt) -> "Attack");
        b.configureState("Attack").delay(0.5f).enter(c -> c.log.add("enter")).handler((c, dt) -> {
            c.log.add("run t=" + c.timeInState());
            return null;
        });
        Ctx c = new Ctx();
        StateMachine<Ctx> m = new StateMachine<>(b.build());
        m.initialize(c);
        m.update(c, 0.25f);
        assertEquals(List.of("enter"), c.log, "the enter hook ran in the tick of the transition");
        m.update(c, 0.25f);
        assertEquals(List.of("enter"), c.log, "0.25 s < 0.5 s: the handler waits, the time counts");
        m.update(c, 0.25f);
        m.update(c, 0.25f);
        assertEquals(List.of("enter", "run t=0.5", "run t=0.75"), c.log);
    }

    @Test
    void the_annotated_delay_holds_the_handler_back_too() {
        StateMachine<Ctx> m = new StateMachine<>(new StateMachineBuilder<Ctx>().registerHandlers(DelayedBehavior.class).build());
        Ctx c = new Ctx();
        m.initialize(c);
        for (int i = 0; i < 4; i++) {
            m.update(c, 0.125f);
        }
        assertEquals(List.of("enter", "run 0.25", "run 0.375", "run 0.5"), c.log);
    }

    @StateBehavior("delayed-behavior")
    static final class DelayedBehavior {
        @State(value = "Attack", initial = true, delay = 0.2f)
        String attack(Ctx c, float dt) {
            c.log.add("run " + c.timeInState());
            return null;
        }

        @StateEnter("Attack")
        void attackEnter(Ctx c) {
            c.log.add("enter");
        }
    }

    @Test
    void advance_records_the_previous_progress_then_adds_dt_in_float32() {
        Ctx c = new Ctx();
        StateMachine<Ctx> m = started(ab(), c);
        m.advance(c, 0.1f);
        assertEquals(0f, c.previousProgress());
        assertEquals(0.1f, c.timeInState());
        m.advance(c, 0.1f);
        assertEquals(0.1f, c.previousProgress(), "A lasts 1 s: progress equals time");
        assertEquals(0.1f + 0.1f, c.timeInState(), "a float sum, written to the context");
        for (int i = 0; i < 1000; i++) {
            m.advance(c, 1f / 60f);
        }
        float expected = 0.1f + 0.1f;
        for (int i = 0; i < 1000; i++) {
            expected += 1f / 60f;
        }
        assertEquals(expected, c.timeInState(), 0f, "exactly the float32 sum of the ticks, in order");
        assertTrue((double) expected != 0.2 + 1000 / 60.0, "and not the double sum");
    }

    @Test
    void runState_does_not_advance_time() {
        Ctx c = new Ctx();
        StateMachine<Ctx> m = started(ab(), c);
        m.advance(c, 0.3f);
        for (int i = 0; i < 5; i++) {
            m.runState(c, 0.3f);
        }
        assertEquals(0.3f, c.timeInState());
        assertEquals(5, c.runs);
    }

    @Test
    void update_is_exactly_advance_then_runState() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        for (int trial = 0; trial < 50; trial++) {
            long seed = random.nextLong();
            assertEquals(trace(seed, true), trace(seed, false), "seed " + seed);
        }
    }

    /** A random walk over four states with windows and durations, driven by update or by its two halves. */
    private static List<String> trace(long seed, boolean update) {
        StateMachineBuilder<Ctx> b = new StateMachineBuilder<>("walk");
        String[] names = {"W", "X", "Y", "Z"};
        for (int i = 0; i < names.length; i++) {
            String self = names[i];
            String next = names[(i + 1) % names.length];
            var s = b.configureState(self).duration(0.2f + i * 0.1f).window("w", 0.25f, 0.5f).handler((c, dt) -> {
                c.log.add(self + " " + c.timeInState() + " " + c.previousProgress() + " " + c.windowEntered("w") + c.windowExited("w"));
                return c.progress() >= 1f ? next : c.next;
            });
            if (i == 0) {
                s.asInitial();
            }
        }
        java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        Ctx c = new Ctx();
        StateMachine<Ctx> m = new StateMachine<>(b.build());
        m.initialize(c);
        for (int tick = 0; tick < 200; tick++) {
            c.next = r.nextInt(20) == 0 ? names[r.nextInt(names.length)] : null;
            float dt = r.nextInt(4) == 0 ? 0f : 1f / (30 + r.nextInt(60));
            if (update) {
                m.update(c, dt);
            } else {
                m.advance(c, dt);
                m.runState(c, dt);
            }
            c.log.add("-> " + m.state());
        }
        return c.log;
    }

    @Test
    void transitionTo_the_current_state_re_enters_it() {
        Ctx c = new Ctx();
        StateMachine<Ctx> m = started(ab(), c);
        m.update(c, 0.5f);
        m.transitionTo(c, "A");
        assertEquals(List.of("exit A t=0.5", "onStateEnter A d=1.0", "enter A t=0.5 d=1.0"), c.log);
        assertEquals(0f, c.timeInState(), "the kickoff's 'restart this phase'");
        assertEquals("A", m.state());
    }

    @Test
    void transitionTo_an_unknown_name_is_refused_and_changes_nothing() {
        Ctx c = new Ctx();
        StateMachine<Ctx> m = started(ab(), c);
        m.update(c, 0.5f);
        MachineException x = assertThrows(MachineException.class, () -> m.transitionTo(c, "b"));
        assertTrue(x.getMessage().contains("'b'") && x.getMessage().contains("[A, B]") && x.getMessage().contains("did you mean 'B'")
                && x.getMessage().contains("stays in 'A'"), x.getMessage());
        assertEquals("A", m.state());
        assertEquals(0.5f, c.timeInState());
        assertEquals(List.of(), c.log);
    }

    @Test
    void progress_is_time_over_duration_as_a_float_and_zero_without_a_duration() {
        Ctx c = new Ctx();
        c.setStateDuration(0f);
        c.setTimeInState(5f);
        assertEquals(0f, c.progress());
        c.setStateDuration(0.75f);
        c.setTimeInState(0.74999994f);
        assertEquals(0.74999994f / 0.75f, c.progress());
        assertTrue(c.progress() < 1f);
        c.setTimeInState(1.5f);
        assertEquals(2f, c.progress(), "past the duration progress goes on past 1");
    }

    @Test
    void window_bounds_are_fractions_of_the_duration_inclusive() {
        StateMachineBuilder<Ctx> b = new StateMachineBuilder<>("windows");
        b.configureState("Swing").asInitial().duration(2f).window("hit", 0.25f, 0.5f).handler((c, dt) -> null);
        Ctx c = new Ctx();
        StateMachine<Ctx> m = new StateMachine<>(b.build());
        m.initialize(c);
        List<String> in = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            m.update(c, 0.125f);
            in.add(c.timeInState() + (c.inWindow("hit") ? ":in" : ":out"));
        }
        // 0.25 and 0.5 of 2 s: from 0.5 s through 1.0 s, both ends in
        assertEquals(List.of("0.125:out", "0.25:out", "0.375:out", "0.5:in", "0.625:in", "0.75:in", "0.875:in", "1.0:in",
                "1.125:out", "1.25:out", "1.375:out", "1.5:out"), in);
        assertFalse(c.inWindow("nope"));
        assertEquals(new Window("hit", 0.25f, 0.5f), c.activeWindows().get("hit"));
    }

    @Test
    void a_window_is_entered_once_when_progress_crosses_its_start_and_exited_once_past_its_end() {
        StateMachineBuilder<Ctx> b = new StateMachineBuilder<>("edges");
        b.configureState("Swing").asInitial().duration(1f)
                .window("early", 0f, 0.1f).window("mid", 0.3f, 0.4f).window("blink", 0.64f, 0.66f)
                .handler((c, dt) -> {
                    for (String w : List.of("early", "mid", "blink")) {
                        if (c.windowEntered(w)) {
                            c.log.add(w + " in@" + c.timeInState());
                        }
                        if (c.windowExited(w)) {
                            c.log.add(w + " out@" + c.timeInState());
                        }
                    }
                    return null;
                });
        Ctx c = new Ctx();
        StateMachine<Ctx> m = new StateMachine<>(b.build());
        m.initialize(c);
        m.update(c, 0f);  // a tick of no time opens nothing
        for (int i = 0; i < 10; i++) {
            m.update(c, 0.125f);
        }
        // a window opening at 0 opens on the first tick that counts time; a tick that jumps a whole window opens and closes it
        assertEquals(List.of("early in@0.125", "early out@0.125", "mid in@0.375", "mid out@0.5", "blink in@0.75", "blink out@0.75"), c.log);
    }

    @Test
    void state_window_callbacks_run_on_their_edge_before_the_handler_and_wait_for_the_delay() {
        StateMachine<Ctx> m = new StateMachine<>(new StateMachineBuilder<Ctx>()
                .registerHandlers(new WindowedBehavior())
                .configureState("Attack").duration(1f).window("damage", 0.25f, 0.5f).window("early", 0f, 0.1f)
                .build());
        Ctx c = new Ctx();
        m.initialize(c);
        for (int i = 0; i < 6; i++) {
            m.update(c, 0.125f);
        }
        // 'early' opens at the first tick, inside the 0.2 s delay: held back like the handler, it does not run
        assertEquals(List.of("damage opens 0.25", "handler 0.25", "handler 0.375", "handler 0.5", "damage closes 0.625",
                "handler 0.625", "handler 0.75"), c.log);
    }

    @StateBehavior("windowed")
    public static final class WindowedBehavior {
        @State(value = "Attack", initial = true, delay = 0.2f)
        public String attack(Ctx c, float dt) {
            c.log.add("handler " + c.timeInState());
            return null;
        }

        @StateWindow(state = "Attack", window = "damage")
        public void damage(Ctx c) {
            c.log.add("damage opens " + c.timeInState());
        }

        @StateWindow(state = "Attack", window = "damage", on = StateWindow.Edge.EXITED)
        public void damageOver(Ctx c) {
            c.log.add("damage closes " + c.timeInState());
        }

        @StateWindow(state = "Attack", window = "early")
        public void early(Ctx c) {
            c.log.add("early " + c.timeInState());
        }
    }

    @Test
    void the_helpers_read_data_throttle_and_motion() {
        Ctx c = new Ctx();
        assertEquals(1f, c.currentMovementThrottle(), "no motion profile: full movement");
        assertEquals(0f, c.evaluateCurrentMotion());
        assertNull(c.currentStateData(String.class));
        c.setCurrentStateData(42);
        assertNull(c.currentStateData(String.class), "data of another type reads as null");
        assertEquals(42, c.currentStateData(Integer.class));
        c.setCurrentStateMotion(new StateMotionProfile(0.5f, 3f, p -> 1 - p));
        c.setStateDuration(2f);
        c.setTimeInState(0.5f);
        assertEquals(0.5f, c.currentMovementThrottle());
        assertEquals(3f * 0.75f, c.evaluateCurrentMotion());
        c.setTimeInState(5f);
        assertEquals(0f, c.evaluateCurrentMotion(), "the curve reads a progress clamped to 1");
        assertThrows(IllegalArgumentException.class, () -> new StateMotionProfile(1.5f, 1f));
        assertThrows(IllegalArgumentException.class, () -> new StateMotionProfile(0.5f, Float.NaN));
    }

    @Test
    void initialize_enters_the_initial_state_with_its_hooks_and_no_exit() {
        Ctx c = new Ctx();
        StateMachine<Ctx> m = new StateMachine<>(ab().build());
        assertEquals("", m.state());
        c.setTimeInState(9f);
        m.initialize(c);
        assertEquals(List.of("onStateEnter A d=1.0", "enter A t=9.0 d=1.0"), c.log);
        assertEquals(0f, c.timeInState());
        assertEquals("A", m.state());
        assertEquals("", m.previous(), "no state before the first, as the other faces say it");
    }

    @Test
    void calls_before_initialize_and_bad_seconds_are_refused_and_change_nothing() {
        Ctx c = new Ctx();
        StateMachine<Ctx> m = new StateMachine<>(ab().build());
        IllegalStateException x = assertThrows(IllegalStateException.class, () -> m.update(c, 0.1f));
        assertTrue(x.getMessage().contains("initialize"), x.getMessage());
        assertThrows(IllegalStateException.class, () -> m.transitionTo(c, "B"));
        m.initialize(c);
        for (float bad : new float[] {-1f, Float.NaN, Float.POSITIVE_INFINITY}) {
            IllegalArgumentException y = assertThrows(IllegalArgumentException.class, () -> m.update(c, bad));
            assertTrue(y.getMessage().contains("'ab'") && y.getMessage().contains("'A'"), y.getMessage());
        }
        assertEquals(0f, c.timeInState());
        assertThrows(NullPointerException.class, () -> m.initialize(null));
        assertEquals("A", m.state());
    }

    @Test
    void aNullContextIsANullPointerExceptionNamingTheMachineAtEveryCall() {
        Ctx c = new Ctx();
        StateMachine<Ctx> m = new StateMachine<>(ab().build());
        m.initialize(c);
        m.update(c, 0.1f);
        for (org.junit.jupiter.api.function.Executable call : List.<org.junit.jupiter.api.function.Executable>of(
                () -> m.initialize(null), () -> m.advance(null, 0.1f), () -> m.runState(null, 0.1f), () -> m.update(null, 0.1f),
                () -> m.transitionTo(null, "B"))) {
            NullPointerException x = assertThrows(NullPointerException.class, call);
            assertTrue(x.getMessage() != null && x.getMessage().contains("machine 'ab'") && x.getMessage().contains("context"),
                    x.getMessage());
        }
        assertEquals("A", m.state(), "nothing changed");
        assertEquals(0.1f, c.timeInState());
        assertSame(c, m.context());
    }

    static final class OtherCtx extends AIContext {
    }

    @Test
    void a_context_of_another_type_than_the_handlers_take_is_refused_at_initialize() {
        StateMachineDefinition<AIContext> def = new StateMachineBuilder<AIContext>().registerHandlers(DelayedBehavior.class).build();
        StateMachine<AIContext> m = new StateMachine<>(def);
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> m.initialize(new OtherCtx()));
        assertTrue(x.getMessage().contains("DelayedBehavior.attack") && x.getMessage().contains("OtherCtx"), x.getMessage());
        assertEquals("", m.state(), "nothing changed");
    }

    @Test
    void a_throwing_handler_names_machine_state_and_call_and_the_machine_stays() {
        StateMachineBuilder<Ctx> b = new StateMachineBuilder<>("fragile");
        b.configureState("A").asInitial().handler((c, dt) -> {
            throw new IllegalStateException("bad sensor");
        });
        b.configureState("B");
        Ctx c = new Ctx();
        StateMachine<Ctx> m = new StateMachine<>(b.build());
        m.initialize(c);
        UserCodeException x = assertThrows(UserCodeException.class, () -> m.update(c, 0.1f));
        assertTrue(x.getMessage().contains("'fragile'") && x.getMessage().contains("state 'A'") && x.getMessage().contains("bad sensor")
                && x.getMessage().contains("handler"), x.getMessage());
        assertEquals("A", m.state());
        m.transitionTo(c, "B");
        assertEquals("B", m.state(), "the machine goes on");
    }

    @Test
    void a_throwing_exit_leaves_the_record_and_the_context_in_the_new_state_and_runs_no_more_hooks() {
        StateMachineBuilder<Ctx> b = new StateMachineBuilder<>("fragile-exit");
        b.configureState("A").asInitial().handler((c, dt) -> "B").exit(c -> {
            throw new IllegalStateException("exit broke");
        });
        b.configureState("B").duration(3f).tag("b").enter(c -> c.log.add("enter B")).handler((c, dt) -> null);
        Ctx c = new Ctx();
        StateMachine<Ctx> m = new StateMachine<>(b.build());
        m.initialize(c);
        m.advance(c, 0.5f);
        UserCodeException x = assertThrows(UserCodeException.class, () -> m.runState(c, 0.5f));
        assertTrue(x.getMessage().contains("exit broke") && x.getMessage().contains("state 'A'"), x.getMessage());
        assertEquals("B", m.state());
        assertEquals(List.of(), c.log, "the hooks after the one that threw do not run");
        assertEquals(3f, c.stateDuration(), "the context follows the record");
        assertEquals("b", c.currentStateTag());
        assertEquals(0f, c.timeInState());
    }

    @Test
    void a_machine_moved_from_its_own_code_is_refused() {
        List<StateMachine<Ctx>> self = new ArrayList<>();
        StateMachineBuilder<Ctx> b = new StateMachineBuilder<>("reentrant");
        b.configureState("A").asInitial().handler((c, dt) -> {
            self.get(0).transitionTo(c, "B");
            return null;
        });
        b.configureState("B");
        Ctx c = new Ctx();
        StateMachine<Ctx> m = new StateMachine<>(b.build());
        self.add(m);
        m.initialize(c);
        UserCodeException x = assertThrows(UserCodeException.class, () -> m.update(c, 0.1f));
        assertTrue(x.getCause() instanceof IllegalStateException && x.getCause().getMessage().contains("return the state's name"),
                String.valueOf(x.getCause()));
        assertEquals("A", m.state());
        assertNull(Access.record(m).processing(), "the machine is not left busy");
        m.transitionTo(c, "B");
        assertEquals("B", m.state());
    }

    /** A one-state machine whose handler, while {@code c.next} is set, calls {@code reenter} on its own machine once. */
    private static StateMachine<Ctx> callingItself(java.util.function.BiConsumer<StateMachine<Ctx>, Ctx> reenter, Ctx c) {
        List<StateMachine<Ctx>> self = new ArrayList<>();
        StateMachineBuilder<Ctx> b = new StateMachineBuilder<>("reentrant");
        b.configureState("A").asInitial().duration(2f).tag("a").handler((x, dt) -> {
            if (x.next != null) {
                x.next = null;
                reenter.accept(self.get(0), x);
            }
            return null;
        });
        b.configureState("B").tag("b");
        StateMachine<Ctx> m = new StateMachine<>(b.build());
        self.add(m);
        m.initialize(c);
        return m;
    }

    @Test
    void a_refused_reentrant_call_changes_nothing_update_and_advance_add_no_time() {
        for (java.util.function.BiConsumer<StateMachine<Ctx>, Ctx> call : List.<java.util.function.BiConsumer<StateMachine<Ctx>, Ctx>>of(
                (m, c) -> m.update(c, 1f), (m, c) -> m.advance(c, 1f))) {
            Ctx c = new Ctx();
            StateMachine<Ctx> m = callingItself(call, c);
            c.next = "go";
            UserCodeException x = assertThrows(UserCodeException.class, () -> m.update(c, 0.5f));
            assertTrue(x.getCause() instanceof IllegalStateException && x.getCause().getMessage().contains("machine 'reentrant' is busy"),
                    String.valueOf(x.getCause()));
            assertEquals(0.5f, m.timeInState(), "the refused call added no time");
            assertEquals(0.5f, c.timeInState());
            assertEquals(0.25f, c.progress());
            assertNull(Access.record(m).processing(), "the machine is not left busy");
        }
    }

    @Test
    void a_refused_reentrant_call_changes_nothing_the_machine_keeps_its_context() {
        for (java.util.function.BiConsumer<StateMachine<Ctx>, Ctx> call : List.<java.util.function.BiConsumer<StateMachine<Ctx>, Ctx>>of(
                (m, c) -> m.initialize(new Ctx()), (m, c) -> m.update(new Ctx(), 0f), (m, c) -> m.advance(new Ctx(), 0f),
                (m, c) -> m.runState(new Ctx(), 0f), (m, c) -> m.transitionTo(new Ctx(), "B"))) {
            Ctx c = new Ctx();
            StateMachine<Ctx> m = callingItself(call, c);
            c.next = "go";
            UserCodeException x = assertThrows(UserCodeException.class, () -> m.update(c, 0.5f));
            assertTrue(x.getCause() instanceof IllegalStateException && x.getCause().getMessage().contains("from its own code"),
                    String.valueOf(x.getCause()));
            assertSame(c, m.context(), "the machine still runs on its own context");
            assertEquals("A", m.state());
            m.update(c, 0.25f);
            assertEquals(0.75f, m.timeInState());
            assertEquals(0.75f, c.timeInState(), "the context is still the one the machine writes");
        }
    }

    @Test
    void a_step_longer_than_the_checkpoints_limit_is_refused_and_changes_nothing() {
        Ctx c = new Ctx();
        StateMachine<Ctx> m = new StateMachine<>(ab().build());
        m.initialize(c);
        m.update(c, 0.5f);
        for (float bad : new float[] {1e13f, Float.MAX_VALUE}) {
            for (org.junit.jupiter.api.function.Executable call : List.<org.junit.jupiter.api.function.Executable>of(
                    () -> m.update(c, bad), () -> m.advance(c, bad), () -> m.runState(c, bad))) {
                IllegalArgumentException x = assertThrows(IllegalArgumentException.class, call);
                assertTrue(x.getMessage().contains("machine 'ab'") && x.getMessage().contains("(" + bad + ")")
                        && x.getMessage().contains("1.0E12"), x.getMessage());
            }
        }
        assertEquals(0.5f, m.timeInState(), "nothing changed");
        assertEquals(0.5f, c.timeInState());
        assertEquals(1, c.runs);
        m.update(c, 1e12f); // the bound itself is a step
        assertTrue(Float.isFinite(m.timeInState()) && m.timeInState() > 9e11f, String.valueOf(m.timeInState()));
    }

    @Test
    void the_other_faces_plain_machine_refuses_a_builder_machine_with_a_pointer_to_this_one() {
        StateMachineDefinition<Ctx> def = ab().build();
        MachineException x = assertThrows(MachineException.class, () -> new dev.enginestates.plain.StateMachine<>(def.machine(), new Ctx()));
        assertTrue(x.getMessage().contains("dev.enginestates.fsm.StateMachine"), x.getMessage());
    }

    @Test
    void one_definition_serves_many_threads_at_once() throws Exception {
        StateMachineDefinition<Ctx> def = ab().build();
        List<String> expected = run(def);
        List<java.util.concurrent.Future<List<String>>> results = new ArrayList<>();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            for (int i = 0; i < 16; i++) {
                results.add(pool.submit(() -> run(def)));
            }
            for (var f : results) {
                assertEquals(expected, f.get());
            }
        } finally {
            pool.shutdown();
        }
    }

    private static List<String> run(StateMachineDefinition<Ctx> def) {
        Ctx c = new Ctx();
        StateMachine<Ctx> m = new StateMachine<>(def);
        m.initialize(c);
        for (int i = 0; i < 10_000; i++) {
            c.next = i % 97 == 0 ? "B" : null;
            m.update(c, 1f / 60f);
            if (m.state().equals("B") && i % 13 == 0) {
                m.transitionTo(c, "A");
            }
        }
        c.log.add(m.state() + " " + c.timeInState());
        return c.log;
    }
}

package dev.enginestates.fsm;

import dev.enginestates.declare.StateContextCore;
import dev.enginestates.declare.StateMotionProfile;
import dev.enginestates.declare.Window;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code 002} document's examples, ported line by line, with the traces its rules give.
 * Section names are the document's.
 */
class Document002ExamplesTest {

    // ---------------------------------------------------------------- "Minimal Generic Example"

    static final class DoorStateContext extends AIContext {
        boolean openRequested;
        boolean closeRequested;
    }

    @StateBehavior("door")
    static final class DoorBehavior {
        @State(value = "Closed", initial = true)
        String closed(DoorStateContext ctx, float dt) {
            return ctx.openRequested ? "Opening" : null;
        }

        @State("Opening")
        String opening(DoorStateContext ctx, float dt) {
            return ctx.progress() >= 1f ? "Open" : null;
        }

        @State("Open")
        String open(DoorStateContext ctx, float dt) {
            return ctx.closeRequested ? "Closing" : null;
        }

        @State("Closing")
        String closing(DoorStateContext ctx, float dt) {
            return ctx.progress() >= 1f ? "Closed" : null;
        }
    }

    static StateMachineDefinition<DoorStateContext> door() {
        return new StateMachineBuilder<DoorStateContext>()
                .registerHandlers(DoorBehavior.class)
                .configureState("Opening").duration(0.75f)
                .configureState("Closing").duration(0.75f)
                .build();
    }

    /** Each tick's state after {@code update}, until {@code until} is reached. */
    private static List<String> run(StateMachine<DoorStateContext> fsm, DoorStateContext ctx, float dt, String until, int max) {
        List<String> trace = new ArrayList<>();
        for (int i = 0; i < max; i++) {
            fsm.update(ctx, dt);
            trace.add(fsm.state());
            if (fsm.state().equals(until)) {
                break;
            }
        }
        return trace;
    }

    @Test
    void theDoorOpensInThreeQuarterSecondTicks() {
        var def = door();
        assertEquals("door", def.id(), "the @StateBehavior names the machine");
        var fsm = new StateMachine<>(def);
        var ctx = new DoorStateContext();
        fsm.initialize(ctx);
        assertEquals("Closed", fsm.state());
        assertEquals(List.of("Closed", "Closed"), run(fsm, ctx, 0.25f, "Opening", 2));
        ctx.openRequested = true;
        // the tick that leaves Closed does not count toward Opening: its time starts at 0
        assertEquals(List.of("Opening"), run(fsm, ctx, 0.25f, "Opening", 1));
        assertEquals(0f, ctx.timeInState());
        assertEquals(0.75f, ctx.stateDuration());
        // 0.25, 0.5 (progress 2/3) stay; 0.75 makes progress exactly 1
        assertEquals(List.of("Opening", "Opening", "Open"), run(fsm, ctx, 0.25f, "Open", 5));
        ctx.closeRequested = true;
        ctx.openRequested = false;
        assertEquals(List.of("Closing", "Closing", "Closing", "Closed"), run(fsm, ctx, 0.25f, "Closed", 6));
    }

    @Test
    void theDoorAtSixtyHertzTakesFortySixTicksOfFloatTime() {
        // The document's clock is float32: 45 additions of 1/60f sum to 0.74999994f, a hair short of
        // 0.75f, so 'progress >= 1' first holds on the 46th tick (a double clock would leave on the 45th).
        var fsm = new StateMachine<>(door());
        var ctx = new DoorStateContext();
        fsm.initialize(ctx);
        ctx.openRequested = true;
        fsm.update(ctx, 1f / 60f);
        assertEquals("Opening", fsm.state());
        int ticks = 0;
        while (fsm.state().equals("Opening") && ticks < 100) {
            fsm.update(ctx, 1f / 60f);
            ticks++;
        }
        assertEquals(46, ticks);
        assertEquals("Open", fsm.state());
    }

    // ---------------------------------------------------------------- "Time Accounting and Transitions"

    static final class MatchContext extends AIContext {
        boolean goalScored;
    }

    @Test
    void matchPhasesAdvanceAtTheStartOfTheTickAndRunAtTheEnd() {
        var b = new StateMachineBuilder<MatchContext>();
        b.configureState("Countdown").asInitial().handler((m, dt) -> m.timeInState() >= 3f ? "Playing" : null);
        b.configureState("Playing").handler((m, dt) -> m.goalScored ? "Goal" : null);
        b.configureState("Goal").handler((m, dt) -> m.timeInState() >= 1.5f ? "Countdown" : null);
        var phases = new StateMachine<>(b.build());
        var match = new MatchContext();
        phases.initialize(match);
        float dt = 1f / 60f;
        List<Float> clockReadInTheTick = new ArrayList<>();
        int tick = 0;
        while (phases.state().equals("Countdown")) {
            phases.advance(match, dt);
            clockReadInTheTick.add(match.timeInState()); // the tick's work reads the advanced clock
            phases.runState(match, dt);
            tick++;
        }
        // 180 float additions of 1/60f make 2.9999979f; the 181st makes 3.0166645f
        assertEquals(181, tick);
        assertEquals(dt, clockReadInTheTick.get(0));
        assertEquals("Playing", phases.state());
        assertEquals(0f, match.timeInState());
        match.goalScored = true;
        phases.advance(match, dt);
        phases.runState(match, dt);
        assertEquals("Goal", phases.state());
        match.goalScored = false;
        tick = 0;
        while (phases.state().equals("Goal")) {
            phases.advance(match, dt);
            phases.runState(match, dt);
            tick++;
        }
        assertEquals(91, tick, "1.5 s at 60 Hz in float: 90 additions make 1.4999989f");
        assertEquals("Countdown", phases.state());
    }

    // ---------------------------------------------------------------- "Per-State Metadata"

    record AttackStepData(int staminaCost) {
    }

    static final class Fighter extends AIContext {
        final List<String> log = new ArrayList<>();
        int stamina = 100;
    }

    @StateBehavior("fighter")
    static final class FighterBehavior {
        @State(value = "Idle", initial = true)
        String idle(Fighter f, float dt) {
            return "Attack";
        }

        @State("Attack")
        String attack(Fighter f, float dt) {
            if (f.windowEntered("damage")) {
                f.log.add("damage@" + f.timeInState());
            }
            if (f.windowExited("damage")) {
                f.log.add("damage-end@" + f.timeInState());
            }
            if (f.windowEntered("input")) {
                f.log.add("input@" + f.timeInState());
            }
            return f.progress() >= 1.2f ? "Idle" : null;
        }

        @StateEnter("Attack")
        void attackEnter(Fighter f) {
            f.stamina -= f.currentStateData(AttackStepData.class).staminaCost();
            f.log.add("enter " + f.currentStateTag() + " throttle " + f.currentMovementThrottle());
        }
    }

    @Test
    void theAttacksWindowsAndDataReachTheContext() {
        var def = new StateMachineBuilder<Fighter>()
                .registerHandlers(FighterBehavior.class)
                .configureState("Attack")
                .duration(0.55f)
                .tag("light")
                .window("damage", 0.35f, 0.55f)
                .window("input", 0.60f, 1.00f)
                .data(new AttackStepData(10))
                .motion(new StateMotionProfile(0.25f, 1f))
                .build();
        var fsm = new StateMachine<>(def);
        var f = new Fighter();
        fsm.initialize(f);
        fsm.update(f, 0.05f);
        assertEquals("Attack", fsm.state());
        assertEquals(90, f.stamina);
        assertEquals("light", f.currentStateTag());
        assertEquals(0.25f, f.currentMovementThrottle());
        assertEquals(1f, f.evaluateCurrentMotion());
        assertEquals(List.of("damage", "input"), List.copyOf(f.activeWindows().keySet()));
        for (int i = 0; i < 20 && fsm.state().equals("Attack"); i++) {
            fsm.update(f, 0.05f);
        }
        // windows are fractions of the 0.55 s duration: damage opens at 0.1925 s, closes after 0.3025 s; input opens at 0.33 s
        assertEquals(List.of("enter light throttle 0.25", "damage@0.2", "damage-end@0.35000002", "input@0.35000002"), f.log);
        assertEquals("Idle", fsm.state());
        assertEquals("", f.currentStateTag());
        assertNull(f.currentStateData());
        assertTrue(f.activeWindows().isEmpty());
        assertEquals(1f, f.currentMovementThrottle());
    }

    // ---------------------------------------------------------------- "TypeScript Twin": the bot

    static final class BotContext extends AIContext {
        String role = "kickoff";
        final List<String> did = new ArrayList<>();
    }

    @Test
    void aBotsRoleIsChosenByTransitionTo() {
        var b = new StateMachineBuilder<BotContext>();
        b.configureState("kickoff").asInitial().handler((ctx, dt) -> {
            ctx.did.add("kickoff");
            return null;
        });
        b.configureState("attack").handler((ctx, dt) -> {
            ctx.did.add("strike");
            return null;
        });
        b.configureState("defend").duration(0.5f).window("commit", 0.2f, 0.4f).handler((ctx, dt) -> {
            if (StateContext.windowEntered(ctx, "commit")) {
                ctx.did.add("commit@" + ctx.timeInState());
            }
            return null;
        });
        var brain = new AIStateMachine<>(b.build());
        var ctx = new BotContext();
        brain.initialize(ctx);
        brain.transitionTo(ctx, "attack");   // the role chosen by a utility selector
        brain.update(ctx, 0.05f);
        assertEquals("attack", brain.state());
        brain.transitionTo(ctx, "defend");
        for (int i = 0; i < 6; i++) {
            brain.update(ctx, 0.05f);
        }
        // commit opens at progress 0.2 of 0.5 s: the tick that reaches 0.1 s
        assertEquals(List.of("strike", "commit@0.1"), ctx.did);
    }

    // ---------------------------------------------------------------- "The Context Contract"

    /** A quest that lives on no entity: it implements the core contract alone, by hand. */
    static final class QuestContext implements StateContextCore {
        private float time;
        private float duration;
        private String tag = "";
        private java.util.Map<String, Window> windows = java.util.Map.of();
        private Object data;
        private StateMotionProfile motion;
        private float previous;
        int wolves;

        public float timeInState() { return time; }
        public void setTimeInState(float seconds) { time = seconds; }
        public float stateDuration() { return duration; }
        public void setStateDuration(float seconds) { duration = seconds; }
        public String currentStateTag() { return tag; }
        public void setCurrentStateTag(String t) { tag = t; }
        public java.util.Map<String, Window> activeWindows() { return windows; }
        public void setActiveWindows(java.util.Map<String, Window> w) { windows = w; }
        public Object currentStateData() { return data; }
        public void setCurrentStateData(Object d) { data = d; }
        public StateMotionProfile currentStateMotion() { return motion; }
        public void setCurrentStateMotion(StateMotionProfile m) { motion = m; }
        public float previousProgress() { return previous; }
        public void setPreviousProgress(float p) { previous = p; }
    }

    @Test
    void aMachineNeedsNoWorldEntityOnlyTheCoreContract() {
        var b = new StateMachineBuilder<QuestContext>("quest");
        b.configureState("Hunt").asInitial().data(5).handler((q, dt) -> q.wolves >= q.currentStateData(Integer.class) ? "Return" : null);
        b.configureState("Return").duration(2f).tag("walk").handler((q, dt) -> q.progress() >= 1f ? "Done" : null);
        b.configureState("Done");
        var quest = new StateMachine<>(b.build());
        var q = new QuestContext();
        quest.initialize(q);
        q.wolves = 5;
        quest.update(q, 0.5f);
        assertEquals("Return", quest.state());
        assertEquals("walk", q.currentStateTag());
        for (int i = 0; i < 4; i++) {
            quest.update(q, 0.5f);
        }
        assertEquals("Done", quest.state());
    }
}

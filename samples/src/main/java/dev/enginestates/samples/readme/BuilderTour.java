package dev.enginestates.samples.readme;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.AIContext;
import dev.enginestates.fsm.State;
import dev.enginestates.fsm.StateBehavior;
import dev.enginestates.fsm.StateMachineDefinition;
import dev.enginestates.declare.StateMotionProfile;
import dev.enginestates.fsm.StateWindow;
import dev.enginestates.fsm.StateMachine;            // not dev.enginestates.plain.StateMachine
import dev.enginestates.fsm.StateMachineBuilder;

import java.util.ArrayList;
import java.util.List;

/**
 * The README's builder-style code, compiled: every line of its Java
 * blocks stands here in order ({@code ReadmeCodeTest} checks it, and runs what it says).
 */
public final class BuilderTour {
    private BuilderTour() {
    }

    // ---------------------------------------------------------------- the door

    public static final class DoorStateContext extends AIContext {   // AIContext implements the context contract
        public boolean openRequested, closeRequested;
    }

    @StateBehavior("door")
    public static final class DoorBehavior {
        @State(value = "Closed", initial = true, to = "Opening")
        public String closed(DoorStateContext ctx, float dt) { return ctx.openRequested ? "Opening" : null; }

        @State(value = "Opening", to = "Open")
        public String opening(DoorStateContext ctx, float dt) { return ctx.progress() >= 1f ? "Open" : null; }

        @State(value = "Open", to = "Closing")
        public String open(DoorStateContext ctx, float dt) { return ctx.closeRequested ? "Closing" : null; }

        @State(value = "Closing", to = "Closed")
        public String closing(DoorStateContext ctx, float dt) { return ctx.progress() >= 1f ? "Closed" : null; }
    }

    static final StateMachineDefinition<DoorStateContext> DOOR = new StateMachineBuilder<DoorStateContext>()
        .registerHandlers(DoorBehavior.class)
        .configureState("Opening").duration(0.75f)
        .configureState("Closing").duration(0.75f)
        .build();

    /** The README's run of the door on its own; returns how many ticks of Opening it took to open. */
    public static int plain() {
        DoorStateContext ctx = new DoorStateContext();
        StateMachine<DoorStateContext> door = new StateMachine<>(DOOR);
        door.initialize(ctx);                                     // enters "Closed": its enter hook runs now
        ctx.openRequested = true;
        door.update(ctx, 1 / 60f);                                // advance then runState, once per tick
        door.state();                                             // "Opening"; 46 ticks later "Open"
        int ticks = 0;
        while (door.state().equals("Opening")) {
            door.update(ctx, 1 / 60f);
            ticks++;
        }
        return door.state().equals("Open") ? ticks : -1;
    }

    /** The README's run of the door on entities; returns the state's name after a forced transition. */
    public static String ecs() {
        try (StateWorld world = StateWorld.create()) {
            States<DoorStateContext> DOORS = States.of(DOOR);         // the same definition on entities
            Entity e = world.spawn(DOORS.trait(new DoorStateContext()));   // initialize runs here
            DOORS.read(e).context().openRequested = true;
            world.step(1 / 60.0);                                 // update on each builder-style machine, in declaration order
            world.query(DOORS.is("Opening")).count();             // 1: each state is a tag
            DOORS.read(e).progress();                             // 0.0: the tick that left Closed does not count
            DOORS.read(e).previous();                             // "Closed"
            DOORS.transitionTo(e, "Closed");                      // forced: exit, enter, time 0 (to the current state: re-enters)
            return DOORS.read(e).state() + " " + world.query(DOORS.is("Closed")).count();
        }
    }

    // ---------------------------------------------------------------- metadata, windows, callbacks

    /** An attack's data. */
    public record AttackStep(int damage) {
    }

    /** A fighter and a training dummy. */
    public static final class Fighter extends AIContext {
        /** The attack button is held. */
        public boolean attack;
        /** The dummy's hit points. */
        public int dummyHp = 100;
        /** What happened. */
        public final List<String> log = new ArrayList<>();
    }

    @StateBehavior("fighter")
    public static final class FighterBehavior {
        @State(value = "Idle", initial = true, to = "Attack")
        public String idle(Fighter f, float dt) { return f.attack ? "Attack" : null; }

        @State(value = "Attack", delay = 0.1f, to = "Idle")       // the handler waits 0.1 s; enter hooks do not
        public String attack(Fighter f, float dt) {
            if (f.windowEntered("input")) f.log.add("input open");    // the last advance crossed its start
            return f.progress() >= 1f ? "Idle" : null;
        }

        @StateWindow(state = "Attack", window = "damage")         // once, when the window opens, before the handler
        public void strike(Fighter f) { f.dummyHp -= f.currentStateData(AttackStep.class).damage(); }
    }

    static final StateMachineDefinition<Fighter> COMBO = new StateMachineBuilder<Fighter>("combo", Fighter::new)
        .registerHandlers(FighterBehavior.class)                  // @State, @StateEnter, @StateExit, @StateWindow methods
        .onStateEnter((f, state) -> f.log.add("enter " + state))  // every entry, before the state's own enter hook
        .configureState("Attack")
            .duration(0.55f)                                      // progress = time in state / 0.55
            .tag("light")                                         // ctx.currentStateTag()
            .window("damage", 0.35f, 0.55f)                       // progress, not seconds: 0.1925 s to 0.3025 s
            .window("input", 0.60f, 1.00f)
            .data(new AttackStep(10))                             // ctx.currentStateData(AttackStep.class)
            .motion(new StateMotionProfile(0.25f, 1f))            // ctx.currentMovementThrottle(), evaluateCurrentMotion()
        .build();

    /** The combo on its own: one attack at 60 Hz; returns the fighter. */
    public static Fighter combo() {
        Fighter f = new Fighter();
        StateMachine<Fighter> fsm = new StateMachine<>(COMBO);
        fsm.initialize(f);
        f.attack = true;
        fsm.update(f, 1 / 60f);
        f.attack = false;
        while (fsm.state().equals("Attack")) {
            fsm.update(f, 1 / 60f);
        }
        return f;
    }

    // ---------------------------------------------------------------- the split tick

    /** The split tick on a world; returns the time in state the work read on the first tick. */
    public static float split() {
        try (StateWorld world = StateWorld.create()) {
            Fighter fighter = new Fighter();
            world.spawn(States.of(COMBO).trait(fighter));
            float dt = 1 / 60f;
            world.advance(dt);       // builder-style machines' time in state moves; other machines step in full
            float read = fighter.timeInState();
            // the tick's work: reads ctx.timeInState(), already advanced
            world.runStates();       // builder-style machines' handlers run, with the same dt
            return read;
        }
    }
}

package dev.enginestates.testing;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.MachineException;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.AIContext;
import dev.enginestates.fsm.AIStateMachine;
import dev.enginestates.fsm.State;
import dev.enginestates.fsm.StateBehavior;
import dev.enginestates.fsm.StateEnter;
import dev.enginestates.fsm.StateMachine;
import dev.enginestates.fsm.StateMachineBuilder;
import dev.enginestates.fsm.StateMachineDefinition;
import dev.enginestates.declare.StateMotionProfile;
import dev.enginestates.fsm.StateWindow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.opentest4j.AssertionFailedError;

import java.util.ArrayList;
import java.util.List;

import static dev.enginestates.testing.StateAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The kit for builder-style machines (the {@code 002} document): a machine started in any state
 * some seconds into it, on its own ({@link BuilderStart}) and on an entity
 * ({@link WorldFixture#spawnIn}, {@link Start#timeInState}); assertions on its state, previous
 * state, time in state, progress and windows, each passing and failing with a message that names
 * the machine, the state and what was expected.
 */
class BuilderKitTest {
    @RegisterExtension
    static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);

    /** A fighter's context: what its hooks did. */
    public static final class Fighter extends AIContext {
        public final List<String> log = new ArrayList<>();
        public int stamina = 100;
    }

    record Step(int stamina) {
    }

    @StateBehavior("kit-fighter")
    public static final class FighterBehavior {
        @State(value = "Idle", initial = true)
        public String idle(Fighter f, float dt) {
            return f.stamina > 0 ? "Attack" : null;
        }

        @State("Attack")
        public String attack(Fighter f, float dt) {
            return f.progress() >= 1f ? "Idle" : null;
        }

        @StateEnter("Idle")
        public void idleEnter(Fighter f) {
            f.log.add("enter Idle");
        }

        @StateEnter("Attack")
        public void attackEnter(Fighter f) {
            f.stamina -= f.currentStateData(Step.class).stamina();
            f.log.add("enter Attack");
        }

        @StateWindow(state = "Attack", window = "damage")
        public void strike(Fighter f) {
            f.log.add("strike@" + f.timeInState());
        }
    }

    /** Attack: 0.55 s, damage 0.35..0.55 of it (0.1925..0.3025 s), input 0.6..1 (0.33..0.55 s). */
    static final StateMachineDefinition<Fighter> FIGHTER = new StateMachineBuilder<Fighter>("kit-fighter", Fighter::new)
            .registerHandlers(FighterBehavior.class)
            .configureState("Attack")
            .duration(0.55f)
            .tag("light")
            .window("damage", 0.35f, 0.55f)
            .window("input", 0.60f, 1.00f)
            .data(new Step(10))
            .motion(new StateMotionProfile(0.25f, 1f))
            .build();

    static final States<Fighter> FIGHTERS = States.of(FIGHTER);

    // ---------------------------------------------------------------- the plain face

    @Test
    void startInPutsAPlainMachineInAStateSomeSecondsInWithoutRunningAnyHook() {
        Fighter f = new Fighter();
        StateMachine<Fighter> fsm = BuilderStart.startIn(FIGHTER, f, "Attack", 0.2f);
        assertEquals("Attack", fsm.state());
        assertEquals("", fsm.previous());
        assertEquals(List.of(), f.log, "neither Idle's nor Attack's enter hook ran");
        assertEquals(100, f.stamina);
        // the context reads what the machine would have written
        assertEquals(0.2f, f.timeInState());
        assertEquals(0.55f, f.stateDuration());
        assertEquals("light", f.currentStateTag());
        assertEquals(new Step(10), f.currentStateData());
        assertEquals(0.25f, f.currentMovementThrottle());
        assertTrue(f.inWindow("damage"));
        assertFalse(f.windowEntered("damage"), "no edge is pending: the start lies inside the window");
        assertThat(fsm).hasState("Attack").hasPrevious("").hasTimeInState(0.2).hasProgress(0.2f / 0.55f, 0)
                .isInWindow("damage").isNotInWindow("input").hasStateTag("light");
    }

    @Test
    void aPlainMachineStartedBeforeAWindowCrossesItsEdgeOnTheNextTick() {
        Fighter f = new Fighter();
        StateMachine<Fighter> fsm = BuilderStart.startIn(FIGHTER, f, "Attack", 0.18f);
        assertThat(fsm).isNotInWindow("damage");
        fsm.update(f, 0.02f);   // 0.2 s: progress 0.3636, past 0.35
        assertTrue(f.windowEntered("damage"));
        assertEquals(List.of("strike@0.2"), f.log, "the @StateWindow callback ran in runState");
        assertThat(fsm).isInWindow("damage").hasTimeInState(0.2);
        fsm.update(f, 0.35f);   // 0.55 s: progress 1, Idle
        assertThat(fsm).hasState("Idle").hasPrevious("Attack").hasTimeInState(0).hasProgress(0).hasStateTag("")
                .isNotInWindow("damage");
        assertEquals(List.of("strike@0.2", "enter Idle"), f.log);
    }

    @Test
    void startInTakesAnAIStateMachineAndRestartsARunningOne() {
        Fighter f = new Fighter();
        AIStateMachine<Fighter> brain = new AIStateMachine<>(FIGHTER);
        brain.initialize(f);
        brain.update(f, 0.1f);
        assertEquals("Attack", brain.state());
        assertEquals(90, f.stamina);
        AIStateMachine<Fighter> same = BuilderStart.startIn(brain, f, "Idle", 2f);
        assertSame(brain, same);
        assertThat(brain).hasState("Idle").hasPrevious("").hasTimeInState(2);
        assertEquals(90, f.stamina, "no exit and no enter ran");
        Fighter other = new Fighter();
        BuilderStart.startIn(brain, other, "Attack", 0f);
        assertEquals("light", other.currentStateTag(), "a new context is written");
        brain.update(other, 0.55f);
        assertThat(brain).hasState("Idle").hasPrevious("Attack");
    }

    @Test
    void startInRefusesAnUnknownStateBadSecondsAndAWrongContext() {
        MachineException unknown = assertThrows(MachineException.class, () -> BuilderStart.startIn(FIGHTER, new Fighter(), "Atack"));
        assertEquals("machine 'kit-fighter': startIn('Atack') names no state; expected one of [Attack, Idle]; did you mean 'Attack'?",
                unknown.getMessage());
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> BuilderStart.startIn(FIGHTER, new Fighter(), "Attack", -1f));
        assertTrue(negative.getMessage().contains("startIn('Attack', -1.0)"), negative.getMessage());
        assertThrows(IllegalArgumentException.class, () -> BuilderStart.startIn(FIGHTER, new Fighter(), "Attack", Float.NaN));
        NullPointerException npe = assertThrows(NullPointerException.class, () -> BuilderStart.startIn(FIGHTER, null, "Attack"),
                "a null context is refused as fsm.StateMachine's own calls refuse it");
        assertTrue(npe.getMessage().contains("startIn needs a context"), npe.getMessage());

        // a machine whose handlers take a Fighter refuses a context of another class, and is left as it was
        @SuppressWarnings({"unchecked", "rawtypes"})
        StateMachine<AIContext> raw = (StateMachine) new StateMachine<>(FIGHTER);
        IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class,
                () -> BuilderStart.startIn(raw, new AIContext() { }, "Attack", 0f));
        assertTrue(wrong.getMessage().contains("takes a " + Fighter.class.getName()), wrong.getMessage());
        assertEquals("", raw.state(), "not started");
    }

    @Test
    void aFailingPlainAssertionNamesTheMachineTheStateAndWhatWasExpected() {
        Fighter f = new Fighter();
        StateMachine<Fighter> fsm = BuilderStart.startIn(FIGHTER, f, "Attack", 0.1f);

        AssertionFailedError state = assertThrows(AssertionFailedError.class, () -> assertThat(fsm).hasState("Idle"));
        String m = state.getMessage().replace("\r\n", "\n");
        assertTrue(m.startsWith("machine 'kit-fighter' (StateMachine): expected state 'Idle', but it is in 'Attack', 0.1 s in state"
                + " of 0.55 s (progress 0.18181819), no previous state\n"), m);
        assertTrue(m.contains("\"timeInState\" : 0.1"), m);
        assertTrue(m.contains("\"damage\" : {\n      \"from\" : 0.35,\n      \"to\" : 0.55,\n      \"open\" : false\n    }"), m);
        assertTrue(m.contains("\"stamina\" : 100"), "the context is printed: " + m);
        assertEquals("Idle", state.getExpected().getValue());
        assertEquals("Attack", state.getActual().getValue());

        AssertionError window = assertThrows(AssertionError.class, () -> assertThat(fsm).isInWindow("damage"));
        assertTrue(window.getMessage().startsWith("machine 'kit-fighter' (StateMachine): expected to be in window 'damage' of state"
                + " 'Attack' (progress 0.35..0.55, 0.1925..0.3025 s of 0.55 s), but its progress is 0.18181819 (0.1 s in state);"
                + " windows of 'Attack': damage 0.35..0.55 (closed), input 0.6..1.0 (closed)\n"), window.getMessage());

        AssertionFailedError progress = assertThrows(AssertionFailedError.class, () -> assertThat(fsm).hasProgress(0.5));
        assertTrue(progress.getMessage().contains("expected progress 0.5 in state 'Attack', but 0.18181819"), progress.getMessage());

        AssertionFailedError time = assertThrows(AssertionFailedError.class, () -> assertThat(fsm).hasTimeInState(0.3));
        assertTrue(time.getMessage().contains("expected 0.3 s in state 'Attack', but 0.1 s"), time.getMessage());

        AssertionFailedError previous = assertThrows(AssertionFailedError.class, () -> assertThat(fsm).hasPrevious("Idle"));
        assertTrue(previous.getMessage().contains("expected previous state 'Idle', but there is none; it is in 'Attack'"),
                previous.getMessage());

        fsm.update(f, 0.1f); // 0.2 s, in the damage window
        AssertionError notIn = assertThrows(AssertionError.class, () -> assertThat(fsm).isNotInWindow("damage"));
        assertTrue(notIn.getMessage().contains("expected not to be in window 'damage' of state 'Attack' (progress 0.35..0.55,"
                + " 0.1925..0.3025 s of 0.55 s), but its progress is 0.36363637 (0.2 s in state)"), notIn.getMessage());
    }

    @Test
    void aWindowOrStateNoStateHasIsAMistakeNotAPass() {
        StateMachine<Fighter> fsm = BuilderStart.startIn(FIGHTER, new Fighter(), "Idle");
        MachineException typo = assertThrows(MachineException.class, () -> assertThat(fsm).isNotInWindow("damge"));
        assertEquals("machine 'kit-fighter' has no window 'damge' in any state; its windows: Attack: damage, input; did you mean"
                + " 'damage'?", typo.getMessage());
        assertThrows(MachineException.class, () -> assertThat(fsm).hasState("Idel"));
        // a window of another state: not in it, and the message says which state has it
        assertThat(fsm).isNotInWindow("damage");
        AssertionError e = assertThrows(AssertionError.class, () -> assertThat(fsm).isInWindow("damage"));
        assertTrue(e.getMessage().contains("expected to be in window 'damage', but state 'Idle' has no window 'damage' ('Attack'"
                + " has it)"), e.getMessage());
    }

    @Test
    void aPlainMachineNotStartedReadsNoState() {
        StateMachine<Fighter> fsm = new StateMachine<>(FIGHTER);
        AssertionError e = assertThrows(AssertionError.class, () -> assertThat(fsm).hasState("Idle"));
        assertTrue(e.getMessage().contains("but it is in no state (not started)"), e.getMessage());
    }

    @Test
    void contextAssertionsCarryTheMachinesPicture() {
        Fighter f = new Fighter();
        StateMachine<Fighter> fsm = new StateMachine<>(FIGHTER);
        fsm.initialize(f);
        fsm.update(f, 1f / 60);
        assertThat(fsm).hasState("Attack").hasPrevious("Idle").hasContext("stamina spent", x -> x.stamina == 90)
                .contextSatisfies(x -> assertEquals(List.of("enter Idle", "enter Attack"), x.log));
        AssertionError e = assertThrows(AssertionError.class, () -> assertThat(fsm).hasContext("full stamina", x -> x.stamina == 100));
        assertTrue(e.getMessage().contains("machine 'kit-fighter' (StateMachine): expected the context to satisfy full stamina,"
                + " but it does not; it is in 'Attack', 0.0 s in state of 0.55 s (progress 0.0), previous 'Idle'"), e.getMessage());
        AssertionError inner = assertThrows(AssertionError.class,
                () -> assertThat(fsm).contextSatisfies(x -> assertEquals(80, x.stamina)));
        assertTrue(inner.getMessage().contains("the context failed an assertion: expected: <80> but was: <90>"), inner.getMessage());
    }

    // ---------------------------------------------------------------- on an entity

    @Test
    void spawnInPutsAnEntitysMachineInAStateWithItsTimeAndNoHookRuns() {
        Fighter f = new Fighter();
        Entity e = world.spawnIn(FIGHTERS, f, "Attack").timeInState(0.2).entity();
        assertEquals(List.of(), f.log, "no hook ran, not even the initial state's");
        assertSame(e, f.entity(), "the context knows its entity");
        assertTrue(f.inWindow("damage"));
        assertFalse(f.windowEntered("damage"));
        assertThat(world, e).machine(FIGHTERS).hasState("Attack").hasPrevious("").hasTimeInState(0.2).hasTimeIn("Attack", 0.2)
                .hasProgress(0.2f / 0.55f, 0).isInWindow("damage").isNotInWindow("input").hasStateTag("light").hasTag("Attack");
        assertEquals(1, world.world().query(FIGHTERS.is("Attack")).count());
        world.advance(0.35);   // 21 steps: 0.55 s and a hair, progress 1
        assertThat(world, e).machine(FIGHTERS).hasState("Idle").hasPrevious("Attack").hasTag("Idle").doesNotHaveTag("Attack");
        assertEquals(List.of("enter Idle"), f.log, "the damage window had opened before the start: no strike");
    }

    @Test
    void spawnInWithTheFactoryAndStartInOnAnEntityTheGameMade() {
        Entity a = world.spawnIn(FIGHTERS, "Idle").entity();
        assertThat(world, a).machine(FIGHTERS).hasState("Idle").hasTimeInState(0).hasContext("fresh", x -> x.log.isEmpty());

        Entity b = world.spawn(EntityKey.of("fighter-b"));
        Fighter ctx = world.startIn(b, FIGHTERS, "Attack").timeIn("Attack", 0.18).record().context();
        assertEquals(List.of(), ctx.log);
        world.advanceSteps(1);   // 0.18 + 1/60 s: the damage window opens
        assertEquals(List.of("strike@0.19666667"), ctx.log);
        assertThat(world, b).machine(FIGHTERS).isInWindow("damage").hasTimeInState(0.19666667f);

        world.startIn(b, FIGHTERS, "Idle");   // the entity's record, set again: no hook
        assertThat(world, b).machine(FIGHTERS).hasState("Idle").hasTimeInState(0);
        assertEquals(List.of("strike@0.19666667"), ctx.log);
    }

    @Test
    void startOnAnEntityRefusesAnUnknownStateAndTimeInAnotherState() {
        MachineException unknown = assertThrows(MachineException.class, () -> world.spawnIn(FIGHTERS, "Atack"));
        assertTrue(unknown.getMessage().contains("machine 'kit-fighter' has no state 'Atack'; expected one of Attack, Idle"),
                unknown.getMessage());
        Start<Fighter> s = world.spawnIn(FIGHTERS, "Idle");
        MachineException other = assertThrows(MachineException.class, () -> s.timeIn("Attack", 1));
        assertTrue(other.getMessage().contains("'Attack' is not its state"), other.getMessage());
        assertThrows(MachineException.class, () -> s.timeInState(-1));
        MachineException notBuilder = assertThrows(MachineException.class,
                () -> world.spawnIn(TestMachines.SIEGE, "breather").timeInState(1));
        assertTrue(notBuilder.getMessage().startsWith("machine 'siege' is XState-style; timeInState is for builder-style machines"),
                notBuilder.getMessage());
    }

    @Test
    void aFailingEntityAssertionNamesTheMachineTheEntityTheStateAndPrintsTheBuilderReads() {
        Entity e = world.spawnIn(FIGHTERS, new Fighter(), "Attack").timeInState(0.1).entity();
        StateRecord<Fighter> r = FIGHTERS.read(e);
        Entity keyed = world.spawn(EntityKey.of("fighter-7"), FIGHTERS.trait(new Fighter()));
        world.startIn(keyed, FIGHTERS, "Attack").timeInState(0.1);

        AssertionError window = assertThrows(AssertionError.class, () -> assertThat(world, keyed).machine(FIGHTERS).isInWindow("input"));
        String m = window.getMessage().replace("\r\n", "\n");
        assertTrue(m.startsWith("machine 'kit-fighter' on fighter-7 at t=0.000 s (step 0): expected to be in window 'input' of state"
                + " 'Attack' (progress 0.6..1.0, 0.33..0.55 s of 0.55 s), but its progress is 0.18181819 (0.1 s in state); windows of"
                + " 'Attack': damage 0.35..0.55 (closed), input 0.6..1.0 (closed)\n"), m);
        assertTrue(m.contains("\"previous\" : \"\",\n      \"timeInState\" : 0.1,\n      \"duration\" : 0.55,\n"
                + "      \"progress\" : 0.18181819,\n      \"tag\" : \"light\",\n      \"windows\" : {\n"), m);
        assertTrue(m.contains("\"entity\" : \"fighter-7\""), "the context's entity is written as its key: " + m);
        assertTrue(m.contains("\"tags\" : [ \"kit-fighter.Attack\" ]"), m);

        AssertionFailedError state = assertThrows(AssertionFailedError.class, () -> assertThat(world, e).machine(FIGHTERS).hasState("Idle"));
        assertTrue(state.getMessage().contains(": expected its state to be 'Idle', but it is 'Attack'; it is in 'Attack', 0.1 s in"
                + " state of 0.55 s (progress 0.18181819), no previous state\n"), state.getMessage());

        AssertionFailedError progress = assertThrows(AssertionFailedError.class,
                () -> assertThat(world, e).machine(FIGHTERS).hasProgress(1));
        assertTrue(progress.getMessage().contains("expected progress 1.0 in state 'Attack', but 0.18181819"), progress.getMessage());
        assertEquals(1.0, progress.getExpected().getValue());

        AssertionFailedError time = assertThrows(AssertionFailedError.class,
                () -> assertThat(world, e).machine(FIGHTERS).hasTimeInState(0.5));
        assertTrue(time.getMessage().contains("expected 0.5 s in state 'Attack', but 0.1 s"), time.getMessage());

        AssertionError notIn = assertThrows(AssertionError.class, () -> {
            r.setTime("", 0.2);
            assertThat(world, e).machine(FIGHTERS).isNotInWindow("damage");
        });
        assertTrue(notIn.getMessage().contains("expected not to be in window 'damage' of state 'Attack'"), notIn.getMessage());
    }

    @Test
    void progressAndWindowAssertionsOnAMachineOfAnotherStyleSaySo() {
        Entity g = world.spawn(TestMachines.GUARD.trait());
        MachineException e = assertThrows(MachineException.class, () -> assertThat(world, g).machine(TestMachines.GUARD).hasProgress(0));
        assertEquals("machine 'guard' is XState-style; hasProgress is for builder-style machines (StateMachineBuilder), whose states"
                + " have a time in state, durations and windows", e.getMessage());
        assertInstanceOf(MachineException.class, assertThrows(RuntimeException.class,
                () -> assertThat(world, g).machine(TestMachines.GUARD).isInWindow("damage")));
    }

    @Test
    void theFixtureSplitsATickAndForcesAState() {
        Fighter f = new Fighter();
        f.stamina = 0;   // Idle stays while the fighter is spent
        Entity e = world.spawn(FIGHTERS.trait(f));
        List<Float> readInTheTick = new ArrayList<>();
        world.splitSteps(3, () -> readInTheTick.add(f.timeInState()));
        assertEquals(List.of(1f / 60, 2f / 60, 1f / 60 + 1f / 60 + 1f / 60), readInTheTick, "the work reads the advanced clock");
        world.transitionTo(FIGHTERS, e, "Attack");
        assertThat(world, e).machine(FIGHTERS).hasState("Attack").hasPrevious("Idle").hasTimeInState(0).hasTag("Attack");
        assertEquals(-10, f.stamina, "transitionTo runs the enter hook");
        assertEquals(3, world.steps());
    }
}

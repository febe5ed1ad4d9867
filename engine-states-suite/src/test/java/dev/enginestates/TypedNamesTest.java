package dev.enginestates;

import dev.enginestates.records.Access;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.UnknownEventException;
import dev.enginestates.declare.InvalidMachineException;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.plain.StateMachine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.enginestates.TypedNamesTest.GuardEvent.BELL;
import static dev.enginestates.TypedNamesTest.GuardEvent.RESTART;
import static dev.enginestates.TypedNamesTest.GuardEvent.RESUME;
import static dev.enginestates.TypedNamesTest.GuardState.ANSWER;
import static dev.enginestates.TypedNamesTest.GuardState.PATROL;
import static dev.enginestates.TypedNamesTest.GuardState.REST;
import static dev.enginestates.TypedNamesTest.GuardState.RESUMED;
import static dev.enginestates.TypedNamesTest.GuardState.WATCH;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 12, "typed names": a machine's states and events named by the game's own enums, checked
 * when the machine is compiled (each state constant declares exactly one state, each event
 * constant is taken by a state, a typed machine names nothing by a string) and used by constant
 * on every face; a string that names nothing is an error everywhere, with a suggestion.
 */
class TypedNamesTest {
    enum GuardState { PATROL, WATCH, REST, RESUMED, ANSWER }

    enum GuardEvent { BELL, RESUME, RESTART }

    /** Another machine's names: passing one of these to the guard is an error. */
    enum DoorState { OPEN, SHUT }

    enum DoorEvent { PUSH }

    static final class Guard {
        int bells;
        final List<String> heard = new ArrayList<>();
    }

    static final Machine<Guard> GUARD = Machine.define("guard", Guard::new, GuardState.class, GuardEvent.class, m -> m
            .initial(PATROL)
            .state(PATROL, p -> p
                    .initial(WATCH)
                    .state(WATCH, s -> s.waitFor(4, REST))
                    .state(REST, s -> s.waitFor(10, WATCH))
                    .history(RESUMED, HistoryDepth.DEEP)
                    .on(BELL, ANSWER))
            .state(ANSWER, s -> s
                    .entry((g, e) -> g.bells++)
                    .on(RESUME, RESUMED)
                    .on(RESTART, PATROL)));

    static final Machine<Guard> DOOR = Machine.define("door", Guard::new, DoorState.class, DoorEvent.class, m -> m
            .state(DoorState.SHUT, s -> s.on(DoorEvent.PUSH, DoorState.OPEN))
            .state(DoorState.OPEN, s -> s.on(DoorEvent.PUSH, DoorState.SHUT)));

    private StateWorld world;

    @AfterEach
    void close() {
        if (world != null) {
            world.close();
        }
    }

    private static InvalidMachineException invalid(Runnable define) {
        return assertThrows(InvalidMachineException.class, define::run);
    }

    private static void assertProblem(InvalidMachineException e, String expected) {
        assertTrue(e.problems().contains(expected), "expected the problem\n  " + expected + "\nin\n" + e.getMessage());
    }

    // ------------------------------------------------------------------ the declaration

    @Test
    void aStateKeyIsItsConstantsNameAsWrittenAndAPathJoinsTheKeysFromTheRoot() {
        assertEquals(List.of("PATROL", "PATROL.WATCH", "PATROL.REST", "PATROL.RESUMED", "ANSWER"), GUARD.statePaths());
        assertEquals(List.of("BELL", "RESUME", "RESTART"), GUARD.events());
        assertEquals("PATROL.WATCH", GUARD.path(WATCH));
        assertEquals("ANSWER", GUARD.path(ANSWER));
        assertSame(GuardState.class, GUARD.stateEnum());
        assertSame(GuardEvent.class, GUARD.eventEnum());
        assertNull(Access.chart(DOOR).enumNames().constantOf(0), "the root has no constant");
    }

    @Test
    void everyConstantUsedOnce_theTypedGuardCompilesAndRunsAsTheStringOne() {
        StateMachine<Guard> guard = new StateMachine<>(GUARD);
        guard.step(3);
        assertTrue(guard.send(BELL));
        assertTrue(guard.is(ANSWER));
        assertTrue(guard.send(RESUME));
        assertTrue(guard.is(WATCH) && guard.is(PATROL));
        assertEquals(1.0, guard.secondsLeft(), 1e-9, "back through the deep history with one second left");
        assertEquals(WATCH, guard.leaf(GuardState.class));
        assertEquals(Map.of("PATROL", "WATCH"), guard.value());
        assertEquals(1, guard.context().bells);
    }

    @Test
    void aStateConstantThatDeclaresNoStateIsABuildTimeError() {
        InvalidMachineException e = invalid(() -> Machine.define("guard", Guard::new, GuardState.class, GuardEvent.class, m -> m
                .state(PATROL, p -> p
                        .state(WATCH, s -> s.waitFor(4, REST))
                        .state(REST, s -> s.waitFor(10, WATCH))
                        .on(BELL, t -> t.target(WATCH))
                        .on(RESUME, WATCH)
                        .on(RESTART, WATCH))));
        assertEquals(2, e.problems().size(), e.getMessage());
        assertProblem(e, "GuardState.RESUMED declares no state; each constant of GuardState declares exactly one state: declare it"
                + " (state(RESUMED)) or remove it from the enum");
        assertProblem(e, "GuardState.ANSWER declares no state; each constant of GuardState declares exactly one state: declare it"
                + " (state(ANSWER)) or remove it from the enum");
    }

    @Test
    void aStateConstantThatDeclaresTwoStatesIsABuildTimeError() {
        InvalidMachineException e = invalid(() -> Machine.define("guard", Guard::new, GuardState.class, GuardEvent.class, m -> m
                .state(PATROL, p -> p
                        .state(WATCH, s -> s.waitFor(4, REST))
                        .state(REST, s -> s.waitFor(10, WATCH))
                        .history(RESUMED)
                        .on(BELL, ANSWER))
                .state(ANSWER, s -> s
                        .state(WATCH)
                        .on(RESUME, RESUMED)
                        .on(RESTART, WATCH))));
        assertProblem(e, "GuardState.WATCH declares 2 states, 'PATROL.WATCH' and 'ANSWER.WATCH'; each constant of GuardState"
                + " declares exactly one state: give the others constants of their own");
        assertEquals(1, e.problems().size(), "a target of the doubled constant is not reported again: " + e.getMessage());
    }

    @Test
    void anEventConstantThatNoStateTakesIsABuildTimeError() {
        InvalidMachineException e = invalid(() -> Machine.define("guard", Guard::new, GuardState.class, GuardEvent.class, m -> m
                .state(PATROL, p -> p
                        .state(WATCH)
                        .state(REST)
                        .history(RESUMED)
                        .on(BELL, ANSWER))
                .state(ANSWER, s -> s.on(BELL, RESUMED))));
        assertEquals(List.of(
                "GuardEvent.RESUME is taken by no state; each constant of GuardEvent is an event the machine takes: add on(RESUME, ...)"
                        + " to a state or remove it from the enum",
                "GuardEvent.RESTART is taken by no state; each constant of GuardEvent is an event the machine takes: add on(RESTART, ...)"
                        + " to a state or remove it from the enum"), e.problems());
    }

    @Test
    void anEventConstantMayBeTakenByManyStates() {
        Machine<Guard> m = Machine.define("bells", Guard::new, GuardState.class, GuardEvent.class, d -> d
                .state(PATROL, p -> p.state(WATCH, s -> s.on(BELL, REST)).state(REST, s -> s.on(BELL, WATCH)).history(RESUMED))
                .state(ANSWER, s -> s.on(RESUME, RESUMED).on(RESTART, PATROL).on(BELL, ANSWER)));
        assertEquals(List.of("BELL", "RESUME", "RESTART"), m.events());
    }

    @Test
    void aConstantOfAnotherEnumIsABuildTimeError() {
        InvalidMachineException e = invalid(() -> Machine.define("guard", Guard::new, GuardState.class, GuardEvent.class, m -> m
                .state(PATROL, p -> p
                        .initial(DoorState.SHUT)
                        .state(WATCH, s -> s.waitFor(4, DoorState.OPEN))
                        .state(REST)
                        .state(DoorState.SHUT)
                        .history(RESUMED, HistoryDepth.DEEP, DoorState.OPEN)
                        .on(DoorEvent.PUSH, ANSWER)
                        .on(BELL, ANSWER))
                .state(ANSWER, s -> s.on(RESUME, RESUMED).on(RESTART, PATROL))));
        assertProblem(e, "state 'PATROL.SHUT' is declared with DoorState.SHUT, but the machine's states are GuardState constants");
        assertProblem(e, "state 'PATROL' has initial 'SHUT' named by DoorState.SHUT, but the machine's states are GuardState constants");
        assertProblem(e, "state 'PATROL.RESUMED' has default target 'OPEN' named by DoorState.OPEN, but the machine's states are"
                + " GuardState constants");
        assertProblem(e, "state 'PATROL' takes event DoorEvent.PUSH, but the machine's events are GuardEvent constants");
        assertProblem(e, "state 'PATROL.WATCH' (wait) targets DoorState.OPEN, but the machine's states are GuardState constants");
        assertEquals(5, e.problems().size(), e.getMessage());
    }

    @Test
    void aTypedMachineNamesNoStateTargetOrEventByAString_withTheConstantItMeant() {
        InvalidMachineException e = invalid(() -> Machine.define("guard", Guard::new, GuardState.class, GuardEvent.class, m -> m
                .initial("PATROL")
                .state(PATROL, p -> p
                        .state(WATCH, s -> s.waitFor(4, "REST"))
                        .state(REST)
                        .state("resumd")
                        .on("BELL", t -> t.target(ANSWER))) // on("BELL", ANSWER) does not even compile
                .state(ANSWER, s -> s.on(RESUME, t -> t.target("PATROL.RESUMED")).on(RESTART, PATROL).on(BELL, PATROL))));
        assertProblem(e, "the machine's root has initial 'PATROL' named by a string, but the machine's states are GuardState constants;"
                + " name it by one; did you mean GuardState.PATROL?");
        assertProblem(e, "state 'PATROL.resumd' is named by a string, but the machine's states are GuardState constants; declare it"
                + " with one; did you mean GuardState.RESUMED?");
        assertProblem(e, "state 'PATROL' takes event 'BELL' named by a string, but the machine's events are GuardEvent constants;"
                + " name it by one; did you mean GuardEvent.BELL?");
        assertProblem(e, "state 'PATROL.WATCH' (wait) targets 'REST' by a string, but the machine's states are GuardState constants;"
                + " target one; did you mean GuardState.REST?");
        assertProblem(e, "state 'ANSWER' (on RESUME) targets 'PATROL.RESUMED' by a string, but the machine's states are GuardState"
                + " constants; target one; did you mean GuardState.RESUMED?");
        assertProblem(e, "GuardState.RESUMED declares no state; each constant of GuardState declares exactly one state: declare it"
                + " (state(RESUMED)) or remove it from the enum");
    }

    @Test
    void aMachineDefinedWithoutEnumsNamesNothingByAConstant() {
        InvalidMachineException e = invalid(() -> Machine.define("loose", Guard::new, m -> m
                .state(PATROL, s -> s.on(BELL, t -> t.target("ANSWER")))
                .state("ANSWER", s -> s.on("RESUME", t -> t.target(PATROL)))));
        assertProblem(e, "state 'PATROL' is declared with GuardState.PATROL, but the machine was defined without a state enum; define it"
                + " with Machine.define(id, context, GuardState.class, ..., body)");
        assertProblem(e, "state 'PATROL' takes event GuardEvent.BELL, but the machine was defined without an event enum; define it with"
                + " Machine.define(id, context, YourStates.class, GuardEvent.class, body)");
        assertProblem(e, "state 'ANSWER' (on RESUME) targets GuardState.PATROL, but the machine was defined without a state enum;"
                + " define it with Machine.define(id, context, GuardState.class, ..., body)");
        assertEquals(3, e.problems().size(), e.getMessage());
    }

    @Test
    void aTypedMachineWithoutAnEventEnumTakesNoEvents() {
        enum Lamp { ON, OFF }
        Machine<int[]> lamp = Machine.define("lamp", () -> new int[1], Lamp.class, m -> m
                .state(Lamp.OFF, s -> s.when(c -> c[0] > 0, Lamp.ON))
                .state(Lamp.ON, s -> s.waitFor(1, Lamp.OFF).exit((c, e) -> c[0] = 0)));
        StateMachine<int[]> fsm = new StateMachine<>(lamp);
        fsm.context()[0] = 1;
        fsm.step(0.1);
        assertTrue(fsm.is(Lamp.ON));
        fsm.step(1);
        assertTrue(fsm.is(Lamp.OFF));
        MachineException send = assertThrows(MachineException.class, () -> fsm.send(BELL));
        assertEquals("machine 'lamp' was defined with a state enum and no event enum: it takes no events, so send(GuardEvent.BELL) names"
                + " none of them", send.getMessage());
        InvalidMachineException e = invalid(() -> Machine.define("lamp", () -> new int[1], Lamp.class, m -> m
                .state(Lamp.OFF, s -> s.on("FLICK", t -> t.target(Lamp.ON)))
                .state(Lamp.ON)));
        assertEquals(List.of("state 'OFF' takes event 'FLICK', but the machine was defined with a state enum and no event enum, so it"
                + " takes no events; define it with Machine.define(id, context, Lamp.class, YourEvents.class, body)"), e.problems());
    }

    @Test
    void everyProblemOfATypedMachineIsReportedAtOnceWithTheMachinesOthers() {
        InvalidMachineException e = invalid(() -> Machine.define("guard", Guard::new, GuardState.class, GuardEvent.class, m -> m
                .state(PATROL, p -> p
                        .initial(REST) // fine
                        .state(WATCH, s -> s.waitFor(-1, REST))
                        .state(REST)
                        .on(BELL, ANSWER))
                .state(ANSWER, s -> s.on(RESUME, PATROL))));
        assertEquals(List.of(
                "state 'PATROL.WATCH' waits -1.0 seconds; expected a finite number of seconds, 0 or more",
                "GuardState.RESUMED declares no state; each constant of GuardState declares exactly one state: declare it"
                        + " (state(RESUMED)) or remove it from the enum",
                "GuardEvent.RESTART is taken by no state; each constant of GuardEvent is an event the machine takes: add"
                        + " on(RESTART, ...) to a state or remove it from the enum"), e.problems());
    }

    @Test
    void aTargetNamedByAConstantIsTheStateDeclaredWithItWhereverItLies() {
        enum S { ROOT_A, INNER, DEEP_ONE, DEEP_TWO, DONE_STATE, B, B_DONE }
        enum E { JUMP, FINISH, BACK }
        Machine<int[]> m = Machine.define("targets", () -> new int[1], S.class, E.class, d -> d
                .on(E.JUMP, S.DEEP_TWO) // the root's own transition: no '.' needed
                .state(S.ROOT_A, a -> a
                        .state(S.INNER, i -> i
                                .state(S.DEEP_ONE, s -> s.always(t -> t.target(S.DEEP_TWO).guard((c, e) -> c[0] > 0)))
                                .state(S.DEEP_TWO, s -> s.on(E.FINISH, S.DONE_STATE))
                                .finalState(S.DONE_STATE)
                                .onDone(S.B)))
                .state(S.B, b -> b
                        .on(E.BACK, S.DEEP_ONE)
                        .state(S.B_DONE)));
        StateMachine<int[]> fsm = new StateMachine<>(m);
        assertTrue(fsm.is(S.DEEP_ONE));
        assertTrue(fsm.send(E.JUMP));
        assertTrue(fsm.is(S.DEEP_TWO));
        assertTrue(fsm.send(E.FINISH));
        assertTrue(fsm.is(S.B_DONE), "onDone by constant: " + fsm.value());
        assertTrue(fsm.send(E.BACK));
        assertTrue(fsm.is(S.DEEP_ONE) && fsm.is(S.INNER) && fsm.is(S.ROOT_A));
        assertEquals("ROOT_A.INNER.DEEP_ONE", m.path(S.DEEP_ONE));
    }

    @Test
    void aHistorysDefaultTargetNamedByAConstantIsEnteredWhileNothingIsRemembered() {
        Machine<Guard> m = Machine.define("default", Guard::new, GuardState.class, GuardEvent.class, d -> d
                .initial(ANSWER)
                .state(PATROL, p -> p
                        .state(WATCH)
                        .state(REST)
                        .history(RESUMED, h -> h.deep().defaultTarget(REST))
                        .on(BELL, ANSWER))
                .state(ANSWER, s -> s.on(RESUME, RESUMED).on(RESTART, PATROL)));
        StateMachine<Guard> fsm = new StateMachine<>(m);
        assertTrue(fsm.send(RESUME));
        assertTrue(fsm.is(REST), "nothing remembered: the default, " + fsm.value());
        InvalidMachineException outside = invalid(() -> Machine.define("default", Guard::new, GuardState.class, GuardEvent.class, d -> d
                .state(PATROL, p -> p.state(WATCH).state(REST).history(RESUMED, HistoryDepth.SHALLOW, ANSWER).on(BELL, ANSWER))
                .state(ANSWER, s -> s.on(RESUME, RESUMED).on(RESTART, PATROL))));
        assertEquals(List.of("state 'PATROL.RESUMED' has default target 'ANSWER', which is not inside state 'PATROL'; a history's"
                + " default must be one of its parent's descendants"), outside.problems());
    }

    @Test
    void aTypedMachinesGuardsAndActionsSeeTheEventsConstant() {
        enum S { IDLE, BUSY }
        enum E { WORK, REST }
        List<Object> seen = new ArrayList<>();
        Machine<List<Object>> m = Machine.define("seen", () -> seen, S.class, E.class, d -> d
                .state(S.IDLE, s -> s.on(E.WORK, t -> t.target(S.BUSY).guard((c, e) -> e.is(E.WORK)).action((c, e) -> c.add(e.constant()))))
                .state(S.BUSY, s -> s.on(E.REST, t -> t.target(S.IDLE).action((c, e) -> c.add(e.get("why"))))));
        StateMachine<List<Object>> fsm = new StateMachine<>(m);
        assertTrue(fsm.send(E.WORK));
        assertTrue(fsm.send(Event.of(E.REST, Map.of("why", "tired"))));
        assertTrue(fsm.send("WORK"), "a name sent as a string still works");
        assertEquals(List.of(E.WORK, "tired", E.WORK), seen);
        assertTrue(Event.of("REST").is(E.REST), "an event named by a string is its constant's by name");
    }

    // ------------------------------------------------------------------ typed uses, on entities

    @Test
    void typedQuerySendAndRead_onEntities() {
        States<Guard> guards = States.of(GUARD);
        world = StateWorld.create();
        Entity ada = world.spawn(guards.trait());
        Entity bo = world.spawn(guards.trait().setState(REST));
        for (int i = 0; i < 180; i++) {
            world.step(1.0 / 60);
        }
        assertEquals(1, world.query(guards.is(WATCH)).count());
        assertEquals(1, world.query(guards.is(REST)).count());
        assertEquals(2, world.query(guards.is(PATROL)).count());
        assertTrue(guards.send(ada, BELL));
        assertTrue(ada.has(guards.is(ANSWER)) && !ada.has(guards.is(PATROL)));
        StateRecord<Guard> r = guards.read(ada);
        assertTrue(r.is(ANSWER) && r.matches(ANSWER) && !r.is(PATROL));
        assertEquals(ANSWER, r.leaf(GuardState.class));
        assertTrue(guards.send(ada, Event.of(RESUME)));
        assertTrue(r.is(WATCH));
        assertEquals(1.0, r.secondsLeft(), 1e-9);
        assertEquals(0.0, r.timeIn(PATROL), 1e-9, "the patrol was entered again, through its history");
        assertEquals(0.0, r.timeIn(ANSWER), 1e-9, "not active");
        assertEquals(REST, guards.read(bo).leaf(GuardState.class));
        // string names keep working, in the constants' spelling
        assertTrue(r.is("PATROL.WATCH") && r.matches("PATROL.WATCH") && r.is("WATCH"));
        assertEquals(world.query(guards.is("PATROL.WATCH")).count(), world.query(guards.is(WATCH)).count());
        assertFalse(guards.send(bo, "RESUME"), "only the answer takes RESUME");
    }

    @Test
    void typedHandSetStates_historyAndPaused() {
        States<Guard> guards = States.of(GUARD);
        world = StateWorld.create();
        Entity cy = world.spawn(guards.trait().setState(ANSWER).setHistory(RESUMED, REST).setPaused(REST, 7));
        assertEquals(List.of("PATROL.REST"), guards.read(cy).remembered("PATROL.RESUMED"));
        guards.send(cy, RESUME);
        assertEquals(3.0, guards.read(cy).secondsLeft(), 1e-9);
    }

    @Test
    void aConstantOfAnotherEnumIsAClearErrorAtEveryUse() {
        States<Guard> guards = States.of(GUARD);
        world = StateWorld.create();
        Entity ada = world.spawn(guards.trait());
        StateRecord<Guard> r = guards.read(ada);
        String isDoor = "machine 'guard' names its states by GuardState, so is(DoorState.OPEN) names none of them; expected a"
                + " GuardState constant";
        assertEquals(isDoor, assertThrows(MachineException.class, () -> guards.is(DoorState.OPEN)).getMessage());
        assertEquals(isDoor, assertThrows(MachineException.class, () -> r.is(DoorState.OPEN)).getMessage());
        assertEquals("machine 'guard' names its states by GuardState, so is(GuardEvent.BELL) names none of them; expected a GuardState"
                + " constant", assertThrows(MachineException.class, () -> guards.is(BELL)).getMessage());
        assertEquals("machine 'guard' names its events by GuardEvent, so send(GuardState.WATCH) names none of them; expected a"
                + " GuardEvent constant", assertThrows(MachineException.class, () -> guards.send(ada, WATCH)).getMessage());
        assertThrows(MachineException.class, () -> guards.send(ada, Event.of(DoorEvent.PUSH)));
        assertThrows(MachineException.class, () -> r.setState(DoorState.SHUT));
        assertThrows(MachineException.class, () -> r.matches(DoorState.SHUT));
        assertThrows(MachineException.class, () -> r.leaf(DoorState.class));
        assertTrue(r.is(WATCH), "nothing changed");
        // on the plain face too
        StateMachine<Guard> plain = new StateMachine<>(GUARD);
        assertEquals(isDoor, assertThrows(MachineException.class, () -> plain.is(DoorState.OPEN)).getMessage());
        assertThrows(MachineException.class, () -> plain.matches(DoorState.OPEN));
        assertThrows(MachineException.class, () -> plain.timeIn(DoorState.OPEN));
        assertThrows(MachineException.class, () -> plain.leaf(DoorState.class));
        assertThrows(MachineException.class, () -> plain.go(DoorState.OPEN));
        assertThrows(MachineException.class, () -> plain.send(DoorEvent.PUSH));
        assertThrows(MachineException.class, () -> StateMachine.startIn(GUARD, new Guard(), DoorState.OPEN));
        assertTrue(plain.is(WATCH), "nothing changed");
    }

    @Test
    void aConstantOnAMachineNamedByStringsIsAClearError() {
        Machine<Guard> strings = Machine.define("strings", Guard::new, m -> m.state("WATCH", s -> s.on("BELL", "WATCH")));
        StateMachine<Guard> fsm = new StateMachine<>(strings);
        assertEquals("machine 'strings' names its states by strings (it was defined without a state enum), so is(GuardState.WATCH)"
                + " names none of them; pass the state's path as a string, such as \"WATCH\"",
                assertThrows(MachineException.class, () -> fsm.is(WATCH)).getMessage());
        assertEquals("machine 'strings' names its events by strings (it was defined without an event enum), so send(GuardEvent.BELL)"
                + " names none of them; send the event's type as a string, such as \"BELL\"",
                assertThrows(MachineException.class, () -> fsm.send(BELL)).getMessage());
        assertTrue(fsm.send("BELL"));
    }

    @Test
    void typedSendIsReadAndQueryAllocateNothingOnceWarm() {
        States<Guard> guards = States.of(GUARD);
        world = StateWorld.create();
        Entity ada = world.spawn(guards.trait());
        StateRecord<Guard> r = guards.read(ada);
        StateMachine<Guard> plain = new StateMachine<>(GUARD);
        boolean[] sink = new boolean[1];
        Runnable work = () -> {
            for (int i = 0; i < 1_000; i++) {
                guards.send(ada, BELL);
                sink[0] ^= r.is(ANSWER) & r.matches(PATROL);
                guards.send(ada, RESTART);
                sink[0] ^= guards.is(WATCH) == null;
                plain.send(BELL);
                sink[0] ^= plain.is(ANSWER);
                plain.send(RESUME);
            }
        };
        long typed = Allocations.warmThenMeasure(work);
        // a send on an entity moves its tags: compare with the same sends by name
        long byName = Allocations.warmThenMeasure(() -> {
            for (int i = 0; i < 1_000; i++) {
                guards.send(ada, "BELL");
                sink[0] ^= r.is("ANSWER") & r.matches("PATROL");
                guards.send(ada, "RESTART");
                sink[0] ^= guards.is("PATROL.WATCH") == null;
                plain.send("BELL");
                sink[0] ^= plain.is("ANSWER");
                plain.send("RESUME");
            }
        });
        long plainOnly = Allocations.warmThenMeasure(() -> {
            for (int i = 0; i < 1_000; i++) {
                plain.send(BELL);
                sink[0] ^= plain.is(ANSWER) & plain.matches(ANSWER);
                plain.send(RESTART);
            }
        });
        assertTrue(plainOnly <= Allocations.MEASUREMENT_MARGIN, "typed sends and reads on the plain face allocate " + plainOnly + " B");
        assertTrue(typed <= byName + Allocations.MEASUREMENT_MARGIN, "typed sends on entities allocate " + typed + " B, by name "
                + byName + " B");
    }

    /** A context the saves can write (public fields). */
    public static final class Bells {
        public int bells;
    }

    @Test
    void aTypedMachinesCheckpointsAndInputLogsNameItsStatesAndEventsByTheConstantsNames() {
        States<Bells> guards = States.define("saved-guard", Bells::new, GuardState.class, GuardEvent.class, m -> m
                .state(PATROL, p -> p
                        .state(WATCH, s -> s.waitFor(4, REST))
                        .state(REST, s -> s.waitFor(10, WATCH))
                        .history(RESUMED, HistoryDepth.DEEP)
                        .on(BELL, ANSWER))
                .state(ANSWER, s -> s.entry((g, e) -> g.bells++).on(RESUME, RESUMED).on(RESTART, PATROL)));
        dev.enginestates.io.Saves saves = dev.enginestates.io.Saves.of(guards);
        world = StateWorld.create();
        try (StateWorld replayed = StateWorld.create()) {
            Entity ada = world.spawn(dev.enginestates.ecs.EntityKey.of("ada"), guards.trait());
            dev.enginestates.io.InputLog log = dev.enginestates.io.InputLog.start(saves, world);
            for (int i = 0; i < 180; i++) {
                world.step(1.0 / 60);
            }
            guards.send(ada, BELL);
            guards.send(ada, Event.of(RESUME, Map.of("by", "captain")));
            world.step(1.0 / 60);
            String text = log.text();
            assertTrue(text.contains("\"BELL\"") && text.contains("\"RESUME\""), text);
            assertTrue(saves.checkpoint(world).contains("PATROL"), saves.checkpoint(world));
            dev.enginestates.io.InputLog.replay(saves, replayed, text);
            assertEquals(saves.checkpoint(world), saves.checkpoint(replayed), "the replay by name ends where the typed sends did");
            assertTrue(guards.read(replayed.entity("ada")).is(WATCH));
        }
    }

    // ------------------------------------------------------------------ a string that names nothing

    @Test
    void matchesOfAnUnknownStringThrowsWithASuggestion() {
        States<Guard> guards = States.of(Machine.define("strguard", Guard::new, m -> m
                .state("patrol", p -> p.state("watch").state("rest").on("BELL", "answer"))
                .state("answer")));
        world = StateWorld.create();
        StateRecord<Guard> r = guards.read(world.spawn(guards.trait()));
        assertTrue(r.matches("patrol.watch"));
        assertFalse(r.matches("answer"));
        MachineException typo = assertThrows(MachineException.class, () -> r.matches("patrol.wach"));
        assertTrue(typo.getMessage().startsWith("machine 'strguard' has no state 'patrol.wach' to match"), typo.getMessage());
        assertTrue(typo.getMessage().endsWith("; did you mean 'patrol.watch'?"), typo.getMessage());
        MachineException key = assertThrows(MachineException.class, () -> r.matches("watch"));
        assertTrue(key.getMessage().endsWith("; did you mean 'patrol.watch'?"), "a key alone is not a path: " + key.getMessage());
        assertTrue(assertThrows(MachineException.class, () -> r.is("patrol.wach")).getMessage().endsWith("did you mean 'patrol.watch'?"));
        assertTrue(assertThrows(MachineException.class, () -> r.setState("anwser")).getMessage().endsWith("did you mean 'answer'?"));
        assertTrue(assertThrows(MachineException.class, () -> guards.is("answr")).getMessage().endsWith("did you mean 'answer'?"));
        assertTrue(assertThrows(UnknownEventException.class, () -> guards.send(r.entity(), "BEL")).getMessage()
                .endsWith("; did you mean 'BELL'?"));
        // the plain face too
        StateMachine<Guard> plain = new StateMachine<>(guards.machine());
        MachineException p = assertThrows(MachineException.class, () -> plain.matches("patrol.wach"));
        assertTrue(p.getMessage().endsWith("; did you mean 'patrol.watch'?"), p.getMessage());
        assertTrue(plain.matches("") && plain.matches("patrol"), "the root and a compound state match");
    }
}

package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Allocations;
import dev.enginestates.Fixtures;
import dev.enginestates.Machine;
import dev.enginestates.MachineListener;
import dev.enginestates.StatesDef;
import dev.enginestates.declare.UserCodeException;
import dev.enginestates.fsm.AIContext;
import dev.enginestates.fsm.StateMachineBuilder;
import dev.enginestates.io.Saves;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue "The room's outside", part 1: listeners per world and per machine, any number, hearing
 * state changes (from, to, the event), waits started and ended, events refused; a listener that
 * throws is reported like user code and never corrupts a step; nothing is done for them when
 * none listens. And the top state a page shows (the {@code 003} document's useMachineState:
 * "patrol" while the guard is in patrol.watch, the parallel state's own name while its regions
 * move, nothing while the entity holds no record).
 */
class ListenersTest {
    static final class Guard {
    }

    static final States<Guard> GUARD = States.define("listened-guard", Guard::new, Fixtures.guard());
    static final States<Guard> SIEGE = States.define("listened-siege", Guard::new, Fixtures.siege());
    static final States<Guard> ARMED = States.define("listened-armed", Guard::new, Fixtures.armed());

    /** Writes what it hears as lines, such as {@code "changed listened-guard patrol.watch>answer BELL"}. */
    static final class Log implements MachineListener<StateRecord<?>> {
        final List<String> lines = new ArrayList<>();

        @Override
        public void stateChanged(StateRecord<?> machine, String from, String to, String event) {
            lines.add("changed " + machine.machineId() + " " + from + ">" + to + " " + event);
        }

        @Override
        public void waitStarted(StateRecord<?> machine, String state, double seconds) {
            lines.add("wait " + machine.machineId() + " " + state + " " + seconds);
        }

        @Override
        public void waitEnded(StateRecord<?> machine, String state, boolean elapsed) {
            lines.add("ended " + machine.machineId() + " " + state + (elapsed ? " elapsed" : " left"));
        }

        @Override
        public void eventRefused(StateRecord<?> machine, String event) {
            lines.add("refused " + machine.machineId() + " " + event);
        }
    }

    @Test
    void aSendThatMovesIsHeardWithFromToAndTheEventAndTheWaitItLeft() {
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            Log log = new Log();
            world.addListener(log);
            assertTrue(GUARD.send(g, "BELL"));
            assertEquals(List.of("ended listened-guard patrol.watch left", "changed listened-guard patrol.watch>answer BELL"),
                    log.lines);
        }
    }

    @Test
    void aWaitThatRunsOutIsHeardEndedAsElapsedAndTheNextWaitStarted() {
        try (StateWorld world = StateWorld.create()) {
            world.spawn(GUARD.trait());
            Log log = new Log();
            world.addListener(log);
            for (int i = 0; i < 5; i++) {
                world.step(1);
            }
            assertEquals(List.of("ended listened-guard patrol.watch elapsed", "changed listened-guard patrol.watch>patrol.rest states.wait",
                    "wait listened-guard patrol.rest 10.0"), log.lines);
        }
    }

    @Test
    void aRefusedEventIsHeardAndNothingMoves() {
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            Log log = new Log();
            world.addListener(log);
            assertFalse(GUARD.send(g, "RESUME"), "patrol names no RESUME");
            assertEquals(List.of("refused listened-guard RESUME"), log.lines);
        }
    }

    @Test
    void aMachineListenerHearsItsMachineOnlyAndListenersRunInTheOrderAdded() {
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait(), SIEGE.trait());
            List<String> order = new ArrayList<>();
            world.addListener(GUARD, new MachineListener<StateRecord<Guard>>() {
                @Override
                public void stateChanged(StateRecord<Guard> machine, String from, String to, String event) {
                    order.add("guard-only " + to);
                }
            });
            world.addListener(new MachineListener<Object>() {
                @Override
                public void stateChanged(Object machine, String from, String to, String event) {
                    order.add("all " + to);
                }
            });
            SIEGE.send(g, "START");
            GUARD.send(g, "BELL");
            assertEquals(List.of("all fight", "guard-only answer", "all answer"), order);
        }
    }

    @Test
    void aRecordJoiningOrLeavingTheWorldIsHeardFromAndToNothing() {
        try (StateWorld world = StateWorld.create()) {
            Log log = new Log();
            world.addListener(log);
            Entity g = world.spawn(GUARD.trait());
            world.attach(g, SIEGE.trait());
            world.detach(g, SIEGE);
            world.despawn(g);
            assertEquals(List.of(
                    "changed listened-guard >patrol.watch spawn", "wait listened-guard patrol.watch 4.0",
                    "changed listened-siege >waiting spawn",
                    "changed listened-siege waiting> despawn",
                    "ended listened-guard patrol.watch left", "changed listened-guard patrol.watch> despawn"), log.lines);
        }
    }

    @Test
    void aRemovedListenerHearsNothingMore() {
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            Log log = new Log();
            world.addListener(log);
            assertTrue(world.removeListener(log));
            assertFalse(world.removeListener(log), "removed once");
            GUARD.send(g, "BELL");
            assertEquals(List.of(), log.lines);
        }
    }

    @Test
    void aListenerAddedLateHearsFromTheStateNowNotFromSpawn() {
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            GUARD.send(g, "BELL"); // unheard
            Log log = new Log();
            world.addListener(log);
            GUARD.send(g, "RESUME");
            assertEquals(List.of("changed listened-guard answer>patrol.watch RESUME", "wait listened-guard patrol.watch 4.0"),
                    log.lines);
        }
    }

    @Test
    void aListenerThatThrowsInAStepFailsItsOwnMachineOnlyAndTheStepGoesOn() {
        try (StateWorld world = StateWorld.create()) {
            Entity a = world.spawn(GUARD.trait());
            Entity b = world.spawn(GUARD.trait());
            List<MachineFailure> failures = new ArrayList<>();
            world.onFailure(failures::add);
            world.addListener(GUARD, new MachineListener<StateRecord<Guard>>() {
                @Override
                public void stateChanged(StateRecord<Guard> machine, String from, String to, String event) {
                    if (machine.entity() == a) {
                        throw new IllegalStateException("the page crashed");
                    }
                }
            });
            world.step(4);
            assertEquals("patrol.rest", GUARD.read(a).state(), "the record moved whole before it was told");
            assertEquals("patrol.rest", GUARD.read(b).state(), "the other machine moved");
            assertEquals(1, failures.size());
            assertTrue(failures.get(0).cause() instanceof UserCodeException, failures.get(0).toString());
            assertTrue(failures.get(0).cause().getMessage().contains("a listener"), failures.get(0).cause().getMessage());
            world.step(10);
            assertEquals("patrol.watch", GUARD.read(a).state(), "its wait was not lost");
        }
    }

    @Test
    void aListenerThatThrowsOnASendIsThrownOnceTheMoveIsWholeAndOtherListenersStillHear() {
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            world.addListener(new MachineListener<Object>() {
                @Override
                public void stateChanged(Object machine, String from, String to, String event) {
                    throw new IllegalStateException("boom");
                }
            });
            Log log = new Log();
            world.addListener(log);
            UserCodeException x = assertThrows(UserCodeException.class, () -> GUARD.send(g, "BELL"));
            assertTrue(x.getMessage().contains("listened-guard") && x.getMessage().contains("BELL"), x.getMessage());
            assertEquals("answer", GUARD.read(g).state());
            assertTrue(g.has(GUARD.is("answer")), "the tags followed");
            assertTrue(log.lines.contains("changed listened-guard patrol.watch>answer BELL"), log.lines::toString);
        }
    }

    @Test
    void aRestoreIsHeardAsRestore() {
        Saves saves = Saves.of(GUARD);
        try (StateWorld a = StateWorld.create(); StateWorld b = StateWorld.create()) {
            a.spawn(EntityKey.of("g"), GUARD.trait());
            b.spawn(EntityKey.of("g"), GUARD.trait());
            GUARD.send(a.entity("g"), "BELL");
            String cp = saves.checkpoint(a);
            Log log = new Log();
            b.addListener(log);
            saves.restore(b, cp);
            assertTrue(log.lines.contains("changed listened-guard patrol.watch>answer restore"), log.lines::toString);
        }
    }

    static final class Door extends AIContext {
    }

    @Test
    void everyStyleOnAnEntityIsHeard() {
        StatesDef<int[]> polled = StatesDef.define("listened-polled", () -> new int[1], d -> d
                .initial("idle")
                .state("idle", s -> s.to("busy", (c, t) -> c[0] > 0))
                .state("busy", s -> { }));
        States<int[]> polledStates = States.of(polled);
        States<Door> builder = States.of(new StateMachineBuilder<Door>("listened-door", Door::new)
                .configureState("Closed").asInitial().handler((c, dt) -> "Open")
                .configureState("Open").handler((c, dt) -> null)
                .build());
        try (StateWorld world = StateWorld.create()) {
            int[] flag = {0};
            world.spawn(polledStates.trait(flag), builder.trait());
            Log log = new Log();
            world.addListener(log);
            flag[0] = 1;
            world.step(0.1);
            assertEquals(List.of("changed listened-polled idle>busy step", "changed listened-door Closed>Open update"), log.lines);
        }
    }

    @Test
    void topStateIsTheStateUnderTheRootOrNothing() {
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait(), ARMED.trait());
            Entity bare = world.spawn();
            assertEquals("patrol", GUARD.topState(g), "003: \"patrol\" while the guard is in patrol.watch");
            assertEquals("patrol", GUARD.read(g).topState());
            assertEquals("armed", ARMED.topState(g), "a parallel state reads as its own name");
            ARMED.send(g, "FIRE");
            assertEquals("armed", ARMED.topState(g), "while its regions move");
            assertEquals("", GUARD.topState(bare), "no record");
            assertEquals("", GUARD.topState((Entity) null), "no entity");
            world.despawn(g);
            assertEquals("", GUARD.topState(g), "a deleted entity");
        }
    }

    @Test
    void aTopStateListenerHearsOnlyTheTopStateChange() {
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            List<String> heard = new ArrayList<>();
            world.addListener(GUARD, MachineListener.onTopState((StateRecord<Guard> r, String from, String to) ->
                    heard.add(from + ">" + to)));
            world.step(4); // patrol.watch to patrol.rest: the top state stays patrol
            GUARD.send(g, "BELL");
            GUARD.send(g, "RESUME");
            world.despawn(g);
            assertEquals(List.of("patrol>answer", "answer>patrol", "patrol>"), heard);
        }
    }

    enum Top { PATROL, WATCH, REST, RESUMED, ANSWER }

    @Test
    void aTypedMachinesTopStateIsAConstant() {
        States<Guard> typed = States.of(Machine.define("listened-typed", Guard::new, Top.class, m -> m
                .initial(Top.PATROL)
                .state(Top.PATROL, p -> p.initial(Top.WATCH)
                        .state(Top.WATCH, s -> s.waitFor(4, Top.REST))
                        .state(Top.REST)
                        .history(Top.RESUMED))
                .state(Top.ANSWER)));
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(typed.trait());
            assertSame(Top.PATROL, typed.topState(g, Top.class));
            assertNull(typed.topState(world.spawn(), Top.class));
            assertThrows(dev.enginestates.declare.MachineException.class, () -> GUARD.topState(g, Top.class),
                    "a machine named by strings has no constants");
        }
    }

    /** Without tags, so that Dominion's own component moves are not measured. */
    static final States<Guard> UNTAGGED = States.define("listened-untagged", Guard::new,
            m -> Fixtures.<Guard>guard().accept(m.tags(false)));

    @Test
    void noListenerMeansNoAllocationForListeners() {
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(UNTAGGED.trait());
            Runnable sendTwice = () -> {
                UNTAGGED.send(g, "BELL");
                UNTAGGED.send(g, "RESTART");
            };
            long bytes = Allocations.warmThenMeasure(sendTwice);
            assertEquals(0, bytes, "a send with nobody listening allocates nothing");
        }
    }

    @Test
    void aListenerMaySendDespawnOrAddListenersAndTheWorldStaysWhole() {
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            Entity s = world.spawn(SIEGE.trait());
            Log late = new Log();
            world.addListener(GUARD, new MachineListener<StateRecord<Guard>>() {
                @Override
                public void stateChanged(StateRecord<Guard> machine, String from, String to, String event) {
                    if (to.equals("patrol.rest")) {
                        SIEGE.send(s, "START");          // a move inside a move
                        world.addListener(late);         // heard from the next move on
                        world.despawn(machine.entity()); // the entity it is told about goes away
                    }
                }
            });
            world.step(4);
            assertTrue(g.isDeleted());
            assertEquals("fight", SIEGE.read(s).state());
            assertTrue(s.has(SIEGE.is("fight")));
            world.step(1);
            SIEGE.send(s, "ALL_DOWN");
            assertEquals(List.of("changed listened-guard patrol.rest> despawn", "changed listened-siege fight>over ALL_DOWN"),
                    late.lines, "added before the despawn, it hears it; the wait the despawned guard would have started is not told");
        }
    }
}

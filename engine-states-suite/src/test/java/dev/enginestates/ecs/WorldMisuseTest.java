package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.MachineListener;
import dev.enginestates.declare.MachineException;
import dev.enginestates.io.Saves;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a game server does to a world that the happy path does not: records detached while held
 * and attached again, setters from another thread, listeners that despawn or throw, disabled
 * entities, a shared Dominion, a restore under a hold, {@code close()} from a machine's code.
 * Each found by an attack; each test failed before its fix. The rules: a record is held only while
 * its entity carries a hold (README, "Holds"); a refused call changes nothing (README, "Threads";
 * DESIGN.md); a listener's failure is its own machine's and is thrown by the call that moved it;
 * tags follow the record.
 */
class WorldMisuseTest {
    static final class Ctx {
    }

    static final States<Ctx> CLOCK = States.define("misuse2-clock", Ctx::new, m -> m.initial("a")
            .state("a", s -> s.waitFor(1, "b")).state("b", s -> s.waitFor(1, "a")));

    static final States<Ctx> DOOR = States.define("misuse2-door", Ctx::new, m -> m.initial("shut")
            .state("shut", s -> s.on("OPEN", "open")).state("open", s -> s.on("SHUT", "shut")));

    static final States<Ctx> LAMP = States.define("misuse2-lamp", Ctx::new, m -> m.initial("off")
            .state("off", s -> s.on("ON", "on").waitFor(1, "on")).state("on", s -> s.on("OFF", "off")));

    @Test
    void aRecordDetachedWhileHeldAndAttachedToAnUnheldEntityCountsAgain() {
        try (StateWorld world = StateWorld.create()) {
            StateRecord<Ctx> r = CLOCK.trait();
            Entity e = world.spawn(r, MachinePaused.INSTANCE);
            world.step(0.5);
            assertTrue(r.isHeld());
            world.detach(e, CLOCK);
            world.step(0.1);
            Entity f = world.spawn();
            world.attach(f, r);
            world.step(0.1);
            assertFalse(r.isHeld(), "its new entity carries no hold");
            for (int i = 0; i < 10; i++) {
                world.step(0.1);
            }
            assertTrue(CLOCK.read(f).matches("b"), "its wait counted again: " + CLOCK.read(f));
        }
    }

    @Test
    void aRecordDetachedWhileHeldAndAttachedToAHeldEntityStaysHeldWithTheSecondsItHad() {
        try (StateWorld world = StateWorld.create()) {
            StateRecord<Ctx> r = CLOCK.trait();
            Entity e = world.spawn(r);
            world.step(0.25);
            e.add(MachinePaused.INSTANCE);
            world.step(0.5);
            world.detach(e, CLOCK);
            Entity f = world.spawn(MachinePaused.INSTANCE);
            world.attach(f, r);
            for (int i = 0; i < 10; i++) {
                world.step(0.1);
            }
            assertTrue(r.isHeld());
            assertEquals(0.25, r.waited(), 1e-9);
            f.removeType(MachinePaused.class);
            world.step(0.5);
            assertEquals(0.75, r.waited(), 1e-9, "it counts on from where it stood");
        }
    }

    @Test
    void aHeldRecordMovedToAnotherWorldCountsThere() {
        try (StateWorld w1 = StateWorld.create(); StateWorld w2 = StateWorld.create()) {
            StateRecord<Ctx> r = CLOCK.trait();
            Entity e = w1.spawn(r, MachinePaused.INSTANCE);
            w1.step(0.5);
            w1.detach(e, CLOCK);
            Entity f = w2.spawn();
            w2.attach(f, r);
            w2.step(0.1);
            w2.step(1.0);
            assertTrue(CLOCK.read(f).matches("b"), String.valueOf(CLOCK.read(f)));
        }
    }

    static Throwable onAnotherThread(Runnable r) throws InterruptedException {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                r.run();
            } catch (Throwable x) {
                thrown.set(x);
            }
        });
        t.start();
        t.join();
        return thrown.get();
    }

    @Test
    void aRecordsSettersCalledFromAnotherThreadAreRefusedAndChangeNothing() throws InterruptedException {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(EntityKey.of("c"), CLOCK.trait());
            world.step(0.25);
            StateRecord<Ctx> r = CLOCK.read(e);
            Saves saves = Saves.of(CLOCK);
            String before = saves.checkpoint(world);
            assertInstanceOf(IllegalStateException.class, onAnotherThread(() -> r.setWaited(0.9)));
            assertInstanceOf(IllegalStateException.class, onAnotherThread(() -> r.setPaused("b", 0.5)));
            assertInstanceOf(IllegalStateException.class, onAnotherThread(() -> r.setState("b")));
            assertEquals(before, saves.checkpoint(world));
            assertEquals(0.75, r.secondsLeft(), 1e-9);
            assertTrue(Double.isNaN(r.paused("b")));
        }
    }

    @Test
    void aListenersFailureOnARecordTakenOffThroughDominionIsThrownByTheCallThatNoticedItNotByALaterOne() {
        try (StateWorld world = StateWorld.create()) {
            Entity door = world.spawn(EntityKey.of("door"), DOOR.trait());
            Entity lamp = world.spawn(EntityKey.of("lamp"), LAMP.trait());
            world.addListener(DOOR, new MachineListener<StateRecord<Ctx>>() {
                @Override
                public void stateChanged(StateRecord<Ctx> m, String from, String to, String event) {
                    if (to.isEmpty()) {
                        throw new IllegalStateException("door listener");
                    }
                }
            });
            door.removeType(DOOR.recordClass());
            RuntimeException noticed = assertThrows(RuntimeException.class, () -> world.records(DOOR));
            assertTrue(noticed.getMessage().contains("misuse2-door"), noticed.getMessage());
            assertEquals(0, world.records(DOOR).size());
            assertDoesNotThrow(() -> LAMP.send(lamp, "ON"));
        }
    }

    @Test
    void listenersAfterOneThatDespawnsHearEachRecordsMovesInTheOrderTheyHappened() {
        try (StateWorld world = StateWorld.create()) {
            Entity door = world.spawn(EntityKey.of("door"), DOOR.trait());
            List<String> heard = new ArrayList<>();
            world.addListener(DOOR, new MachineListener<StateRecord<Ctx>>() {
                @Override
                public void stateChanged(StateRecord<Ctx> m, String from, String to, String event) {
                    if (to.equals("open")) {
                        world.despawn(m.entity());
                    }
                }
            });
            world.addListener(DOOR, new MachineListener<StateRecord<Ctx>>() {
                @Override
                public void stateChanged(StateRecord<Ctx> m, String from, String to, String event) {
                    heard.add(from + "->" + to + " (" + event + ")");
                }
            });
            DOOR.send(door, "OPEN");
            assertEquals(List.of("shut->open (OPEN)", "open-> (despawn)"), heard);
        }
    }

    @Test
    void aMachineMovedWhileItsEntityIsDisabledHasItsTagsOnceTheEntityIsEnabled() {
        try (StateWorld world = StateWorld.create()) {
            Entity door = world.spawn(DOOR.trait());
            Entity lamp = world.spawn(LAMP.trait());
            door.setEnabled(false);
            lamp.setEnabled(false);
            assertTrue(DOOR.send(door, "OPEN"));
            world.step(1.5); // the lamp's wait moves it while disabled
            world.step(1.0 / 60);
            door.setEnabled(true);
            lamp.setEnabled(true);
            world.step(1.0 / 60);
            assertTrue(door.has(DOOR.is("open")) && !door.has(DOOR.is("shut")));
            assertTrue(lamp.has(LAMP.is("on")) && !lamp.has(LAMP.is("off")));
            assertEquals(1, world.query(DOOR.is("open")).count());
            assertEquals(0, world.query(DOOR.is("shut")).count());
        }
    }

    @Test
    void attachOrDetachOnADisabledEntityIsRefusedAndChangesNothing() {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(EntityKey.of("e"), LAMP.trait());
            e.setEnabled(false);
            StateRecord<Ctx> r = DOOR.trait();
            MachineException a = assertThrows(MachineException.class, () -> world.attach(e, r));
            assertTrue(a.getMessage().contains("disabled"), a.getMessage());
            assertThrows(MachineException.class, () -> world.detach(e, LAMP));
            e.setEnabled(true);
            assertNull(e.get(DOOR.recordType()));
            assertEquals(1, world.records(LAMP).size());
            assertDoesNotThrow(() -> world.attach(e, r));
        }
    }

    @Test
    void aCheckpointAndRestoreWorkOnAWorldSharingItsDominion() {
        try (StateWorld w1 = StateWorld.create("one")) {
            StateWorld w2 = StateWorld.over(w1.dominion());
            Entity a = w1.spawn(EntityKey.of("a"), DOOR.trait());
            w2.spawn(EntityKey.of("b"), DOOR.trait());
            Saves saves = Saves.of(DOOR);
            String cp = saves.checkpoint(w1);
            DOOR.send(a, "OPEN");
            assertDoesNotThrow(() -> saves.restore(w1, cp));
            assertTrue(DOOR.read(a).matches("shut"));
        }
    }

    @Test
    void aRestoreOfAnUnheldCheckpointOntoAnEntityStillPausedLeavesTheMachineHeld() {
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(EntityKey.of("e"), CLOCK.trait());
            Saves saves = Saves.of(CLOCK);
            String unheld = saves.checkpoint(world);
            e.add(MachinePaused.INSTANCE);
            world.step(0.1);
            assertTrue(CLOCK.read(e).isHeld());
            saves.restore(world, unheld);
            world.step(0.1);
            assertTrue(CLOCK.read(e).isHeld(), "holds are read at every step, however the record got there");
            for (int i = 0; i < 20; i++) {
                world.step(0.1);
            }
            assertTrue(CLOCK.read(e).matches("a"), "its wait does not count under MachinePaused");
        }
    }

    static final States<Ctx> CLOSER = States.define("misuse2-closer", Ctx::new, m -> m.initial("a")
            .state("a", s -> s.waitFor(1, t -> t.target("b").action((c, ev, self) -> ((StateWorld) self.world()).close())))
            .state("b"));

    @Test
    void closeFromAMachinesOwnCodeDuringAStepIsRefusedAsItsFailureOnly() {
        try (StateWorld world = StateWorld.create()) {
            world.spawn(CLOSER.trait());
            Entity lamp = world.spawn(LAMP.trait());
            List<MachineFailure> failures = new ArrayList<>();
            world.onFailure(failures::add);
            world.step(1);
            assertEquals(1, failures.size(), failures.toString());
            assertInstanceOf(IllegalStateException.class, failures.get(0).cause().getCause());
            assertTrue(lamp.has(LAMP.is("on")));
            assertDoesNotThrow(() -> world.spawn(LAMP.trait()));
        }
    }
}

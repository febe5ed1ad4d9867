package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.MachineListener;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.UnknownEventException;
import dev.enginestates.declare.UserCodeException;
import dev.enginestates.records.MachineRecord;
import dev.enginestates.records.RecordBytes;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code States.can(entity, event)}, {@code record.can(event)} and {@code permittedEvents}: true
 * exactly when a send would be taken; nothing moves, nothing is told or logged; asked where a
 * send may be (between steps, from a listener, from another machine's code), refused where a send
 * is (another thread, the machine's own code).
 */
class CanOnEntitiesTest {
    static final class Door {
        int opened;
        boolean locked;
        final List<String> log = new ArrayList<>();
    }

    static final States<Door> DOOR = States.define("door", Door::new, m -> m
            .initial("shut")
            .state("shut", s -> s
                    .exit((d, e) -> d.log.add("exit shut"))
                    .on("OPEN", t -> t.target("open").guard((d, e) -> !d.locked || e.isTrue("key")).action((d, e) -> d.opened++))
                    .on("KNOCK", t -> t.action((d, e) -> d.log.add("knock"))))
            .state("open", s -> s
                    .entry((d, e) -> d.log.add("enter open"))
                    .waitFor(5, "shut")
                    .on("SHUT", "shut")));

    static byte[] bytes(StateRecord<?> record) {
        MachineRecord r = EntityRecord.of(record);
        RecordBytes.Buffer b = new RecordBytes.Buffer(256);
        RecordBytes.write(r, b, RecordBytes.layout(r.chart()));
        return Arrays.copyOf(b.array(), b.size());
    }

    @Test
    void theWorldsOwnMachineIsAskedThroughItsWorldAsItIsSentTo() {
        try (StateWorld world = StateWorld.create()) {
            world.add(DOOR);
            assertTrue(DOOR.can(world, "OPEN"));
            assertFalse(DOOR.can(world, "SHUT"));
            assertTrue(DOOR.can(world, Event.of("KNOCK")));
            assertTrue(DOOR.send(world, "OPEN"));
            assertTrue(DOOR.can(world, "SHUT"));
            assertEquals(1, DOOR.read(world).context().opened, "asking ran nothing; the send ran the action once");
        }
    }

    @Test
    void canOnAnEntityIsTrueExactlyWhenSendWouldBe_andTheRecordAnswersTheSame() {
        try (StateWorld world = StateWorld.create()) {
            Entity d = world.spawn(DOOR.trait());
            StateRecord<Door> r = DOOR.read(d);
            assertTrue(DOOR.can(d, "OPEN"));
            assertTrue(r.can("KNOCK"), "an action-only transition counts");
            assertFalse(DOOR.can(d, "SHUT"));
            assertEquals(List.of("OPEN", "KNOCK"), DOOR.permittedEvents(d));
            assertEquals(List.of("OPEN", "KNOCK"), r.permittedEvents());
            r.context().locked = true;
            assertFalse(DOOR.can(d, "OPEN"), "the guard reads the context now");
            assertTrue(DOOR.can(d, Event.of("OPEN", Map.of("key", true))), "and the event's fields");
            assertFalse(DOOR.send(d, "OPEN"));
            assertTrue(DOOR.send(d, Event.of("OPEN", Map.of("key", true))));
            assertTrue(r.can("SHUT"));
            assertEquals(List.of("SHUT"), r.permittedEvents());
            UnknownEventException unknown = assertThrows(UnknownEventException.class, () -> DOOR.can(d, "SHTU"));
            assertEquals(assertThrows(UnknownEventException.class, () -> DOOR.send(d, "SHTU")).getMessage(), unknown.getMessage());
        }
    }

    @Test
    void canMovesNothing_noTagsNoListenersNoInputLog_andTheRecordEncodesAsBefore() {
        try (StateWorld world = StateWorld.create()) {
            Entity d = world.spawn(DOOR.trait(), EntityKey.of("front"));
            int[] heard = new int[1];
            world.addListener(new MachineListener<Object>() {
                @Override
                public void stateChanged(Object machine, String from, String to, String event) {
                    heard[0]++;
                }

                @Override
                public void eventRefused(Object machine, String event) {
                    heard[0]++;
                }
            });
            world.recordInputs(new WorldInputs() {
                @Override
                public void sent(StateRecord<?> record, Event event) {
                    heard[0]++;
                }

                @Override
                public void sent(StateRecord<?> record, String event, Object[] args) {
                    heard[0]++;
                }
            });
            world.step(1 / 60.0);
            byte[] before = bytes(DOOR.read(d));
            for (int i = 0; i < 3; i++) {
                assertTrue(DOOR.can(d, "OPEN"));
                assertTrue(DOOR.can(d, "KNOCK"));
                assertFalse(DOOR.can(d, "SHUT"));
                DOOR.permittedEvents(d);
            }
            assertArrayEquals(before, bytes(DOOR.read(d)));
            assertTrue(d.has(DOOR.is("shut")) && !d.has(DOOR.is("open")), "the tags stay");
            assertEquals(List.of(), DOOR.read(d).context().log, "no exit, entry or action ran");
            assertEquals(0, DOOR.read(d).context().opened);
            assertEquals(0, heard[0], "no listener and no input log heard of it");
        }
    }

    static final States<Door> FRAGILE = States.define("fragile", Door::new, m -> m
            .initial("idle")
            .state("idle", s -> s.on("POKE", t -> t.target("gone").guard((d, e) -> {
                throw new IllegalStateException("no lock fitted");
            })))
            .state("gone"));

    @Test
    void aGuardThatThrowsInCan_isAUserCodeExceptionNamingTheMachineEntityStateAndEvent_andNothingChanges() {
        try (StateWorld world = StateWorld.create()) {
            Entity d = world.spawn(FRAGILE.trait(), EntityKey.of("cellar"));
            byte[] before = bytes(FRAGILE.read(d));
            UserCodeException e = assertThrows(UserCodeException.class, () -> FRAGILE.can(d, "POKE"));
            assertTrue(e.getMessage().contains("'fragile'") && e.getMessage().contains("cellar") && e.getMessage().contains("idle")
                    && e.getMessage().contains("POKE"), e.getMessage());
            assertArrayEquals(before, bytes(FRAGILE.read(d)));
            assertThrows(UserCodeException.class, () -> FRAGILE.read(d).permittedEvents());
            assertTrue(d.has(FRAGILE.is("idle")));
            world.step(1 / 60.0); // the world is at rest: it steps
        }
    }

    @Test
    void canFromAnotherThreadFailsFastAsASendDoes_andChangesNothing() {
        try (StateWorld world = StateWorld.create()) {
            Entity d = world.spawn(DOOR.trait());
            byte[] before = bytes(DOOR.read(d));
            AtomicReference<Throwable> failed = new AtomicReference<>();
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                Thread t = new Thread(() -> {
                    try {
                        DOOR.can(d, "OPEN");
                    } catch (Throwable x) {
                        failed.set(x);
                    }
                }, "ui-thread");
                t.start();
                t.join();
            });
            assertInstanceOf(IllegalStateException.class, failed.get());
            assertTrue(failed.get().getMessage().contains("'ui-thread' used it"), failed.get().getMessage());
            assertArrayEquals(before, bytes(DOOR.read(d)));
            assertTrue(DOOR.can(d, "OPEN"), "the owner thread still asks");
        }
    }

    /** A coin a guard flips: heads goes to 'heads', else the event is not taken. */
    static final States<Door> COIN = States.define("coin", Door::new, m -> m
            .initial("flat")
            .state("flat", s -> s.on("FLIP", t -> t.target("heads").guard((d, e, self) -> self.random().chance(0.5))))
            .state("heads", s -> s.on("FLIP", "flat")));

    @Test
    void aGuardThatDrawsInCan_onEntitiesWithoutKeys_leavesEveryStreamAsAStraightRunHasIt() {
        try (StateWorld asked = StateWorld.create().randomSeed(5); StateWorld straight = StateWorld.create().randomSeed(5)) {
            Entity a1 = asked.spawn(COIN.trait());
            Entity a2 = asked.spawn(COIN.trait());
            Entity s1 = straight.spawn(COIN.trait());
            Entity s2 = straight.spawn(COIN.trait());
            for (int i = 0; i < 20; i++) {
                boolean could = COIN.can(a1, "FLIP"); // a1 never drew before its first ask: its seed is not taken by asking
                COIN.permittedEvents(a1);
                assertEquals(COIN.send(s2, "FLIP"), COIN.send(a2, "FLIP"), "flip " + i + " of the second coin");
                assertEquals(could, COIN.send(a1, "FLIP"), "flip " + i + ": can drew what send then drew");
                assertEquals(COIN.send(s1, "FLIP"), could, "flip " + i);
                assertArrayEquals(bytes(COIN.read(s1)), bytes(COIN.read(a1)));
                assertArrayEquals(bytes(COIN.read(s2)), bytes(COIN.read(a2)));
            }
        }
    }

    static final class Guard {
        final List<Boolean> doorCould = new ArrayList<>();
        Entity door;
    }

    static final States<Guard> GUARD = States.define("guardian", Guard::new, m -> m
            .initial("watch")
            .state("watch", s -> s.waitFor(0.5, t -> t.target("check").action((g, e) -> g.doorCould.add(DOOR.can(g.door, "OPEN")))))
            .state("check"));

    @Test
    void anotherMachinesCodeMayAskDuringAStep_andAListenerMayAsk_asEachMaySend() {
        try (StateWorld world = StateWorld.create()) {
            Entity d = world.spawn(DOOR.trait());
            Guard g = new Guard();
            g.door = d;
            world.spawn(GUARD.trait(g));
            List<Boolean> told = new ArrayList<>();
            world.addListener(GUARD, new MachineListener<StateRecord<Guard>>() {
                @Override
                public void stateChanged(StateRecord<Guard> machine, String from, String to, String event) {
                    told.add(DOOR.can(d, "SHUT"));
                }
            });
            for (int i = 0; i < 30; i++) {
                world.step(1 / 60.0);
            }
            assertEquals(List.of(true), g.doorCould, "asked from the guard's wait action, mid-step");
            assertEquals(List.of(false), told, "asked from a listener");
            assertTrue(d.has(DOOR.is("shut")));
        }
    }

    static final class Self {
        final List<Throwable> refused = new ArrayList<>();
        Entity me;
        States<Self> machine;
    }

    static final States<Self> ASKER = States.define("asker", Self::new, m -> m
            .initial("a")
            .state("a", s -> s.on("GO", t -> t.target("b").action((c, e) -> {
                try {
                    c.machine.can(c.me, "GO");
                } catch (RuntimeException x) {
                    c.refused.add(x);
                }
                try {
                    c.machine.send(c.me, "GO");
                } catch (RuntimeException x) {
                    c.refused.add(x);
                }
            })))
            .state("b", s -> s.on("GO", "a")));

    @Test
    void canFromTheMachinesOwnCode_isRefusedAsASendFromThereIs() {
        try (StateWorld world = StateWorld.create()) {
            Self c = new Self();
            Entity e = world.spawn(ASKER.trait(c));
            c.me = e;
            c.machine = ASKER;
            assertTrue(ASKER.send(e, "GO"));
            assertEquals(2, c.refused.size());
            assertSame(c.refused.get(1).getClass(), c.refused.get(0).getClass());
            assertTrue(c.refused.get(0).getMessage().contains("own guard or action"), c.refused.get(0).getMessage());
            assertTrue(e.has(ASKER.is("b")));
        }
    }

    @Test
    void aRecordInNoWorldIsRefused_andABuilderStyleMachineTakesNoEvents() {
        StateRecord<Door> loose = DOOR.trait();
        MachineException e = assertThrows(MachineException.class, () -> loose.can("OPEN"));
        assertTrue(e.getMessage().contains("'door'") && e.getMessage().contains("no world"), e.getMessage());
        assertThrows(MachineException.class, loose::permittedEvents);
        States<dev.enginestates.RandomStatecharts.Actor> built = States.of(dev.enginestates.RandomStatecharts.builder(2));
        try (StateWorld world = StateWorld.create()) {
            Entity b = world.spawn(built.trait());
            MachineException refused = assertThrows(MachineException.class, () -> built.can(b, "GO"));
            assertEquals(assertThrows(MachineException.class, () -> built.send(b, "GO")).getMessage(), refused.getMessage());
            assertEquals(List.of(), built.permittedEvents(b));
        }
    }
}

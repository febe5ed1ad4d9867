package dev.enginestates.plain;

import dev.enginestates.Machine;
import dev.enginestates.MachineListener;
import dev.enginestates.StatesDef;
import dev.enginestates.RandomStatecharts;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.UnknownEventException;
import dev.enginestates.declare.UnknownEvents;
import dev.enginestates.declare.UserCodeException;
import dev.enginestates.records.Access;
import dev.enginestates.records.MachineRecord;
import dev.enginestates.records.RecordBytes;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code can(event)} and {@code permittedEvents()} on the plain and builder faces: true exactly when
 * a send would be taken, with the guards evaluated and nothing else run or changed.
 */
class CanTest {
    static final class Duel {
        int hp = 10;
        final List<String> log = new ArrayList<>();
    }

    /** Two regions under a state that takes FLEE itself; HIT is guarded by the event's damage, TAUNT by the context. */
    static final Machine<Duel> DUEL = Machine.define("duel", Duel::new, m -> m
            .initial("fight")
            .state("fight", f -> f
                    .parallel()
                    .state("body", b -> b.initial("standing")
                            .state("standing", s -> s
                                    .entry((d, e) -> d.log.add("enter standing"))
                                    .exit((d, e) -> d.log.add("exit standing"))
                                    .on("HIT", t -> t.target("down").guard((d, e) -> e.has("damage") && e.number("damage") >= d.hp))
                                    .on("HIT", t -> t.action((d, e) -> d.hp -= e.has("damage") ? (int) e.number("damage") : 1)))
                            .state("down", s -> s.on("HEAL", "standing")))
                    .state("voice", v -> v.initial("quiet")
                            .state("quiet", s -> s.on("TAUNT", t -> t.target("shouting").guard((d, e) -> d.hp > 5)))
                            .state("shouting"))
                    .on("FLEE", "gone"))
            .finalState("gone"));

    static Event hit(int damage) {
        return Event.of("HIT", Map.of("damage", damage));
    }

    static byte[] bytes(MachineRecord r) {
        RecordBytes.Buffer b = new RecordBytes.Buffer(256);
        RecordBytes.write(r, b, RecordBytes.layout(r.chart()));
        return Arrays.copyOf(b.array(), b.size());
    }

    @Test
    void canIsTrueExactlyWhenSendWouldTakeTheEvent_guardsReadTheContextAndTheEventsFields_anActionOnlyTransitionCounts() {
        StateMachine<Duel> m = new StateMachine<>(DUEL);
        assertTrue(m.can(hit(20)), "the guarded HIT is enabled");
        assertTrue(m.can(hit(1)), "the action-only HIT is taken when the guarded one is not");
        assertTrue(m.can("TAUNT"), "hp 10 > 5");
        assertTrue(m.can("FLEE"), "an ancestor of both regions takes it");
        assertFalse(m.can("HEAL"), "no active state names HEAL");
        m.context().hp = 3;
        assertFalse(m.can("TAUNT"), "the guard reads the context as it is now");
        assertFalse(m.send("TAUNT"), "and send agrees");
        assertTrue(m.can(hit(3)));
        assertTrue(m.send(hit(3)));
        assertTrue(m.matches("fight.body.down"));
        assertTrue(m.can("HEAL"));
        assertTrue(m.send("FLEE"));
        assertTrue(m.isDone());
        assertFalse(m.can("HEAL"), "a machine that is done takes nothing");
        assertFalse(m.can("FLEE"));
        assertEquals(List.of(), m.permittedEvents());
    }

    @Test
    void canRunsNoActionEntryExitOrListener_andLeavesTheRecordByteForByteAsItWas() {
        StateMachine<Duel> m = new StateMachine<>(DUEL);
        int[] told = new int[1];
        m.addListener(new MachineListener<StateMachine<Duel>>() {
            @Override
            public void stateChanged(StateMachine<Duel> machine, String from, String to, String event) {
                told[0]++;
            }

            @Override
            public void eventRefused(StateMachine<Duel> machine, String event) {
                told[0]++;
            }
        });
        m.on("change", (to, from) -> told[0]++);
        m.step(0.5);
        List<String> log = new ArrayList<>(m.context().log);
        byte[] before = bytes(Access.record(m));
        for (int i = 0; i < 3; i++) {
            assertTrue(m.can(hit(20)));
            assertTrue(m.can(hit(1)));
            assertFalse(m.can("HEAL"));
            assertEquals(List.of("FLEE", "HIT", "TAUNT"), m.permittedEvents(), "as the states name them, the parallel state first");
        }
        assertArrayEquals(before, bytes(Access.record(m)), "the record encodes as before");
        assertEquals(log, m.context().log, "no entry, exit or action ran");
        assertEquals(10, m.context().hp, "the action-only HIT did not run");
        assertEquals(0, told[0], "no listener was told, not even of an event no state takes");
    }

    /** A coin flipped by a guard: heads goes to 'heads', else the event is not taken. */
    static final Machine<Duel> COIN = Machine.define("coin", Duel::new, m -> m
            .initial("flat")
            .state("flat", s -> s.on("FLIP", t -> t.target("heads").guard((d, e, self) -> self.random().chance(0.5))))
            .state("heads", s -> s.on("FLIP", "flat")));

    @Test
    void aGuardThatDrawsRandomNumbersInCan_leavesTheStreamAsItWas_soTheNextSendsDrawWhatAStraightRunDraws() {
        StateMachine<Duel> asked = new StateMachine<>(COIN, new Duel(), 11);
        StateMachine<Duel> straight = new StateMachine<>(COIN, new Duel(), 11);
        for (int i = 0; i < 40; i++) {
            boolean could = asked.can("FLIP");
            assertEquals(could, asked.can("FLIP"), "the same draw each time: the stream was put back");
            assertArrayEquals(bytes(Access.record(straight)), bytes(Access.record(asked)), "flip " + i + ": the records, random state included");
            boolean took = asked.send("FLIP");
            assertEquals(took, could, "flip " + i + ": can drew what send then drew");
            assertEquals(straight.send("FLIP"), took, "flip " + i);
        }
    }

    @Test
    void canOfAnEventNoStateNames_isRefusedAsSendRefusesIt_orFalseWhereTheMachineAcceptsUnknownEvents() {
        StateMachine<Duel> m = new StateMachine<>(DUEL);
        UnknownEventException sent = assertThrows(UnknownEventException.class, () -> m.send("HTI"));
        UnknownEventException asked = assertThrows(UnknownEventException.class, () -> m.can("HTI"));
        assertEquals(sent.getMessage(), asked.getMessage());
        assertTrue(asked.getMessage().contains("'duel'") && asked.getMessage().contains("HIT"), asked.getMessage());
        Machine<Duel> open = Machine.define("open", Duel::new, d -> d
                .unknownEvents(UnknownEvents.ACCEPT)
                .state("a", s -> s.on("GO", "b"))
                .state("b"));
        StateMachine<Duel> o = new StateMachine<>(open);
        assertFalse(o.can("ANYTHING"));
        assertFalse(o.send("ANYTHING"));
        assertTrue(o.can("GO"));
    }

    static final Machine<Duel> FRAGILE = Machine.define("fragile", Duel::new, m -> m
            .initial("idle")
            .state("idle", s -> s
                    .on("POKE", t -> t.target("hurt").guard((d, e) -> {
                        throw new IllegalStateException("no hp bar");
                    })))
            .state("hurt"));

    @Test
    void aGuardThatThrowsInCan_isAUserCodeExceptionNamingTheMachineStateAndEvent_andNothingChanges() {
        StateMachine<Duel> m = new StateMachine<>(FRAGILE);
        byte[] before = bytes(Access.record(m));
        UserCodeException e = assertThrows(UserCodeException.class, () -> m.can("POKE"));
        assertEquals("fragile", e.machineId());
        assertTrue(e.getMessage().contains("idle") && e.getMessage().contains("POKE"), e.getMessage());
        assertTrue(e.getCause() instanceof IllegalStateException);
        assertArrayEquals(before, bytes(Access.record(m)));
        assertThrows(UserCodeException.class, () -> m.can("POKE"), "the machine is free again: asked twice, it answers the same");
        assertThrows(UserCodeException.class, m::permittedEvents);
        assertTrue(m.matches("idle"));
    }

    @Test
    void canFromTheMachinesOwnAction_isRefusedAsASendFromThereIs() {
        List<Throwable> refused = new ArrayList<>();
        StateMachine<?>[] self = new StateMachine<?>[1];
        Machine<Duel> selfAsking = Machine.define("asker", Duel::new, m -> m
                .initial("a")
                .state("a", s -> s.on("GO", t -> t.target("b").action((d, e) -> {
                    try {
                        self[0].can("GO");
                    } catch (RuntimeException x) {
                        refused.add(x);
                    }
                    try {
                        self[0].send("GO");
                    } catch (RuntimeException x) {
                        refused.add(x);
                    }
                })))
                .state("b", s -> s.on("GO", "a")));
        StateMachine<Duel> m = new StateMachine<>(selfAsking);
        self[0] = m;
        assertTrue(m.send("GO"));
        assertEquals(2, refused.size());
        assertSame(refused.get(1).getClass(), refused.get(0).getClass(), "the error a send from there gets");
        assertTrue(refused.get(0).getMessage().contains("'asker'") && refused.get(0).getMessage().contains("own guard or action"),
                refused.get(0).getMessage());
        assertTrue(m.matches("b"));
        assertTrue(m.can("GO"), "at rest again, it answers");
    }

    static final Machine<Duel> WILD = Machine.define("wild", Duel::new, m -> m
            .initial("a")
            .state("a", s -> s.on("ping.*", t -> t.action((d, e) -> d.log.add("ping"))).on("STOP", "b"))
            .state("b", s -> s.on("ping.loud", "a").on("*", t -> t.action((d, e) -> d.log.add("any")))));

    @Test
    void permittedEventsListsEventTypesInTheMachinesOrder_aWildcardDescriptorIsNoEventType() {
        StateMachine<Duel> m = new StateMachine<>(WILD);
        assertEquals(List.of("STOP", "ping.loud"), m.permittedEvents(), "ping.loud is taken by 'ping.*'; '*' lists nothing of its own");
        assertTrue(m.can("ping.soft"), "a type only a wildcard takes is asked by name");
        m.send("STOP");
        assertEquals(List.of("STOP", "ping.loud"), m.permittedEvents(), "'*' takes STOP in b");
        assertTrue(m.context().log.isEmpty());
    }

    enum Phase { LOBBY, PLAYING, OVER }

    enum Cue { READY, SCORE, QUIT }

    static final Machine<Duel> MATCH = Machine.define("match", Duel::new, Phase.class, Cue.class, m -> m
            .initial(Phase.LOBBY)
            .state(Phase.LOBBY, s -> s.on(Cue.READY, Phase.PLAYING).on(Cue.QUIT, Phase.OVER))
            .state(Phase.PLAYING, s -> s.on(Cue.SCORE, t -> t.action((d, e) -> d.hp++)).on(Cue.QUIT, Phase.OVER))
            .state(Phase.OVER));

    enum Other { READY }

    @Test
    void permittedEventsByTheMachinesEventEnum_isASetOfItsConstants_andCanTakesAConstant() {
        StateMachine<Duel> m = new StateMachine<>(MATCH);
        assertEquals(EnumSet.of(Cue.READY, Cue.QUIT), m.permittedEvents(Cue.class));
        assertTrue(m.can(Cue.READY));
        assertFalse(m.can(Cue.SCORE));
        m.send(Cue.READY);
        assertEquals(EnumSet.of(Cue.SCORE, Cue.QUIT), m.permittedEvents(Cue.class));
        MachineException wrong = assertThrows(MachineException.class, () -> m.permittedEvents(Other.class));
        assertTrue(wrong.getMessage().contains("'match'") && wrong.getMessage().contains("Cue"), wrong.getMessage());
        assertThrows(MachineException.class, () -> m.can(Other.READY));
        MachineException untyped = assertThrows(MachineException.class, () -> new StateMachine<>(DUEL).permittedEvents(Cue.class));
        assertTrue(untyped.getMessage().contains("strings"), untyped.getMessage());
    }

    static final class Bot {
        int handled;
        Object lastArg;
    }

    static final StatesDef<Bot> BOT = StatesDef.define("bot", Bot::new, d -> d
            .on("reset", "idle")
            .state("idle", s -> s.on("hit", (b, args) -> {
                b.handled++;
                b.lastArg = args.length > 0 ? args[0] : null;
                return null;
            }))
            .state("busy", s -> s.on("done", "idle")));

    @Test
    void aPolledMachineCanTakeAnEventWhenAnActiveStateNamesIt_whateverItsHandlerWouldReturn_andNoHandlerRuns() {
        StateMachine<Bot> m = new StateMachine<>(BOT, new Bot());
        assertTrue(m.can("hit"), "idle names hit; its handler returning nothing still takes it");
        assertTrue(m.can("hit", 5), "with arguments, which no handler sees");
        assertTrue(m.can(Event.of("hit")));
        assertTrue(m.can("reset"), "the root names it");
        assertFalse(m.can("done"), "only busy names done");
        assertEquals(List.of("reset", "hit"), m.permittedEvents());
        assertEquals(0, m.context().handled, "no handler ran");
        assertTrue(m.send("hit", 5));
        assertEquals(1, m.context().handled);
        assertThrows(UnknownEventException.class, () -> m.can("hti"), "as send: the polled table rejects unknown events");
    }

    @Test
    void aBuilderStyleMachineTakesNoEvents_canIsRefusedWithTheSendsAdvice_andNoEventIsPermitted() {
        dev.enginestates.fsm.StateMachine<RandomStatecharts.Actor> m = new dev.enginestates.fsm.StateMachine<>(RandomStatecharts.builder(3));
        m.initialize(new RandomStatecharts.Actor());
        MachineException e = assertThrows(MachineException.class, () -> m.can("GO"));
        assertTrue(e.getMessage().contains("builder-style") && e.getMessage().contains("takes no events"), e.getMessage());
        assertThrows(MachineException.class, () -> m.can(Event.of("GO")));
        assertThrows(MachineException.class, () -> m.can(Cue.READY));
        assertThrows(MachineException.class, () -> m.permittedEvents(Cue.class));
        assertEquals(List.of(), m.permittedEvents());
    }
}

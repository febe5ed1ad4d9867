package dev.enginestates.moves;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Machine;
import dev.enginestates.StatesDef;
import dev.enginestates.algorithm.MoveObserver;
import dev.enginestates.chart.Chart;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.AIContext;
import dev.enginestates.fsm.StateMachineBuilder;
import dev.enginestates.fsm.StateMachineDefinition;
import dev.enginestates.plain.StateMachine;
import dev.enginestates.records.Access;
import dev.enginestates.records.MachineRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link MoveObserver} hears exactly the moves each style takes, numbered as the chart's
 * {@code moves()} numbers them, and every state entered; forced moves report their entries
 * only; nothing after uninstall; an observer installed twice is told once.
 */
class MoveObserverTest {
    static final class Ctx {
        boolean ready;
    }

    /** Every kind of XState-style transition: an event, a wait, a when rule, always, onDone, two regions at once, deep history. */
    static final Machine<Ctx> TOUR = Machine.define("moveTour", Ctx::new, m -> m
            .initial("idle")
            .state("idle", s -> s.on("GO", "busy").when(c -> c.ready, "ready"))
            .state("ready", s -> s.always("work"))
            .state("busy", s -> s.waitFor(2, "work"))
            .state("work", w -> w
                    .initial("a")
                    .state("a", a -> a.on("FIN", "fin"))
                    .finalState("fin")
                    .onDone("regions"))
            .state("regions", p -> p
                    .parallel()
                    .state("left", l -> l.initial("l1").state("l1", x -> x.on("TICK", "l2")).state("l2"))
                    .state("right", r -> r.initial("r1").state("r1", x -> x.on("TICK", "r2")).state("r2"))
                    .history("hist", HistoryDepth.DEEP)
                    .on("LEAVE", "away"))
            .state("away", s -> s.on("RETURN", "regions.hist")));

    private static Chart chart(Object machine) {
        return Access.chart(machine);
    }

    // ------------------------------------------------------------------ XState style

    /** The XState style's start enters the root too, as its algorithm does. */
    private static final List<String> TOUR_START = List.of("enter (root)", "enter idle");
    private static final List<String> TOUR_TO_REGIONS = List.of(
            "move idle \u2013GO\u2192 busy", "enter busy",
            "move busy \u2013wait 2 s\u2192 work", "enter work", "enter work.a",
            "move work.a \u2013FIN\u2192 work.fin", "enter work.fin",
            "move work \u2013onDone\u2192 regions", "enter regions", "enter regions.left", "enter regions.left.l1",
            "enter regions.right", "enter regions.right.r1");
    private static final List<String> TOUR_TICK = List.of(
            "move regions.left.l1 \u2013TICK\u2192 regions.left.l2", "move regions.right.r1 \u2013TICK\u2192 regions.right.r2",
            "enter regions.left.l2", "enter regions.right.r2");
    private static final List<String> TOUR_AWAY_AND_BACK = List.of(
            "move regions \u2013LEAVE\u2192 away", "enter away",
            "move away \u2013RETURN\u2192 regions.hist", "enter regions", "enter regions.left", "enter regions.left.l2",
            "enter regions.right", "enter regions.right.r2");
    private static final List<String> TOUR_WHEN_THEN_ALWAYS = List.of(
            "move idle \u2013when test\u2192 ready", "enter ready",
            "move ready \u2013always\u2192 work", "enter work", "enter work.a");

    @Test
    void anXStateMachineTellsEachEventWaitOnDoneParallelAndHistoryMoveWithItsNumber_plain() {
        try (Heard heard = new Heard(chart(TOUR))) {
            StateMachine<Ctx> m = new StateMachine<>(TOUR);
            assertEquals(TOUR_START, heard.take(), "the start enters the initial state");
            m.send("GO");
            m.step(1);
            m.step(1);
            m.send("FIN");
            assertEquals(TOUR_TO_REGIONS, heard.take());
            m.send("TICK");
            assertEquals(TOUR_TICK, heard.take(), "both regions' transitions of one microstep, then their entries");
            m.send("LEAVE");
            m.send("RETURN");
            assertEquals(TOUR_AWAY_AND_BACK, heard.take(), "deep history enters what it restores");
            m.send("GO");
            m.step(1);
            assertEquals(List.of(), heard.take(), "an event no active state takes and an idle step move nothing");
        }
    }

    @Test
    void anXStateMachineTellsWhenAndAlwaysMovesWithTheirNumbers_plain() {
        try (Heard heard = new Heard(chart(TOUR))) {
            Ctx ctx = new Ctx();
            StateMachine<Ctx> m = new StateMachine<>(TOUR, ctx);
            heard.take();
            ctx.ready = true;
            m.step(0.1);
            assertEquals(TOUR_WHEN_THEN_ALWAYS, heard.take());
        }
    }

    @Test
    void anXStateMachineInAWorldTellsTheSameMovesAsOnAPlainObject() {
        States<Ctx> states = States.of(TOUR);
        try (Heard heard = new Heard(chart(TOUR)); StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(states.trait());
            assertEquals(TOUR_START, heard.take());
            states.send(e, "GO");
            for (int i = 0; i < 3; i++) {
                world.step(1);
            }
            states.send(e, "FIN");
            assertEquals(TOUR_TO_REGIONS, heard.take());
            states.send(e, "TICK");
            assertEquals(TOUR_TICK, heard.take());
            states.send(e, "LEAVE");
            states.send(e, "RETURN");
            assertEquals(TOUR_AWAY_AND_BACK, heard.take());
            Ctx ready = new Ctx();
            ready.ready = true;
            world.spawn(states.trait(ready));
            heard.take();
            world.step(0.1);
            assertEquals(TOUR_WHEN_THEN_ALWAYS, heard.take());
        }
    }

    @Test
    void everyMoveNumberHeardIsOneOfTheChartsMovesAndItsSourceIsTheStateLeft() {
        Chart c = chart(TOUR);
        try (Heard heard = new Heard(c)) {
            StateMachine<Ctx> m = new StateMachine<>(TOUR);
            m.send("GO");
            m.step(2);
            m.send("FIN");
            m.send("TICK");
            for (int n : heard.numbers) {
                assertTrue(n >= 0 && n < c.moves().count, "move " + n + " of " + c.moves().count);
            }
            assertTrue(heard.lines.stream().noneMatch(l -> l.contains("(told")), heard.lines.toString());
        }
    }

    /** Transitions with no code, no history and nothing eventless: the algorithm's shortcut for plain transitions takes them. */
    static final Machine<Ctx> PLAIN = Machine.define("movePlain", Ctx::new, m -> m
            .initial("a")
            .state("a", s -> s.on("NEXT", "b"))
            .state("b", s -> s.initial("b1").state("b1").on("NEXT", "a")));

    @Test
    void aMoveIsToldBeforeTheEntriesItCauses_aPlainTransitionToo() {
        try (Heard heard = new Heard(chart(PLAIN))) {
            StateMachine<Ctx> m = new StateMachine<>(PLAIN);
            heard.take();
            m.send("NEXT");
            assertEquals(List.of("move a \u2013NEXT\u2192 b", "enter b", "enter b.b1"), heard.take());
            m.send("NEXT");
            assertEquals(List.of("move b \u2013NEXT\u2192 a", "enter a"), heard.take());
        }
        States<Ctx> states = States.of(PLAIN);
        try (Heard heard = new Heard(chart(PLAIN)); StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(states.trait());
            heard.take();
            states.send(e, "NEXT");
            world.step(0.1);
            assertEquals(List.of("move a \u2013NEXT\u2192 b", "enter b", "enter b.b1"), heard.take(), "in a world");
        }
    }

    // ------------------------------------------------------------------ polled style

    static final class Bot {
        boolean toB;
        boolean toC;
        String handlerSays;
        String updateSays;
    }

    /** Two {@code to} guards, an {@code after} to the second one's state, an {@code on} target and handler, an update. */
    static final StatesDef<Bot> POLLED = StatesDef.<Bot>define("movePolled", d -> d
            .initial("a")
            .state("a", s -> s
                    .to("b", (c, t) -> c.toB)
                    .to("c", (c, t) -> c.toC)
                    .after(1, "c")
                    .on("E", "b")
                    .on("H", (c, args) -> c.handlerSays))
            .state("b", s -> s.update((c, dt, t) -> c.updateSays).on("BACK", "a"))
            .state("c", s -> s.on("BACK", "a")));

    @Test
    void aPolledMachineTellsEachToGuardByItsOwnNumber() {
        try (Heard heard = new Heard(chart(POLLED.machine()))) {
            Bot bot = new Bot();
            StateMachine<Bot> m = new StateMachine<>(POLLED, bot);
            assertEquals(List.of("enter a"), heard.take());
            bot.toB = true;
            m.step(0.1);
            assertEquals(List.of("move a \u2013to (1)\u2192 b", "enter b"), heard.take());
            bot.toB = false;
            m.send("BACK");
            heard.take();
            bot.toC = true;
            m.step(0.1);
            assertEquals(List.of("move a \u2013to (2)\u2192 c", "enter c"), heard.take());
        }
    }

    @Test
    void aPolledAfterIsToldApartFromAToGuardWithTheSameTarget() {
        try (Heard heard = new Heard(chart(POLLED.machine()))) {
            Bot bot = new Bot();
            StateMachine<Bot> m = new StateMachine<>(POLLED, bot);
            heard.take();
            m.step(0.6);
            m.step(0.6);
            assertEquals(List.of("move a \u2013after 1 s\u2192 c", "enter c"), heard.take(), "the after fired");
            m.send("BACK");
            heard.take();
            m.step(0.6);
            bot.toC = true;
            m.step(0.6);
            assertEquals(List.of("move a \u2013to (2)\u2192 c", "enter c"), heard.take(),
                    "the after was due too, but the guard comes first and took the step");
            bot.toC = false;
            m.send("BACK");
            heard.take();
            m.step(0.6);
            m.step(0.6);
            assertEquals(List.of("move a \u2013after 1 s\u2192 c", "enter c"), heard.take(), "a new stay fires its after again");
        }
    }

    @Test
    void aPolledOnTargetOnHandlerAndUpdateAreTold_theUpdateAsUndeclared() {
        try (Heard heard = new Heard(chart(POLLED.machine()))) {
            Bot bot = new Bot();
            StateMachine<Bot> m = new StateMachine<>(POLLED, bot);
            heard.take();
            m.send("E");
            assertEquals(List.of("move a \u2013E\u2192 b", "enter b"), heard.take());
            m.send("BACK");
            assertEquals(List.of("move b \u2013BACK\u2192 a", "enter a"), heard.take());
            bot.handlerSays = "c";
            m.send("H");
            assertEquals(List.of("move a \u2013H / handler\u2192 (its handler's choice) (chose c)", "enter c"), heard.take());
            m.send("BACK");
            heard.take();
            bot.handlerSays = null;
            m.send("H");
            assertEquals(List.of("move a \u2013H / handler\u2192 (its handler's choice)"), heard.take(),
                    "the handler ran and chose to stay: its move, no entry");
            m.send("BACK");
            heard.take();
            bot.toB = true;
            bot.updateSays = "c";
            m.step(0.1);
            assertEquals(List.of("move a \u2013to (1)\u2192 b", "enter b", "undeclared b \u2192 c", "enter c"), heard.take(),
                    "the update returning a name is a move no declaration names");
        }
    }

    @Test
    void aPolledMachineInAWorldTellsTheSameMoves() {
        States<Bot> states = States.of(POLLED);
        try (Heard heard = new Heard(chart(POLLED.machine())); StateWorld world = StateWorld.create()) {
            Bot bot = new Bot();
            Entity e = world.spawn(states.trait(bot));
            assertEquals(List.of("enter a"), heard.take());
            bot.toC = true;
            world.step(0.1);
            assertEquals(List.of("move a \u2013to (2)\u2192 c", "enter c"), heard.take());
            bot.toC = false;
            states.send(e, "BACK");
            assertEquals(List.of("move c \u2013BACK\u2192 a", "enter a"), heard.take());
            world.step(0.6);
            world.step(0.6);
            assertEquals(List.of("move a \u2013after 1 s\u2192 c", "enter c"), heard.take());
            states.go(e, "b");
            assertEquals(List.of("enter b"), heard.take(), "go is forced: its entries only");
        }
    }

    @Test
    void aPolledGoReportsItsEntriesOnly() {
        try (Heard heard = new Heard(chart(POLLED.machine()))) {
            StateMachine<Bot> m = new StateMachine<>(POLLED, new Bot());
            heard.take();
            m.go("c");
            assertEquals(List.of("enter c"), heard.take());
        }
    }

    // ------------------------------------------------------------------ builder style

    static final class Npc extends AIContext {
        String next;
    }

    static StateMachineDefinition<Npc> builder() {
        StateMachineBuilder<Npc> b = new StateMachineBuilder<>("moveBuilder");
        b.configureState("Idle").asInitial().transitionsTo("Walk").handler((c, dt) -> c.next);
        b.configureState("Walk").transitionsTo("Idle").handler((c, dt) -> c.next);
        b.configureState("Run").handler((c, dt) -> c.next);
        return b.build();
    }

    @Test
    void aBuilderMachineTellsADeclaredMoveByNumberAnUndeclaredOneAsMinusOneAndTransitionToAsEntriesOnly() {
        StateMachineDefinition<Npc> def = builder();
        try (Heard heard = new Heard(chart(def.machine()))) {
            Npc c = new Npc();
            dev.enginestates.fsm.StateMachine<Npc> m = new dev.enginestates.fsm.StateMachine<>(def);
            m.initialize(c);
            assertEquals(List.of("enter Idle"), heard.take(), "the start enters the initial state");
            c.next = "Walk";
            m.update(c, 0.1f);
            assertEquals(List.of("move Idle \u2013handler\u2192 Walk", "enter Walk"), heard.take());
            c.next = "Run";
            m.update(c, 0.1f);
            assertEquals(List.of("undeclared Walk \u2192 Run", "enter Run"), heard.take(),
                    "Walk was not declared to return Run, and the machine still goes there");
            c.next = null;
            m.transitionTo(c, "Idle");
            assertEquals(List.of("enter Idle"), heard.take(), "transitionTo is forced: its entry only");
            m.update(c, 0.1f);
            assertEquals(List.of(), heard.take(), "a handler returning null moves nothing");
        }
    }

    @Test
    void aBuilderMachineInAWorldTellsTheSameMoves() {
        StateMachineDefinition<Npc> def = builder();
        States<Npc> states = States.of(def);
        try (Heard heard = new Heard(chart(def.machine())); StateWorld world = StateWorld.create()) {
            Npc c = new Npc();
            Entity e = world.spawn(states.trait(c));
            assertEquals(List.of("enter Idle"), heard.take());
            c.next = "Walk";
            world.step(0.1);
            assertEquals(List.of("move Idle \u2013handler\u2192 Walk", "enter Walk"), heard.take());
            c.next = "Run";
            world.step(0.1);
            assertEquals(List.of("undeclared Walk \u2192 Run", "enter Run"), heard.take());
            c.next = null;
            states.transitionTo(e, "Idle");
            assertEquals(List.of("enter Idle"), heard.take());
        }
    }

    // ------------------------------------------------------------------ installing

    /** Counts what it is told about one chart. */
    static final class Count implements MoveObserver {
        final Chart chart;
        int moves;
        int entries;

        Count(Chart chart) {
            this.chart = chart;
        }

        @Override
        public void moved(MachineRecord r, int move, int from, int to) {
            moves += r.chart() == chart ? 1 : 0;
        }

        @Override
        public void entered(MachineRecord r, int state) {
            entries += r.chart() == chart ? 1 : 0;
        }
    }

    @Test
    void anUninstalledObserverHearsNothingMore() {
        Count count = new Count(chart(TOUR));
        MoveObserver.install(count);
        StateMachine<Ctx> m = new StateMachine<>(TOUR);
        m.send("GO");
        MoveObserver.uninstall(count);
        m.step(2);
        m.send("FIN");
        new StateMachine<>(TOUR);
        assertEquals(1, count.moves, "GO only");
        assertEquals(3, count.entries, "the root, idle and busy only");
        MoveObserver.uninstall(count); // a second uninstall changes nothing
    }

    @Test
    void anObserverInstalledTwiceIsToldOnce() {
        Count count = new Count(chart(TOUR));
        MoveObserver.install(count);
        MoveObserver.install(count);
        try {
            StateMachine<Ctx> m = new StateMachine<>(TOUR);
            m.send("GO");
        } finally {
            MoveObserver.uninstall(count);
        }
        assertEquals(1, count.moves);
        assertEquals(3, count.entries, "the root, idle, busy");
        StateMachine<Ctx> again = new StateMachine<>(TOUR);
        again.send("GO");
        assertEquals(1, count.moves, "one uninstall removes it");
    }

    @Test
    void twoObserversAreBothTold() {
        Chart c = chart(TOUR);
        List<String> order = new ArrayList<>();
        try (Heard first = new Heard(c); Heard second = new Heard(c)) {
            new StateMachine<>(TOUR).send("GO");
            order.addAll(first.take());
            assertEquals(order, second.take());
        }
        assertEquals(List.of("enter (root)", "enter idle", "move idle \u2013GO\u2192 busy", "enter busy"), order);
    }
}

package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Holds: the {@link MachinePaused} marker holds every machine on its entity; a machine's
 * {@code heldBy(...)} component types hold that machine alone. The {@code 003} document: "until the
 * trait comes off, a wait counts no seconds and a when goes untested, and an event sent to the
 * machine still moves it".
 */
class HoldsTest {
    static final double DT = 1.0 / 60;
    static final double EPS = 1e-9;

    /** A conversation's component: while an entity has it, the routine (heldBy Talking) is held. */
    static final class Talking {
    }

    /** Some other component, which holds nothing. */
    static final class Stunned {
    }

    static final class Ctx {
        StateWorld world;
        int whenCalls;
        boolean alarm;
        int pings;
        final List<Long> moves = new ArrayList<>();

        Ctx() {
        }

        Ctx(StateWorld world) {
            this.world = world;
        }

        void moved() {
            moves.add(world.steps());
        }
    }

    /** A routine with a wait in one region and a counted when rule in the other; held by Talking. */
    static final States<Ctx> ROUTINE = States.define("holds-routine", Ctx::new, m -> m
            .heldBy(Talking.class)
            .initial("life")
            .state("life", l -> l.parallel()
                    .state("clock", c -> c.initial("tick")
                            .state("tick", s -> s
                                    .waitFor(4, t -> t.target("tock").action((x, e) -> x.moved()))
                                    .on("SKIP", "tock"))
                            .state("tock", s -> s.waitFor(4, t -> t.target("tick").action((x, e) -> x.moved()))))
                    .state("sense", c -> c.initial("calm")
                            .state("calm", s -> s.when(x -> {
                                x.whenCalls++;
                                return x.alarm;
                            }, "alarmed"))
                            .state("alarmed", s -> s.on("CALM", "calm")))
                    .on("PING", t -> t.action((x, e) -> x.pings++))));

    /** Another machine on the same entities, held by nothing but the marker. */
    static final States<Ctx> OTHER = States.define("holds-other", Ctx::new, m -> m
            .initial("a")
            .state("a", s -> s.waitFor(1, t -> t.target("b").action((x, e) -> x.moved())))
            .state("b", s -> s.waitFor(1, t -> t.target("a").action((x, e) -> x.moved())))
            .on("PING", t -> t.action((x, e) -> x.pings++)));

    /** The 003 document's guard, held by Talking. */
    static final States<Ctx> GUARD = States.define("holds-guard", Ctx::new, Fixtures.<Ctx>guard()
            .machine(m -> m.heldBy(Talking.class))
            .watchWait(t -> t.action((x, e) -> x.moved()))
            .withoutRestart());

    static void steps(StateWorld world, int n) {
        for (int i = 0; i < n; i++) {
            world.step(DT);
        }
    }

    static long bits(double d) {
        return Double.doubleToRawLongBits(d);
    }

    @Test
    void thePausedMarkerHoldsEveryMachineOnItsEntitySoWaitsCountNoSeconds() {
        // 003: "Add the MachinePausedTrait trait to an entity to hold every machine on it where it is"
        try (StateWorld world = StateWorld.create()) {
            Ctx routine = new Ctx(world);
            Ctx other = new Ctx(world);
            Ctx free = new Ctx(world);
            Entity e = world.spawn(ROUTINE.trait(routine), OTHER.trait(other));
            Entity f = world.spawn(OTHER.trait(free));
            steps(world, 30);
            e.add(MachinePaused.INSTANCE);
            world.step(DT); // step 31: held from its start
            StateRecord<Ctx> r = ROUTINE.read(e);
            StateRecord<Ctx> o = OTHER.read(e);
            assertTrue(r.isHeld());
            assertTrue(o.isHeld());
            assertFalse(OTHER.read(f).isHeld(), "the marker holds its own entity's machines only");
            double routineLeft = r.secondsLeft();
            double routineWaited = r.waited();
            double otherLeft = o.secondsLeft();
            assertEquals(3.5, routineLeft, EPS);
            assertEquals(0.5, otherLeft, EPS);
            steps(world, 600);
            assertEquals(bits(routineLeft), bits(r.secondsLeft()), "a held wait counts no seconds");
            assertEquals(bits(routineWaited), bits(r.waited()));
            assertEquals(bits(otherLeft), bits(o.secondsLeft()));
            assertTrue(r.matches("life.clock.tick"));
            assertTrue(o.matches("a"));
            assertTrue(routine.moves.isEmpty());
            assertTrue(other.moves.isEmpty());
            assertEquals(List.of(60L, 120L, 180L), free.moves.subList(0, 3), "the entity without the marker runs on");
            assertEquals(10, free.moves.size());
        }
    }

    @Test
    void aHeldMachinesWhenRulesAreNotTested() {
        try (StateWorld world = StateWorld.create()) {
            Ctx ctx = new Ctx(world);
            Entity e = world.spawn(ROUTINE.trait(ctx));
            steps(world, 5);
            assertEquals(5, ctx.whenCalls);
            e.add(MachinePaused.INSTANCE);
            ctx.alarm = true;
            steps(world, 50);
            assertEquals(5, ctx.whenCalls, "no when test runs while held");
            assertTrue(ROUTINE.read(e).matches("life.sense.calm"));
            e.removeType(MachinePaused.class);
            world.step(DT);
            assertEquals(6, ctx.whenCalls);
            assertTrue(ROUTINE.read(e).matches("life.sense.alarmed"));
            assertTrue(e.has(ROUTINE.is("life.sense.alarmed")));
        }
    }

    @Test
    void eventsStillMoveAHeldMachineAndAWaitItEntersCountsNothingUntilReleased() {
        // 003: "an event sent to the machine still moves it, as Godot's process_mode pauses a node"
        try (StateWorld world = StateWorld.create()) {
            Ctx ctx = new Ctx(world);
            Entity e = world.spawn(ROUTINE.trait(ctx));
            e.add(MachinePaused.INSTANCE);
            steps(world, 10);
            StateRecord<Ctx> r = ROUTINE.read(e);
            assertTrue(r.isHeld());
            assertEquals(4.0, r.secondsLeft(), 0.0);
            assertTrue(ROUTINE.send(e, "PING"), "an action-only transition counts");
            assertEquals(1, ctx.pings);
            assertTrue(ROUTINE.send(e, "SKIP"));
            assertTrue(r.matches("life.clock.tock"));
            assertTrue(e.has(ROUTINE.is("life.clock.tock")), "its tags move with it");
            assertFalse(e.has(ROUTINE.is("life.clock.tick")));
            steps(world, 300);
            assertEquals(4.0, r.secondsLeft(), 0.0, "the wait entered while held has counted nothing");
            e.removeType(MachinePaused.class);
            steps(world, 239);
            assertTrue(r.matches("life.clock.tock"));
            world.step(DT);
            assertTrue(r.matches("life.clock.tick"));
            assertEquals(List.of(world.steps()), ctx.moves);
        }
    }

    @Test
    void removingTheMarkerResumesExactlyWhereItStood() {
        try (StateWorld world = StateWorld.create()) {
            Ctx ctx = new Ctx(world);
            Entity e = world.spawn(OTHER.trait(ctx));
            steps(world, 59); // one step short of the 1 s wait
            StateRecord<Ctx> r = OTHER.read(e);
            double left = r.secondsLeft();
            assertEquals(DT, left, EPS);
            e.add(MachinePaused.INSTANCE);
            world.step(DT); // step 60 would have ended it; held, it does not
            assertTrue(r.matches("a"));
            assertEquals(bits(left), bits(r.secondsLeft()));
            steps(world, 100);
            e.removeType(MachinePaused.class);
            assertEquals(bits(left), bits(r.secondsLeft()), "removing the marker changes nothing before the next step");
            world.step(DT); // step 161: the 60th step counted
            assertTrue(r.matches("b"));
            assertFalse(r.isHeld());
            assertEquals(List.of(161L), ctx.moves);
            assertEquals(1.0, r.secondsLeft(), EPS, "the next wait starts at the due time");
            steps(world, 60);
            assertEquals(List.of(161L, 221L), ctx.moves);
        }
    }

    @Test
    void heldByHoldsThatMachineAloneWhileItsEntityHasTheComponent() {
        // 003: "To hold one machine and leave the others running, name the traits that hold it in its heldBy ...
        // a talking NPC holds its routine and every other machine on it keeps running."
        try (StateWorld world = StateWorld.create()) {
            Ctx routine = new Ctx(world);
            Ctx other = new Ctx(world);
            Ctx otherRoutine = new Ctx(world);
            Entity npc = world.spawn(ROUTINE.trait(routine), OTHER.trait(other));
            Entity quiet = world.spawn(ROUTINE.trait(otherRoutine));
            steps(world, 60);
            npc.add(new Talking());
            npc.add(new Stunned()); // a component the routine does not name holds nothing
            quiet.add(new Stunned());
            steps(world, 300);
            StateRecord<Ctx> r = ROUTINE.read(npc);
            assertTrue(r.isHeld());
            assertFalse(OTHER.read(npc).isHeld());
            assertFalse(ROUTINE.read(quiet).isHeld());
            assertEquals(3.0, r.secondsLeft(), EPS);
            assertTrue(routine.moves.isEmpty());
            assertEquals(60, routine.whenCalls, "its when rules were tested on the 60 unheld steps only");
            assertEquals(List.of(60L, 120L, 180L, 240L, 300L, 360L), other.moves, "the other machine on the entity runs on");
            assertEquals(List.of(240L), otherRoutine.moves, "the routine of an entity that is not talking runs on");
            assertEquals(360, otherRoutine.whenCalls);

            npc.removeType(Talking.class);
            steps(world, 179);
            assertTrue(r.matches("life.clock.tick"));
            world.step(DT);
            assertTrue(r.matches("life.clock.tock"));
            assertEquals(List.of(540L), routine.moves);
            assertFalse(r.isHeld());
        }
    }

    @Test
    void theMarkerAndHeldByTogetherReleaseOnlyWhenBothAreGone() {
        try (StateWorld world = StateWorld.create()) {
            Ctx ctx = new Ctx(world);
            Entity e = world.spawn(ROUTINE.trait(ctx));
            e.add(new Talking());
            e.add(MachinePaused.INSTANCE);
            steps(world, 30);
            e.removeType(Talking.class);
            steps(world, 30);
            assertTrue(ROUTINE.read(e).isHeld(), "the marker still holds it");
            assertEquals(4.0, ROUTINE.read(e).secondsLeft(), 0.0);
            e.removeType(MachinePaused.class);
            steps(world, 240);
            assertEquals(List.of(300L), ctx.moves);
        }
    }

    @Test
    void aMachineHeldAndReleasedManyTimesKeepsExactWaitTime() {
        // the 4 s wait ends on the 240th step the machine was not held, whatever the holds in between
        try (StateWorld world = StateWorld.create()) {
            Ctx ctx = new Ctx(world);
            Entity e = world.spawn(ROUTINE.trait(ctx));
            SplittableRandom random = new SplittableRandom(42);
            int counted = 0;
            boolean paused = false;
            boolean talking = false;
            int holds = 0;
            while (counted < 240) {
                if (random.nextInt(7) == 0) {
                    paused = !paused;
                    if (paused) {
                        e.add(MachinePaused.INSTANCE);
                        holds++;
                    } else {
                        e.removeType(MachinePaused.class);
                    }
                }
                if (random.nextInt(9) == 0) {
                    talking = !talking;
                    if (talking) {
                        e.add(new Talking());
                        holds++;
                    } else {
                        e.removeType(Talking.class);
                    }
                }
                boolean held = paused || talking;
                world.step(DT);
                assertEquals(held, ROUTINE.read(e).isHeld(), "step " + world.steps());
                if (!held) {
                    counted++;
                }
                if (counted < 240) {
                    assertTrue(ctx.moves.isEmpty(), "ended early at step " + world.steps() + " with " + counted + " counted");
                    assertEquals(4.0 - counted * DT, ROUTINE.read(e).secondsLeft(), 1e-9);
                }
            }
            assertTrue(holds > 20, "the test held the machine often: " + holds);
            assertTrue(world.steps() > 300);
            assertEquals(List.of(world.steps()), ctx.moves, "ended on the step that counted the 240th sixtieth");
            assertTrue(ROUTINE.read(e).matches("life.clock.tock"));
        }
    }

    @Test
    void aWaitLeftAndResumedByHistoryWhileHeldKeepsItsSeconds() {
        // 003: "A state left before its wait ends keeps the seconds it waited, and a history state that brings the
        // state back resumes the wait from there" -- and a hold between counts none of them.
        try (StateWorld world = StateWorld.create()) {
            Ctx ctx = new Ctx(world);
            Entity g = world.spawn(GUARD.trait(ctx));
            steps(world, 180);
            g.add(new Talking());
            steps(world, 50);
            assertTrue(GUARD.send(g, "BELL"));
            StateRecord<Ctx> r = GUARD.read(g);
            assertEquals(3.0, r.paused("patrol.watch"), EPS, "the hold counted none of the 50 steps");
            steps(world, 50);
            assertTrue(GUARD.send(g, "RESUME"));
            assertEquals(1.0, r.secondsLeft(), EPS);
            steps(world, 100);
            assertEquals(1.0, r.secondsLeft(), EPS);
            g.removeType(Talking.class);
            steps(world, 59);
            assertTrue(r.matches("patrol.watch"));
            world.step(DT);
            assertTrue(r.matches("patrol.rest"));
            assertEquals(List.of(world.steps()), ctx.moves);
            assertEquals(440L, world.steps());
        }
    }

    @Test
    void theWorldsOwnMachineIsHeldByTheMarkerOnTheWorldsEntity() {
        try (StateWorld world = StateWorld.create()) {
            Ctx ctx = new Ctx(world);
            StateRecord<Ctx> phases = world.add(OTHER.trait(ctx));
            steps(world, 30);
            world.entity().add(MachinePaused.INSTANCE);
            steps(world, 100);
            assertTrue(phases.isHeld());
            assertEquals(0.5, OTHER.read(world).secondsLeft(), EPS);
            world.entity().removeType(MachinePaused.class);
            steps(world, 30);
            assertEquals(List.of(160L), ctx.moves);
        }
    }
}

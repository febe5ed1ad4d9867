package dev.enginestates.ecs;

import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.Allocations;
import dev.enginestates.ecs.HoldsTest.Stunned;
import dev.enginestates.ecs.HoldsTest.Talking;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Holds are read once a tick, at its start, without a query while nothing is held: Dominion
 * counts the entities that gain a hold type (patch 0012), so a hold put on through Dominion
 * directly, however it gets there, is honoured from the next tick's start exactly as one put on
 * through the world.
 */
class HoldsWithoutAQueryTest {
    static final double DT = 1.0 / 60;

    static final class Ctx {
        Runnable onMove;
    }

    /** Waits 1 s, back and forth; held by the marker only. */
    static final States<Ctx> PLAIN = States.define("nq-plain", Ctx::new, m -> m
            .tags(false)
            .initial("a")
            .state("a", s -> s.waitFor(1, t -> t.target("b").action((c, e) -> {
                if (c.onMove != null) {
                    c.onMove.run();
                }
            })))
            .state("b", s -> s.waitFor(1, "a")));

    /** Waits 0.75 s, back and forth; held by the marker and by Talking. */
    static final States<Ctx> TALKER = States.define("nq-talker", Ctx::new, m -> m
            .heldBy(Talking.class)
            .tags(false)
            .initial("a")
            .state("a", s -> s.waitFor(0.75, "b"))
            .state("b", s -> s.waitFor(0.75, "a")));

    @Test
    void aHoldPutOnThroughDominionDirectlyIsHonouredFromTheNextTicksStart() {
        try (StateWorld world = StateWorld.create()) {
            Dominion d = world.dominion();
            Entity added = world.spawn(PLAIN.trait());
            Entity modified = world.spawn(PLAIN.trait(), new Stunned());
            Entity talking = world.spawn(TALKER.trait());
            Entity created = d.createEntity(MachinePaused.INSTANCE); // the marker first, the machine after
            world.attach(created, PLAIN.trait());
            world.step(DT);
            assertTrue(PLAIN.read(created).isHeld(), "a machine attached to an entity that has the marker");
            assertFalse(PLAIN.read(added).isHeld());

            added.add(MachinePaused.INSTANCE);
            d.modifyEntity(d.composition().byAdding1AndRemoving(MachinePaused.class, Stunned.class)
                    .withValue(modified, MachinePaused.INSTANCE));
            talking.add(new Talking());
            double left = PLAIN.read(added).secondsLeft();
            double talkLeft = TALKER.read(talking).secondsLeft();
            world.step(DT);
            world.step(DT);
            assertTrue(PLAIN.read(added).isHeld(), "entity.add");
            assertTrue(PLAIN.read(modified).isHeld(), "dominion.modifyEntity");
            assertTrue(TALKER.read(talking).isHeld(), "a heldBy type added");
            assertEquals(left, PLAIN.read(added).secondsLeft(), 0, "held from the tick's start: no second counted");
            assertEquals(talkLeft, TALKER.read(talking).secondsLeft(), 0);

            talking.removeType(Talking.class);
            added.removeType(MachinePaused.class);
            world.step(DT);
            assertFalse(PLAIN.read(added).isHeld());
            assertFalse(TALKER.read(talking).isHeld());
            assertEquals(left - DT, PLAIN.read(added).secondsLeft(), 1e-9, "counts on from where it stood");
        }
    }

    @Test
    void aHoldPutOnDuringATickIsReadAtTheNextTicksStart() {
        try (StateWorld world = StateWorld.create()) {
            Entity target = world.spawn(TALKER.trait());
            Ctx ctx = new Ctx();
            ctx.onMove = () -> target.add(new Talking());
            world.spawn(PLAIN.trait(ctx)); // declared first: its wait ends in step 60, before the talker runs
            for (int i = 0; i < 60; i++) {
                world.step(DT);
            }
            assertTrue(target.has(Talking.class), "the action put the hold on");
            assertFalse(TALKER.read(target).isHeld(), "holds are read once a tick, at its start");
            double left = TALKER.read(target).secondsLeft();
            world.step(DT);
            assertTrue(TALKER.read(target).isHeld());
            assertEquals(left, TALKER.read(target).secondsLeft(), 0);
        }
    }

    @Test
    void aWorldWithoutHoldsAsksNothingAndAllocatesNothingUntilAHoldArrives() {
        try (StateWorld world = StateWorld.create()) {
            List<Entity> entities = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                entities.add(world.spawn(PLAIN.trait(), TALKER.trait()));
            }
            long bytes = Allocations.warmThenMeasure(Allocations.steps(world));
            assertTrue(bytes <= Allocations.MEASUREMENT_MARGIN, "600 steps of 1,000 machines, nothing held: " + bytes + " B");
            entities.get(7).add(MachinePaused.INSTANCE);
            world.step(DT);
            assertTrue(PLAIN.read(entities.get(7)).isHeld(), "the count moved, so the hold was read");
            assertTrue(TALKER.read(entities.get(7)).isHeld());
            assertFalse(PLAIN.read(entities.get(8)).isHeld());
        }
    }

    /**
     * Random holds put on and taken off in every way Dominion and the world offer, between random
     * steps: after each step a machine is held exactly when its entity had the marker or one of
     * its {@code heldBy} types at the step's start, and a held wait counted no seconds.
     */
    @Test
    void heldExactlyWhenTheEntityHadAHoldTypeAtTheTicksStart_randomWorlds() {
        for (int seed = 0; seed < 150; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            try (StateWorld world = StateWorld.create()) {
                Dominion d = world.dominion();
                List<Entity> entities = new ArrayList<>();
                for (int op = 0; op < 200; op++) {
                    Entity e = entities.isEmpty() ? null : entities.get(rnd.nextInt(entities.size()));
                    int kind = rnd.nextInt(12);
                    String what = "seed " + seed + " op " + op + " kind " + kind;
                    if (e == null || kind == 0) {
                        Entity s = rnd.nextBoolean() ? world.spawn(PLAIN.trait(), TALKER.trait())
                                : world.spawn(TALKER.trait(), MachinePaused.INSTANCE);
                        entities.add(s);
                    } else if (kind == 1) {
                        Entity c = rnd.nextBoolean() ? d.createEntity(MachinePaused.INSTANCE) : d.createEntity(new Talking());
                        world.attach(c, rnd.nextBoolean() ? PLAIN.trait() : TALKER.trait());
                        entities.add(c);
                    } else if (kind == 2 && !e.has(MachinePaused.class)) {
                        e.add(MachinePaused.INSTANCE);
                    } else if (kind == 3) {
                        e.removeType(MachinePaused.class);
                    } else if (kind == 4 && !e.has(Talking.class)) {
                        e.add(new Talking());
                    } else if (kind == 5) {
                        e.removeType(Talking.class);
                    } else if (kind == 6 && !e.has(Stunned.class)) {
                        e.add(new Stunned()); // a move that gains no hold type
                    } else if (kind == 7 && e.has(Stunned.class) && !e.has(MachinePaused.class)) {
                        d.modifyEntity(d.composition().byAdding1AndRemoving(MachinePaused.class, Stunned.class)
                                .withValue(e, MachinePaused.INSTANCE));
                    } else if (kind == 8 && on(PLAIN, e) != null) {
                        world.detach(e, PLAIN);
                    } else if (kind == 9 && on(PLAIN, e) == null) {
                        world.attach(e, PLAIN.trait());
                    } else if (kind == 10 && rnd.nextInt(4) == 0) {
                        world.despawn(e);
                        entities.remove(e);
                    } else {
                        stepAndCheck(world, entities, 1 + rnd.nextInt(40), what);
                    }
                }
                stepAndCheck(world, entities, 1, "seed " + seed + " end");
            }
        }
    }

    /** The machine's record on the entity, or {@code null} if it has none. */
    private static StateRecord<Ctx> on(States<Ctx> machine, Entity e) {
        return e.get(machine.recordType());
    }

    private static void stepAndCheck(StateWorld world, List<Entity> entities, int steps, String what) {
        for (int i = 0; i < steps; i++) {
            int n = entities.size();
            boolean[] paused = new boolean[n];
            boolean[] talking = new boolean[n];
            double[] plainLeft = new double[n];
            double[] talkerLeft = new double[n];
            for (int k = 0; k < n; k++) {
                Entity e = entities.get(k);
                paused[k] = e.has(MachinePaused.class);
                talking[k] = e.has(Talking.class);
                plainLeft[k] = on(PLAIN, e) == null ? Double.NaN : PLAIN.read(e).secondsLeft();
                talkerLeft[k] = on(TALKER, e) == null ? Double.NaN : TALKER.read(e).secondsLeft();
            }
            world.step(DT);
            for (int k = 0; k < n; k++) {
                Entity e = entities.get(k);
                StateRecord<Ctx> p = on(PLAIN, e);
                StateRecord<Ctx> t = on(TALKER, e);
                if (p != null) {
                    assertEquals(paused[k], p.isHeld(), what + ": plain machine on entity " + k);
                    if (paused[k]) {
                        assertEquals(plainLeft[k], p.secondsLeft(), 0, what + ": a held wait counts no seconds");
                    }
                }
                if (t != null) {
                    assertEquals(paused[k] || talking[k], t.isHeld(), what + ": talker on entity " + k);
                    if (paused[k] || talking[k]) {
                        assertEquals(talkerLeft[k], t.secondsLeft(), 0, what + ": a held wait counts no seconds");
                    }
                }
            }
        }
    }
}

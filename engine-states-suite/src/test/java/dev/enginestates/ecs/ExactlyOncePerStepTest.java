package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.MachineException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DESIGN.md's measured Dominion pitfall: "adding or removing a component while iterating a
 * findEntitiesWith result moves the entity to another composition, and the same iteration visits it
 * again ... in a 3-state cycle all 1,000 collapsed into one state ... A test must show each machine is
 * stepped exactly once per step." And the {@code 003} document: "The tags follow the record: a send, a
 * wait and a when move them as they move it".
 */
class ExactlyOncePerStepTest {
    static final double DT = 1.0 / 60;
    static final int N = 1000;
    static final String[] CYCLE = {"a", "b", "c"};

    static final class Cycler {
        int moves;
        int whenCalls;
    }

    /** Killers: each deletes an entity (another or its own) from inside a step, in one of several ways. */
    static final class Killer {
        StateWorld world;
        int mode;
        long killAt;
        Entity victim;
        Entity self;
        boolean killed;

        void kill() {
            if (killed) {
                return;
            }
            killed = true;
            switch (mode) {
                case 0 -> world.dominion().deleteEntity(victim);
                case 1, 2, 4 -> assertTrue(world.despawn(victim));
                case 3 -> world.dominion().deleteEntity(self);
                default -> throw new IllegalStateException();
            }
        }
    }

    // The declaration order matters for the killing test: EARLY is stepped before KILLER, LATE after it.
    static final States<Cycler> WAIT_CYCLE = cycle("once-wait-cycle", false);
    static final States<Cycler> WHEN_CYCLE = cycle("once-when-cycle", true);
    static final States<Cycler> EARLY = cycle("once-victim-early", false);
    static final States<Killer> KILLER = States.define("once-killer", Killer::new, m -> m
            .initial("hunting")
            .state("hunting", s -> s.when(k -> {
                if (k.world.steps() < k.killAt) {
                    return false;
                }
                if (k.mode == 0 || k.mode == 1 || k.mode == 3) {
                    k.kill(); // from inside the when test
                }
                return k.mode != 0 && k.mode != 1; // modes 2 and 3 move: 2 kills in the action, 3 moves its own deleted entity
            }, t -> t.target("done").action((k, e) -> k.kill())))
            .state("stalking", s -> s.waitFor(5 * DT, t -> t.target("done").action((k, e) -> k.kill())))
            .state("done"));
    static final States<Cycler> LATE = cycle("once-victim-late", false);

    /** a -> b -> c -> a, each move a wait of one step's seconds or a when that always holds, counted by an action. */
    static States<Cycler> cycle(String id, boolean when) {
        return States.define(id, Cycler::new, m -> {
            m.initial("a");
            for (int i = 0; i < 3; i++) {
                String next = CYCLE[(i + 1) % 3];
                m.state(CYCLE[i], s -> {
                    if (when) {
                        s.when(c -> {
                            c.whenCalls++;
                            return true;
                        }, t -> t.target(next).action((c, e) -> c.moves++));
                    } else {
                        s.waitFor(DT, t -> t.target(next).action((c, e) -> c.moves++));
                    }
                });
            }
        });
    }

    /** Spawns N entities, entity i in state CYCLE[i % 3] of each machine given. */
    static List<Entity> spawnStaggered(StateWorld world, List<Cycler> contexts, List<States<Cycler>> machines) {
        List<Entity> out = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            Object[] records = new Object[machines.size()];
            for (int k = 0; k < machines.size(); k++) {
                Cycler c = new Cycler();
                contexts.add(c);
                records[k] = machines.get(k).trait(c).setState(CYCLE[(i + k) % 3]);
            }
            out.add(world.spawn(records));
        }
        return out;
    }

    /** Each machine on each live entity moved once per step since step `from`; its record and tags agree. */
    static void checkAll(StateWorld world, States<Cycler> machine, List<Entity> entities, int offset, long expectedMoves) {
        int[] byState = new int[3];
        int live = 0;
        for (int i = 0; i < entities.size(); i++) {
            Entity e = entities.get(i);
            if (e.isDeleted() || !e.has(machine.recordType())) {
                continue;
            }
            live++;
            StateRecord<Cycler> r = machine.read(e);
            assertEquals(expectedMoves, r.context().moves, () -> machine.id() + " entity " + e + " moved a wrong number of times");
            String expected = CYCLE[(int) ((i + offset + expectedMoves) % 3)];
            assertTrue(r.matches(expected), () -> machine.id() + " expected " + expected + " got " + r);
            int tags = 0;
            for (int s = 0; s < 3; s++) {
                boolean has = e.has(machine.is(CYCLE[s]));
                assertEquals(r.matches(CYCLE[s]), has, machine.id() + " tag " + CYCLE[s] + " vs record " + r);
                if (has) {
                    tags++;
                    byState[s]++;
                }
            }
            assertEquals(1, tags);
        }
        int total = 0;
        for (int s = 0; s < 3; s++) {
            int count = world.query(machine.is(CYCLE[s])).count();
            assertEquals(byState[s], count, machine.id() + " query count of " + CYCLE[s]);
            total += count;
        }
        assertEquals(live, total, "the tag counts add up to the live records");
        assertEquals(live, world.records(machine).size());
    }

    @Test
    void aThousandWaitingMachinesEachMoveExactlyOncePerStepAndTheirTagsFollow() {
        try (StateWorld world = StateWorld.create()) {
            List<Cycler> contexts = new ArrayList<>();
            List<Entity> entities = spawnStaggered(world, contexts, List.of(WAIT_CYCLE));
            checkAll(world, WAIT_CYCLE, entities, 0, 0);
            assertEquals(334, world.query(WAIT_CYCLE.is("a")).count());
            for (int step = 1; step <= 300; step++) {
                world.step(DT);
                checkAll(world, WAIT_CYCLE, entities, 0, step);
            }
            assertEquals(N, world.query(WAIT_CYCLE.is("a")).count() + world.query(WAIT_CYCLE.is("b")).count()
                    + world.query(WAIT_CYCLE.is("c")).count());
        }
    }

    @Test
    void aThousandMachinesWhoseWhenAlwaysHoldsEachMoveExactlyOncePerStepAndTestOncePerStep() {
        try (StateWorld world = StateWorld.create()) {
            List<Cycler> contexts = new ArrayList<>();
            List<Entity> entities = spawnStaggered(world, contexts, List.of(WHEN_CYCLE));
            for (int step = 1; step <= 300; step++) {
                world.step(DT);
                checkAll(world, WHEN_CYCLE, entities, 0, step);
                for (Cycler c : contexts) {
                    assertEquals(step, c.whenCalls);
                }
            }
        }
    }

    @Test
    void twoCyclingMachinesOnEachOfAThousandEntitiesBothMoveExactlyOncePerStep() {
        try (StateWorld world = StateWorld.create()) {
            List<Cycler> contexts = new ArrayList<>();
            List<Entity> entities = spawnStaggered(world, contexts, List.of(WAIT_CYCLE, WHEN_CYCLE));
            for (int step = 1; step <= 200; step++) {
                world.step(DT);
                checkAll(world, WAIT_CYCLE, entities, 0, step);
                checkAll(world, WHEN_CYCLE, entities, 1, step);
            }
        }
    }

    @Test
    void entitiesDeletedAndRecordsDetachedBetweenStepsAreNeverSteppedAgain() {
        try (StateWorld world = StateWorld.create()) {
            List<Cycler> contexts = new ArrayList<>();
            List<Entity> entities = spawnStaggered(world, contexts, List.of(WAIT_CYCLE, WHEN_CYCLE));
            for (int step = 1; step <= 10; step++) {
                world.step(DT);
            }
            List<Cycler> frozen = new ArrayList<>();
            List<Entity> detached = new ArrayList<>();
            int despawned = 0;
            int deleted = 0;
            for (int i = 0; i < N; i++) {
                Entity e = entities.get(i);
                if (i % 7 == 0) {
                    frozen.add(WAIT_CYCLE.read(e).context());
                    frozen.add(WHEN_CYCLE.read(e).context());
                    assertTrue(world.despawn(e));
                    assertFalse(world.despawn(e), "a second despawn finds nothing");
                    despawned++;
                } else if (i % 11 == 0) {
                    frozen.add(WAIT_CYCLE.read(e).context());
                    frozen.add(WHEN_CYCLE.read(e).context());
                    assertTrue(world.dominion().deleteEntity(e)); // behind the world's back
                    deleted++;
                } else if (i % 13 == 0) {
                    frozen.add(WAIT_CYCLE.read(e).context());
                    assertTrue(world.detach(e, WAIT_CYCLE));
                    assertFalse(world.detach(e, WAIT_CYCLE));
                    detached.add(e);
                }
            }
            assertTrue(despawned > 100 && deleted > 50 && detached.size() > 40);
            for (Entity e : detached) {
                assertNull(e.get(WAIT_CYCLE.recordType()));
                for (String s : CYCLE) {
                    assertFalse(e.has(WAIT_CYCLE.is(s)), "detach removes the machine's tags");
                }
                assertThrows(MachineException.class, () -> WAIT_CYCLE.send(e, "x"));
            }
            for (int step = 11; step <= 60; step++) {
                world.step(DT);
                checkAll(world, WAIT_CYCLE, entities, 0, step);
                checkAll(world, WHEN_CYCLE, entities, 1, step);
                for (Cycler c : frozen) {
                    assertEquals(10, c.moves, "a deleted or detached machine is never stepped again");
                }
            }
            int live = N - despawned - deleted;
            assertEquals(live - detached.size(), world.records(WAIT_CYCLE).size());
            assertEquals(live, world.records(WHEN_CYCLE).size());
            for (Entity e : detached) {
                assertEquals(60, WHEN_CYCLE.read(e).context().moves, "the other machine on a detached entity runs on");
            }
        }
    }

    static final States<Cycler> LONG_WAIT = States.define("once-long-wait", Cycler::new, m -> m
            .initial("a")
            .state("a", s -> s.waitFor(10, t -> t.target("b").action((c, e) -> c.moves++)))
            .state("b"));

    @Test
    void aDetachedOrDespawnedRecordStillReadsTheSecondsItHadWaited() {
        try (StateWorld world = StateWorld.create()) {
            for (int i = 0; i < 240; i++) {
                world.step(DT);
            }
            Entity detached = world.spawn(LONG_WAIT.trait());
            Entity despawned = world.spawn(LONG_WAIT.trait());
            for (int i = 0; i < 60; i++) {
                world.step(DT);
            }
            StateRecord<Cycler> d = LONG_WAIT.read(detached);
            StateRecord<Cycler> x = LONG_WAIT.read(despawned);
            assertEquals(1.0, d.waited(), 1e-9);
            assertTrue(world.detach(detached, LONG_WAIT));
            assertTrue(world.despawn(despawned));
            for (int i = 0; i < 60; i++) {
                world.step(DT);
            }
            for (StateRecord<Cycler> r : List.of(d, x)) {
                assertTrue(r.matches("a"));
                assertEquals(0, r.context().moves, "never stepped again");
                assertEquals(1.0, r.waited(), 1e-9, "the seconds it had waited when the world let it go");
                assertEquals(9.0, r.secondsLeft(), 1e-9);
            }
        }
    }

    @Test
    void deletingEntitiesFromInsideAWhenTestOrAnActionDuringAStepDoesNotBreakTheStep() {
        try (StateWorld world = StateWorld.create()) {
            int pairs = 250;
            long killAt = 5;
            List<Entity> killers = new ArrayList<>();
            List<Entity> victims = new ArrayList<>();
            List<Killer> killerContexts = new ArrayList<>();
            List<Cycler[]> killerCyclers = new ArrayList<>();
            List<Cycler[]> victimCyclers = new ArrayList<>();
            for (int i = 0; i < pairs; i++) {
                Cycler ve = new Cycler();
                Cycler vl = new Cycler();
                Entity victim = world.spawn(EARLY.trait(ve), LATE.trait(vl));
                victims.add(victim);
                victimCyclers.add(new Cycler[] {ve, vl});
                Killer k = new Killer();
                k.world = world;
                k.mode = i % 5;
                k.killAt = killAt;
                k.victim = victim;
                Cycler ke = new Cycler();
                Cycler kl = new Cycler();
                StateRecord<Killer> kr = KILLER.trait(k);
                if (k.mode == 4) {
                    kr.setState("stalking"); // kills in the action of a wait that ends on step 5
                }
                Entity killer = world.spawn(EARLY.trait(ke), kr, LATE.trait(kl));
                k.self = killer;
                killers.add(killer);
                killerContexts.add(k);
                killerCyclers.add(new Cycler[] {ke, kl});
            }
            assertEquals(List.of(EARLY, KILLER, LATE), world.machines(), "the step runs the machines in declaration order");
            for (int step = 1; step <= 40; step++) {
                world.step(DT); // must not throw, whatever was deleted during it
                for (int i = 0; i < pairs; i++) {
                    int mode = i % 5;
                    boolean killedSelf = mode == 3;
                    Cycler[] dead = killedSelf ? killerCyclers.get(i) : victimCyclers.get(i);
                    Cycler[] alive = killedSelf ? victimCyclers.get(i) : killerCyclers.get(i);
                    long before = Math.min(step, killAt - 1);
                    // EARLY machines are stepped before the killer in the kill step, LATE ones after it
                    long earlyMoves = step < killAt ? step : killAt;
                    assertEquals(earlyMoves, dead[0].moves, "mode " + mode + " step " + step);
                    assertEquals(before, dead[1].moves, "mode " + mode + " step " + step + ": deleted before its turn");
                    assertEquals(step, alive[0].moves);
                    assertEquals(step, alive[1].moves);
                    Entity gone = killedSelf ? killers.get(i) : victims.get(i);
                    assertEquals(step >= killAt, gone.isDeleted());
                }
                int liveEntities = step >= killAt ? pairs : 2 * pairs;
                assertEquals(liveEntities, world.records(EARLY).size(), "step " + step);
                assertEquals(liveEntities, world.records(LATE).size());
                int early = 0;
                int late = 0;
                for (String s : CYCLE) {
                    early += world.query(EARLY.is(s)).count();
                    late += world.query(LATE.is(s)).count();
                }
                assertEquals(liveEntities, early, "no tags of deleted entities are found");
                assertEquals(liveEntities, late);
            }
            for (int i = 0; i < pairs; i++) {
                Killer k = killerContexts.get(i);
                assertTrue(k.killed);
                if (k.mode != 3) {
                    boolean moved = k.mode == 2 || k.mode == 4;
                    assertEquals(moved, KILLER.read(killers.get(i)).matches("done"), "mode " + k.mode);
                }
            }
            assertEquals(pairs - pairs / 5, world.records(KILLER).size());
        }
    }
}

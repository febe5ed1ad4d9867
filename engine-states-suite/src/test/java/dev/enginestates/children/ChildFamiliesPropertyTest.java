package dev.enginestates.children;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Figures;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.InputLog;
import dev.enginestates.io.Replica;
import dev.enginestates.io.RoomStream;
import dev.enginestates.io.Saves;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Properties of child machines among the other rules, over {@link RandomFamilies random families}
 * fed random inputs (steps, events to parents and to children, despawns of both, parents spawned
 * again): a checkpoint restored mid-run goes on like the straight run, a replica equals its room
 * after every frame and starts no child of its own, an input log's replay ends as the run did,
 * and after every input each child's parent is live and (for an invoked child) in the invoking
 * state, each active invoking state has its child, and no record is a child of two parents.
 * {@code -Dproperty.runs=N} runs N families; {@code -Dchildren.seed=S} runs the family of seed S alone.
 */
class ChildFamiliesPropertyTest {
    /** Random families a property runs by default. */
    static final int DEFAULT_RUNS = 150;

    /** One random run: its family, how many top entities, and its inputs. */
    private record Case(RandomFamilies family, long seed, int parents, long[] plan, SplittableRandom r) {
        String where(int input) {
            return "seed " + seed + " (-Dchildren.seed=" + seed + "), " + parents + " parents, input " + input + " of " + plan.length;
        }
    }

    /** The runs of a property: a family for each seed that gives one, with its own inputs. */
    private static List<Case> cases(long salt) {
        List<Case> cases = new ArrayList<>();
        Long only = Long.getLong("children.seed");
        int runs = only != null ? 1 : Integer.getInteger("property.runs", DEFAULT_RUNS);
        for (long n = 0; cases.size() < runs && n < runs * 4L; n++) {
            long seed = only != null ? only : salt + n;
            RandomFamilies f = RandomFamilies.generate(seed);
            if (f == null) {
                if (only != null) {
                    fail("seed " + seed + " makes no family that starts");
                }
                continue;
            }
            SplittableRandom r = new SplittableRandom(seed * 31 + 7);
            long[] plan = new long[40 + r.nextInt(100)];
            for (int i = 0; i < plan.length; i++) {
                plan[i] = r.nextLong();
            }
            cases.add(new Case(f, seed, 1 + r.nextInt(3), plan, r));
        }
        return cases;
    }

    private static StateWorld world(List<String> failures) {
        StateWorld w = StateWorld.create();
        w.onFailure(x -> failures.add(x.machineId() + " " + x.statePath() + " " + x.eventType() + " " + x.cause()));
        return w;
    }

    @Test
    void aCheckpointRestoredMidRunGoesOnLikeTheStraightRunChildrenAndLinksIncluded() {
        int[] figures = new int[2];
        assertTimeoutPreemptively(Duration.ofMinutes(5), () -> {
            for (Case c : cases(35_000)) {
                RandomFamilies f = c.family();
                Saves saves = f.saves;
                int cut = c.r().nextInt(c.plan().length);
                List<String> failuresA = new ArrayList<>();
                List<String> failuresB = new ArrayList<>();
                int failedBefore = 0;
                try (StateWorld a = world(failuresA); StateWorld b = world(failuresB)) {
                    f.populate(a, c.parents());
                    for (int i = 0; i < c.plan().length; i++) {
                        if (i == cut) {
                            String mid = saves.checkpoint(a);
                            saves.restoreSpawningMissing(b, mid);
                            assertEquals(mid, saves.checkpoint(b), c.where(i) + ": the restore reads back what was saved, " + f);
                            assertEquals(f.links(a), f.links(b), c.where(i) + ": the restore links the children as they were, " + f);
                            figures[1] += f.childCount(a);
                            failedBefore = failuresA.size();
                        }
                        RandomFamilies.Applied in = f.apply(a, c.parents(), c.plan()[i]);
                        if (i >= cut) {
                            assertEquals(in.toString(), f.apply(b, c.parents(), c.plan()[i]).toString(), c.where(i) + ", " + f);
                            assertEquals(f.links(a), f.links(b), c.where(i) + " (" + in + "): links, " + f);
                        }
                    }
                    assertEquals(saves.checkpoint(a), saves.checkpoint(b), c.where(c.plan().length) + ": checkpoint at input " + cut + ", " + f);
                    assertEquals(f.links(a), f.links(b), c.where(c.plan().length) + ": links, " + f);
                    assertEquals(failuresA.subList(failedBefore, failuresA.size()), failuresB, c.where(c.plan().length) + ": failures");
                    figures[0]++;
                }
            }
        });
        Figures.println("children checkpoint property: " + figures[0] + " families, " + figures[1] + " children at the cuts");
        assertTrue(figures[1] > 0, "some cuts fall while children run");
    }

    @Test
    void aReplicaFedEveryFrameEqualsItsRoomAndStartsNoChildOfItsOwn() {
        int[] figures = new int[1];
        assertTimeoutPreemptively(Duration.ofMinutes(5), () -> {
            for (Case c : cases(36_000)) {
                RandomFamilies f = c.family();
                States<?>[] tops = f.tops.toArray(new States<?>[0]);
                int joinAt = c.r().nextInt(1 + c.plan().length / 3);
                List<String> failures = new ArrayList<>();
                try (StateWorld room = world(failures); StateWorld copy = world(new ArrayList<>())) {
                    RoomStream stream = RoomStream.of(room, tops);
                    Replica replica = null;
                    f.populate(room, c.parents());
                    for (int i = 0; i < c.plan().length; i++) {
                        if (i == joinAt) {
                            stream.join("alice");
                            replica = Replica.of(copy, "alice", tops);
                        }
                        RandomFamilies.Applied in = f.apply(room, c.parents(), c.plan()[i]);
                        if (replica == null) {
                            continue;
                        }
                        replica.apply(stream.frames().get("alice"));
                        String where = c.where(i) + " (" + in + "), joined at " + joinAt + ", " + f;
                        assertEquals(f.saves.checkpoint(room), f.saves.checkpoint(copy), where);
                        assertEquals(f.childCount(room), f.childCount(copy), where + ": the replica's child records");
                        assertEquals(f.links(room), f.links(copy), where + ": links");
                        figures[0] += f.childCount(copy);
                    }
                }
            }
        });
        Figures.println("children replica property: " + figures[0] + " child records compared");
        assertTrue(figures[0] > 0, "the replicas held children");
    }

    @Test
    void anInputLogReplayedIntoAFreshWorldEndsAsTheRunDid() {
        int[] figures = new int[1];
        assertTimeoutPreemptively(Duration.ofMinutes(5), () -> {
            for (Case c : cases(37_000)) {
                RandomFamilies f = c.family();
                // from before the parents are spawned, or from a random input
                int start = c.r().nextInt(3) == 0 ? -1 : c.r().nextInt(c.plan().length);
                List<String> failures = new ArrayList<>();
                try (StateWorld a = world(failures); StateWorld replayed = world(new ArrayList<>())) {
                    InputLog log = start < 0 ? InputLog.start(f.saves, a) : null;
                    f.populate(a, c.parents());
                    for (int i = 0; i < c.plan().length; i++) {
                        if (i == start) {
                            log = InputLog.start(f.saves, a);
                        }
                        f.apply(a, c.parents(), c.plan()[i]);
                    }
                    String text = log.text();
                    String where = c.where(c.plan().length) + ", log started at input " + start + ", " + f;
                    String thrown = RandomFamilies.outcome(() -> InputLog.replay(f.saves, replayed, text));
                    assertEquals(null, thrown, where + ": the replay");
                    assertEquals(f.saves.checkpoint(a), f.saves.checkpoint(replayed), where);
                    assertEquals(f.links(a), f.links(replayed), where + ": links");
                    figures[0] += f.childCount(replayed);
                }
            }
        });
        Figures.println("children replay property: " + figures[0] + " child records replayed at the ends");
        assertTrue(figures[0] > 0, "the replays ended with children");
    }

    @Test
    void afterEveryInputEachChildHasOneLiveParentInItsStateAndEachActiveInvokeHasItsChild() {
        int[] figures = new int[6]; // inputs, invoked children, on the parent's entity, grandchildren, spawned, excused
        assertTimeoutPreemptively(Duration.ofMinutes(5), () -> {
            for (Case c : cases(38_000)) {
                RandomFamilies f = c.family();
                List<String> failures = new ArrayList<>();
                Set<String> excused = new HashSet<>();
                try (StateWorld w = world(failures)) {
                    f.populate(w, c.parents());
                    lifetimes(f, w, excused, false, c.where(-1) + ", " + f, figures);
                    for (int i = 0; i < c.plan().length; i++) {
                        int failed = failures.size();
                        RandomFamilies.Applied in = f.apply(w, c.parents(), c.plan()[i]);
                        if (in.despawnedChild() != null && in.thrown() == null) {
                            excused.add(in.despawnedChild()); // the game despawned it: not started again while its state stays
                        }
                        // a child whose start threw is missing by the rules: the parent stays in its state without it
                        boolean lax = in.thrown() != null || failures.size() > failed;
                        lifetimes(f, w, excused, lax, c.where(i) + " (" + in + "), " + f, figures);
                        figures[0]++;
                    }
                }
            }
        });
        Figures.println("children lifetime property: " + figures[0] + " inputs; child records seen: " + figures[1] + " invoked, "
                + figures[2] + " on their parent's entity, " + figures[3] + " grandchildren, " + figures[4] + " spawned; "
                + figures[5] + " missing children excused");
        assertTrue(figures[1] > 0 && figures[2] > 0 && figures[3] > 0 && figures[4] > 0,
                "the families ran every kind of child: " + java.util.Arrays.toString(figures));
    }

    /** Checks the lifetime rules in {@code w}; {@code excused} holds the keys of invoked children the game despawned. */
    private static void lifetimes(RandomFamilies f, StateWorld w, Set<String> excused, boolean lax, String where, int[] figures) {
        for (StateRecord<List<String>> r : f.childRecords(w)) {
            RandomFamilies.Kin k = f.kin.get(r.machineId());
            String who = StateWorld.keyOf(r.entity()) + ":" + r.machineId();
            Entity p = r.parent();
            assertNotNull(p, where + ": " + who + " runs a child machine but has no parent");
            assertTrue(!p.isDeleted(), where + ": " + who + "'s parent was despawned");
            States<List<String>> pm = f.machines.get(k.parentMachine());
            StateRecord<List<String>> pr = p.get(pm.recordType());
            assertNotNull(pr, where + ": " + who + "'s parent entity has no '" + k.parentMachine() + "' record");
            int parents = 0;
            for (StateRecord<List<String>> q : w.records(pm)) {
                for (String id : q.children()) {
                    if (q.child(id) == r.entity() && (k.spawned() ? id.startsWith(k.id()) : id.equals(k.id()))) {
                        parents++;
                        assertTrue(q == pr, where + ": " + who + " is listed by " + StateWorld.keyOf(q.entity()) + ", not its parent");
                    }
                }
            }
            assertEquals(1, parents, where + ": " + who + " is the child of one parent");
            if (!k.spawned()) {
                assertTrue(pr.matches(k.state()), where + ": " + who + "'s parent left '" + k.state() + "' (now " + pr.value() + ")");
                figures[k.sameEntity() ? 2 : 1]++;
            } else {
                figures[4]++;
            }
            if (f.kin.containsKey(k.parentMachine())) {
                figures[3]++;
            }
        }
        for (var e : f.kin.entrySet()) {
            RandomFamilies.Kin k = e.getValue();
            if (k.spawned()) {
                continue;
            }
            for (StateRecord<List<String>> q : w.records(f.machines.get(k.parentMachine()))) {
                String key = StateWorld.keyOf(q.entity()) + "/" + k.id();
                if (!q.matches(k.state())) {
                    excused.remove(key);
                } else if (q.child(k.id()) != null) {
                    excused.remove(key);
                } else if (lax) {
                    excused.add(key);
                    figures[5]++;
                } else if (!excused.contains(key)) {
                    fail(where + ": " + StateWorld.keyOf(q.entity()) + ":" + q.machineId() + " is in '" + k.state() + "' ("
                            + q.value() + ") without its child '" + k.id() + "'");
                }
            }
        }
    }
}

package dev.enginestates.versions;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.declare.MachineException;
import dev.enginestates.declare.Migration;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Saves;
import dev.enginestates.versions.GuardVersions.Guard;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.enginestates.versions.GuardVersions.V1;
import static dev.enginestates.versions.GuardVersions.V2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A running world takes a new definition of a machine between steps ({@code StateWorld.swap}):
 * 10,000 guards mid-wait in every state of version 1 move to version 2, which renames two states,
 * splits one into a compound and removes one. Each record stays valid, keeps its seconds left
 * where its state kept its wait, carries the tags of its states, round-trips through a checkpoint,
 * and equals a twin restored from a checkpoint taken before the swap, through the migration.
 */
class HotSwapTest {
    static final double DT = 1.0 / 60;
    static final int GUARDS = 10_000;
    static final Saves SAVES_1 = Saves.of(V1);
    static final Saves SAVES_2 = Saves.of(V2);

    /** Guards in every state of version 1, most of them part-way through a wait. */
    static StateWorld guards(int n) {
        StateWorld world = StateWorld.create();
        for (int i = 0; i < n; i++) {
            Entity e = world.spawn(EntityKey.of("g" + i), V1.trait());
            switch (i % 6) {
                case 1 -> V1.send(e, "BELL");
                case 2 -> V1.send(e, "ALARM");
                case 3 -> V1.send(e, "SEARCH");
                case 4 -> {
                    V1.send(e, "BELL");
                    V1.send(e, "RESUME");
                }
                default -> { }
            }
            if (i % 97 == 0) {
                world.step(DT); // later guards start later: their waits are at other points
            }
        }
        for (int i = 0; i < 301; i++) {
            world.step(DT);
        }
        return world;
    }

    @Test
    void tenThousandGuardsMidWaitSwapToAVersionThatRenamesSplitsAndRemovesStates() {
        StateWorld world = guards(GUARDS);
        String before = SAVES_1.checkpoint(world);
        Map<String, String> waitState = new HashMap<>();
        Map<String, Double> left = new HashMap<>();
        Map<String, String> state = new HashMap<>();
        Set<String> seen = new java.util.HashSet<>();
        for (StateRecord<Guard> r : world.records(V1)) {
            String key = StateWorld.keyOf(r.entity());
            state.put(key, r.state());
            seen.add(r.leaves().get(0));
            if (r.waitingIn() != null) {
                waitState.put(key, r.waitingIn());
                left.put(key, r.secondsLeft());
            }
        }
        assertEquals(Set.of("patrol.watch", "patrol.rest", "answer", "alarm", "search"), seen, "every state of version 1 is held");

        assertEquals(GUARDS, world.swap(V1, V2));

        assertTrue(world.records(V1).isEmpty(), "no record of version 1 is left");
        assertEquals(GUARDS, world.records(V2).size());
        Map<String, String> kept = Map.of("patrol.watch", "patrol.watch.look", "patrol.rest", "patrol.nap", "search", "hunt");
        int keptWaits = 0;
        for (StateRecord<Guard> r : world.records(V2)) {
            Entity e = r.entity();
            String key = StateWorld.keyOf(e);
            String old = state.get(key);
            String expected = switch (old) {
                case "patrol.watch" -> "patrol.watch.look";
                case "patrol.rest" -> "patrol.nap";
                case "search" -> "hunt";
                case "alarm" -> "patrol.watch.look";
                default -> old;
            };
            assertEquals(expected, r.state(), key + " was in " + old);
            String w = waitState.get(key);
            if (w != null && kept.containsKey(w)) {
                assertEquals(kept.get(w), r.waitingIn(), key);
                assertEquals(left.get(key), r.secondsLeft(), key + ": a state that keeps its wait keeps its seconds left");
                keptWaits++;
            }
            if (old.equals("alarm")) {
                assertEquals(4.0, r.secondsLeft(), key + ": a removed state's guards enter patrol, whose watch starts its wait now");
            }
            for (String p : V2.machine().statePaths()) {
                if (!p.endsWith("resumed")) {
                    assertEquals(r.is(p), e.has(V2.is(p)), key + ": the tag of " + p + " follows the record");
                }
            }
            for (String p : V1.machine().statePaths()) {
                if (!p.endsWith("resumed")) {
                    assertFalse(e.has(V1.is(p)), key + " carries no tag of version 1");
                }
            }
        }
        assertTrue(keptWaits > GUARDS / 3, "many guards kept their waits: " + keptWaits);

        String swapped = SAVES_2.checkpoint(world);
        StateWorld again = StateWorld.create();
        SAVES_2.restoreSpawningMissing(again, swapped);
        assertEquals(swapped, SAVES_2.checkpoint(again), "checkpoint, restore, checkpoint gives the same text");

        StateWorld twin = StateWorld.create();
        SAVES_2.restoreSpawningMissing(twin, before);
        assertEquals(swapped, SAVES_2.checkpoint(twin), "a twin restored from before the swap, through the migration, is the swapped world");

        for (int i = 0; i < 900; i++) {
            world.step(DT);
            twin.step(DT);
            if (i % 100 == 0) {
                V2.send(world.entity("g" + i), "BELL");
                V2.send(twin.entity("g" + i), "BELL");
            }
        }
        assertEquals(SAVES_2.checkpoint(world), SAVES_2.checkpoint(twin), "and they step alike afterwards");
        world.close();
        again.close();
        twin.close();
    }

    @Test
    void aSwapThatCannotPlaceOneRecordChangesNothingByteForByte() {
        StateWorld world = guards(6);
        Entity alarmed = world.entity("g2");
        assertEquals("alarm", V1.read(alarmed).state());
        States<Guard> withoutAlarm = States.define("vguard", Guard::new, m -> m
                .version(2, Migration.from(1).rename("patrol.rest", "patrol.nap").rename("search", "hunt"))
                .initial("patrol")
                .state("patrol", p -> p.initial("watch")
                        .state("watch", s -> s.waitFor(4, "nap"))
                        .state("nap", s -> s.waitFor(10, "watch"))
                        .history("resumed", HistoryDepth.DEEP)
                        .on("BELL", "answer"))
                .state("answer", s -> s.on("RESUME", "patrol.resumed"))
                .state("hunt", s -> s.waitFor(8, "patrol")));
        String before = SAVES_1.checkpoint(world);
        List<Boolean> tags = tagsOf(world, V1);

        MachineException e = assertThrows(MachineException.class, () -> world.swap(V1, withoutAlarm));

        assertTrue(e.getMessage().contains("'alarm'") && e.getMessage().contains("g2") && e.getMessage().contains("vguard"), e.getMessage());
        assertTrue(e.getMessage().contains("1 of its 6 records") && e.getMessage().contains("nothing was changed"), e.getMessage());
        assertEquals(before, SAVES_1.checkpoint(world), "the world's checkpoint is byte-identical");
        assertEquals(tags, tagsOf(world, V1), "and its tags are the same");
        assertTrue(world.records(withoutAlarm).isEmpty());
        world.step(DT); // and it runs on, in version 1
        assertEquals(6, world.records(V1).size());
        world.close();
    }

    private static List<Boolean> tagsOf(StateWorld world, States<?> m) {
        List<Boolean> out = new ArrayList<>();
        for (StateRecord<?> r : world.records(m)) {
            for (String p : m.machine().statePaths()) {
                if (!p.endsWith("resumed")) {
                    out.add(r.entity().has(m.is(p)));
                }
            }
        }
        return out;
    }

    @Test
    void statesInBothVersionsSurviveUntouchedNoCodeRunsNoListenerIsTold() {
        StateWorld world = StateWorld.create();
        Entity watching = world.spawn(EntityKey.of("w"), V1.trait());
        Entity answering = world.spawn(EntityKey.of("a"), V1.trait());
        V1.send(answering, "BELL");
        for (int i = 0; i < 100; i++) {
            world.step(DT);
        }
        List<String> heard = new ArrayList<>();
        world.addListener(V1, new dev.enginestates.MachineListener<>() {
            @Override
            public void stateChanged(StateRecord<Guard> m, String from, String to, String event) {
                heard.add(StateWorld.keyOf(m.entity()) + " " + from + " -> " + to + " by " + event);
            }
        });
        Guard context = V1.read(answering).context();
        double entered = V1.read(answering).timeIn("answer");

        world.swap(V1, V2);

        assertEquals(List.of("w patrol.watch -> patrol.watch.look by swap"), heard,
                "the answering guard's state is the same in both versions: nothing is told of it; the watcher's gained a child");
        assertSame(context, V2.read(answering).context(), "the context is kept as it is");
        assertEquals(1, context.bells, "no entry action ran again");
        assertEquals(entered, V2.read(answering).timeIn("answer"), "its time in the state is kept");
        V2.send(answering, "RESUME");
        assertEquals("patrol.watch.look", V2.read(answering).state(), "its history came through: back to the watch");
        assertEquals(1, heard.stream().filter(h -> h.startsWith("a ")).count(), "listeners of version 1 hear version 2: " + heard);
        world.close();
    }

    @Test
    void pendingSendsSurviveTheSwapAndArriveOnTime() {
        States<Guard> sender1 = States.define("sender", Guard::new, m -> m.version(1)
                .initial("idle")
                .state("idle", s -> s.on("ARM", t -> t.action((g, e, self) -> self.sendSelf(Event.of("FIRE"), 2.0, null))).on("FIRE", "fired"))
                .state("fired"));
        States<Guard> sender2 = States.define("sender", Guard::new, m -> m.version(2, Migration.from(1).rename("idle", "ready"))
                .initial("ready")
                .state("ready", s -> s.on("FIRE", "fired"))
                .state("fired"));
        StateWorld world = StateWorld.create();
        Entity e = world.spawn(EntityKey.of("s"), sender1.trait());
        sender1.send(e, "ARM");
        for (int i = 0; i < 60; i++) {
            world.step(DT);
        }
        world.swap(sender1, sender2);
        assertEquals("ready", sender2.read(e).state());
        for (int i = 0; i < 59; i++) {
            world.step(DT);
        }
        assertEquals("ready", sender2.read(e).state(), "not yet: the send is due at 2 s");
        world.step(DT);
        world.step(DT);
        assertEquals("fired", sender2.read(e).state(), "the send made before the swap arrived after it");
        world.close();
    }

    @Test
    void aSwapIsRefusedBetweenMachinesOfOtherIdsToAnOlderVersionAndFromInsideACall() {
        StateWorld world = guards(12);
        States<Guard> other = States.define("other-guard", Guard::new, m -> m.initial("a").state("a"));
        assertTrue(assertThrows(MachineException.class, () -> world.swap(V1, other)).getMessage().contains("'other-guard'"));
        StateWorld back = StateWorld.create();
        back.spawn(EntityKey.of("x"), V2.trait());
        MachineException older = assertThrows(MachineException.class, () -> back.swap(V2, V1));
        assertTrue(older.getMessage().contains("newer"), older.getMessage());
        States<Guard> v0 = States.define("vguard", Guard::new, m -> m.initial("patrol").state("patrol"));
        StateWorld zero = StateWorld.create();
        zero.spawn(EntityKey.of("z"), v0.trait());
        MachineException gap = assertThrows(MachineException.class, () -> zero.swap(v0, V2));
        assertTrue(gap.getMessage().contains("no migration from version 0 to 1"), gap.getMessage());

        world.addListener(V1, new dev.enginestates.MachineListener<>() {
            @Override
            public void stateChanged(StateRecord<Guard> m, String from, String to, String event) {
                world.swap(V1, V2);
            }
        });
        String before = SAVES_1.checkpoint(world);
        Entity g0 = world.entity("g0");
        RuntimeException inside = assertThrows(RuntimeException.class, () -> V1.send(g0, "BELL"));
        assertTrue(inside.getMessage().contains("swap") || inside.getCause() != null, inside.toString());
        assertEquals(12, world.records(V1).size(), "the swap asked from a listener did not run");
        assertNotEquals(before, SAVES_1.checkpoint(world)); // the bell itself was taken
        world.close();
        back.close();
        zero.close();
    }
}

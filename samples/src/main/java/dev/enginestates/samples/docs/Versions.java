package dev.enginestates.samples.docs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.MachineListener;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.declare.Migration;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Saves;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The code of docs/versions.md, compiled: two versions of a guard, a checkpoint of version 1
 * restored by version 2, and a world of version 1 swapped to version 2 while it runs
 * ({@code DocsCodeTest} runs {@link #restoreAndSwap()}).
 */
public final class Versions {
    private Versions() {
    }

    /** Version 1's context. */
    public static final class Guard {
        /** Bells answered. */
        public int bells;
    }

    /** Version 2's context: every call answered, the bells among them. */
    public static final class Guard2 {
        /** Calls answered. */
        public int calls;
    }

    /** The guard as the game first shipped it. */
    static final States<Guard> GUARD_V1 = States.define("guard", Guard::new, m -> m
        .version(1)
        .initial("patrol")
        .state("patrol", p -> p
            .initial("watch")
            .state("watch", s -> s.waitFor(4, "rest"))
            .state("rest", s -> s.waitFor(10, "watch"))
            .history("resumed", HistoryDepth.DEEP)
            .on("BELL", "answer")
            .on("ALARM", "alarm"))
        .state("answer", s -> s
            .entry((guard, e) -> guard.bells++)
            .on("RESUME", "patrol.resumed"))
        .state("alarm", s -> s.waitFor(6, "patrol")));

    /** How version 1's records become version 2's. */
    static final Migration FROM_1 = Migration.from(1)
        .rename("patrol.rest", "patrol.nap")              // and every state below it
        .rename("patrol.watch", "patrol.watch.look")      // watch is split: its guards, and its wait, go to look
        .remove("alarm", "patrol")                        // its guards enter patrol, as a transition's target would
        .forget("patrol.resumed")                         // version 2 has no history state
        .context(Guard::new, (Guard old) -> {             // a saved context is read as version 1's first
            Guard2 guard = new Guard2();
            guard.calls = old.bells;
            return guard;
        });

    /** The guard as the game ships it now. */
    static final States<Guard2> GUARD_V2 = States.define("guard", Guard2::new, m -> m
        .version(2, FROM_1)
        .initial("patrol")
        .state("patrol", p -> p
            .initial("watch")
            .state("watch", s -> s
                .initial("look")
                .state("look", l -> l.waitFor(4, "#guard.patrol.nap").on("NOISE", "listen"))
                .state("listen", l -> l.on("QUIET", "look")))
            .state("nap", s -> s.waitFor(10, "watch"))
            .on("BELL", "answer"))
        .state("answer", s -> s
            .entry((guard, e) -> guard.calls++)
            .on("RESUME", "patrol")));

    /**
     * What a restore and a swap did.
     *
     * @param restored    by key, the state of each guard a version 1 checkpoint restored into version 2
     * @param swapped     by key, the state of each guard of the world swapped live
     * @param moved       the records the swap moved
     * @param alike       whether the restored world's checkpoint is the swapped world's
     * @param heard       what the world's listener heard of the swap
     * @param leftBefore  the watching guard's seconds left in version 1
     * @param leftAfter   its seconds left in version 2, swapped
     * @param calls       the answering guard's calls in version 2: its bells
     * @param olderSaved  the "machines" part of the version 1 checkpoint
     */
    public record Seen(Map<String, String> restored, Map<String, String> swapped, int moved, boolean alike, List<String> heard,
            double leftBefore, double leftAfter, int calls, String olderSaved) { }

    /** A version 1 world: guards watching, resting, alarmed and answering, part-way through their waits. */
    static StateWorld version1() {
        StateWorld world = StateWorld.create();
        Entity resting = world.spawn(EntityKey.of("resting"), GUARD_V1.trait());
        for (int i = 0; i < 300; i++) world.step(1.0 / 60);
        world.spawn(EntityKey.of("watching"), GUARD_V1.trait());
        GUARD_V1.send(world.spawn(EntityKey.of("alarmed"), GUARD_V1.trait()), "ALARM");
        GUARD_V1.send(world.spawn(EntityKey.of("answering"), GUARD_V1.trait()), "BELL");
        for (int i = 0; i < 60; i++) world.step(1.0 / 60);
        return world;
    }

    /** Restores a checkpoint of version 1 with version 2, swaps a world of version 1 to version 2, and compares them. */
    public static Seen restoreAndSwap() {
        StateWorld world = version1();
        double leftBefore = GUARD_V1.read(world.entity("watching")).secondsLeft();

        String saved = Saves.of(GUARD_V1).checkpoint(world);     // a player's save, written by version 1
        StateWorld loaded = StateWorld.create();
        Saves saves = Saves.of(GUARD_V2);                         // the game now ships version 2
        saves.restoreSpawningMissing(loaded, saved);              // version 1's records, placed through FROM_1

        List<String> heard = new ArrayList<>();
        world.addListener(GUARD_V1, new MachineListener<>() {
            @Override
            public void stateChanged(StateRecord<Guard> r, String from, String to, String cause) {
                heard.add(StateWorld.keyOf(r.entity()) + ": " + from + " -> " + to + " (" + cause + ")");
            }
        });
        int moved = world.swap(GUARD_V1, GUARD_V2);                // between two steps; all or nothing

        Seen seen = new Seen(states(loaded), states(world), moved, saves.checkpoint(loaded).equals(saves.checkpoint(world)),
                heard, leftBefore, GUARD_V2.read(world.entity("watching")).secondsLeft(),
                GUARD_V2.read(world.entity("answering")).context().calls, machinesOf(saved));
        world.close();
        loaded.close();
        return seen;
    }

    private static Map<String, String> states(StateWorld world) {
        Map<String, String> out = new TreeMap<>();
        for (StateRecord<Guard2> r : world.records(GUARD_V2)) {
            out.put(StateWorld.keyOf(r.entity()), r.state());
        }
        return out;
    }

    private static String machinesOf(String checkpoint) {
        int at = checkpoint.indexOf("\"machines\"");
        return checkpoint.substring(at, checkpoint.indexOf('}', at) + 1).replaceAll("\\s+", " ");
    }
}

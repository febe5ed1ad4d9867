package dev.enginestates.samples.readme;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.Event;
import dev.enginestates.Machine;
import dev.enginestates.declare.HistoryDepth;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.MachinePaused;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.InputLog;
import dev.enginestates.io.Saves;
import dev.enginestates.plain.StateMachine;
import dev.enginestates.xstate.XStateImport;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The README's code, compiled: every Java block of the README stands here line for line
 * ({@code ReadmeCodeTest} checks it), so the README cannot drift from the API.
 */
public final class Tour {
    private Tour() {
    }

    /** The guard's context: how many times he answered the bell. */
    public static final class Guard { public int bells; }      // the machine's context: any class of the game's

    /** The siege's context: waves held. */
    public static final class Siege {
        /** Waves held. */
        public int wave;
    }

    /** A component of the game's own. */
    public static final class Transform { }                    // a component of the game's own

    /** The siege: waves held, a breather between them. */
    public static final Machine<Siege> SIEGE_MACHINE = siege();

    private static Machine<Siege> siege() {
        Machine<Siege> SIEGE = Machine.define("siege", Siege::new, m -> m
            .initial("waiting")
            .state("waiting", s -> s.on("START", "fight"))
            .state("fight", s -> s
                .on("WAVE_HELD", t -> t.target("breather").action((siege, e) -> siege.wave++))
                .on("ALL_DOWN", "over"))
            .state("breather", s -> s.waitFor(12, "fight"))
            .state("over"));
        return SIEGE;
    }

    /** The guard, with a deep history. */
    static final States<Guard> GUARD = States.define("guard", Guard::new, m -> m
        .initial("patrol")
        .state("patrol", p -> p
            .initial("watch")
            .state("watch", s -> s.waitFor(4, "rest"))
            .state("rest", s -> s.waitFor(10, "watch"))
            .history("resumed", HistoryDepth.DEEP)
            .on("BELL", "answer"))
        .state("answer", s -> s
            .entry((guard, e) -> guard.bells++)
            .on("RESUME", "patrol.resumed")
            .on("RESTART", "patrol")));

    /** The tour: spawn, step, send, query by tag, read. */
    public static double tour() {
        StateWorld world = StateWorld.create();
        Entity guard = world.spawn(EntityKey.of("guard-1"), GUARD.trait(), new Transform());
        for (int i = 0; i < 180; i++) world.step(1.0 / 60);   // three seconds into his watch
        GUARD.send(guard, "BELL");                            // true: he answers the bell
        world.query(GUARD.is("answer")).count();              // 1: every guard answering the bell
        world.query(Transform.class).without(GUARD.is("patrol")).count();   // the "not" form
        GUARD.send(guard, "RESUME");                          // back to his watch, through the deep history...
        double left = GUARD.read(guard).secondsLeft();        // ...with 1.0 s left
        world.close();
        return left;
    }

    /** The plain-object face. */
    public static Object plain() {
        StateMachine<Siege> siege = new StateMachine<>(SIEGE_MACHINE);
        siege.send("START");                                   // true: a state took it
        siege.send(Event.of("WAVE_HELD", Map.of("wave", 3)));  // events carry fields guards read
        siege.value();                                         // "breather"
        siege.matches("breather");                             // true
        return siege.value();
    }

    /** The ECS face in more detail. */
    public static void ecs() {
        StateWorld world = StateWorld.create();                 // world.dominion() is Dominion itself
        Entity guard = world.spawn(GUARD.trait(), new Transform());
        world.add(States.of(SIEGE_MACHINE));                     // a world-level machine (the game's phases)
        world.step(1.0 / 60);                                    // waits, then when rules, machine by machine
        GUARD.send(guard, "BELL");                               // moves now, tags too; returns whether it was taken
        world.query(GUARD.is("answer"));                         // every guard answering the bell
        world.query(Transform.class).without(GUARD.is("patrol"));
        guard.has(GUARD.is("answer"));                           // Dominion's own API sees the tags too
        GUARD.read(guard).secondsLeft();                         // value(), matches(path), context(), waited()
        guard.add(MachinePaused.INSTANCE);                       // holds every machine on the entity
        world.close();
    }

    /** Dumps, checkpoints, replays. */
    public static boolean saves() {
        StateWorld world = StateWorld.create();
        world.spawn(EntityKey.of("guard-7"), GUARD.trait());
        StateWorld otherWorld = StateWorld.create();
        otherWorld.spawn(EntityKey.of("guard-7"));
        Saves saves = Saves.of(GUARD);
        String text = saves.dump(world);           // for reading: state values, seconds waited and left, tags; keys sorted
        String cp = saves.checkpoint(world);       // exact records and the world clock, with a format version
        saves.restore(otherWorld, cp);             // all or nothing; tags, timers and when rules rebuilt from the records
        InputLog log = InputLog.start(saves, world);   // a checkpoint, then every spawn, send, hand-set state and step
        world.step(1.0 / 60);
        InputLog.replay(saves, StateWorld.create(), log.text());   // the same records, bit for bit
        return text.contains("guard-7") && saves.checkpoint(otherWorld).equals(cp);
    }

    /** An XState JSON config with its guards and actions supplied in Java. */
    public static Machine<List<String>> imported(Path file) throws IOException {
        Machine<List<String>> m = XStateImport.withContext(() -> (List<String>) new ArrayList<String>())
            .guard("isReady", (log, event) -> event.isTrue("ok"))
            .actions(name -> (log, event) -> log.add(name))
            .read(file);
        return m;
    }
}

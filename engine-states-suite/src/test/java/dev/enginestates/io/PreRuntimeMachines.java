package dev.enginestates.io;

import dev.enginestates.StatesDef;
import dev.enginestates.declare.Event;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.AIContext;
import dev.enginestates.fsm.StateMachineBuilder;
import dev.enginestates.fsm.StateMachineDefinition;

/**
 * One machine per declaration style and the play that made the files under
 * {@code fixtures/pre-runtime/}: each run with the code from before the runtime contract (commit
 * 4320203), so the files are what that code wrote. The play is split in two: the whole stream
 * frame was taken between the halves, the frame of changes, the checkpoint, the dump and the
 * input log at the end. Changing a machine or the play here changes what the files mean.
 */
final class PreRuntimeMachines {
    static final double DT = 1.0 / 60;

    private PreRuntimeMachines() {
    }

    // ------------------------------------------------------------------ XState style: a wait, history, entry times

    public static final class Guard {
        public int bells;
        public String mood = "calm";
    }

    static final States<Guard> GUARD = States.define("pre-guard", Guard::new, m -> m
            .initial("idle")
            .state("idle", s -> s.on("BELL", t -> t.target("alert").action((g, e) -> g.bells++)))
            .state("alert", s -> s.initial("look")
                    .state("look", l -> l.waitFor(5, "search"))
                    .state("search", l -> l.on("SPOT", "look"))
                    .history("h", h -> h.id("alert-h"))
                    .on("REST", "resting"))
            .state("resting", s -> s.entry((g, e) -> g.mood = "tired").on("BELL", "#alert-h")));

    // ------------------------------------------------------------------ polled style: clocks, previous, a spent after

    public static final class Bot {
        public boolean target;
        public int hits;
        public int aims;
    }

    static final StatesDef<Bot> BOT_DEF = StatesDef.define("pre-bot", Bot::new, d -> d
            .on("hit", (b, args) -> {
                b.hits += args.length > 0 && args[0] instanceof Integer n ? n : 1; // sent as an event: the event is the argument
                return "flinch";
            })
            .on("spot", (b, args) -> {
                b.target = true;
                return null;
            })
            .state("patrol", s -> s.to("combat", (b, t) -> b.target))
            .state("combat", s -> s.after(1, "aim")
                    .state("watch")
                    .state("aim", a -> a.enter((b, from) -> b.aims++)))
            .state("flinch", s -> s.after(0.2, "$back")));

    static final States<Bot> BOT = States.of(BOT_DEF);

    // ------------------------------------------------------------------ builder style: a float clock, progress, previous

    public static final class Door extends AIContext {
        public boolean open;
        public int opened;
    }

    static final StateMachineDefinition<Door> DOOR_DEF = new StateMachineBuilder<Door>("pre-door", Door::new)
            .configureState("Closed").asInitial().handler((d, dt) -> d.open ? "Opening" : null)
            .configureState("Opening").duration(0.75f).window("creak", 0.5f, 0.6f)
            .handler((d, dt) -> d.progress() >= 1f ? "Open" : null)
            .configureState("Open").enter(d -> d.opened++).handler((d, dt) -> d.open ? null : "Closing")
            .configureState("Closing").duration(0.75f).handler((d, dt) -> d.progress() >= 1f ? "Closed" : null)
            .build();

    static final States<Door> DOOR = States.of(DOOR_DEF);

    static void steps(StateWorld w, int n) {
        for (int i = 0; i < n; i++) {
            w.step(DT);
        }
    }

    /** The first half of the XState-style play. */
    static void guardFirstHalf(StateWorld w) {
        w.spawn(EntityKey.of("g1"), GUARD.trait());
        w.spawn(EntityKey.of("g2"), GUARD.trait());
        steps(w, 60);
        GUARD.send(w.entity("g1"), "BELL");
        steps(w, 6 * 60); // g1's wait of 5 s runs out: alert.search
        GUARD.send(w.entity("g1"), "REST"); // alert's history remembers search
    }

    /** The second half: g1 back through history, g2 two seconds into its wait. */
    static void guardSecondHalf(StateWorld w) {
        steps(w, 30);
        GUARD.send(w.entity("g1"), Event.of("BELL"));
        GUARD.send(w.entity("g2"), "BELL");
        steps(w, 120);
    }

    static void botFirstHalf(StateWorld w) {
        w.spawn(EntityKey.of("b1"), BOT.trait(new Bot()));
        w.spawn(EntityKey.of("b2"), BOT.trait(new Bot()));
        w.spawn(EntityKey.of("b3"), BOT.trait(new Bot()));
        steps(w, 30);
        BOT.send(w.entity("b1"), Event.of("spot")); // as an event: logged with asEvent
        steps(w, 45);
    }

    /** b1 in combat.aim with its after spent; b2 flinching from patrol; b3 sent to combat.watch by go. */
    static void botSecondHalf(StateWorld w) {
        steps(w, 40);
        BOT.send(w.entity("b2"), "hit", 3);
        BOT.send(w.entity("b3"), "spot");
        BOT.go(w.entity("b3"), "combat.watch");
        steps(w, 7);
    }

    static void doorFirstHalf(StateWorld w) {
        Door open = new Door();
        open.open = true;
        w.spawn(EntityKey.of("d1"), DOOR.trait(open));
        w.spawn(EntityKey.of("d2"), DOOR.trait(new Door()));
        steps(w, 20);
    }

    /** d1 mid-Opening (past its window), d2 forced to Closing and split-ticked. */
    static void doorSecondHalf(StateWorld w) {
        steps(w, 17);
        DOOR.transitionTo(w.entity("d2"), "Closing");
        w.advance(DT);
        w.runStates();
        steps(w, 5);
    }
}

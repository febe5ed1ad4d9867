package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.Event;
import dev.enginestates.Fixtures;
import dev.enginestates.declare.UnknownEventException;
import dev.enginestates.declare.Holder;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every example of the 003 document ("States"), in the Java DSL, with the document's sentence
 * quoted beside it. Time runs on a 60 Hz fixed step unless a test says otherwise.
 */
class Document003ExamplesTest {
    static final double DT = 1.0 / 60;

    static void steps(StateWorld world, int n) {
        for (int i = 0; i < n; i++) {
            world.step(DT);
        }
    }

    // ------------------------------------------------------------------ contexts and components

    static final class SiegeCtx {
        int wave;

        SiegeCtx() {
        }

        SiegeCtx(int wave) {
            this.wave = wave;
        }
    }

    static final class GuardCtx {
    }

    static final class RiderCtx {
    }

    static final class RoundCtx {
        double countdown = 10;

        RoundCtx() {
        }

        RoundCtx(double countdown) {
            this.countdown = countdown;
        }
    }

    static final class NpcCtx {
    }

    static final class WatchCtx {
        int entries;
        int exits;
    }

    static final class OrderCtx {
    }

    /** The rider's speed along its track (the document's TrackMoverTrait). */
    static final class TrackMover {
        double speed;

        TrackMover(double speed) {
            this.speed = speed;
        }
    }

    /** Added by a conversation (the document's TalkingTrait). */
    static final class Talking {
    }

    /** The document's Stunned. */
    static final class Stunned {
    }

    static final class Alarm {
    }

    static final class Transform {
    }

    // ------------------------------------------------------------------ the machines

    /*
     * export const Siege = states({
     *     id: "siege", initial: "waiting", context: { wave: 0 },
     *     states: {
     *         waiting: { on: { START: "fight" } },
     *         fight: { on: { WAVE_HELD: "breather", ALL_DOWN: "over" } },
     *         breather: { wait: { seconds: 12, then: "fight" } },
     *         over: {},
     *     },
     * });
     *
     * (in Java, Fixtures.siege(), which the other tests declare too)
     */
    static final States<SiegeCtx> SIEGE = States.define("siege", SiegeCtx::new, Fixtures.siege());

    /*
     * export const Guard = states({
     *     id: "guard", initial: "patrol",
     *     states: {
     *         patrol: {
     *             initial: "watch",
     *             states: {
     *                 watch: { wait: { seconds: 4, then: "rest" } },
     *                 rest: { wait: { seconds: 10, then: "watch" } },
     *                 resumed: { type: StateType.History, history: HistoryDepth.Deep },
     *             },
     *             on: { BELL: "answer" },
     *         },
     *         answer: { on: { RESUME: "patrol.resumed", RESTART: "patrol" } },
     *     },
     * });
     *
     * (in Java, Fixtures.guard(), which the other tests declare too)
     */
    static final States<GuardCtx> GUARD = States.define("guard", GuardCtx::new, Fixtures.guard());

    /*
     * const isSlow = (rider: Entity) => (rider.get(TrackMoverTrait)?.speed ?? 0) < stallSpeed;
     * sliding: { when: [[isSlow, "stalling"]] },
     * stalling: {
     *     when: [[(rider) => !isSlow(rider), "sliding"]],
     *     wait: { seconds: stallSeconds, then: "stalled" },
     * },
     */
    static final double STALL_SPEED = 2.0;
    static final double STALL_SECONDS = 1.5;

    static boolean isSlow(Holder rider) {
        TrackMover mover = rider.get(TrackMover.class);
        return (mover == null ? 0 : mover.speed) < STALL_SPEED;
    }

    static final States<RiderCtx> RIDER = States.define("rider", RiderCtx::new, m -> m
            .initial("sliding")
            .state("sliding", s -> s.when((ctx, holder) -> holder.get(TrackMover.class).speed < STALL_SPEED, "stalling"))
            .state("stalling", s -> s
                    .when((ctx, rider) -> !isSlow(rider), "sliding")
                    .waitFor(STALL_SECONDS, "stalled"))
            .state("stalled"));

    /*
     * countdown: {
     *     wait: { seconds: ({ context }) => context.countdown, then: "playing" },
     * },
     */
    static final States<RoundCtx> ROUND = States.define("round", RoundCtx::new, m -> m
            .initial("countdown")
            .state("countdown", s -> s.waitFor(ctx -> ctx.countdown, "playing"))
            .state("playing", s -> s.on("WIN", "won").on("LOSE", "lost"))
            .state("won")
            .state("lost"));

    // "An NPC's routine names the TalkingTrait trait, which a conversation adds, so a talking
    // NPC holds its routine and every other machine on it keeps running." A routine is also the
    // document's example of tags: false.
    static final States<NpcCtx> ROUTINE = States.define("routine", NpcCtx::new, m -> m
            .tags(false)
            .heldBy(Talking.class)
            .initial("idle")
            .state("idle", s -> s.waitFor(5, "stroll").on("WAVE", "stroll"))
            .state("stroll", s -> s.waitFor(5, "idle")));

    /** Another machine on the NPC, not held by Talking. */
    static final States<NpcCtx> MOOD = States.define("mood", NpcCtx::new, m -> m
            .initial("calm")
            .state("calm", s -> s.waitFor(3, "bored"))
            .state("bored"));

    // "states({ id: "patrol", heldBy: [Stunned], ... }) holds the patrol's wait and its when
    // rules while the entity has Stunned, and its other machines run on."
    static final States<NpcCtx> SENTRY = States.define("patrol", NpcCtx::new, m -> m
            .heldBy(Stunned.class)
            .initial("post")
            .state("post", s -> s.when((ctx, h) -> h.has(Alarm.class), "alert"))
            .state("alert"));

    // "then: { target: "watch", reenter: true } on the watch state starts it over, entry actions and all."
    static final States<WatchCtx> WATCH = States.define("watcher", WatchCtx::new, m -> m
            .initial("watch")
            .state("watch", s -> s
                    .entry((c, e) -> c.entries++)
                    .exit((c, e) -> c.exits++)
                    .waitFor(4, t -> t.target("watch").reenter())));

    // "The step runs the machines in the order they were declared": EARLY is declared before
    // LEADER and FOLLOWER after it; both follow LEADER's record.
    static final States<OrderCtx> EARLY = States.define("early", OrderCtx::new, m -> m
            .initial("waiting")
            .state("waiting", s -> s.when((c, h) -> h.get(Document003ExamplesTest.LEADER.recordType()).matches("done"), "follow"))
            .state("follow"));

    static final States<OrderCtx> LEADER = States.define("leader", OrderCtx::new, m -> m
            .initial("going")
            .state("going", s -> s.waitFor(1, "done"))
            .state("done"));

    static final States<OrderCtx> FOLLOWER = States.define("follower", OrderCtx::new, m -> m
            .initial("waiting")
            .state("waiting", s -> s.when((c, h) -> h.get(LEADER.recordType()).matches("done"), "follow"))
            .state("follow"));

    // ------------------------------------------------------------------ the siege

    @Test
    void siegeSendWaveHeldIsTakenAndReadsBreatherWithTwelveSecondsLeft() {
        // Siege.send(world, "WAVE_HELD"); // true: a state took it
        // Siege.read(world).value; // "breather"
        // Siege.read(world).secondsLeft; // 12, the seconds its wait has left
        // Siege.read(world).matches("breather"); // true
        try (StateWorld world = StateWorld.create()) {
            world.add(SIEGE);
            assertEquals("waiting", SIEGE.read(world).value());
            assertTrue(SIEGE.send(world, "START"));
            assertTrue(SIEGE.send(world, "WAVE_HELD"));
            assertEquals("breather", SIEGE.read(world).value());
            assertEquals(12.0, SIEGE.read(world).secondsLeft(), 1e-12);
            assertTrue(SIEGE.read(world).matches("breather"));
            assertTrue(world.entity().has(SIEGE.is("breather")));
        }
    }

    @Test
    void siegeBreatherWaitsTwelveSecondsThenFights() {
        // "breather: { wait: { seconds: 12, then: "fight" } }"; "A wait that when enters counts
        // that step's seconds, as a wait a system's send enters earlier in the step does."
        try (StateWorld world = StateWorld.create()) {
            world.add(SIEGE);
            SIEGE.send(world, "START");
            SIEGE.send(world, "WAVE_HELD");
            steps(world, 719);
            assertEquals("breather", SIEGE.read(world).value());
            assertEquals(DT, SIEGE.read(world).secondsLeft(), 1e-9);
            world.step(DT);
            assertEquals("fight", SIEGE.read(world).value(), "12 s = 720 steps at 60 Hz");
            assertTrue(world.entity().has(SIEGE.is("fight")));
            assertFalse(world.entity().has(SIEGE.is("breather")));
            assertTrue(SIEGE.send(world, "ALL_DOWN"));
            assertEquals("over", SIEGE.read(world).value());
        }
    }

    @Test
    void siegeStateThatNamesNoSuchEventLeavesItAsItWasAndReturnsFalse() {
        // "A state that names no such event, or whose guards all refuse it, leaves the machine as
        // it was, and send returns false."
        try (StateWorld world = StateWorld.create()) {
            world.add(SIEGE);
            assertFalse(SIEGE.send(world, "WAVE_HELD"), "waiting names no WAVE_HELD");
            assertEquals("waiting", SIEGE.read(world).value());
            assertTrue(world.entity().has(SIEGE.is("waiting")));
        }
    }

    @Test
    void siegeHaltIsAnErrorBecauseNoStateNamesIt() {
        // "Sending an event that no state names, such as Siege.send(world, "HALT"), is a type error"
        try (StateWorld world = StateWorld.create()) {
            world.add(SIEGE);
            UnknownEventException e = assertThrows(UnknownEventException.class, () -> SIEGE.send(world, "HALT"));
            assertEquals(List.of("START", "WAVE_HELD", "ALL_DOWN"), e.knownEvents());
            assertEquals("waiting", SIEGE.read(world).value());
        }
    }

    @Test
    void siegeAsAWorldLevelMachineKeepsTheWaveCountInItsContext() {
        // "A game's phases go on the world, with world.add(Siege.trait)"; "Pass the trait fields
        // to start it with another context, as in Siege.trait({ wave: 3 })"; "Keep the wave count
        // in the machine's context, as the siege's wave is".
        try (StateWorld world = StateWorld.create()) {
            StateRecord<SiegeCtx> r = world.add(SIEGE.trait(new SiegeCtx(3)));
            assertSame(world.entity(), r.entity());
            assertEquals(3, SIEGE.read(world).context().wave);
            assertEquals("waiting", SIEGE.read(world).value());
            assertTrue(SIEGE.send(world, "START"));
            // "An event carries fields as XState's do: Siege.send(world, { type: "WAVE_HELD", wave: 3 })"
            assertTrue(SIEGE.send(world, Event.of("WAVE_HELD", Map.of("wave", 3))));
            // a system writes the context as it writes any trait
            SIEGE.read(world).context().wave++;
            assertEquals(4, SIEGE.read(world).context().wave);
            assertEquals("breather", SIEGE.read(world).value());
            assertEquals(List.of(world.entity()), world.query(SIEGE.is("breather")).list());
        }
    }

    // ------------------------------------------------------------------ the guard with deep history

    @Test
    void guardThreeSecondsIntoHisWatchResumesWithOneSecondLeft() {
        // "A guard three seconds into his watch hears the bell. RESUME brings him back to the
        // watch with one second left"
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            steps(world, 180);
            assertEquals(1.0, GUARD.read(g).secondsLeft(), 1e-9);
            assertTrue(GUARD.send(g, "BELL"));
            assertTrue(g.has(GUARD.is("answer")));
            // "A state left before its wait ends keeps the seconds it waited"
            assertEquals(3.0, GUARD.read(g).paused("patrol.watch"), 1e-9);
            steps(world, 120); // answering counts nothing toward the watch
            assertTrue(GUARD.send(g, "RESUME"));
            assertTrue(GUARD.read(g).matches("patrol.watch"));
            assertTrue(g.has(GUARD.is("patrol.watch")));
            assertEquals(1.0, GUARD.read(g).secondsLeft(), 1e-9);
            steps(world, 59);
            assertTrue(GUARD.read(g).matches("patrol.watch"), GUARD.read(g).toString());
            world.step(DT);
            assertTrue(GUARD.read(g).matches("patrol.rest"), GUARD.read(g).toString());
            assertEquals(10.0, GUARD.read(g).secondsLeft(), 1e-9);
        }
    }

    @Test
    void guardRestartStartsThePatrolOver() {
        // "RESTART starts the patrol over."
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            steps(world, 180);
            assertTrue(GUARD.send(g, "BELL"));
            assertTrue(GUARD.send(g, "RESTART"));
            assertTrue(GUARD.read(g).matches("patrol.watch"));
            assertTrue(g.has(GUARD.is("patrol.watch")));
            assertEquals(4.0, GUARD.read(g).secondsLeft(), 1e-9);
            steps(world, 239);
            assertTrue(GUARD.read(g).matches("patrol.watch"));
            world.step(DT);
            assertTrue(GUARD.read(g).matches("patrol.rest"));
        }
    }

    @Test
    void guardResumesRestWhenTheBellCameDuringRest() {
        // "a history state that brings the state back resumes the wait from there."
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            steps(world, 240 + 120); // 4 s watch, then 2 s into rest
            assertTrue(GUARD.read(g).matches("patrol.rest"));
            GUARD.send(g, "BELL");
            GUARD.send(g, "RESUME");
            assertTrue(GUARD.read(g).matches("patrol.rest"));
            assertEquals(8.0, GUARD.read(g).secondsLeft(), 1e-9);
        }
    }

    @Test
    void aWaitEnteredAnyOtherWayStartsFromZero() {
        // "Entered any other way, or brought back by a history state that names another of its
        // states, the wait starts from zero."
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            steps(world, 180); // 3 s into the watch
            GUARD.send(g, "BELL"); // the watch keeps 3 s
            GUARD.send(g, "RESTART"); // entered another way: from zero
            assertEquals(4.0, GUARD.read(g).secondsLeft(), 1e-9);
            steps(world, 240 + 60); // the watch ends; 1 s into rest
            assertTrue(GUARD.read(g).matches("patrol.rest"));
            GUARD.send(g, "BELL");
            GUARD.send(g, "RESUME"); // history names rest, not watch
            assertEquals(9.0, GUARD.read(g).secondsLeft(), 1e-9);
            steps(world, 540); // rest ends: its wait leads to watch, which starts from zero
            assertTrue(GUARD.read(g).matches("patrol.watch"), GUARD.read(g).toString());
            assertEquals(4.0, GUARD.read(g).secondsLeft(), 1e-9);
        }
    }

    @Test
    void reenterThenStartsTheWatchOverEntryActionsAndAll() {
        // "then: { target: "watch", reenter: true } on the watch state starts it over, entry actions and all."
        try (StateWorld world = StateWorld.create()) {
            Entity w = world.spawn(WATCH.trait());
            assertEquals(0, WATCH.read(w).context().entries, "the initial state's entry runs when a transition first enters it");
            steps(world, 240);
            assertEquals(1, WATCH.read(w).context().entries);
            assertEquals(1, WATCH.read(w).context().exits);
            assertEquals(4.0, WATCH.read(w).secondsLeft(), 1e-9);
            steps(world, 240);
            assertEquals(2, WATCH.read(w).context().entries);
            assertEquals(2, WATCH.read(w).context().exits);
            assertTrue(w.has(WATCH.is("watch")));
        }
    }

    // ------------------------------------------------------------------ the rider

    @Test
    void riderStallsOnlyWhenSlowLongEnough() {
        // "Each step, after the waits, the machine runs the tests of the state an entity is in
        // [...] and moves to the target of the first that holds."
        try (StateWorld world = StateWorld.create()) {
            TrackMover mover = new TrackMover(5);
            Entity rider = world.spawn(mover, RIDER.trait());
            steps(world, 120);
            assertTrue(RIDER.read(rider).matches("sliding"));
            assertTrue(rider.has(RIDER.is("sliding")));

            mover.speed = 1;
            world.step(DT);
            assertTrue(RIDER.read(rider).matches("stalling"));
            assertTrue(rider.has(RIDER.is("stalling")));
            // "A wait that when enters counts that step's seconds"
            assertEquals(STALL_SECONDS - DT, RIDER.read(rider).secondsLeft(), 1e-9);
            steps(world, 88); // 89 steps of stalling: 1.4833 s
            assertTrue(RIDER.read(rider).matches("stalling"), RIDER.read(rider).toString());
            world.step(DT); // 90 steps: 1.5 s
            assertTrue(RIDER.read(rider).matches("stalled"), RIDER.read(rider).toString());
            assertTrue(rider.has(RIDER.is("stalled")));
            assertFalse(rider.has(RIDER.is("stalling")));
        }
    }

    @Test
    void riderRecoversWhenSpeedReturnsAndStallsFromZeroNextTime() {
        try (StateWorld world = StateWorld.create()) {
            TrackMover mover = new TrackMover(1);
            Entity rider = world.spawn(mover, RIDER.trait());
            steps(world, 60); // slow for 1 s
            assertTrue(RIDER.read(rider).matches("stalling"));
            assertEquals(0.5, RIDER.read(rider).secondsLeft(), 1e-9);

            mover.speed = 3;
            world.step(DT);
            assertTrue(RIDER.read(rider).matches("sliding"), "speed returned before the stall");
            assertTrue(rider.has(RIDER.is("sliding")));
            assertFalse(rider.has(RIDER.is("stalling")));
            steps(world, 600);
            assertTrue(RIDER.read(rider).matches("sliding"));

            // slow now and then, never for 1.5 s in a row: never stalls
            for (int round = 0; round < 5; round++) {
                mover.speed = 1;
                steps(world, 80);
                assertTrue(RIDER.read(rider).matches("stalling"), RIDER.read(rider).toString());
                assertEquals(STALL_SECONDS - 80 * DT, RIDER.read(rider).secondsLeft(), 1e-9, "each stall counts from zero");
                mover.speed = 4;
                steps(world, 10);
                assertTrue(RIDER.read(rider).matches("sliding"));
            }
            assertFalse(RIDER.read(rider).matches("stalled"));
        }
    }

    @Test
    void riderWithoutATrackMoverCountsAsSlowInTheStallingTest() {
        // "(rider.get(TrackMoverTrait)?.speed ?? 0) < stallSpeed": no mover reads as speed 0.
        try (StateWorld world = StateWorld.create()) {
            Entity rider = world.spawn(new TrackMover(1), RIDER.trait());
            world.step(DT);
            assertTrue(RIDER.read(rider).matches("stalling"));
            rider.removeType(TrackMover.class);
            steps(world, 89);
            assertTrue(RIDER.read(rider).matches("stalled"));
        }
    }

    // ------------------------------------------------------------------ the round

    @Test
    void roundCountdownWaitsTheSecondsItsContextSays() {
        // "seconds may be a function of the context, as the round's countdown is"
        try (StateWorld world = StateWorld.create()) {
            Entity three = world.spawn(ROUND.trait(new RoundCtx(3)));
            Entity five = world.spawn(ROUND.trait(new RoundCtx(5)));
            Entity dflt = world.spawn(ROUND.trait());
            assertEquals(3.0, ROUND.read(three).secondsLeft(), 1e-12);
            assertEquals(5.0, ROUND.read(five).secondsLeft(), 1e-12);
            assertEquals(10.0, ROUND.read(dflt).secondsLeft(), 1e-12);
            steps(world, 179);
            assertTrue(ROUND.read(three).matches("countdown"));
            world.step(DT);
            assertTrue(ROUND.read(three).matches("playing"));
            assertTrue(three.has(ROUND.is("playing")));
            assertTrue(ROUND.read(five).matches("countdown"));
            assertEquals(2.0, ROUND.read(five).secondsLeft(), 1e-9);
            steps(world, 120);
            assertTrue(ROUND.read(five).matches("playing"));
            assertTrue(ROUND.read(dflt).matches("countdown"));
            assertEquals(Set.of(three, five), Set.copyOf(world.query(ROUND.is("playing")).list()));
        }
    }

    @Test
    void roundSpawnedInPlayMatchesItsPlayingTagBeforeAnyStep() {
        // "A record spawned in a state holds that state's tag from its spawn:
        // RoundMachine.is.playing matches a round spawned in play before any step."
        // entity.has(RoundMachine.is.playing);
        try (StateWorld world = StateWorld.create()) {
            Entity round = world.spawn(ROUND.trait().setState("playing"));
            assertEquals(0, world.steps());
            assertTrue(round.has(ROUND.is("playing")));
            assertFalse(round.has(ROUND.is("countdown")));
            assertEquals(0.0, ROUND.read(round).secondsLeft());
            assertTrue(ROUND.send(round, "WIN"));
            assertTrue(round.has(ROUND.is("won")));
        }
    }

    // ------------------------------------------------------------------ holds

    @Test
    void talkingHoldsTheNpcsRoutineWhileItsOtherMachineRunsOn() {
        // "An NPC's routine names the TalkingTrait trait, which a conversation adds, so a
        // talking NPC holds its routine and every other machine on it keeps running."
        try (StateWorld world = StateWorld.create()) {
            Entity npc = world.spawn(ROUTINE.trait(), MOOD.trait());
            steps(world, 120);
            assertEquals(3.0, ROUTINE.read(npc).secondsLeft(), 1e-9);
            npc.add(new Talking());
            steps(world, 600);
            assertTrue(ROUTINE.read(npc).matches("idle"), "the held routine did not move: " + ROUTINE.read(npc));
            assertTrue(ROUTINE.read(npc).isHeld());
            assertEquals(3.0, ROUTINE.read(npc).secondsLeft(), 1e-9, "a held wait counts no seconds");
            assertTrue(MOOD.read(npc).matches("bored"), "the other machine ran on");
            assertTrue(npc.has(MOOD.is("bored")));

            npc.removeType(Talking.class);
            steps(world, 179);
            assertTrue(ROUTINE.read(npc).matches("idle"), ROUTINE.read(npc).toString());
            assertFalse(ROUTINE.read(npc).isHeld());
            world.step(DT);
            assertTrue(ROUTINE.read(npc).matches("stroll"), "the wait resumed with its 3 s: " + ROUTINE.read(npc));
        }
    }

    @Test
    void anEventStillMovesAHeldMachine() {
        // "an event sent to the machine still moves it"
        try (StateWorld world = StateWorld.create()) {
            Entity npc = world.spawn(ROUTINE.trait(), new Talking());
            steps(world, 60);
            assertTrue(ROUTINE.read(npc).isHeld());
            assertTrue(ROUTINE.send(npc, "WAVE"));
            assertTrue(ROUTINE.read(npc).matches("stroll"));
            steps(world, 600);
            assertTrue(ROUTINE.read(npc).matches("stroll"), "a wait entered while held counts nothing either");
            assertEquals(5.0, ROUTINE.read(npc).secondsLeft(), 1e-9);
            npc.removeType(Talking.class);
            steps(world, 300);
            assertTrue(ROUTINE.read(npc).matches("idle"), ROUTINE.read(npc).toString());
        }
    }

    @Test
    void machinePausedHoldsEveryMachineOnTheEntityAndEventsStillMoveThem() {
        // "Add the MachinePausedTrait trait to an entity to hold every machine on it where it
        // is: until the trait comes off, a wait counts no seconds and a when goes untested, and
        // an event sent to the machine still moves it"
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(GUARD.trait(), MOOD.trait());
            Entity other = world.spawn(GUARD.trait());
            steps(world, 60);
            e.add(MachinePaused.INSTANCE);
            steps(world, 600);
            assertEquals(3.0, GUARD.read(e).secondsLeft(), 1e-9);
            assertTrue(MOOD.read(e).matches("calm"));
            assertEquals(2.0, MOOD.read(e).secondsLeft(), 1e-9);
            assertTrue(GUARD.read(other).matches("patrol.rest"), "another entity's guard ran on: 11 s is 4 s watch + 7 s rest");
            assertEquals(3.0, GUARD.read(other).secondsLeft(), 1e-9);
            assertTrue(GUARD.send(e, "BELL"));
            assertTrue(e.has(GUARD.is("answer")));
            assertTrue(GUARD.send(e, "RESUME"));
            assertEquals(3.0, GUARD.read(e).secondsLeft(), 1e-9);
            e.removeType(MachinePaused.class);
            steps(world, 120);
            assertTrue(MOOD.read(e).matches("bored"));
            assertEquals(1.0, GUARD.read(e).secondsLeft(), 1e-9);
        }
    }

    @Test
    void heldByHoldsTheMachinesWhenRulesAndItsOtherMachinesRunOn() {
        // "holds the patrol's wait and its when rules while the entity has Stunned, and its
        // other machines run on."
        try (StateWorld world = StateWorld.create()) {
            Entity e = world.spawn(SENTRY.trait(), MOOD.trait(), new Stunned(), new Alarm());
            steps(world, 240);
            assertTrue(SENTRY.read(e).matches("post"), "a stunned sentry tests no when rule");
            assertTrue(MOOD.read(e).matches("bored"));
            e.removeType(Stunned.class);
            world.step(DT);
            assertTrue(SENTRY.read(e).matches("alert"));
            assertTrue(e.has(SENTRY.is("alert")));
        }
    }

    // ------------------------------------------------------------------ queries

    @Test
    void queriesFindEntitiesInAState() {
        // world.query(Guard.is.answer);
        // world.query(TransformTrait, Not(Guard.is.patrol));
        // entity.has(RoundMachine.is.playing);
        try (StateWorld world = StateWorld.create()) {
            Entity a = world.spawn(new Transform(), GUARD.trait());
            Entity b = world.spawn(new Transform(), GUARD.trait());
            Entity c = world.spawn(GUARD.trait());
            Entity crate = world.spawn(new Transform());
            Entity round = world.spawn(ROUND.trait().setState("playing"));
            GUARD.send(b, "BELL");
            GUARD.send(c, "BELL");

            assertEquals(Set.of(b, c), Set.copyOf(world.query(GUARD.is("answer")).list()));
            assertEquals(Set.of(b, crate), Set.copyOf(world.query(Transform.class).without(GUARD.is("patrol")).list()));
            assertTrue(round.has(ROUND.is("playing")));
            assertFalse(a.has(GUARD.is("answer")));
            // "Find the entities in a state with a query, as you find DownedTrait ones" -
            // Dominion's own query sees the same tags
            Set<Entity> viaDominion = new java.util.HashSet<>();
            world.dominion().findEntitiesWith(GUARD.is("answer")).forEach(r -> viaDominion.add(r.entity()));
            assertEquals(Set.of(b, c), viaDominion);
        }
    }

    // ------------------------------------------------------------------ order

    @Test
    void theStepRunsTheMachinesInTheOrderTheyWereDeclared() {
        // "The step runs the machines in the order they were declared."
        try (StateWorld world = StateWorld.create()) {
            // spawned in an order unlike the declaration order
            Entity e = world.spawn(FOLLOWER.trait(), LEADER.trait(), EARLY.trait());
            assertEquals(List.of(EARLY, LEADER, FOLLOWER), world.machines());
            steps(world, 59);
            assertTrue(LEADER.read(e).matches("going"));
            world.step(DT);
            assertTrue(LEADER.read(e).matches("done"));
            assertTrue(FOLLOWER.read(e).matches("follow"), "declared after the leader: sees its move in the same step");
            assertTrue(EARLY.read(e).matches("waiting"), "declared before the leader: ran before it moved");
            world.step(DT);
            assertTrue(EARLY.read(e).matches("follow"));
        }
    }
}

package dev.enginestates.samples.paths;

import dev.enginestates.Machine;
import dev.enginestates.StatesDef;
import dev.enginestates.declare.Event;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.StateMachineDefinition;
import dev.enginestates.samples.BuilderBrainSample;
import dev.enginestates.samples.BuilderComboSample;
import dev.enginestates.samples.BuilderDoorSample;
import dev.enginestates.samples.BuilderMatchSample;
import dev.enginestates.samples.DoorSample;
import dev.enginestates.samples.EnemyBrainSample;
import dev.enginestates.samples.GameModeSample;
import dev.enginestates.samples.Guard;
import dev.enginestates.samples.NpcRoutineSample;
import dev.enginestates.samples.PolledDoorSample;
import dev.enginestates.samples.PolledGameModeSample;
import dev.enginestates.samples.PolledWeaponSample;
import dev.enginestates.samples.RiderSample;
import dev.enginestates.samples.Siege;
import dev.enginestates.samples.StreamingSample;
import dev.enginestates.samples.WeaponSample;
import dev.enginestates.samples.docs.AskBeforeSending;
import dev.enginestates.samples.docs.Cheatsheet;
import dev.enginestates.samples.docs.ChildMachines;
import dev.enginestates.samples.docs.DevtoolsTimeTravel;
import dev.enginestates.samples.docs.RandomGuard;
import dev.enginestates.samples.docs.Restart;
import dev.enginestates.samples.docs.Versions;
import dev.enginestates.samples.readme.BuilderTour;
import dev.enginestates.samples.readme.DiagramTour;
import dev.enginestates.samples.readme.ListenTour;
import dev.enginestates.samples.readme.PolledTour;
import dev.enginestates.samples.readme.QueueTour;
import dev.enginestates.samples.readme.SelfTour;
import dev.enginestates.samples.readme.StreamTour;
import dev.enginestates.samples.readme.Tour;
import dev.enginestates.samples.readme.TypedTour;
import dev.enginestates.testing.MachinePath;
import dev.enginestates.testing.MachinePaths;
import dev.enginestates.testing.Unreached;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every machine the samples declare, searched for paths of events, waits and the context changes
 * a game makes: each state and transition is reached, or is in {@code unreached()} for the reason
 * asserted (what the machine reads that the search cannot give it), and at least one path of
 * each machine with a timer is reached only by waiting.
 */
class SampleMachinesPathsTest {

    // ------------------------------------------------------------------ the samples

    @Test
    void everyStateAndTransitionOfTheGuardIsReachedWithTheBellAndItsWaits() {
        MachinePaths<Guard> paths = MachinePaths.of(Guard.MACHINE);
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toTransitions(), "PATROL.REST \u2013wait 10 s\u2192 PATROL.WATCH",
                path("PATROL.WATCH", "(4 s)", "PATROL.REST", "(10 s)", "PATROL.WATCH"));
    }

    @Test
    void everyStateAndTransitionOfTheGuardReadFromJsonForHotReloadIsReached() throws IOException {
        Path inModule = Path.of("guard.json");
        String json = Files.readString(Files.exists(inModule) ? inModule : Path.of("samples", "guard.json"));
        MachinePaths<Guard> paths = MachinePaths.of(Guard.fromJson().parse(json));
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toStates(), "PATROL.REST", path("PATROL.WATCH", "(4 s)", "PATROL.REST"));
    }

    @Test
    void everyStateAndTransitionOfTheSiegeIsReachedWithItsEventsAndTheBreather() {
        MachinePaths<Siege> paths = MachinePaths.of(Siege.MACHINE);
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toTransitions(), "breather \u2013wait 12 s\u2192 fight",
                path("waiting", "START", "fight", "WAVE_HELD", "breather", "(12 s)", "fight"));
    }

    @Test
    void everyStateAndTransitionOfTheDoorIsReachedWithSomeoneSteppingIntoTheDoorway() {
        // the doorway is a Blocked component on the door's entity, which a change given the entity adds
        MachinePaths<DoorSample.Door> paths = MachinePaths.of(DoorSample.DOOR)
                .given("someone steps into the doorway", (door, ctx) -> door.add(new DoorSample.Blocked()))
                .given("the doorway clears", (door, ctx) -> door.removeType(DoorSample.Blocked.class));
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toTransitions(), "open \u2013wait 3 s\u2192 closing",
                path("closed", "OPEN", "opening", "(0.75 s)", "open", "(3 s)", "closing"));
        assertEquals(path("closed", "OPEN", "opening", "CLOSE", "closing", "[someone steps into the doorway]", "opening"),
                paths.toTransitions().get("closing \u2013when test\u2192 opening").name());
    }

    @Test
    void everyStateAndTransitionOfTheWeaponIsReachedWithAnEmptyMagazineAndOneRoundLeft() {
        // the replay sample's log records this same machine (ReplaySample.SAVES), so these paths are its paths too
        MachinePaths<WeaponSample.Weapon> paths = MachinePaths.of(WeaponSample.WEAPON)
                .given("the magazine is empty", w -> w.ammo = 0)
                .given("one round is left", w -> w.ammo = 1);
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toTransitions(), "cooldown \u2013wait (computed)\u2192 ready",
                path("ready", "FIRE", "cooldown", "(0.25 s)", "ready"));
    }

    @Test
    void everyStateAndTransitionOfTheGameModeIsReachedWithPlayersInAndALeadToWin() {
        MachinePaths<GameModeSample.Match> paths = MachinePaths.of(GameModeSample.MODE)
                .given("two players are in", c -> c.players = 2)
                .given("red leads 2-0", c -> c.red = 2)
                .event(Event.of("SCORE").with("team", "red"));
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toStates(), "round.timeUp",
                path("warmup", "[two players are in]", "round.countdown", "(2.983 s)", "round.playing", "(60 s)", "over"));
    }

    @Test
    void everyStateAndTransitionOfTheBakersRoutineIsReachedByWaiting() {
        MachinePaths<NpcRoutineSample.Baker> paths = MachinePaths.of(NpcRoutineSample.ROUTINE);
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toTransitions(), "sell \u2013wait 8 s\u2192 knead",
                path("knead", "(4 s)", "bake", "(6 s)", "sell", "(8 s)", "knead"));
    }

    @Test
    void everyStateAndTransitionOfTheBakersHungerIsReachedByWaitingAndEating() {
        MachinePaths<NpcRoutineSample.Baker> paths = MachinePaths.of(NpcRoutineSample.HUNGER);
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toStates(), "hungry", path("fed", "(10 s)", "hungry"));
    }

    @Test
    void everyStateAndTransitionOfTheRiderIsReachedOnItsTrackMoverSlowingAndSpeedingUp() {
        // the rider's rules read its TrackMover component: each run's entity is spawned with one, and the physics is given as changes
        MachinePaths<RiderSample.Rider> paths = MachinePaths.of(RiderSample.RIDER)
                .spawnedWith(() -> new RiderSample.TrackMover(5, 0))
                .given("the rider slows on the hill", (rider, ctx) -> rider.get(RiderSample.TrackMover.class).speed = 1)
                .given("the rider speeds up", (rider, ctx) -> rider.get(RiderSample.TrackMover.class).speed = 5);
        assertEquals(List.of(), paths.unreached());
        // a wait that a when rule enters counts that step's seconds
        assertWaited(paths.toTransitions(), "stalling \u2013wait 1.5 s\u2192 stalled",
                path("sliding", "[the rider slows on the hill]", "stalling", "(1.483 s)", "stalled"));
    }

    @Test
    void everyStateAndTransitionOfTheStreamedTalkIsReachedWithAGreeting() {
        MachinePaths<StreamingSample.Talk> paths = MachinePaths.of(StreamingSample.TALK);
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toTransitions(), "talking \u2013wait 2 s\u2192 idle", path("idle", "GREET", "talking", "(2 s)", "idle"));
    }

    // ------------------------------------------------------------------ the polled samples

    @Test
    void everyStateAndTransitionOfThePolledDoorIsReachedWithSomethingInTheDoorway() {
        MachinePaths<PolledDoorSample.Door> paths = MachinePaths.of(PolledDoorSample.DOOR)
                .given("someone stands in the doorway", d -> d.blocked = true)
                .given("the doorway clears", d -> d.blocked = false);
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toTransitions(), "open \u2013after 3 s\u2192 closing",
                path("closed", "use", "opening", "(0.75 s)", "open", "(3 s)", "closing"));
    }

    @Test
    void everyStateAndTransitionOfThePolledGameModeIsReachedWithPlayersGoalsAndTheWarmup() {
        MachinePaths<PolledGameModeSample.Match> paths = MachinePaths.of(PolledGameModeSample.MODE)
                .given("two players are in", m -> m.players = 2)
                .given("red scores a third goal", m -> m.red = 3)
                .given("everyone leaves", m -> m.players = 0);
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toStates(), "round", path("warmup", "[two players are in]", "warmup", "(9.983 s)", "round.countdown"));
    }

    @Test
    void everyStateAndTransitionOfThePolledWeaponIsReachedWithTheTriggerAndAnEmptyMagazine() {
        MachinePaths<PolledWeaponSample.Gun> paths = MachinePaths.of(PolledWeaponSample.WEAPON)
                .context(() -> new PolledWeaponSample.Gun("rifle", 0.25, 1.5, 6))
                .given("the trigger is held", g -> g.trigger = true)
                .given("the trigger is released", g -> g.trigger = false)
                .given("the magazine is empty", g -> g.ammo = 0)
                .given("one round is left", g -> g.ammo = 1);
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toTransitions(), "reload \u2013to (1)\u2192 ready", path("ready", "[the magazine is empty]", "ready", "reload",
                "reload", "(1.5 s)", "ready"));
    }

    @Test
    void everyStateAndTransitionOfTheEnemyBrainIsReachedWithATargetSeenLostAndAFatalHit() {
        MachinePaths<EnemyBrainSample.Bot> paths = MachinePaths.of(EnemyBrainSample.BRAIN)
                .given("an enemy is spotted", b -> b.target = true)
                .given("the enemy is in sight 5 m away", b -> {
                    b.visible = true;
                    b.dist = 5;
                })
                .given("the enemy hides", b -> b.visible = false)
                .given("the enemy is lost for 5 s", b -> b.lostFor = 5)
                .given("the bot is killed", b -> b.hp = 0);
        assertEquals(List.of(), paths.unreached());
        // the target is still known and long lost when the search ends: back on patrol, the bot is in search again at once
        assertWaited(paths.toTransitions(), "search \u2013after 6 s\u2192 patrol", path("patrol", "[an enemy is spotted]",
                "combat.engage", "[the enemy is lost for 5 s]", "search", "(6 s)", "search"));
    }

    @Test
    void everyStateAndTransitionOfTheReadmesPolledGuardIsReachedWithATargetSeenLostAndAFatalHit() throws Exception {
        StatesDef<PolledTour.Bot> guard = declared(PolledTour.class, "GUARD");
        MachinePaths<PolledTour.Bot> paths = MachinePaths.of(guard)
                .given("an enemy is spotted", b -> b.target = true)
                .given("the enemy is in sight 5 m away", b -> {
                    b.visible = true;
                    b.dist = 5;
                })
                .given("the enemy hides", b -> b.visible = false)
                .given("the enemy is lost for 5 s", b -> b.lostFor = 5)
                .given("the bot is killed", b -> b.hp = 0);
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toTransitions(), "search \u2013after 6 s\u2192 patrol", path("patrol", "[an enemy is spotted]",
                "combat.engage", "[the enemy is lost for 5 s]", "search", "(6 s)", "search"));
    }

    // ------------------------------------------------------------------ the builder samples

    @Test
    void everyStateAndTransitionOfTheBuilderDoorIsReachedWithRequestsAndItsSwings() {
        MachinePaths<BuilderDoorSample.DoorStateContext> paths = MachinePaths.of(BuilderDoorSample.DOOR)
                .given("someone asks the door to open", d -> {
                    d.openRequested = true;
                    d.closeRequested = false;
                })
                .given("someone asks the door to close", d -> {
                    d.openRequested = false;
                    d.closeRequested = true;
                });
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toStates(), "Open", path("Closed", "[someone asks the door to open]", "Opening", "(0.767 s)", "Open"));
    }

    @Test
    void everyStateAndTransitionOfTheComboIsReachedWithPressesAndBufferedFollowUps() {
        MachinePaths<BuilderComboSample.Fighter> paths = MachinePaths.of(BuilderComboSample.COMBO)
                .given("attack is pressed", f -> f.attackPressed = true)
                .given("a follow-up is buffered", f -> f.buffered = true);
        assertEquals(List.of(), paths.unreached());
        // a press is buffered only inside the input window, which the search never stops in: the buffer is set instead
        assertWaited(paths.toStates(), "Cross", path("Idle", "[attack is pressed]", "Jab", "[a follow-up is buffered]", "Jab",
                "(0.383 s)", "Cross"));
    }

    @Test
    void everyStateAndTransitionOfTheBuilderMatchIsReachedWithAGoalAndTheFullTimeClock() {
        MachinePaths<BuilderMatchSample.Match> paths = MachinePaths.of(BuilderMatchSample.PHASES)
                .given("the ball goes in", m -> m.goalScored = true)
                .given("the match clock reaches full time", m -> m.matchClock = BuilderMatchSample.MATCH_SECONDS);
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toStates(), "Playing", path("Countdown", "(3.017 s)", "Playing"));
    }

    @Test
    void onlyTheKickoffOfTheBotBrainIsReachedForItsRolesAreChosenFromOutside() {
        BuilderBrainSample.Pitch pitch = new BuilderBrainSample.Pitch();
        MachinePaths<BuilderBrainSample.Bot> paths = MachinePaths.of(BuilderBrainSample.BRAIN)
                .context(() -> new BuilderBrainSample.Bot("ada", true, pitch));
        // by design no handler returns a name: the game's utility selector moves the brain with transitionTo,
        // which is no input of the machine's own, so the roles are reached by no path (and nothing waits)
        assertEquals(List.of(
                new Unreached("attack", "no handler is declared to return it (transitionsTo) and no path moved there"),
                new Unreached("defend", "no handler is declared to return it (transitionsTo) and no path moved there")),
                paths.unreached());
        assertEquals(List.of("kickoff"), List.copyOf(paths.toStates().keySet()));
    }

    // ------------------------------------------------------------------ the docs' machines

    @Test
    void everyStateAndTransitionOfTheLockedDoorIsReachedWithTheBrassKeyOrTheDoorUnlocked() {
        MachinePaths<AskBeforeSending.Door> paths = MachinePaths.of(AskBeforeSending.DOOR)
                .event(Event.of("UNLOCK").with("key", "brass"))
                .given("the door is unlocked", d -> d.locked = false);
        assertEquals(List.of(), paths.unreached());
        // no state of the door waits: every path is events and changes
        assertEquals(path("shut", "[the door is unlocked]", "shut", "OPEN", "open"), paths.toStates().get("open").name());
    }

    @Test
    void everyStateAndTransitionOfTheWaveChildIsReachedWithKills() throws Exception {
        Machine<ChildMachines.Wave> wave = declared(ChildMachines.class, "WAVE");
        MachinePaths<ChildMachines.Wave> paths = MachinePaths.of(wave);
        assertEquals(List.of(), paths.unreached());
        // no state of the wave waits
        assertEquals(path("fighting", "KILL", "cleared"), paths.toStates().get("cleared").name());
    }

    @Test
    void everyStateOfTheSiegeWithAWaveChildIsReachedButTheRestTheWaveEarns() throws Exception {
        States<ChildMachines.Siege> siege = declared(ChildMachines.class, "SIEGE");
        MachinePaths<ChildMachines.Siege> paths = MachinePaths.of(siege);
        // the rest comes when the invoked wave is cleared by KILLs sent to the child, and the search sends its events to
        // the siege alone: the rest and its 5 s wait stay unreached
        assertEquals(List.of(
                new Unreached("rest", "no path takes a transition into it: fight \u2013xstate.done.actor.wave\u2192 rest"),
                new Unreached("fight \u2013xstate.done.actor.wave\u2192 rest", "'fight' was reached but no event matching"
                        + " xstate.done.actor.wave was sent: it comes when a child of the machine finishes, and the search sends no"
                        + " event to children"),
                new Unreached("rest \u2013wait 5 s\u2192 calm", "its source 'rest' is never reached")), paths.unreached());
        assertEquals(path("calm", "ATTACK", "fight", "RETREAT", "calm"), paths.toTransitions().get("fight \u2013RETREAT\u2192 calm").name());
    }

    @Test
    void everyStateAndTransitionOfTheSquadMemberIsReachedWithHitsOnItsLastHitPoint() throws Exception {
        Machine<ChildMachines.Member> member = declared(ChildMachines.class, "MEMBER");
        MachinePaths<ChildMachines.Member> paths = MachinePaths.of(member)
                .given("it is down to its last hit point", m -> m.hp = 1);
        assertEquals(List.of(), paths.unreached());
        // no state of a member waits
        assertEquals(path("alive", "[it is down to its last hit point]", "alive", "HIT", "fallen"), paths.toStates().get("fallen").name());
    }

    @Test
    void everyTransitionOfTheSquadButTheCountOfItsFallenIsReachedWithRecruitsAndOrders() throws Exception {
        States<ChildMachines.Squad> squad = declared(ChildMachines.class, "SQUAD");
        MachinePaths<ChildMachines.Squad> paths = MachinePaths.of(squad);
        // a member falls after two ORDERs, but RECRUIT and ORDER leave the squad in 'active' and the search tells states
        // apart by their active leaves, not by their children, so it never follows them: the fallen count stays unreached
        assertEquals(List.of(new Unreached("active \u2013xstate.done.actor.*\u2192 (stays)", "'active' was reached but no event"
                + " matching xstate.done.actor.* was sent: it comes when a child of the machine finishes, and the search sends no"
                + " event to children")), paths.unreached());
        // no state of the squad waits
        assertEquals(path("active", "ORDER", "active"), paths.toTransitions().get("active \u2013ORDER\u2192 (stays)").name());
    }

    @Test
    void everyStateAndTransitionOfTheTimeTravelDoorIsReachedWithOpenAndItsWait() throws Exception {
        States<DevtoolsTimeTravel.Door> door = declared(DevtoolsTimeTravel.class, "DOOR");
        MachinePaths<DevtoolsTimeTravel.Door> paths = MachinePaths.of(door);
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toTransitions(), "open \u2013wait 5 s\u2192 shut", path("shut", "OPEN", "open", "(5 s)", "shut"));
    }

    @Test
    void everyStateOfTheRandomGuardIsReachedButThePatrolItsSeedNeverDraws() {
        MachinePaths<RandomGuard.Guard> paths = MachinePaths.of(RandomGuard.GUARD);
        // the look's 30% chance is the machine's own seeded random draw, the same on every run of the search, and it
        // does not pass: no context change can make it, so the patrol is unreached by design of the sample
        assertEquals(List.of(
                new Unreached("patrol", "no path takes a transition into it: look \u2013always [guard]\u2192 patrol"),
                new Unreached("look \u2013always [guard]\u2192 patrol", "'look' was reached but its guard 'guard' never held, or another"
                        + " move came first, within 60 s; give a context change (given(name, change)) that makes it hold"),
                new Unreached("patrol \u2013wait 8 s\u2192 watch", "its source 'patrol' is never reached")), paths.unreached());
        // the look is passed through at once (always), so the wait ends back in watch
        assertWaited(paths.toTransitions(), "watch \u2013wait (computed)\u2192 look", path("watch", "(3.083 s)", "watch"));
    }

    @Test
    void everyStateAndTransitionOfTheRestartGuardIsReachedWithTheBellAndItsWaits() throws Exception {
        States<Restart.Guard> guard = declared(Restart.class, "GUARD");
        MachinePaths<Restart.Guard> paths = MachinePaths.of(guard);
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toStates(), "patrol.rest", path("patrol.watch", "(4 s)", "patrol.rest"));
    }

    @Test
    void everyStateAndTransitionOfTheFirstVersionOfTheGuardIsReachedWithTheAlarmAndItsWaits() throws Exception {
        States<Versions.Guard> guard = declared(Versions.class, "GUARD_V1");
        MachinePaths<Versions.Guard> paths = MachinePaths.of(guard);
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toTransitions(), "alarm \u2013wait 6 s\u2192 patrol", path("patrol.watch", "ALARM", "alarm", "(6 s)", "patrol.watch"));
    }

    @Test
    void everyStateAndTransitionOfTheSecondVersionOfTheGuardIsReachedWithNoisesAndItsNap() throws Exception {
        States<Versions.Guard2> guard = declared(Versions.class, "GUARD_V2");
        MachinePaths<Versions.Guard2> paths = MachinePaths.of(guard);
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toStates(), "patrol.nap", path("patrol.watch.look", "(4 s)", "patrol.nap"));
    }

    @Test
    void everyStateAndTransitionOfTheCheatsheetsSentryIsReachedWithAnIntruder() throws Exception {
        Machine<Cheatsheet.Sentry> sentry = declared(Cheatsheet.class, "SENTRY");
        // the intruder is still there when the alert ends, so the sentry is on alert again within the step; its when
        // rule entered the alert during the change's step, whose time the alert's wait counts
        assertSentry(MachinePaths.of(sentry), "alert \u2013wait 5 s\u2192 watch", "(4.983 s)", "alert");
    }

    @Test
    void everyStateAndTransitionOfTheCheatsheetsPolledSentryIsReachedWithAnIntruder() throws Exception {
        StatesDef<Cheatsheet.Sentry> sentry = declared(Cheatsheet.class, "SENTRY_TABLE");
        // the table's rules chain within the step: back in watch, the intruder puts it on alert again at once
        assertSentry(MachinePaths.of(sentry), "alert \u2013after 5 s\u2192 watch", "(5 s)", "alert");
    }

    @Test
    void everyStateAndTransitionOfTheCheatsheetsBuilderSentryIsReachedWithAnIntruder() throws Exception {
        StateMachineDefinition<Cheatsheet.Sentry> sentry = declared(Cheatsheet.class, "SENTRY_FSM");
        assertSentry(MachinePaths.of(sentry), "alert \u2013handler\u2192 watch", "(5 s)", "watch");
    }

    /** One sentry of the cheatsheet, whichever its style: every state and transition, and the wait back to watch. */
    private static void assertSentry(MachinePaths<Cheatsheet.Sentry> paths, String back, String wait, String after) {
        paths.given("an intruder shows up", s -> s.intruder = true).given("the intruder is gone", s -> s.intruder = false);
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toTransitions(), back, path("watch", "[an intruder shows up]", "alert", wait, after));
    }

    // ------------------------------------------------------------------ the README's machines

    @Test
    void everyStateAndTransitionOfTheReadmesSiegeIsReachedWithItsEventsAndTheBreather() {
        MachinePaths<Tour.Siege> paths = MachinePaths.of(Tour.SIEGE_MACHINE);
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toTransitions(), "breather \u2013wait 12 s\u2192 fight",
                path("waiting", "START", "fight", "WAVE_HELD", "breather", "(12 s)", "fight"));
    }

    @Test
    void everyStateAndTransitionOfTheReadmesGuardIsReachedWithTheBellAndItsWaits() throws Exception {
        States<Tour.Guard> guard = declared(Tour.class, "GUARD");
        MachinePaths<Tour.Guard> paths = MachinePaths.of(guard);
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toStates(), "patrol.rest", path("patrol.watch", "(4 s)", "patrol.rest"));
    }

    @Test
    void everyStateAndTransitionOfTheDiagramsGuardIsReachedWithTheBellAndItsWaits() {
        MachinePaths<DiagramTour.Guard> paths = MachinePaths.of(DiagramTour.GUARD);
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toStates(), "patrol.rest", path("patrol.watch", "(4 s)", "patrol.rest"));
    }

    @Test
    void everyStateAndTransitionOfTheListenersSiegeIsReachedWithItsEventsAndTheBreather() {
        MachinePaths<ListenTour.Siege> paths = MachinePaths.of(ListenTour.SIEGE);
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toTransitions(), "breather \u2013wait 12 s\u2192 fight",
                path("fight", "WAVE_HELD", "breather", "(12 s)", "fight"));
    }

    @Test
    void everyStateAndTransitionOfTheTurretIsReachedWithASightingAndItsDelayedShot() {
        MachinePaths<QueueTour.Turret> paths = MachinePaths.of(QueueTour.TURRET).event(Event.of("sensor.sight"));
        assertEquals(List.of(), paths.unreached());
        // the FIRE the turret sends itself 0.5 s after aiming is an event it names, so the shortest path sends it at once;
        // firing raises RELOADED, back to aiming in the same step
        assertEquals(path("power.on + gun.idle", "sensor.sight", "power.on + gun.aiming", "FIRE", "power.on + gun.aiming"),
                paths.toStates().get("gun.firing").name());
    }

    @Test
    void everyStateAndTransitionOfTheTreeIsReachedWithItsWoodAndTheRain() {
        // the tree reads its Wood and Wet components: each run's tree has 200 kg of wood, and the rain is a change to its entity
        MachinePaths<SelfTour.Tree> paths = MachinePaths.of(SelfTour.TREE)
                .spawnedWith(() -> new SelfTour.Wood(200))
                .given("it rains", (tree, ctx) -> tree.add(new SelfTour.Wet()));
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toTransitions(), "burning \u2013wait (computed)\u2192 ash", path("standing", "IGNITE", "burning", "(2 s)", "ash"));
    }

    @Test
    void everyStateAndTransitionOfTheReadmesTalkIsReachedWithAGreeting() throws Exception {
        States<StreamTour.Talk> talk = declared(StreamTour.class, "TALK");
        MachinePaths<StreamTour.Talk> paths = MachinePaths.of(talk);
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toTransitions(), "talking \u2013wait 3 s\u2192 idle", path("idle", "GREET", "talking", "(3 s)", "idle"));
    }

    @Test
    void everyStateAndTransitionOfTheTypedGuardIsReachedWithTheBellAndItsWaits() throws Exception {
        States<TypedTour.Guard> guard = declared(TypedTour.class, "GUARD");
        MachinePaths<TypedTour.Guard> paths = MachinePaths.of(guard);
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toStates(), "PATROL.REST", path("PATROL.WATCH", "(4 s)", "PATROL.REST"));
    }

    @Test
    void everyStateAndTransitionOfTheReadmesBuilderDoorIsReachedWithRequestsAndItsSwings() throws Exception {
        StateMachineDefinition<BuilderTour.DoorStateContext> door = declared(BuilderTour.class, "DOOR");
        MachinePaths<BuilderTour.DoorStateContext> paths = MachinePaths.of(door)
                .context(BuilderTour.DoorStateContext::new)   // the README's door is built without a factory
                .given("someone asks the door to open", d -> {
                    d.openRequested = true;
                    d.closeRequested = false;
                })
                .given("someone asks the door to close", d -> {
                    d.openRequested = false;
                    d.closeRequested = true;
                });
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toStates(), "Open", path("Closed", "[someone asks the door to open]", "Opening", "(0.767 s)", "Open"));
    }

    @Test
    void everyStateAndTransitionOfTheReadmesComboIsReachedWithTheAttackHeldAndReleased() throws Exception {
        StateMachineDefinition<BuilderTour.Fighter> combo = declared(BuilderTour.class, "COMBO");
        MachinePaths<BuilderTour.Fighter> paths = MachinePaths.of(combo)
                .given("attack is held", f -> f.attack = true)
                .given("attack is released", f -> f.attack = false);
        assertEquals(List.of(), paths.unreached());
        assertWaited(paths.toTransitions(), "Attack \u2013handler\u2192 Idle", path("Idle", "[attack is held]", "Attack", "(0.55 s)", "Idle"));
    }

    // ------------------------------------------------------------------ helpers

    /** A path's name from its start and its inputs, each followed by the leaves it leaves the machine in. */
    private static String path(String start, String... inputsAndLeaves) {
        StringBuilder sb = new StringBuilder(start);
        for (int i = 0; i + 1 < inputsAndLeaves.length; i += 2) {
            sb.append(" \u2013").append(inputsAndLeaves[i]).append("\u2192 ").append(inputsAndLeaves[i + 1]);
        }
        return sb.toString();
    }

    /** Asserts the path found for {@code key} and that it waits: one of its inputs is a wait of seconds. */
    private static void assertWaited(Map<String, MachinePath> found, String key, String expected) {
        MachinePath p = found.get(key);
        assertNotNull(p, key + " has a path; found " + found.keySet());
        assertEquals(expected, p.name(), key);
        assertTrue(p.name().matches(".*\u2013\\(\\d+(\\.\\d+)? s\\)\u2192.*"), "a path that waits: " + p.name());
    }

    /** A machine the docs declare package-private, as their pages show it. */
    @SuppressWarnings("unchecked")
    private static <T> T declared(Class<?> owner, String field) throws ReflectiveOperationException {
        Field f = owner.getDeclaredField(field);
        f.setAccessible(true);
        return (T) f.get(null);
    }
}

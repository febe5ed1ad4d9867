package dev.enginestates.ecs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.Fixtures;
import dev.enginestates.declare.MachineException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Setting a record's state by hand (003 document, "Its states as tags"): "To put a machine in
 * a state by hand, set its record's state, as entity.set(Guard.trait, { state: "answer" }) [...];
 * its tags move at the start of the next step, before any system reads them".
 */
class HandSetStateTest {
    static final class Patrol {
        public int entries;
        public int exits;
    }

    static final class Seen {
        int seenAt = -1;
    }

    static final class Armed {
    }

    static final States<Patrol> GUARD = States.define("guard", Patrol::new, Fixtures.<Patrol>guard()
            .patrol(p -> p.entry((c, e) -> c.entries++).exit((c, e) -> c.exits++))
            .watch(s -> s.entry((c, e) -> c.entries++).exit((c, e) -> c.exits++))
            .answer(s -> s.entry((c, e) -> c.entries++)));

    // Declared after the guard, so the step runs it after the guard; its when rule reads the
    // guard's tag on the same entity, as a system would.
    static final States<Seen> OBSERVER = States.define("observer", Seen::new, m -> m
            .initial("looking")
            .state("looking", s -> s.when((c, h) -> h.has(GUARD.is("answer")), "seen"))
            .state("seen"));

    static final class TrackMover {
        double speed;

        TrackMover(double speed) {
            this.speed = speed;
        }
    }

    static final class Talking {
    }

    // The 003 document's rider: when rules reading a component of the entity.
    static final States<Armed> RIDER = States.define("rider", Armed::new, m -> m
            .initial("sliding")
            .state("sliding", s -> s.when((c, h) -> h.get(TrackMover.class).speed < 2, "stalling"))
            .state("stalling", s -> s.when((c, h) -> h.get(TrackMover.class).speed >= 2, "sliding").waitFor(1.5, "stalled"))
            .state("stalled"));

    static final States<Armed> ROUTINE = States.define("routine", Armed::new, m -> m
            .heldBy(Talking.class)
            .initial("idle")
            .state("idle", s -> s.waitFor(5, "stroll"))
            .state("stroll", s -> s.waitFor(5, "idle")));

    static final States<Armed> ARMED = States.define("armed", Armed::new, Fixtures.armed());

    @Test
    void handSetStateMovesTheRecordAtOnceAndItsTagsAtTheStartOfTheNextStep() {
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            StateRecord<Patrol> r = GUARD.read(g);
            assertSame(r, r.setState("answer"));
            // the record moved now
            assertEquals("answer", r.value());
            assertTrue(r.matches("answer"));
            assertFalse(r.matches("patrol"));
            // the tags have not moved yet
            assertTrue(g.has(GUARD.is("patrol")));
            assertTrue(g.has(GUARD.is("patrol.watch")));
            assertFalse(g.has(GUARD.is("answer")));

            world.step(1.0 / 60);

            assertTrue(g.has(GUARD.is("answer")));
            assertFalse(g.has(GUARD.is("patrol")));
            assertFalse(g.has(GUARD.is("patrol.watch")));
            assertEquals(List.of(g), world.query(GUARD.is("answer")).list());
        }
    }

    @Test
    void tagsOfAHandSetStateMoveBeforeAnySystemReadsThemInTheStep() {
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait(), OBSERVER.trait());
            world.step(1.0 / 60);
            assertTrue(OBSERVER.read(g).matches("looking"));
            GUARD.read(g).setState("answer");
            world.step(1.0 / 60);
            assertTrue(OBSERVER.read(g).matches("seen"), "the observer's when rule saw the answer tag in the first step after the set");
        }
    }

    @Test
    void setStateTwiceBeforeAStepLeavesTheTagsOfTheLastOne() {
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            GUARD.read(g).setState("answer");
            GUARD.read(g).setState("patrol.rest");
            world.step(1.0 / 60);
            assertTrue(g.has(GUARD.is("patrol")));
            assertTrue(g.has(GUARD.is("patrol.rest")));
            assertFalse(g.has(GUARD.is("patrol.watch")));
            assertFalse(g.has(GUARD.is("answer")));
        }
    }

    @Test
    void aSendAfterAHandSetMovesTheTagsWithIt() {
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            GUARD.read(g).setState("answer");
            assertTrue(GUARD.send(g, "RESTART"), "the record is in answer, so RESTART is taken");
            assertTrue(g.has(GUARD.is("patrol.watch")));
            assertFalse(g.has(GUARD.is("answer")));
            world.step(1.0 / 60);
            assertTrue(g.has(GUARD.is("patrol.watch")));
            assertTrue(g.has(GUARD.is("patrol")));
            assertFalse(g.has(GUARD.is("answer")));
        }
    }

    @Test
    void setStateRunsNoActions() {
        // StateRecord.setState: "No actions run".
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            Patrol c = GUARD.read(g).context();
            GUARD.read(g).setState("answer");
            GUARD.read(g).setState("patrol.watch");
            world.step(1.0 / 60);
            assertEquals(0, c.entries);
            assertEquals(0, c.exits);
        }
    }

    @Test
    void aStateThatDoesNotExistIsRefusedNamingMachinePathAndValidPaths() {
        // "a state name that does not exist is refused" (DESIGN); "a tool that names a tag
        // rather than the state is refused" (003).
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            world.step(1.0);
            StateRecord<Patrol> r = GUARD.read(g);
            for (String bad : List.of("patrol.sleep", "guard.answer", "Answer", "")) {
                MachineException e = assertThrows(MachineException.class, () -> r.setState(bad), bad);
                assertEquals("guard", e.machineId());
                String msg = e.getMessage();
                assertTrue(msg.contains("guard"), msg);
                assertTrue(msg.contains("'" + bad + "'"), msg);
                for (String valid : List.of("patrol", "patrol.watch", "patrol.rest", "answer")) {
                    assertTrue(msg.contains(valid), "message lists " + valid + ": " + msg);
                }
            }
            assertThrows(MachineException.class, () -> r.setState("answer", "patrol.nap"));
            // nothing changed
            assertEquals(Map.of("patrol", "watch"), r.value());
            assertEquals(3.0, r.secondsLeft(), 1e-9);
            world.step(1.0);
            assertTrue(g.has(GUARD.is("patrol.watch")));
            assertFalse(g.has(GUARD.is("answer")));
            assertEquals(2.0, r.secondsLeft(), 1e-9, "the wait ran on as if nothing had been tried");
        }
    }

    @Test
    void waitedSecondsHistoryAndPausedSecondsAreSetByHand_soATestStartsAnywhere() {
        // The 003 guard "three seconds into his watch", arranged without walking there.
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            StateRecord<Patrol> r = GUARD.read(g);
            r.setState("patrol.watch").setWaited(3.0);
            assertEquals(1.0, r.secondsLeft(), 0.0);
            world.step(0.5);
            assertEquals(0.5, r.secondsLeft(), 1e-12);
            // a guard answering the bell who had rested 2.5 s when it rang
            r.setState("answer").setHistory("patrol.resumed", "patrol.rest").setPaused("patrol.rest", 2.5);
            assertTrue(GUARD.send(g, "RESUME"));
            assertTrue(r.matches("patrol.rest"));
            assertEquals(7.5, r.secondsLeft(), 1e-12);
            assertThrows(MachineException.class, () -> r.setHistory("patrol.rest", "patrol.watch"));
            assertThrows(MachineException.class, () -> r.setHistory("patrol.resumed", "answer"));
            assertThrows(MachineException.class, () -> r.setWaited(-1));
            assertThrows(MachineException.class, () -> r.setPaused("answer", 1));
            r.setState("answer");
            assertThrows(MachineException.class, () -> r.setWaited(1), "no wait counts in answer");
        }
    }

    /**
     * A history set by hand is one the record's next checkpoint restores: what a restore refuses
     * (a deep history remembering two leaves of one compound state, a state given twice) is refused
     * here too, naming the machine, the entity and the history, and the history keeps what it had.
     * Before, both were written, and the world's next checkpoint was refused by its own restore
     * (a state given thousands of times overflowed the history's array instead).
     */
    @Test
    void aHistorySetByHandIsOneACheckpointRestores() {
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(EntityKey.of("g"), GUARD.trait());
            StateRecord<Patrol> r = GUARD.read(g);
            r.setState("answer").setHistory("patrol.resumed", "patrol.rest");

            MachineException two = assertThrows(MachineException.class,
                    () -> r.setHistory("patrol.resumed", "patrol.watch", "patrol.rest"));
            assertTrue(two.getMessage().contains("entity 'g'") && two.getMessage().contains("history 'patrol.resumed'")
                    && two.getMessage().contains("nothing was changed"), two.getMessage());
            String[] many = new String[10_000];
            java.util.Arrays.fill(many, "patrol.rest");
            MachineException twice = assertThrows(MachineException.class, () -> r.setHistory("patrol.resumed", many));
            assertTrue(twice.getMessage().contains("'patrol.rest' twice"), twice.getMessage());

            dev.enginestates.io.Saves saves = dev.enginestates.io.Saves.of(GUARD);
            saves.restore(world, saves.checkpoint(world)); // the world's own checkpoint restores
            assertTrue(GUARD.send(g, "RESUME"), "the history kept what it had");
            assertTrue(r.matches("patrol.rest"));
        }
    }

    @Test
    void aHistoryStateIsRefusedLikeATagThatIsNotAState() {
        // 003: "a tool that names a tag rather than the state is refused"; a history node is never active.
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            StateRecord<Patrol> r = GUARD.read(g);
            MachineException e = assertThrows(MachineException.class, () -> r.setState("patrol.resumed"));
            assertTrue(e.getMessage().contains("'patrol.resumed' is a history state"), e.getMessage());
            assertEquals(Map.of("patrol", "watch"), r.value());
        }
    }

    @Test
    void aStateThatDoesNotExistIsRefusedBeforeSpawnToo() {
        StateRecord<Patrol> r = GUARD.trait();
        MachineException e = assertThrows(MachineException.class, () -> r.setState("patrol.sleep"));
        assertTrue(e.getMessage().contains("patrol.sleep"), e.getMessage());
        assertEquals(Map.of("patrol", "watch"), r.value());
    }

    @Test
    void twoStatesThatCannotBeActiveTogetherAreRefusedAndNothingChanges() {
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            StateRecord<Patrol> r = GUARD.read(g);
            MachineException e = assertThrows(MachineException.class, () -> r.setState("patrol.watch", "answer"));
            assertEquals("guard", e.machineId());
            assertTrue(e.getMessage().contains("patrol.watch") && e.getMessage().contains("answer"), e.getMessage());
            assertThrows(MachineException.class, () -> r.setState("patrol.watch", "patrol.rest"), "siblings of a compound state");
            assertEquals(Map.of("patrol", "watch"), r.value());
            assertEquals(4.0, r.secondsLeft(), 1e-12);
            world.step(1.0 / 60);
            assertTrue(g.has(GUARD.is("patrol.watch")));
            assertFalse(g.has(GUARD.is("answer")));
            assertFalse(g.has(GUARD.is("patrol.rest")));

            Entity a = world.spawn(ARMED.trait());
            assertThrows(MachineException.class, () -> ARMED.read(a).setState("armed.weapon.ready", "armed.weapon.cooldown"));
            assertThrows(MachineException.class, () -> ARMED.read(a).setState("armed.move.run", "down"));
            assertEquals(Map.of("armed", Map.of("weapon", "ready", "move", "walk")), ARMED.read(a).value());
        }
    }

    @Test
    void statesInDifferentRegionsOfAParallelStateAreSetTogether() {
        try (StateWorld world = StateWorld.create()) {
            Entity a = world.spawn(ARMED.trait());
            ARMED.read(a).setState("armed.weapon.cooldown", "armed.move.run");
            assertEquals(Map.of("armed", Map.of("weapon", "cooldown", "move", "run")), ARMED.read(a).value());
            assertTrue(a.has(ARMED.is("armed.weapon.ready")), "tags wait for the step");
            world.step(1.0 / 60);
            assertTrue(a.has(ARMED.is("armed.weapon.cooldown")));
            assertTrue(a.has(ARMED.is("armed.move.run")));
            assertFalse(a.has(ARMED.is("armed.weapon.ready")));
            assertFalse(a.has(ARMED.is("armed.move.walk")));

            ARMED.read(a).setState("armed.move.walk");
            assertEquals(Map.of("armed", Map.of("weapon", "ready", "move", "walk")), ARMED.read(a).value(),
                    "a region not named enters its initial state");
        }
    }

    @Test
    void settingAWaitingStateStartsItsWaitFromZero() {
        try (StateWorld world = StateWorld.create()) {
            Entity g = world.spawn(GUARD.trait());
            for (int i = 0; i < 180; i++) {
                world.step(1.0 / 60);
            }
            assertEquals(1.0, GUARD.read(g).secondsLeft(), 1e-9);
            GUARD.read(g).setState("patrol.watch");
            assertEquals(4.0, GUARD.read(g).secondsLeft(), 1e-9, "a hand-set watch waits its 4 seconds over");
            assertEquals(0.0, GUARD.read(g).waited(), 1e-9);
            for (int i = 0; i < 239; i++) {
                world.step(1.0 / 60);
            }
            assertTrue(GUARD.read(g).matches("patrol.watch"), GUARD.read(g).toString());
            world.step(1.0 / 60);
            assertTrue(GUARD.read(g).matches("patrol.rest"), GUARD.read(g).toString());

            GUARD.read(g).setState("patrol.rest");
            assertEquals(10.0, GUARD.read(g).secondsLeft(), 1e-9);
            GUARD.read(g).setState("answer");
            assertEquals(0.0, GUARD.read(g).secondsLeft());
            world.step(20);
            assertTrue(GUARD.read(g).matches("answer"), "a hand-set state with no wait stays");
        }
    }

    @Test
    void handSetStateOfAWorldLevelMachineMovesItsTagsAtTheNextStep() {
        try (StateWorld world = StateWorld.create()) {
            world.add(GUARD);
            GUARD.read(world).setState("answer");
            assertTrue(GUARD.read(world).matches("answer"));
            assertFalse(world.entity().has(GUARD.is("answer")));
            world.step(1.0 / 60);
            assertTrue(world.entity().has(GUARD.is("answer")));
            assertFalse(world.entity().has(GUARD.is("patrol")));
        }
    }

    @Test
    void aHandSetStatesWhenRulesAreTestedFromTheNextStep() {
        try (StateWorld world = StateWorld.create()) {
            TrackMover mover = new TrackMover(5);
            Entity rider = world.spawn(mover, RIDER.trait());
            RIDER.read(rider).setState("stalling");
            world.step(1.0 / 60);
            assertTrue(RIDER.read(rider).matches("sliding"), "the fast rider's when rule took it back: " + RIDER.read(rider));
            assertTrue(rider.has(RIDER.is("sliding")));
            assertFalse(rider.has(RIDER.is("stalling")));

            mover.speed = 1;
            world.step(1.0 / 60);
            assertTrue(RIDER.read(rider).matches("stalling"));
            RIDER.read(rider).setState("stalled");
            for (int i = 0; i < 120; i++) {
                world.step(1.0 / 60);
            }
            assertTrue(RIDER.read(rider).matches("stalled"), "stalled has no when rule; the stalling one no longer runs");
            assertTrue(rider.has(RIDER.is("stalled")));
        }
    }

    @Test
    void aWaitHandSetOnAHeldMachineCountsNothingUntilReleased() {
        // 003: "a talking NPC holds its routine"; a held machine's wait counts no seconds.
        try (StateWorld world = StateWorld.create()) {
            Entity npc = world.spawn(ROUTINE.trait(), new Talking());
            world.step(1.0);
            ROUTINE.read(npc).setState("stroll");
            for (int i = 0; i < 10; i++) {
                world.step(1.0);
            }
            assertTrue(ROUTINE.read(npc).matches("stroll"));
            assertEquals(5.0, ROUTINE.read(npc).secondsLeft(), 1e-9);
            npc.removeType(Talking.class);
            world.step(1.0);
            assertEquals(4.0, ROUTINE.read(npc).secondsLeft(), 1e-9);
            for (int i = 0; i < 4; i++) {
                world.step(1.0);
            }
            assertTrue(ROUTINE.read(npc).matches("idle"), ROUTINE.read(npc).toString());
        }
    }

    // ------------------------------------------------------------------ from the machine's own code

    public static final class Bot {
        public boolean flag;
        public final java.util.List<String> log = new java.util.ArrayList<>();
    }

    public static final class Cart extends dev.enginestates.fsm.AIContext {
        public boolean flag;
        public final java.util.List<String> log = new java.util.ArrayList<>();
    }

    static Entity self;

    static final States<Bot> POLLED_SELF_SETTER = States.of(dev.enginestates.StatesDef.<Bot>define("hand-set-polled-self", Bot::new, d -> d
            .initial("deep")
            .state("deep", s -> s
                    .update((b, dt, t) -> {
                        if (b.flag) {
                            b.flag = false;
                            polledSelfSetter().read(self).setState("flat");
                        }
                        return null;
                    })
                    .state("x", x -> x.state("y", y -> y.update((b, dt, t) -> {
                        b.log.add("y");
                        return "z";
                    })).state("z")))
            .state("flat")));

    static States<Bot> polledSelfSetter() {
        return POLLED_SELF_SETTER;
    }

    static final States<Cart> BUILDER_SELF_SETTER = States.of(new dev.enginestates.fsm.StateMachineBuilder<Cart>("hand-set-builder-self", Cart::new)
            .configureState("A").asInitial().handler((c, dt) -> {
                if (c.flag) {
                    c.flag = false;
                    builderSelfSetter().read(c.entity()).setState("Parked");
                    return "B";
                }
                return null;
            }).exit(c -> c.log.add("exit A"))
            .configureState("Parked").handler((c, dt) -> null).exit(c -> c.log.add("exit Parked"))
            .configureState("B").handler((c, dt) -> null)
            .build());

    static States<Cart> builderSelfSetter() {
        return BUILDER_SELF_SETTER;
    }

    /**
     * README, polled tables: "A machine's code that moves its own machine [...] is refused; return a
     * name instead". Found by an attack: a setState from a machine's own update or handler was taken
     * while its pass went on over the old branch (the polled machine ended in a state of neither; the
     * builder ran the exit of a state never entered).
     */
    @Test
    void setStateFromAMachinesOwnCodeIsRefusedAsItsFailureAndThePassGoesOnUnchanged() {
        try (StateWorld world = StateWorld.create()) {
            java.util.List<MachineFailure> failures = new java.util.ArrayList<>();
            world.onFailure(failures::add);
            Bot bot = new Bot();
            self = world.spawn(EntityKey.of("bot"), POLLED_SELF_SETTER.trait(bot));
            Cart cart = new Cart();
            world.spawn(EntityKey.of("cart"), BUILDER_SELF_SETTER.trait(cart));
            bot.flag = true;
            cart.flag = true;
            world.step(0.1);
            assertEquals(2, failures.size(), failures.toString());
            for (MachineFailure f : failures) {
                Throwable why = f.cause().getCause();
                assertTrue(why instanceof IllegalStateException && why.getMessage().contains("running its own code"), String.valueOf(why));
            }
            assertEquals("deep.x.y", POLLED_SELF_SETTER.read(self).state(), "the update failed: the pass ended there");
            assertEquals(java.util.List.of(), bot.log);
            assertEquals("A", BUILDER_SELF_SETTER.read(cart.entity()).state());
            assertEquals(java.util.List.of(), cart.log, "no exit ran");
        }
    }

    static final States<Bot> XSTATE_SELF_SETTER = States.define("hand-set-xstate-self", Bot::new, m -> m
            .initial("a")
            .state("a", s -> s.on("GO", t -> t.target("b").action((b, e) -> xstateSelfSetter().read(self).setState("c"))))
            .state("b")
            .state("c"));

    static States<Bot> xstateSelfSetter() {
        return XSTATE_SELF_SETTER;
    }

    @Test
    void setStateFromAnXStateMachinesOwnActionIsRefusedWithAMessageSayingSo() {
        try (StateWorld world = StateWorld.create()) {
            self = world.spawn(EntityKey.of("x"), XSTATE_SELF_SETTER.trait());
            dev.enginestates.declare.UserCodeException e = assertThrows(dev.enginestates.declare.UserCodeException.class,
                    () -> XSTATE_SELF_SETTER.send(self, "GO"));
            String message = e.getCause().getMessage();
            assertTrue(message.contains("hand-set-xstate-self") && message.contains("'x'") && message.contains("running its own code")
                    && message.contains("setState[c]"), message);
            assertEquals("b", XSTATE_SELF_SETTER.read(self).state());
        }
    }
}

package dev.enginestates.testing;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.MachineException;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.opentest4j.AssertionFailedError;

import java.util.Map;

import static dev.enginestates.testing.StateAssertions.assertThat;
import static dev.enginestates.testing.TestMachines.GUARD;
import static dev.enginestates.testing.TestMachines.HOUSE;
import static dev.enginestates.testing.TestMachines.ROUTINE;
import static dev.enginestates.testing.TestMachines.SIEGE;
import static dev.enginestates.testing.TestMachines.Talking;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fluent assertions, each passing and failing; a failure's message says what was expected
 * and prints the machine's state, seconds waited and left, and context.
 */
class StateAssertionsTest {
    @RegisterExtension
    static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);

    @Test
    void aFailingIsInPrintsTheStateTheSecondsAndTheContext() {
        Entity g = world.spawn(EntityKey.of("guard-7"), GUARD.trait());
        world.advance(3);
        AssertionFailedError e = assertThrows(AssertionFailedError.class,
                () -> assertThat(world, g).machine(GUARD).isIn("answer"));
        assertEquals("machine 'guard' on guard-7 at t=3.000 s (step 180): expected to be in 'answer', but it is not in 'answer';"
                + " it is in {\"patrol\":\"watch\"} (patrol.watch: 3 s waited, 1 s left)\n"
                + "{\n"
                + "  \"entity\" : \"guard-7\",\n"
                + "  \"time\" : 3,\n"
                + "  \"steps\" : 180,\n"
                + "  \"machines\" : {\n"
                + "    \"guard\" : {\n"
                + "      \"state\" : {\n"
                + "        \"patrol\" : \"watch\"\n"
                + "      },\n"
                + "      \"status\" : \"active\",\n"
                + "      \"wait\" : {\n"
                + "        \"state\" : \"patrol.watch\",\n"
                + "        \"waited\" : 3,\n"
                + "        \"left\" : 1,\n"
                + "        \"held\" : false\n"
                + "      },\n"
                + "      \"paused\" : { },\n"
                + "      \"history\" : { },\n"
                + "      \"context\" : {\n"
                + "        \"bells\" : 0,\n"
                + "        \"post\" : \"north gate\"\n"
                + "      },\n"
                + "      \"held\" : false,\n"
                + "      \"tags\" : [ \"guard.patrol\", \"guard.patrol.watch\" ]\n"
                + "    }\n"
                + "  }\n"
                + "}", e.getMessage().replace("\r\n", "\n"));
        assertEquals("answer", e.getExpected().getValue());
        assertEquals("{\"patrol\":\"watch\"}", e.getActual().getValue());
    }

    @Test
    void aFailureOnAnEntityWithoutAKeyNamesItByItsMachineAndNumberNeverByDominionsForm() {
        Entity g = world.spawn(GUARD.trait());
        String name = StateWorld.nameOf(g);
        assertTrue(name.startsWith("guard#"), name);
        AssertionError e = assertThrows(AssertionError.class, () -> assertThat(world, g).machine(GUARD).isIn("answer"));
        assertTrue(e.getMessage().startsWith("machine 'guard' on " + name + " at t="), e.getMessage());
        assertTrue(e.getMessage().contains("\"entity\" : \"" + name + "\""), e.getMessage());
        assertTrue(!e.getMessage().contains("id=|"), e.getMessage());
        AssertionError holds = assertThrows(AssertionError.class, () -> assertThat(world, g).hasNoMachine(GUARD));
        assertTrue(holds.getMessage().contains(name) && !holds.getMessage().contains("id=|"), holds.getMessage());
    }

    @Test
    void aFailingSecondsLeftSaysWhatTheWaitHasAndThePausedAndHistoryArePrinted() {
        Entity g = world.spawn(EntityKey.of("guard-8"), GUARD.trait());
        world.advance(5);         // 4 s watch, 1 s into rest
        GUARD.send(g, "BELL");    // rest left with 1 s waited, remembered by the deep history
        GUARD.send(g, "RESUME");  // back in rest with 9 s left
        AssertionFailedError e = assertThrows(AssertionFailedError.class,
                () -> assertThat(world, g).machine(GUARD).isIn("patrol.rest").hasSecondsLeft(10));
        String m = e.getMessage();
        assertTrue(m.startsWith("machine 'guard' on guard-8 at t=5.000 s (step 300): expected 10 s left in its wait, but its wait in"
                + " 'patrol.rest' has 1 s waited and 9 s left\n"), m);
        assertTrue(m.contains("\"history\" : {\n        \"patrol.resumed\" : [ \"patrol.rest\" ]\n      }"), m);
        assertTrue(m.contains("\"context\" : {\n        \"bells\" : 1,"), m);
        assertEquals(10.0, e.getExpected().getValue());
        assertEquals(9.0, (Double) e.getActual().getValue(), 1e-9);

        world.advance(1);
        GUARD.send(g, "BELL");
        AssertionError paused = assertThrows(AssertionError.class,
                () -> assertThat(world, g).machine(GUARD).isIn("answer").hasPaused("patrol.rest", 1));
        assertTrue(paused.getMessage().contains("expected 'patrol.rest' to keep 1 s of its wait, but it keeps 2 s\n"), paused.getMessage());
        assertTrue(paused.getMessage().contains("\"paused\" : {\n        \"patrol.rest\" : 2\n      }"), paused.getMessage());
    }

    @Test
    void everyAssertionPassesOnAMachineThatIsSo() {
        Entity g = world.spawn(EntityKey.of("guard-9"), GUARD.trait());
        world.advance(2);
        assertThat(world, g).machine(GUARD)
                .isIn("patrol", "patrol.watch")
                .isNotIn("answer", "patrol.rest")
                .hasValue(Map.of("patrol", "watch"))
                .hasTag("patrol.watch")
                .doesNotHaveTag("answer")
                .isWaitingIn("patrol.watch")
                .hasWaited(2)
                .hasSecondsLeft(2)
                .hasSecondsLeft(2.0004, 1e-3)
                .hasNoPaused("patrol.watch")
                .remembers("patrol.resumed")
                .isNotDone()
                .isNotHeld()
                .hasContext("no bell yet", c -> c.bells == 0)
                .contextSatisfies(c -> assertEquals("north gate", c.post));
        GUARD.send(g, "BELL");
        assertThat(world, g).machine(GUARD)
                .isIn("answer")
                .hasValue("answer")
                .isNotWaiting()
                .hasSecondsLeft(0)
                .hasPaused("patrol.watch", 2)
                .remembers("patrol.resumed", "patrol.watch");
    }

    @Test
    void eachAssertionFailsWhenItsMachineIsNotSo() {
        Entity g = world.spawn(EntityKey.of("guard-10"), GUARD.trait());
        MachineAssert<TestMachines.GuardCtx> a = assertThat(world, g).machine(GUARD);
        assertFails(() -> a.isNotIn("patrol.watch"), "expected not to be in 'patrol.watch', but it is in 'patrol.watch': {\"patrol\":\"watch\"}");
        assertFails(() -> a.hasValue("patrol"), "expected the value \"patrol\", but it is {\"patrol\":\"watch\"}");
        assertFails(() -> a.hasTag("answer"), "expected the tag guard.answer, but the entity does not have it");
        assertFails(() -> a.doesNotHaveTag("patrol"), "expected no tag guard.patrol, but the entity has it");
        assertFails(() -> a.hasWaited(1), "expected 1 s waited, but its wait in 'patrol.watch' has 0 s waited and 4 s left");
        assertFails(() -> a.isWaitingIn("patrol.rest"), "expected to be waiting in 'patrol.rest', but its wait in 'patrol.watch'");
        assertFails(a::isNotWaiting, "expected no wait to count, but its wait in 'patrol.watch' has 0 s waited and 4 s left");
        assertFails(() -> a.hasPaused("patrol.rest", 1), "expected 'patrol.rest' to keep 1 s of its wait, but it keeps none");
        assertFails(() -> a.remembers("patrol.resumed", "patrol.rest"),
                "expected history 'patrol.resumed' to remember [patrol.rest], but it remembers nothing");
        assertFails(a::isDone, "expected to be done (in a top-level final state), but it is in {\"patrol\":\"watch\"} (patrol.watch:"
                + " 0 s waited, 4 s left)");
        assertFails(a::isHeld, "expected to be held, but it is not");
        assertFails(() -> a.hasContext("three bells", c -> c.bells == 3),
                "expected the context to satisfy three bells, but it does not: {\"bells\":0,\"post\":\"north gate\"}");
        AssertionError wrapped = assertFails(() -> a.contextSatisfies(c -> assertEquals(3, c.bells, "bells")),
                "the context failed an assertion: bells ==> expected: <3> but was: <0>");
        assertInstanceOf(AssertionFailedError.class, wrapped.getCause());

        world.advance(2);
        GUARD.send(g, "BELL");
        assertFails(() -> a.hasNoPaused("patrol.watch"), "expected 'patrol.watch' to keep no paused seconds, but it keeps 2 s");
    }

    @Test
    void aTypoInAnAssertionsPathIsAnErrorNotAFailure() {
        Entity g = world.spawn(GUARD.trait());
        MachineException e = assertThrows(MachineException.class, () -> assertThat(world, g).machine(GUARD).isIn("patrol.wacth"));
        assertTrue(e.getMessage().startsWith("machine 'guard' has no state 'patrol.wacth'; expected one of [patrol, patrol.watch,"),
                e.getMessage());
        assertThrows(MachineException.class, () -> assertThat(world, g).machine(GUARD).remembers("patrol", "patrol.watch"));
    }

    @Test
    void doneHeldAndTheWorldsOwnMachine() {
        world.add(SIEGE);
        SIEGE.send(world.world(), "START");
        SIEGE.send(world.world(), "ALL_DOWN");
        assertThat(world).machine(SIEGE).isIn("over").isDone().hasTag("over");
        AssertionError e = assertThrows(AssertionError.class, () -> assertThat(world).machine(SIEGE).isNotDone());
        assertTrue(e.getMessage().startsWith("machine 'siege' on world at t=0.000 s (step 0): expected not to be done, but it reached"
                + " the final state \"over\" (done)"), e.getMessage());

        Entity npc = world.spawn(EntityKey.of("npc"), ROUTINE.trait(), new Talking());
        world.advance(1);
        assertThat(world, npc).hasComponent(Talking.class).machine(ROUTINE).isHeld().hasSecondsLeft(5);
        AssertionError held = assertThrows(AssertionError.class, () -> assertThat(world, npc).machine(ROUTINE).isNotHeld());
        assertTrue(held.getMessage().contains("\"wait\" : {\n        \"state\" : \"idle\",\n        \"waited\" : 0,\n        \"left\" : 5,\n"
                + "        \"held\" : true\n      }"), held.getMessage());
    }

    @Test
    void anEntityWithoutTheMachineSaysWhichMachinesItHolds() {
        Entity npc = world.spawn(EntityKey.of("npc-2"), ROUTINE.trait());
        world.add(SIEGE);
        assertThat(world, npc).hasMachine(ROUTINE).hasNoMachine(GUARD);
        AssertionError e = assertThrows(AssertionError.class, () -> assertThat(world, npc).machine(GUARD));
        assertTrue(e.getMessage().startsWith("expected npc-2 to hold a 'guard' machine, but it holds [routine]\n{"), e.getMessage());
        assertThrows(AssertionError.class, () -> assertThat(world, npc).hasNoMachine(ROUTINE));
        assertThrows(AssertionError.class, () -> assertThat(world, npc).hasComponent(Talking.class));
    }

    @Test
    void countsByStateAgreeWithTagsAndRecords() {
        for (int i = 0; i < 5; i++) {
            Entity g = world.spawn(GUARD.trait());
            if (i < 2) {
                GUARD.send(g, "BELL");
            }
        }
        world.spawnIn(HOUSE, "on.light.lit", "on.door.open");
        assertThat(world).hasCountIn(GUARD, "answer", 2).hasCountIn(GUARD, "patrol", 3).hasCountIn(HOUSE, "on.door.open", 1);
        AssertionFailedError e = assertThrows(AssertionFailedError.class, () -> assertThat(world).hasCountIn(GUARD, "answer", 3));
        assertEquals("expected 3 entities with machine 'guard' in 'answer' at t=0.000 s (step 0), but counted 2 by tag query and 2 by"
                + " records; the 'guard' machines are in {\"answer\"=2, {\"patrol\":\"watch\"}=3}", e.getMessage());
    }

    @Test
    void aCountThatOnlyTheRecordsGetWrongShowsTheRecordsCountAsActual() {
        Entity g = world.spawn(GUARD.trait());
        GUARD.read(g).setState("answer"); // the record moves now, its tags at the next step
        AssertionFailedError byRecords = assertThrows(AssertionFailedError.class, () -> assertThat(world).hasCountIn(GUARD, "patrol", 1));
        assertEquals(1, byRecords.getExpected().getValue());
        assertEquals(0, byRecords.getActual().getValue(), "the tag query counted 1, as expected; the records counted 0");
        AssertionFailedError byTags = assertThrows(AssertionFailedError.class, () -> assertThat(world).hasCountIn(GUARD, "answer", 1));
        assertEquals(0, byTags.getActual().getValue(), "the tag query is the one that is wrong");
    }

    @Test
    void aRecordOfAnotherWorldIsNotThisWorldsMachineForEveryAssertion() {
        try (StateWorld other = StateWorld.create()) {
            Entity there = other.spawn(GUARD.trait());
            EntityAssert here = assertThat(world.world(), there);
            assertThrows(AssertionError.class, () -> here.hasMachine(GUARD));
            here.hasNoMachine(GUARD); // agrees with hasMachine
            AssertionError e = assertThrows(AssertionError.class, () -> here.machine(GUARD));
            // it says why, not "holds []" above a dump that shows the machine
            assertTrue(e.getMessage().contains("record belongs to another world") && e.getMessage().contains(other.toString()),
                    e.getMessage());
            assertThat(other, there).hasMachine(GUARD);
        }
    }

    @Test
    void aContextJacksonCannotWriteIsShownByItsToString() {
        final class Loop {
            final Loop self = this;

            @Override
            public String toString() {
                return "a loop";
            }
        }
        assertEquals("\"a loop\"", EntityDump.context(new Loop()).toString());
    }

    @Test
    void aContextThatSavesItselfIsShownAsItSaves() {
        dev.enginestates.declare.SavedContext hidden = new dev.enginestates.declare.SavedContext() {
            private final int secret = 7;

            @Override
            public Object save() {
                return java.util.Map.of("saved", secret); // not the field, which Jackson would show
            }

            @Override
            public void restore(Object saved) {
                throw new IllegalArgumentException("not read here");
            }
        };
        assertEquals("{\"saved\":7}", EntityDump.context(hidden).toString());
    }

    private static AssertionError assertFails(Runnable assertion, String expectedPart) {
        AssertionError e = assertThrows(AssertionError.class, assertion::run);
        assertTrue(e.getMessage().contains(expectedPart), () -> "expected the message to contain\n" + expectedPart + "\nbut it was\n"
                + e.getMessage());
        assertTrue(e.getMessage().contains("\"machines\" : {"), "every failure prints the dump");
        return e;
    }
}

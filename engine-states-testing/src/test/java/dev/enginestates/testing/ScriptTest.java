package dev.enginestates.testing;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.StatesDef;
import dev.enginestates.declare.Event;
import dev.enginestates.declare.UserCodeException;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.enginestates.testing.StateAssertions.assertThat;
import static dev.enginestates.testing.TestMachines.GUARD;
import static dev.enginestates.testing.TestMachines.ROUTINE;
import static dev.enginestates.testing.TestMachines.SIEGE;
import static dev.enginestates.testing.TestMachines.Talking;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Scripted event sequences: sends, time, the game's own changes and checks, run in order with a transcript. */
class ScriptTest {
    @RegisterExtension
    static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);

    @Test
    void theBellResumeScriptOfThe003Document() {
        // 003: "A guard three seconds into his watch hears the bell. RESUME brings him back to
        // the watch with one second left"
        Entity g = world.spawn(EntityKey.of("guard-1"), GUARD.trait());
        ScriptRun run = world.script()
                .advance(3.0)
                .send(GUARD, g, "BELL").taken()
                .send(GUARD, g, "BELL").refused()
                .advance(1.0)
                .check(() -> assertThat(world, g).machine(GUARD).isIn("answer").hasPaused("patrol.watch", 3))
                .send(GUARD, g, "RESUME").taken()
                .run();
        assertThat(world, g).machine(GUARD).isIn("patrol.watch").hasSecondsLeft(1.0).hasContext(c -> c.bells == 1);
        assertEquals(List.of(true, false, true), run.taken());
        assertEquals(List.of(
                "t=0.000 s (step 0): advance 3.0 s (180 steps)",
                "t=3.000 s (step 180): send BELL to guard-1 (guard): taken, now guard: answer",
                "t=3.000 s (step 180): send BELL to guard-1 (guard): refused, now guard: answer",
                "t=3.000 s (step 180): advance 1.0 s (60 steps)",
                "t=4.000 s (step 240): check passed",
                "t=4.000 s (step 240): send RESUME to guard-1 (guard): taken, now guard: {patrol=watch} (patrol.watch: 3.000 s waited,"
                        + " 1.000 s left)"), run.transcript());
    }

    @Test
    void theWorldsOwnMachineAndEventsWithFieldsAndGameCode() {
        world.add(SIEGE);
        Entity npc = world.spawn(EntityKey.of("npc"), ROUTINE.trait());
        ScriptRun run = world.script()
                .send(SIEGE, "START")
                .send(SIEGE, Event.of("WAVE_HELD", Map.of("wave", 1))).taken()
                .then("a conversation starts", () -> npc.add(new Talking()))
                .advance(12)
                .then(() -> npc.removeType(Talking.class))
                .advanceSteps(60)
                .run();
        assertThat(world).machine(SIEGE).isIn("fight").hasContext("one wave", s -> s.wave == 1);
        assertThat(world, npc).machine(ROUTINE).isIn("idle").hasSecondsLeft(4);
        assertEquals("t=0.000 s (step 0): a conversation starts", run.transcript().get(2));
        assertEquals("t=12.000 s (step 720): game code", run.transcript().get(4));
        assertEquals("t=12.000 s (step 720): advance 60 steps", run.transcript().get(5));
    }

    @Test
    void anExpectedResultThatDoesNotComeFailsWithTheScriptSoFar() {
        Entity g = world.spawn(EntityKey.of("guard-3"), GUARD.trait());
        Script script = world.script()
                .send(GUARD, g, "BELL")
                .advance(0.5)
                .send(GUARD, g, "RESTART").refused();
        AssertionError e = assertThrows(AssertionError.class, script::run);
        String m = e.getMessage();
        assertTrue(m.startsWith("expected RESTART to be refused by machine 'guard' on guard-3, but it was taken\n{"), m);
        assertTrue(m.contains("\"state\" : {\n        \"patrol\" : \"watch\"\n      }"), m);
        assertTrue(m.contains("script input 3 of 3 failed; the script so far:\n"
                + "  t=0.000 s (step 0): send BELL to guard-3 (guard): taken, now guard: answer\n"
                + "  t=0.000 s (step 0): advance 0.5 s (30 steps)\n"
                + "  t=0.500 s (step 30): send RESTART to guard-3 (guard): taken, now guard: {patrol=watch} (patrol.watch: 0.000 s"
                + " waited, 4.000 s left)\n"), m);
    }

    @Test
    void aFailingCheckStopsTheRunThereAndKeepsItsOwnMessage() {
        Entity g = world.spawn(EntityKey.of("guard-4"), GUARD.trait());
        Script script = world.script()
                .advance(4)
                .check(() -> assertThat(world, g).machine(GUARD).isIn("patrol.watch"))
                .send(GUARD, g, "BELL");
        AssertionError e = assertThrows(AssertionError.class, script::run);
        assertTrue(e.getMessage().startsWith("machine 'guard' on guard-4 at t=4.000 s (step 240): expected to be in 'patrol.watch',"
                + " but it is not in 'patrol.watch'; it is in {\"patrol\":\"rest\"} (patrol.rest: 0 s waited, 10 s left)"), e.getMessage());
        assertTrue(e.getMessage().endsWith("script input 2 of 3 failed; the script so far:\n"
                + "  t=0.000 s (step 0): advance 4.0 s (240 steps)\n"), e.getMessage());
        assertThat(world, g).machine(GUARD).isIn("patrol.rest"); // the BELL after the check was not sent
    }

    @Test
    void aGameExceptionCarriesTheScriptSoFar() {
        States<TestMachines.GuardCtx> brittle = States.define("brittle", TestMachines.GuardCtx::new, m -> m
                .initial("a")
                .state("a", s -> s.on("GO", t -> t.target("b").action((c, e) -> {
                    throw new IllegalStateException("the game's action broke");
                })))
                .state("b"));
        Entity e = world.spawn(brittle.trait());
        UserCodeException thrown = assertThrows(UserCodeException.class, () -> world.script().advance(1).send(brittle, e, "GO").run());
        assertEquals(1, thrown.getSuppressed().length);
        assertTrue(thrown.getSuppressed()[0].getMessage().startsWith("script input 2 of 2 threw; the script so far:\n"
                + "  t=0.000 s (step 0): advance 1.0 s (60 steps)"), thrown.getSuppressed()[0].getMessage());
    }

    @Test
    void aScriptSendOfABareNameIsTheFixturesSend() {
        List<Object[]> received = new ArrayList<>();
        States<TestMachines.GuardCtx> polled = States.of(StatesDef.<TestMachines.GuardCtx>define("script-polled",
                TestMachines.GuardCtx::new, d -> d
                        .on("PING", (c, args) -> {
                            received.add(args);
                            return null;
                        })
                        .state("idle")));
        Entity e = world.spawn(polled.trait());
        world.send(polled, e, "PING");
        world.script().send(polled, e, "PING").taken().run();
        world.add(polled);
        world.send(polled, "PING");
        ScriptRun run = world.script().send(polled, "PING").taken().run();
        assertEquals(4, received.size());
        for (Object[] args : received) {
            assertEquals(0, args.length, "no arguments, as the fixture's send gives: " + java.util.Arrays.toString(args));
        }
        assertTrue(run.transcript().get(0).contains("send PING to "), run.transcript().get(0));
    }

    @Test
    void thenRefusesANullDescriptionWhenWritten() {
        Script s = world.script();
        NullPointerException e = assertThrows(NullPointerException.class, () -> s.then(null, () -> { }));
        assertTrue(e.getMessage().contains("what"), e.getMessage());
        assertEquals("Script(0 inputs)", s.toString(), "nothing was added");
    }

    @Test
    void anExpectationFollowsASendAndAnUnevenAdvanceIsRefusedWhenWritten() {
        Script s = world.script();
        assertThrows(IllegalStateException.class, s::taken);
        assertThrows(IllegalStateException.class, () -> s.advance(1).refused());
        assertThrows(IllegalArgumentException.class, () -> s.advance(0.001));
    }
}

package dev.enginestates.samples;

import dev.enginestates.declare.MachineException;
import dev.enginestates.fsm.AIStateMachine;
import dev.enginestates.samples.BuilderBrainSample.Bot;
import dev.enginestates.samples.BuilderBrainSample.Pitch;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.enginestates.samples.BuilderBrainSample.BRAIN;
import static dev.enginestates.samples.BuilderBrainSample.DT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bot's brain: roles chosen from outside by transitionTo, a strike after a build-up, a commit window, re-entry. */
class BuilderBrainSampleTest {
    private static void ticks(AIStateMachine<Bot> brain, Bot bot, int n) {
        for (int i = 0; i < n; i++) {
            brain.update(bot, DT);
        }
    }

    @Test
    void theBotHoldsItsKickoffUntilTheWhistleThenTheSelectorSendsItToAttack() {
        Pitch pitch = new Pitch();
        Bot ada = new Bot("ada", true, pitch);
        AIStateMachine<Bot> brain = new AIStateMachine<>(BRAIN);
        brain.initialize(ada);
        assertEquals("kickoff", brain.state());
        assertNull(BuilderBrainSample.think(brain, ada), "no whistle: kickoff is still the best role");
        ticks(brain, ada, 60);
        assertEquals("kickoff", brain.state(), "no handler returns a name");
        pitch.whistle = true;
        pitch.ours = true;
        assertEquals("kickoff > attack (attack 0.95, defend 0.10)", BuilderBrainSample.think(brain, ada));
        assertEquals("attack", ada.role, "onStateEnter keeps the role field");
        assertEquals("kickoff", brain.previous());
        assertEquals(0f, ada.timeInState());
    }

    @Test
    void anAttackStrikesOnceAfterItsBuildUpCountedInFloat() {
        Pitch pitch = new Pitch();
        Bot ada = new Bot("ada", true, pitch);
        AIStateMachine<Bot> brain = new AIStateMachine<>(BRAIN);
        brain.initialize(ada);
        brain.transitionTo(ada, "attack");
        ticks(brain, ada, 45);
        assertEquals(List.of(), ada.did, "45 x 1/60f = 0.74999994f, short of 0.75");
        ticks(brain, ada, 1);
        assertEquals(List.of("strikes (0.7666666 s into attack)"), ada.did);
        ticks(brain, ada, 60);
        assertEquals(1, ada.did.size(), "once per attack");
    }

    @Test
    void transitionToTheCurrentRoleReEntersItAndTheCommitWindowOpensAgain() {
        Pitch pitch = new Pitch();
        pitch.whistle = true;
        Bot bo = new Bot("bo", false, pitch);
        AIStateMachine<Bot> brain = new AIStateMachine<>(BRAIN);
        brain.initialize(bo);
        assertEquals("kickoff > defend (attack 0.20, defend 0.85)", BuilderBrainSample.think(brain, bo));
        ticks(brain, bo, 6);
        // commit spans 0.2..0.4 of defend's 0.5 s: it opens at 0.1 s, the 6th tick
        assertEquals(List.of("commits to the tackle (0.1 s into defend)"), bo.did);
        ticks(brain, bo, 30);
        assertEquals(1, bo.did.size());
        assertNull(BuilderBrainSample.think(brain, bo), "the selector leaves the same role alone");
        brain.transitionTo(bo, "defend");   // the game forces it: exit, enter, time 0
        assertEquals(0f, bo.timeInState());
        assertEquals("defend", brain.previous());
        ticks(brain, bo, 6);
        assertEquals(2, bo.did.size(), bo.did.toString());
    }

    @Test
    void aRoleTheBrainDoesNotHaveIsRefused() {
        Bot bot = new Bot("cy", true, new Pitch());
        AIStateMachine<Bot> brain = new AIStateMachine<>(BRAIN);
        brain.initialize(bot);
        MachineException e = assertThrows(MachineException.class, () -> brain.transitionTo(bot, "atack"));
        assertTrue(e.getMessage().startsWith("machine 'bot-brain': transitionTo('atack') names no state; expected one of"
                + " [kickoff, attack, defend]"), e.getMessage());
        assertEquals("kickoff", brain.state(), "nothing changed");
    }
}

package dev.enginestates.samples;

import dev.enginestates.plain.StateMachine;
import dev.enginestates.samples.EnemyBrainSample.Bot;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.enginestates.samples.EnemyBrainSample.BRAIN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The enemy brain: the 000 document's "At a glance" guard on a plain machine, with its senses. */
class EnemyBrainSampleTest {
    static final double DT = 1.0 / 60;

    private static void steps(StateMachine<Bot> brain, int n) {
        for (int i = 0; i < n; i++) {
            EnemyBrainSample.sense(brain.ctx(), DT);
            brain.step(DT);
        }
    }

    @Test
    void aTargetTakesThePatrolIntoCombatAndASeenCloseTargetIntoShootInTheSameStep() {
        Bot bot = new Bot();
        StateMachine<Bot> brain = new StateMachine<>(BRAIN, bot);
        assertEquals("patrol", brain.state());
        bot.target = true;
        bot.visible = true;
        bot.dist = 20;
        steps(brain, 1);
        assertEquals("combat.engage", brain.state(), "too far to shoot");
        assertEquals(List.of("combat", "combat.engage"), brain.branch());
        bot.dist = 6;
        steps(brain, 1);
        assertEquals("combat.shoot", brain.state());
        assertTrue(bot.fire, "shoot's enter holds the trigger");

        Bot other = new Bot();
        StateMachine<Bot> second = new StateMachine<>(BRAIN, other);
        other.target = true;
        other.visible = true;
        other.dist = 6;
        steps(second, 1);
        assertEquals("combat.shoot", second.state(), "patrol, combat.engage, combat.shoot: a chain of guards in one step");
        assertEquals("combat.engage", second.previous());
    }

    @Test
    void aHitFlinchesFromAnyStateAndGoesBackToTheLeafItCameFrom() {
        Bot bot = new Bot();
        bot.target = true;
        bot.visible = true;
        bot.dist = 6;
        bot.fire = true;
        StateMachine<Bot> brain = StateMachine.startIn(BRAIN, bot, "combat.shoot");
        List<String> changes = new ArrayList<>();
        brain.on("change", (to, from) -> changes.add(from + ">" + to));
        assertTrue(brain.send("hit"), "the root's on");
        assertEquals("flinch", brain.state());
        assertFalse(bot.fire, "shoot's exit let go of the trigger");
        steps(brain, 11);
        assertEquals("flinch", brain.state());
        steps(brain, 1);
        assertEquals("combat.shoot", brain.state(), "$back 0.2 s (12 steps) later: the leaf, not combat's initial child");
        assertTrue(bot.fire, "shoot's enter ran again");
        assertEquals(List.of("combat.shoot>flinch", "flinch>combat.shoot"), changes);
    }

    @Test
    void aTargetOutOfSightForMoreThanFourSecondsSendsCombatToSearchAndTheSensesForgetItAfterFive() {
        Bot bot = new Bot();
        bot.target = true;
        StateMachine<Bot> brain = StateMachine.startIn(BRAIN, bot, "combat.engage");
        steps(brain, 240);
        assertEquals("combat.engage", brain.state(), "lostFor is not yet more than 4");
        steps(brain, 1);
        assertEquals("search", brain.state());
        assertTrue(bot.target, "still remembered");
        steps(brain, 60);
        assertFalse(bot.target, "forgotten after " + EnemyBrainSample.FORGET_SECONDS + " s");
        assertEquals(0, bot.lostFor);
        assertEquals("search", brain.state());
    }

    @Test
    void searchLeavesWhicheverCombatChildWasActiveAndClearsTheTrigger() {
        Bot bot = new Bot();
        bot.fire = true;
        bot.visible = true;
        bot.lostFor = 4.5;
        StateMachine<Bot> brain = StateMachine.startIn(BRAIN, bot, "combat.shoot");
        brain.step(DT);
        assertEquals("search", brain.state());
        assertFalse(bot.fire);
    }

    @Test
    void searchReturnsToPatrolAfterSixSeconds() {
        StateMachine<Bot> brain = StateMachine.startIn(BRAIN, new Bot(), "search").withTime("search", 5.9);
        brain.step(0.05);
        assertEquals("search", brain.state());
        assertEquals(5.95, brain.timeIn("search"), 1e-9);
        brain.step(0.05);
        assertEquals("patrol", brain.state());
        assertEquals(0, brain.time());
    }

    @Test
    void noHealthLeftIsDeadFromAnyStateOnceAndDeadSwallowsFurtherHits() {
        Bot bot = new Bot();
        StateMachine<Bot> brain = StateMachine.startIn(BRAIN, bot, "flinch");
        bot.hp = -20;
        steps(brain, 5);
        assertEquals("dead", brain.state());
        assertEquals(1, bot.downs, "a guard never re-enters an active state");
        assertTrue(brain.send("hit"), "handled by dead's own on, which returns no name");
        assertEquals("dead", brain.state());
        assertEquals(1, bot.downs);
    }
}

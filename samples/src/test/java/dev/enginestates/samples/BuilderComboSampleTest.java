package dev.enginestates.samples;

import dev.enginestates.fsm.StateMachine;
import dev.enginestates.samples.BuilderComboSample.AttackStep;
import dev.enginestates.samples.BuilderComboSample.Fighter;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static dev.enginestates.samples.BuilderComboSample.COMBO;
import static dev.enginestates.samples.BuilderComboSample.DT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The combo: windows in progress, the input window's buffer, a @StateWindow hit, tags, data, motion and the hook's delay. */
class BuilderComboSampleTest {
    /** Runs ticks 1..n, pressing on the given ticks; returns the state after each tick. */
    private static List<String> run(StateMachine<Fighter> fsm, Fighter f, int from, int to, Set<Integer> presses) {
        List<String> states = new ArrayList<>();
        for (int tick = from; tick <= to; tick++) {
            f.attackPressed = presses.contains(tick);
            fsm.update(f, DT);
            f.attackPressed = false;
            f.move(DT);
            states.add(fsm.state());
        }
        return states;
    }

    private static StateMachine<Fighter> started(Fighter f) {
        StateMachine<Fighter> fsm = new StateMachine<>(COMBO);
        fsm.initialize(f);
        return fsm;
    }

    @Test
    void theSamplesPressesThrowTheFullComboAndALoneJab() {
        Fighter f = new Fighter();
        StateMachine<Fighter> fsm = started(f);
        List<String> states = run(fsm, f, 1, 300, BuilderComboSample.PRESSES);
        assertEquals("Jab", states.get(9), "tick 10");
        assertEquals(34, states.indexOf("Cross") + 1, "the jab's 0.4 s: 24 ticks");
        assertEquals(61, states.indexOf("Hook") + 1, "the cross's 0.45 s: 27 ticks");
        assertEquals("Idle", states.get(102));
        assertEquals(100 - 8 - 12 - 25 - 8, f.dummyHp);
        assertEquals(100 - 5 - 8 - 15 - 5, f.stamina);
        assertEquals("Idle", fsm.state());
    }

    @Test
    void thePressBeforeTheInputWindowIsDroppedAndTheJabEndsAlone() {
        Fighter f = new Fighter();
        StateMachine<Fighter> fsm = started(f);
        List<String> states = run(fsm, f, 1, 40, Set.of(1, 5));
        assertEquals("Jab", states.get(0));
        assertTrue(f.events.contains("press dropped (before the input window)"), f.events.toString());
        assertEquals("Idle", states.get(24), "24 ticks of jab, nothing buffered");
        assertFalse(states.contains("Cross"));
    }

    @Test
    void theDamageWindowIsAShareOfTheJabAndItsCallbackLandsOnce() {
        Fighter f = new Fighter();
        StateMachine<Fighter> fsm = started(f);
        run(fsm, f, 1, 1, Set.of(1));   // into the jab, time 0
        List<Float> landedAt = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            int before = f.dummyHp;
            run(fsm, f, 0, 0, Set.of());
            if (f.dummyHp != before) {
                landedAt.add(f.timeInState());
            }
        }
        // damage 0.25..0.45 of 0.4 s opens at 0.1 s: the 6th tick (6 x 1/60f = 0.1f)
        assertEquals(List.of(0.1f), landedAt);
        assertEquals(92, f.dummyHp);
        assertTrue(f.events.contains("light hit for 8, the dummy staggers (hp 92)"), f.events.toString());
    }

    @Test
    void theHookIsHeavyWindsUpAndLunges() {
        Fighter f = new Fighter();
        StateMachine<Fighter> fsm = started(f);
        run(fsm, f, 1, 61, Set.of(10, 30, 55));
        assertEquals("Hook", fsm.state(), "entered on tick 61");
        f.events.clear();
        assertEquals("heavy", f.currentStateTag());
        assertEquals(new AttackStep(25, 15), f.currentStateData());
        assertEquals(0f, f.currentMovementThrottle(), "planted: no walking");
        assertEquals(3f, f.evaluateCurrentMotion(), "the lunge, in its first half");
        // a press during the wind-up is not seen: the handler does not run for 0.1 s
        f.attackPressed = true;
        fsm.update(f, DT);
        f.attackPressed = false;
        assertFalse(f.events.stream().anyMatch(e -> e.startsWith("press")), f.events.toString());
    }

    @Test
    void aSwingKeepsAShareOfTheWalk() {
        Fighter idle = new Fighter();
        StateMachine<Fighter> a = started(idle);
        run(a, idle, 1, 24, Set.of());
        Fighter jabbing = new Fighter();
        StateMachine<Fighter> b = started(jabbing);
        run(b, jabbing, 1, 24, Set.of(1));
        assertEquals(idle.x / 2, jabbing.x, 1e-5, "a jab keeps half the walk and does not lunge");
    }
}

package dev.enginestates.samples;

import dev.enginestates.plain.StateMachine;
import dev.enginestates.samples.PolledWeaponSample.Gun;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.enginestates.samples.PolledWeaponSample.WEAPON;
import static dev.enginestates.samples.PolledWeaponSample.tick;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The weapon cycle in the polled style: per-weapon durations as guards on t, a one-shot output cleared before step. */
class PolledWeaponSampleTest {
    static final double DT = 1.0 / 60;

    private static Gun rifle() {
        return new Gun("rifle", 0.25, 1.5, 6);
    }

    /** The steps (0-based) at which the weapon fired while its trigger was held for {@code steps} steps. */
    private static List<Integer> hold(StateMachine<Gun> weapon, int steps) {
        List<Integer> shots = new ArrayList<>();
        for (int i = 0; i < steps; i++) {
            tick(weapon, true, DT);
            if (weapon.ctx().shot) {
                shots.add(i);
            }
        }
        return shots;
    }

    @Test
    void aHeldTriggerFiresEveryFifteenStepsAndReloadsForNinetyWhenEmpty() {
        StateMachine<Gun> weapon = new StateMachine<>(WEAPON, rifle());
        // six rounds 0.25 s apart, a 1.5 s reload entered on the sixth shot's step, then fire again
        assertEquals(List.of(0, 15, 30, 45, 60, 75, 165, 180, 195, 210, 225), hold(weapon, 240));
        assertEquals(11, weapon.ctx().shots);
        assertEquals(1, weapon.ctx().ammo);
        assertEquals("cooldown", weapon.state());
    }

    @Test
    void fireIsAPassThroughStateTheStepEndsInCooldownWithTheShotTaken() {
        StateMachine<Gun> weapon = new StateMachine<>(WEAPON, rifle());
        List<String> changes = new ArrayList<>();
        weapon.on("change", (to, from) -> changes.add(to));
        tick(weapon, true, DT);
        assertEquals(List.of("fire", "cooldown"), changes);
        assertEquals("cooldown", weapon.state());
        assertEquals(0, weapon.time(), "entered in this step: its clock starts next step");
        assertEquals(5, weapon.ctx().ammo);
    }

    @Test
    void theShotIsTrueOnlyOnTheTickThatFired() {
        StateMachine<Gun> weapon = new StateMachine<>(WEAPON, rifle());
        tick(weapon, true, DT);
        assertTrue(weapon.ctx().shot);
        tick(weapon, true, DT);
        assertFalse(weapon.ctx().shot, "cleared before the step; cooldown does not re-assert it");
        assertEquals(1, weapon.ctx().shots);
    }

    @Test
    void eachWeaponTakesItsOwnDurationsFromOneSharedTable() {
        StateMachine<Gun> fast = StateMachine.startIn(WEAPON, new Gun("smg", 0.25, 1, 30), "cooldown").withTime("cooldown", 0.125);
        StateMachine<Gun> slow = StateMachine.startIn(WEAPON, new Gun("cannon", 2, 4, 1), "cooldown").withTime("cooldown", 0.125);
        tick(fast, false, 0.125);
        tick(slow, false, 0.125);
        assertEquals("ready", fast.state());
        assertEquals("cooldown", slow.state());
        assertEquals(0.25, slow.time(), 1e-12);
        slow.withTime("cooldown", 1.875);
        tick(slow, false, 0.125);
        assertEquals("ready", slow.state());
    }

    @Test
    void aGuardOnTLeavesOnTheStepThatCompletesItsSeconds() {
        StateMachine<Gun> weapon = StateMachine.startIn(WEAPON, rifle(), "cooldown");
        for (int i = 0; i < 14; i++) {
            tick(weapon, false, DT);
        }
        assertEquals("cooldown", weapon.state(), "14 steps are less than 0.25 s");
        tick(weapon, false, DT);
        assertEquals("ready", weapon.state(), "the fifteenth: t is the sum of the steps, 0.25, though a plain floating sum of fifteen sixtieths falls a hair short");
    }

    @Test
    void theReloadRefillsTheMagazineWhenItsTimeIsUp() {
        Gun gun = rifle();
        gun.ammo = 0;
        StateMachine<Gun> weapon = StateMachine.startIn(WEAPON, gun, "reload").withTime("reload", 1.4);
        tick(weapon, false, 0.05);
        assertEquals("reload", weapon.state());
        assertEquals(0, gun.ammo);
        tick(weapon, false, 0.05);
        assertEquals("ready", weapon.state());
        assertEquals(6, gun.ammo);
    }

    @Test
    void anEmptyTriggerPullReloadsWithoutAShot() {
        Gun gun = rifle();
        gun.ammo = 0;
        StateMachine<Gun> weapon = new StateMachine<>(WEAPON, gun);
        tick(weapon, true, DT);
        assertEquals("reload", weapon.state());
        assertFalse(gun.shot);
        assertEquals(0, gun.shots);
    }

    @Test
    void reloadIsHandledOnlyInReadyAndOnlyMovesWithAMagazineNotFull() {
        StateMachine<Gun> full = new StateMachine<>(WEAPON, rifle());
        assertTrue(full.send("reload"), "handled by ready's on, which returns no name");
        assertEquals("ready", full.state());

        Gun gun = rifle();
        gun.ammo = 3;
        StateMachine<Gun> half = new StateMachine<>(WEAPON, gun);
        assertTrue(half.send("reload"));
        assertEquals("reload", half.state());

        StateMachine<Gun> cooling = StateMachine.startIn(WEAPON, rifle(), "cooldown");
        assertFalse(cooling.send("reload"), "no active state names it");
        assertEquals("cooldown", cooling.state());
    }
}

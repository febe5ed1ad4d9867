package dev.enginestates.samples;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.samples.WeaponSample.Weapon;
import dev.enginestates.testing.WorldFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.enginestates.samples.WeaponSample.WEAPON;
import static dev.enginestates.testing.StateAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The weapon's ready, fire, cooldown and reload cycle (the 000 document's weapon, as an ECS machine). */
class WeaponSampleTest {
    @RegisterExtension
    static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);

    @Test
    void holdingTheTriggerFiresAtTheCooldownRateAndReloadsWhenEmpty() {
        Entity rifle = world.spawn(EntityKey.of("rifle"), WEAPON.trait());
        int bangs = 0;
        for (int step = 0; step < 4 * 60; step++) {
            if (world.send(WEAPON, rifle, "FIRE")) {
                bangs++;
            }
            world.advanceSteps(1);
        }
        // shots at 0, .25, .5, .75, 1.0, 1.25 (empty: reload 1.5 s), 2.75, 3.0, 3.25, 3.5, 3.75
        assertEquals(11, bangs);
        assertThat(world, rifle).machine(WEAPON).isIn("ready").hasContext("11 shots, 1 round left", w -> w.shots == 11 && w.ammo == 1);
    }

    @Test
    void theLastRoundStartsTheReloadAndFireIsRefusedUntilItEnds() {
        Entity rifle = world.spawnIn(WEAPON, "ready").context(w -> w.ammo = 1).entity();
        world.script()
                .send(WEAPON, rifle, "FIRE").taken()
                .check(() -> assertThat(world, rifle).machine(WEAPON).isIn("reload").hasSecondsLeft(1.5).doesNotHaveTag("fire")
                        .hasContext(w -> w.ammo == 0 && w.shots == 1))
                .advance(1.0)
                .send(WEAPON, rifle, "FIRE").refused()
                .send(WEAPON, rifle, "RELOAD").refused()
                .advance(0.5)
                .run();
        assertThat(world, rifle).machine(WEAPON).isIn("ready").hasTag("ready").hasContext("a full magazine", w -> w.ammo == 6);
    }

    @Test
    void fireDuringTheCooldownIsRefusedAndLeavesTheWaitAsItWas() {
        Entity rifle = world.spawn(WEAPON.trait());
        world.startIn(rifle, WEAPON, "cooldown").waited(0.1);
        assertFalse(world.send(WEAPON, rifle, "FIRE"));
        assertThat(world, rifle).machine(WEAPON).isIn("cooldown").hasSecondsLeft(0.15).hasContext(w -> w.shots == 0);
        world.advance(0.15);
        assertTrue(world.send(WEAPON, rifle, "FIRE"));
        assertThat(world, rifle).machine(WEAPON).isIn("cooldown").hasSecondsLeft(0.25).hasContext(w -> w.shots == 1 && w.ammo == 5);
    }

    @Test
    void anEmptyClickReloadsAndReloadIsRefusedWithAFullMagazine() {
        Entity full = world.spawn(WEAPON.trait());
        assertFalse(world.send(WEAPON, full, "RELOAD"), "RELOAD [ammo < magazine]");
        Entity empty = world.spawnIn(WEAPON, "ready").context(w -> w.ammo = 0).entity();
        assertTrue(world.send(WEAPON, empty, "FIRE"), "the second FIRE of the guarded list takes it");
        assertThat(world, empty).machine(WEAPON).isIn("reload").hasContext("no shot", w -> w.shots == 0);
        assertThat(world, full).machine(WEAPON).isIn("ready");
    }

    @Test
    void theWaitsTakeTheirSecondsFromTheWeaponsContext() {
        Weapon slow = new Weapon();
        slow.cooldownSeconds = 1;
        slow.reloadSeconds = 3;
        slow.ammo = 2;
        Entity cannon = world.spawn(WEAPON.trait(slow));
        world.send(WEAPON, cannon, "FIRE");
        assertThat(world, cannon).machine(WEAPON).isIn("cooldown").hasSecondsLeft(1);
        world.advance(1);
        world.send(WEAPON, cannon, "FIRE");
        assertThat(world, cannon).machine(WEAPON).isIn("reload").hasSecondsLeft(3);
        world.advance(3 - 1.0 / 60);
        assertThat(world, cannon).machine(WEAPON).isIn("reload");
        world.advanceSteps(1);
        assertThat(world, cannon).machine(WEAPON).isIn("ready").hasContext(w -> w.ammo == 6);
    }
}

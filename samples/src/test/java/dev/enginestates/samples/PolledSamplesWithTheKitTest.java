package dev.enginestates.samples;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.States;
import dev.enginestates.samples.EnemyBrainSample.Bot;
import dev.enginestates.samples.PolledDoorSample.Door;
import dev.enginestates.samples.PolledGameModeSample.Match;
import dev.enginestates.samples.PolledWeaponSample.Gun;
import dev.enginestates.testing.WorldFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.enginestates.testing.StateAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The polled samples' tables on entities, tested with the kit: the same {@code StatesDef} a
 * plain {@code StateMachine} runs is a component whose states are tags, stepped by the world.
 */
class PolledSamplesWithTheKitTest {
    @RegisterExtension
    static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);

    static final States<Bot> BRAIN = States.of(EnemyBrainSample.BRAIN);
    static final States<Gun> WEAPON = States.of(PolledWeaponSample.WEAPON);
    static final States<Match> MODE = States.of(PolledGameModeSample.MODE);
    static final States<Door> DOOR = States.of(PolledDoorSample.DOOR);

    @Test
    void aBotSeesItsTargetShootsAndFlinchesBackIntoTheFight() {
        Bot bot = new Bot();
        Entity e = world.spawn(EntityKey.of("bot"), BRAIN.trait(bot));
        bot.target = true;
        bot.visible = true;
        bot.dist = 5;
        world.advanceSteps(1);
        assertThat(world, e).machine(BRAIN).hasState("combat.shoot").hasTag("combat").hasTag("combat.shoot")
                .hasContext("the trigger held", b -> b.fire);
        assertTrue(world.send(BRAIN, e, "hit"));
        assertThat(world, e).machine(BRAIN).hasState("flinch").hasPrevious("combat.shoot").hasContext("shoot's exit let go", b -> !b.fire);
        world.advance(0.2);
        assertThat(world, e).machine(BRAIN).hasState("combat.shoot").hasTag("combat.shoot");
        assertEquals(1, world.world().query(BRAIN.is("combat")).count());
    }

    @Test
    void aRifleOnAnEntityFiresAtItsCooldownRate() {
        Gun rifle = new Gun("rifle", 0.25, 1.5, 6);
        Entity e = world.spawn(WEAPON.trait(rifle));
        int shots = 0;
        for (int step = 0; step < 60; step++) {
            rifle.shot = false;
            rifle.trigger = true;
            world.advanceSteps(1);
            shots += rifle.shot ? 1 : 0;
        }
        assertEquals(4, shots, "one second of a held trigger at 0.25 s a shot");
        assertThat(world, e).machine(WEAPON).hasContext("two rounds left", g -> g.ammo == 2);
    }

    @Test
    void theGameModeIsTheWorldsOwnMachine() {
        StateRecord<Match> mode = world.world().add(MODE.trait(new Match()));
        world.send(MODE, world.world().entity(), "join");
        world.send(MODE, world.world().entity(), "join");
        world.advance(PolledGameModeSample.WARMUP_SECONDS);
        assertEquals("round.countdown", mode.state());
        world.advance(PolledGameModeSample.COUNTDOWN_SECONDS);
        assertThat(world, world.world().entity()).machine(MODE).hasState("round.playing").hasTag("round");
    }

    @Test
    void aDoorStartedOpenClosesAfterItsHoldAndStopsOnSomeone() {
        Entity e = world.spawnIn(DOOR, "open").context(d -> d.openness = 1).timeIn("open", PolledDoorSample.HOLD_OPEN_SECONDS - 0.5).entity();
        world.advance(0.5);
        assertThat(world, e).machine(DOOR).hasState("closing").hasPrevious("open");
        DOOR.read(e).context().blocked = true;
        world.advanceSteps(1);
        assertThat(world, e).machine(DOOR).hasState("stopped").hasTag("stopped");
        DOOR.read(e).context().blocked = false;
        world.advanceSteps(1);
        assertThat(world, e).machine(DOOR).hasState("closing");
        assertFalse(DOOR.read(e).context().openness >= 1);
    }
}

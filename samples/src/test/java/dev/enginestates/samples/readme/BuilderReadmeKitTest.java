package dev.enginestates.samples.readme;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.States;
import dev.enginestates.fsm.StateMachine;
import dev.enginestates.samples.readme.BuilderTour.Fighter;
import dev.enginestates.testing.BuilderStart;
import dev.enginestates.testing.WorldFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.enginestates.samples.readme.BuilderTour.COMBO;
import static dev.enginestates.testing.StateAssertions.assertThat;

/** The README's kit example for the builder style, compiled and run (its lines are checked by {@link ReadmeCodeTest}). */
class BuilderReadmeKitTest {
    @RegisterExtension static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);

    static final States<Fighter> FIGHTERS = States.of(COMBO);

    @Test void anAttackStartedInItsDamageWindowClosesIt() {
        Fighter fighter = new Fighter();
        StateMachine<Fighter> fsm = BuilderStart.startIn(COMBO, fighter, "Attack", 0.2f);   // no hook runs
        assertThat(fsm).hasState("Attack").hasTimeInState(0.2).hasProgress(0.2 / 0.55).isInWindow("damage");
        Entity e = world.spawnIn(FIGHTERS, new Fighter(), "Attack").timeInState(0.2).entity();
        world.advance(0.15);                                       // nine ticks: 0.35 s, progress 0.64
        assertThat(world, e).machine(FIGHTERS).hasPrevious("").isNotInWindow("damage").isInWindow("input");
    }
}

package dev.enginestates.samples.docs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.testing.WorldFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.enginestates.samples.docs.Restart.GUARD;
import static dev.enginestates.testing.StateAssertions.assertThat;

/** docs/testing.md's script, compiled and run (its lines are checked by {@link DocsCodeTest}). */
class ScriptKitTest {
    @RegisterExtension static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);

    @Test void aScriptSendsAdvancesAndChecksInOrder() {
        Entity guard = world.spawnIn(GUARD, "patrol.watch").waited(1.0).entity();
        world.script()
            .send(GUARD, guard, "BELL").taken()
            .advance(2.0)
            .send(GUARD, guard, "RESUME").taken()
            .check(() -> assertThat(world, guard).machine(GUARD).isIn("patrol.watch").hasSecondsLeft(3.0))
            .run();
    }
}

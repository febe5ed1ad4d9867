package ${package};

import dev.dominion.ecs.api.Entity;
import dev.enginestates.testing.WorldFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static ${package}.Guard.GUARD;
import static dev.enginestates.testing.StateAssertions.assertThat;

/** The guard's machine alone, in the test kit's world: time moves only when a test says so. */
class GuardTest {
    @RegisterExtension
    static WorldFixture world = WorldFixture.fixedStep(GameServer.STEP);

    @Test
    void heWatchesForFourSecondsThenRestsForTen() {
        Entity guard = world.spawn(GUARD.trait());
        world.advance(4);
        assertThat(world, guard).machine(GUARD).isIn("patrol.rest").hasSecondsLeft(10);
        world.advance(10);
        assertThat(world, guard).machine(GUARD).isIn("patrol.watch");
    }

    @Test
    void anAlarmSendsHimToHisPostAndAllClearResumesHisWatchWhereHeLeftIt() {
        Entity guard = world.spawnIn(GUARD, "patrol.watch").waited(3).entity();
        world.send(GUARD, guard, "ALARM");
        assertThat(world, guard).machine(GUARD).isIn("post").hasContext("one alarm answered", g -> g.alarms == 1);
        world.advance(30);
        world.send(GUARD, guard, "ALL_CLEAR");
        assertThat(world, guard).machine(GUARD).isIn("patrol.watch").hasSecondsLeft(1);
    }
}

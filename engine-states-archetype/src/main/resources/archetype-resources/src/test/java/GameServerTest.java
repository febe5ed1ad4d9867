package ${package};

import dev.dominion.ecs.api.Entity;
import org.junit.jupiter.api.Test;

import static ${package}.Guard.GUARD;
import static ${package}.Siege.WAVE_SECONDS;
import static dev.enginestates.testing.StateAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The whole server: the guards follow the siege, and a checkpoint brings the keep back after a restart. */
class GameServerTest {
    @Test
    void theGuardsGoToTheirPostsForEachWaveAndBackToTheirPatrolAfterIt() {
        try (GameServer server = GameServer.open(10)) {
            server.startSiege();
            assertEquals(10, server.guardsIn("post"));
            run(server, WAVE_SECONDS);
            assertEquals("breather", server.phase());
            assertEquals(0, server.guardsIn("post"));
            assertEquals(10, server.guardsIn("patrol"));
        }
    }

    @Test
    void aCheckpointBringsTheKeepBackInAFreshServer() {
        String checkpoint;
        double left;
        try (GameServer server = GameServer.open(10)) {
            run(server, 5);
            server.startSiege();
            run(server, WAVE_SECONDS + 2);
            checkpoint = server.checkpoint();
            left = GUARD.read(server.world().entity("guard-7")).secondsLeft();
        }
        try (GameServer restored = GameServer.restore(checkpoint)) {
            assertEquals("breather", restored.phase());
            // called to his post a second into his rest, he went back to it when the wave ended
            Entity guard = restored.world().entity("guard-7");
            assertThat(restored.world(), guard).machine(GUARD).isIn("patrol.rest").hasContext("one alarm answered", g -> g.alarms == 1);
            assertEquals(left, GUARD.read(guard).secondsLeft(), "his rest's seconds left, exactly");
            assertEquals(checkpoint, restored.checkpoint(), "the restored records, saved again");
        }
    }

    private static void run(GameServer server, double seconds) {
        for (long i = Math.round(seconds / GameServer.STEP); i > 0; i--) {
            server.tick();
        }
    }
}

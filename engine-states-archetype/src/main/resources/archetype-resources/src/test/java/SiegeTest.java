package ${package};

import dev.enginestates.testing.WorldFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static ${package}.Siege.BREATHER_SECONDS;
import static ${package}.Siege.SIEGE;
import static ${package}.Siege.WAVES;
import static ${package}.Siege.WAVE_SECONDS;
import static dev.enginestates.testing.StateAssertions.assertThat;

/** The siege on the kit's world, wave after wave. */
class SiegeTest {
    @RegisterExtension
    static WorldFixture world = WorldFixture.fixedStep(GameServer.STEP);

    @Test
    void itWaitsForStart() {
        world.add(SIEGE);
        world.advance(60);
        assertThat(world).machine(SIEGE).isIn("waiting").hasContext("no wave yet", s -> s.wave == 0);
    }

    @Test
    void aBreatherFollowsEachWaveAndTheLastWaveEndsTheSiege() {
        world.add(SIEGE);
        world.send(SIEGE, "START");
        for (int wave = 1; wave < WAVES; wave++) {
            int begun = wave;
            assertThat(world).machine(SIEGE).isIn("fight").hasContext("wave " + begun, s -> s.wave == begun);
            world.advance(WAVE_SECONDS);
            assertThat(world).machine(SIEGE).isIn("breather").hasSecondsLeft(BREATHER_SECONDS);
            world.advance(BREATHER_SECONDS);
        }
        world.advance(WAVE_SECONDS);
        assertThat(world).machine(SIEGE).isIn("over").isDone().hasContext("every wave", s -> s.wave == WAVES);
    }
}

package dev.enginestates.samples;

import dev.enginestates.declare.Event;
import dev.enginestates.declare.UnknownEventException;
import dev.enginestates.testing.WorldFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;

import static dev.enginestates.samples.SiegeSample.SIEGE;
import static dev.enginestates.testing.StateAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The siege as the world's own machine (the 003 document's first example), and the sample's wave system. */
class SiegeSampleTest {
    @RegisterExtension
    static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);

    /** Runs the wave system before each step, as the sample's main does, until the given time. */
    private static void play(SiegeSample.WaveSystem waves, double until) {
        while (world.time() < until - 1e-9) {
            waves.run(world.world());
            world.advanceSteps(1);
        }
    }

    @Test
    void threeWavesHeldEachWithATwelveSecondBreatherThenAllDown() {
        world.add(SIEGE);
        assertThat(world).machine(SIEGE).isIn("waiting").hasTag("waiting");
        assertTrue(world.send(SIEGE, "START"));
        SiegeSample.WaveSystem waves = new SiegeSample.WaveSystem();
        play(waves, 20);
        assertThat(world).machine(SIEGE).isIn("fight").hasContext(s -> s.wave == 0);
        play(waves, 20 + 1.0 / 60);
        assertThat(world).machine(SIEGE).isIn("breather").hasContext("one wave held", s -> s.wave == 1).hasWaited(1.0 / 60);
        play(waves, 32);
        assertThat(world).machine(SIEGE).isIn("fight");
        play(waves, 96);
        assertThat(world).machine(SIEGE).isIn("fight").hasContext("three waves held", s -> s.wave == 3);
        play(waves, 106 + 1.0 / 60);
        assertThat(world).machine(SIEGE).isIn("over").hasTag("over").doesNotHaveTag("fight");
        assertEquals(List.of(world.world().entity()), world.world().query(SIEGE.is("over")).list());
    }

    @Test
    void aBreatherStartedHalfwayFightsAgainWhenItsTwelveSecondsAreUp() {
        // 003: "Siege.read(world).secondsLeft; // 12, the seconds its wait has left"
        world.startIn(SIEGE, "breather").waited(6).context(s -> s.wave = 2);
        assertThat(world).machine(SIEGE).hasSecondsLeft(6).hasTag("breather");
        world.advance(6);
        assertThat(world).machine(SIEGE).isIn("fight").isNotWaiting().hasContext(s -> s.wave == 2);
    }

    @Test
    void waveHeldCarriesItsWaveAndHaltIsNoEventOfTheSiege() {
        // 003: "An event carries fields as XState's do: Siege.send(world, { type: "WAVE_HELD", wave: 3 })"
        world.add(SIEGE);
        world.script()
                .send(SIEGE, "WAVE_HELD").refused()   // waiting names no WAVE_HELD
                .send(SIEGE, "START").taken()
                .send(SIEGE, Event.of("WAVE_HELD", Map.of("wave", 3))).taken()
                .run();
        assertThat(world).machine(SIEGE).isIn("breather").hasSecondsLeft(12).hasContext(s -> s.wave == 1);
        // 003: "Sending an event that no state names, such as Siege.send(world, "HALT"), is a type error"
        UnknownEventException e = assertThrows(UnknownEventException.class, () -> world.send(SIEGE, "HALT"));
        assertEquals(List.of("START", "WAVE_HELD", "ALL_DOWN"), e.knownEvents());
    }
}

package dev.enginestates.samples.paths;

import dev.enginestates.samples.Guard;
import dev.enginestates.testing.MachinePath;
import dev.enginestates.testing.MachinePaths;
import dev.enginestates.testing.TransitionCoverage;
import dev.enginestates.testing.WorldFixture;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The guard sample's generated paths, run as dynamic tests on the fixture's virtual clock, with
 * its transition coverage held at 100%: the rest is reached only by waiting out the watch's 4 s.
 */
class GuardPathsTest {
    @RegisterExtension
    static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);

    @RegisterExtension
    static TransitionCoverage coverage = TransitionCoverage.of(Guard.MACHINE).failBelow(1.0).quiet();

    @TestFactory
    Stream<DynamicTest> everyStateAndTransitionOfTheGuard() {
        return MachinePaths.of(Guard.MACHINE).tests(world, (state, guard) -> {
            if (state.equals("ANSWER")) {
                assertTrue(guard.context().bells > 0, "a guard answering has counted the bell");
            }
            if (state.equals("PATROL.WATCH")) {
                assertTrue(guard.secondsLeft() > 0 && guard.secondsLeft() <= 4, "a watch lasts at most 4 s");
            }
        });
    }

    @Test
    void pathsWithWaitsReachTheRestAndTakeBothWaits() {
        MachinePaths<Guard> paths = MachinePaths.of(Guard.MACHINE);
        assertEquals(List.of(), paths.unreached());
        Map<String, MachinePath> states = paths.toStates();
        assertEquals(List.of("PATROL", "PATROL.WATCH", "PATROL.REST", "ANSWER"), List.copyOf(states.keySet()));
        assertEquals("PATROL.WATCH \u2013(4 s)\u2192 PATROL.REST", states.get("PATROL.REST").name());
        Map<String, MachinePath> transitions = paths.toTransitions();
        assertEquals(5, transitions.size(), transitions.keySet().toString());
        assertEquals("PATROL.WATCH \u2013(4 s)\u2192 PATROL.REST \u2013(10 s)\u2192 PATROL.WATCH",
                transitions.get("PATROL.REST \u2013wait 10 s\u2192 PATROL.WATCH").name());
    }
}

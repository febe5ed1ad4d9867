package dev.enginestates.samples.docs;

import dev.enginestates.testing.MachinePaths;
import dev.enginestates.testing.TransitionCoverage;
import dev.enginestates.testing.WorldFixture;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.stream.Stream;

import static dev.enginestates.samples.docs.Restart.GUARD;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** docs/testing.md's generated paths and coverage, compiled and run (its lines are checked by {@link DocsCodeTest}). */
public class GeneratedPathsKitTest {
    @RegisterExtension static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);
    @RegisterExtension static TransitionCoverage coverage = TransitionCoverage.of(GUARD).failBelow(1.0);

    @TestFactory Stream<DynamicTest> everyStateAndTransition() {
        return MachinePaths.of(GUARD).tests(world, (state, guard) -> {
            if (state.equals("answer")) assertTrue(guard.context().bells > 0, "answering counts the bell");
            if (state.equals("patrol.rest")) assertTrue(guard.waited() < 10, "a rest ends after 10 s");
        });
    }
}

/**
 * What a game's own tests use: a headless world at a fixed step ({@link dev.enginestates.testing.WorldFixture},
 * a JUnit 5 extension), machines started in any state with their waits and history arranged
 * ({@link dev.enginestates.testing.Start}), scripted sequences of sends and time
 * ({@link dev.enginestates.testing.Script}) and fluent assertions whose failures print the
 * machine's state, seconds and context ({@link dev.enginestates.testing.StateAssertions}).
 *
 * <pre>{@code
 * @RegisterExtension
 * static WorldFixture world = WorldFixture.fixedStep(1.0 / 60);
 *
 * @Test
 * void theBellCallsTheGuardAndResumeBringsHimBack() {
 *     Entity guard = world.spawnIn(GUARD, "patrol.watch").waited(3).entity();
 *     world.script()
 *          .send(GUARD, guard, "BELL").taken()
 *          .advance(2.0)
 *          .send(GUARD, guard, "RESUME").taken()
 *          .run();
 *     assertThat(world, guard).machine(GUARD).isIn("patrol.watch").hasSecondsLeft(1.0);
 * }
 * }</pre>
 *
 * <p>Builder-style machines ({@code dev.enginestates.fsm}) are started
 * some seconds into a state on their own with {@link dev.enginestates.testing.BuilderStart} and
 * on an entity with {@code world.spawnIn(COMBO, fighter, "Attack").timeInState(0.2)}, and read
 * with {@code assertThat(fsm)} or {@code assertThat(world, entity).machine(COMBO)}:
 * {@code hasState}, {@code hasPrevious}, {@code hasTimeInState}, {@code hasProgress},
 * {@code isInWindow}, {@code isNotInWindow}. {@link dev.enginestates.testing.WorldFixture#splitStep}
 * splits a tick into {@code advance}, the tick's work and {@code runStates}.
 */
package dev.enginestates.testing;

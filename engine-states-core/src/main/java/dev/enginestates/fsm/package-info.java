/**
 * The builder style: a flat finite state machine whose states are
 * handlers returning the next state's name, declared with {@link dev.enginestates.fsm.StateMachineBuilder}
 * by annotations or lambdas, with per-state duration, tag, windows, data, motion and delay, and
 * a context contract ({@link dev.enginestates.declare.StateContextCore}) the machine writes its
 * clock and metadata into.
 *
 * <p>Run it on a plain object with this package's {@link dev.enginestates.fsm.StateMachine}
 * (not {@code dev.enginestates.plain.StateMachine}, which runs the other two styles), or on an
 * entity with {@code States.of(definition)}.
 *
 * <p>Layers: the contract and value types here ({@code StateContextCore}, {@code StateHandler},
 * {@code Window}, {@code StateMotionProfile}) are declarations, which the compiled chart and
 * the algorithm ({@code BuilderInterpreter}) read; the builder and the machine are the face,
 * on top of the algorithm. Nothing the algorithm uses depends on the face.
 */
package dev.enginestates.fsm;

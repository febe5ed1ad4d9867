/**
 * The running cell behind the plain-object faces ({@code plain.StateMachine} and
 * {@code fsm.StateMachine}): one machine's record, its style's runtime, its scratch space, its
 * own clock and its listeners. The faces are adapters over it. Not exported: it is the engine's own.
 */
package dev.enginestates.running;

/**
 * Layer 4, the algorithm: XState v5's event processing over (chart, record, event), in place
 * and allocation-free once warm. Scratch space belongs to an {@link
 * dev.enginestates.algorithm.Interpreter}, one per world or plain-object machine, never to the
 * shared chart. Internal: faces call it; games do not.
 */
package dev.enginestates.algorithm;

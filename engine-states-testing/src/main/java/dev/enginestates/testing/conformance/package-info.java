/**
 * Replays statechart traces recorded from XState (the format of the project's conformance
 * corpus) against this engine, and reports the first difference of each.
 */
package dev.enginestates.testing.conformance;

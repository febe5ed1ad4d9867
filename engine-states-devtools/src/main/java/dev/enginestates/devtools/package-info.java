/**
 * Layer 8, the devtools: a page served over HTTP that shows a world's machines, an inspector of
 * each entity's machines, the fact lines and a diagram of a machine, live while the world steps,
 * and can set a state by hand ({@link dev.enginestates.devtools.Devtools}). It reads the world on
 * the world's thread only, and writes its snapshots with Jackson, like the I/O layer.
 */
package dev.enginestates.devtools;

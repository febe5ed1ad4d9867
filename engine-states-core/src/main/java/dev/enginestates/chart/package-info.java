/**
 * Layer 2, the compiled chart: the definition tree turned into int arrays (states numbered in
 * document order, every target resolved), validated once. Immutable and shared by every
 * instance on every thread. Internal: its shape may change between versions.
 */
package dev.enginestates.chart;

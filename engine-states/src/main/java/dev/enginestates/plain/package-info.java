/**
 * Layer 5, the plain-object face: one machine over one context object, with no ECS. What a
 * headless tool, a unit test or the conformance replayer drives.
 */
package dev.enginestates.plain;

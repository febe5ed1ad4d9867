/**
 * Layer 5, the ECS face: a machine as Dominion components. Each machine has a record
 * component type of its own ({@link dev.enginestates.ecs.StateRecord}) and one tag component
 * type per state; {@link dev.enginestates.ecs.StateWorld} is a thin facade over Dominion that
 * spawns, sends, queries by tag and runs the fixed step (waits, {@code when} rules, holds).
 * The algorithm below it knows nothing of Dominion.
 */
package dev.enginestates.ecs;

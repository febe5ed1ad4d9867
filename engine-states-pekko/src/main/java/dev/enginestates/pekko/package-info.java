/**
 * Rooms of engine-states worlds on an Apache Pekko cluster: a game describes its room once
 * ({@link dev.enginestates.pekko.RoomKind}), starts the rooms on each node
 * ({@link dev.enginestates.pekko.Rooms#start}) and sends them its commands. Cluster sharding
 * places the rooms and moves them off a dead node; Pekko persistence keeps each as its events
 * (opened, commands applied, steps run, incarnations) and its snapshots (the world's checkpoint),
 * so a moved room comes back exactly where it was and catches up with its clock.
 * {@link dev.enginestates.pekko.Room} runs one room with nothing of Pekko, for a game's tests.
 */
package dev.enginestates.pekko;

package dev.enginestates.samples.pekko;

/**
 * What a room is made of and how it runs: the same on every node.
 *
 * @param guards        guards spawned when the room opens, keyed {@code guard-000} up
 * @param dt            the fixed step's seconds of game time
 * @param tickMillis    how often the room's timer looks for due steps
 * @param snapshotEvery a checkpoint is saved as the snapshot every this many steps
 * @param maxCatchUp    the most steps one tick runs when the room is behind the wall clock (after a move)
 */
public record RoomDefinition(int guards, double dt, long tickMillis, int snapshotEvery, int maxCatchUp) {
    /**
     * Checks the numbers.
     *
     * @throws IllegalArgumentException if a number is out of range
     */
    public RoomDefinition {
        if (guards < 0 || !(dt > 0) || tickMillis <= 0 || snapshotEvery <= 0 || maxCatchUp <= 0) {
            throw new IllegalArgumentException("room definition: expected guards >= 0, dt > 0, tickMillis > 0, snapshotEvery > 0,"
                    + " maxCatchUp > 0; found " + this);
        }
    }

    /**
     * Ten steps a second, looked for every 100 ms, a snapshot every 50 steps (5 s of game time).
     *
     * @param guards the guards per room
     * @return the definition
     */
    public static RoomDefinition of(int guards) {
        return new RoomDefinition(guards, 0.1, 100, 50, 100);
    }
}

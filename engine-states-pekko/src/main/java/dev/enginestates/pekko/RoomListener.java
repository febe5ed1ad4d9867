package dev.enginestates.pekko;

/**
 * What rooms tell whoever watches the cluster: a game's metrics, a test. Called on the room's
 * actor, so it must return quickly and keep nothing of the room. A listener that throws is logged
 * and the room goes on.
 */
public interface RoomListener {
    /** A listener that hears nothing. */
    RoomListener NONE = new RoomListener() {
    };

    /**
     * A room finished its recovery on a node (a new room's empty one included).
     *
     * @param roomId        the room
     * @param node          the node's address
     * @param steps         the steps the recovered world had taken (-1 for a room not yet opened)
     * @param lastSeq       the last command the recovered room had applied (0 for none)
     * @param recoveryNanos from the actor's start to the end of its recovery (snapshot restored, events replayed)
     * @param room          the recovered room, readable only during this call (closing, stepping or commanding it is
     *                      refused: the room changes only through its journal); {@code null} for a room not yet opened
     */
    default void recovered(String roomId, String node, long steps, long lastSeq, long recoveryNanos, Room<?> room) {
    }

    /**
     * Steps the journal confirmed written.
     *
     * @param roomId the room
     * @param node   the node's address
     * @param steps  the world's steps once the written step event is applied
     */
    default void stepsPersisted(String roomId, String node, long steps) {
    }

    /**
     * The game's code threw in a room: its command's application, a machine's action, guard or
     * wait during a step, or its opening. The room goes on: the command counts as not taken, the
     * step completed for every other machine, the opening kept what it spawned; a recovery meets
     * the same throw at the same place, does the same and does not tell again. By default the
     * failure is logged as a WARNING (the first, then at most one each 10 s with how many were
     * left out).
     *
     * @param roomId the room
     * @param node   the node's address
     * @param where  what threw, such as {@code step 17: machine 'guard' on entity 'guard-17', in 'answer', event 'BELL'}
     * @param error  what it threw
     */
    default void failed(String roomId, String node, String where, RuntimeException error) {
        SparseLog.ROOM_FAILURES.warn("room '" + roomId + "' on " + node + ": the game's code threw in " + where
                + "; the room goes on", error);
    }
}

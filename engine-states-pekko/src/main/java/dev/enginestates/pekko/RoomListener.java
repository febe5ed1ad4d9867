package dev.enginestates.pekko;

/**
 * What rooms tell whoever watches the cluster: a game's metrics, a test. Called on the room's
 * actor, so it must return quickly and keep nothing of the room.
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
     * @param room          the recovered room, readable only during this call; {@code null} for a room not yet opened
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
}

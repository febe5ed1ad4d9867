package dev.enginestates.pekko;

import org.apache.pekko.actor.typed.ActorRef;

/**
 * One piece of a player's frame, as a room sends it to a subscription: a frame's text cut into
 * pieces of at most {@link Rooms#PIECE_CHARS} characters, so that no cluster message exceeds
 * Artery's frame size whatever the room's size. The receiver joins them ({@link FrameJoin}).
 *
 * @param roomId the room
 * @param epoch  the stream's epoch: the incarnation of the room's home that made the frame
 * @param room   the room's actor that sent it
 * @param index  this piece's place in its frame, from 0
 * @param count  how many pieces the frame has, at least 1
 * @param text   this piece of the frame's text
 */
record FramePiece(String roomId, long epoch, ActorRef<?> room, int index, int count, String text)
        implements RoomMessage {

    /**
     * How many pieces a frame's text is cut into.
     *
     * @param frame the frame's whole text
     * @return at least 1
     */
    static int count(String frame) {
        int count = 1;
        for (int start = end(frame, 0); start < frame.length(); start = end(frame, start)) {
            count++;
        }
        return count;
    }

    /**
     * Where the piece that starts at {@code start} ends: {@link Rooms#PIECE_CHARS} characters on,
     * or one less so that a surrogate pair stays in one piece (Jackson refuses to write half of one).
     *
     * @param frame the frame's whole text
     * @param start the piece's first character
     * @return the index after its last character
     */
    static int end(String frame, int start) {
        int end = Math.min(frame.length(), start + Rooms.PIECE_CHARS);
        return end < frame.length() && Character.isHighSurrogate(frame.charAt(end - 1)) ? end - 1 : end;
    }
}

package dev.enginestates.pekko;

import org.apache.pekko.actor.typed.ActorRef;

import java.util.Objects;

/**
 * Joins one subscription's {@link FramePiece}s back into whole frames, on the subscriber's actor.
 * A room sends a frame's pieces one after another, and Artery keeps their order from one sender
 * to one receiver; anything else (a piece of another epoch or another room's actor, one out of
 * order, the room's actor gone mid-frame) means the frame cannot be whole: what was joined of it
 * is dropped, never handed on, and the subscriber subscribes again for a whole frame. What it
 * holds is bounded by {@link Rooms#MAX_FRAME_CHARS}. Not thread-safe: one actor's state.
 */
final class FrameJoin {
    /** What a piece made of the frame being joined. */
    enum Step {
        /** The frame is not whole yet, or the piece was the rest of a frame already dropped. */
        WAITING,
        /** The piece completed a frame: {@link #whole()} gives it. */
        WHOLE,
        /** A frame was left incomplete and is dropped: subscribe again for a whole frame. */
        DROPPED,
        /** The piece cannot be taken (above the bound, or malformed): {@link #refusal()} says why; end the subscription. */
        REFUSED
    }

    private final String roomId;
    private final String player;
    /** The frame being joined; null when none is, so an idle subscription holds no text. */
    private StringBuilder text;
    private ActorRef<?> room;
    private long epoch;
    private int count;
    private int next;
    /** After a drop: the pieces of the frame cut off are passed over until a frame starts. */
    private boolean skipping;
    private Rooms.Frame whole;
    private String refusal;

    /**
     * A join for one subscription.
     *
     * @param roomId the room subscribed to, for messages
     * @param player the player subscribed, for messages
     */
    FrameJoin(String roomId, String player) {
        this.roomId = roomId;
        this.player = player;
    }

    /**
     * Takes the next piece the room sent.
     *
     * @param piece the piece
     * @return what it made
     */
    Step add(FramePiece piece) {
        whole = null;
        if (piece.text() == null || piece.count() < 1 || piece.index() < 0 || piece.index() >= piece.count()) {
            return refuse("room '" + roomId + "' sent player " + player + " a malformed piece of a frame (piece " + piece.index()
                    + " of " + piece.count() + (piece.text() == null ? ", no text" : "") + "); expected pieces 0 to count - 1 with text");
        }
        if (piece.count() > maxPieces()) {
            return refuse("room '" + roomId + "' sent player " + player + " a frame of " + piece.count() + " pieces, above the "
                    + maxPieces() + " pieces (" + Rooms.MAX_FRAME_CHARS
                    + " characters) a subscription joins; the room's frames for this player are too big to follow");
        }
        if (text != null) {
            if (piece.index() != next || piece.epoch() != epoch || piece.count() != count || !Objects.equals(piece.room(), room)) {
                return drop();
            }
        } else if (piece.index() != 0) {
            // the rest of a frame cut off: one drop asks for one whole frame, not one per stray piece
            return skipping ? Step.WAITING : drop();
        } else {
            skipping = false;
            if (piece.count() == 1) {
                whole = new Rooms.Frame(piece.roomId(), piece.epoch(), piece.text(), piece.room());
                return Step.WHOLE;
            }
            text = new StringBuilder();
            room = piece.room();
            epoch = piece.epoch();
            count = piece.count();
        }
        if (text.length() + (long) piece.text().length() > Rooms.MAX_FRAME_CHARS) {
            return refuse("room '" + roomId + "' sent player " + player + " a frame above " + Rooms.MAX_FRAME_CHARS
                    + " characters, the most a subscription joins; the room's frames for this player are too big to follow");
        }
        text.append(piece.text());
        next = piece.index() + 1;
        if (next < count) {
            return Step.WAITING;
        }
        whole = new Rooms.Frame(piece.roomId(), epoch, text.toString(), room);
        text = null;
        room = null;
        return Step.WHOLE;
    }

    /**
     * The room's actor ended: a frame it left part-sent is dropped.
     *
     * @param gone the room's actor that ended
     * @return whether a frame was dropped (subscribe again for a whole one)
     */
    boolean roomGone(ActorRef<?> gone) {
        if (text == null || !Objects.equals(gone, room)) {
            return false;
        }
        drop();
        return true;
    }

    /**
     * The frame the last piece completed.
     *
     * @return the frame, after {@link Step#WHOLE}; else null
     */
    Rooms.Frame whole() {
        return whole;
    }

    /**
     * Why the last piece was refused.
     *
     * @return the reason, after {@link Step#REFUSED}
     */
    String refusal() {
        return refusal;
    }

    /**
     * Whether part of a frame is held.
     *
     * @return true while a frame is being joined
     */
    boolean joining() {
        return text != null;
    }

    private Step drop() {
        text = null;
        room = null;
        skipping = true;
        return Step.DROPPED;
    }

    private Step refuse(String why) {
        text = null;
        room = null;
        refusal = why;
        return Step.REFUSED;
    }

    /** The pieces of a frame at the bound: a piece may be one character short, to keep a surrogate pair whole. */
    private static int maxPieces() {
        return Rooms.MAX_FRAME_CHARS / (Rooms.PIECE_CHARS - 1) + 1;
    }
}

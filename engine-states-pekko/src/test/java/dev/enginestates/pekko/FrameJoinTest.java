package dev.enginestates.pekko;

import com.typesafe.config.ConfigFactory;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A subscription joins a room's pieces into whole frames, and never hands on part of one. */
class FrameJoinTest {
    private static ActorSystem<Void> system;
    /** Two room actors (local ones: only their identity matters here). */
    private static ActorRef<Object> home;
    private static ActorRef<Object> newHome;

    @BeforeAll
    static void start() {
        system = ActorSystem.create(Behaviors.empty(), "frame-join", ConfigFactory.parseString("pekko.actor.provider = local")
                .withFallback(ConfigFactory.load()));
        home = system.systemActorOf(Behaviors.empty(), "home", Props.empty());
        newHome = system.systemActorOf(Behaviors.empty(), "new-home", Props.empty());
    }

    @AfterAll
    static void stop() throws Exception {
        system.terminate();
        system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    /** A frame's text of this many characters, each place telling its index apart. */
    private static String text(int chars) {
        StringBuilder b = new StringBuilder(chars);
        for (int i = 0; b.length() < chars; i++) {
            b.append(i).append(',');
        }
        b.setLength(chars);
        return b.toString();
    }

    /** The pieces a room cuts a frame into. */
    private static List<FramePiece> pieces(long epoch, ActorRef<?> room, String frame) {
        List<FramePiece> pieces = new ArrayList<>();
        int count = FramePiece.count(frame);
        int start = 0;
        for (int i = 0; i < count; i++) {
            int end = FramePiece.end(frame, start);
            pieces.add(new FramePiece("r", epoch, room, i, count, count == 1 ? frame : frame.substring(start, end)));
            start = end;
        }
        assertEquals(frame.length(), start, "the pieces cover the frame");
        return pieces;
    }

    @Test
    void aFrameCutIntoPiecesIsHandedOnWholeOnceItsLastPieceArrivesAndNoPieceExceedsTheBound() {
        String frame = text(3 * Rooms.PIECE_CHARS + 17);
        List<FramePiece> pieces = pieces(1, home, frame);
        assertEquals(4, pieces.size());
        FrameJoin join = new FrameJoin("r", "alice");
        for (int i = 0; i < pieces.size() - 1; i++) {
            assertTrue(pieces.get(i).text().length() <= Rooms.PIECE_CHARS);
            assertEquals(FrameJoin.Step.WAITING, join.add(pieces.get(i)));
            assertNull(join.whole(), "part of a frame was handed on");
        }
        assertEquals(FrameJoin.Step.WHOLE, join.add(pieces.get(3)));
        assertEquals(new Rooms.Frame("r", 1, frame, home), join.whole());
        assertFalse(join.joining(), "a joined frame's text is let go");
        // a small frame is one piece, taken as it is
        assertEquals(FrameJoin.Step.WHOLE, join.add(pieces(1, home, "{}").get(0)));
        assertEquals("{}", join.whole().text());
    }

    @Test
    void aSurrogatePairIsNeverCutBetweenTwoPieces() {
        // an emoji (two chars) straddling the first cut
        String frame = text(Rooms.PIECE_CHARS - 1) + "\uD83D\uDE00" + text(100);
        List<FramePiece> pieces = pieces(1, home, frame);
        for (FramePiece p : pieces) {
            assertFalse(Character.isHighSurrogate(p.text().charAt(p.text().length() - 1)), "piece " + p.index() + " ends in half a pair");
        }
        FrameJoin join = new FrameJoin("r", "alice");
        pieces.forEach(join::add);
        assertEquals(frame, join.whole().text());
    }

    @Test
    void aFrameInterruptedByANewEpochIsDroppedWholeAndNothingHalfIsHandedOnUntilAFrameStartsAfresh() {
        List<FramePiece> old = pieces(1, home, text(3 * Rooms.PIECE_CHARS));
        List<FramePiece> next = pieces(2, newHome, text(2 * Rooms.PIECE_CHARS + 5));
        FrameJoin join = new FrameJoin("r", "alice");
        assertEquals(FrameJoin.Step.WAITING, join.add(old.get(0)));
        assertEquals(FrameJoin.Step.WAITING, join.add(old.get(1)));
        // the room's new home starts a frame of a larger epoch before the old frame's last piece
        assertEquals(FrameJoin.Step.DROPPED, join.add(next.get(0)), "subscribe again");
        assertNull(join.whole());
        assertFalse(join.joining(), "the cut frame's text is let go");
        // the rest of both cut frames: passed over, neither handed on nor asking again
        assertEquals(FrameJoin.Step.WAITING, join.add(old.get(2)));
        assertEquals(FrameJoin.Step.WAITING, join.add(next.get(1)));
        assertEquals(FrameJoin.Step.WAITING, join.add(next.get(2)));
        assertNull(join.whole());
        // the whole frame the new subscription brings
        String fresh = text(2 * Rooms.PIECE_CHARS + 9);
        List<FramePiece> again = pieces(2, newHome, fresh);
        assertEquals(FrameJoin.Step.WAITING, join.add(again.get(0)));
        assertEquals(FrameJoin.Step.WAITING, join.add(again.get(1)));
        assertEquals(FrameJoin.Step.WHOLE, join.add(again.get(2)));
        assertEquals(new Rooms.Frame("r", 2, fresh, newHome), join.whole());
    }

    @Test
    void aPieceOutOfOrderDropsTheFrameWhole() {
        List<FramePiece> pieces = pieces(1, home, text(3 * Rooms.PIECE_CHARS));
        FrameJoin join = new FrameJoin("r", "alice");
        assertEquals(FrameJoin.Step.WAITING, join.add(pieces.get(0)));
        assertEquals(FrameJoin.Step.DROPPED, join.add(pieces.get(2)));
        assertEquals(FrameJoin.Step.WAITING, join.add(pieces.get(1)));
        assertNull(join.whole());
        // a piece from another actor of the same epoch cannot be part of it either
        List<FramePiece> twin = pieces(1, newHome, text(2 * Rooms.PIECE_CHARS));
        assertEquals(FrameJoin.Step.WAITING, join.add(pieces.get(0)));
        assertEquals(FrameJoin.Step.DROPPED, join.add(twin.get(1)));
        assertNull(join.whole());
    }

    @Test
    void theRoomGoneMidFrameDropsWhatWasJoined() {
        List<FramePiece> pieces = pieces(1, home, text(3 * Rooms.PIECE_CHARS));
        FrameJoin join = new FrameJoin("r", "alice");
        join.add(pieces.get(0));
        assertFalse(join.roomGone(newHome), "another room's actor ending cuts nothing");
        assertTrue(join.joining());
        assertTrue(join.roomGone(home));
        assertFalse(join.joining());
        assertEquals(FrameJoin.Step.WAITING, join.add(pieces.get(1)));
        assertEquals(FrameJoin.Step.WAITING, join.add(pieces.get(2)));
        assertNull(join.whole());
    }

    @Test
    void aFrameAboveTheJoinBoundIsRefusedSayingWhyAndHoldsNoText() {
        FrameJoin join = new FrameJoin("r", "alice");
        // announced too big: refused before any text is held
        assertEquals(FrameJoin.Step.REFUSED, join.add(new FramePiece("r", 1, home, 0, 100_000, "x")));
        assertTrue(join.refusal().contains("room 'r'") && join.refusal().contains("alice")
                && join.refusal().contains(String.valueOf(Rooms.MAX_FRAME_CHARS)), join.refusal());
        assertFalse(join.joining());
        // pieces bigger than a room sends, within the announced count: refused once the text would pass the bound
        String big = "y".repeat(1024 * 1024);
        int count = 20;
        FrameJoin peer = new FrameJoin("r", "bob");
        FrameJoin.Step step = FrameJoin.Step.WAITING;
        int taken = 0;
        while (step == FrameJoin.Step.WAITING) {
            step = peer.add(new FramePiece("r", 1, home, taken, count, big));
            taken++;
        }
        assertEquals(FrameJoin.Step.REFUSED, step);
        assertEquals(Rooms.MAX_FRAME_CHARS / big.length() + 1, taken, "refused at the piece that passes the bound");
        assertFalse(peer.joining(), "the refused text is let go");
        assertTrue(peer.refusal().contains("bob"), peer.refusal());
        // malformed pieces
        assertEquals(FrameJoin.Step.REFUSED, new FrameJoin("r", "carol").add(new FramePiece("r", 1, home, 3, 2, "z")));
        assertEquals(FrameJoin.Step.REFUSED, new FrameJoin("r", "carol").add(new FramePiece("r", 1, home, 0, 1, null)));
    }
}

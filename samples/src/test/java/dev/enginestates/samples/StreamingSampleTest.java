package dev.enginestates.samples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The streaming sample: a room served over HTTP with server-sent events, two replica clients on
 * their own threads, bob joining late. Both end holding the room's records as far as each may see
 * them, and alice's ownerOnly conversation never reaches bob.
 */
class StreamingSampleTest {
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS) // generous: the run takes well under a second when the machine is idle
    void bothReplicasEndEqualToTheRoomAndTheLateOneNeverReceivesAlicesConversation() throws Exception {
        StreamingSample.Result r = StreamingSample.run(false);
        assertTrue(r.bobJoinedAt >= StreamingSample.BOB_OPENS && r.bobJoinedAt <= StreamingSample.BOB_JOINED_BY,
                "bob joined mid-run, at step " + r.bobJoinedAt);
        assertEquals(StreamingSample.STEPS, r.frames.get("alice"), "alice got a frame every step");
        assertEquals(StreamingSample.STEPS - r.bobJoinedAt, r.frames.get("bob"), "bob from the step he joined at");
        assertTrue(StreamingSample.sameJson(StreamingSample.seenBy(r.room, "alice"), r.replicas.get("alice")),
                "alice's replica holds the room's records:\n" + r.replicas.get("alice") + "\nthe room:\n" + r.room);
        assertTrue(StreamingSample.sameJson(StreamingSample.seenBy(r.room, "bob"), r.replicas.get("bob")),
                "bob's replica holds the room's records but the talk:\n" + r.replicas.get("bob") + "\nthe room:\n" + r.room);
        assertTrue(r.replicas.get("alice").contains("\"talk\""));
        assertFalse(r.replicas.get("bob").contains("talk"), "the ownerOnly conversation never reached bob");
        assertFalse(r.replicas.get("bob").contains("hero"), "nor the key of the entity that holds only it");
        assertEquals(r.roomAnswering, r.answering.get("alice"), "a tag query on the replica counts what the room counts");
        assertEquals(r.roomAnswering, r.answering.get("bob"));
        assertTrue(r.roomAnswering > 0);
    }
}

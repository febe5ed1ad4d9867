package dev.enginestates.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.declare.Event;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.scxml.Datamodel;
import dev.enginestates.scxml.ScxmlImport;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Does a replica need the room's pending sends to itself (README, known limits)? No: a replica is
 * not stepped, so a send never fires there; it fires on the room, and what it does (states,
 * waits, context, the datamodel's variables) is in the record the next frame brings. So a replica
 * fed every step's frame equals the room after every step, the pending sends left aside; the
 * frames hold no send (a player's page does not learn the room's future events), and a replica
 * promoted to run the room starts from a checkpoint, which has them.
 */
class ReplicaWithSendsTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final double DT = 1.0 / 64;

    static {
        RandomWorlds.quiet();
    }

    public static final class Log {
        public List<String> seen = new ArrayList<>();
    }

    /** Sends itself PING (with a field) and PONG later, again and again while armed. */
    static final States<Log> PINGER = States.define("pinger", Log::new, m -> m
            .initial("idle")
            .state("idle", s -> s.on("ARM", t -> t.target("armed").action((l, e, self) -> {
                self.sendSelf(Event.of("PING", Map.of("n", l.seen.size())), 0.25, "p");
                self.sendSelf(Event.of("PONG"), 0.5, null);
            })))
            .state("armed", s -> s
                    .on("PING", t -> t.target("pinged").action((l, e) -> l.seen.add("ping " + e.fields().get("n")))))
            .state("pinged", s -> s
                    .on("PONG", t -> t.target("armed").action((l, e, self) -> {
                        l.seen.add("pong");
                        if (l.seen.size() < 12) {
                            self.sendSelf(Event.of("PING", Map.of("n", l.seen.size())), 0.25, "p");
                            self.sendSelf(Event.of("PONG"), 0.5, null);
                        }
                    }))));

    static final States<Datamodel> DOOR = States.of(ScxmlImport.create().log((l, v) -> { }).read("""
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="closed" name="door">
              <datamodel><data id="opened" expr="0"/><data id="why" expr="[]"/></datamodel>
              <state id="closed">
                <transition event="open" target="open"><assign location="opened" expr="opened + 1"/></transition>
              </state>
              <state id="open">
                <onentry><send event="close" delay="300ms"><param name="after" expr="opened"/></send></onentry>
                <transition event="close" target="closed"><script>why.push('closed after ' + _event.data.after)</script></transition>
              </state>
            </scxml>
            """));

    /** A checkpoint's tree without the pending sends, which stay on the room. */
    static JsonNode withoutSends(String checkpoint) throws Exception {
        ObjectNode root = (ObjectNode) JSON.readTree(checkpoint);
        for (Iterator<JsonNode> es = root.get("entities").elements(); es.hasNext(); ) {
            for (Iterator<JsonNode> ms = es.next().elements(); ms.hasNext(); ) {
                ((ObjectNode) ms.next()).remove("sends");
            }
        }
        return root;
    }

    /** Whether some record of a checkpoint or frame has pending sends. */
    static boolean hasSends(String text) throws Exception {
        for (Iterator<JsonNode> es = JSON.readTree(text).get("entities").elements(); es.hasNext(); ) {
            for (Iterator<JsonNode> ms = es.next().elements(); ms.hasNext(); ) {
                JsonNode r = ms.next();
                if (r.has("sends")) {
                    return true;
                }
            }
        }
        return false;
    }

    @Test
    void aReplicaFedEveryFrame_equalsTheRoomAfterEveryStep_theSendsFiringOnTheRoomAndTheirEffectsComingInTheFrames() throws Exception {
        Saves saves = Saves.of(PINGER, DOOR);
        try (StateWorld room = StateWorld.create(); StateWorld page = StateWorld.create()) {
            Entity p = room.spawn(EntityKey.of("pinger"), PINGER.trait());
            Entity d = room.spawn(EntityKey.of("door"), DOOR.trait());
            RoomStream stream = RoomStream.of(room, PINGER, DOOR);
            Replica replica = Replica.of(page, "alice", PINGER, DOOR);
            stream.join("alice");
            PINGER.send(p, "ARM");
            int withSendsPending = 0;
            int firedOnTheRoom = 0;
            for (int i = 0; i < 400; i++) {
                if (i % 50 == 0) {
                    DOOR.send(d, "open");
                }
                String before = saves.checkpoint(room);
                room.step(DT);
                String frame = stream.frame("alice");
                assertFalse(hasSends(frame), "a frame carries no pending send");
                replica.apply(frame);
                String now = saves.checkpoint(room);
                withSendsPending += hasSends(now) ? 1 : 0;
                firedOnTheRoom += !withoutSends(before).get("entities").equals(withoutSends(now).get("entities"))
                        && hasSends(before) ? 1 : 0;
                assertEquals(withoutSends(now), withoutSends(saves.checkpoint(page)), "after step " + (i + 1));
                assertFalse(hasSends(saves.checkpoint(page)), "the replica holds no send");
            }
            assertEquals(12, PINGER.read(page.entity("pinger")).context().seen.size(), "every ping and pong reached the replica");
            Datamodel dm = DOOR.read(page.entity("door")).context();
            assertEquals(8.0, dm.toJava(dm.evaluate("opened")));
            assertEquals(8, ((List<?>) dm.toJava(dm.evaluate("why"))).size(), "the door's sends fired on the room, their effects replicated");
            assertTrue(withSendsPending > 100, withSendsPending + " steps ended with sends pending on the room");
            assertEquals(20, firedOnTheRoom, "the steps in which a send fired on the room: the pinger's 6 PINGs and 6 PONGs, the door's 8 closes");
        }
    }
}

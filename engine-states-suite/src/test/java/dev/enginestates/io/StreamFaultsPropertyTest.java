package dev.enginestates.io;

import com.fasterxml.jackson.databind.JsonNode;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Replica: "a frame ... is out of order (its seq is not one more than the last frame's) ... is
 * refused, the replica unchanged; after a refused frame, ask the room for a whole one". For
 * random worlds and random inputs, a player's frames are delivered with faults (one dropped, one
 * delivered twice, two swapped, another room's frame for the same player slipped in): each frame
 * either is refused with the replica unchanged, or is taken and leaves the replica holding exactly the room's records as they were when the room made
 * that frame. A replica never holds records the room never had. After a refusal the room joins
 * the player again, and its next, whole frame brings the replica back.
 */
class StreamFaultsPropertyTest {
    /** Random worlds by default ({@code -Dproperty.runs=N} runs 2N/5, as the other stream property runs N). */
    static final int DEFAULT_RUNS = 100;

    @Test
    void aFrameDroppedRepeatedOrOutOfOrderIsRefusedUnchangedOrLeavesTheReplicaAsTheRoomWasAtThatFrame() {
        int runs = Math.max(1, Integer.getInteger("property.runs", DEFAULT_RUNS) * 2 / 5);
        RandomWorlds.Options options = new RandomWorlds.Options().machinePool(60).tagsOneIn(3);
        long refused = 0;
        long taken = 0;
        long faults = 0;
        for (int run = 1; run <= runs; run++) {
            long seed = 0x5FA1_0000L + run;
            RandomWorlds.Spec spec = RandomWorlds.generate(seed, options);
            Saves saves = spec.saves();
            States<?>[] streamed = spec.states().toArray(new States<?>[0]);
            Map<String, States<?>> byId = new LinkedHashMap<>();
            for (States<?> m : streamed) {
                byId.put(m.id(), m);
            }
            SplittableRandom r = new SplittableRandom(seed * 31 + 7);
            try (StateWorld room = spec.newWorld(); StateWorld page = spec.freshWorld(); StateWorld twin = spec.newWorld()) {
                RoomStream stream = RoomStream.of(room, streamed);
                stream.join("bad");
                // another room with the same machines and keys, streaming to the same player with frames numbered alike;
                // it takes the same spawns, despawns, marks and steps but none of the sends or set states, so it drifts
                RoomStream twinStream = RoomStream.of(twin, streamed);
                twinStream.join("bad");
                Replica replica = Replica.of(page, "bad", streamed);
                // what the player may see of the room when the room made each frame, by the frame's text
                Map<String, JsonNode> roomAt = new HashMap<>();
                String held = null; // a frame kept back, to arrive after the next one
                int n = spec.inputs.size();
                for (int i = 0; i < n; i++) {
                    spec.apply(room, i, i + 1);
                    String frame = stream.frame("bad");
                    roomAt.put(frame, StreamPropertyTest.checkpointSeenBy(room, saves.checkpoint(room), byId, "bad"));
                    RandomWorlds.Input input = spec.inputs.get(i);
                    if (!(input instanceof RandomWorlds.Send) && !(input instanceof RandomWorlds.SetState)) {
                        input.apply(twin);
                    }
                    String twinFrame = twinStream.frame("bad");
                    roomAt.put(twinFrame, StreamPropertyTest.checkpointSeenBy(twin, saves.checkpoint(twin), byId, "bad"));
                    String where = spec + ", after input " + i + " " + spec.inputs.get(i);
                    boolean ok = true;
                    if (held != null) {
                        ok &= deliver(replica, frame, roomAt, saves, where + " (delivered before the frame kept back)");
                        ok &= deliver(replica, held, roomAt, saves, where + " (the frame kept back)");
                        held = null;
                    } else {
                        switch (r.nextInt(10)) {
                            case 0: // dropped
                                faults++;
                                break;
                            case 1: // delivered twice
                                faults++;
                                ok &= deliver(replica, frame, roomAt, saves, where);
                                ok &= deliver(replica, frame, roomAt, saves, where + " (again)");
                                break;
                            case 2: // kept back, to arrive after the next
                                faults++;
                                held = frame;
                                break;
                            case 3: // the other room's frame first: refused, whole or not, since it is of the epoch of the stream followed
                                faults++;
                                if (replica.sequence() > 0) { // taken as its first frame, it would be the room the replica follows
                                    if (deliver(replica, twinFrame, roomAt, saves, where + " (the other room's frame)")) {
                                        fail(where + ": the other room's frame was taken over the stream the replica follows");
                                    }
                                }
                                ok &= deliver(replica, frame, roomAt, saves, where);
                                break;
                            default:
                                ok &= deliver(replica, frame, roomAt, saves, where);
                        }
                    }
                    if (!ok) {
                        refused++;
                        stream.join("bad"); // after a refusal, the room joins the player again
                    } else {
                        taken++;
                    }
                }
                if (held != null) {
                    deliver(replica, held, roomAt, saves, spec + ", the last frame kept back");
                }
                stream.join("bad");
                String last = stream.frame("bad");
                roomAt.put(last, StreamPropertyTest.checkpointSeenBy(room, saves.checkpoint(room), byId, "bad"));
                if (!deliver(replica, last, roomAt, saves, spec + ", a whole frame at the end")) {
                    fail(spec + ": a whole frame at the end was refused");
                }
            }
        }
        dev.enginestates.Figures.printf("stream faults: %d random worlds, %d faults, %d deliveries refused unchanged, %d taken%n",
                runs, faults, refused, taken);
        assertTrue(faults > runs, "the generator makes faults: " + faults);
        assertTrue(refused > runs / 2, "frames are refused: " + refused);
    }

    /** Applies a frame; {@code false} when refused (the replica then unchanged), else the replica is as the room was at the frame. */
    private static boolean deliver(Replica replica, String frame, Map<String, JsonNode> roomAt, Saves saves, String where) {
        String before = saves.checkpoint(replica.world());
        long seq = replica.sequence();
        try {
            replica.apply(frame);
        } catch (StreamException e) {
            if (!before.equals(saves.checkpoint(replica.world())) || seq != replica.sequence()) {
                fail(where + ": a refused frame changed the replica: " + e.getMessage());
            }
            return false;
        }
        JsonNode actual = StreamPropertyTest.parse(saves.checkpoint(replica.world()));
        JsonNode expected = roomAt.get(frame);
        if (!expected.equals(actual)) {
            fail(where + ": a frame was taken, and the replica is not as the room was when it made that frame: "
                    + RandomWorlds.firstDifference(expected.toPrettyString(), actual.toPrettyString()) + "\nframe: " + frame);
        }
        return true;
    }
}

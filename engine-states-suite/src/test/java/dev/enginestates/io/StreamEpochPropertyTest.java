package dev.enginestates.io;

import com.fasterxml.jackson.databind.JsonNode;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * RoomStream and Replica: "a replica never applies a frame from an epoch older than the newest it
 * applied". For random worlds and random inputs, a room moves once or twice to a new home
 * (restored from its checkpoint, streaming with a larger epoch, sometimes several larger), while
 * each home it left runs on for a while, drifting (it takes no more sends or hand-set states),
 * and joins the player again now and then. The frames of all the homes travel together, and
 * are delivered in any order, some dropped, some twice. Each delivery is either refused with
 * the replica unchanged, or taken, and then the replica holds exactly the records the home had
 * when it made that frame, the frame's epoch is at least that of every frame taken before, and
 * a frame of the stream followed is numbered above the last. So after its next frame taken from
 * the newest home the replica equals that home's room, and it never goes back. At the end the
 * newest home joins the player again and its whole frame is taken.
 */
class StreamEpochPropertyTest {
    /** Random worlds by default ({@code -Dproperty.runs=N} runs N/5; each world streams from two or three homes). */
    static final int DEFAULT_RUNS = 100;
    static final String PLAYER = "p";

    /** One of the room's homes: its world, its stream, and until which input it runs once it has been left. */
    static final class Home {
        final StateWorld world;
        final RoomStream stream;
        int lastInput = Integer.MAX_VALUE;

        Home(StateWorld world, RoomStream stream) {
            this.world = world;
            this.stream = stream;
        }
    }

    /** A frame on its way: its text and the home that made it. */
    record InFlight(String text, Home home) {
    }

    @Test
    void framesOfARoomsOldAndNewHomesMixedInAnyOrderNeverTakeTheReplicaBackAndItFollowsTheNewestHome() {
        int runs = Math.max(1, Integer.getInteger("property.runs", DEFAULT_RUNS) / 5);
        RandomWorlds.Options options = new RandomWorlds.Options().machinePool(60).tagsOneIn(3);
        long moves = 0;
        long taken = 0;
        long refused = 0;
        long olderRefused = 0;
        long newestTaken = 0;
        for (int run = 1; run <= runs; run++) {
            long seed = 0xE90C_0000L + run;
            RandomWorlds.Spec spec = RandomWorlds.generate(seed, options);
            Saves saves = spec.saves();
            States<?>[] streamed = spec.states().toArray(new States<?>[0]);
            Map<String, States<?>> byId = new LinkedHashMap<>();
            for (States<?> m : streamed) {
                byId.put(m.id(), m);
            }
            SplittableRandom r = new SplittableRandom(seed * 17 + 3);
            List<StateWorld> worlds = new ArrayList<>();
            try {
                StateWorld first = spec.newWorld();
                worlds.add(first);
                List<Home> homes = new ArrayList<>();
                Home newest = new Home(first, RoomStream.of(first, 1 + r.nextInt(4), streamed));
                newest.stream.join(PLAYER);
                homes.add(newest);
                StateWorld page = spec.freshWorld();
                worlds.add(page);
                Replica replica = Replica.of(page, PLAYER, streamed);
                // what the player may see of a home when it made each frame, by the frame's text (each stream names itself)
                Map<String, JsonNode> roomAt = new HashMap<>();
                List<InFlight> inFlight = new ArrayList<>();
                Taken last = new Taken();
                int n = spec.inputs.size();
                for (int i = 0; i < n; i++) {
                    RandomWorlds.Input input = spec.inputs.get(i);
                    for (Home h : homes) {
                        if (i > h.lastInput) {
                            continue; // that home has stopped
                        }
                        if (h == newest) {
                            apply(h.world, input);
                        } else if (!(input instanceof RandomWorlds.Send) && !(input instanceof RandomWorlds.SetState)) {
                            apply(h.world, input); // a home left behind drifts
                        }
                    }
                    if (homes.size() < 3 && i > 0 && i < n - 1 && r.nextInt(10) == 0) {
                        StateWorld to = spec.freshWorld();
                        worlds.add(to);
                        saves.restoreSpawningMissing(to, saves.checkpoint(newest.world));
                        RandomWorlds.copyMarks(newest.world, to);
                        newest.lastInput = i + r.nextInt(10); // the old home runs on a little, then stops
                        newest = new Home(to, RoomStream.of(to, newest.stream.epoch() + 1 + r.nextInt(3), streamed));
                        newest.stream.join(PLAYER);
                        homes.add(newest);
                        moves++;
                    }
                    for (Home h : homes) {
                        if (i > h.lastInput) {
                            continue;
                        }
                        if (h != newest && r.nextInt(6) == 0) {
                            h.stream.join(PLAYER); // an old home joins the player again: a whole frame of the older epoch
                        }
                        String frame = h.stream.frame(PLAYER);
                        roomAt.put(frame, StreamPropertyTest.checkpointSeenBy(h.world, saves.checkpoint(h.world), byId, PLAYER));
                        inFlight.add(new InFlight(frame, h));
                    }
                    for (int k = r.nextInt(4); k > 0 && !inFlight.isEmpty(); k--) {
                        int at = r.nextInt(inFlight.size());
                        InFlight f = inFlight.get(at);
                        int fate = r.nextInt(8);
                        if (fate != 1) { // 1: delivered now and again later
                            inFlight.remove(at);
                        }
                        if (fate == 0) {
                            continue; // dropped
                        }
                        String where = spec + ", after input " + i + " " + input + " (epochs of the homes: " + epochs(homes) + ")";
                        boolean olderThanFollowed = last.epoch > 0 && epochOf(f.text) < last.epoch;
                        if (deliver(replica, f.text, roomAt, saves, last, where)) {
                            taken++;
                            if (f.home == newest) {
                                newestTaken++;
                            }
                        } else {
                            refused++;
                            if (olderThanFollowed) {
                                olderRefused++;
                            }
                            if (i <= f.home.lastInput) {
                                f.home.stream.join(PLAYER); // told of the refusal, a home that still runs joins the player again
                            }
                        }
                    }
                }
                while (!inFlight.isEmpty()) {
                    InFlight f = inFlight.remove(r.nextInt(inFlight.size()));
                    deliver(replica, f.text, roomAt, saves, last, spec + ", a frame delivered at the end");
                }
                newest.stream.join(PLAYER);
                String end = newest.stream.frame(PLAYER);
                roomAt.put(end, StreamPropertyTest.checkpointSeenBy(newest.world, saves.checkpoint(newest.world), byId, PLAYER));
                if (!deliver(replica, end, roomAt, saves, last, spec + ", the newest home's whole frame at the end")) {
                    fail(spec + ": the newest home's whole frame at the end was refused");
                }
            } finally {
                worlds.forEach(StateWorld::close);
            }
        }
        dev.enginestates.Figures.printf("stream epochs: %d random worlds, %d moves, %d deliveries taken (%d from the newest home),"
                + " %d refused unchanged (%d of an older epoch than the replica followed)%n",
                runs, moves, taken, newestTaken, refused, olderRefused);
        assertTrue(moves > runs / 2, "rooms move: " + moves);
        assertTrue(olderRefused > runs / 2, "frames of an older epoch arrive after a newer one was taken: " + olderRefused);
        assertTrue(newestTaken > runs, "the newest home's frames are taken: " + newestTaken);
    }

    /** The epoch and stream and number of the last frame taken. */
    static final class Taken {
        long epoch;
        String stream;
        long seq;
    }

    /** Applies an input to a home; one that cannot apply there (an entity its checkpoint did not bring) changes nothing. */
    private static void apply(StateWorld world, RandomWorlds.Input input) {
        try {
            input.apply(world);
        } catch (RuntimeException | AssertionError e) {
            // a moved home lacks the entities that held no machine; the input is lost to it, as it would be to a real one
        }
    }

    private static long epochOf(String frame) {
        return StreamPropertyTest.parse(frame).get("epoch").asLong();
    }

    private static List<Long> epochs(List<Home> homes) {
        List<Long> out = new ArrayList<>();
        for (Home h : homes) {
            out.add(h.stream.epoch());
        }
        return out;
    }

    /**
     * Applies a frame; {@code false} when refused, the replica then unchanged. When taken, the
     * replica is as the home was at the frame, and the frame neither goes back to an older epoch
     * nor, in the stream followed, to a number already passed.
     */
    private static boolean deliver(Replica replica, String frame, Map<String, JsonNode> roomAt, Saves saves, Taken last, String where) {
        String before = saves.checkpoint(replica.world());
        long seq = replica.sequence();
        long epoch = replica.epoch();
        try {
            replica.apply(frame);
        } catch (StreamException e) {
            if (!before.equals(saves.checkpoint(replica.world())) || seq != replica.sequence() || epoch != replica.epoch()) {
                fail(where + ": a refused frame changed the replica: " + e.getMessage());
            }
            return false;
        }
        JsonNode f = StreamPropertyTest.parse(frame);
        long frameEpoch = f.get("epoch").asLong();
        String stream = f.get("stream").asText();
        long frameSeq = f.get("seq").asLong();
        if (frameEpoch < last.epoch) {
            fail(where + ": a frame of epoch " + frameEpoch + " was taken after one of epoch " + last.epoch + ": the replica went back"
                    + " to the room's older home\nframe: " + frame);
        }
        if (stream.equals(last.stream) && frameSeq <= last.seq) {
            fail(where + ": frame " + frameSeq + " of stream " + stream + " was taken after its frame " + last.seq + ": the replica"
                    + " went back\nframe: " + frame);
        }
        last.epoch = frameEpoch;
        last.stream = stream;
        last.seq = frameSeq;
        JsonNode actual = StreamPropertyTest.parse(saves.checkpoint(replica.world()));
        JsonNode expected = roomAt.get(frame);
        if (!expected.equals(actual)) {
            fail(where + ": a frame was taken, and the replica is not as the home was when it made that frame: "
                    + RandomWorlds.firstDifference(expected.toPrettyString(), actual.toPrettyString()) + "\nframe: " + frame);
        }
        return true;
    }
}

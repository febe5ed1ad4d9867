package dev.enginestates.io;

import com.fasterxml.jackson.databind.JsonNode;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.Owner;
import dev.enginestates.ecs.StateRecord;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static dev.enginestates.io.StreamTest.ALL;
import static dev.enginestates.io.StreamTest.ARMED;
import static dev.enginestates.io.StreamTest.GUARD;
import static dev.enginestates.io.StreamTest.SAVES;
import static dev.enginestates.io.StreamTest.TALK;
import static dev.enginestates.io.StreamTest.parse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Interest management as a property: random entities on a line (guards, ownerOnly talks, armed
 * ones) move in and out of each player's area, hear random events, change hands, spawn and
 * despawn; players move, join and reload. After every input a replica fed the frames equals the
 * room restricted to the player's interest and ownerOnly, tags included, and a frame names no
 * entity outside the player's interest but to remove one it held.
 */
class InterestPropertyTest {
    static final int DEFAULT_RUNS = 30;
    static final int INPUTS = 80;
    static final String[] PLAYERS = {"p0", "p1", "p2"};
    static final int RADIUS = 20;

    /** Where an entity stands on a line. */
    static final class Pos {
        int x;

        Pos(int x) {
            this.x = x;
        }
    }

    @Test
    void aReplicaFedTheFramesEqualsTheRoomRestrictedToThePlayersInterestAfterEveryInput() {
        int runs = Integer.getInteger("property.runs", DEFAULT_RUNS);
        long enters = 0;
        long leaves = 0;
        long compared = 0;
        for (int run = 1; run <= runs; run++) {
            long seed = 0x1A7E_0000L + run;
            SplittableRandom r = new SplittableRandom(seed);
            Map<String, Integer> places = new HashMap<>();
            for (String p : PLAYERS) {
                places.put(p, r.nextInt(100));
            }
            Interest area = (player, e) -> {
                Pos pos = e.get(Pos.class);
                return pos != null && Math.abs(pos.x - places.get(player)) <= RADIUS;
            };
            List<StateWorld> worlds = new ArrayList<>();
            try (StateWorld room = StateWorld.create()) {
                List<String> keys = new ArrayList<>();
                int spawned = 0;
                for (; spawned < 8; spawned++) {
                    keys.add(spawn(room, "e" + spawned, r));
                }
                RoomStream stream = RoomStream.of(room, GUARD, TALK, ARMED).interest(area);
                Map<String, Replica> replicas = new HashMap<>();
                Map<String, Set<String>> holds = new HashMap<>(); // the entities each replica held after the last frame
                for (int i = 0; i < INPUTS; i++) {
                    String input;
                    int what = r.nextInt(100);
                    if (what < 30 && !keys.isEmpty()) {
                        Entity e = room.entity(keys.get(r.nextInt(keys.size())));
                        e.get(Pos.class).x += r.nextInt(41) - 20;
                        input = "move " + StateWorld.keyOf(e);
                    } else if (what < 50 && !keys.isEmpty()) {
                        input = send(room, room.entity(keys.get(r.nextInt(keys.size()))), r);
                    } else if (what < 62) {
                        int n = 1 + r.nextInt(40);
                        for (int s = 0; s < n; s++) {
                            room.step(StreamTest.DT);
                        }
                        input = n + " steps";
                    } else if (what < 68) {
                        keys.add(spawn(room, "e" + spawned++, r));
                        input = "spawn " + keys.get(keys.size() - 1);
                    } else if (what < 73 && !keys.isEmpty()) {
                        String key = keys.remove(r.nextInt(keys.size()));
                        room.despawn(room.entity(key));
                        input = "despawn " + key;
                    } else if (what < 78 && !keys.isEmpty()) {
                        Entity e = room.entity(keys.get(r.nextInt(keys.size())));
                        own(e, r);
                        input = "owner of " + StateWorld.keyOf(e);
                    } else if (what < 88) {
                        String p = PLAYERS[r.nextInt(PLAYERS.length)];
                        places.put(p, places.get(p) + r.nextInt(61) - 30);
                        input = p + " moves";
                    } else {
                        String p = PLAYERS[r.nextInt(PLAYERS.length)];
                        stream.join(p); // a join, or a reload into a fresh replica
                        StateWorld w = StateWorld.create();
                        worlds.add(w);
                        replicas.put(p, Replica.of(w, p, ALL));
                        holds.put(p, Set.of());
                        input = p + " joins";
                    }
                    Map<String, String> frames = stream.frames();
                    for (Map.Entry<String, Replica> e : replicas.entrySet()) {
                        String player = e.getKey();
                        Replica replica = e.getValue();
                        String frame = frames.get(player);
                        String where = "seed " + seed + ", " + player + ", after input " + i + " (" + input + ")";
                        Set<String> held = holds.get(player);
                        JsonNode tree = parse(frame);
                        boolean whole = tree.get("whole").asBoolean();
                        for (Map.Entry<String, JsonNode> named : tree.get("entities").properties()) {
                            Entity onRoom = room.entity(named.getKey());
                            boolean sees = onRoom != null && area.sees(player, onRoom);
                            if (!sees) {
                                // outside the interest: only the removal of what the replica held
                                if (!held.contains(named.getKey())) {
                                    fail(where + ": the frame names " + named.getKey() + ", outside the player's interest:\n" + frame);
                                }
                                for (Map.Entry<String, JsonNode> m : named.getValue().properties()) {
                                    if (!m.getValue().isNull()) {
                                        fail(where + ": the frame sends a record of " + named.getKey() + ", outside the interest:\n" + frame);
                                    }
                                }
                                leaves++;
                            } else if (!whole && !held.contains(named.getKey())) {
                                enters++;
                            }
                        }
                        try {
                            replica.apply(frame);
                        } catch (StreamException x) {
                            fail(where + ": the replica refused the room's frame: " + x.getMessage() + "\n" + frame, x);
                        }
                        JsonNode expected = InterestTest.seenWithin(room, player, area);
                        JsonNode actual = parse(SAVES.dump(replica.world()));
                        if (!expected.equals(actual)) {
                            fail(where + ": the replica differs from the room within the player's interest: "
                                    + RandomWorlds.firstDifference(expected.toPrettyString(), actual.toPrettyString()));
                        }
                        holds.put(player, new HashSet<>(StreamTest.names(actual.get("entities"))));
                        compared++;
                    }
                }
            } finally {
                worlds.forEach(StateWorld::close);
            }
        }
        dev.enginestates.Figures.printf("interest: %d random rooms, %d replicas compared, %d entities entered, %d left%n",
                runs, compared, enters, leaves);
        // the generator must reach what the property is about
        assertTrue(compared > runs * 20L, "replicas compared: " + compared);
        assertTrue(enters > runs, "entities that entered an interest in a frame of changes: " + enters);
        assertTrue(leaves > runs, "entities that left an interest: " + leaves);
    }

    /** An entity at a random place with a random set of machines (one at least) and maybe an owner. */
    static String spawn(StateWorld room, String key, SplittableRandom r) {
        List<StateRecord<?>> records = new ArrayList<>();
        if (r.nextInt(10) < 7) {
            records.add(GUARD.trait());
        }
        if (r.nextInt(10) < 4) {
            records.add(TALK.trait());
        }
        if (records.isEmpty() || r.nextInt(10) < 3) {
            records.add(ARMED.trait());
        }
        Entity e = room.spawn(EntityKey.of(key), new Pos(r.nextInt(100)));
        for (StateRecord<?> rec : records) {
            room.attach(e, rec);
        }
        own(e, r);
        return key;
    }

    static void own(Entity e, SplittableRandom r) {
        if (e.has(Owner.class)) {
            e.removeType(Owner.class);
        }
        int who = r.nextInt(PLAYERS.length + 1);
        if (who < PLAYERS.length) {
            e.add(new Owner(PLAYERS[who]));
        }
    }

    static String send(StateWorld room, Entity e, SplittableRandom r) {
        List<States<?>> held = new ArrayList<>();
        for (States<?> m : List.of(GUARD, TALK, ARMED)) {
            if (e.has(m.recordType())) {
                held.add(m);
            }
        }
        States<?> m = held.get(r.nextInt(held.size()));
        String[] events = m == GUARD ? new String[] {"BELL", "RESUME", "RESTART"}
                : m == TALK ? new String[] {"GREET"} : new String[] {"FIRE", "WALK", "RUN"};
        String event = events[r.nextInt(events.length)];
        m.send(e, event);
        return "send " + event + " to " + m.id() + " on " + StateWorld.keyOf(e);
    }
}

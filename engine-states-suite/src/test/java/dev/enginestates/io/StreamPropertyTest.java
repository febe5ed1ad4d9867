package dev.enginestates.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.Owner;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Issue 13, part 2: "for random worlds and random inputs, a replica fed the stream (joining at a
 * random step) matches the room's records and tags after every step; a non-owner never receives
 * a byte of an ownerOnly record". Random worlds ({@link RandomWorlds}: sends with fields, steps,
 * states set by hand, holds, spawns and despawns), half their machines declared
 * {@code ownerOnly}, entities owned by two players or by nobody and changing hands at random;
 * three players (two owners and a watcher who owns nothing) join at random inputs, and one
 * reloads into a fresh replica later.
 */
class StreamPropertyTest {
    static final int DEFAULT_RUNS = 100;
    static final ObjectMapper JSON = new ObjectMapper();
    static final String[] PLAYERS = {"p0", "p1", "watcher"};

    static JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    /** An owner for an entity: p0, p1 or nobody. */
    static void own(Entity e, SplittableRandom r) {
        if (e.has(Owner.class)) {
            e.removeType(Owner.class);
        }
        int who = r.nextInt(3);
        if (who < 2) {
            e.add(new Owner(PLAYERS[who]));
        }
    }

    static String ownerOf(StateWorld world, String key) {
        Entity e = world.entity(key);
        Owner o = e == null ? null : e.get(Owner.class);
        return o == null ? null : o.player();
    }

    /** The room's checkpoint as a player may see it: without the ownerOnly records of entities it does not own. */
    static JsonNode checkpointSeenBy(StateWorld room, String checkpoint, Map<String, States<?>> machines, String player) {
        ObjectNode root = (ObjectNode) parse(checkpoint);
        ObjectNode entities = (ObjectNode) root.get("entities");
        for (Iterator<Map.Entry<String, JsonNode>> it = entities.properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String owner = ownerOf(room, e.getKey());
            ObjectNode ms = (ObjectNode) e.getValue();
            for (String id : StreamTest.names(ms)) {
                if (machines.get(id).machine().ownerOnly() && !player.equals(owner)) {
                    ms.remove(id);
                }
            }
            if (ms.isEmpty()) {
                it.remove();
            }
        }
        // the versions named are those of the machines left: a player sees no version of a machine it sees no record of
        ObjectNode versions = (ObjectNode) root.get("machines");
        if (versions != null) {
            java.util.Set<String> seen = new java.util.HashSet<>();
            entities.forEach(e -> seen.addAll(StreamTest.names((ObjectNode) e)));
            versions.retain(seen);
        }
        return root;
    }

    @Test
    void aReplicaJoiningAtARandomStepMatchesTheRoomAfterEveryStepAndANonOwnerNeverReceivesAnOwnerOnlyRecord() {
        int runs = Integer.getInteger("property.runs", DEFAULT_RUNS);
        RandomWorlds.Options options = new RandomWorlds.Options().ownerOnlyOneIn(2).machinePool(60).tagsOneIn(3);
        long started = System.nanoTime();
        long frames = 0;
        long ownerOnlyRecordsSent = 0;
        long handovers = 0;
        long lateJoins = 0;
        long bytes = 0;
        int withOwnerOnly = 0;
        for (int run = 1; run <= runs; run++) {
            long seed = 0x57EA_0000L + run;
            RandomWorlds.Spec spec = RandomWorlds.generate(seed, options);
            Saves saves = spec.saves();
            States<?>[] streamed = spec.states().toArray(new States<?>[0]);
            Map<String, States<?>> byId = new LinkedHashMap<>();
            Set<String> ownerOnlyIds = new HashSet<>();
            for (States<?> m : streamed) {
                byId.put(m.id(), m);
                if (m.machine().ownerOnly()) {
                    ownerOnlyIds.add(m.id());
                }
            }
            withOwnerOnly += ownerOnlyIds.isEmpty() ? 0 : 1;
            SplittableRandom r = new SplittableRandom(seed * 17 + 3);
            int n = spec.inputs.size();
            int[] joinAt = {r.nextInt(n), r.nextInt(n), r.nextInt(n)};
            int reloader = r.nextInt(PLAYERS.length);
            int reloadAt = joinAt[reloader] + 1 + r.nextInt(n);
            List<StateWorld> worlds = new ArrayList<>();
            try (StateWorld room = spec.newWorld()) {
                for (String key : spec.start.keySet()) {
                    if (!key.equals(EntityKey.WORLD) || r.nextInt(3) == 0) {
                        own(room.entity(key), r);
                    }
                }
                RoomStream stream = RoomStream.of(room, streamed);
                Replica[] replicas = new Replica[PLAYERS.length];
                for (int i = 0; i < n; i++) {
                    RandomWorlds.Input input = spec.inputs.get(i);
                    spec.apply(room, i, i + 1);
                    if (input instanceof RandomWorlds.Spawn) {
                        own(room.entity(((RandomWorlds.Spawn) input).key()), r);
                    } else if (r.nextInt(12) == 0) {
                        // an entity changes hands
                        List<String> keys = new ArrayList<>();
                        for (States<?> m : streamed) {
                            room.records(m).forEach(x -> keys.add(StateWorld.keyOf(x.entity())));
                        }
                        if (!keys.isEmpty()) {
                            own(room.entity(keys.get(r.nextInt(keys.size()))), r);
                            handovers++;
                        }
                    }
                    for (int p = 0; p < PLAYERS.length; p++) {
                        if (joinAt[p] == i || (p == reloader && reloadAt == i)) {
                            stream.join(PLAYERS[p]);
                            StateWorld w = spec.freshWorld();
                            worlds.add(w);
                            replicas[p] = Replica.of(w, PLAYERS[p], streamed);
                            lateJoins += i > 0 ? 1 : 0;
                        }
                    }
                    Map<String, String> out = stream.frames();
                    String checkpoint = saves.checkpoint(room);
                    String dump = input instanceof RandomWorlds.Step ? saves.dump(room) : null;
                    for (int p = 0; p < PLAYERS.length; p++) {
                        if (replicas[p] == null) {
                            continue;
                        }
                        String player = PLAYERS[p];
                        String frame = out.get(player);
                        String where = spec + ", " + player + " joined at input " + joinAt[p] + ", after input " + i + " " + input;
                        frames++;
                        bytes += frame.length();
                        // not a byte of another's ownerOnly record
                        JsonNode tree = parse(frame);
                        for (Map.Entry<String, JsonNode> e : tree.get("entities").properties()) {
                            for (Map.Entry<String, JsonNode> m : e.getValue().properties()) {
                                if (ownerOnlyIds.contains(m.getKey()) && !m.getValue().isNull()) {
                                    ownerOnlyRecordsSent++;
                                    if (!player.equals(ownerOf(room, e.getKey()))) {
                                        fail(where + ": " + player + " was sent the ownerOnly '" + m.getKey() + "' of " + e.getKey()
                                                + ", owned by " + ownerOf(room, e.getKey()) + ":\n" + frame);
                                    }
                                }
                            }
                        }
                        if (player.equals("watcher")) {
                            for (String id : ownerOnlyIds) {
                                if (frame.contains("\"" + id + "\"")) {
                                    fail(where + ": the watcher, who owns nothing, was sent '" + id + "':\n" + frame);
                                }
                            }
                        }
                        try {
                            replicas[p].apply(frame);
                        } catch (StreamException e) {
                            fail(where + ": the replica refused the room's own frame: " + e.getMessage() + "\n" + frame, e);
                        }
                        JsonNode expected = checkpointSeenBy(room, checkpoint, byId, player);
                        JsonNode actual = parse(saves.checkpoint(replicas[p].world()));
                        if (!expected.equals(actual)) {
                            fail(where + ": the replica's records differ from the room's: "
                                    + RandomWorlds.firstDifference(expected.toPrettyString(), actual.toPrettyString()));
                        }
                        if (dump != null) {
                            JsonNode seen = StreamTest.seenBy(dump, player);
                            JsonNode replicaDump = parse(saves.dump(replicas[p].world()));
                            if (!seen.equals(replicaDump)) {
                                fail(where + ": the replica's dump (tags included) differs from the room's: "
                                        + RandomWorlds.firstDifference(seen.toPrettyString(), replicaDump.toPrettyString()));
                            }
                        }
                    }
                }
            } finally {
                worlds.forEach(StateWorld::close);
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        dev.enginestates.Figures.printf("stream: %d random worlds (%d with ownerOnly machines), %d frames applied and compared, %d ownerOnly records"
                + " sent (each to its owner), %d hand-overs, %d late joins and reloads, %.0f bytes a frame on average, in %.1f s%n",
                runs, withOwnerOnly, frames, ownerOnlyRecordsSent, handovers, lateJoins, bytes / (double) Math.max(1, frames), seconds);
        // the generator must reach what the property is about
        assertTrue(withOwnerOnly > runs / 3, "worlds with ownerOnly machines: " + withOwnerOnly);
        assertTrue(ownerOnlyRecordsSent > runs, "ownerOnly records sent to their owners: " + ownerOnlyRecordsSent);
        assertTrue(handovers > runs, "hand-overs: " + handovers);
        assertTrue(lateJoins > runs, "late joins: " + lateJoins);
    }
}

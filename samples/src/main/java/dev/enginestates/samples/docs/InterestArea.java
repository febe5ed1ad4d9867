package dev.enginestates.samples.docs;

import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Replica;
import dev.enginestates.io.RoomStream;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The code of docs/streaming.md's interest management, compiled: each player's frames carry the
 * guards within 30 metres of where the player stands; a player who walks over gets the guards
 * there whole and loses the ones left behind ({@code DocsCodeTest} runs {@link #walk()}).
 */
public final class InterestArea {
    private InterestArea() {
    }

    /**
     * Where an entity or a player stands on the map: the game's own component.
     *
     * @param x metres east
     * @param y metres north
     */
    public record Position(double x, double y) {
        /**
         * The distance to another place.
         *
         * @param other the other place
         * @return the distance in metres
         */
        public double distanceTo(Position other) {
            return Math.hypot(x - other.x, y - other.y);
        }
    }

    /** A guard's post: the bells it answered and the post's name. */
    public static final class Post {
        /** Bells answered. */
        public int bells;
        /** The post's name, which only the players near it may read. */
        public String name = "";
    }

    /** A guard that answers a bell. */
    public static final States<Post> GUARD = States.define("interest-guard", Post::new, m -> m
        .initial("watch")
        .state("watch", s -> s.on("BELL", "answer"))
        .state("answer", s -> s.entry((post, e) -> post.bells++).on("BACK", "watch")));

    /**
     * What the page shows: each frame sent, and each replica's entities at the end.
     *
     * @param aliceFrames alice's two frames
     * @param bobFrames   bob's two frames
     * @param aliceHolds  the guards alice's replica holds at the end, with their states
     * @param bobHolds    the guards bob's replica holds at the end, with their states
     */
    public record Walk(List<String> aliceFrames, List<String> bobFrames, List<String> aliceHolds, List<String> bobHolds) {
    }

    /**
     * Alice stands by the gate, bob by the tower 200 metres away; then bob walks to the gate.
     *
     * @return the frames and what each replica holds at the end
     */
    public static Walk walk() {
        List<String> aliceFrames = new ArrayList<>();
        List<String> bobFrames = new ArrayList<>();
        try (StateWorld world = StateWorld.create(); StateWorld alicePage = StateWorld.create();
             StateWorld bobPage = StateWorld.create()) {
            Entity gate = world.spawn(EntityKey.of("gate"), new Position(0, 0), GUARD.trait());
            Entity tower = world.spawn(EntityKey.of("tower"), new Position(200, 0), GUARD.trait());
            GUARD.read(gate).context().name = "north gate";
            GUARD.read(tower).context().name = "old tower";
            Replica alice = Replica.of(alicePage, "alice", GUARD);
            Replica bob = Replica.of(bobPage, "bob", GUARD);

            // where each player stands, kept by the game
            Map<String, Position> players = new HashMap<>();
            players.put("alice", new Position(5, 0));
            players.put("bob", new Position(190, 0));
            RoomStream stream = RoomStream.of(world, GUARD).interest((player, entity) -> {
                Position at = entity.get(Position.class);
                return at == null || at.distanceTo(players.get(player)) <= 30;  // no position: seen by all
            });
            stream.join("alice");
            stream.join("bob");
            world.step(1.0 / 60);
            Map<String, String> frames = stream.frames();   // alice's holds the gate, bob's the tower

            alice.apply(frames.get("alice"));
            bob.apply(frames.get("bob"));
            aliceFrames.add(frames.get("alice"));
            bobFrames.add(frames.get("bob"));

            GUARD.send(gate, "BELL");
            players.put("bob", new Position(10, 0));         // bob walks to the gate
            frames = stream.frames();   // bob's brings the gate whole and removes the tower

            alice.apply(frames.get("alice"));
            bob.apply(frames.get("bob"));
            aliceFrames.add(frames.get("alice"));
            bobFrames.add(frames.get("bob"));
            return new Walk(aliceFrames, bobFrames, keys(alicePage), keys(bobPage));
        }
    }

    private static List<String> keys(StateWorld page) {
        List<String> out = new ArrayList<>();
        for (String key : List.of("gate", "tower")) {
            if (page.entity(key) != null) {
                out.add(key + (GUARD.read(page.entity(key)).matches("answer") ? ":answer" : ":watch"));
            }
        }
        return out;
    }
}

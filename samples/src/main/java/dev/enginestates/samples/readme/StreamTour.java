package dev.enginestates.samples.readme;

import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.Owner;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Replica;
import dev.enginestates.io.RoomStream;
import dev.enginestates.io.StreamException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.enginestates.samples.readme.Tour.GUARD;

/**
 * The README's "Streaming to replicas" code, compiled ({@code ReadmeCodeTest} checks the
 * README's blocks against it and runs {@link #tour()}).
 */
public final class StreamTour {
    private StreamTour() {
    }

    /** A conversation's context. */
    public static final class Talk {
        /** Lines said. */
        public int lines;
    }

    /** The guard, declared before the talk whichever class a test loads first: a world steps (and streams) machines in declaration order. */
    private static final States<?> DECLARED_FIRST = GUARD;

    /** A conversation, its owner's alone. */
    static final States<Talk> TALK = States.define("talk", Talk::new, m -> m
        .ownerOnly()                                            // its owner's alone; the dump shows "ownerOnly": true
        .initial("idle")
        .state("idle", s -> s.on("GREET", "talking"))
        .state("talking", s -> s.entry((talk, e) -> talk.lines++).waitFor(3, "idle")));

    /** The frames the room sent, by player: the game's transport, here a map. */
    static final Map<String, List<String>> SENT = new LinkedHashMap<>();

    /** What the tour saw, for ReadmeCodeTest. */
    public static final class Seen {
        /** Guards answering the bell on alice's page, by a tag query. */
        public long aliceAnswering;
        /** Whether alice's page holds the talk, and in which state. */
        public String aliceTalk;
        /** Whether bob's page holds the hero at all. */
        public boolean bobSeesHero;
        /** The frame alice got after the bell and the greeting. */
        public String secondFrame;
        /** The message of a frame applied twice. */
        public String repeated;
    }

    private static void send(String player, String frame) {
        SENT.computeIfAbsent(player, p -> new ArrayList<>()).add(frame);
    }

    /**
     * The room streams a guard and alice's hero to alice and bob; their pages apply the frames.
     *
     * @return what the pages hold
     */
    public static Seen tour() {
        SENT.clear();
        Seen seen = new Seen();
        try (StateWorld world = StateWorld.create(); StateWorld alicePage = StateWorld.create();
                StateWorld bobPage = StateWorld.create()) {
            world.spawn(EntityKey.of("guard-1"), GUARD.trait());
            // the room
            world.spawn(EntityKey.of("hero"), new Owner("alice"), TALK.trait());
            RoomStream stream = RoomStream.of(world, GUARD, TALK);
            stream.join("alice");                                   // a page opens (or reloads): its next frame is whole
            stream.join("bob");
            world.step(1.0 / 60);
            for (Map.Entry<String, String> f : stream.frames().entrySet()) {
                send(f.getKey(), f.getValue());                     // the game's transport: WebSocket, SSE, its own socket
            }
            GUARD.send(world.entity("guard-1"), "BELL");
            TALK.send(world.entity("hero"), "GREET");
            world.step(1.0 / 60);
            for (Map.Entry<String, String> f : stream.frames().entrySet()) {
                send(f.getKey(), f.getValue());
            }
            seen.secondFrame = SENT.get("alice").get(1);

            // a page
            Replica replica = Replica.of(alicePage, "alice", GUARD, TALK);
            for (String frameText : SENT.get("alice")) {
                replica.apply(frameText);                           // checked whole, then written; else a StreamException
            }
            replica.world().query(GUARD.is("answer")).count();      // 1: tags written from the records
            seen.aliceAnswering = replica.world().query(GUARD.is("answer")).count();
            seen.aliceTalk = TALK.read(alicePage.entity("hero")).value().toString();
            try {
                replica.apply(SENT.get("alice").get(1));
            } catch (StreamException e) {
                seen.repeated = e.getMessage();
            }

            Replica bob = Replica.of(bobPage, "bob", GUARD, TALK);
            SENT.get("bob").forEach(bob::apply);
            seen.bobSeesHero = bobPage.entity("hero") != null;
        }
        return seen;
    }
}

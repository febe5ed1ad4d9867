package dev.enginestates.pekko;

import dev.enginestates.ecs.StateWorld;
import dev.enginestates.io.Replica;
import dev.enginestates.io.Saves;
import dev.enginestates.pekko.Lamps.Command;
import dev.enginestates.pekko.Lamps.Flip;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static dev.enginestates.pekko.Node.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A room streams to its subscribed players on a one-node cluster, with a clock the test moves by
 * hand: each player's replica, fed the frames the room sent, equals the room as far as the player
 * may see it (another player's ownerOnly records never reach it).
 */
class PlayersTest {
    private static final long T0 = 1_000_000_000L;
    private static final Saves SAVES = Saves.of(Lamps.LAMP, Lamps.POCKET);

    private final AtomicLong clock = new AtomicLong(T0);
    private final String url = "jdbc:h2:mem:players-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";

    /** A player's page: the frames its connection got, applied to its replica on the test's thread. */
    static final class Page {
        final BlockingQueue<Rooms.Frame> frames = new LinkedBlockingQueue<>();
        final StateWorld world;
        final Replica replica;
        ActorRef<Rooms.Frame> connection;
        int wholeFrames;

        Page(String player) {
            world = StateWorld.create(player + "-page");
            replica = Replica.of(world, player, Lamps.LAMP, Lamps.POCKET);
        }

        /** Applies frames until the replica is at the step. */
        void applyUntil(long step) throws InterruptedException {
            while (world.steps() != step) {
                Rooms.Frame f = frames.poll(30, TimeUnit.SECONDS);
                assertNotNull(f, replica.recipient() + ": no frame of step " + step);
                if (Seen.parse(f.text()).get("whole").asBoolean()) {
                    wholeFrames++;
                }
                replica.apply(f.text());
            }
        }
    }

    private void stepTo(Rooms<Command> rooms, String room, long step) throws Exception {
        clock.set(T0 + step * 100);
        Node.await(room + " at step " + step, Duration.ofSeconds(30), () -> {
            try {
                return get(rooms.status(room)).steps() == step;
            } catch (Exception e) {
                return false;
            }
        });
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aSubscribedPlayerGetsAWholeFrameThenEachStepsChangesAndNoOtherPlayersOwnerOnlyRecords() throws Exception {
        Rooms.createH2Tables(url);
        try (Node node = Node.start(url)) {
            Rooms<Command> rooms = Rooms.start(node.system, Lamps.withPockets(3, List.of("alice", "bob"), clock::get));
            get(rooms.open("r"));
            Page alice = new Page("alice");
            Page bob = new Page("bob");
            for (Page page : List.of(alice, bob)) {
                page.connection = node.system.systemActorOf(Behaviors.<Rooms.Frame>receiveMessage(f -> {
                    page.frames.add(f);
                    return Behaviors.same();
                }), page.replica.recipient() + "-connection", Props.empty());
                rooms.subscribe("r", page.replica.recipient(), page.connection);
            }
            for (long step : new long[] {3, 7, 12, 20}) {
                if (step == 12) {
                    get(rooms.send("r", 1, new Flip("lamp-1")));
                }
                stepTo(rooms, "r", step);
                String dump = get(rooms.dump("r")).dump();
                for (Page page : List.of(alice, bob)) {
                    page.applyUntil(step);
                    assertEquals(Seen.by(dump, page.replica.recipient()), Seen.parse(SAVES
                            .dump(page.world)), page.replica.recipient() + "'s replica at step " + step);
                }
            }
            assertEquals(1, alice.wholeFrames, "one whole frame, then changes");
            assertTrue(alice.replica.epoch() >= 1);
            String aliceDump = Seen.parse(SAVES.dump(alice.world)).toString();
            assertTrue(aliceDump.contains("pocket-alice"));
            assertFalse(aliceDump.contains("pocket-bob"), "bob's pocket reached alice: " + aliceDump);
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aKindsInterestKeepsEachPlayersStreamToTheEntitiesThePlayerSeesAndNoByteOfTheOthers() throws Exception {
        Rooms.createH2Tables(url);
        try (Node node = Node.start(url)) {
            // alice sees the even lamps, bob the odd ones; each sees his own pocket, which ownerOnly already keeps his
            RoomKind<Command> kind = Lamps.withPockets(4, List.of("alice", "bob"), clock::get).interest((player, entity) -> {
                String key = entity.get(dev.enginestates.ecs.EntityKey.class).value();
                if (!key.startsWith("lamp-")) {
                    return true;
                }
                int n = Integer.parseInt(key.substring("lamp-".length()));
                return player.equals("alice") == (n % 2 == 0);
            });
            Rooms<Command> rooms = Rooms.start(node.system, kind);
            get(rooms.open("r"));
            Page alice = new Page("alice");
            Page bob = new Page("bob");
            List<String> aliceTexts = new java.util.concurrent.CopyOnWriteArrayList<>();
            for (Page page : List.of(alice, bob)) {
                page.connection = node.system.systemActorOf(Behaviors.<Rooms.Frame>receiveMessage(f -> {
                    if (page == alice) {
                        aliceTexts.add(f.text());
                    }
                    page.frames.add(f);
                    return Behaviors.same();
                }), page.replica.recipient() + "-connection", Props.empty());
                rooms.subscribe("r", page.replica.recipient(), page.connection);
            }
            get(rooms.send("r", 1, new Flip("lamp-1")));
            get(rooms.send("r", 2, new Flip("lamp-2")));
            stepTo(rooms, "r", 40);
            alice.applyUntil(40);
            bob.applyUntil(40);
            assertEquals(List.of("lamp-0", "lamp-2", "pocket-alice"), keys(alice.world));
            assertEquals(List.of("lamp-1", "lamp-3", "pocket-bob"), keys(bob.world));
            for (String text : aliceTexts) {
                assertFalse(text.contains("lamp-1") || text.contains("lamp-3") || text.contains("pocket-bob"),
                        "a frame for alice names what she cannot see: " + text);
            }
        }
    }

    private static List<String> keys(StateWorld world) {
        List<String> out = new java.util.ArrayList<>();
        for (var e : world.query(dev.enginestates.ecs.EntityKey.class)) {
            String key = e.get(dev.enginestates.ecs.EntityKey.class).value();
            if (!key.equals(dev.enginestates.ecs.EntityKey.WORLD)) {
                out.add(key);                                    // the replica world's own entity aside
            }
        }
        java.util.Collections.sort(out);
        return out;
    }
}

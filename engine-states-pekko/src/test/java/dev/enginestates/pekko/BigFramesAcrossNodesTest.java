package dev.enginestates.pekko;

import dev.enginestates.pekko.Lamps.Command;
import dev.enginestates.pekko.PlayersOverWebSocketTest.Client;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static dev.enginestates.pekko.Node.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A room whose whole frame is far above Artery's largest message (256 KiB by default, after
 * Pekko's gzip), on a two-node cluster in this JVM: its players on the other node get it whole,
 * then its changes, over WebSocket and as a game's own subscriber.
 */
class BigFramesAcrossNodesTest {
    /** Random letters: the frame's message stays above 256 KiB after gzip. */
    private static final int SCROLL_CHARS = 1_000_000;
    private static final int ARTERY_FRAME_BYTES = 256 * 1024;

    private final String url = "jdbc:h2:mem:big-frames-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aWholeFrameAboveArterysMessageSizeReachesAPlayerOnAnotherNodeWholeAndThenItsChanges() throws Exception {
        Rooms.createH2Tables(url);
        List<ActorSystem<Void>> nodes = new ArrayList<>();
        HttpClient http = HttpClient.newHttpClient();
        try {
            Node.joinCluster(url, 2, nodes);
            RoomKind<Command> kind = Lamps.withScroll(20, SCROLL_CHARS, System::currentTimeMillis);
            List<Rooms<Command>> homes = new ArrayList<>();
            for (ActorSystem<Void> node : nodes) {
                homes.add(Rooms.start(node, kind).withAskTimeout(Duration.ofSeconds(10)));
            }
            // the players are on the first node; the room is one the second node runs
            Rooms<Command> rooms = homes.get(0);
            String home = Cluster.get(nodes.get(1)).selfMember().address().toString();
            String room = null;
            for (int r = 0; r < 40 && room == null; r++) {
                String id = String.format(Locale.ROOT, "big-%02d", r);
                get(rooms.open(id));
                if (get(rooms.status(id)).node().equals(home)) {
                    room = id;
                }
            }
            assertNotNull(room, "no room on the second node");
            // the room's dump is asked where it runs: a dump this big would not cross the cluster in one message either
            Rooms<Command> atHome = homes.get(1);

            // a game's own actor, subscribed on the first node, gets whole frames
            BlockingQueue<Rooms.Frame> gameFrames = new LinkedBlockingQueue<>();
            ActorRef<Rooms.Frame> gameActor = nodes.get(0).systemActorOf(Behaviors.<Rooms.Frame>receiveMessage(f -> {
                gameFrames.add(f);
                return Behaviors.same();
            }), "game-subscriber", Props.empty());
            rooms.subscribe(room, "alice", gameActor);

            ServerBinding binding = get(RoomsWebSocket.bind(nodes.get(0), rooms, 0));
            Client alice = new Client(room, "alice", Lamps.LAMP, Lamps.SCROLL).connect(http, binding.localAddress().getPort());
            PlayersOverWebSocketTest.assertReplicaSeesTheRoom(atHome, alice);
            long firstStep = alice.world.steps();
            assertTrue(alice.bytes.get() > 2L * ARTERY_FRAME_BYTES, "the whole frame is " + alice.bytes.get() + " characters");
            // the room runs on: its frames of changes follow the whole one, and the replica equals it again later
            Node.await("the room 20 steps on", Duration.ofSeconds(30), () -> {
                try {
                    return get(rooms.status(alice.room)).steps() > firstStep + 20;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            PlayersOverWebSocketTest.assertReplicaSeesTheRoom(atHome, alice);
            assertTrue(alice.world.steps() > firstStep + 20, "the replica stayed at step " + alice.world.steps());
            assertEquals(1, alice.opened.get(), "alice connected again");
            assertFalse(alice.closed.isDone(), "alice's connection: " + alice.closed.getNow(""));

            Rooms.Frame whole = gameFrames.poll(30, TimeUnit.SECONDS);
            assertNotNull(whole, "the game's actor got no frame");
            assertTrue(whole.text().length() > SCROLL_CHARS, "the game's actor got " + whole.text().length() + " characters");
            assertEquals(true, Seen.parse(whole.text()).get("whole").asBoolean(), "the game's actor's first frame is whole");
            Rooms.Frame next = gameFrames.poll(30, TimeUnit.SECONDS);
            assertNotNull(next, "the game's actor got no frame of changes");
            assertEquals(whole.epoch(), next.epoch());
            assertEquals(Seen.parse(whole.text()).get("seq").asLong() + 1, Seen.parse(next.text()).get("seq").asLong(),
                    "the game's actor's frames follow each other");
            binding.unbind().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } finally {
            for (ActorSystem<Void> node : nodes) {
                node.terminate();
            }
            for (ActorSystem<Void> node : nodes) {
                node.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
            }
        }
    }
}

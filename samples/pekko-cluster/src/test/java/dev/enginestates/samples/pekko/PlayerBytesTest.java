package dev.enginestates.samples.pekko;

import dev.enginestates.ecs.StateWorld;
import dev.enginestates.io.Replica;
import dev.enginestates.pekko.Rooms;
import dev.enginestates.pekko.RoomsWebSocket;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A player of a room of 100 guards over WebSocket, with the failover test's commands arriving
 * (one every 100 to 500 ms): one whole frame, then only changes, each applied by the player's
 * replica. {@code -Drooms.report=true} prints what the player receives per second of the room's
 * clock over 100 steps (10 s at the sample's step of 0.1 s), and the whole frame's size.
 */
class PlayerBytesTest {
    private static final int STEPS = 100;

    /** The frames the player's page receives, whole messages only. */
    static final class Page implements WebSocket.Listener {
        final BlockingQueue<String> frames = new LinkedBlockingQueue<>();
        final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                frames.add(partial.toString());
                partial.setLength(0);
            }
            webSocket.request(1);
            return null;
        }
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aPlayerOfAHundredGuardRoomGetsOneWholeFrameThenOnlyChanges() throws Exception {
        boolean report = Boolean.getBoolean("rooms.report");
        String url = "jdbc:h2:mem:bytes-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        Rooms.createH2Tables(url);
        ActorSystem<Void> node = ActorSystem.create(Behaviors.empty(), "rooms", RoomNode.config(url));
        try {
            Cluster cluster = Cluster.get(node);
            cluster.manager().tell(Join.create(cluster.selfMember().address()));
            while (cluster.selfMember().status() != MemberStatus.up()) {
                Thread.sleep(20);
            }
            Rooms<RoomInput> rooms = GuardRooms.start(node, 100, dev.enginestates.pekko.RoomListener.NONE);
            rooms.open("room").toCompletableFuture().get(30, TimeUnit.SECONDS);
            ServerBinding binding = RoomsWebSocket.bind(node, rooms, 0).toCompletableFuture().get(30, TimeUnit.SECONDS);
            Page page = new Page();
            HttpClient.newHttpClient().newWebSocketBuilder()
                    .buildAsync(URI.create("ws://127.0.0.1:" + binding.localAddress().getPort() + "/rooms/room?player=alice"), page)
                    .get(30, TimeUnit.SECONDS);
            StateWorld world = StateWorld.create("alice-page");
            Replica replica = Replica.of(world, "alice", RoomGuard.GUARD);

            String first = page.frames.poll(30, TimeUnit.SECONDS);
            assertNotNull(first, "no whole frame");
            replica.apply(first);
            long from = world.steps();
            SplittableRandom random = new SplittableRandom(7);
            long seq = 0;
            long bytes = 0;
            int wholeFrames = 1;
            long nextCommandAt = from;
            while (world.steps() < from + STEPS) {
                if (world.steps() >= nextCommandAt) {
                    // the failover test's mix, paced by the room's steps: a command every 1 to 5 steps
                    String guard = String.format(Locale.ROOT, "guard-%03d", random.nextInt(100));
                    double p = random.nextDouble();
                    RoomInput input = p < 0.6 ? new RoomInput.Send(guard, RoomGuard.EVENTS[random.nextInt(RoomGuard.EVENTS.length)])
                            : p < 0.9 ? new RoomInput.Hold(guard, p < 0.75) : new RoomInput.Spawn("extra-" + seq);
                    rooms.send("room", ++seq, input);
                    nextCommandAt = world.steps() + 1 + random.nextInt(5);
                }
                String frame = page.frames.poll(30, TimeUnit.SECONDS);
                assertNotNull(frame, "no frame after step " + world.steps());
                if (frame.contains("\"whole\" : true") || frame.contains("\"whole\":true")) {
                    wholeFrames++;
                }
                replica.apply(frame);
                bytes += frame.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            }
            assertEquals(1, wholeFrames, "one whole frame, then changes");
            assertTrue(seq > 0);
            if (report) {
                double seconds = (world.steps() - from) * 0.1;
                System.out.printf(Locale.ROOT, "a player of a room of 100 guards: whole frame %d B; then %.0f B/s over %d steps"
                        + " (%d commands)%n", first.getBytes(java.nio.charset.StandardCharsets.UTF_8).length, bytes / seconds,
                        world.steps() - from, seq);
            }
            binding.unbind().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } finally {
            node.terminate();
            node.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }
}

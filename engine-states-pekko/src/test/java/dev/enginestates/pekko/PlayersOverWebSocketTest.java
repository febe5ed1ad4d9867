package dev.enginestates.pekko;

import com.fasterxml.jackson.databind.JsonNode;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Replica;
import dev.enginestates.io.Saves;
import dev.enginestates.pekko.Lamps.Command;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Down;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static dev.enginestates.pekko.Node.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Players over WebSocket on a three-node cluster in this JVM (Artery on 127.0.0.1, one H2
 * journal): JDK WebSocket clients on a node other than their room's home each keep a replica,
 * which equals the room as far as the player may see it; the room's home is stopped hard and
 * downed, and the clients follow the room to its new home on the same connection, never given a
 * frame of an older epoch after a newer one.
 *
 * <p>{@code -Drooms.report=true} prints the bytes per second a player receives from a room of 100
 * lamps at the Pekko sample's step (0.1 s).
 */
class PlayersOverWebSocketTest {
    private static final List<String> PLAYERS = List.of("alice", "bob");
    private static final String APPLIED = "select count(*) from \"event_journal\" where \"persistence_id\" = ?"
            + " and \"event_ser_manifest\" like '%Applied'";

    private final String url = "jdbc:h2:mem:players-ws-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";

    /** A player's page on a JDK WebSocket: what it received, in order, applied to its replica on the test's thread. */
    static final class Client implements WebSocket.Listener {
        final String room;
        final String player;
        final BlockingQueue<String> frames = new LinkedBlockingQueue<>();
        final BlockingQueue<JsonNode> acks = new LinkedBlockingQueue<>();
        final List<Long> epochs = Collections.synchronizedList(new ArrayList<>());
        final AtomicLong bytes = new AtomicLong();
        final AtomicInteger opened = new AtomicInteger();
        final CompletableFuture<String> closed = new CompletableFuture<>();
        final StringBuilder partial = new StringBuilder();
        final StateWorld world;
        final Replica replica;
        final Saves saves;
        WebSocket socket;

        Client(String room, String player) {
            this(room, player, Lamps.LAMP, Lamps.POCKET);
        }

        Client(String room, String player, States<?>... machines) {
            this.room = room;
            this.player = player;
            this.world = StateWorld.create(player + "-" + room + "-page");
            this.replica = Replica.of(world, player, machines);
            this.saves = Saves.of(machines);
        }

        Client connect(HttpClient http, int port) throws Exception {
            socket = http.newWebSocketBuilder()
                    .buildAsync(URI.create("ws://127.0.0.1:" + port + "/rooms/" + room + "?player=" + player), this)
                    .get(30, TimeUnit.SECONDS);
            return this;
        }

        @Override
        public void onOpen(WebSocket webSocket) {
            opened.incrementAndGet();
            webSocket.request(1);
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String text = partial.toString();
                partial.setLength(0);
                bytes.addAndGet(text.length());
                JsonNode message = Seen.parse(text);
                if (message.has("format")) {
                    epochs.add(message.get("epoch").asLong());
                    frames.add(text);
                } else if (message.has("ack")) {
                    acks.add(message);
                } else {
                    closed.complete(text);
                }
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closed.complete("closed " + statusCode + " " + reason);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            closed.complete("error " + error);
        }

        /** Applies the frames received until the replica is at the step or past it; answers whether it is at it. */
        boolean applyTo(long step) throws InterruptedException {
            while (world.steps() < step) {
                String f = frames.poll(30, TimeUnit.SECONDS);
                if (f == null) {
                    fail(player + " in " + room + ": no frame of step " + step + "; closed: " + closed.getNow("no"));
                }
                replica.apply(f);
            }
            return world.steps() == step;
        }

        /** Applies every frame received so far. */
        void applyAll() {
            for (String f; (f = frames.poll()) != null; ) {
                replica.apply(f);
            }
        }
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void playersReplicasFollowTheirRoomToItsNewHomeOnTheSameConnectionNeverGoingBackAnEpochAndCommandsApplyOnce() throws Exception {
        Rooms.createH2Tables(url);
        List<ActorSystem<Void>> nodes = new ArrayList<>();
        HttpClient http = HttpClient.newHttpClient();
        try {
            Node.joinCluster(url, 3, nodes);
            RoomKind<Command> kind = Lamps.withPockets(4, PLAYERS, System::currentTimeMillis);
            List<Rooms<Command>> homes = new ArrayList<>();
            for (ActorSystem<Void> node : nodes) {
                homes.add(Rooms.start(node, kind).withAskTimeout(Duration.ofSeconds(10)));
            }
            Rooms<Command> rooms = homes.get(0);
            // the players connect to the first node; the rooms followed are those the youngest node runs (the victim)
            ActorSystem<Void> victim = nodes.get(2);
            String victimNode = Cluster.get(victim).selfMember().address().toString();
            List<String> followed = new ArrayList<>();
            for (int r = 0; r < 40 && followed.size() < 2; r++) {
                String id = String.format(Locale.ROOT, "r-%02d", r);
                get(rooms.open(id));
                if (get(rooms.status(id)).node().equals(victimNode)) {
                    followed.add(id);
                }
            }
            assertFalse(followed.isEmpty(), "no room on the victim node");
            ServerBinding binding = get(RoomsWebSocket.bind(nodes.get(0), rooms, 0));
            int port = binding.localAddress().getPort();
            List<Client> clients = new ArrayList<>();
            for (String room : followed) {
                for (String player : PLAYERS) {
                    clients.add(new Client(room, player).connect(http, port));
                }
            }
            for (Client c : clients) {
                assertReplicaSeesTheRoom(rooms, c);
            }

            // a command sent twice with one seq: answered alike, applied once
            Client alice = clients.get(0);
            String flip = "{\"seq\": 1, \"command\": {\"type\": \"flip\", \"key\": \"lamp-1\"}}";
            alice.socket.sendText(flip, true).get(30, TimeUnit.SECONDS);
            JsonNode firstAck = alice.acks.poll(30, TimeUnit.SECONDS);
            alice.socket.sendText(flip, true).get(30, TimeUnit.SECONDS);
            JsonNode secondAck = alice.acks.poll(30, TimeUnit.SECONDS);
            assertTrue(firstAck != null && firstAck.get("taken").asBoolean(), "the flip was not taken: " + firstAck);
            assertEquals(firstAck, secondAck, "sent again: answered as the first time");
            assertEquals(1, Node.count(url, APPLIED, "pockets|" + alice.room), "the journal has the command once");

            Map<String, Long> epochBefore = new java.util.HashMap<>();
            for (Client c : clients) {
                assertReplicaSeesTheRoom(rooms, c);
                epochBefore.put(c.player + "@" + c.room, c.replica.epoch());
            }

            // the rooms' home stops hard, then is downed; its rooms start again on the others
            Address victimAddress = Cluster.get(victim).selfMember().address();
            victim.terminate();
            victim.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
            Cluster.get(nodes.get(0)).manager().tell(new Down(victimAddress));
            for (Client c : clients) {
                long before = epochBefore.get(c.player + "@" + c.room);
                Node.await(c.player + " in " + c.room + " follows the room's new home", Duration.ofSeconds(90), () -> {
                    c.applyAll();
                    return c.replica.epoch() > before;
                });
            }
            for (String room : followed) {
                assertFalse(get(rooms.status(room)).node().equals(victimNode), room + " still on the stopped node");
            }
            for (Client c : clients) {
                assertReplicaSeesTheRoom(rooms, c);
                assertEquals(1, c.opened.get(), c.player + " in " + c.room + " connected again");
                assertFalse(c.closed.isDone(), c.player + " in " + c.room + ": " + c.closed.getNow(""));
                List<Long> epochs;
                synchronized (c.epochs) {
                    epochs = List.copyOf(c.epochs);
                }
                for (int i = 1; i < epochs.size(); i++) {
                    assertTrue(epochs.get(i) >= epochs.get(i - 1), c.player + " in " + c.room + " got an older epoch after a newer one: "
                            + epochs.subList(Math.max(0, i - 3), Math.min(epochs.size(), i + 3)));
                }
            }
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

    /** The client's replica equals its room as far as its player may see it, at one step of the room. */
    static void assertReplicaSeesTheRoom(Rooms<Command> rooms, Client c) throws Exception {
        String last = "the replica never stood at a step the room was dumped at";
        for (int attempt = 0; attempt < 50; attempt++) {
            Rooms.Dump dump = get(rooms.dump(c.room));
            // the room runs on: compare at the dump's step, unless a step event ran past it or a frame is still on its way
            if (c.applyTo(dump.steps())) {
                JsonNode room = Seen.by(dump.dump(), c.player);
                JsonNode replica = Seen.parse(c.saves.dump(c.world));
                if (room.equals(replica)) {
                    return;
                }
                last = "at step " + dump.steps() + " the room, as the player may see it, is " + room + "; the replica " + replica;
            }
            Thread.sleep(50);
        }
        fail(c.player + "'s replica of " + c.room + ": " + last);
    }
}

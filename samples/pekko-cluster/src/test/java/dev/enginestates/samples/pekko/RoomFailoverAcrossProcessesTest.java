package dev.enginestates.samples.pekko;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.io.Replica;
import dev.enginestates.io.Saves;
import dev.enginestates.pekko.Room;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Rooms survive a node killed with SIGKILL, with players connected: three JVM processes on loopback
 * ({@link RoomServerMain}, started and stopped here), the journal and snapshots in PostgreSQL, 100 players' WebSocket
 * clients in this JVM each keeping a replica of its room. The clients connect to the two nodes that live; every player
 * sends commands through its WebSocket, numbered its own way, each again with its seq until answered, and the journal
 * must hold each (player, seq) answered, once.
 * The players are of the game's two wings ({@link GuardRooms#sees}): each replica holds its wing's guards and those
 * answering the bell, which come and go as the bell rings and the guards go back.
 * The third node is killed mid-wait (guards in every kind of wait); the cluster's split-brain resolver downs it with its
 * default settings and the dead node's rooms start on the other two.
 *
 * <p>Then: no step the dead node had in the journal is lost; every room equals its twin (one world, no cluster, the
 * same commands at the same steps), and so does every client's replica, as its player sees the twin, at the first
 * frame of each home, at every 25th step and at the end; each client of a moved room followed it on the same connection, to a larger epoch, and never
 * received a frame of an older epoch after a newer one, nor a step the room later lost.
 *
 * <p>Size: {@code -Drooms.processes.rooms=50 -Drooms.processes.guards=50 -Drooms.processes.players=2} (the default:
 * 100 clients). Needs PostgreSQL ({@link PostgresJournal}); skipped without it. {@code -Drooms.report=true} prints
 * the figures.
 */
class RoomFailoverAcrossProcessesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Saves SAVES = Saves.of(RoomGuard.GUARD);
    private static final Duration START = Duration.ofSeconds(120);

    /** A player's command as its room answered it. */
    record Logged(String player, long seq, RoomInput input, long step, boolean taken) {
    }

    /** A replica (or, with no player, the room) as it stood after a frame: its step, its epoch, its dump. */
    record Seen(String player, long step, long epoch, String dump, String why) {
    }

    /** A player's page: a WebSocket client whose replica takes each frame as it arrives. */
    static final class Client implements WebSocket.Listener {
        final String room;
        final String player;
        final StateWorld world;
        final Replica replica;
        final List<Long> epochs = new ArrayList<>();
        final List<Seen> seen = new ArrayList<>();
        /** The newest step the client saw of each epoch. */
        final Map<Long, Long> newestStep = new HashMap<>();
        final CompletableFuture<String> closed = new CompletableFuture<>();
        final StringBuilder partial = new StringBuilder();
        int opened;
        Driver driver;
        WebSocket socket;
        long bytes;

        Client(String room, String player) {
            this.room = room;
            this.player = player;
            this.world = StateWorld.create(player + "@" + room);
            this.replica = Replica.of(world, player, RoomGuard.GUARD);
            // the socket's threads apply frames, the test's reads the replica: each hands the world on when done
            world.release();
        }

        @Override
        public synchronized void onOpen(WebSocket webSocket) {
            opened++;
            webSocket.request(1);
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            JsonNode ack;
            synchronized (this) {
                partial.append(data);
                try {
                    ack = last ? take() : null;
                } finally {
                    world.release();
                }
            }
            if (ack != null) {
                driver.answered(ack);
            }
            webSocket.request(1);
            return null;
        }

        /** Takes a whole message: a frame goes to the replica; an answer to a command is returned for the driver. */
        private JsonNode take() {
            String text = partial.toString();
            partial.setLength(0);
            bytes += text.length();
            JsonNode message;
            try {
                message = read(text);
            } catch (RuntimeException e) {
                closed.complete("unreadable message " + e);
                throw e;
            }
            if (message.has("ack")) {
                return message;
            }
            if (!message.has("format")) {
                closed.complete(text);
                return null;
            }
            long epoch = message.get("epoch").asLong();
            epochs.add(epoch);
            long before = replica.epoch();
            try {
                replica.apply(text);
            } catch (RuntimeException e) {
                closed.complete("frame refused by the replica: " + e);
                throw e;
            }
            newestStep.merge(epoch, world.steps(), Math::max);
            if (replica.epoch() != before) {
                seen.add(new Seen(player, world.steps(), replica.epoch(), SAVES.dump(world), "the first frame of epoch " + epoch));
            } else if (world.steps() % 25 == 0) {
                seen.add(new Seen(player, world.steps(), replica.epoch(), SAVES.dump(world), "a frame of step " + world.steps()));
            }
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

        synchronized long epoch() {
            return replica.epoch();
        }

        synchronized long steps() {
            try {
                return world.steps();
            } finally {
                world.release();
            }
        }

        synchronized void seeNow(String why) {
            try {
                seen.add(new Seen(player, world.steps(), replica.epoch(), SAVES.dump(world), why));
            } finally {
                world.release();
            }
        }

        @Override
        public String toString() {
            return player + " in " + room;
        }
    }

    /** Sends one room random commands through one client's socket, one at a time, each again until answered. */
    static final class Driver {
        final Client client;
        final int guards;
        final ScheduledExecutorService timer;
        final SplittableRandom random;
        final List<Logged> log = Collections.synchronizedList(new ArrayList<>());
        final CompletableFuture<Void> done = new CompletableFuture<>();
        volatile boolean running = true;
        long seq;
        RoomInput inFlight;
        int spawned;
        int again;

        Driver(Client client, int guards, ScheduledExecutorService timer, long seed) {
            this.client = client;
            this.guards = guards;
            this.timer = timer;
            this.random = new SplittableRandom(seed);
        }

        synchronized void next() {
            if (!running) {
                done.complete(null);
                return;
            }
            inFlight = pick();
            seq++;
            send();
        }

        private RoomInput pick() {
            String guard = String.format(Locale.ROOT, "guard-%03d", random.nextInt(guards));
            double p = random.nextDouble();
            if (p < 0.6) {
                return new RoomInput.Send(guard, RoomGuard.EVENTS[random.nextInt(RoomGuard.EVENTS.length)]);
            } else if (p < 0.9) {
                return new RoomInput.Hold(guard, p < 0.75);
            }
            return new RoomInput.Spawn("extra-" + (spawned++));
        }

        private synchronized void send() {
            ObjectNode message = JSON.createObjectNode();
            message.put("seq", seq);
            message.set("command", JSON.valueToTree(inFlight));
            client.socket.sendText(message.toString(), true);
        }

        void answered(JsonNode ack) {
            synchronized (this) {
                if (ack.get("ack").asLong() != seq) {
                    fail(client + ": answered " + ack + " while command " + seq + " was in flight");
                }
                if (ack.get("step").asLong() < 0) {
                    // not applied now (its room moving): the same command with the same seq, applied once
                    again++;
                    timer.schedule(this::send, 100, TimeUnit.MILLISECONDS);
                    return;
                }
                log.add(new Logged(client.player, seq, inFlight, ack.get("step").asLong(), ack.get("taken").asBoolean()));
            }
            timer.schedule(this::next, 100 + random.nextInt(400), TimeUnit.MILLISECONDS);
        }
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void threeNodeProcessesOneKilledMidWaitLoseNoStepAndEveryPlayerFollowsItsRoomToEqualState() throws Exception {
        int roomCount = Integer.getInteger("rooms.processes.rooms", 50);
        int guards = Integer.getInteger("rooms.processes.guards", 50);
        int playersPerRoom = Integer.getInteger("rooms.processes.players", 2);
        boolean report = Boolean.getBoolean("rooms.report");
        HttpClient http = HttpClient.newHttpClient();
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        List<NodeProcess> nodes = new ArrayList<>();
        List<Client> clients = new ArrayList<>();
        long t0 = System.nanoTime();
        try (PostgresJournal db = PostgresJournal.create()) {
            Map<String, String> database = Map.of("ROOMS_JDBC_URL", db.url(), "ROOMS_JDBC_USER", db.user(),
                    "ROOMS_JDBC_PASSWORD", db.password());
            nodes.add(NodeProcess.start("a", 0, "self", 3, guards, database, http));
            String seed = nodes.get(0).address(START);
            nodes.add(NodeProcess.start("b", 0, seed, 3, guards, database, http));
            nodes.add(NodeProcess.start("c", 0, seed, 3, guards, database, http));
            NodeProcess a = nodes.get(0);
            NodeProcess b = nodes.get(1);
            NodeProcess victim = nodes.get(2);
            int[] ports = {a.webSocketPort(START), b.webSocketPort(START), victim.webSocketPort(START)};
            String victimAddress = victim.address(START);
            long clusterUp = System.nanoTime();

            List<String> roomIds = new ArrayList<>();
            for (int r = 0; r < roomCount; r++) {
                String id = String.format(Locale.ROOT, "room-%03d", r);
                a.ask("open", id);
                roomIds.add(id);
            }
            // the players connect to the nodes that live, half to each; each sends commands, numbered its own way
            List<Driver> drivers = new ArrayList<>();
            for (int r = 0; r < roomCount; r++) {
                for (int p = 0; p < playersPerRoom; p++) {
                    // a player of each wing: each sees his wing's guards and those answering the bell, no byte of the others
                    Client c = new Client(roomIds.get(r), (p % 2 == 0 ? "east-" : "west-") + p);
                    int port = ports[(r * playersPerRoom + p) % 2];
                    c.socket = http.newWebSocketBuilder().buildAsync(URI.create("ws://127.0.0.1:" + port + "/rooms/" + c.room
                            + "?player=" + c.player), c).get(30, TimeUnit.SECONDS);
                    clients.add(c);
                    c.driver = new Driver(c, guards, timer, 1000L + r * 10L + p);
                    drivers.add(c.driver);
                }
            }
            await("every client's replica has its room's whole frame", Duration.ofSeconds(60), () -> clients.stream().allMatch(c -> c.epoch() > 0),
                    () -> clients.stream().filter(c -> c.epoch() == 0).map(c -> c + " (" + c.closed.getNow("open") + ")").limit(5)
                            .collect(Collectors.joining(", ")));
            drivers.forEach(Driver::next);
            Thread.sleep(6_000); // past the first snapshot (step 50), guards in every kind of wait

            Map<String, String[]> before = new HashMap<>();
            for (String id : roomIds) {
                before.put(id, a.ask("status", id).split(" "));
            }
            List<String> moved = roomIds.stream().filter(id -> before.get(id)[0].equals(victimAddress)).sorted().collect(Collectors.toList());
            assertFalse(moved.isEmpty(), "the node to kill runs no room: " + victimAddress);
            int midWait = 0;
            for (String id : moved) {
                assertTrue(Integer.parseInt(before.get(id)[3]) > 0, id + " has no guard mid-wait");
                midWait += Integer.parseInt(before.get(id)[3]);
            }
            Map<Client, Long> epochBefore = new HashMap<>();
            for (Client c : clients) {
                epochBefore.put(c, c.epoch());
            }

            long killAt = System.nanoTime();
            victim.kill();
            await("the killed node's rooms start on the others", Duration.ofSeconds(120),
                    () -> moved.stream().allMatch(id -> a.recovered(id) != null || b.recovered(id) != null));
            long allBack = System.nanoTime();
            List<Client> following = clients.stream().filter(c -> moved.contains(c.room)).collect(Collectors.toList());
            await("every client of a moved room follows it to its new home", Duration.ofSeconds(60),
                    () -> following.stream().allMatch(c -> c.epoch() > epochBefore.get(c)));
            long allFollowed = System.nanoTime();
            Thread.sleep(3_000);
            drivers.forEach(d -> d.running = false);
            CompletableFuture.allOf(drivers.stream().map(d -> d.done).toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

            // the rooms now, and each client once it has reached its room's step
            Map<String, Seen> rooms = new HashMap<>();
            for (String id : roomIds) {
                String answer = a.ask("dump", id);
                int nl = answer.indexOf('\n');
                rooms.put(id, new Seen(null, Long.parseLong(answer.substring(0, nl)), 0, answer.substring(nl + 1), "the room at the end"));
            }
            for (Client c : clients) {
                long step = rooms.get(c.room).step();
                await(c + " reaches its room's step " + step, Duration.ofSeconds(30), () -> c.steps() >= step);
                c.seeNow("the end");
            }

            // nothing lost, nothing older shown, the same connection throughout
            long lost = 0;
            for (String id : moved) {
                NodeProcess.Recovery back = a.recovered(id) != null ? a.recovered(id) : b.recovered(id);
                lost += Math.max(0, victim.persisted.getOrDefault(id, 0L) - back.steps());
                for (Client c : clients) {
                    if (c.room.equals(id)) {
                        long shown = c.newestStep.getOrDefault(epochBefore.get(c), 0L);
                        assertTrue(shown <= back.steps(), c + " was shown step " + shown + " by the killed node, which the room lost"
                                + " (it came back at step " + back.steps() + ")");
                    }
                }
            }
            assertEquals(0, lost, "steps the killed node had in the journal were lost");
            for (Client c : clients) {
                synchronized (c) {
                    assertEquals(1, c.opened, c + " connected again");
                    assertFalse(c.closed.isDone(), c + ": " + c.closed.getNow(""));
                    for (int i = 1; i < c.epochs.size(); i++) {
                        assertTrue(c.epochs.get(i) >= c.epochs.get(i - 1), c + " got a frame of an older epoch after a newer one: "
                                + c.epochs.subList(Math.max(0, i - 3), Math.min(c.epochs.size(), i + 3)));
                    }
                }
            }

            // every room and every replica equal to the room's twin at the same step
            long compared = 0;
            int commands = 0;
            int again = 0;
            for (String id : roomIds) {
                List<Seen> checks = new ArrayList<>();
                checks.add(rooms.get(id));
                List<Logged> logged = new ArrayList<>();
                for (Client c : clients) {
                    if (c.room.equals(id)) {
                        synchronized (c) {
                            checks.addAll(c.seen);
                        }
                        logged.addAll(c.driver.log);
                        again += c.driver.again;
                    }
                }
                commands += logged.size();
                compared += compareWithTwin(id, GuardRooms.kind(guards), inJournalOrder(id, logged, db), checks);
            }

            if (report) {
                long bytes = clients.stream().mapToLong(c -> c.bytes).sum();
                double seconds = (System.nanoTime() - clusterUp) / 1e9;
                System.out.printf(Locale.ROOT, "3 node processes, journal in PostgreSQL: %d rooms of %d guards, %d clients; cluster up"
                        + " in %.1f s%n", roomCount, guards, clients.size(), (clusterUp - t0) / 1e9);
                System.out.printf(Locale.ROOT, "killed %s (SIGKILL) with %d rooms, %d guards mid-wait; all back %.1f s later (the"
                        + " split-brain resolver's 20 s included), every client following %.1f s later%n", victimAddress, moved.size(),
                        midWait, (allBack - killAt) / 1e9, (allFollowed - killAt) / 1e9);
                System.out.printf(Locale.ROOT, "steps lost: %d; commands: %d (%d sent again while rooms moved); %d states compared with"
                        + " twins; clients received %.0f B/s each on average%n", lost, commands, again, compared,
                        bytes / seconds / clients.size());
            }
        } finally {
            timer.shutdownNow();
            for (Client c : clients) {
                if (c.socket != null) {
                    c.socket.abort();
                }
            }
            for (NodeProcess node : nodes) {
                node.close();
            }
        }
    }

    /**
     * Runs the room's twin through its commands at their steps, checking each state seen (by a client or of the room)
     * at its step: a state seen at a step where commands applied may be before or after any of them.
     *
     * @return how many states were compared
     */
    private static long compareWithTwin(String roomId, dev.enginestates.pekko.RoomKind<RoomInput> kind, List<Logged> logged,
                                        List<Seen> checks) {
        List<Logged> log = logged;
        List<Seen> pending = new ArrayList<>(checks);
        pending.sort((x, y) -> Long.compare(x.step(), y.step()));
        try (Room<RoomInput> twin = Room.open(kind, roomId)) {
            int next = 0;
            int check = 0;
            while (check < pending.size()) {
                long step = pending.get(check).step();
                // the twin's states at this step, as each player sees it: after stepping to it, then after each command at it
                List<Seen> here = new ArrayList<>();
                for (int i = check; i < pending.size() && pending.get(i).step() == step; i++) {
                    here.add(pending.get(i));
                }
                Map<String, List<String>> states = new HashMap<>();
                while (next < log.size() && log.get(next).step() < step) {
                    apply(twin, log.get(next++), roomId);
                }
                twin.step((int) (step - twin.steps()));
                views(twin, here, states);
                while (next < log.size() && log.get(next).step() == step) {
                    apply(twin, log.get(next++), roomId);
                    views(twin, here, states);
                }
                for (Seen s : here) {
                    String dump = read(s.dump()).get("entities").toString();
                    List<String> twins = states.get(String.valueOf(s.player()));
                    if (!twins.contains(dump)) {
                        fail(roomId + ", " + (s.player() == null ? "" : s.player() + "'s replica, ") + s.why() + " at step " + step
                                + " (epoch " + s.epoch() + "): differs from the room's twin as that player sees it."
                                + "\nseen: " + dump + "\ntwin: " + twins.get(twins.size() - 1));
                    }
                }
                check += here.size();
            }
        }
        return pending.size();
    }

    /** The twin's entities now as each player checked here sees them (by the game's own rule), the room's whole for none. */
    private static void views(Room<RoomInput> twin, List<Seen> here, Map<String, List<String>> states) {
        ObjectNode entities = (ObjectNode) read(twin.dump()).get("entities");
        java.util.Set<String> players = new java.util.LinkedHashSet<>();
        here.forEach(s -> players.add(s.player()));
        for (String player : players) {
            ObjectNode view = entities.deepCopy();
            if (player != null) {
                List<String> hidden = new ArrayList<>();
                view.fieldNames().forEachRemaining(k -> {
                    if (!twin.read(w -> GuardRooms.sees(player, w.entity(k)))) {
                        hidden.add(k);
                    }
                });
                view.remove(hidden);
            }
            states.computeIfAbsent(String.valueOf(player), k -> new ArrayList<>()).add(view.toString());
        }
    }

    private static void apply(Room<RoomInput> twin, Logged l, String roomId) {
        if (l.step() < twin.steps()) {
            fail(roomId + ": " + l.player() + "'s command " + l.seq() + " is after step " + twin.steps() + " in the journal, but was"
                    + " answered at step " + l.step());
        }
        twin.step((int) (l.step() - twin.steps()));
        assertEquals(l.taken(), twin.apply(l.player(), l.input()), roomId + ": " + l.player() + "'s command " + l.seq() + " "
                + l.input() + " taken differently by the twin");
    }

    /**
     * The players' answered commands in the order the room applied them, read from its journal: each (player, seq) is
     * there once, and every one there was answered.
     */
    private static List<Logged> inJournalOrder(String roomId, List<Logged> answered, PostgresJournal db) throws Exception {
        Map<String, Logged> byKey = new HashMap<>();
        for (Logged l : answered) {
            byKey.put(l.player() + "#" + l.seq(), l);
        }
        List<Logged> ordered = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (JsonNode applied : db.applied("room|" + roomId)) {
            String key = applied.get("sender").asText() + "#" + applied.get("seq").asLong();
            assertTrue(seen.add(key), roomId + ": command " + key + " is in the journal twice");
            Logged l = byKey.get(key);
            if (l == null) {
                fail(roomId + ": command " + key + " is in the journal, but no player had an answer for it");
            }
            ordered.add(l);
        }
        assertEquals(byKey.keySet(), seen, roomId + ": the answered commands and those in the journal differ");
        return ordered;
    }

    private static JsonNode read(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException("not JSON: " + text, e);
        }
    }

    private static void await(String what, Duration within, BooleanSupplier condition) throws InterruptedException {
        await(what, within, condition, () -> "");
    }

    private static void await(String what, Duration within, BooleanSupplier condition, java.util.function.Supplier<String> detail)
            throws InterruptedException {
        long end = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                fail("not within " + within.toSeconds() + " s: " + what + "; " + detail.get());
            }
            Thread.sleep(50);
        }
    }
}

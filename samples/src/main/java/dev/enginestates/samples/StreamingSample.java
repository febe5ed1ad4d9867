package dev.enginestates.samples;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.dominion.ecs.api.Entity;
import dev.enginestates.ecs.EntityKey;
import dev.enginestates.ecs.Owner;
import dev.enginestates.ecs.StateWorld;
import dev.enginestates.ecs.States;
import dev.enginestates.io.Replica;
import dev.enginestates.io.RoomStream;
import dev.enginestates.io.Saves;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static dev.enginestates.samples.Guard.GuardEvent.BELL;
import static dev.enginestates.samples.Guard.GuardEvent.RESUME;
import static dev.enginestates.samples.Guard.GuardState.ANSWER;

/**
 * A room streamed to two players' pages over HTTP (a machine declared its owner's alone reaches
 * that player and nobody else; a page that joins mid-run, or reloads, receives the record whole),
 * with the JDK's own server and client, server-sent events
 * as the transport.
 *
 * <p>The room steps a siege (the world's own machine), five guards and a hero whose
 * conversation is declared {@code ownerOnly()} and owned by alice. Each step it makes each
 * joined player's frame with {@link RoomStream#frames()} and hands it to that player's
 * connection. The server ({@link HttpServer} on 127.0.0.1, a free port) serves
 * {@code /stream?player=alice} as {@code text/event-stream}: a connection asks the room to
 * join the player, and writes each frame as one event. Two clients, each on its own thread
 * with its own replica world, read the events with {@link HttpClient} and apply them with
 * {@link Replica#apply}: alice from the start, bob late, while the room runs. Bob's first frame
 * is whole; his replica holds the states the room is in, and no record of alice's conversation
 * ever reaches him.
 *
 * <p>Run: {@code mvn -q -pl samples exec:java -Dexec.mainClass=dev.enginestates.samples.StreamingSample}
 */
public final class StreamingSample {
    /** The fixed step. */
    public static final double DT = 1.0 / 60;
    /** A conversation, alice's alone: declared ownerOnly, so only her page receives it. */
    public static final States<Talk> TALK = States.define("talk", Talk::new, m -> m
            .ownerOnly()
            .initial("idle")
            .state("idle", s -> s.on("GREET", t -> t.target("talking").action((talk, e) -> talk.topic = "the bell")))
            .state("talking", s -> s.entry((talk, e) -> talk.lines++).waitFor(2, "idle")));
    /** The guards, every player's. */
    public static final States<Guard> GUARDS = States.of(Guard.MACHINE);
    /** The siege, on the world's own entity, every player's. */
    public static final States<Siege> SIEGE = States.of(Siege.MACHINE);
    /** The machines the room streams. */
    static final States<?>[] STREAMED = {SIEGE, GUARDS, TALK};
    /** Saves, for the checkpoints the sample compares. */
    public static final Saves SAVES = Saves.of(STREAMED);
    /** Steps the room runs: five seconds of game time. */
    public static final int STEPS = 300;
    /** Bob's page opens once the room has passed this step... */
    public static final int BOB_OPENS = 100;
    /** ...and the room waits at this one until he has joined, so he joins mid-run. */
    public static final int BOB_JOINED_BY = 130;

    private StreamingSample() {
    }

    /** A conversation's context. */
    public static final class Talk {
        /** Lines said so far. */
        public int lines;
        /** What it is about. */
        public String topic = "";
    }

    /** What a run ends with: the room's checkpoint and each player's replica, read on its own thread. */
    public static final class Result {
        /** The room's checkpoint at the end. */
        public final String room;
        /** Each player's replica checkpoint at the end. */
        public final Map<String, String> replicas;
        /** Each player's number of frames applied. */
        public final Map<String, Long> frames;
        /** Each player's count of guards answering the bell, by a tag query on its replica. */
        public final Map<String, Long> answering;
        /** The room's count of guards answering the bell. */
        public final long roomAnswering;
        /** The step at which the room joined bob. */
        public final long bobJoinedAt;

        Result(String room, Map<String, String> replicas, Map<String, Long> frames, Map<String, Long> answering, long roomAnswering,
                long bobJoinedAt) {
            this.room = room;
            this.replicas = replicas;
            this.frames = frames;
            this.answering = answering;
            this.roomAnswering = roomAnswering;
            this.bobJoinedAt = bobJoinedAt;
        }
    }

    /** One player's connection: the frames the room hands it, then {@link #END}. */
    private static final class Connection {
        final String player;
        final BlockingQueue<String> frames = new LinkedBlockingQueue<>();

        Connection(String player) {
            this.player = player;
        }
    }

    private static final String END = "";

    /**
     * Runs the room, the server and the two clients, and prints what each page holds.
     *
     * @param args not used
     * @throws Exception if the server cannot start or a client fails
     */
    public static void main(String[] args) throws Exception {
        Result r = run(true);
        System.out.println("bob joined at step " + r.bobJoinedAt + " of " + STEPS);
        for (String player : r.replicas.keySet()) {
            System.out.printf("%-5s %d frames, %d guard(s) answering the bell (the room: %d), talk %s, replica %s the room's%n", player,
                    r.frames.get(player), r.answering.get(player), r.roomAnswering,
                    r.replicas.get(player).contains("\"talk\"") ? "received" : "never received",
                    sameJson(r.replicas.get(player), seenBy(r.room, player)) ? "equal to" : "NOT equal to");
        }
    }

    /**
     * The room's checkpoint as a player may see it: the talk is alice's alone, its version too.
     *
     * @param roomCheckpoint the room's checkpoint
     * @param player the player
     * @return the checkpoint without the records the player does not receive
     */
    public static String seenBy(String roomCheckpoint, String player) {
        if (player.equals("alice")) {
            return roomCheckpoint;
        }
        try {
            var json = new com.fasterxml.jackson.databind.ObjectMapper();
            var root = (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(roomCheckpoint);
            var entities = (com.fasterxml.jackson.databind.node.ObjectNode) root.get("entities");
            for (Iterator<Map.Entry<String, com.fasterxml.jackson.databind.JsonNode>> it = entities.properties().iterator(); it.hasNext(); ) {
                var machines = (com.fasterxml.jackson.databind.node.ObjectNode) it.next().getValue();
                machines.remove("talk");
                if (machines.isEmpty()) {
                    it.remove();
                }
            }
            var versions = (com.fasterxml.jackson.databind.node.ObjectNode) root.get("machines");
            if (versions != null) {
                versions.remove("talk"); // a player is told the version of a machine only with its records
            }
            return json.writeValueAsString(root);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Whether two JSON texts hold the same values, however they are laid out.
     *
     * @param a a JSON text
     * @param b another
     * @return {@code true} if they parse to equal trees
     */
    public static boolean sameJson(String a, String b) {
        try {
            var json = new com.fasterxml.jackson.databind.ObjectMapper();
            return json.readTree(a).equals(json.readTree(b));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Runs the room on this thread, serving it to alice from the start and to bob mid-run.
     *
     * @param realTime whether the room steps at 60 Hz of wall time (the demo) or as fast as it can (the test)
     * @return what the room and the replicas end with
     * @throws Exception if the server cannot start or a client fails
     */
    public static Result run(boolean realTime) throws Exception {
        BlockingQueue<Connection> joins = new LinkedBlockingQueue<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        ExecutorService handlers = Executors.newCachedThreadPool();
        ExecutorService clients = Executors.newFixedThreadPool(2);
        server.setExecutor(handlers);
        server.createContext("/stream", exchange -> serve(exchange, joins));
        server.start();
        try (StateWorld room = StateWorld.create("streamed-room")) {
            URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/stream");
            if (realTime) {
                System.out.println("the room is served at " + base + "?player=<id> (server-sent events)");
            }
            // the room, as a game builds it
            room.add(SIEGE);
            Entity[] guards = new Entity[5];
            for (int i = 0; i < guards.length; i++) {
                guards[i] = room.spawn(EntityKey.of("guard-" + i), GUARDS.trait());
            }
            Entity hero = room.spawn(EntityKey.of("hero"), new Owner("alice"), TALK.trait());
            RoomStream stream = RoomStream.of(room, STREAMED);

            Future<Page> alice = clients.submit(() -> page(base, "alice"));
            Future<Page> bob = null;
            long bobJoinedAt = -1;
            Map<String, Connection> connected = new LinkedHashMap<>();
            long started = System.nanoTime();
            for (int step = 0; step < STEPS; step++) {
                if (step == 0 || step == BOB_JOINED_BY) {
                    // wait for the page that must have joined by now (alice before the first step, bob mid-run)
                    while (connected.size() < (step == 0 ? 1 : 2)) {
                        Connection c = joins.poll(30, TimeUnit.SECONDS); // generous: a page on a loaded machine may be slow
                        if (c == null) {
                            throw new IllegalStateException("no page joined within 30 s");
                        }
                        stream.join(c.player);
                        connected.put(c.player, c);
                        bobJoinedAt = c.player.equals("bob") ? step : bobJoinedAt;
                    }
                }
                for (Connection c; (c = joins.poll()) != null; ) {
                    stream.join(c.player); // a page that opens or reloads: its next frame is whole
                    connected.put(c.player, c);
                    bobJoinedAt = c.player.equals("bob") ? step : bobJoinedAt;
                }
                if (step == BOB_OPENS) {
                    bob = clients.submit(() -> page(base, "bob"));
                }
                play(room, step, guards, hero);
                room.step(DT);
                for (Map.Entry<String, String> f : stream.frames().entrySet()) {
                    connected.get(f.getKey()).frames.add(f.getValue());
                }
                if (realTime) {
                    long due = started + (long) ((step + 1) * DT * 1e9);
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                }
            }
            for (Connection c : connected.values()) {
                c.frames.add(END);
            }
            Page a = alice.get(60, TimeUnit.SECONDS);
            Page b = bob.get(60, TimeUnit.SECONDS);
            Map<String, String> replicas = new LinkedHashMap<>();
            Map<String, Long> frames = new LinkedHashMap<>();
            Map<String, Long> answering = new LinkedHashMap<>();
            for (Page p : new Page[] {a, b}) {
                replicas.put(p.player, p.checkpoint);
                frames.put(p.player, p.frames);
                answering.put(p.player, p.answering);
            }
            return new Result(SAVES.checkpoint(room), replicas, frames, answering, room.query(GUARDS.is(ANSWER)).count(), bobJoinedAt);
        } finally {
            server.stop(0);
            handlers.shutdownNow();
            clients.shutdownNow();
        }
    }

    /** What happens in the room: the siege starts, a bell rings, alice greets, a guard goes back, one leaves and one comes. */
    private static void play(StateWorld room, int step, Entity[] guards, Entity hero) {
        switch (step) {
            case 20 -> SIEGE.send(room, "START");
            case 40 -> GUARDS.send(guards[1], BELL);
            case 60 -> TALK.send(hero, "GREET");
            case 90, 200 -> GUARDS.send(guards[3], BELL);
            case 150 -> GUARDS.send(guards[1], RESUME);
            case 180 -> {
                room.despawn(guards[4]);
                room.spawn(EntityKey.of("guard-5"), GUARDS.trait());
            }
            case 240 -> SIEGE.send(room, "WAVE_HELD");
            default -> { }
        }
    }

    /** One connection: asks the room to join the player, then writes each frame as a server-sent event. */
    private static void serve(HttpExchange exchange, BlockingQueue<Connection> joins) throws IOException {
        String query = exchange.getRequestURI().getQuery();
        String player = query != null && query.startsWith("player=") ? query.substring("player=".length()) : "";
        if (player.isEmpty()) {
            exchange.sendResponseHeaders(400, -1);
            exchange.close();
            return;
        }
        Connection c = new Connection(player);
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
        exchange.getResponseHeaders().set("Cache-Control", "no-cache");
        exchange.sendResponseHeaders(200, 0); // streamed: chunked, as long as the room runs
        joins.add(c);
        try (OutputStream out = exchange.getResponseBody()) {
            while (true) {
                String frame = c.frames.take();
                if (frame == END) {
                    out.write("event: end\ndata: \n\n".getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    return;
                }
                out.write(("data: " + frame + "\n\n").getBytes(StandardCharsets.UTF_8)); // a frame is one line of JSON
                out.flush();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What a page ends with, read on its own thread. */
    private static final class Page {
        final String player;
        final String checkpoint;
        final long frames;
        final long answering;

        Page(String player, String checkpoint, long frames, long answering) {
            this.player = player;
            this.checkpoint = checkpoint;
            this.frames = frames;
            this.answering = answering;
        }
    }

    /** A player's page: opens the stream and applies each event to its replica until the room ends. */
    private static Page page(URI base, String player) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "?player=" + player)).header("Accept", "text/event-stream").build();
        HttpResponse<Stream<String>> response = http.send(request, HttpResponse.BodyHandlers.ofLines());
        if (response.statusCode() != 200) {
            throw new IOException(player + ": the room answered " + response.statusCode());
        }
        try (StateWorld world = StateWorld.create(player + "-page"); Stream<String> lines = response.body()) {
            Replica replica = Replica.of(world, player, STREAMED);
            long applied = 0;
            for (Iterator<String> it = lines.iterator(); it.hasNext(); ) {
                String line = it.next();
                if (line.startsWith("event: end")) {
                    break;
                }
                if (line.startsWith("data: ")) {
                    replica.apply(line.substring("data: ".length()));
                    applied++;
                }
            }
            return new Page(player, SAVES.checkpoint(world), applied, world.query(GUARDS.is(ANSWER)).count());
        }
    }
}
